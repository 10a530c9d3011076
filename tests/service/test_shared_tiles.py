"""A parlour's tables share what they were taught (docs/service.md, "The table's tile set"): table A's
teach page Confirm keeps its set in the parlour's database; table B, with the same tiles, lists it
on its own teach page and takes it in a tap. B's earlier set is kept aside, not deleted. A set that
is not there, B's own, or an archive that is no tile set is refused with a message.
(Real apps, detector and sets, on one SQLite file or PostgreSQL.)"""

from __future__ import annotations

import html
import io
import re
import subprocess
import zipfile
from contextlib import ExitStack
from datetime import datetime, timezone

import cv2
import numpy as np
import pytest
from fastapi.testclient import TestClient

from service import shared_tiles
from service.app import create_app
from service.ledger import db
from service.settings import DEMO_FRAMES, Settings
from vision.teach import LAYOUT
from vision.tileset import ENROLLED, TileSet

from test_teach_page import HTMX, _Lesson, _upload
from table_fixtures import STAFF_PIN, huge_jpeg
from teach_fixtures import jpeg, rows_photo, tile_art

PINS = {"A": "1111", "B": "2222"}
LAID = [k for row in LAYOUT for k in row]


def _settings(name: str, db_url: str, tmp_path, **more) -> Settings:
    return Settings(_env_file=None, data_dir=tmp_path / name, db_url=db_url, table_name=name, pin=PINS[name],
                    camera=str(DEMO_FRAMES), max_upload_bytes=200_000, max_image_side=2000, watch=False, **more)


@pytest.fixture
def tables(db_url, tmp_path):
    """Tables A and B on the demo camera (each has a set: ``<data>/demo.tileset``), one database."""
    with ExitStack() as stack:
        yield {name: stack.enter_context(TestClient(create_app(_settings(name, db_url, tmp_path)),
                                                    headers={"X-Table-PIN": pin}))
               for name, pin in PINS.items()}


@pytest.fixture(scope="module")
def photo() -> bytes:
    return jpeg(rows_photo(tile_art()))


def _teach(client, photo: bytes) -> str:
    lesson = _Lesson(_upload(client, photo).text)
    assert lesson.kinds == LAID
    done = client.post("/teach/confirm", data={"token": lesson.token, "kind": lesson.kinds}, headers=HTMX)
    assert done.status_code == 200, done.text
    return done.text


def _folder(client):
    return client.app.state.tiles.folder


def test_a_set_taught_at_one_table_is_taken_by_another(tables, photo, tmp_path):
    a, b = tables["A"], tables["B"]
    assert 'id="sisters"' not in b.get("/teach").text                  # nothing taught anywhere yet
    assert "Other tables of the parlour" in _teach(a, photo)

    page = b.get("/teach").text
    assert re.findall(r'name="table" value="(\w+)"', page) == ["A"]     # A's set, and not B's own
    assert "34枚 32種" in page                                          # 31 faces, and 3 of the back
    assert 'id="sisters"' not in a.get("/teach").text                  # A does not list its own

    took = b.post("/teach/adopt", data={"table": "A"}, headers=HTMX)
    assert took.status_code == 200, took.text
    assert "took table A's set: 34 tile(s) of 32 kind(s)" in took.text
    assert "earlier set is kept aside" not in took.text                # B had none to keep aside
    mine, theirs = TileSet.load(_folder(b)), TileSet.load(_folder(a))
    assert mine.kinds() == theirs.kinds() == sorted(set(LAID))
    assert all(c.source == ENROLLED for crops in mine.crops.values() for c in crops)
    assert {k: len(v) for k, v in mine.crops.items()} == {k: len(v) for k, v in theirs.crops.items()}
    # the very images A enrolled, embedded by B's own classifier; B's reader names with them now
    for kind in ("1p", "7z", "back"):
        ours = [cv2.imread(str(_folder(b) / c.file)) for c in mine.crops[kind]]
        given = [cv2.imread(str(_folder(a) / c.file)) for c in theirs.crops[kind]]
        assert all(np.array_equal(x, y) for x, y in zip(ours, given))
    assert b.app.state.reader.detector.tileset.kinds() == mine.kinds()


def _counts_kept(folder) -> None:
    """A count waiting for its Confirm, and one confirmed kept for a correction, in the set's folder."""
    for counts, says in (("waiting", b"a count waiting for its Confirm"), ("learnt", b"a count confirmed")):
        (folder / counts).mkdir(exist_ok=True)
        (folder / counts / "marker.npz").write_bytes(says)


def _counts_moved(folder) -> bool:
    return ((folder / "waiting" / "marker.npz").read_bytes() == b"a count waiting for its Confirm"
            and (folder / "learnt" / "marker.npz").read_bytes() == b"a count confirmed")


def test_the_set_a_table_had_is_kept_aside_and_its_counts_move_to_the_new_one(tables, photo):
    """The counts waiting for their Confirm, and those confirmed kept for a correction, are learnt by
    the set in use: they move to it."""
    a, b = tables["A"], tables["B"]
    _teach(a, photo)
    _teach(b, photo)                                    # B was taught too: its own crops, and counts
    _counts_kept(_folder(b))
    before = sorted(p.relative_to(_folder(b)) for p in (_folder(b) / "crops").rglob("*.png"))

    assert b.post("/teach/adopt", data={"table": "A"}, headers=HTMX).status_code == 200
    kept = [p for p in _folder(b).parent.iterdir() if p.name.startswith("demo.tileset.replaced-")]
    assert len(kept) == 1
    assert sorted(p.relative_to(kept[0]) for p in (kept[0] / "crops").rglob("*.png")) == before
    assert TileSet.load(kept[0]).kinds() == sorted(set(LAID))
    assert _counts_moved(_folder(b))
    assert not (_folder(b).parent / "demo.tileset.new").exists()


@pytest.mark.parametrize("table, status, says", [
    ("", 422, "say which table"),
    ("Z", 404, "no tile set was taught at table Z"),
    ("B", 409, "is this table"),
])
def test_taking_a_set_that_cannot_be_taken_is_refused(tables, table, status, says):
    r = tables["B"].post("/teach/adopt", data={"table": table}, headers=HTMX)
    assert r.status_code == status and says in r.text, r.text
    assert not (_folder(tables["B"]) / "index.json").exists()          # nothing was made


def _store(db_url: str, name: str, archive: bytes) -> None:
    engine = db.make_engine(db_url)
    with engine.begin() as conn:
        conn.execute(db.tilesets.insert().values(table_name=name, taught_at=datetime.now(timezone.utc),
                                                 kinds=1, crops=1, archive=archive))
    engine.dispose()


def _zip(members: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for name, data in members.items():
            z.writestr(name, data)
    return buf.getvalue()


PNG = cv2.imencode(".png", np.full((40, 30, 3), 200, np.uint8))[1].tobytes()
HUGE = huge_jpeg(20000, 20000)      # 600 bytes OpenCV would decode into 2.3 GB


@pytest.mark.parametrize("archive, says", [
    (b"not a zip at all", "not a tile set archive"),
    (_zip({}), "no crops in it"),
    (_zip({"9x/00000.png": PNG}), "9x/00000.png is not in a folder named as a kind"),
    (_zip({"1m/00000.png": b"not a png"}), "1m/00000.png is not an image"),
    (_zip({"1m/00000.jpg": HUGE}), "1m/00000.jpg is 20000x20000, a crop is kept at most 192 px a side"),
    (_zip({"1m/00000.png": PNG}).replace(PNG[-12:], b"\0" * 12), "1m/00000.png is damaged"),   # its CRC fails
])
def test_a_stored_set_that_is_no_tile_set_is_refused(tables, db_url, archive, says):
    _store(db_url, "C", archive)
    r = tables["B"].post("/teach/adopt", data={"table": "C"}, headers=HTMX)
    assert r.status_code == 422 and says in r.text, r.text
    assert not (_folder(tables["B"]) / "index.json").exists()


def test_a_table_that_does_not_share_keeps_its_set_to_itself(db_url, tmp_path, photo):
    with TestClient(create_app(_settings("A", db_url, tmp_path, share_tiles=False)),
                    headers={"X-Table-PIN": PINS["A"]}) as a:
        assert "Other tables of the parlour" not in _teach(a, photo)
    engine = db.make_engine(db_url)
    assert shared_tiles.listing(engine) == []
    engine.dispose()


def test_teaching_again_replaces_the_tables_shared_set(tables, photo, db_url):
    a = tables["A"]
    _teach(a, photo)
    _teach(a, jpeg(rows_photo(tile_art(), seed=5)))     # taught twice: every enrolled crop, one row
    engine = db.make_engine(db_url)
    [row] = shared_tiles.listing(engine)
    assert (row.table_name, row.kinds, row.crops) == ("A", 32, 68)
    assert len(shared_tiles.crops_of(engine, "A")) == 68
    engine.dispose()


def _crops(folder) -> int:
    return sum(len(v) for v in TileSet.load(folder).crops.values())


def _kept_stamps(page: str) -> list[str]:
    return re.findall(r'name="kept" value="([\w-]+)"', page)


def test_a_set_kept_aside_is_put_back_in_a_tap_and_the_one_in_use_kept_in_its_turn(tables, photo):
    """B took A's set and wants its own back: the teach page lists the set kept aside; putting it back
    keeps A's aside in its turn, the counts waiting for their Confirm (and those kept for a correction)
    staying with the set in use."""
    a, b = tables["A"], tables["B"]
    _teach(a, photo)
    _teach(b, photo)
    _teach(b, jpeg(rows_photo(tile_art(), seed=5)))     # B's own set: two of every crop, 68
    assert _kept_stamps(b.get("/teach").text) == []
    took = b.post("/teach/adopt", data={"table": "A"}, headers=HTMX)
    assert took.status_code == 200 and "This table's earlier set is kept aside" in took.text
    assert _crops(_folder(b)) == 34                     # A's
    _counts_kept(_folder(b))

    page = b.get("/teach").text
    [stamp] = _kept_stamps(page)
    assert "68枚 32種" in page
    back = b.post("/teach/restore", data={"kept": stamp}, headers=HTMX)
    assert back.status_code == 200, back.text
    assert "put back the set kept aside" in back.text and "68 tile(s) of 32 kind(s)" in back.text
    assert "until now is kept aside" in back.text
    assert _crops(_folder(b)) == 68
    assert b.app.state.reader.detector.tileset is b.app.state.tiles._in_use
    assert _crops(b.app.state.tiles._in_use.folder) == 68
    assert _counts_moved(_folder(b))

    [(kept, crops)] = [(k.stamp, k.crops) for k in b.app.state.tiles.kept_aside()]
    assert crops == 34 and kept != stamp                # A's set, kept aside in its turn
    assert _kept_stamps(back.text) == [kept]            # the page's list is redrawn with the answer
    again = b.post("/teach/restore", data={"kept": kept}, headers=HTMX)     # within the same second too
    assert again.status_code == 200, again.text
    assert _crops(_folder(b)) == 34
    assert sorted(k.crops for k in b.app.state.tiles.kept_aside()) == [68]


@pytest.mark.parametrize("action, doing", [("restore", "put back"), ("discard", "remove")])
@pytest.mark.parametrize("kept, status, says", [
    ("", 422, "say which kept set to {doing} (kept)"),
    ("20990101T000000", 404, "no tile set was kept aside at 20990101T000000"),
    ("../../A", 404, "no tile set was kept aside"),
])
def test_putting_back_or_removing_a_set_that_was_not_kept_is_refused(tables, photo, action, doing, kept, status,
                                                                    says):
    b = tables["B"]
    _teach(b, photo)
    r = b.post(f"/teach/{action}", data={"kept": kept}, headers=HTMX)
    assert r.status_code == status and says.format(doing=doing) in r.text, r.text
    assert _crops(_folder(b)) == 34                     # the set in use is untouched


def _one_set_kept_aside(tables, photo):
    """Tables A and B taught the same photo, B then taking A's set: (B, the stamp of the set B kept
    aside, its folder)."""
    a, b = tables["A"], tables["B"]
    _teach(a, photo)
    _teach(b, photo)
    assert b.post("/teach/adopt", data={"table": "A"}, headers=HTMX).status_code == 200
    [stamp] = _kept_stamps(b.get("/teach").text)
    return b, stamp, _folder(b).with_name(f"demo.tileset.replaced-{stamp}")


def test_a_set_kept_aside_is_removed_in_a_tap_and_the_set_in_use_stays(tables, photo):
    """Once the set in use reads well, the staff remove the one kept aside from the teach page
    (before: by hand on the table's machine, or never)."""
    b, stamp, aside = _one_set_kept_aside(tables, photo)
    assert aside.is_dir()
    gone = b.post("/teach/discard", data={"kept": stamp}, headers=HTMX)
    assert gone.status_code == 200, gone.text
    assert "removed the set kept aside at" in gone.text and _kept_stamps(gone.text) == []
    assert not aside.exists() and b.app.state.tiles.kept_aside() == []
    assert _crops(_folder(b)) == 34 and b.app.state.reader.detector.tileset is b.app.state.tiles._in_use
    again = b.post("/teach/discard", data={"kept": stamp}, headers=HTMX)
    assert again.status_code == 404 and f"no tile set was kept aside at {stamp}" in again.text


def test_a_kept_set_the_disk_will_not_delete_is_refused_and_stays_whole(tables, photo):
    """A kept set's folder the disk refuses to let go of (made real with ``chattr +i``): the press
    is a 503 saying so, and the set stays listed and whole, never reported removed nor half deleted."""
    b, stamp, aside = _one_set_kept_aside(tables, photo)
    held = sorted(p.relative_to(aside) for p in aside.rglob("*"))
    frozen = subprocess.run(["chattr", "+i", str(aside)], capture_output=True, text=True)
    if frozen.returncode != 0:
        pytest.skip(f"cannot make a folder refuse changes here: {frozen.stderr.strip()}")
    try:
        r = b.post("/teach/discard", data={"kept": stamp}, headers=HTMX)
    finally:
        subprocess.run(["chattr", "-i", str(aside)], check=True)
    assert r.status_code == 503 and "cannot write to its disk" in r.text, r.text
    assert "removed" not in r.text
    assert [k.stamp for k in b.app.state.tiles.kept_aside()] == [stamp]
    assert sorted(p.relative_to(aside) for p in aside.rglob("*")) == held
    assert b.post("/teach/discard", data={"kept": stamp}, headers=HTMX).status_code == 200   # once it may
    assert not aside.exists()


def test_the_counter_stops_offering_a_tables_set_and_the_table_keeps_it(db_url, tmp_path, photo):
    """A set taught wrong, or of tiles no other table has: the counter withdraws it from the other
    tables' teach pages; the table that was taught reads with it still, and offers it again when taught."""
    with ExitStack() as stack:
        a, b = (stack.enter_context(TestClient(create_app(_settings(n, db_url, tmp_path, staff_pin=STAFF_PIN)),
                                               headers={"X-Table-PIN": PINS[n]})) for n in ("A", "B"))
        _teach(a, photo)
        assert re.findall(r'name="table" value="(\w+)"', b.get("/teach").text) == ["A"]
        assert b.post("/counter/login", data={"pin": STAFF_PIN}, follow_redirects=False).status_code == 303
        page = b.get("/counter/table", params={"name": "A"}).text
        assert 'id="withdraw-tiles"' in page and "34枚 32種" in page

        r = b.post("/counter/table/tiles/withdraw", data={"name": "A"}, follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"] == "/counter/table?name=A"
        assert 'id="sisters"' not in b.get("/teach").text
        assert "none offered" in b.get("/counter/table", params={"name": "A"}).text
        assert _crops(_folder(a)) == 34                 # A still reads with its own set
        again = b.post("/counter/table/tiles/withdraw", data={"name": "A"})
        assert again.status_code == 404 and "table 'A' offers no taught tile set" in html.unescape(again.text)
        _teach(a, photo)                                # taught again: offered again
        assert re.findall(r'name="table" value="(\w+)"', b.get("/teach").text) == ["A"]


def test_a_set_that_cannot_be_read_is_kept_aside_and_listed_when_another_takes_its_place(tables, photo):
    """B's index cut short, B takes A's set: B's is kept aside all the same, said so, and listed as
    damaged to be removed (it was neither said nor listed: its crops lay on the disk out of reach)."""
    a, b = tables["A"], tables["B"]
    _teach(a, photo)
    _teach(b, photo)
    index = _folder(b) / "index.json"
    index.write_text(index.read_text()[:500])
    took = b.post("/teach/adopt", data={"table": "A"}, headers=HTMX)
    assert took.status_code == 200 and "This table's earlier set is kept aside" in took.text
    [kept] = b.app.state.tiles.kept_aside()
    assert "not a tile set index" in kept.damaged and kept.crops == len(LAID)
    assert _kept_stamps(took.text) == [kept.stamp] and _crops(_folder(b)) == 34


def test_a_set_that_lost_its_index_keeps_its_crops_when_another_takes_its_place(tables, photo):
    """B's index.json gone, its crops still there: taking A's set removed B's folder, crops and all,
    as if B had started over and held nothing."""
    a, b = tables["A"], tables["B"]
    _teach(a, photo)
    _teach(b, photo)
    (_folder(b) / "index.json").unlink()
    assert "cannot be read" in b.get("/teach").text
    took = b.post("/teach/adopt", data={"table": "A"}, headers=HTMX)
    assert took.status_code == 200 and "This table's earlier set is kept aside" in took.text
    [kept] = b.app.state.tiles.kept_aside()
    assert kept.damaged and kept.crops == len(LAID)
