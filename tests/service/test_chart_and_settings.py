"""The inline SVG chart, the settings, and the reader seam."""

from __future__ import annotations

import re

import numpy as np
import pytest
from pydantic import ValidationError

from service.chart import balance_chart
from service.reader import NoReader, ReadContext, ReaderLoadError, load_reader
from service.settings import Settings, settings_error


def test_chart_has_one_line_per_player_through_each_hand():
    svg = balance_chart({"Aki": [0, 12, 6], "Ben": [0, -6, -12], "Chie": [0, -6, 6]})
    lines = re.findall(r'<polyline data-player="(\w+)"[^>]*points="([^"]+)"', svg)
    assert [p for p, _ in lines] == ["Aki", "Ben", "Chie"]
    aki = [tuple(map(float, pt.split(","))) for pt in lines[0][1].split()]
    assert len(aki) == 3 and aki[1][1] < aki[0][1]        # up is a higher balance
    ben = [tuple(map(float, pt.split(","))) for pt in lines[1][1].split()]
    assert ben[2][1] > ben[1][1] > ben[0][1]


def test_settings_come_from_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("TABLE_PIN", "7777")
    monkeypatch.setenv("TABLE_DATA_DIR", str(tmp_path))
    s = Settings(_env_file=None)
    assert s.table_pin == "7777"
    assert s.ledger_url == f"sqlite:///{tmp_path / 'ledger.sqlite3'}"
    assert s.snapshot_dir == tmp_path / "snapshots"
    monkeypatch.setenv("LEDGER_DB_URL", "postgresql://x/y")
    assert Settings(_env_file=None).snapshot_dir == tmp_path / "snapshots"


def test_without_a_pin_a_random_one_is_made_once():
    s = Settings(_env_file=None, pin="")
    assert re.fullmatch(r"\d{6}", s.table_pin) and s.table_pin == s.table_pin


@pytest.mark.parametrize("given, name", [({"pin": "123"}, "TABLE_PIN"), ({"staff_pin": "98"}, "TABLE_STAFF_PIN")])
def test_a_pin_too_short_to_hold_against_guessing_is_refused_without_showing_it(given, name):
    with pytest.raises(ValidationError) as e:
        Settings(_env_file=None, **given)
    said = settings_error(e.value)
    assert said.startswith(f"{name}: a PIN needs 4 characters or more") and list(given.values())[0] not in said
    assert Settings(_env_file=None, pin="1234", staff_pin="5678").table_pin == "1234"


def test_a_table_name_with_a_control_character_is_refused():
    """The table's name is written with every session and heartbeat: PostgreSQL keeps no NUL."""
    with pytest.raises(ValidationError) as e:
        Settings(_env_file=None, table_name="卓\x0003")
    said = settings_error(e.value)
    assert said.startswith("TABLE_TABLE_NAME: ") and "holds a control character (U+0000)" in said
    assert Settings(_env_file=None, table_name="卓03").table_name == "卓03"


def test_no_reader_reads_nothing_and_bad_readers_are_refused():
    reading = load_reader("").read(np.zeros((4, 4, 3), np.uint8), ReadContext("dunhill"))
    assert reading.record is None and not reading.installed and reading.warnings == (NoReader.MESSAGE,)
    assert isinstance(load_reader("service.reader:NoReader"), NoReader)
    for spec in ("service.reader", "nope.module:x", "service.reader:Detection"):
        with pytest.raises((ReaderLoadError, TypeError)):
            load_reader(spec)


def test_a_folder_camera_is_a_slideshow_and_a_video_file_plays(tmp_path):
    """A folder shows each image for 4 s (the demo's tables stay long enough to Count one);
    a file plays at 2 frames a second; a set TABLE_CAMERA_FPS wins over both."""
    video = tmp_path / "table.mp4"
    video.write_bytes(b"")
    assert Settings(_env_file=None, camera=str(tmp_path)).frame_rate == 0.25
    assert Settings(_env_file=None, camera=str(video)).frame_rate == 2.0
    assert Settings(_env_file=None, camera=str(tmp_path), camera_fps=5).frame_rate == 5
