"""Every command line piped into a reader that stops early (``| head``, a pager quit): it ends
quietly, as any Unix tool, not with a BrokenPipeError traceback or an "error:" line for what was
no error of the input. The reader's end is closed before the command writes, so it always meets
the closed pipe."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]


def commands(tmp: Path) -> dict[str, list[str]]:
    cv2.imwrite(str(tmp / "felt.png"), np.full((480, 640, 3), 90, np.uint8))
    return {
        "scoring": ["scoring", "score", str(ROOT / "examples" / "dunhill-96.json")],
        "vision": ["vision", "detect", str(tmp / "felt.png")],
        "calibration": ["calibration", "--dir", str(tmp / "tables"), "show"],
        "ledger": ["service.ledger", "--db", f"sqlite:///{tmp / 'night.sqlite3'}", "start",
                   "--rules", "dunhill", "--players", "Aki", "Ben", "Chie"],
    }


@pytest.mark.parametrize("name", ["scoring", "vision", "calibration", "ledger"])
def test_a_command_piped_into_a_reader_that_stops_ends_quietly(name, tmp_path):
    cmd = commands(tmp_path)[name]
    p = subprocess.Popen([sys.executable, "-m", *cmd], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         cwd=ROOT)
    p.stdout.close()
    err = p.stderr.read().decode()
    p.stderr.close()
    assert p.wait(timeout=120) == -signal.SIGPIPE, err
    assert err == ""
