"""Input no tablet sends but a damaged cookie, a hand-made request or a stray byte can: each refused
in one line (4xx) or taken as what it is, never a server error. A digit of another script ("²",
which ``str.isdigit`` accepts and ``int`` does not), a file where the page sends names, a lone
surrogate ("\\ud800": half of a UTF-16 pair, no character), JSON nested past Python's recursion."""

from __future__ import annotations

import base64
import json

import pytest
from fastapi.testclient import TestClient

from service.app import create_app
from table_fixtures import PIN, PLAYERS

DEEP = "[" * 20_000 + "]" * 20_000      # past Python's recursion limit, within a form's size


@pytest.fixture
def quiet_client(settings):
    """The app as the players' browser meets it: a server error is a 500, not an exception here."""
    with TestClient(create_app(settings), headers={"X-Table-PIN": PIN}, raise_server_exceptions=False) as c:
        yield c


@pytest.fixture
def sid(quiet_client) -> str:
    return quiet_client.post("/api/sessions", json={"rules": "dunhill", "players": PLAYERS}).json()["id"]


def post_json(client, url: str, body) -> object:
    """``body`` sent as JSON writes it, "\\ud800" escaped (httpx would not encode a lone surrogate)."""
    return client.post(url, content=json.dumps(body), headers={"Content-Type": "application/json"})


def _b64(text: str) -> str:
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


@pytest.mark.parametrize("cookie", [
    "dGFibGU.\u00b2.b",                                        # an expiry of a superscript two
    f"{_b64('table')}.99999999999.\u00e9\u00e9",              # a signature of non-ASCII letters
    f"{_b64('table')}.{'9' * 5000}.x",                         # an expiry past int()'s 4,300 digits
])
def test_a_garbled_login_cookie_is_no_login(settings, cookie):
    with TestClient(create_app(settings), raise_server_exceptions=False) as c:
        raw = {"Cookie": f"table_token={cookie}".encode("latin-1")}     # a header's bytes, one a character
        assert c.get("/api/sessions", headers=raw).status_code == 401
        assert c.get("/", headers=raw, follow_redirects=False).status_code in (302, 303, 307)


@pytest.mark.parametrize("path, form", [
    ("undo", {"hand": "\u00b2"}),
    ("draw", {"hand": "\u00b2"}),
    ("edit", {"op": "delmeld:\u00b2"}),
    ("edit", {"op": "del:concealed:\u00b2"}),
    ("edit", {"op": "pick:meld:\u00b2"}),
    ("edit", {"op": "add:1p:\u00b2"}),
    ("undo", {"hand": "9" * 5000}),
])
def test_a_digit_of_another_script_or_a_number_past_reason_is_refused(quiet_client, sid, path, form):
    r = quiet_client.post(f"/s/{sid}/{path}", data=form, headers={"HX-Request": "true"})
    assert r.status_code == 422, r.text[:300]
    assert quiet_client.get(f"/api/sessions/{sid}").json()["hands"] == 0


def test_an_event_id_of_another_script_is_no_event_id(quiet_client):
    with quiet_client.stream("GET", "/api/watch/events", headers={"Last-Event-ID": "\u00b2".encode("latin-1")}) as r:
        assert r.status_code == 200


@pytest.mark.parametrize("path", ["confirm", "draw", "chombo"])
def test_a_file_sent_where_the_page_sends_names_is_refused(quiet_client, sid, path):
    form = {"concealed": "334400p667788s99s", "win_tile": "3p", "seat": "east", "win": "tsumo", "hand": "1",
            "offender": PLAYERS[1]}
    field = "riichi_others" if path == "confirm" else "riichi"
    r = quiet_client.post(f"/s/{sid}/{path}", data=form, files={field: ("x.txt", b"Aki")},
                          headers={"HX-Request": "true"})
    assert r.status_code == 422, r.text[:300]
    assert "a file was sent where the page sends names" in r.text
    assert quiet_client.get(f"/api/sessions/{sid}").json()["hands"] == 0


@pytest.mark.parametrize("body", [
    {"rules": "dunhill", "players": ["\ud800", *PLAYERS[1:]]},
    {"rules": "dunhill", "players": PLAYERS, "label": "night \udcff"},
])
def test_a_lone_surrogate_in_a_name_or_label_is_refused_and_nothing_saved(quiet_client, body):
    r = post_json(quiet_client, "/api/sessions", body)
    assert r.status_code == 422, r.text[:300]
    assert "which is no character" in r.json()["detail"]
    assert quiet_client.get("/api/sessions").json() == []


def test_a_lone_surrogate_where_a_session_id_goes_is_refused(quiet_client):
    r = post_json(quiet_client, "/api/score", {"record": {"rules": "dunhill"}, "session": "\ud800"})
    assert 400 <= r.status_code < 500, r.text[:300]


def test_a_lone_surrogate_in_a_records_keys_is_named_in_the_refusal(quiet_client, sid):
    record = {"rules": "dunhill", "seat": "east", "win": "tsumo", "concealed": "334400p667788s99s",
              "win_tile": "3p", "options": {"\ud800": 1}}
    r = post_json(quiet_client, f"/api/sessions/{sid}/wins", {"records": [record]})
    assert r.status_code == 422, r.text[:300]
    assert "\\ud800" in r.json()["detail"]
    assert quiet_client.get(f"/api/sessions/{sid}").json()["hands"] == 0


def test_json_nested_past_reason_in_the_editor_or_the_rule_page_is_refused(quiet_client, sid):
    r = quiet_client.post(f"/s/{sid}/edit", data={"melds": DEEP}, headers={"HX-Request": "true"})
    assert r.status_code == 422 and "nested too deeply" in r.text
    r = quiet_client.post("/rules/dunhill/try", data={"record": DEEP}, headers={"HX-Request": "true"})
    assert r.status_code == 422 and "nested too deeply" in r.text


def test_a_player_id_past_any_database_integer_is_no_player(settings):
    from table_fixtures import STAFF_PIN
    app = create_app(settings.model_copy(update={"staff_pin": STAFF_PIN}))
    with TestClient(app, headers={"X-Table-PIN": PIN, "X-Staff-PIN": STAFF_PIN}, raise_server_exceptions=False) as c:
        r = c.post("/counter/players/99999999999999999999", data={"name": "X", "code": "1"})
        assert r.status_code == 422 and "no player 99999999999999999999" in r.text, r.text[:300]
