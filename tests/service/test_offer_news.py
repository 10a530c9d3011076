"""A win the watcher offered is news for the table page until a hand is logged after it, told by the
clock the ledger stamps hands with (service/watch/offers.py): on PostgreSQL the server's, not the
table machine's, whose own clock may be off (no battery, no NTP on the parlour's network).

Before, the offer was stamped by the machine's clock and the hand by the server's. Ten minutes fast,
the page opened after a Confirm drafted the confirmed win again (a second Confirm could log it twice);
ten minutes slow, a win offered after a hand was not news to a page opened on it."""

from __future__ import annotations

import json
from dataclasses import replace

import cv2
import numpy as np
import pytest
from fastapi.testclient import TestClient

from service.app import create_app
from service.ledger import db, repo
from service.settings import DEMO_FRAMES, DEMO_HANDS
from service.watch import offers as offers_module
from table_fixtures import PIN, PLAYERS, machine_clock, record
from test_snapshot_fix import EditorForm

OFFERED = 'id="offer-note"'           # the table page opened with the watcher's reading


@pytest.fixture
def table(settings, db_url):
    with TestClient(create_app(settings.model_copy(update={"db_url": db_url})),
                    headers={"X-Table-PIN": PIN}) as client:
        sid = client.post("/api/sessions", json={"rules": "dunhill", "players": PLAYERS}).json()["id"]
        yield client, sid


def offer_a_count(client, sid: str) -> str:
    """The camera's frame read, offered as the watcher offers a win; its snapshot."""
    snap = client.post(f"/api/camera/read?session={sid}").json()["snapshot"]
    reading, size = client.app.state.offers.reading(snap)
    client.app.state.offers.offer(snap, reading, size)
    return snap


def offer_a_frame(client, sid: str, name: str, lighter: int = 0, agree: float | None = None):
    """The demo frame ``name`` (``lighter`` levels lighter: another picture of the same table) read
    at the table now and offered as the watcher offers a win (``agree``: as voted over three
    frames, each tile read alike by that share of them)."""
    image = (DEMO_FRAMES / name).read_bytes()
    if lighter:
        frame = cv2.imdecode(np.frombuffer(image, np.uint8), cv2.IMREAD_COLOR)
        lit = cv2.add(frame, (lighter,) * 3 + (0,))
        image = cv2.imencode(".jpg", lit, [cv2.IMWRITE_JPEG_QUALITY, 85])[1].tobytes()
    snap = client.post("/api/read", data={"session": sid},
                       files={"image": (name, image, "image/jpeg")}).json()["snapshot"]
    reading, size = client.app.state.offers.reading(snap)
    if agree is None:
        return client.app.state.offers.offer(snap, reading, size)
    voted = replace(reading, detections=tuple(replace(d, agree=agree) for d in reading.detections),
                    warnings=("the frames disagree on 1 tile: check it",))
    return client.app.state.offers.offer(snap, voted, size, frames=3)


def watcher_looks(client) -> None:
    """The watcher looks at the camera's next frame, as its thread does many times a second."""
    number, frame = client.app.state.camera.latest()
    client.app.state.watcher.step(frame, number + 10_000, 0.0)


def page(client, sid: str) -> str:
    r = client.get(f"/s/{sid}")
    assert r.status_code == 200
    return r.text


@pytest.mark.parametrize("minutes", [0, 10], ids=["same clock", "fast"])
def test_a_win_confirmed_from_its_offer_is_not_drafted_again(table, db_url, monkeypatch, minutes):
    client, sid = table
    if minutes and not db_url.startswith("postgresql"):
        pytest.skip("SQLite's tables share one machine, and so its clock")
    machine_clock(monkeypatch, minutes, offers_module, repo, db)
    snap = offer_a_count(client, sid)
    assert OFFERED in page(client, sid)
    assert client.post(f"/api/sessions/{sid}/wins", json={"records": [record()], "snapshot": snap,
                                                           "hand": 1}).status_code == 201
    assert OFFERED not in page(client, sid)


def test_a_hand_offered_twice_and_confirmed_from_the_first_offer_is_not_drafted_again(table):
    """An arm over the winner's row for clear_s re-arms the watcher, and the same hand read again
    with one tile otherwise is another offer. Confirmed from the first offer, the second is not news:
    a hand logged after an offer hides it. (The next deal's win read before the last is confirmed
    cannot be told from it, and waits for a tap on Count: a lost offer costs a tap, a second offer
    of one hand a hand logged twice.)"""
    client, sid = table
    offers = client.app.state.offers
    first = offer_a_frame(client, sid, "frame-01.jpg")
    again = offer_a_frame(client, sid, "frame-01.jpg", lighter=3)      # the same hand, read again
    assert again.snapshot != first.snapshot
    assert client.post(f"/api/sessions/{sid}/wins", json={"records": [record()], "snapshot": first.snapshot,
                                                           "hand": 1}).status_code == 201
    assert OFFERED not in page(client, sid)
    latest = offers.latest
    watcher_looks(client)                                          # told of the logged win: nothing new
    assert offers.latest is latest and OFFERED not in page(client, sid)


def test_the_next_deal_s_win_read_before_the_last_was_confirmed_is_offered_again_at_its_seats(table):
    """The players confirm south's win while the watcher has already read the next deal's, west
    zone's hand. Before, that offer was not news to the page opened after the Confirm (a tap on
    Count read it again), and its record named the seats of the deal before. Now the watcher offers
    it again at the deal now (south won: the dealer moved on, the West zone's player sits south),
    its vote kept: a tile the frames read otherwise is still marked unsure."""
    client, sid = table
    offers = client.app.state.offers
    last = offer_a_frame(client, sid, "frame-01.jpg")                  # south's tsumo, souzu
    assert last.reading.record["seat"] == "south"
    following = offer_a_frame(client, sid, "frame-05.jpg", agree=0.67)  # read while the last is unconfirmed
    assert following.reading.record["seat"] == "west"
    r = client.post(f"/api/sessions/{sid}/wins", json={"records": [dict(last.reading.record)],
                                                       "snapshot": last.snapshot, "hand": 1})
    assert r.status_code == 201
    watcher_looks(client)
    again = offers.latest
    assert again.id > following.id and again.snapshot == following.snapshot
    assert again.reading.record["seat"] == "south"                     # the West zone's player, this deal
    assert {k: v for k, v in again.reading.record.items() if k not in ("seat", "honba")} == \
        {k: v for k, v in following.reading.record.items() if k not in ("seat", "honba")}
    assert [d.agree for d in again.reading.detections] == [d.agree for d in following.reading.detections]
    assert again.reading.warnings == following.reading.warnings and again.frames == following.frames == 3
    shown = page(client, sid)
    assert OFFERED in shown and following.snapshot in shown
    watcher_looks(client)                                              # once: no third offer
    assert offers.latest is again
    # the Confirm taken back at once: the hand drafted is the West zone player's again, seated west
    assert client.post(f"/api/sessions/{sid}/undo", json={"hand": 1}).status_code in (200, 201)
    assert EditorForm(page(client, sid)).values["seat"] == "west"


def test_the_next_deal_s_win_is_offered_again_with_the_camera_out(table):
    """The camera went out after the next deal's win was read and before the last was confirmed: the
    watcher offered it again only at its next look, once the camera came back, and the page drafted
    nothing meanwhile (Count answered 503). A tick with no frame hears the Confirm too."""
    client, sid = table
    offers = client.app.state.offers
    last = offer_a_frame(client, sid, "frame-01.jpg")
    following = offer_a_frame(client, sid, "frame-05.jpg")
    r = client.post(f"/api/sessions/{sid}/wins", json={"records": [dict(last.reading.record)],
                                                       "snapshot": last.snapshot, "hand": 1})
    assert r.status_code == 201
    again = client.app.state.watcher.idle()                            # what the thread does, no frame come
    assert again is offers.latest and again.snapshot == following.snapshot and again.id > following.id
    assert EditorForm(page(client, sid)).values["snapshot"] == following.snapshot
    assert client.app.state.watcher.idle() is None                     # heard once


def test_with_two_deals_waiting_the_newest_is_not_drafted_in_the_next_one_s_place(table):
    """Three deals offered before the first was confirmed: the third was drafted as the second
    hand (at the wrong dealer), the second skipped. Only the offer right after the one logged
    from is the next deal's; otherwise a tap on Count reads what lies there."""
    client, sid = table
    offers = client.app.state.offers
    first = offer_a_frame(client, sid, "frame-01.jpg")
    offer_a_frame(client, sid, "frame-05.jpg")
    third = offer_a_frame(client, sid, "frame-06.jpg")
    assert client.post(f"/api/sessions/{sid}/wins", json={"records": [dict(first.reading.record)],
                                                           "snapshot": first.snapshot, "hand": 1}).status_code == 201
    watcher_looks(client)
    assert offers.latest is third and OFFERED not in page(client, sid)


@pytest.mark.parametrize("minutes", [10, -10], ids=["fast", "slow"])
def test_whether_an_offer_is_news_does_not_hang_on_the_table_machine_s_clock(table, db_url, monkeypatch,
                                                                             minutes):
    if not db_url.startswith("postgresql"):
        pytest.skip("SQLite's tables share one machine, and so its clock")
    client, sid = table
    machine_clock(monkeypatch, minutes, offers_module, repo, db)
    offer_a_count(client, sid)
    assert OFFERED in page(client, sid)
    # a win the players keyed in by hand after it (no snapshot): the offer is no longer news
    assert client.post(f"/api/sessions/{sid}/wins", json={"records": [record()], "hand": 1}).status_code == 201
    assert OFFERED not in page(client, sid)
    # the next win offered, after that hand: news for a page opened now
    offer_a_count(client, sid)
    assert OFFERED in page(client, sid)


def test_a_new_session_does_not_open_with_the_last_sessions_win(table):
    """The watcher's reading of session 1's last win was opened, drafted for its first dealer, by a
    session started within half an hour, and one Confirm logged that hand a second time, for
    another player. A reading from before a session started is not its news, nor is one whose
    picture a hand that stands was logged with. (A Confirm of a picture logged before is not
    refused: the demo camera's frames come round again, and name the same snapshot.)"""
    client, first = table
    snap = offer_a_count(client, first)
    assert client.post(f"/api/sessions/{first}/wins", json={"records": [record()], "snapshot": snap,
                                                            "hand": 1}).status_code == 201
    second = client.post("/api/sessions", json={"rules": "dunhill", "players": ["Dai", "Eri", "Fumi"]}).json()["id"]
    assert OFFERED not in page(client, second)
    # offered after the session started, but its picture is a hand logged already: not news either
    client.app.state.offers.offer(snap, *client.app.state.offers.reading(snap))
    assert OFFERED not in page(client, second)
    # offered, not confirmed, and a new session started: it was the last session's hand
    offer_a_count(client, second)
    third = client.post("/api/sessions", json={"rules": "dunhill", "players": ["Gen", "Hana", "Ichi"]}).json()["id"]
    assert OFFERED not in page(client, third)
    # a win read after the third session started, of a picture no hand names, is its news
    client.app.state.offers.offer("f" * 20 + ".jpg", *client.app.state.offers.reading(snap))
    assert OFFERED in page(client, third)


@pytest.mark.parametrize("between", ["the next deal's read twice", "the last deal's read twice"])
def test_a_hand_read_twice_between_does_not_keep_the_next_deal_from_being_offered_again(table, between):
    """Only the offer right after the one logged from was offered again: a hand read twice (an arm
    re-arming the watcher, one tile read otherwise) between them cost the next deal's draft."""
    client, sid = table
    offers = client.app.state.offers
    last = offer_a_frame(client, sid, "frame-01.jpg")
    if between == "the last deal's read twice":
        offer_a_frame(client, sid, "frame-01.jpg", lighter=3)
        following = offer_a_frame(client, sid, "frame-05.jpg")
    else:
        offer_a_frame(client, sid, "frame-05.jpg")
        following = offer_a_frame(client, sid, "frame-05.jpg", lighter=3)
    assert client.post(f"/api/sessions/{sid}/wins", json={"records": [dict(last.reading.record)],
                                                           "snapshot": last.snapshot, "hand": 1}).status_code == 201
    watcher_looks(client)
    again = offers.latest
    assert again.id > following.id and again.snapshot == following.snapshot and OFFERED in page(client, sid)


def _log(client, sid: str, name: str, snapshot: str) -> None:
    """The demo frame ``name``'s hand (as hands.json says it) logged as hand 1, naming ``snapshot``."""
    shown = json.loads(DEMO_HANDS.read_text())[name]
    logged = client.post(f"/api/sessions/{sid}/wins", json={"records": [shown], "snapshot": snapshot, "hand": 1})
    assert logged.status_code == 201, logged.text


def test_an_offer_of_a_picture_logged_already_is_refused_not_drafted(table):
    """The demo's slideshow came round again (and a restarted service forgets what it offered): the
    same picture, a hand logged already, was offered and drafted as a clean count, and a second
    Confirm paid the win twice."""
    client, sid = table
    first = offer_a_frame(client, sid, "frame-02.jpg")
    _log(client, sid, "frame-02.jpg", first.snapshot)
    again = offer_a_frame(client, sid, "frame-02.jpg")
    assert again.snapshot == first.snapshot and again.id != first.id
    shown = client.post(f"/s/{sid}/offer", data={"offer": again.id}, headers={"HX-Request": "true"})
    assert shown.status_code == 409 and "this picture is hand 1, logged already" in shown.text
    assert OFFERED not in page(client, sid)


def test_the_hand_just_logged_read_again_in_another_picture_is_not_offered_nor_confirmed(table):
    """A service restarted with the winner's hand still on the table reads it again in a new
    picture: the same tiles as the hand logged last are no new win."""
    client, sid = table
    first = offer_a_frame(client, sid, "frame-02.jpg")
    _log(client, sid, "frame-02.jpg", first.snapshot)
    again = offer_a_frame(client, sid, "frame-02.jpg", lighter=3)
    assert again.snapshot != first.snapshot
    shown = client.post(f"/s/{sid}/offer", data={"offer": again.id}, headers={"HX-Request": "true"})
    assert shown.status_code == 409 and "this win is hand 1, logged already" in shown.text
    assert OFFERED not in page(client, sid)


def test_an_offer_drafted_before_its_hand_was_logged_elsewhere_is_not_confirmed_again(table):
    """Two tablets on one offer: one confirms, the other's Confirm of the same win is refused."""
    client, sid = table
    offered = offer_a_frame(client, sid, "frame-02.jpg")
    drafted = client.post(f"/s/{sid}/offer", data={"offer": offered.id}, headers={"HX-Request": "true"})
    assert drafted.status_code == 200
    form = EditorForm(drafted.text).values
    assert form["offer"] == str(offered.id)
    _log(client, sid, "frame-02.jpg", offered.snapshot)
    again = client.post(f"/s/{sid}/confirm", data=form, headers={"HX-Request": "true"})
    assert again.status_code == 409 and "logged already" in again.text
    assert len(client.get(f"/api/sessions/{sid}/hands").json()["hands"]) == 1


def test_the_next_win_sharing_many_tiles_with_the_last_is_no_logged_hand(table):
    """frame-04's hand (11222233334488s) logged, frame-05's (12333345666789s) offered: another win of
    one suit, sharing half its tiles. It was refused as "this win is hand 1, logged already"."""
    client, sid = table
    first = offer_a_frame(client, sid, "frame-04.jpg")
    _log(client, sid, "frame-04.jpg", first.snapshot)
    nxt = offer_a_frame(client, sid, "frame-05.jpg")
    shown = client.post(f"/s/{sid}/offer", data={"offer": nxt.id}, headers={"HX-Request": "true"})
    assert shown.status_code == 200, shown.text
    assert OFFERED in page(client, sid)


def test_a_count_of_the_picture_a_hand_was_logged_from_says_so(table):
    """Count on a camera showing the very picture of a logged hand (the demo's slideshow come round, a
    camera stalled) drafted it with no word, and Confirm paid it twice. It is said, not refused."""
    client, sid = table
    first = offer_a_frame(client, sid, "frame-02.jpg")
    _log(client, sid, "frame-02.jpg", first.snapshot)
    image = (DEMO_FRAMES / "frame-02.jpg").read_bytes()
    counted = client.post(f"/s/{sid}/upload", files={"image": ("f.jpg", image, "image/jpeg")},
                          headers={"HX-Request": "true"})
    assert counted.status_code == 200
    assert "this picture is hand 1, logged already: confirmed again, it is logged twice" in counted.text
    fresh = client.post(f"/s/{sid}/upload", headers={"HX-Request": "true"},
                        files={"image": ("f.jpg", (DEMO_FRAMES / "frame-03.jpg").read_bytes(), "image/jpeg")})
    assert "logged already" not in fresh.text


def test_a_hand_fixed_a_lot_and_confirmed_then_read_again_is_not_offered_nor_confirmed_again(table):
    """frame-01 read, three of its tiles fixed (888s made 888p) and confirmed as hand 1; an arm over
    the row, lifted, and the same hand read again in a new picture with its discards otherwise. It
    differed from the hand as confirmed in three tiles, so it was drafted as hand 2 and a Confirm
    paid the win twice: it is the hand as read from hand 1's picture."""
    client, sid = table
    offers = client.app.state.offers
    offer_a_frame(client, sid, "frame-01.jpg")
    form = EditorForm(page(client, sid)).values
    assert form["concealed"] == "222234444888s66z", form
    form["concealed"] = "222234444s888p66z"
    assert client.post(f"/s/{sid}/confirm", data=form).status_code == 204

    again = offer_a_frame(client, sid, "frame-01.jpg", lighter=3)
    again = offers.offer(again.snapshot, replace(again.reading, record={**again.reading.record,
                                                                        "discards": "9m39p039s25z"}), again.size)
    assert offers.logged_hand(again.reading.record)                 # the watcher offers it no more
    shown = client.post(f"/s/{sid}/offer", data={"offer": again.id}, headers={"HX-Request": "true"})
    assert shown.status_code == 409 and "this win is hand 1, logged already" in shown.text
    assert OFFERED not in page(client, sid)
    form["offer"], form["snapshot"], form["concealed"] = str(again.id), again.snapshot, "222234444888s66z"
    form["hand"] = "2"
    twice = client.post(f"/s/{sid}/confirm", data=form, headers={"HX-Request": "true"})
    assert twice.status_code == 409 and "logged already" in twice.text
    assert len(client.get(f"/api/sessions/{sid}/hands").json()["hands"]) == 1

    nxt = offer_a_frame(client, sid, "frame-02.jpg")                # the next deal's win is news
    assert not offers.logged_hand(nxt.reading.record)
    assert client.post(f"/s/{sid}/offer", data={"offer": nxt.id}, headers={"HX-Request": "true"}).status_code == 200
    # hand 1 taken back: laid again, it is no hand logged (the watcher refused it as "logged already")
    assert client.post(f"/api/sessions/{sid}/undo", json={"hand": 1}).status_code in (200, 201)
    assert not offers.logged_hand(again.reading.record)


def test_a_typed_win_undone_is_no_hand_logged_to_the_watcher(table):
    """A win typed on the tablet (no picture) is the last win logged; undone, the same hand laid again
    was still "logged already" to the watcher: only a win with a picture was forgotten."""
    client, sid = table
    offers = client.app.state.offers
    shown = json.loads(DEMO_HANDS.read_text())["frame-02.jpg"]
    assert client.post(f"/api/sessions/{sid}/wins", json={"records": [shown], "hand": 1}).status_code == 201
    assert offers.logged_hand(shown)
    assert client.post(f"/api/sessions/{sid}/undo", json={"hand": 1}).status_code in (200, 201)
    assert not offers.logged_hand(shown)
