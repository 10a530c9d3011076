"""A NUL (U+0000) sent in a name, a label, an id or a word is refused with a 4xx naming it, on SQLite as on
PostgreSQL, whose text holds no NUL: its driver refused the statement before sending it, and the table
said its database could not be reached (503, "check the network to it")."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from service.app import create_app
from service.errors import NUL_MESSAGE
from table_fixtures import PIN, PLAYERS, STAFF_PIN

NUL = "a\x00b"
STREAMS = ("/events", "/stream", "/preview")      # they answer and go on answering: not swept


@pytest.fixture
def client(settings, db_url):
    app = create_app(settings.model_copy(update={"db_url": db_url, "staff_pin": STAFF_PIN, "reader": ""}))
    with TestClient(app, headers={"X-Table-PIN": PIN, "X-Staff-PIN": STAFF_PIN},
                    raise_server_exceptions=False) as c:
        yield c


@pytest.mark.parametrize("body, says", [
    ({"players": [PLAYERS[0] + "\x00", *PLAYERS[1:]]}, "a player's name holds a control character (U+0000)"),
    ({"players": PLAYERS, "label": "night\x00"}, "a session's label holds a control character (U+0000)"),
    ({"players": PLAYERS, "label": "x" * 201}, "a session's label has at most 200 characters"),
])
def test_a_session_with_a_control_character_is_refused_in_one_line(client, body, says):
    r = client.post("/api/sessions", json={"rules": "dunhill", **body})
    assert r.status_code == 422 and says in r.json()["detail"], r.text
    assert client.get("/api/sessions").json() == []


def test_who_confirmed_with_a_nul_saves_no_hand(client):
    sid = client.post("/api/sessions", json={"rules": "dunhill", "players": PLAYERS}).json()["id"]
    r = client.post(f"/api/sessions/{sid}/draws", json={"tenpai": [PLAYERS[0]], "confirmed_by": NUL})
    assert r.status_code == 422 and "who confirmed holds a control character" in r.json()["detail"]
    assert client.get(f"/api/sessions/{sid}").json()["hands"] == 0


def test_a_nul_in_any_address_gets_a_4xx_never_a_5xx(client):
    """Every GET route of the app, each of its path parameters and the usual query words holding a NUL."""
    client.post("/api/sessions", json={"rules": "dunhill", "players": PLAYERS})
    spec = client.get("/openapi.json").json()
    gets = [p for p, ops in spec["paths"].items() if "get" in ops and not p.endswith(STREAMS)]
    assert "/api/sessions/{session_id}" in gets and any(p.startswith("/api/counter") for p in gets)
    wrong = []
    for path in gets:
        address = re.sub(r"{\w+}", "a%00b", path) + "?q=a%00b&session=a%00b"
        r = client.get(address)
        if not 400 <= r.status_code < 500 and r.status_code != 200:
            wrong.append(f"{address}: {r.status_code} {r.text[:100]}")
        elif r.status_code == 422 and "NUL" in r.text:
            assert r.json()["detail"] == NUL_MESSAGE
    assert not wrong, "\n".join(wrong)


def test_a_nul_in_a_score_s_session_is_refused(client):
    record = {"rules": "dunhill", "seat": "east", "win": "tsumo", "concealed": "234p678p234s66s777z",
              "win_tile": "6s"}
    r = client.post("/api/score", json={"record": record, "session": NUL})
    assert 400 <= r.status_code < 500 and r.json()["detail"], r.text
