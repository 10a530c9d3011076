"""House rules in the table service: the rules folder (TABLE_RULES_DIR, else <data>/rules), sessions
that keep the rule they started under when its file is edited (counts, corrections, the tablet's
preview, exports), a rule beside its base and "try it", and a broken file as a 422 naming the key.
The real app on a real SQLite file (TestClient)."""

from __future__ import annotations

import csv
import io
import json

from fastapi.testclient import TestClient

import scoring
from scoring.house import read as read_house
from scoring.tiles import parse_mpsz
from service.app import create_app
from service.settings import DEMO_HANDS, Settings
from table_fixtures import PIN, PLAYERS, house_rule, record, write_rule

BROKEN = """extends = "dunhill"
name_ja = "壊れた"
name_en = "Broken"

[table]
noten_total = "10"
"""
# Aki (east, the first dealer) tsumo with a chun triplet and gari 1m: dunhill 6 from each,
# ours 7 (dealer 2), ours after the edit 10 (dealer 5).
DEALER_TSUMO = record("east", "tsumo", rules="ours")


def ours(settings, dealer: int = 2, noten: int = 10) -> None:
    write_rule(settings.house_rules_dir, "ours", house_rule(dealer, noten))


def start(client, rules: str = "ours") -> str:
    r = client.post("/api/sessions", json={"rules": rules, "players": PLAYERS})
    assert r.status_code == 201, r.text
    return r.json()["id"]


def win_total(client, sid: str, rec: dict) -> int:
    r = client.post(f"/api/sessions/{sid}/wins", json={"records": [rec]})
    assert r.status_code == 201, r.text
    hands = client.get(f"/api/sessions/{sid}/hands").json()["hands"]
    return hands[-1]["totals"][0]


def balances(client, sid: str) -> dict:
    return {b["player"]: b["balance"] for b in client.get(f"/api/sessions/{sid}").json()["balances"]}


def test_the_rules_folder_is_a_setting_under_the_data_folder(tmp_path, monkeypatch):
    assert Settings(_env_file=None, data_dir=tmp_path).house_rules_dir == tmp_path / "rules"
    monkeypatch.setenv("TABLE_RULES_DIR", str(tmp_path / "parlour"))
    monkeypatch.setenv("TABLE_DEFAULT_RULE", "ours")
    s = Settings(_env_file=None, data_dir=tmp_path)
    assert (s.house_rules_dir, s.default_rule) == (tmp_path / "parlour", "ours")


def test_rules_lists_the_built_ins_then_the_house_rules(client, settings):
    ours(settings)
    write_rule(settings.house_rules_dir, "broken", BROKEN)
    assert client.get("/api/rules").json() == [*scoring.preset_ids(), "ours"]      # broken: left out
    detail = {r["name"]: r for r in client.get("/api/rules?detail=true").json()}
    assert detail["dunhill"]["kind"] == "built-in" and detail["dunhill"]["error"] is None
    assert (detail["ours"]["kind"], detail["ours"]["extends"], detail["ours"]["name_ja"]) == \
        ("house rule", "dunhill", "うちのルール")
    assert "table.noten_total must be an integer" in detail["broken"]["error"]


def restarted(settings) -> TestClient:
    """The service started again on the same data (a fresh ledger handle: nothing cached)."""
    return TestClient(create_app(settings), headers={"X-Table-PIN": PIN})


def test_a_session_started_before_an_edit_of_its_house_rule_keeps_its_rule(client, settings):
    ours(settings)
    old = start(client)
    waiting = start(client)
    assert client.get(f"/api/sessions/{old}").json()["rule_digest"] == \
        client.get("/api/rules/ours").json()["digest"]
    assert win_total(client, old, DEALER_TSUMO) == 7

    ours(settings, dealer=5, noten=20)                        # the parlour edits the file
    with restarted(settings) as again:                        # ... and restarts the service
        assert win_total(again, old, DEALER_TSUMO) == 7 + 1   # hand 2, 1 honba: still dealer 2
    new = start(client)
    assert win_total(client, waiting, DEALER_TSUMO) == 7      # started before the edit: its rule
    assert win_total(client, new, DEALER_TSUMO) == 10         # started after: the file as it is
    # scoring a record at a session's table (nothing written) counts with that session's rule too
    for sid, want in ((old, 7 + 2), (new, 10 + 1)):           # at 2 honba and 1 honba now
        r = client.post("/api/score", json={"record": DEALER_TSUMO, "session": sid})
        assert r.status_code == 200 and r.json()["total"] == want
    # a draw in the old session pays its 場に10: Aki alone tenpai takes 5 from each
    assert client.post(f"/api/sessions/{waiting}/draws", json={"tenpai": ["Aki"]}).status_code == 201
    assert balances(client, waiting) == {"Aki": 14 + 10, "Ben": -12, "Chie": -12}
    assert client.post(f"/api/sessions/{new}/draws", json={"tenpai": ["Aki"]}).status_code == 201
    assert balances(client, new) == {"Aki": 20 + 20, "Ben": -20, "Chie": -20}


def test_a_correction_in_an_old_session_is_counted_under_its_rule(client, settings):
    ours(settings)
    sid = start(client)
    rec = record("east", "ron", "south", rules="ours")
    assert win_total(client, sid, rec) == 6                   # a ron: no menzen tsumo
    ours(settings, dealer=5)
    with restarted(settings) as again:
        r = again.post(f"/api/sessions/{sid}/hands/1/correct", json={"kind": "win", "records": [DEALER_TSUMO]})
        assert r.status_code == 201, r.text
        hands = again.get(f"/api/sessions/{sid}/hands").json()["hands"]
        assert hands[0]["corrected"] and hands[0]["totals"] == [7]  # not 10: the session's rule
        assert balances(again, sid) == {"Aki": 14, "Ben": -7, "Chie": -7}


def test_the_tablet_preview_counts_with_the_sessions_rule(client, settings):
    ours(settings)
    sid = start(client)
    ours(settings, dealer=5)
    form = {"seat": "east", "win": "tsumo", "concealed": "234p678p234s66s777z", "win_tile": "6s",
            "gari": "1m", "hand": "1"}
    with restarted(settings) as again:
        r = again.post(f"/s/{sid}/edit", data=form, headers={"HX-Request": "true"})
    assert r.status_code == 200 and 'id="total">7<' in r.text.replace(" ", "")


def test_the_export_carries_the_sessions_rule(client, settings):
    ours(settings)
    sid = start(client)
    win_total(client, sid, DEALER_TSUMO)
    ours(settings, dealer=5)
    data = client.get(f"/api/sessions/{sid}/export.json").json()
    rule = data["session"]["rule"]
    assert (rule["name"], rule["extends"], rule["data"]["items"]["dealer"]) == ("ours", "dunhill", 2)
    assert rule["digest"] == client.get(f"/api/sessions/{sid}").json()["rule_digest"]
    assert rule["digest"] != client.get("/api/rules/ours").json()["digest"]      # the file moved on
    rows = list(csv.DictReader(io.StringIO(client.get(f"/api/sessions/{sid}/export.csv").content.decode("utf-8-sig"))))
    assert [(r["rules"], r["rule digest"]) for r in rows] == [("ours", rule["digest"])]


def test_a_rule_beside_its_base_and_a_record_counted_under_both(client, settings):
    ours(settings)
    rule = client.get("/api/rules/ours").json()
    assert (rule["kind"], rule["base"]["name"], rule["chain"]) == ("house rule", "dunhill", ["dunhill"])
    lines = {c["key"]: c for c in rule["changes"]}
    assert list(lines) == ["items.dealer", "table.noten_total"]
    assert lines["table.noten_total"]["line"] == \
        "ノーテン罰符 No-ten payment: 場に6 (6 in all) → 場に10 (10 in all)"
    assert (lines["items.dealer"]["base"], lines["items.dealer"]["house"]) == ("1点 1 point", "2点 2 points")

    r = client.post("/api/rules/ours/try", json={"record": {**DEALER_TSUMO, "rules": "whatever"}})
    assert r.status_code == 200, r.text
    cols = r.json()["columns"]
    assert [(c["rule"], c["role"], c["score"]["total"]) for c in cols] == [("dunhill", "base", 6),
                                                                          ("ours", "house rule", 7)]
    dealer = [next(x for x in c["score"]["lines"] if x["key"] == "dealer")["points"] for c in cols]
    assert dealer == [1, 2] and r.json()["differs"]

    built_in = client.post("/api/rules/dunhill/try", json={"record": DEALER_TSUMO}).json()
    assert [(c["rule"], c["score"]["total"]) for c in built_in["columns"]] == [("dunhill", 6)]


def test_a_bad_record_to_try_is_a_4xx_with_the_scoring_error(client, settings):
    ours(settings)
    r = client.post("/api/rules/ours/try", json={"record": {**DEALER_TSUMO, "concealed": "234p678p"}})
    assert r.status_code == 422
    detail = r.json()["detail"]
    try:
        scoring.score({**DEALER_TSUMO, "rules": "dunhill", "concealed": "234p678p"})
    except scoring.ScoringError as e:
        assert detail == str(e)
    else:
        raise AssertionError("scoring counted a hand of 8 tiles")
    r = client.post("/rules/ours/try", data={"record": "{not json"}, headers={"HX-Request": "true"})
    assert r.status_code == 422 and r.headers["HX-Retarget"] == "#flash" and "not JSON" in r.text
    r = client.post("/rules/ours/try", data={"record": json.dumps({**DEALER_TSUMO, "seat": "north"})},
                    headers={"HX-Request": "true"})
    assert r.status_code == 422 and "seat" in r.text
    assert client.get("/api/rules/nosuch").status_code == 404


def test_a_broken_house_rule_file_is_a_422_naming_the_file_and_the_key(client, settings):
    write_rule(settings.house_rules_dir, "broken", BROKEN)
    r = client.get("/api/rules/broken")
    assert r.status_code == 422
    assert "broken.toml: table.noten_total must be an integer like dunhill's 6, got \"10\"" in r.json()["detail"]
    page = client.get("/rules/broken")
    assert page.status_code == 422 and "text/html" in page.headers["content-type"]
    assert "broken.toml" in page.text and "table.noten_total must be an integer" in page.text
    assert 'noten_total = "10"' in page.text.replace("&#34;", '"')        # the file itself, shown
    r = client.post("/api/sessions", json={"rules": "broken", "players": PLAYERS})
    assert r.status_code == 422 and "table.noten_total must be an integer" in r.json()["detail"]
    r = client.post("/api/rules/broken/try", json={"record": DEALER_TSUMO})
    assert r.status_code == 422 and "table.noten_total" in r.json()["detail"]


def test_the_new_session_page_offers_the_house_rules_and_the_tables_default(settings):
    ours(settings)
    write_rule(settings.house_rules_dir, "broken", BROKEN)
    with TestClient(create_app(settings.model_copy(update={"default_rule": "ours"})),
                    headers={"X-Table-PIN": PIN}) as c:
        page = c.get("/").text
    options = {line.split('value="')[1].split('"')[0]: line for line in page.split("<option")[1:]}
    assert list(options) == [*scoring.preset_ids(), "broken", "ours"]
    assert "house rule" in options["ours"] and "selected" in options["ours"]
    assert "disabled" in options["broken"] and "selected" not in options["dunhill"]


def test_try_it_takes_the_tables_reading(client, settings):
    """The demo camera's newest frame, read by the vision reader for the demo table, counted under
    dunhill and ours (every demo table is a dunhill hand; ours differs by the dealer's item)."""
    ours(settings)
    r = client.post("/api/rules/ours/try/camera")
    assert r.status_code == 200, r.text
    out = r.json()
    tiles = lambda mpsz: sorted(parse_mpsz(mpsz))
    demo = [tiles(h["concealed"]) for h in json.loads(DEMO_HANDS.read_text()).values()]
    assert tiles(out["record"]["concealed"]) in demo and out["reading"]["detections"]
    base, house = out["columns"]
    assert (base["rule"], house["rule"]) == ("dunhill", "ours")
    rules = ((base, scoring.load_preset("dunhill")), (house, read_house(settings.house_rules_dir / "ours.toml").preset))
    for col, preset in rules:
        assert col["score"]["total"] == scoring.score({**out["record"], "rules": col["rule"]}, preset).total
    page = client.post("/rules/ours/try/camera", headers={"HX-Request": "true"})
    assert page.status_code == 200 and 'id="record" hx-swap-oob="true"' in page.text   # the box shows what was read
    assert page.text.count('data-role="') == 2


def test_a_table_counts_by_its_own_folders_rules_alone(client, settings, tmp_path, monkeypatch):
    """child.toml in the table's folder extends mid, which lies only in the user's rules folder
    ($TOUTENKOU_RULES_DIR, where a stray `rules new` may have left it): child loaded and counted a
    chombo at mid's 99 each while mid itself was no rule of the table, and a sister table sharing
    the folder without that stray file counted child otherwise. Now child is refused, naming mid."""
    elsewhere = tmp_path / "users-rules"
    write_rule(elsewhere, "mid", 'extends = "dunhill"\nname_ja = "中"\nname_en = "mid"\n[table]\nchombo_each = 99\n')
    monkeypatch.setenv("TOUTENKOU_RULES_DIR", str(elsewhere))
    write_rule(settings.house_rules_dir, "child", 'extends = "mid"\nname_ja = "子"\nname_en = "child"\n')
    write_rule(settings.house_rules_dir, "grand", 'extends = "child"\nname_ja = "孫"\nname_en = "grand"\n')
    r = client.post("/api/sessions", json={"rules": "child", "players": PLAYERS})
    assert r.status_code == 422 and "extends 'mid'" in r.json()["detail"] and "outside this rules folder" in r.json()["detail"]
    listed = {c["name"]: c for c in client.get("/api/rules?detail=true").json()}
    assert "outside this rules folder" in (listed["child"]["error"] or "")
    assert "outside this rules folder" in (listed["grand"]["error"] or "")
    # mid copied into the folder, as the refusal says: the whole chain is read again, grand's too
    write_rule(settings.house_rules_dir, "mid", 'extends = "dunhill"\nname_ja = "中"\nname_en = "mid"\n')
    for rule in ("grand", "child"):
        assert client.post("/api/sessions", json={"rules": rule, "players": PLAYERS}).status_code == 201
