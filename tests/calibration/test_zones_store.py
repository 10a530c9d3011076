"""Zones as data: the default geometry, point lookup, and the table file round trip."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

from calibration.errors import CalibrationError
from calibration.homography import Fit
from calibration.lens import Lens
from calibration.markers import default_layout
from calibration.store import TableFile, list_tables, load, save, table_path, tables_dir
from calibration.zones import SEATS, Zone, default_zones, zone_at, zones_from_list

LAYOUT = default_layout()


def test_default_zones_three_seats_and_the_dead_wall():
    zones = default_zones(LAYOUT)
    assert [z.name for z in zones if z.seat == "east"] == ["east.hand", "east.melds", "east.gari", "east.discards"]
    assert {z.seat for z in zones} == set(SEATS) | {None}
    assert [z.kind for z in zones if z.seat is None] == ["dead_wall"]
    x0, y0, x1, y1 = LAYOUT.felt
    for z in zones:
        pts = np.array(z.polygon)
        assert (pts[:, 0] >= x0).all() and (pts[:, 0] <= x1).all() and (pts[:, 1] >= y0).all() and (pts[:, 1] <= y1).all()


def test_each_hand_lies_along_its_seats_edge_and_north_is_empty():
    by = {z.name: np.array(z.polygon).mean(axis=0) for z in default_zones(LAYOUT)}
    assert by["east.hand"][1] > 850          # bottom
    assert by["south.hand"][0] > 850         # right
    assert by["west.hand"][1] < 150          # top
    assert by["dead_wall"][0] < 200          # the empty North side, left
    # Melds at each player's right: East's toward South (x up), South's toward West (y down).
    assert by["east.melds"][0] > by["east.hand"][0]
    assert by["south.melds"][1] < by["south.hand"][1]
    assert by["west.melds"][0] < by["west.hand"][0]


def test_default_zones_do_not_overlap():
    zones = default_zones(LAYOUT)
    # Off-grid sample points (boundaries are shared only where zones touch).
    xs, ys = np.meshgrid(np.arange(77.3, 925, 6.1), np.arange(76.7, 925, 6.1))
    for p in zip(xs.ravel(), ys.ravel()):
        assert sum(z.contains(p) for z in zones) <= 1, p


def test_point_lookup():
    zones = default_zones(LAYOUT)
    assert zone_at(zones, (500, 885)).name == "east.hand"
    assert zone_at(zones, (800, 870)).name == "east.melds"
    assert zone_at(zones, (500, 660)).name == "east.discards"
    assert zone_at(zones, (885, 500)).name == "south.hand"
    assert zone_at(zones, (500, 190)).name == "west.gari"
    assert zone_at(zones, (130, 500)).name == "dead_wall"
    assert zone_at(zones, (500, 500)) is None                # the centre
    assert zone_at(zones, (30, 30)) is None                  # on the rim


def test_first_zone_in_file_order_wins():
    big = Zone("big", "dead_wall", None, ((0, 0), (100, 0), (100, 100), (0, 100)))
    small = Zone("small", "hand", "east", ((40, 40), (60, 40), (60, 60), (40, 60)))
    assert zone_at([small, big], (50, 50)).name == "small"
    assert zone_at([big, small], (50, 50)).name == "big"
    tri = Zone("tri", "gari", "west", ((0, 0), (100, 0), (0, 100)))
    assert tri.contains((20, 20)) and not tri.contains((60, 60))


def test_table_file_round_trips_with_everything(tmp_path):
    H = np.array([[0.9, 0.02, -300.0], [-0.01, 0.95, -40.0], [1e-6, 2e-6, 1.0]])
    fit = Fit(H=H, image_size=(1920, 1080), source="markers", error_mm=0.41, marker_ids=(0, 1, 2), made_at=1.7e9)
    lens = Lens(np.array([[1000.0, 0, 960], [0, 1000, 540], [0, 0, 1]]), np.array([-0.2, 0.05, 0, 0, 0]),
                (1920, 1080), 0.3, 8)
    t = TableFile("parlour-1", fit=fit, camera={"device": 0, "exposure": -6}, lens=lens,
                  white_balance=(1.3, 1.0, 0.85))
    path = save(t, tmp_path)
    assert path == tmp_path / "parlour-1.json"
    back = load("parlour-1", tmp_path)
    assert np.allclose(back.fit.H, H) and back.fit.image_size == (1920, 1080)
    assert back.fit.made_at == 1.7e9 and back.fit.fresh is False and back.fit.marker_ids == (0, 1, 2)
    assert back.layout == t.layout and back.zones == t.zones and back.camera == t.camera
    assert np.allclose(back.lens.camera_matrix, lens.camera_matrix) and back.white_balance == (1.3, 1.0, 0.85)
    assert list_tables(tmp_path) == ["parlour-1"]
    assert not list(tmp_path.glob("*.tmp"))


def test_zones_edited_in_the_file_are_used(tmp_path):
    save(TableFile("t"), tmp_path)
    path = table_path("t", tmp_path)
    data = json.loads(path.read_text())
    hand = next(z for z in data["zones"] if z["name"] == "east.hand")
    hand["polygon"] = [[450, 860], [550, 860], [550, 900], [450, 900]]
    path.write_text(json.dumps(data))
    zones = load("t", tmp_path).zones
    assert zone_at(zones, (500, 880)).name == "east.hand"
    assert zone_at(zones, (350, 880)) is None


@pytest.mark.parametrize("zones, message", [
    ("nope", "a list"),
    ([{"name": "a", "kind": "hand", "seat": "east", "polygon": [[0, 0], [1, 1]]}], "3 points"),
    ([{"name": "a", "kind": "wall", "seat": "east", "polygon": [[0, 0], [1, 0], [1, 1]]}], "kind"),
    ([{"name": "a", "kind": "hand", "seat": "north", "polygon": [[0, 0], [1, 0], [1, 1]]}], "seat"),
    ([{"name": "a", "kind": "hand", "seat": "east", "polygon": [[0, 0], [1, 0], [1, 1]]}] * 2, "twice"),
    # a NaN point loaded, and the zone read nothing ever after
    ([{"name": "a", "kind": "hand", "seat": "east", "polygon": [[0, 0], [1, 0], [1, float("nan")]]}],
     "not NaN or inf"),
    # a seat edited apart from its name: the overlay said east.hand, the reader paid south
    ([{"name": "east.hand", "kind": "hand", "seat": "south", "polygon": [[0, 0], [1, 0], [1, 1]]}],
     "east.hand: its name says east's hand; its fields say seat south, kind hand"),
])
def test_bad_zones_are_rejected_in_one_line(zones, message):
    with pytest.raises(CalibrationError, match=message):
        zones_from_list(zones)


def test_bad_table_files_are_rejected(tmp_path):
    table_path("x", tmp_path).write_text("{not json")
    with pytest.raises(CalibrationError, match="not JSON"):
        load("x", tmp_path)
    table_path("x", tmp_path).write_text(json.dumps({"format": 99}))
    with pytest.raises(CalibrationError, match="format-1"):
        load("x", tmp_path)
    with pytest.raises(CalibrationError, match="no table file"):
        load("missing", tmp_path)
    with pytest.raises(CalibrationError, match="table name"):
        table_path("../etc", tmp_path)
    assert load("missing", tmp_path, missing_ok=True).fit is None


@pytest.mark.parametrize("edit, words", [
    (lambda d: d.__setitem__("camera", 7), "camera must be an object"),
    (lambda d: d.__setitem__("camera", [["resolution", 1]]), "camera must be an object"),
    (lambda d: d["homography"].__setitem__("H", [[1, 0], [0, 1]]), "bad homography"),
    # sizes typed wrong by hand: before, they loaded, and every Count was a 500 (a division by zero)
    (lambda d: d["markers"].__setitem__("rim_mm", 750), "rim_mm must be more than 0 and less than half"),
    (lambda d: d["markers"].__setitem__("rim_mm", 0), "rim_mm must be more than 0"),
    (lambda d: d["markers"].__setitem__("table_mm", [1000, 0]), "table_mm must be two sides"),
    (lambda d: d["markers"].__setitem__("table_mm", [1000, 1e9]), "table_mm must be two sides"),
    (lambda d: d["markers"].__setitem__("size_mm", 0), "size_mm must be more than 0"),
    (lambda d: d["markers"].__setitem__("quiet_mm", -1), "quiet_mm must be 0 to"),
    (lambda d: d["markers"].__setitem__("markers", []), "at least 4 markers"),
    (lambda d: d["markers"]["markers"][0].__setitem__("center", [-500, 37.5]), "marker(s) [0] lie off the table"),
    (lambda d: d["homography"].__setitem__("image_size", [0, 0]), "image_size must be two sizes"),
    # typed as text, it was read as 9x6
    (lambda d: d["homography"].__setitem__("image_size", "960x720"), "image_size must be [width, height]"),
    # a lens typed by hand, -15 for -0.15: it fitted, and the reader read a table bent into a circle
    (lambda d: d.__setitem__("lens", {"camera_matrix": [[1500, 0, 960], [0, 1500, 540], [0, 0, 1]],
                                      "dist": [-15, 0, 0, 0, 0], "image_size": [1920, 1080]}),
     "lens: no camera's"),
    (lambda d: d.__setitem__("lens", {"camera_matrix": [[float("nan"), 0, 960], [0, 1500, 540], [0, 0, 1]],
                                      "dist": [0, 0, 0, 0, 0], "image_size": [1920, 1080]}),
     "camera_matrix and dist must be numbers"),
    (lambda d: d.__setitem__("white_balance", {"gains_bgr": [1e9, 1, 1]}), "gains_bgr must be three numbers from 0.25 to 4"),
])
def test_a_table_file_edited_into_something_else_names_itself_and_what_is_off(tmp_path, edit, words):
    table = TableFile("t", fit=Fit(H=np.eye(3), image_size=(1920, 1080), source="markers", error_mm=0.5,
                                    marker_ids=(0, 1, 2), inliers=3, made_at=0.0, fresh=False))
    path = save(table, tmp_path)
    data = json.loads(path.read_text())
    edit(data)
    path.write_text(json.dumps(data))
    with pytest.raises(CalibrationError) as e:
        load("t", tmp_path)
    assert str(e.value).startswith(f"{path}: ") and words in str(e.value) and "\n" not in str(e.value)


def test_tables_dir_from_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("CALIBRATION_DIR", str(tmp_path))
    assert tables_dir() == tmp_path
    monkeypatch.delenv("CALIBRATION_DIR")
    assert tables_dir().name == "tables" and "toutenkou" in str(tables_dir())


def test_zones_off_the_felt_are_found():
    """The markers edited for a 900 mm table, as the docs said, the zones kept: the East and
    South hands lay on the rim and past it, and every read found no hand."""
    small = replace(LAYOUT, table_mm=(900.0, 900.0))
    from calibration.zones import off_felt
    assert off_felt(default_zones(LAYOUT), LAYOUT) == []
    assert off_felt(default_zones(small), small) == []
    assert [z.name for z in off_felt(default_zones(LAYOUT), small)] == [
        "east.hand", "east.melds", "south.hand", "south.melds"]


def test_a_table_file_with_no_zones_is_refused_and_null_makes_the_defaults(tmp_path):
    path = save(TableFile("t"), tmp_path)
    data = json.loads(path.read_text())
    data["zones"] = []
    path.write_text(json.dumps(data))
    with pytest.raises(CalibrationError, match='zones: none, so no hand is ever read .*set "zones" to null'):
        load("t", tmp_path)
    data["zones"] = None
    path.write_text(json.dumps(data))
    assert load("t", tmp_path).zones == default_zones(LAYOUT)


def test_a_zone_named_more_finely_than_seat_and_kind_loads():
    """A small zone listed before a big one wins (docs/calibration.md): such zones are named freely,
    so long as a seat or a kind the name says is the zone's."""
    square = [[0, 0], [1, 0], [1, 1]]
    zones = zones_from_list([{"name": "east.hand.left", "kind": "hand", "seat": "east", "polygon": square},
                             {"name": "east.river", "kind": "discards", "seat": "east", "polygon": square},
                             {"name": "north.dead_wall", "kind": "dead_wall", "seat": None, "polygon": square}])
    assert [z.name for z in zones] == ["east.hand.left", "east.river", "north.dead_wall"]
