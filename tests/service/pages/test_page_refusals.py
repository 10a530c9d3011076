"""The tablet's page routes refuse bad input as a table would want: a 4xx naming what is
wrong, shown in the flash area to htmx and as an error page to a plain browser request,
never a server error. (The tablet posts well-formed forms; a stale page or a hand-made
request need not.)"""

from __future__ import annotations

import re

import pytest

HTMX = {"HX-Request": "true"}


def test_an_unknown_session_is_a_404_page(client):
    r = client.get("/s/no-such-session")
    assert r.status_code == 404
    assert "text/html" in r.headers["content-type"]
    assert "<h1>404</h1>" in r.text and "no-such-session" in r.text


BAD_EDITS = [
    ({"op": "add:9z"}, "9z"),
    ({"op": "del:concealed:99"}, "no tile"),
    ({"op": "delmeld:abc"}, "abc"),
    ({"op": "zzz"}, "zzz"),
    ({"melds": "notjson"}, "melds"),
    ({"melds": '[{"kind": "pon"}]'}, "melds"),
    ({"melds": "5"}, "melds"),
    ({"melds": '"abc"'}, "melds"),
    ({"first": "{bad"}, "first"),
    ({"first": "[1]"}, "first"),
    ({"target": "nothing", "op": "add:1p"}, "nothing"),
]


@pytest.mark.parametrize("form, named", BAD_EDITS, ids=[next(iter(f.values())) for f, _ in BAD_EDITS])
def test_a_bad_edit_is_refused_naming_what_is_wrong(client, session, form, named):
    url = f"/s/{session['id']}/edit"
    page = client.post(url, data=form)
    assert page.status_code == 422, page.text
    assert "<h1>422</h1>" in page.text and named in page.text
    fragment = client.post(url, data=form, headers=HTMX)
    assert fragment.status_code == 422
    assert fragment.headers["HX-Retarget"] == "#flash" and named in fragment.text


def test_confirming_a_hand_that_does_not_win_writes_nothing(client, session):
    url = f"/s/{session['id']}/confirm"
    r = client.post(url, data={"concealed": "123p", "win_tile": "1p", "seat": "east", "win": "tsumo",
                               "hand": "1"}, headers=HTMX)
    assert r.status_code == 422 and r.text.strip()
    assert client.get(f"/api/sessions/{session['id']}").json()["hands"] == 0


def test_a_hand_tapped_in_without_its_winning_tile_says_to_choose_it(client, session):
    r = client.post(f"/s/{session['id']}/edit", data={"concealed": "11p", "op": "add:1p"}, headers=HTMX)
    assert r.status_code == 200
    assert "choose the winning tile" in r.text and "is not one tile" not in r.text


def test_a_chinton_hand_of_two_suits_is_refused_before_its_winning_tile_is_asked_for(client):
    """清一色東天紅 plays one suit a hand: a photo's 13 tiles holding pinzu and souzu were only asked
    for their winning tile, the refusal coming once one was picked (the other rules' 6m, no tile of
    their wall, was said at once)."""
    sid = client.post("/api/sessions", json={"rules": "chinton", "players": ["Aki", "Ben", "Chie"]}).json()["id"]
    r = client.post(f"/s/{sid}/edit", data={"concealed": "123p456p789p23s11z", "op": "refresh"}, headers=HTMX)
    assert r.status_code == 200
    assert "plays one suit per hand" in r.text and "choose the winning tile" not in r.text


def test_the_tiles_a_hand_read_without_its_winning_tile_are_refused_for_are_said():
    from service import table
    count = lambda r: table.score_record(r)                       # noqa: E731  the rule the record names
    assert "plays one suit" in table.tiles_refused({"rules": "chinton", "seat": "east", "win": "tsumo",
                                                    "concealed": "123p456p789p23s11z"}, count)
    assert "is not in the dunhill wall" in table.tiles_refused({"rules": "dunhill", "seat": "east", "win": "tsumo",
                                                                "concealed": "123p456p789p67m11z"}, count)
    assert table.tiles_refused({"rules": "dunhill", "seat": "east", "win": "tsumo",
                                "concealed": "123p456p789p23s11z"}, count) == ""     # fine tiles, some tile wins


def test_a_press_on_a_page_older_than_the_session_says_to_reload_in_both_languages(client, session):
    sid = session["id"]
    client.post(f"/s/{sid}/draw", data={"hand": "1"}, headers=HTMX)          # hand 1 logged elsewhere
    r = client.post(f"/s/{sid}/draw", data={"hand": "1"}, headers=HTMX)      # this page still shows hand 1
    assert r.status_code == 409
    assert "別のタブレットで記録が進みました" in r.text and "reload the page" in r.text
    api = client.post(f"/api/sessions/{sid}/draws", json={"tenpai": [], "hand": 1})
    assert api.status_code == 409 and "reload" not in api.json()["detail"]   # the API's words stay its own


def test_a_correction_that_would_not_fit_later_hands_is_called_a_correction(client, session):
    sid = session["id"]
    client.post(f"/s/{sid}/draw", data={"hand": "1"}, headers=HTMX)
    client.post(f"/s/{sid}/draw", data={"hand": "2", "tenpai": "Aki"}, headers=HTMX)
    # dunhill: a draw adds a honba, a chombo is replayed at the same one; hand 2 was played at 1 honba
    r = client.post(f"/s/{sid}/chombo", data={"correct": "1", "offender": "Ben"}, headers=HTMX)
    assert r.status_code == 409, r.text
    assert "this correction would not fit the later hands" in r.text and "this correct " not in r.text


def test_two_tablets_correcting_one_hand_cannot_overwrite_each_other_unseen(client, session):
    """Both open the correction of hand 1 (a draw, as the event with seq ``seen``); the first
    correction lands, the second is refused: its page shows the hand as it was before."""
    sid = session["id"]
    client.post(f"/s/{sid}/draw", data={"hand": "1"}, headers=HTMX)
    page = client.get(f"/s/{sid}?correct=1").text
    seen = re.search(r'name="seen" value="(\d+)"', page).group(1)
    first = client.post(f"/s/{sid}/draw", data={"correct": "1", "seen": seen, "tenpai": "Aki"}, headers=HTMX)
    assert first.status_code == 204
    second = client.post(f"/s/{sid}/draw", data={"correct": "1", "seen": seen, "tenpai": "Ben"}, headers=HTMX)
    assert second.status_code == 409 and "hand 1 was corrected meanwhile" in second.text
    # the second tablet's editor, tapped on after the first's correction, keeps the hand as it saw it
    edited = client.post(f"/s/{sid}/edit", data={"correct": "1", "seen": seen, "op": "add:1p"}, headers=HTMX)
    assert re.search(r'name="seen" value="(\d+)"', edited.text).group(1) == seen
    hand = client.get(f"/api/sessions/{sid}/hands").json()["hands"][0]
    assert hand["tenpai"] == ["Aki"]
    again = client.post(f"/api/sessions/{sid}/hands/1/correct",
                        json={"kind": "draw", "tenpai": ["Ben"], "seen": hand["seq"]})
    assert again.status_code == 201                  # as seen now: it lands


def test_the_tablet_reads_the_engines_refusals_in_japanese_first(client, session):
    """The engine says what is wrong in English (the API keeps it so); the tablet puts the
    players' words first: in the live score and in a refused Confirm."""
    sid = session["id"]
    no_yaku = {"seat": "east", "win": "ron", "discarder": "south", "concealed": "123p567p345s678s99s",
               "win_tile": "2p", "melds": "[]", "hand": "1"}
    live = client.post(f"/s/{sid}/edit", data=no_yaku, headers=HTMX)
    assert "役がありません" in live.text and "no yaku" in live.text
    r = client.post(f"/s/{sid}/confirm", data=no_yaku, headers=HTMX)
    assert r.status_code == 422 and "役がありません" in r.text and "no yaku" in r.text
    api = client.post(f"/api/sessions/{sid}/wins", json={"records": [{
        "rules": "dunhill", "seat": "east", "win": "ron", "discarder": "south",
        "concealed": "123p567p345s678s99s", "win_tile": "2p"}]})
    assert api.status_code == 422 and "役" not in api.json()["detail"]
