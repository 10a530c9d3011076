"""Confirming a count the vision reader read teaches the table's tile set its cuts (service/table_tiles.py).

The demo camera shows the demo's first table (a folder camera shows its first
image until its next turn, here 100 s away), read by the real vision reader;
the set lives in the data folder (demo.tileset) and is read back from disk. A
count's cuts wait for its Confirm in memory and in the set's waiting/ folder,
which outlives a restart.
"""

from __future__ import annotations

import io
import json
import logging
import re
from collections import Counter
from dataclasses import replace

import cv2
import numpy as np

import pytest
from fastapi.testclient import TestClient

from service.app import create_app
from service.learning import face_up_tiles
from service.reader import Cut
from service.settings import DEMO_FRAMES, DEMO_HANDS
from service.table_tiles import KEEP, LEARNT as LEARNT_CUTS, WAITING, TableTiles
from vision.tileset import FIXED, INDEX, KEPT_OUT, LEARNT, TileSet, stored

from table_fixtures import PIN, PLAYERS

SHOWN = json.loads(DEMO_HANDS.read_text())["frame-01.jpg"]       # the hand the camera shows first


@pytest.fixture
def still(settings):
    return settings.model_copy(update={"camera_fps": 0.01})


def _client(settings):
    return TestClient(create_app(settings), headers={"X-Table-PIN": PIN})


def _count(client) -> tuple[str, str]:
    """A session and the snapshot of a Count on the tablet page."""
    sid = client.post("/api/sessions", json={"rules": "dunhill", "players": PLAYERS}).json()["id"]
    page = client.post(f"/s/{sid}/count", data={"hand": "1"})
    assert page.status_code == 200, page.text
    return sid, re.search(r'name="snapshot" value="([0-9a-f]{20}\.jpg)"', page.text).group(1)


def _confirm(client, sid: str, snapshot: str, *, fixed: str = "", **changes) -> None:
    """The count confirmed as ``SHOWN`` with ``changes``; ``fixed``: the boxes tapped and fixed."""
    record = {**SHOWN, **changes}
    form = {"snapshot": snapshot, "hand": "1", "seat": record["seat"], "win": "tsumo",
            "concealed": record["concealed"], "win_tile": record["win_tile"],
            "dora_indicators": record["dora_indicators"], "melds": "[]", "fixed": fixed}
    r = client.post(f"/s/{sid}/confirm", data=form)
    assert r.status_code == 204, r.text
    assert client.get(f"/api/sessions/{sid}").json()["hands"] == 1


def _crops(folder) -> Counter:
    index = json.loads((folder / INDEX).read_text())
    sources = {c["source"] for crops in index["kinds"].values() for c in crops}
    assert sources <= {LEARNT, KEPT_OUT, FIXED}           # fixed: a cut the set named otherwise
    for crops in index["kinds"].values():
        assert all((folder / c["file"]).is_file() for c in crops)
    return Counter({kind: len(crops) for kind, crops in index["kinds"].items()})


def test_confirm_after_count_teaches_the_set_the_confirmed_tiles(still):
    folder = still.data_dir / "demo.tileset"
    with _client(still) as client:
        assert not folder.exists()
        sid, snapshot = _count(client)
        _confirm(client, sid, snapshot)
        # every face-up tile of the hand and the dora indicator, named as confirmed; no discard
        shown, _ = face_up_tiles([SHOWN])
        assert _crops(folder) == Counter(shown)
        log = json.loads((folder / INDEX).read_text())["log"]
        assert log[-1]["event"] == "learnt" and log[-1]["added"] + log[-1]["kept_out"] == len(shown)
        # the running reader names tiles with the set as saved
        in_use = client.app.state.reader.detector.tileset
        assert in_use is not None and in_use.kinds() == TileSet.load(folder).kinds()
        assert list((folder / WAITING).iterdir()) == []         # the count's cuts are learnt from once


def test_a_tile_the_players_fixed_is_learnt_as_fixed(still):
    folder = still.data_dir / "demo.tileset"
    assert SHOWN["dora_indicators"] == "5s"
    with _client(still) as client:
        sid, snapshot = _count(client)
        _confirm(client, sid, snapshot, dora_indicators="6s")     # one fix: the indicator read 5s was a 6s
        expected = Counter(face_up_tiles([{**SHOWN, "dora_indicators": "6s"}])[0])
        assert _crops(folder) == expected and expected["6s"] == 1
        # the cut the set named 5s is held as a fix: learnt whatever its name's hash, and its own prototype
        index = json.loads((folder / INDEX).read_text())
        assert [c["source"] for c in index["kinds"]["6s"]] == [FIXED]


def _origins(folder) -> Counter:
    index = json.loads((folder / INDEX).read_text())
    return Counter((kind, c.get("origin", "")) for kind, crops in index["kinds"].items() for c in crops)


def test_a_tile_fixed_on_the_tablet_after_the_confirm_is_learnt_as_fixed_in_place_of_its_first_name(still):
    """The players confirm the indicator as 6s, then see it was the 5s the camera read and correct
    the hand: the set holds it as 5s, and nothing of that count as 6s. Before, the correction taught
    nothing (a count was learnt from once, and the correction page named no snapshot) and the 6s
    stayed in the set, read as 6s at the next count."""
    folder = still.data_dir / "demo.tileset"
    with _client(still) as client:
        sid, snapshot = _count(client)
        _confirm(client, sid, snapshot, dora_indicators="6s")
        assert _origins(folder)[("6s", snapshot)] == 1
        page = client.get(f"/s/{sid}?correct=1")                 # the correction opens on the count
        assert f'name="snapshot" value="{snapshot}"' in page.text
        form = {"snapshot": snapshot, "correct": "1", "seat": SHOWN["seat"], "win": "tsumo",
                "concealed": SHOWN["concealed"], "win_tile": SHOWN["win_tile"], "dora_indicators": "5s",
                "melds": "[]"}
        r = client.post(f"/s/{sid}/confirm", data=form)
        assert r.status_code == 204, r.text
        assert _crops(folder) == Counter(face_up_tiles([SHOWN])[0])     # as if confirmed right at once
        assert ("6s", snapshot) not in _origins(folder) and _origins(folder)[("5s", snapshot)] == 1
        assert [e["event"] for e in json.loads((folder / INDEX).read_text())["log"]][-2:] == ["forgot", "learnt"]
        # corrected again through the API, back to 6s: the set follows each correction
        r = client.post(f"/api/sessions/{sid}/hands/1/correct",
                        json={"kind": "win", "records": [{**SHOWN, "dora_indicators": "6s"}], "snapshot": snapshot})
        assert r.status_code == 201, r.text
        assert ("5s", snapshot) not in _origins(folder) and _origins(folder)[("6s", snapshot)] == 1


def test_a_correction_of_a_count_learnt_too_long_ago_to_learn_again_takes_its_lesson_back(still):
    """Its cuts are kept for the last KEEP counts only: an older count corrected is learnt from no
    more, but what its Confirm taught, which the players have now said was wrong, goes."""
    folder = still.data_dir / "demo.tileset"
    with _client(still) as client:
        sid, snapshot = _count(client)
        _confirm(client, sid, snapshot, dora_indicators="6s")
        assert _origins(folder)[("6s", snapshot)] == 1
        (folder / LEARNT_CUTS / snapshot.replace(".jpg", ".npz")).unlink()      # as KEEP counts later
        r = client.post(f"/api/sessions/{sid}/hands/1/correct",
                        json={"kind": "win", "records": [SHOWN], "snapshot": snapshot})
        assert r.status_code == 201, r.text
        assert not any(origin == snapshot for _, origin in _origins(folder))
        assert client.app.state.reader.detector.tileset.crops.get("6s", []) == []
        assert json.loads((folder / INDEX).read_text())["log"][-1]["event"] == "forgot"


def test_an_undone_hand_takes_back_what_its_count_taught(still):
    """A wrong fix confirmed, then the hand undone (on the tablet, or over the API): the set kept the
    wrong 6s, read again at the next count of that tile."""
    folder = still.data_dir / "demo.tileset"
    with _client(still) as client:
        sid, snapshot = _count(client)
        _confirm(client, sid, snapshot, dora_indicators="6s")
        assert _origins(folder)[("6s", snapshot)] == 1
        assert client.post(f"/s/{sid}/undo", data={"hand": "1"}).status_code in (200, 204, 303)
        assert not any(origin == snapshot for _, origin in _origins(folder))
        assert client.app.state.reader.detector.tileset.crops.get("6s", []) == []
        assert json.loads((folder / INDEX).read_text())["log"][-1]["event"] == "forgot"
        sid, snapshot = _count(client)
        _confirm(client, sid, snapshot, dora_indicators="6s")
        r = client.post(f"/api/sessions/{sid}/undo", json={"hand": 1})
        assert r.status_code == 201, r.text
        assert not any(origin == snapshot for _, origin in _origins(folder))


def test_an_undone_hand_keeps_what_a_standing_hand_of_the_same_picture_taught(still):
    """The demo's identical frames share a snapshot's name: undoing the second hand on it took back
    what the first, still logged, had taught."""
    folder = still.data_dir / "demo.tileset"
    with _client(still) as client:
        sid, snapshot = _count(client)
        _confirm(client, sid, snapshot, dora_indicators="6s")
        again = {**{k: v for k, v in SHOWN.items() if k != "discards"}, "seat": "east", "dora_indicators": "6s"}
        r = client.post(f"/api/sessions/{sid}/wins", json={"records": [again], "snapshot": snapshot, "hand": 2})
        assert r.status_code == 201, r.text
        r = client.post(f"/api/sessions/{sid}/undo", json={"hand": 2})
        assert r.status_code == 201, r.text
        assert _origins(folder)[("6s", snapshot)] == 1                  # hand 1 stands on that picture


def _misread(client, snapshot: str, true: str, read: str) -> Cut:
    """The count's first hand cut of ``true`` made one the reader read as ``read`` (kept so until
    Confirm, as a misread one would be); that cut."""
    cuts = list(client.app.state.tiles.counts.get(snapshot))
    i = next(j for j, c in enumerate(cuts) if c.zone == "hand" and c.tile == true)
    cuts[i] = replace(cuts[i], tile=read)
    client.app.state.tiles.counts.put(snapshot, tuple(cuts))
    return cuts[i]


def _kinds_of(folder, image) -> list[tuple[str, str]]:
    """The kind and source (``learnt``, ``fixed``, ...) of each crop in the set that is ``image``."""
    index, mine = json.loads((folder / INDEX).read_text()), stored(image)
    return [(kind, c["source"]) for kind, crops in index["kinds"].items() for c in crops
            if np.array_equal(cv2.imread(str(folder / c["file"])), mine)]


def test_a_tile_tapped_and_fixed_to_a_kind_the_hand_also_holds_is_learnt_as_fixed_and_no_other(still):
    """A 4s read as 8s in 222234444888s66z, fixed on the snapshot: matched in reading order, the
    misread 4s was learnt as an 8s and the last true 8s as the 4s, and the next count read every 8s
    as 4s. The tapped box names the cut; untapped (fixed by typing), no 8s cut is sure, and none
    teaches."""
    folder = still.data_dir / "demo.tileset"
    assert SHOWN["concealed"] == "222234444888s66z"
    with _client(still) as client:
        sid, snapshot = _count(client)
        cut = _misread(client, snapshot, "4s", "8s")
        _confirm(client, sid, snapshot, fixed=str(cut.box))
        assert _crops(folder) == Counter(face_up_tiles([SHOWN])[0])
        assert [kind for kind, _ in _kinds_of(folder, cut.image)] == ["4s"]
        assert client.post(f"/api/sessions/{sid}/undo", json={"hand": 1}).status_code == 201
        assert not folder.joinpath(INDEX).exists() or not _crops(folder)
        sid, snapshot = _count(client)
        cut = _misread(client, snapshot, "4s", "8s")
        _confirm(client, sid, snapshot)
        taught = _crops(folder)
        assert taught["8s"] == 0 and taught["4s"] == 3 and _kinds_of(folder, cut.image) == []


def _count_again(client, sid: str) -> str:
    """The correction page's hand 1 read from a new picture of the table (an upload); its snapshot."""
    frame = cv2.imread(str(DEMO_FRAMES / "frame-01.jpg"))
    frame[0, 0] = 255 - frame[0, 0]                 # another picture of the same table
    ok, jpg = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 80])
    page = client.post(f"/s/{sid}/upload", data={"correct": "1", "hand": "1"},
                       files={"image": ("t.jpg", jpg.tobytes(), "image/jpeg")})
    assert page.status_code == 200, page.text
    return re.search(r'name="snapshot" value="([0-9a-f]{20}\.jpg)"', page.text).group(1)


def test_a_correction_read_from_another_picture_takes_back_what_the_first_taught(still):
    """The indicator wrongly fixed to 6s, the hand corrected from a new picture: the first picture's
    6s stayed in the set (only overruled), came back when the hand was undone, and the next count
    read the 5s indicator as 6s. A correction to a draw takes the count's lesson back too."""
    folder = still.data_dir / "demo.tileset"
    with _client(still) as client:
        sid, first = _count(client)
        _confirm(client, sid, first, dora_indicators="6s")
        assert _origins(folder)[("6s", first)] == 1
        again = _count_again(client, sid)
        assert again != first
        correction = {"snapshot": again, "correct": "1", "seat": SHOWN["seat"], "win": "tsumo",
                      "concealed": SHOWN["concealed"], "win_tile": SHOWN["win_tile"],
                      "dora_indicators": "5s", "melds": "[]"}
        r = client.post(f"/s/{sid}/confirm", data=correction)
        assert r.status_code == 204, r.text
        assert not any(origin == first for _, origin in _origins(folder))
        assert _origins(folder)[("5s", again)] == 1
        assert client.post(f"/api/sessions/{sid}/undo", json={"hand": 1}).status_code == 201
        assert _crops(folder)["6s"] == 0
        sid, snapshot = _count(client)
        _confirm(client, sid, snapshot, dora_indicators="6s")
        r = client.post(f"/api/sessions/{sid}/hands/1/correct", json={"kind": "draw", "tenpai": []})
        assert r.status_code == 201, r.text
        assert not any(origin == snapshot for _, origin in _origins(folder))


def test_a_set_whose_embeddings_were_damaged_is_rebuilt_at_start_and_learns_on(still, caplog):
    """A power cut in a save, a disk error: the set's crops are whole, its embeddings.npz is not.
    Before, the service left the set out (the reader named by its classifier alone) until someone
    ran python -m vision tileset rebuild."""
    folder = still.data_dir / "demo.tileset"
    with _client(still) as client:
        sid, snapshot = _count(client)
        _confirm(client, sid, snapshot)
        kinds = TileSet.load(folder).kinds()
    (folder / "embeddings.npz").write_bytes(b"PK\x03\x04 cut short")
    with caplog.at_level(logging.WARNING), _client(still) as client:
        in_use = client.app.state.reader.detector.tileset
        assert in_use is not None and in_use.kinds() == kinds
        assert "rebuilt from its crops" in caplog.text
        sid, again = _count(client)              # the camera's same frame: the same count, learnt again
        _confirm(client, sid, again)
    assert again == snapshot and json.loads((folder / INDEX).read_text())["log"][-1]["event"] == "learnt"
    assert _crops(folder) == Counter(face_up_tiles([SHOWN])[0])       # in place of the first, not beside it


def test_a_count_confirmed_through_the_api_teaches_the_set_too(still):
    folder = still.data_dir / "demo.tileset"
    with _client(still) as client:
        sid = client.post("/api/sessions", json={"rules": "dunhill", "players": PLAYERS}).json()["id"]
        read = client.post(f"/api/camera/read?session={sid}").json()
        r = client.post(f"/api/sessions/{sid}/wins", json={"records": [SHOWN], "snapshot": read["snapshot"],
                                                            "hand": 1})
        assert r.status_code == 201, r.text
        assert sum(_crops(folder).values()) == len(face_up_tiles([SHOWN])[0])


def test_with_learning_off_a_confirm_adds_nothing(still):
    settings = still.model_copy(update={"learn_tiles": False})
    with _client(settings) as client:
        sid, snapshot = _count(client)
        assert not (settings.data_dir / "demo.tileset").exists()      # the count's cuts are not kept, on disk
        assert client.app.state.tiles.counts.get(snapshot) is None    # or in memory
        _confirm(client, sid, snapshot)
        assert not (settings.data_dir / "demo.tileset").exists()
        assert client.app.state.reader.detector.tileset is None


def test_a_set_that_cannot_be_read_never_fails_the_confirm_and_is_said_in_one_line(still, caplog):
    """A set whose index cannot be read learns nothing, and the Confirm stands. It is said in one
    warning naming the set and what is wrong: each Confirm logged a whole traceback, which said
    nothing the teach page does not (the set cannot be read: Start over keeps it aside)."""
    folder = still.data_dir / "demo.tileset"
    with _client(still) as client:
        sid, snapshot = _count(client)
        folder.mkdir(parents=True, exist_ok=True)          # (the count's cuts wait in it)
        (folder / INDEX).write_text("{not json")          # broken after the service started
        with caplog.at_level(logging.WARNING, logger="service.table_tiles"):
            _confirm(client, sid, snapshot)
        [said] = [r for r in caplog.records if r.name == "service.table_tiles"]
        assert said.levelno == logging.WARNING and said.exc_info is None
        assert str(folder) in said.getMessage() and "not a tile set index" in said.getMessage()
        assert "learns nothing from the count" in said.getMessage()
        assert (folder / INDEX).read_text() == "{not json"


def test_an_undone_hand_whose_set_cannot_be_read_is_said_in_one_line(still, caplog):
    """The undo stands, and what its count taught stays in a set that cannot be read: one warning,
    no traceback, as at a Confirm."""
    folder = still.data_dir / "demo.tileset"
    with _client(still) as client:
        sid, snapshot = _count(client)
        _confirm(client, sid, snapshot)
        (folder / INDEX).write_text((folder / INDEX).read_text()[:500])
        with caplog.at_level(logging.WARNING, logger="service.table_tiles"):
            assert client.post(f"/api/sessions/{sid}/undo", json={"hand": 1}).status_code == 201
        [said] = [r for r in caplog.records if r.name == "service.table_tiles"]
        assert said.levelno == logging.WARNING and said.exc_info is None
        assert "takes nothing back for the count" in said.getMessage() and str(folder) in said.getMessage()


def test_a_count_read_before_a_restart_teaches_the_set_after_it(still):
    folder = still.data_dir / "demo.tileset"
    with _client(still) as client:
        sid, snapshot = _count(client)
    assert [p.name for p in (folder / WAITING).iterdir()] == [snapshot.replace(".jpg", ".npz")]
    with _client(still) as client:                      # a new service: nothing in its memory
        assert client.app.state.tiles.counts.get(snapshot) is None
        _confirm(client, sid, snapshot)
        # as without the restart: every face-up tile of the hand, named as confirmed
        assert _crops(folder) == Counter(face_up_tiles([SHOWN])[0])
        assert json.loads((folder / INDEX).read_text())["log"][-1]["event"] == "learnt"
        assert client.app.state.reader.detector.tileset is not None
    assert list((folder / WAITING).iterdir()) == []


def test_the_set_learns_on_a_thread_of_its_own_whichever_thread_confirms(still):
    """Confirms come on any of the server's worker threads; the set learns on its own one (a night's
    learning spread over them all left memory in each one's allocator: bench/bench_night.py)."""
    import threading

    folder = still.data_dir / "demo.tileset"
    with _client(still) as client:
        tiles = client.app.state.tiles
        cuts = tiles.counts.get(_count(client)[1])             # one count's cuts, as three counts
        snapshots = [_name(i) for i in range(3)]
        for name in snapshots:
            tiles.remember(name, cuts)
        learnt_on, learn = [], tiles._learn

        def watched(*args):
            learnt_on.append(threading.get_ident())
            return learn(*args)

        tiles._learn = watched
        callers = [threading.Thread(target=tiles.learn, args=(s, [SHOWN])) for s in snapshots]
        for t in callers:
            t.start()
        for t in callers:
            t.join()
        assert len(learnt_on) == 3 and len(set(learnt_on)) == 1
        assert learnt_on[0] not in {t.ident for t in callers} | {threading.get_ident()}
        # each count taught (the set's log: learnt, or refused where it would name kept-out cuts worse)
        log = json.loads((folder / INDEX).read_text())["log"]
        assert [e["event"] in ("learnt", "refused") for e in log] == [True] * 3 and log[0]["event"] == "learnt"


def _cuts(n: int = 3) -> tuple[Cut, ...]:
    rng = np.random.default_rng(n)
    return tuple(Cut(tile, rng.integers(0, 256, (64, 48, 3), dtype=np.uint8), "hand", seat)
                 for tile, seat in [("1m", "east"), ("5p", "east"), ("7z", None)][:n])


def _name(i: int) -> str:
    return f"{i:020x}.jpg"


def test_the_last_keep_counts_wait_on_disk_the_oldest_removed(still):
    folder = still.data_dir / "demo.tileset"
    with _client(still) as client:
        tiles = client.app.state.tiles
        for i in range(KEEP + 3):
            tiles.remember(_name(i), _cuts())
        files = sorted(p.name for p in (folder / WAITING).iterdir())
        assert files == [_name(i).replace(".jpg", ".npz") for i in range(3, KEEP + 3)]
        # a name no snapshot has names no file: its cuts wait in memory only
        tiles.remember("../../escape.jpg", _cuts())
        assert tiles.counts.get("../../escape.jpg") is not None
        assert sorted(p.name for p in (folder / WAITING).iterdir()) == files
        assert not (still.data_dir / "escape.npz").exists()      # where waiting/../../escape.npz would be
        # after a restart the cuts read back are the cuts remembered
        waited = TableTiles(folder, tiles.reader).waiting.pop(_name(KEEP + 2))
        assert [(c.tile, c.zone, c.seat) for c in waited] == [(c.tile, c.zone, c.seat) for c in _cuts()]
        assert all(np.array_equal(a.image, b.image) for a, b in zip(waited, _cuts()))


def test_a_waiting_file_that_cannot_be_read_is_removed_and_teaches_nothing(still, caplog):
    folder = still.data_dir / "demo.tileset"
    with _client(still) as client:
        tiles = client.app.state.tiles
        tiles.remember(_name(0), _cuts())
        whole = (folder / WAITING / _name(0).replace(".jpg", ".npz")).read_bytes()
        spoilt = {"garbage": b"not a zip",
                  "cut short": whole[:len(whole) // 2],
                  "no tiles": _npz(cut0=np.zeros((4, 4, 3), np.uint8)),
                  "tiles not text": _npz(tiles=np.array([1]), zones=np.array(["hand"]),
                                         cut0=np.zeros((4, 4, 3), np.uint8)),
                  "pickled": _npz(tiles=np.array([{"1m": 1}], dtype=object), zones=np.array(["hand"])),
                  "seats not its tiles'": _npz(tiles=np.array(["1m"]), zones=np.array(["hand"]),
                                               seats=np.array(["east", "west"]), cut0=np.zeros((4, 4, 3), np.uint8))}
        restarted = TableTiles(folder, tiles.reader)            # nothing in its memory
        for i, (why, data) in enumerate(spoilt.items(), start=1):
            path = folder / WAITING / _name(i).replace(".jpg", ".npz")
            path.write_bytes(data)
            caplog.clear()
            with caplog.at_level(logging.WARNING, logger="service.waiting_cuts"):
                assert restarted.learn(_name(i), [SHOWN]) is None, why
            assert not path.exists(), why
            assert "cannot be read" in caplog.text, why
        assert not (folder / INDEX).exists()


def _npz(**arrays) -> bytes:
    buf = io.BytesIO()
    np.savez(buf, **arrays)
    return buf.getvalue()


def test_a_count_waiting_from_before_seats_were_kept_still_teaches(still):
    # a file written by the service before a cut's seat was kept: every seat reads as not known
    folder = still.data_dir / "demo.tileset"
    with _client(still) as client:
        tiles = client.app.state.tiles
        path = folder / WAITING / _name(0).replace(".jpg", ".npz")
        path.parent.mkdir(parents=True)
        path.write_bytes(_npz(tiles=np.array(["1m", "5p"]), zones=np.array(["hand", "hand"]),
                              cut0=np.zeros((64, 48, 3), np.uint8), cut1=np.full((64, 48, 3), 200, np.uint8)))
        update = tiles.learn(_name(0), [{"seat": "east", "concealed": "1m5p"}])
        assert update is not None and update.accepted
        assert _crops(folder) == Counter({"1m": 1, "5p": 1})


def test_a_count_waiting_on_disk_keeps_which_box_each_cut_was(still):
    """The boxes the players tap are the reading's: a count confirmed after a restart still knows
    which cut each was (-1 on disk: not known)."""
    folder = still.data_dir / "demo.tileset"
    with _client(still) as client:
        tiles = client.app.state.tiles
        cuts = tuple(replace(c, box=b) for c, b in zip(_cuts(), (4, None, 0)))
        tiles.waiting.put(_name(0), cuts)
        assert [c.box for c in tiles.waiting.pop(_name(0))] == [4, None, 0]
        fives = (replace(cuts[1], box=4), replace(cuts[1], box=None, image=cuts[0].image))
        tiles.waiting.put(_name(1), fives)
        update = tiles.learn(_name(1), [{"seat": "east", "concealed": "0p5p"}], fixed={4})
        assert update is not None and _crops(folder) == Counter({"0p": 1, "5p": 1})   # the tapped five was red
        assert _kinds_of(folder, fives[0].image) == [("0p", FIXED)]


def test_a_count_teaches_nothing_from_another_seats_row(still):
    folder = still.data_dir / "demo.tileset"
    rng = np.random.default_rng(6)
    cut = lambda: rng.integers(0, 256, (64, 48, 3), dtype=np.uint8)     # noqa: E731
    read = [Cut("1m", cut(), "hand", "east"), Cut("5z", cut(), "hand", "east"), Cut("5z", cut(), "hand", "south")]
    with _client(still) as client:
        tiles = client.app.state.tiles
        tiles.remember(_name(0), read)
        tiles.learn(_name(0), [{"seat": "east", "concealed": "1m55z"}])
        # the confirmed hand holds two 白: only the east seat's one was the winner's
        assert _crops(folder) == Counter({"1m": 1, "5z": 1})


def test_a_dead_wall_tile_read_as_a_face_the_players_took_off_the_indicators_is_learnt_as_a_back(still):
    folder = still.data_dir / "demo.tileset"
    rng = np.random.default_rng(5)
    cut = lambda: rng.integers(0, 256, (64, 48, 3), dtype=np.uint8)     # noqa: E731
    read = [Cut("1m", cut(), "hand"), Cut("5p", cut(), "hand"), Cut("3s", cut(), "dead_wall"),
            Cut("5z", cut(), "dead_wall"), Cut("6z", cut(), "discards")]
    with _client(still) as client:
        tiles = client.app.state.tiles
        tiles.remember(_name(0), read)
        update = tiles.learn(_name(0), [{"concealed": "1m5p", "dora_indicators": "3s"}])
        assert update is not None and update.accepted
        # the indicator as confirmed; the 白 beside it was a back; the discard is never learnt
        assert _crops(folder) == Counter({"1m": 1, "5p": 1, "3s": 1, "back": 1})


def test_the_service_and_the_command_line_take_turns_with_the_set(still):
    """``python -m vision tileset enroll`` on a running table's set: each read the set, added its own
    and saved it whole, and the one that saved last lost the other's crops. The service takes the
    command line's lock (``vision.tileset.writing``) too, and waits for it."""
    import threading

    from vision.tileset import open_or_create, writing

    folder = still.data_dir / "demo.tileset"
    rng = np.random.default_rng(7)
    face = lambda: rng.integers(0, 256, (64, 48, 3), dtype=np.uint8)        # noqa: E731
    with _client(still) as client:
        tiles = client.app.state.tiles
        tiles.enroll([("1m", face())])                                       # the set on disk
        with writing(folder):                                                # the command line's run
            served = threading.Thread(target=tiles.enroll, args=([("9m", face())],))
            served.start()
            served.join(0.5)
            assert served.is_alive()                                         # the service waits its turn
            cli = open_or_create(folder, tiles.detector.classifier)
            cli.enroll("5z", [face()], tiles.detector.classifier)
            cli.save()
        served.join(30)
        assert not served.is_alive()
        kinds = json.loads((folder / INDEX).read_text())["kinds"]
        assert all(kinds.get(k) for k in ("1m", "9m", "5z")), {k: len(v) for k, v in kinds.items()}


def test_a_win_read_at_another_deal_teaches_its_tiles_when_drafted_at_this_one(still):
    """A win read at the next deal's seats (turn 1: read before the last hand was confirmed, that
    hand then taken back; or a tablet left on the last session), drafted at this deal's seats and
    confirmed: its cuts kept the seats they were read at (or those of the last tablet to draft it),
    so the winner's were taken for another seat's and the set learnt 2 of its 16 tiles."""
    from service.reader import ReadContext
    from test_snapshot_fix import EditorForm

    folder = still.data_dir / "demo.tileset"
    with _client(still) as client:
        sid = client.post("/api/sessions", json={"rules": "dunhill", "players": PLAYERS}).json()["id"]
        image = (DEMO_FRAMES / "frame-01.jpg").read_bytes()
        snapshot = client.post("/api/read", data={"session": sid},
                               files={"image": ("f.jpg", image, "image/jpeg")}).json()["snapshot"]
        offers, tiles = client.app.state.offers, client.app.state.tiles
        here, size = offers.reading(snapshot)
        there = ReadContext("dunhill", turn=1).turned(here, 0)        # as the next deal reads it
        assert there.record["seat"] != here.record["seat"]
        offers.offer(snapshot, there, size, turn=1)
        tiles.remember(snapshot, there.cuts)

        form = EditorForm(client.get(f"/s/{sid}").text).values
        assert (form["snapshot"], form["seat"]) == (snapshot, SHOWN["seat"]) and form["offer"]
        # then a tablet left on another session, at the next deal, drafts it its own way
        offers.remember(snapshot, there, size)
        tiles.remember(snapshot, there.cuts)
        assert client.post(f"/s/{sid}/confirm", data=form).status_code == 204
        learnt = +Counter({k: n for (k, origin), n in _origins(folder).items() if origin == snapshot})
        assert learnt == Counter(face_up_tiles([SHOWN])[0])
