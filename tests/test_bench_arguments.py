"""The benches meet counts they cannot run: exit 2 naming the option, before anything runs (0 hands
divided a figure by zero, a negative count ran and printed figures of nothing)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("bench, argv, says", [
    ("bench_scoring.py", ["--hands", "0"], "argument --hands: must be 1 or more, not 0"),
    ("bench_scoring.py", ["--repeat", "-2"], "argument --repeat: must be 1 or more, not -2"),
    ("bench_ledger.py", ["--hands", "many"], "argument --hands: 'many' is not a whole number"),
    ("bench_watch.py", ["--fps", "0"], "argument --fps: must be above 0, not 0"),
    ("bench_camera.py", ["--sizes", "abc"], "argument --sizes: 'abc' is not WIDTHxHEIGHT"),
    ("bench_tileset.py", ["--json", "/nonexistent/x.json"], "argument --json: no folder /nonexistent"),
    ("bench_tileset.py", ["--repeats", "0"], "argument --repeats: must be 1 or more"),
])
def test_a_count_a_bench_cannot_run_is_refused_naming_the_option(bench, argv, says):
    p = subprocess.run([sys.executable, str(ROOT / "bench" / bench), *argv], capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == 2 and says in p.stderr and "Traceback" not in p.stderr, p.stderr

