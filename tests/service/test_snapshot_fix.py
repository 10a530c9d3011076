"""A tile fixed on the snapshot, with the real reader on the demo's frame 05: its winner holds
1s 2s 3s 3s 3s 3s 4s 5s 6s 6s 7s 8s 9s and wins on the 6s set apart, so the hand holds the winning
tile's kind twice more. Tapping the set-apart 6s and then 白 makes 白 the winning tile; before, a
6s left the hand and 6s stayed the winning tile, and no tap on the snapshot could undo it."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from service.settings import DEMO_FRAMES

HTMX = {"HX-Request": "true"}


class EditorForm(HTMLParser):
    """What the editor's form posts, as a browser would: its inputs' values (a radio or a
    checkbox only when checked)."""

    def __init__(self, page: str):
        super().__init__()
        self.values: dict[str, str] = {}
        self.feed(page)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "input" and a.get("name") and (a.get("type") not in ("radio", "checkbox") or "checked" in a):
            self.values[a["name"]] = a.get("value") or ""


def test_the_set_apart_winning_tile_tapped_and_fixed_changes_the_winning_tile(client):
    sid = client.post("/api/sessions", json={"rules": "balance", "players": ["Aki", "Ben", "Chie"]}).json()["id"]
    frame = (DEMO_FRAMES / "frame-05.jpg").read_bytes()
    read = client.post(f"/s/{sid}/upload", files={"image": ("f.jpg", frame, "image/jpeg")}, headers=HTMX)
    assert read.status_code == 200
    ops = set(re.findall(r'data-op="pick:([^"]+)"', read.text))
    win = [op for op in ops if op.startswith("win_tile:6s:")]
    assert len(win) == 1 and sum(op.startswith("concealed:6s:") for op in ops) == 2, sorted(ops)
    form = EditorForm(read.text).values
    assert form["win_tile"] == "6s" and form["concealed"] == "12333345666789s"
    picked = client.post(f"/s/{sid}/edit", data={**form, "op": f"pick:{win[0]}"}, headers=HTMX)
    fixed = client.post(f"/s/{sid}/edit", data={**EditorForm(picked.text).values, "op": "add:5z"}, headers=HTMX)
    after = EditorForm(fixed.text).values
    assert (after["win_tile"], after["concealed"], after["pick"]) == ("5z", "1233334566789s5z", "")


def test_a_tile_fixed_on_the_snapshot_is_marked_fixed_there(client):
    """Its box kept the name it was read as, unmarked, over a tile the hand now counts as another: a
    player "fixed" it again, and broke the hand. The box is now marked fixed (and not tapped again)."""
    sid = client.post("/api/sessions", json={"rules": "balance", "players": ["Aki", "Ben", "Chie"]}).json()["id"]
    frame = (DEMO_FRAMES / "frame-05.jpg").read_bytes()
    read = client.post(f"/s/{sid}/upload", files={"image": ("f.jpg", frame, "image/jpeg")}, headers=HTMX)
    assert 'changed"' not in read.text                        # as read: nothing fixed yet
    one = sorted(op for op in set(re.findall(r'data-op="pick:([^"]+)"', read.text)) if op.startswith("concealed:1s:"))
    form = EditorForm(read.text).values
    picked = client.post(f"/s/{sid}/edit", data={**form, "op": f"pick:{one[0]}"}, headers=HTMX)
    fixed = client.post(f"/s/{sid}/edit", data={**EditorForm(picked.text).values, "op": "add:9s"}, headers=HTMX)
    marked = re.findall(r'<g class="det[^"]*changed"\s+data-tile="(\w+)"', fixed.text)
    assert marked and set(marked) == {"1s"}
    assert "fixed already" in fixed.text


def test_of_two_tiles_alike_the_one_fixed_is_marked_and_the_other_still_picked(client):
    """Frame 05's hand holds two 6s besides the winning one: one fixed to 5s, both boxes stayed
    unmarked and pickable, and a second "fix" replaced the real 6s left. Now the box fixed is marked,
    the other picked as before; and after a double ron's second hand is begun, no box of the first
    winner's row is marked (the draft is another hand)."""
    sid = client.post("/api/sessions", json={"rules": "balance", "players": ["Aki", "Ben", "Chie"]}).json()["id"]
    frame = (DEMO_FRAMES / "frame-05.jpg").read_bytes()
    read = client.post(f"/s/{sid}/upload", files={"image": ("f.jpg", frame, "image/jpeg")}, headers=HTMX)
    sixes = sorted(op for op in set(re.findall(r'data-op="pick:([^"]+)"', read.text)) if op.startswith("concealed:6s:"))
    assert len(sixes) == 2
    form = EditorForm(read.text).values
    picked = client.post(f"/s/{sid}/edit", data={**form, "op": f"pick:{sixes[0]}"}, headers=HTMX)
    fixed = client.post(f"/s/{sid}/edit", data={**EditorForm(picked.text).values, "op": "add:5s"}, headers=HTMX)
    box = sixes[0].rsplit(":", 1)[1]
    assert EditorForm(fixed.text).values["fixed"] == box
    ops = set(re.findall(r'data-op="pick:([^"]+)"', fixed.text))
    assert sixes[1] in ops and sixes[0] not in ops                   # the other 6s is still picked
    assert len(re.findall(r'<g class="det[^"]*changed"', fixed.text)) == 2        # in the strip and the zoom
    ron = {**EditorForm(fixed.text).values, "win": "ron", "discarder": "west", "op": "double"}
    doubled = client.post(f"/s/{sid}/edit", data=ron, headers=HTMX)
    assert doubled.status_code == 200 and 'changed"' not in doubled.text
    # nor is the first winner's row picked to fix the second's hand
    assert not re.findall(r'data-op="pick:concealed:', doubled.text)
    # the same tile picked again changes nothing, so marks nothing
    again = client.post(f"/s/{sid}/edit", data={**form, "op": f"pick:{sixes[1]}"}, headers=HTMX)
    same = client.post(f"/s/{sid}/edit", data={**EditorForm(again.text).values, "op": "add:6s"}, headers=HTMX)
    assert EditorForm(same.text).values["fixed"] == "" and 'changed"' not in same.text


def test_a_double_rons_second_hand_read_keeps_the_first_held(client):
    """Reading the second winner's hand (a Count, a photo) turned a double ron back into one ron:
    the first winner's hand, held, was dropped."""
    import json
    sid = client.post("/api/sessions", json={"rules": "balance", "players": ["Aki", "Ben", "Chie"]}).json()["id"]
    first = {"rules": "balance", "seat": "south", "win": "ron", "discarder": "east",
             "concealed": "234567p23466s777z", "win_tile": "6s"}
    frame = (DEMO_FRAMES / "frame-05.jpg").read_bytes()                 # west's hand, read as a tsumo
    read = client.post(f"/s/{sid}/upload", data={"first": json.dumps(first), "melds": "[]"},
                       files={"image": ("f.jpg", frame, "image/jpeg")}, headers=HTMX)
    assert read.status_code == 200
    assert json.loads(EditorForm(read.text).values["first"]) == first
    # the second hand is a ron off the first's discarder by the seat that is neither (a reading names
    # its row's seat, and tsumo where it cannot tell): before, Confirm was refused after a clean preview
    values = EditorForm(read.text).values
    assert (values.get("seat"), values.get("win"), values.get("discarder")) == ("west", "ron", "east")


def test_a_new_picture_clears_the_boxes_fixed_on_the_one_before(client):
    sid = client.post("/api/sessions", json={"rules": "balance", "players": ["Aki", "Ben", "Chie"]}).json()["id"]
    import cv2
    import numpy as np
    felt = cv2.imencode(".jpg", np.full((480, 640, 3), (60, 120, 40), np.uint8))[1].tobytes()
    read = client.post(f"/s/{sid}/upload", data={"fixed": "0,3", "pick": "concealed:1s:3", "melds": "[]"},
                       files={"image": ("felt.jpg", felt, "image/jpeg")}, headers=HTMX)
    assert read.status_code == 200
    values = EditorForm(read.text).values
    assert values["fixed"] == "" and values["pick"] == ""


def test_a_double_rons_second_reading_of_the_first_winners_row_replaces_nothing(client):
    """Both winners' hands lie revealed; the reader took the first one's row again, and it was logged
    as the second winner's hand under the other seat. It is said so, and the draft stays."""
    import json
    sid = client.post("/api/sessions", json={"rules": "balance", "players": ["Aki", "Ben", "Chie"]}).json()["id"]
    frame = (DEMO_FRAMES / "frame-05.jpg").read_bytes()
    first_read = client.post(f"/s/{sid}/upload", files={"image": ("f.jpg", frame, "image/jpeg")}, headers=HTMX)
    seat = EditorForm(first_read.text).values["seat"]
    discarder = next(s for s in ("east", "south", "west") if s != seat)
    first = {"rules": "balance", "seat": seat, "win": "ron", "discarder": discarder,
             "concealed": EditorForm(first_read.text).values["concealed"], "win_tile": "6s"}
    form = {"first": json.dumps(first), "melds": "[]", "concealed": "", "seat": "", "win": "ron"}
    again = client.post(f"/s/{sid}/upload", data=form, files={"image": ("f.jpg", frame, "image/jpeg")}, headers=HTMX)
    assert again.status_code == 200 and "一人目の和了者の手牌です" in again.text
    assert EditorForm(again.text).values["concealed"] == ""


def test_a_seat_the_players_change_leaves_the_snapshot_tappable(client):
    sid = client.post("/api/sessions", json={"rules": "balance", "players": ["Aki", "Ben", "Chie"]}).json()["id"]
    frame = (DEMO_FRAMES / "frame-05.jpg").read_bytes()
    read = client.post(f"/s/{sid}/upload", files={"image": ("f.jpg", frame, "image/jpeg")}, headers=HTMX)
    form = EditorForm(read.text).values
    other = next(s for s in ("east", "south", "west") if s != form["seat"])
    moved = client.post(f"/s/{sid}/edit", data={**form, "seat": other, "op": ""}, headers=HTMX)
    assert re.findall(r'data-op="pick:concealed:', moved.text)


def test_a_double_rons_second_reading_of_the_discarders_row_says_so(client):
    import json
    sid = client.post("/api/sessions", json={"rules": "balance", "players": ["Aki", "Ben", "Chie"]}).json()["id"]
    frame = (DEMO_FRAMES / "frame-05.jpg").read_bytes()
    seat = EditorForm(client.post(f"/s/{sid}/upload", files={"image": ("f.jpg", frame, "image/jpeg")},
                                  headers=HTMX).text).values["seat"]
    winner = next(s for s in ("east", "south", "west") if s != seat)
    first = {"rules": "balance", "seat": winner, "win": "ron", "discarder": seat,
             "concealed": "234567p23466s777z", "win_tile": "6s"}
    form = {"first": json.dumps(first), "melds": "[]", "concealed": "", "win": "ron"}
    again = client.post(f"/s/{sid}/upload", data=form, files={"image": ("f.jpg", frame, "image/jpeg")}, headers=HTMX)
    assert "読んだのは放銃者の手牌です" in again.text


def test_a_correction_counts_as_unlogged_only_where_it_differs_from_the_hand_logged(client):
    """A correction whose target or a toggle ticked and unticked asked "not logged yet" on leaving."""
    sid = client.post("/api/sessions", json={"rules": "balance", "players": ["Aki", "Ben", "Chie"]}).json()["id"]
    frame = (DEMO_FRAMES / "frame-05.jpg").read_bytes()
    read = client.post(f"/s/{sid}/upload", files={"image": ("f.jpg", frame, "image/jpeg")}, headers=HTMX)
    form = EditorForm(read.text).values
    assert client.post(f"/s/{sid}/confirm", data=form).status_code == 204
    page = client.get(f"/s/{sid}?correct=1").text
    assert 'data-entered="0"' in page
    values = EditorForm(page).values
    moved = client.post(f"/s/{sid}/edit", data={**values, "target": "gari", "op": ""}, headers=HTMX)
    assert 'data-entered="0"' in moved.text
    changed = client.post(f"/s/{sid}/edit", data={**values, "op": "del:concealed:0"}, headers=HTMX)
    assert 'data-entered="1"' in changed.text
