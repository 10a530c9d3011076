"""The teach page: a photo of one of each kind laid in four rows, and three backs in a fifth, is read
into cuts named by their place; Confirm enrols them into the table's tile set on disk, and the reader names tiles with it.
Bad pictures are refused with a message, never a server error. (The real app, detector and set.)"""

from __future__ import annotations

import re
import shutil
from html.parser import HTMLParser

import cv2
import numpy as np
import pytest
from fastapi.testclient import TestClient

from service.app import create_app
from calibration.store import TableFile, save
from vision.read import PX_PER_MM
from vision.synth.table import TH
from service.settings import DEMO_FRAMES
from vision.teach import LAYOUT
from vision.tileset import ENROLLED, TileSet

from table_fixtures import PIN
from teach_fixtures import FELT, jpeg, rows_on_table, rows_photo, tile_art

HTMX = {"HX-Request": "true"}
LAID = [k for row in LAYOUT for k in row]


class _Lesson(HTMLParser):
    """The lesson fragment as the tablet sees it: the token, each cut's image and selected kind."""

    def __init__(self, html: str):
        super().__init__()
        self.token, self.images, self.kinds, self._select = "", [], [], False
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "input" and a.get("name") == "token":
            self.token = a["value"]
        elif tag == "img" and a.get("src", "").startswith("data:image/jpeg;base64,"):
            self.images.append(a["src"])
        elif tag == "select" and a.get("name") == "kind":
            self._select = True
            self.kinds.append("")
        elif tag == "option" and self._select and "selected" in a:
            self.kinds[-1] = a["value"]

    def handle_endtag(self, tag):
        if tag == "select":
            self._select = False


@pytest.fixture(scope="module")
def photo() -> bytes:
    return jpeg(rows_photo(tile_art()))


def _upload(client, data: bytes, name: str = "rows.jpg", headers=HTMX):
    return client.post("/teach/upload", files={"image": (name, data, "image/jpeg")}, headers=headers)


def test_the_page_shows_the_rows_to_lay_and_the_sets_size(client):
    page = client.get("/teach")
    assert page.status_code == 200
    assert re.findall(r'class="tile mini" data-tile="(\w+)"', page.text) == LAID
    assert re.search(r'id="kinds-count">0<', page.text) and re.search(r'id="crops-count">0<', page.text)
    assert 'href="/teach"' in client.get("/").text


def test_a_photo_of_the_rows_is_read_and_confirm_enrols_the_kinds(client, settings, photo):
    read = _upload(client, photo)
    assert read.status_code == 200, read.text
    lesson = _Lesson(read.text)
    assert lesson.kinds == LAID and len(lesson.images) == len(LAID)
    assert "flash warn" not in read.text

    kinds = list(lesson.kinds)
    kinds[LAID.index("5z")] = "back"          # the players change one (haku to a back)
    kinds[LAID.index("0s")] = ""              # and leave one out
    done = client.post("/teach/confirm", data={"token": lesson.token, "kind": kinds}, headers=HTMX)
    assert done.status_code == 200, done.text
    assert "learnt 33 tile(s) of 30 kind(s)" in done.text

    folder = settings.data_dir / "demo.tileset"
    tileset = TileSet.load(folder)
    expected = sorted((set(LAID) - {"5z", "0s"}) | {"back"})
    assert tileset.kinds() == expected
    assert {k: len(c) for k, c in tileset.crops.items() if len(c) != 1} == {"back": 4}    # 3 laid, 1 renamed
    assert all(c.source == ENROLLED for crops in tileset.crops.values() for c in crops)
    assert all((folder / c.file).is_file() for crops in tileset.crops.values() for c in crops)
    assert re.search(r'id="kinds-count">29<', done.text)          # 29 faces and the back
    assert re.search(r'id="crops-count">33<', done.text)
    assert re.search(r'id="crops-count">33<', client.get("/teach").text)
    assert client.app.state.reader.detector.tileset.kinds() == expected    # the reader switched to it
    # the same reading cannot be enrolled twice
    again = client.post("/teach/confirm", data={"token": lesson.token, "kind": kinds}, headers=HTMX)
    assert again.status_code == 409 and "read the tiles again" in again.text


def test_teaching_again_with_other_tiles_adds_to_the_set(client, photo):
    """A second round of the rows (other tiles of each kind, as the page suggests) joins the first:
    two crops a kind, the kinds as before. The same picture taught again adds nothing: a crop's twin
    would make the set trust itself more than its tiles earn."""
    other = jpeg(rows_photo(tile_art(), seed=5))
    for round_, picture in ((1, photo), (2, other), (2, photo)):
        lesson = _Lesson(_upload(client, picture).text)
        done = client.post("/teach/confirm", data={"token": lesson.token, "kind": lesson.kinds}, headers=HTMX)
        assert done.status_code == 200, done.text
        assert re.search(rf'id="crops-count">{round_ * len(LAID)}<', done.text)
        assert re.search(r'id="kinds-count">31<', done.text)
    assert f"{len(LAID)} already held (the same picture)" in done.text
    assert "learnt 0 tile(s) of 0 kind(s)" in done.text      # the kinds it learnt, not those it was shown
    assert "Laid again with other tiles of each kind" in client.get("/teach").text


def test_the_cuts_are_the_tiles_upright(client, photo):
    lesson = _Lesson(_upload(client, photo).text)
    token = lesson.token
    cuts = client.app.state.tiles.lessons.get(token).cuts
    assert all(c.image.shape[0] > c.image.shape[1] for c in cuts)       # portrait: a tile standing up
    assert [c.read for c in cuts][:9] == LAID[:9]                       # the detector saw them as laid


def test_the_cameras_frame_can_be_read(client):
    """The demo camera shows a table after a win, not the rows: it is read, and the rows that do not
    fit are said."""
    r = client.post("/teach/read", headers=HTMX)
    assert r.status_code == 200, r.text
    assert _Lesson(r.text).images and "flash warn" in r.text


def _blank(side=(640, 480)) -> bytes:
    return jpeg(np.full((side[1], side[0], 3), FELT, np.uint8))


@pytest.mark.parametrize("name, data, status, says", [
    ("notes.txt", b"these are not tiles", 415, "not an image"),
    ("empty.jpg", b"", 422, "empty"),
    ("felt.jpg", None, 422, "no tiles found"),
    ("huge.png", "huge", 413, "larger than 2000 pixels"),
])
def test_a_bad_picture_is_refused_with_a_message(client, name, data, status, says):
    if data is None:
        data = _blank()
    elif data == "huge":
        ok, buf = cv2.imencode(".png", np.zeros((10, 2100, 3), np.uint8))
        data = buf.tobytes()
    r = _upload(client, data, name)
    assert r.status_code == status, r.text
    assert r.headers["HX-Retarget"] == "#flash" and says in r.text
    page = _upload(client, data, name, headers={})                   # a plain form post: an error page
    assert page.status_code == status and says in page.text


def test_an_upload_too_large_is_refused_before_it_is_read(client):
    r = _upload(client, b"\xff" * 300_000)
    assert r.status_code == 413 and "limit" in r.text


def test_no_file_chosen_says_so(client):
    r = client.post("/teach/upload", data={"x": "1"}, headers=HTMX)
    assert r.status_code == 422 and "choose an image" in r.text


def test_bad_kinds_are_refused(client, photo):
    lesson = _Lesson(_upload(client, photo).text)
    url = "/teach/confirm"
    for kinds, status, says in ((["9z"] + lesson.kinds[1:], 422, "not a kind: 9z"),
                                (lesson.kinds[:-1], 422, "33 kinds posted for 34 tiles"),
                                ([""] * len(lesson.kinds), 422, "every tile is left out")):
        r = client.post(url, data={"token": lesson.token, "kind": kinds}, headers=HTMX)
        assert r.status_code == status and says in r.text, r.text
    r = client.post(url, data={"token": "nope", "kind": lesson.kinds}, headers=HTMX)
    assert r.status_code == 409


def test_the_page_needs_the_pin(settings):
    with TestClient(create_app(settings)) as anonymous:
        assert anonymous.get("/teach", follow_redirects=False).headers["location"] == "/login"
        assert anonymous.post("/teach/upload", headers=HTMX).status_code == 401


def test_a_camera_over_no_known_table_has_no_set_to_teach(settings, tmp_path, photo):
    frames = tmp_path / "camera"
    frames.mkdir()
    shutil.copy(DEMO_FRAMES / "frame-01.jpg", frames)
    with TestClient(create_app(settings.model_copy(update={"camera": str(frames)})),
                    headers={"X-Table-PIN": PIN}) as client:
        assert "no calibrated table" in client.get("/teach").text
        r = _upload(client, photo)
        assert r.status_code == 409 and "TABLE_CALIBRATION" in r.text


def test_a_calibrated_tables_frame_is_laid_flat_before_its_rows_are_cut(settings, tmp_path, monkeypatch):
    """The camera over a calibrated table: its frame is rectified as the reader rectifies it and read
    in the reader's window at the table's centre, so the rows are found whole (the raw frame's tiles
    are too small for the locator) and cut as the reader will cut them."""
    frames = tmp_path / "camera"
    frames.mkdir()
    frame = rows_on_table(tile_art())
    cv2.imwrite(str(frames / "rows.jpg"), frame)
    monkeypatch.setenv("CALIBRATION_DIR", str(tmp_path / "tables"))
    save(TableFile("t1"), tmp_path / "tables")
    with TestClient(create_app(settings.model_copy(update={"camera": str(frames), "calibration": "t1"})),
                    headers={"X-Table-PIN": PIN}) as client:
        r = client.post("/teach/read", headers=HTMX)
        assert r.status_code == 200, r.text
        lesson = _Lesson(r.text)
        assert lesson.kinds == LAID and "flash warn" not in r.text           # every tile, in its place
        cuts = client.app.state.tiles.lessons.get(lesson.token).cuts
        assert [c.read for c in cuts] == LAID                                 # and read as laid
        heights = [c.image.shape[0] / PX_PER_MM for c in cuts]            # mm on the rectified table
        assert all(0.8 * TH < h < 1.6 * TH for h in heights), heights      # a tile's height at the reader's scale
        # the whole frame, not laid flat, finds the rows in pieces at best
        from service import teaching
        whole = teaching.detect(client.app.state.tiles.detector, frame)
        faces = [k for k in LAID if k != "back"]
        assert len([d for d in whole if d.tile in faces]) < len(faces)


def test_of_several_pictures_the_one_whose_rows_read_as_laid_is_taught():
    """A window that also holds tiles beside the rows shows more tiles, but every row's kinds are
    then shifted: the window whose tiles read as the kinds laid there is the one taught, not the
    one with the most boxes."""
    from service.teaching import read_lesson
    from vision.detect import Detector

    art = tile_art()
    beside = [("7z", "7z", "7z", *row) for row in LAYOUT]             # three more tiles before each row
    crowded = rows_photo(art, layout=beside, size=(1100, 720), seed=4)
    short = [list(row) for row in LAYOUT]
    short[0] = short[0][:-1]                                          # 9p not laid
    clean = rows_photo(art, layout=short, seed=5)
    lesson = read_lesson(Detector.for_view("overhead"), [crowded, clean])
    assert len(lesson.cuts) == sum(len(row) for row in short)
    assert sum(c.kind == c.read for c in lesson.cuts) >= len(lesson.cuts) - 1


class _MissingOne:
    """The overhead view's detector, missing the fourth tile of the first row (as it may miss a tile
    of a set it does not know)."""

    def __init__(self):
        from vision.detect import Detector

        self.detector = Detector.for_view("overhead")

    def detect(self, image, grid=1):
        from vision.teach import rows_of

        found = self.detector.detect(image, grid)
        missed = rows_of(found)[0][3]
        return [d for d in found if d is not missed]

    def name_boxes(self, *args, **kwargs):
        return self.detector.name_boxes(*args, **kwargs)


def test_a_tile_the_detector_misses_is_cut_where_it_lies_and_named_as_laid():
    from service.teaching import read_lesson

    lesson = read_lesson(_MissingOne(), rows_photo(tile_art()))
    assert [c.kind for c in lesson.cuts] == LAID
    assert lesson.cuts[3].read == "none" and lesson.cuts[4].read == "5p"
    assert any(w.startswith("row 1: the 4p not found") for w in lesson.warnings)


def test_room_left_between_two_laid_tiles_is_no_missed_tile():
    from service.teaching import read_lesson
    from vision.detect import Detector

    spaced = [("1p", "2p", "3p", "4p", "", "5p", "6p", "7p", "8p", "9p"), *LAYOUT[1:]]
    lesson = read_lesson(Detector.for_view("overhead"), rows_photo(tile_art(), layout=spaced, seed=6))
    assert [c.kind for c in lesson.cuts] == LAID
    assert not any("not found" in w for w in lesson.warnings)


def test_one_reading_confirmed_twice_at_once_is_taught_once(client, photo):
    """Two presses of Confirm (or two tablets) with one reading: the one lesson is taken by the
    first; the second is told to read again, and the set holds each tile once."""
    from concurrent.futures import ThreadPoolExecutor

    lesson = _Lesson(_upload(client, photo).text)
    with ThreadPoolExecutor(2) as pool:
        answers = list(pool.map(lambda _: client.post("/teach/confirm", headers=HTMX,
                                                      data={"token": lesson.token, "kind": lesson.kinds}), (1, 2)))
    assert sorted(a.status_code for a in answers) == [200, 409]
    assert client.app.state.tiles.crops() == len(LAID)


def test_a_set_taught_wrong_is_started_over_and_can_be_put_back(client, photo):
    """A 7z confirmed as 0p stays in the set: Start over keeps the set aside (listed, put back in a
    tap) and the reader names tiles by its classifier alone until the table is taught again."""
    assert 'id="start-over"' not in client.get("/teach").text          # nothing taught: nothing to start over
    lesson = _Lesson(_upload(client, photo).text)
    kinds = list(lesson.kinds)
    kinds[LAID.index("7z")] = "0p"
    taught = client.post("/teach/confirm", data={"token": lesson.token, "kind": kinds}, headers=HTMX)
    assert taught.status_code == 200 and 'id="start-over"' in taught.text      # on the page at once, not on reload
    assert 'id="start-over"' in client.get("/teach").text
    from service import shared_tiles
    engine = client.app.state.ledger.engine
    assert [s.crops for s in shared_tiles.listing(engine)] == [len(LAID)]      # offered to the other tables
    over = client.post("/teach/start-over", headers=HTMX)
    assert over.status_code == 200, over.text
    assert re.search(r'id="crops-count">0<', over.text) and "put back" in over.text.lower()
    assert client.app.state.reader.detector.tileset is None
    stamp = re.search(r'name="kept" value="([^"]+)"', over.text).group(1)
    assert 'id="start-over-row"' in over.text and 'id="start-over"' not in over.text   # no set left to start over
    again = client.post("/teach/start-over", headers=HTMX)
    assert again.status_code == 422 and "nothing to start over" in again.text
    assert "この卓にはまだ牌セットがありません" in again.text
    back = client.post("/teach/restore", data={"kept": stamp}, headers=HTMX)
    assert back.status_code == 200 and re.search(rf'id="crops-count">{len(LAID)}<', back.text)
    assert "until now is kept aside" not in back.text                  # none was in use after the start over
    assert "0p" in client.app.state.reader.detector.tileset.kinds()
    assert shared_tiles.listing(engine) == []                   # the set taught wrong is no longer offered
    folder = client.app.state.tiles.folder                      # the empty set of the start over left nothing
    assert sorted(p.name for p in folder.parent.iterdir() if p.name.startswith(folder.name)) == [folder.name]


def test_confirm_says_how_many_tiles_it_will_teach(client):
    """The demo camera's frame is no rows of tiles: most cuts are left out, and the button says so."""
    r = client.post("/teach/read", headers=HTMX)
    named = sum(1 for k in _Lesson(r.text).kinds if k)
    assert named < len(_Lesson(r.text).kinds)
    assert re.search(rf'id="teach-count">{named}<', r.text)


def test_a_table_alone_is_not_told_other_tables_can_take_its_set(client, photo):
    lesson = _Lesson(_upload(client, photo).text)
    done = client.post("/teach/confirm", data={"token": lesson.token, "kind": lesson.kinds}, headers=HTMX)
    assert done.status_code == 200 and "learnt 34" in done.text
    assert "Other tables of the parlour" not in done.text


def test_back_from_the_teach_page_goes_to_the_session_it_was_opened_from(client):
    """It went to the new-session page: the players had to find their session in the list."""
    assert 'href="/" id="home-link"' in client.get("/teach").text             # no session yet
    sid = client.post("/api/sessions", json={"rules": "dunhill", "players": ["Aki", "Ben", "Chie"]}).json()["id"]
    assert client.get(f"/s/{sid}").status_code == 200
    assert f'href="/s/{sid}" id="home-link"' in client.get("/teach").text


def _damaged_set(client, photo):
    """The table taught, then its index cut short (a copy or a disk that stopped half way): its folder."""
    lesson = _Lesson(_upload(client, photo).text)
    done = client.post("/teach/confirm", data={"token": lesson.token, "kind": lesson.kinds}, headers=HTMX)
    assert done.status_code == 200, done.text
    folder = client.app.state.tiles.folder
    index = folder / "index.json"
    index.write_text(index.read_text()[:500])
    return folder


def test_a_set_that_cannot_be_read_is_said_so_with_what_to_do(client, photo):
    """The page counted a set whose index is cut short as none ("0 / 37 kinds, 0 tiles"): the players
    never learnt the table had a set, nor why it learnt nothing. It says the set cannot be read, what
    is wrong, and offers Start over, which keeps it aside."""
    _damaged_set(client, photo)
    page = client.get("/teach").text
    said = re.search(r'id="damage">([^<]+)<', page)
    assert said and "index.json: not a tile set index" in said.group(1)
    assert "この卓の牌セットが読めません" in page and "Start over (below) keeps it aside" in page
    assert 'id="start-over"' in page and "Keep the set that cannot be read aside" in page
    assert "It can be put back" not in page


def test_a_set_that_cannot_be_read_started_over_is_listed_to_be_removed_never_put_back(client, photo):
    """Started over, the damaged set was moved aside but never listed (its index cannot say what it
    holds): its crops lay on the disk out of the page's reach. It is listed as damaged, with its crop
    files and where they lie, to be removed; putting it back is refused, naming what is wrong."""
    folder = _damaged_set(client, photo)
    over = client.post("/teach/start-over", headers=HTMX)
    assert over.status_code == 200, over.text
    assert "the set that could not be read is kept aside" in over.text
    assert re.search(r'<div id="tileset-damaged" hx-swap-oob="true"></div>', over.text)     # the line goes
    [kept] = client.app.state.tiles.kept_aside()
    assert kept.damaged and kept.crops == len(LAID) and kept.folder.is_dir() and kept.folder != folder
    assert f'name="kept" value="{kept.stamp}"' in over.text and f"stay in {kept.folder}" in over.text
    listed = re.search(r'<form class="sister damaged".*?</form>', over.text, re.S).group(0)
    assert "put-back" not in listed and 'class="btn remove"' in listed
    back = client.post("/teach/restore", data={"kept": kept.stamp}, headers=HTMX)
    assert back.status_code == 422 and "not a tile set index" in back.text
    assert len(list(kept.folder.rglob("*.png"))) == len(LAID)          # nothing lost by the refusal
    gone = client.post("/teach/discard", data={"kept": kept.stamp}, headers=HTMX)
    assert gone.status_code == 200 and not kept.folder.exists() and client.app.state.tiles.kept_aside() == []


def test_a_set_that_lost_its_index_learns_nothing_over_its_crops_and_is_started_over(client, photo):
    """index.json gone, the crops still there: the next Confirm made a new index over them (the
    warning gone, the taught crops out of the set and out of the page's reach), teaching again did
    the same, and Start over was refused as "no tile set yet"."""
    from service.reader import Cut
    lesson = _Lesson(_upload(client, photo).text)
    assert client.post("/teach/confirm", data={"token": lesson.token, "kind": lesson.kinds},
                       headers=HTMX).status_code == 200
    tiles = client.app.state.tiles
    (tiles.folder / "index.json").unlink()
    assert "cannot be read" in client.get("/teach").text
    snap = "0123456789abcdef0123.jpg"
    tiles.remember(snap, [Cut("1m", np.full((96, 72, 3), 90, np.uint8), "hand", "east", box=0)])
    assert tiles.learn(snap, [{"seat": "east", "concealed": "1m"}]) is None
    assert not (tiles.folder / "index.json").exists() and tiles.unreadable()
    again = _upload(client, photo)
    taught = client.post("/teach/confirm", data={"token": _Lesson(again.text).token, "kind": lesson.kinds},
                         headers=HTMX)
    assert taught.status_code == 422 and not (tiles.folder / "index.json").exists()
    r = client.post("/teach/start-over", headers=HTMX)
    assert r.status_code == 200, r.text
    [kept] = tiles.kept_aside()
    assert kept.damaged and kept.crops == len([k for row in LAYOUT for k in row])
