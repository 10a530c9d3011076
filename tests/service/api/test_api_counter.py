"""The counter (staff PIN): its own PIN and login token, the tables and settlement JSON, the prices, a
table's default rule, renaming a player, and editing house rule files with the same checks as loading
one. The real app on a real SQLite file (TestClient); page forms posted as a browser without htmx does."""

from __future__ import annotations

import html
import re

import pytest
import scoring
from fastapi.testclient import TestClient

from service.app import create_app
from service.heartbeat import Heartbeat
from service.deps import STAFF_COOKIE
from service.settings import DEMO_FRAMES, Settings
from table_fixtures import PIN, PLAYERS, house_rule, record, write_rule

STAFF = "8765"
STAFF_H = {"X-Staff-PIN": STAFF}
TABLE_H = {"X-Table-PIN": PIN}
BAD_TYPE = """extends = "dunhill"
name_ja = "うちのルール"
name_en = "Ours"

[table]
noten_total = "10"
"""


@pytest.fixture
def settings(tmp_path) -> Settings:
    return Settings(_env_file=None, data_dir=tmp_path / "data", pin=PIN, staff_pin=STAFF, table_name="table 1",
                    camera=str(DEMO_FRAMES), camera_fps=20, watch=False)


@pytest.fixture
def client(settings):
    with TestClient(create_app(settings)) as c:
        yield c


@pytest.fixture
def staff(client):
    """The client logged in at the counter (its cookie)."""
    r = client.post("/counter/login", data={"pin": STAFF}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/counter"
    return client


def said(r) -> str:
    """A refused page's one line (its flash message), as the staff read it."""
    m = re.search(r'class="flash error"[^>]*>(.*?)</p>', r.text, re.S)
    return html.unescape(m.group(1)) if m else r.text


def played(client, rules: str = "dunhill") -> str:
    """A session at this table with one hand: Aki (east, dealer) tsumo."""
    sid = client.post("/api/sessions", json={"rules": rules, "players": PLAYERS}, headers=TABLE_H).json()["id"]
    r = client.post(f"/api/sessions/{sid}/wins", json={"records": [record("east", "tsumo", rules=rules)]},
                    headers=TABLE_H)
    assert r.status_code == 201, r.text
    return sid


# -- the staff PIN ---------------------------------------------------------------------------------

def test_a_table_pin_does_not_open_the_counter(client):
    for headers in ({"X-Table-PIN": PIN}, {"X-Staff-PIN": PIN}, {}):
        r = client.get("/api/counter/tables", headers=headers)
        assert r.status_code == 401 and "staff PIN" in r.json()["detail"]
    r = client.get("/counter", headers={"X-Table-PIN": PIN}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/counter/login"
    # the table's login cookie does not open it either
    client.post("/login", data={"pin": PIN})
    assert client.get("/counter", follow_redirects=False).headers["location"] == "/counter/login"
    assert client.post("/counter/login", data={"pin": PIN}).status_code == 401


def test_the_staff_pin_does_not_open_a_table(client, staff):
    assert client.get("/api/counter/tables", headers=STAFF_H).status_code == 200
    for headers in (STAFF_H, {"X-Table-PIN": STAFF}):
        r = client.get("/api/sessions", headers=headers)
        assert r.status_code == 401 and "table's PIN" in r.json()["detail"]
    assert client.get("/", follow_redirects=False).headers["location"] == "/login"    # the staff cookie alone


def test_the_staff_cookie_is_a_token_not_the_pin(client):
    r = client.post("/counter/login", data={"pin": STAFF}, follow_redirects=False)
    cookie = r.headers["set-cookie"]
    token = re.search(rf"{STAFF_COOKIE}=([^;]+)", cookie).group(1)
    assert STAFF not in token and "HttpOnly" in cookie and "samesite=strict" in cookie.lower()
    assert client.get("/counter").status_code == 200
    assert client.app.state.tokens.valid(token, "staff", STAFF)
    assert not client.app.state.tokens.valid(token, "table:table 1", STAFF)


def test_an_expired_staff_token_is_refused(client):
    old = client.app.state.tokens.issue("staff", STAFF, -1)           # expired a second ago
    client.cookies.set(STAFF_COOKIE, old)
    assert client.get("/counter", follow_redirects=False).headers["location"] == "/counter/login"
    assert client.get("/api/counter/tables").status_code == 401
    r = client.get("/counter/tables", headers={"HX-Request": "true"})
    assert r.status_code == 401 and r.headers["HX-Redirect"] == "/counter/login"


def test_a_wrong_staff_pin_is_refused_at_login(client):
    r = client.post("/counter/login", data={"pin": "0000"})
    assert r.status_code == 401 and "wrong PIN" in said(r) and STAFF_COOKIE not in r.headers.get("set-cookie", "")


def test_without_a_staff_pin_the_counter_is_off(settings):
    with TestClient(create_app(settings.model_copy(update={"staff_pin": ""}))) as c:
        r = c.get("/api/counter/tables", headers={"X-Staff-PIN": ""})
        assert r.status_code == 404 and "TABLE_STAFF_PIN" in r.json()["detail"]
        assert c.get("/counter/login").status_code == 404


# -- the tables and the settlement ----------------------------------------------------------------

def test_the_tables_show_the_session_its_points_and_last_hand(client):
    sid = played(client)
    balances = {b["player"]: b["balance"] for b in client.get(f"/api/sessions/{sid}", headers=TABLE_H).json()["balances"]}
    client.get(f"/s/{sid}", headers=TABLE_H)                 # a tablet shows it: the beat says so
    t = client.get("/api/counter/tables", headers=STAFF_H).json()[0]
    assert (t["name"], t["online"], t["state"]) == ("table 1", True, "in session")
    assert {b["player"]: b["balance"] for b in t["session"]["balances"]} == balances
    last = t["session"]["last_hand"]
    assert (last["number"], last["kind"], last["winners"]) == (1, "win", ["Aki"]) and last["at"]


def test_the_settlement_in_yen_follows_the_price(client):
    sid = played(client)
    balances = [b["balance"] for b in client.get(f"/api/sessions/{sid}", headers=TABLE_H).json()["balances"]]
    r = client.get(f"/api/counter/sessions/{sid}/settlement", headers=STAFF_H)
    assert [p["total"] for p in r.json()["players"]] == [0, 0, 0]            # no price set: 0 and 0
    r = client.put("/api/counter/prices", json={"rule": "dunhill", "rate": 50, "fee": 300, "fee_per": "game"},
                   headers=STAFF_H)
    assert r.status_code == 200 and r.json()["stored"]
    got = client.get(f"/api/counter/sessions/{sid}/settlement", headers=STAFF_H).json()
    assert [p["total"] for p in got["players"]] == [b * 50 - 300 for b in balances]
    assert [(p["name"], p["code"]) for p in got["players"]] == [(n, f"{i:04d}") for i, n in enumerate(PLAYERS, 1)]
    assert got["session"]["table"] == "table 1" and got["fee_units"] == 1
    assert client.get("/api/counter/sessions/nope/settlement", headers=STAFF_H).status_code == 404
    # a price changed afterwards (for the next nights) leaves this session's settlement as it was
    client.put("/api/counter/prices", json={"rule": "dunhill", "rate": 100, "fee": 1000}, headers=STAFF_H)
    again = client.get(f"/api/counter/sessions/{sid}/settlement", headers=STAFF_H).json()
    assert [p["total"] for p in again["players"]] == [b * 50 - 300 for b in balances]
    newer = played(client)
    assert client.get(f"/api/counter/sessions/{newer}/settlement", headers=STAFF_H).json()["price"]["rate"] == 100


@pytest.mark.parametrize("body, said", [
    ({"rule": "dunhill", "rate": -5}, "rate must be from 0"),
    ({"rule": "dunhill", "rate": 5, "fee": -1}, "fee must be from 0"),
    ({"rule": "dunhill", "rate": 5, "fee_per": "week"}, "fee_per"),
    ({"rule": "nosuch", "rate": 5}, "no rule 'nosuch' to price"),
    # JSON true was read as ¥1
    ({"rule": "dunhill", "rate": True}, "rate"), ({"rule": "dunhill", "rate": 5, "fee": True}, "fee")])
def test_a_bad_price_is_a_422_in_one_line(client, body, said):
    r = client.put("/api/counter/prices", json=body, headers=STAFF_H)
    assert r.status_code == 422 and said in r.json()["detail"] and "\n" not in r.json()["detail"]
    assert all(not p["stored"] for p in client.get("/api/counter/prices", headers=STAFF_H).json())


def test_a_rule_is_priced_once_though_a_file_in_the_folder_takes_a_built_ins_name(client, settings):
    """A dunhill.toml put in the rules folder by hand is listed as a broken house rule; the price
    list showed dunhill twice."""
    write_rule(settings.house_rules_dir, "dunhill", house_rule(2, 10))
    rules = [p["rule"] for p in client.get("/api/counter/prices", headers=STAFF_H).json()]
    assert rules.count("dunhill") == 1 and set(scoring.preset_ids()) <= set(rules)


def test_prices_page_form_sets_the_price(staff):
    r = staff.post("/counter/prices", data={"rule": "isshokai", "rate": "1000", "fee": "500", "fee_per": "hour"},
                   follow_redirects=False)
    assert r.status_code == 303
    got = {p["rule"]: p for p in staff.get("/api/counter/prices").json()}["isshokai"]
    assert (got["rate"], got["fee"], got["fee_per"]) == (1000.0, 500.0, "hour")
    r = staff.post("/counter/prices", data={"rule": "isshokai", "rate": "lots"}, headers={"HX-Request": "true"})
    assert r.status_code == 422 and "rate must be a number" in said(r) and r.headers["HX-Retarget"] == "#flash"
    # a fee box left empty is refused (before, it saved 0: the fee gone from the nights to come)
    r = staff.post("/counter/prices", data={"rule": "isshokai", "rate": "1000", "fee": ""}, headers={"HX-Request": "true"})
    assert r.status_code == 422 and "fee must be a number" in said(r)
    assert {p["rule"]: p for p in staff.get("/api/counter/prices").json()}["isshokai"]["fee"] == 500.0
    # "5,0" was saved as ¥50 and "1e-9" as a rate of a billionth: a comma groups thousands, no exponent
    for typed in ("5,0", "1e-9", "12,34"):
        r = staff.post("/counter/prices", data={"rule": "isshokai", "rate": typed, "fee": "500"},
                       headers={"HX-Request": "true"})
        assert r.status_code == 422 and "rate must be a number of yen written as digits" in said(r), typed
    assert {p["rule"]: p for p in staff.get("/api/counter/prices").json()}["isshokai"]["rate"] == 1000.0
    # as staff write money: "1,000", "¥500"
    r = staff.post("/counter/prices", data={"rule": "isshokai", "rate": "1,000", "fee": "¥500", "fee_per": "hour"},
                   follow_redirects=False)
    assert r.status_code == 303


def test_the_settlement_and_receipt_pages(staff):
    sid = played(staff)
    staff.put("/api/counter/prices", json={"rule": "dunhill", "rate": 100, "fee": 400})
    lines = staff.get(f"/api/counter/sessions/{sid}/settlement").json()["players"]
    page = staff.get(f"/counter/s/{sid}").text
    for p in lines:
        assert f'/counter/s/{sid}/receipt/{p["seat"]}' in page
    ben = lines[1]
    receipt = staff.get(f"/counter/s/{sid}/receipt/1")
    assert receipt.status_code == 200
    assert "Ben" in receipt.text and ben["code"] in receipt.text and "table 1" in receipt.text
    assert f'¥{abs(ben["total"]):,}' in receipt.text and ("To pay" if ben["total"] < 0 else "To receive") in receipt.text
    assert staff.get(f"/counter/s/{sid}/receipt/3").status_code == 404


# -- the table's default rule ------------------------------------------------------------------------

def offered(client) -> str:
    """The rule the tablet's new-session page selects first."""
    return re.search(r'<option value="([^"]+)"[^>]*\bselected\b', client.get("/", headers=TABLE_H).text).group(1)


def test_the_counter_chooses_a_tables_default_rule_for_its_new_session_page(staff, settings):
    write_rule(settings.house_rules_dir, "ours", house_rule())
    first = scoring.preset_ids()[0]                 # no choice, no setting: the first built-in
    assert offered(staff) == first
    r = staff.post("/counter/table/rule", data={"name": "table 1", "rule": "ours"}, follow_redirects=False)
    assert r.status_code == 303
    assert staff.get("/api/counter/tables").json()[0]["default_rule"] == "ours"
    assert offered(staff) == "ours"
    # a beat leaves the counter's choice alone
    assert Heartbeat(staff.app, staff.app.state.parlour.engine).beat()
    assert staff.get("/api/counter/tables").json()[0]["default_rule_chosen"] == "ours"
    r = staff.post("/counter/table/rule", data={"name": "table 1", "rule": "nosuch"})
    assert r.status_code == 422 and "no rule 'nosuch'" in said(r)
    r = staff.post("/counter/table/rule", data={"name": "table 9", "rule": "ours"})
    assert r.status_code == 404 and "no table 'table 9'" in said(r)
    staff.post("/counter/table/rule", data={"name": "table 1", "rule": ""})          # back to the setting
    assert offered(staff) == first


def test_the_tablet_makes_a_rule_its_tables_default_when_it_starts_a_session(client):
    assert offered(client) == scoring.preset_ids()[0]
    r = client.post("/sessions", data={"rules": "isshokai", "player1": "Aki", "player2": "Ben", "player3": "Chie"},
                    headers=TABLE_H)
    assert r.status_code == 204
    assert offered(client) == scoring.preset_ids()[0]           # not asked: the default stays
    client.post("/sessions", data={"rules": "isshokai", "player1": "Aki", "player2": "Ben", "player3": "Chie",
                                   "table_default": "1"}, headers=TABLE_H)
    assert offered(client) == "isshokai"
    assert client.get("/api/counter/tables", headers=STAFF_H).json()[0]["default_rule_chosen"] == "isshokai"


def test_a_session_refused_for_a_bad_reading_writes_nothing(client):
    """A reading with a control character was refused (422) after the session, its new players and the
    table's default rule were written: players told "refused" pressed again and made a second session."""
    before = client.get("/api/sessions", headers=TABLE_H).json()
    r = client.post("/sessions", data={"rules": "isshokai", "player1": "Kai", "player2": "Lin", "player3": "Mia",
                                       "kana1": "\x07", "table_default": "1"}, headers=TABLE_H)
    assert r.status_code == 422 and "control character" in said(r)
    assert client.get("/api/sessions", headers=TABLE_H).json() == before
    assert offered(client) == scoring.preset_ids()[0]
    assert not client.app.state.ledger.players()


# -- the player register -------------------------------------------------------------------------

def test_staff_rename_a_player_and_the_log_stays(staff):
    sid = played(staff)
    ben = next(p for p in staff.get("/counter/players?q=Ben").text.split('data-player="')[1:])
    pid = int(ben.split('"')[0])
    r = staff.post(f"/counter/players/{pid}", data={"name": "Benjamin", "kana": "べん", "code": "B-7"},
                   follow_redirects=False)
    assert r.status_code == 303
    assert "Benjamin" in staff.get("/counter/players?q=べん").text
    got = staff.get(f"/api/counter/sessions/{sid}/settlement").json()["players"][1]
    assert (got["player"], got["name"], got["code"]) == ("Ben", "Benjamin", "B-7")    # the log says Ben
    r = staff.post(f"/counter/players/{pid}", data={"name": "Ben", "kana": "", "code": "0001"})
    assert r.status_code == 422 and "member code '0001' is taken" in said(r)
    r = staff.post(f"/counter/players/{pid}", data={"name": "", "kana": "", "code": "B-7"})
    assert r.status_code == 422 and "name is empty" in said(r)


# -- house rule files ----------------------------------------------------------------------------

def test_odd_files_in_the_rules_folder_leave_the_counters_rule_pages_working(staff, settings):
    """A folder (or a broken link) named like a rule made every save a 500; a file not in UTF-8 made
    its own page one. Now the folder is no rule, and the file's page shows why it does not load."""
    write_rule(settings.house_rules_dir, "ours", house_rule(dealer=2, noten=10))
    (settings.house_rules_dir / "adir.toml").mkdir()
    (settings.house_rules_dir / "gone.toml").symlink_to(settings.house_rules_dir / "nowhere.toml")
    (settings.house_rules_dir / "latin.toml").write_bytes('extends = "dunhill"\nname_ja = "\u00e9"\n'.encode("latin-1"))
    r = staff.post("/counter/rules/ours", data={"text": house_rule(dealer=2, noten=20)}, follow_redirects=False)
    assert r.status_code == 303
    page = staff.get("/counter/rules/latin")
    assert page.status_code == 200 and "UTF-8" in page.text
    assert staff.get("/counter/rules/adir").status_code == 404


def test_staff_edit_a_house_rule_and_a_bad_file_is_refused_unchanged(staff, settings):
    write_rule(settings.house_rules_dir, "ours", house_rule(dealer=2, noten=10))
    path = settings.house_rules_dir / "ours.toml"
    before_edit = played(staff, "ours")
    page = staff.get("/counter/rules/ours")
    assert page.status_code == 200 and "noten_total = 10" in page.text
    r = staff.post("/counter/rules/ours", data={"text": house_rule(dealer=2, noten=20)}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/counter/rules/ours?saved=1"
    assert "noten_total = 20" in path.read_text()
    assert staff.get("/api/rules/ours", headers=TABLE_H).json()["changes"]             # the table reads the edit
    good = path.read_bytes()
    r = staff.post("/counter/rules/ours", data={"text": BAD_TYPE})
    assert r.status_code == 422
    line = said(r)
    assert "noten_total" in line and str(path) in line and "integer" in line
    assert "rules-check-" not in line                                  # the folder's file is named, not the copy
    assert path.read_bytes() == good                                    # unchanged
    assert 'noten_total = &#34;10&#34;' in r.text or 'noten_total = "10"' in r.text   # the text as typed, kept
    r = staff.post("/counter/rules/ours", data={"text": "extends = [oops"})
    assert r.status_code == 422 and "not valid TOML" in said(r) and path.read_bytes() == good
    # a session started before the edit keeps its stored rule
    assert staff.get(f"/api/sessions/{before_edit}", headers=TABLE_H).json()["rule_digest"]


def test_a_new_house_rule_from_a_base_and_built_ins_are_read_only(staff, settings):
    r = staff.post("/counter/rules", data={"name": "friday", "base": "balance"}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/counter/rules/friday"
    text = (settings.house_rules_dir / "friday.toml").read_text()
    assert 'extends = "balance"' in text
    assert "friday" in staff.get("/api/rules", headers=TABLE_H).json()          # it loads: a table offers it
    r = staff.post("/counter/rules", data={"name": "friday", "base": "dunhill"})
    assert r.status_code == 409 and "exists already" in said(r)
    r = staff.post("/counter/rules", data={"name": "dunhill", "base": "dunhill"})
    assert r.status_code == 422 and "built-ins are read-only" in said(r)
    assert staff.get("/counter/rules/dunhill").status_code == 200
    r = staff.post("/counter/rules/dunhill", data={"text": "extends = 'x'"})
    assert r.status_code == 403 and "read-only" in said(r)
    assert staff.post("/counter/rules/nosuch", data={"text": ""}).status_code == 404


def test_an_edit_that_would_break_a_rule_extending_it_is_refused(staff, settings):
    write_rule(settings.house_rules_dir, "ours", house_rule())
    write_rule(settings.house_rules_dir, "late", 'extends = "ours"\nname_ja = "遅番"\nname_en = "Late"\n')
    good = (settings.house_rules_dir / "ours.toml").read_bytes()
    cycle = house_rule().replace('extends = "dunhill"', 'extends = "late"')
    r = staff.post("/counter/rules/ours", data={"text": cycle})
    assert r.status_code == 422 and "cycle" in said(r)
    assert (settings.house_rules_dir / "ours.toml").read_bytes() == good


def test_the_counter_has_the_standings_under_the_staff_pin(client):
    played(client)
    r = client.get("/api/counter/standings", params={"period": "all"}, headers=STAFF_H)
    assert r.status_code == 200
    wins = {row["name"]: row["wins"] for row in r.json()["rows"]}
    assert wins == {"Aki": 1, "Ben": 0, "Chie": 0}
    assert client.get("/api/counter/standings.csv", params={"period": "all"}, headers=TABLE_H).status_code == 401
    page = client.get("/counter/standings", params={"period": "all"}, headers=STAFF_H)
    assert page.status_code == 200 and 'href="/api/counter/standings.csv?' in page.text
    assert 'action="/counter/standings"' in page.text
    # the table's own page links to the table's API
    assert 'href="/api/standings.csv?' in client.get("/standings", headers=TABLE_H).text


def test_a_table_whose_camera_counts_are_fixed_too_often_is_asked_to_be_taught_again(staff):
    from service.read_tally import CAMERA, LOW_AFTER
    from service.reader import Reading
    read = record("east", "tsumo")
    app = staff.app
    fixed = {**read, "dora_indicators": "6p"}        # the indicator the camera missed, each count
    for i in range(LOW_AFTER):
        app.state.offers.remember(f"{i}.jpg", Reading("vision", read), (1920, 1080))
        assert app.state.read_tally.add(f"{i}.jpg", [fixed]) is not None
    assert Heartbeat(app, app.state.parlour.engine).beat()
    t = staff.get("/api/counter/tables").json()[0]
    assert t["reads"][CAMERA]["counts"] == LOW_AFTER and t["reads"][CAMERA]["as_read"] == 0
    assert any(f"read 0 of its last {LOW_AFTER} counts" in w and "teach" in w for w in t["warnings"])
    page = staff.get("/counter/table", params={"name": "table 1"}).text
    assert f"0 / {LOW_AFTER} confirmed as read" in page and "fixed most:" in page and f"6p ×{LOW_AFTER}" in page


def test_a_tables_default_rule_its_own_rules_folder_lacks_is_flagged_at_the_counter(staff, settings, tmp_path):
    """Each service reads its own rules folder: a rule made at the counter reached no other table,
    and the counter showed it as that table's default without a word."""
    write_rule(settings.house_rules_dir, "ours", house_rule())
    assert staff.post("/counter/table/rule", data={"name": "table 1", "rule": "ours"},
                      follow_redirects=False).status_code == 303
    beat = Heartbeat(staff.app, staff.app.state.parlour.engine)
    assert beat.beat()
    assert not [w for w in staff.get("/api/counter/tables").json()[0]["warnings"] if "rules folder" in w]
    (settings.house_rules_dir / "ours.toml").rename(tmp_path / "elsewhere.toml")
    assert beat.beat()
    warnings = staff.get("/api/counter/tables").json()[0]["warnings"]
    assert any("'ours' is not in its rules folder" in w and "TABLE_RULES_DIR" in w for w in warnings)


def test_a_session_with_no_hand_charges_no_fee(client):
    """A session started by mistake (no hand logged) asked each player for the table fee."""
    client.put("/api/counter/prices", json={"rule": "dunhill", "rate": 50, "fee": 500}, headers=STAFF_H)
    sid = client.post("/api/sessions", json={"rules": "dunhill", "players": PLAYERS}, headers=TABLE_H).json()["id"]
    got = client.get(f"/api/counter/sessions/{sid}/settlement", headers=STAFF_H).json()
    assert [p["total"] for p in got["players"]] == [0, 0, 0] and [p["fee"] for p in got["players"]] == [0, 0, 0]
    assert got["fee_units"] == 0                                    # nor says it charges one


def test_staff_add_a_player_with_a_member_code_on_the_counter_page(staff):
    """Before, a member's own code could be given only through the API."""
    r = staff.post("/counter/players", data={"name": "山田太郎", "kana": "やまだたろう", "code": "101"},
                   follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/counter/players"
    page = staff.get("/counter/players?q=101").text
    assert "山田太郎" in page and 'value="101"' in page
    r = staff.post("/counter/players", data={"name": "山田花子", "code": "101"}, headers={"HX-Request": "true"})
    assert r.status_code == 422 and "その会員番号は使われています" in r.text          # taken: said in Japanese too
    assert 'id="add-player"' in staff.get("/counter/players").text


def test_staff_merge_a_player_entered_twice_and_undo_it(staff):
    """Ben came back as "Benny" at another session and became a second player: merged on the
    players page, the standings count one Ben, his settlement names him, and Undo parts them."""
    played(staff)
    sid = staff.post("/api/sessions", json={"rules": "dunhill", "players": ["Benny", "Dai", "Eri"]},
                     headers=TABLE_H).json()["id"]
    assert staff.post(f"/api/sessions/{sid}/wins", json={"records": [record("east", "tsumo")]},
                      headers=TABLE_H).status_code == 201                      # Benny (east) tsumo
    ben, benny = (staff.get("/api/players", params={"q": q}, headers=TABLE_H).json()[0] for q in ("Ben", "Benny"))
    r = staff.post("/counter/players/merge", data={"gone": benny["code"], "kept": ben["code"]},
                   follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/counter/players"
    page = staff.get("/counter/players").text
    assert f'data-merged="{benny["id"]}"' in page and f'data-player="{benny["id"]}"' not in page
    rows = {row["name"]: row for row in staff.get("/api/standings", params={"period": "all"},
                                                  headers=TABLE_H).json()["rows"]}
    assert "Benny" not in rows and (rows["Ben"]["sessions"], rows["Ben"]["wins"]) == (2, 1)
    got = staff.get(f"/api/counter/sessions/{sid}/settlement").json()["players"][0]
    assert (got["player"], got["name"], got["code"]) == ("Benny", "Ben", ben["code"])   # the log says Benny
    r = staff.post("/counter/players/merge", data={"gone": "Chie", "kept": "Ben"})
    assert r.status_code == 422 and "同じ半荘に座った二人は統合できません" in said(r) and "two players" in said(r)
    r = staff.post("/api/counter/players/merge", json={"gone": "Dai", "kept": ben["code"]})
    assert r.status_code == 422 and "played in one session" in r.json()["detail"]   # Dai sat with Benny
    assert staff.post(f"/counter/players/{benny['id']}/unmerge", follow_redirects=False).status_code == 303
    assert f'data-player="{benny["id"]}"' in staff.get("/counter/players").text
    r = staff.post(f"/api/counter/players/{benny['id']}/unmerge")
    assert r.status_code == 422 and "not merged into anyone" in r.json()["detail"]


def test_the_receipt_names_the_rule_as_the_players_know_it(staff, settings):
    write_rule(settings.house_rules_dir, "ours", house_rule())
    sid = played(staff)
    assert "だんひるルール Dunhill" in staff.get(f"/counter/s/{sid}/receipt/0").text
    ours = staff.post("/api/sessions", json={"rules": "ours", "players": PLAYERS}, headers=TABLE_H).json()["id"]
    view = staff.get(f"/api/counter/sessions/{ours}/settlement").json()["session"]
    assert (view["rule"], view["rule_title"]) == ("ours", "うちのルール Ours")
    assert view["rule_title"] in staff.get(f"/counter/s/{ours}/receipt/0").text


def test_a_session_started_by_mistake_is_taken_away_and_one_with_a_log_is_kept(staff):
    """Only a session with nothing logged goes: a hand, even one undone, keeps it (the log is the
    parlour's record). A tablet still on it is refused its next hand as an unknown session."""
    kept = played(staff)
    undone = staff.post("/api/sessions", json={"rules": "dunhill", "players": PLAYERS}, headers=TABLE_H).json()["id"]
    staff.post(f"/api/sessions/{undone}/wins", json={"records": [record("east", "tsumo")]}, headers=TABLE_H)
    assert staff.post(f"/api/sessions/{undone}/undo", json={}, headers=TABLE_H).status_code in (200, 201)
    mistake = staff.post("/api/sessions", json={"rules": "dunhill", "players": PLAYERS}, headers=TABLE_H).json()["id"]
    assert Heartbeat(staff.app, staff.app.state.parlour.engine).beat()
    page = staff.get("/counter/table", params={"name": "table 1"}).text
    assert f'data-discard="{mistake}"' in page
    assert f'data-discard="{kept}"' not in page and f'data-discard="{undone}"' not in page

    r = staff.post(f"/counter/s/{mistake}/discard", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/counter/table?name=table%201"
    assert mistake not in staff.get("/counter/table", params={"name": "table 1"}).text
    assert mistake not in [s["id"] for s in staff.get("/api/sessions", headers=TABLE_H).json()]
    r = staff.post(f"/api/sessions/{mistake}/wins", json={"records": [record("east", "tsumo")]}, headers=TABLE_H)
    assert r.status_code == 404 and "unknown session" in r.json()["detail"]
    for sid, entries in ((kept, "1 logged entry"), (undone, "2 logged entries")):
        r = staff.delete(f"/api/counter/sessions/{sid}")
        assert r.status_code == 422 and entries in r.json()["detail"] and "is kept" in r.json()["detail"]
    assert staff.delete(f"/api/counter/sessions/{mistake}").status_code == 404


def test_the_tables_view_survives_a_session_taken_away_by_another_service(staff, settings):
    """The counter had the table's session cached; another service took it away: the next look at
    the tables was a 404 for every counter page."""
    from service.ledger import Ledger
    sid = staff.post("/api/sessions", json={"rules": "dunhill", "players": PLAYERS}, headers=TABLE_H).json()["id"]
    assert staff.get(f"/s/{sid}", headers=TABLE_H).status_code == 200      # the tablet shows it: its beat says so
    assert Heartbeat(staff.app, staff.app.state.parlour.engine).beat()
    assert staff.get("/api/counter/tables").json()[0]["session"]["id"] == sid       # cached now
    other = Ledger(str(staff.app.state.parlour.engine.url))
    other.discard(sid)
    other.close()
    r = staff.get("/api/counter/tables")
    assert r.status_code == 200 and r.json()[0]["session"] is None


def test_two_saves_of_one_rule_at_once_never_leave_it_cut_short(tmp_path):
    """Both saves wrote the one temporary file ``.NAME.toml.saving``: one truncated it while the
    other moved it into place, a save failed with FileNotFoundError and a table reading the rule
    meanwhile could read it cut short."""
    import threading
    from service.pages.counter import _write
    path = tmp_path / "ours.toml"
    bodies = [house_rule(d, 10) * 20 for d in (2, 5)]          # long enough to be caught half written
    path.write_text(bodies[0], encoding="utf-8")
    failed, seen = [], set()

    def save(body):
        for _ in range(150):
            try:
                _write(path, body, False)
            except Exception as e:                              # noqa: BLE001 -- any failure is the finding
                failed.append(repr(e))

    def look():
        for _ in range(600):
            seen.add(path.read_text(encoding="utf-8"))

    threads = [threading.Thread(target=save, args=(b,)) for b in bodies] + [threading.Thread(target=look)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failed == [] and seen <= set(bodies)
    assert [p.name for p in tmp_path.iterdir()] == ["ours.toml"]       # no temporary file left
