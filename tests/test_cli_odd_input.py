"""The command lines meet a file of JSON nested past Python's recursion (a damaged or hostile file),
or a byte the terminal could not decode in a name: exit 2 and one line, never a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DEEP = "[" * 20_000 + "]" * 20_000


def run(*args) -> subprocess.CompletedProcess:
    return subprocess.run([os.fsencode(sys.executable), b"-m", *[a if isinstance(a, bytes) else os.fsencode(a)
                                                               for a in args]],
                          capture_output=True, cwd=ROOT, timeout=120)


def one_line_exit_2(p: subprocess.CompletedProcess, says: str) -> None:
    err = p.stderr.decode()
    assert p.returncode == 2, err
    assert "Traceback" not in err and says in err and len(err.strip().splitlines()) == 1, err


def test_scoring_a_file_nested_too_deeply(tmp_path):
    (tmp_path / "deep.json").write_text(DEEP)
    one_line_exit_2(run("scoring", "score", str(tmp_path / "deep.json")), "nested too deeply")


def test_the_ledger_given_a_file_nested_too_deeply(tmp_path):
    (tmp_path / "deep.json").write_text(DEEP)
    one_line_exit_2(run("service.ledger", "--db", f"sqlite:///{tmp_path / 'l.sqlite3'}", "import",
                        str(tmp_path / "deep.json")), "nested too deeply")


def test_a_table_file_nested_too_deeply(tmp_path):
    (tmp_path / "t1.json").write_text(DEEP)
    one_line_exit_2(run("calibration", "--dir", str(tmp_path), "show", "--table", "t1"), "nested too deeply")


def test_a_tile_set_index_nested_too_deeply(tmp_path):
    (tmp_path / "set").mkdir()
    (tmp_path / "set" / "index.json").write_text(DEEP)
    (tmp_path / "crop.png").write_bytes(b"")
    one_line_exit_2(run("vision", "tileset", "name", str(tmp_path / "set"), str(tmp_path / "crop.png"), "--json"),
                    "nested too deeply")


@pytest.mark.parametrize("command", ["start", "history"])
def test_a_name_or_id_the_terminal_could_not_decode(tmp_path, command):
    db = f"sqlite:///{tmp_path / 'l.sqlite3'}"
    run("service.ledger", "--db", db, "migrate")
    args = (["start", "--rules", "dunhill", "--players", "Aki", "Ben", b"\xff"] if command == "start"
            else ["history", b"\xff"])
    p = run("service.ledger", "--db", db, *args)
    one_line_exit_2(p, "no character")
    assert run("service.ledger", "--db", db, "list").stdout.strip() == b""      # nothing started
