"""The player register over the API: search as you type, add, and refusals of bad input;
and the tablet's suggestion fragment that the new-session page asks as a name is typed."""

from __future__ import annotations

import pytest

HTMX = {"HX-Request": "true"}


def _add(client, **body) -> dict:
    r = client.post("/api/players", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def test_an_added_player_is_found_by_name_reading_and_code(client):
    aki = _add(client, name="Aki", kana="アキ", code="A7")
    _add(client, name="Makiko", kana="まきこ")
    assert aki["label"] == "Aki (A7)" and aki["kana"] == "アキ"
    names = lambda q: [p["name"] for p in client.get("/api/players", params={"q": q}).json()]   # noqa: E731
    assert names("ak") == ["Aki", "Makiko"]          # starts with first, then contains
    assert names("あき") == ["Aki"]                   # hiragana finds a katakana reading
    assert names("a7") == ["Aki"]
    assert names("zz") == []
    everyone = client.get("/api/players").json()
    assert [p["name"] for p in everyone] == ["Aki", "Makiko"]


def test_without_a_code_the_next_number_is_given(client):
    first = _add(client, name="Ben")
    second = _add(client, name="Ben")                # a name may be shared; the codes tell them apart
    assert first["code"] != second["code"] and first["code"].isdigit() and len(first["code"]) == 4


@pytest.mark.parametrize("body, named", [
    ({"name": ""}, "name"),
    ({"name": "   "}, "name"),
    ({"name": "x" * 101}, "name"),
    ({"name": "Aki", "code": "bad code!"}, "member code"),
    ({"name": "Aki", "nick": "A"}, "nick"),
    ({"kana": "あき"}, "name"),
])
def test_bad_input_is_a_422_naming_it(client, body, named):
    r = client.post("/api/players", json=body)
    assert r.status_code == 422, r.text
    assert named in r.json()["detail"]
    assert client.get("/api/players").json() == []


def test_a_code_already_taken_is_refused(client):
    _add(client, name="Aki", code="A7")
    r = client.post("/api/players", json={"name": "Chie", "code": "a7"})
    assert r.status_code == 422 and "taken" in r.json()["detail"]
    assert [p["name"] for p in client.get("/api/players").json()] == ["Aki"]


def test_the_register_needs_the_pin(client):
    r = client.get("/api/players", headers={"X-Table-PIN": "wrong"})
    assert r.status_code == 401
    r = client.post("/api/players", json={"name": "Aki"}, headers={"X-Table-PIN": ""})
    assert r.status_code == 401


def test_a_session_started_over_the_api_uses_the_register(client):
    aki = _add(client, name="Aki", code="A7")
    r = client.post("/api/sessions", json={"rules": "dunhill", "players": ["A7", "Ben", "Chie"]})
    assert r.status_code == 201, r.text
    assert r.json()["players"] == ["Aki", "Ben", "Chie"]
    register = {p["name"]: p["id"] for p in client.get("/api/players").json()}
    assert register["Aki"] == aki["id"] and {"Ben", "Chie"} <= set(register)


def test_suggestions_say_what_the_typed_text_is(client):
    _add(client, name="Aki", kana="あき", code="A7")
    _add(client, name="Ben", code="B1")
    _add(client, name="Ben", code="B2")
    typing = client.get("/players/suggest", params={"seat": 2, "player2": "ak"}, headers=HTMX)
    assert typing.status_code == 200        # htmx sends the input's own value, named player<seat>
    assert 'data-value="Aki (A7)"' in typing.text
    assert "new player" in typing.text      # nobody is named "ak" (yet): starting now would add one
    assert "new player" not in client.get("/players/suggest", params={"seat": 2, "q": "Aki"}).text
    exact = client.get("/players/suggest", params={"seat": 1, "q": "Aki (A7)"}).text
    assert "registered: Aki (A7)" in exact
    shared = client.get("/players/suggest", params={"seat": 1, "q": "Ben"}).text
    assert "2 players are named Ben" in shared and "B1, B2" in shared
    assert 'data-value="Ben (B1)"' in shared and 'data-value="Ben (B2)"' in shared
    new = client.get("/players/suggest", params={"seat": 3, "q": "Dora"}).text
    assert "new player" in new and 'name="kana3"' in new
    nocode = client.get("/players/suggest", params={"seat": 3, "q": "101"}).text   # a code no one has
    assert "no member has code 101" in nocode and "new player" not in nocode
    empty = client.get("/players/suggest", params={"seat": 1, "q": " "}).text
    assert "player-note" not in empty and "pick" not in empty


def test_a_suggestion_for_a_seat_that_is_not_one_is_refused(client):
    r = client.get("/players/suggest", params={"seat": 4, "q": "a"}, headers=HTMX)
    assert r.status_code == 422 and "seat" in r.text
