"""Sessions over the API: start, read, PIN, bad input."""

from __future__ import annotations

from fastapi.testclient import TestClient

from service.app import create_app

from table_fixtures import PIN, PLAYERS


def test_start_session_shows_the_opening_state(client):
    r = client.post("/api/sessions", json={"rules": "toutenkou", "players": PLAYERS, "dealer": "Ben"})
    assert r.status_code == 201
    s = r.json()
    assert s["rules"] == "toutenkou" and s["dealer"] == "Ben" and s["next_hand"] == 1
    assert s["seats"] == {"east": "Ben", "south": "Chie", "west": "Aki"}
    assert client.get(f"/api/sessions/{s['id']}").json() == s
    assert [x["id"] for x in client.get("/api/sessions").json()] == [s["id"]]


def test_rules_lists_the_presets(client):
    assert set(client.get("/api/rules").json()) == {"dunhill", "balance", "toutenkou", "isshokai", "chinton"}


def test_without_the_pin_nothing_is_read_or_written(settings):
    with TestClient(create_app(settings)) as c:
        assert c.post("/api/sessions", json={"rules": "dunhill", "players": PLAYERS}).status_code == 401
        r = c.get("/api/sessions", headers={"X-Table-PIN": PIN + "0"})
        assert r.status_code == 401 and "PIN" in r.json()["detail"]
        assert c.get("/api/sessions", headers={"X-Table-PIN": PIN}).json() == []


def test_bad_sessions_are_refused_with_the_reason(client):
    r = client.post("/api/sessions", json={"rules": "mahjong", "players": PLAYERS})
    assert r.status_code == 422 and "unknown rules 'mahjong'" in r.json()["detail"]
    r = client.post("/api/sessions", json={"rules": "dunhill", "players": ["A", "A", "B"]})
    assert r.status_code == 422 and "three players, all different" in r.json()["detail"]
    r = client.post("/api/sessions", json={"rules": "dunhill", "players": ["A", "B"]})
    assert r.status_code == 422 and r.json()["detail"].startswith("body.players")
    r = client.post("/api/sessions", json={"rules": "dunhill", "players": PLAYERS, "dealer": "Zed"})
    assert r.status_code == 422 and "Zed" in r.json()["detail"]
    assert client.get("/api/sessions").json() == []


def test_unknown_session_is_404(client):
    r = client.get("/api/sessions/nope")
    assert r.status_code == 404 and "unknown session 'nope'" in r.json()["detail"]


def test_openapi_documents_the_api(client):
    paths = client.get("/openapi.json").json()["paths"]
    for p in ("/api/sessions", "/api/sessions/{session_id}/wins", "/api/read", "/api/score",
              "/api/sessions/{session_id}/undo", "/api/sessions/{session_id}/export.csv"):
        assert p in paths
    assert not any(p.startswith("/s/") for p in paths)
