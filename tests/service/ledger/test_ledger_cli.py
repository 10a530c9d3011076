"""python -m service.ledger: start, add a hand from a file, add a draw, show; bad input exits 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ledger_play import PLAYERS, hand
from service.ledger.__main__ import main

ROOT = Path(__file__).resolve().parents[3]
A, B, C = PLAYERS


@pytest.fixture
def db_url(tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'cli.sqlite3'}"
    monkeypatch.setenv("LEDGER_DB_URL", url)
    return url


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_session_from_the_command_line(db_url, tmp_path, capsys):
    code, out, _ = run(capsys, "start", "--rules", "dunhill", "--players", *PLAYERS)
    assert code == 0
    sid = out.strip()
    f = tmp_path / "h1.json"
    f.write_text(json.dumps(hand("dunhill", "south", "ron", "west", honba=0)))
    # Ben (south) rons Chie (west): 4 (banban 2 + chun 1 + gari 1); Ben deals next.
    code, out, _ = run(capsys, "hand", sid, str(f), "--by", A, "--snapshot", "cam/1.jpg", "--winner", B)
    assert code == 0 and "Ben deals, 0 honba" in out
    # Draw, Ben alone tenpai: Aki and Chie pay 3 each.
    code, out, _ = run(capsys, "draw", sid, "--tenpai", B)
    assert code == 0
    code, out, _ = run(capsys, "show", sid, "--json")
    shown = json.loads(out)
    assert shown["balances"] == {A: -3, B: 10, C: -7}
    assert (shown["dealer"], shown["honba"], shown["pool"]) == (B, 1, 0)
    assert [x["in_sticks"] for x in shown["settlement"]] == [-300, 1000, -700]
    code, out, _ = run(capsys, "export", sid, "--format", "csv")
    assert code == 0 and out.count("\n") == 3
    exported = tmp_path / "s.json"
    assert run(capsys, "export", sid, "-o", str(exported))[0] == 0
    other = f"sqlite:///{tmp_path / 'other.sqlite3'}"
    code, out, _ = run(capsys, "--db", other, "import", str(exported))
    assert (code, out.strip()) == (0, sid)
    # hand 1 was Ben's tsumo, not a ron on Chie (Ben deals next either way); --hand's files were
    # taken for --hand-number's cross-check and every correction of a win ended in a traceback
    g = tmp_path / "h1-fixed.json"
    g.write_text(json.dumps(hand("dunhill", "south", "tsumo", honba=0)))
    code, out, err = run(capsys, "correct", sid, "1", "--hand", str(g), "--by", A)
    assert code == 0, err
    code, out, _ = run(capsys, "history", sid)
    assert "hand 1 -> win" in out
    assert run(capsys, "undo", sid)[0] == 0
    code, out, _ = run(capsys, "history", sid)
    assert "undo" in out and "draw" in out


def test_a_penalty_from_the_command_line(db_url, tmp_path, capsys):
    code, out, _ = run(capsys, "start", "--rules", "isshokai", "--players", *PLAYERS)
    sid = out.strip()
    assert run(capsys, "draw", sid, "--penalty", B, "--penalty", C)[0] == 0
    code, out, _ = run(capsys, "show", sid, "--json")
    shown = json.loads(out)
    assert shown["balances"] == {A: 25, B: 24, C: 24} and shown["pool"] == 2
    code, out, _ = run(capsys, "history", sid)
    assert f"penalty: {B}, {C}" in out
    assert run(capsys, "correct", sid, "1", "--draw", "--penalty", A)[0] == 0
    code, out, _ = run(capsys, "history", sid)
    assert f"hand 1 -> draw: tenpai: none; penalty: {A}" in out


@pytest.mark.parametrize("argv, message", [
    (["hand", "SID", "MISSING.json"], "No such file"),
    (["hand", "SID", "BAD.json"], "not JSON"),
    (["hand", "SID", "INVALID.json"], "hand record"),
    (["hand", "SID", "STALE.json"], "stale state"),
    (["hand", "no-such-session", "GOOD.json"], "unknown session"),
    (["draw", "SID", "--tenpai", "Zed"], "not a player"),
    # tenpai belongs to a draw: given to a win's or a chombo's correction it was dropped, the hand logged
    (["correct", "SID", "1", "--hand", "GOOD.json", "--tenpai", "Ben"], "a win correction has no tenpai"),
    (["correct", "SID", "1", "--chombo", "Ben", "--tenpai", "Aki"], "a chombo correction has no tenpai"),
    (["start", "--rules", "nope", "--players", "a", "b", "c"], "unknown rules preset"),
    (["frobnicate"], "invalid choice"),
])
def test_bad_input_exits_2_with_one_line(db_url, tmp_path, capsys, argv, message):
    _, out, _ = run(capsys, "start", "--rules", "dunhill", "--players", *PLAYERS)
    sid = out.strip()
    (tmp_path / "BAD.json").write_text("{not json")
    (tmp_path / "INVALID.json").write_text(json.dumps({"rules": "dunhill", "seat": "north"}))
    (tmp_path / "STALE.json").write_text(json.dumps(hand("dunhill", "south", "ron", "west", honba=3)))
    (tmp_path / "GOOD.json").write_text(json.dumps(hand("dunhill", "south", "ron", "west", honba=0)))
    argv = [sid if a == "SID" else str(tmp_path / a) if a.endswith(".json") else a for a in argv]
    if argv[0] == "correct":                            # a hand to correct
        assert run(capsys, "draw", sid)[0] == 0
    with pytest.raises(SystemExit) if argv[0] == "frobnicate" else _nothing() as e:
        code, out, err = run(capsys, *argv)
    if argv[0] == "frobnicate":
        code, err = e.value.code, capsys.readouterr().err
    assert code == 2
    assert message in err and err.count("\n") == 1 and "Traceback" not in err
    if argv[0] == "correct":                            # nothing logged
        assert "->" not in run(capsys, "history", sid)[1]


def test_a_record_whose_honba_is_null_is_at_the_tables_honba(db_url, tmp_path, capsys):
    """The record's format says null is none given, and the scoring command reads it as 0: the
    ledger refused it as a stale view ("the record says None honba") where the table was at 0, and
    at 2 honba would have refused it too instead of counting the table's 2."""
    shown = []
    for honba in (None, 2):
        sid = run(capsys, "start", "--rules", "dunhill", "--players", *PLAYERS)[1].strip()
        for _ in range(2):
            assert run(capsys, "draw", sid, "--tenpai", A)[0] == 0        # Aki deals on, 2 honba
        f = tmp_path / "h.json"
        f.write_text(json.dumps({**hand("dunhill", "south", "tsumo", honba=0), "honba": honba}))
        code, out, err = run(capsys, "hand", sid, str(f))
        assert code == 0, err
        shown.append(json.loads(run(capsys, "show", sid, "--json")[1]))
    assert shown[0]["balances"] == shown[1]["balances"] and shown[0]["hands"] == 3


def test_no_traceback_from_a_real_process(tmp_path):
    url = f"sqlite:///{tmp_path / 'x.sqlite3'}"
    assert main(["--db", url, "migrate"]) == 0
    p = subprocess.run([sys.executable, "-m", "service.ledger", "--db", url, "show", "nope"],
                       capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 2 and p.stderr == "error: unknown session 'nope'\n"


@pytest.mark.parametrize("argv", [["list"], ["show", "S"], ["history", "S"], ["export", "S"], ["draw", "S"],
                                  ["undo", "S"], ["backup", "b.sqlite3"]])
def test_a_ledger_that_is_not_there_is_said_so_and_none_is_made(tmp_path, capsys, monkeypatch, argv):
    """A relative or mistyped --db read from the wrong folder: before, list made an empty ledger
    there and printed no session at all (the night read as lost), and left the stray file."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "data").mkdir()
    code, out, err = run(capsys, "--db", "sqlite:///data/ledger.sqlite3", *argv)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert f"no ledger at {tmp_path / 'data' / 'ledger.sqlite3'} (check --db" in err
    assert list((tmp_path / "data").iterdir()) == []


@pytest.mark.parametrize("url, message", [("nosuchdb://x", "Can't load plugin"), ("not a url", "Could not parse"),
                                          ("NOTADB", "file is not a database")])
def test_a_database_that_cannot_be_opened_exits_2_with_one_line(tmp_path, capsys, url, message):
    notes = tmp_path / "notes.sqlite3"
    notes.write_text("the night's scores\n" * 50)
    code, out, err = run(capsys, "--db", url.replace("NOTADB", f"sqlite:///{notes}"), "list")
    assert code == 2 and out == "" and err.startswith("error: database: ") and message in err
    assert err.count("\n") == 1 and notes.read_text() == "the night's scores\n" * 50


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def test_history_gives_the_parlours_clock_not_utc(db_url, capsys, monkeypatch, tmp_path):
    """A hand logged at 20:35 in Tokyo reads 20:35 JST, as the counter's pages show it; a zone
    that is none is exit 2 and one line."""
    import sqlalchemy as sa
    from datetime import datetime, timezone
    from service.ledger import db

    sid = run(capsys, "start", "--rules", "isshokai", "--players", *PLAYERS)[1].strip()
    assert run(capsys, "draw", sid, "--tenpai", B)[0] == 0
    engine = sa.create_engine(db_url)
    with engine.begin() as conn:
        conn.execute(sa.update(db.events).values(created_at=datetime(2026, 3, 10, 11, 35, tzinfo=timezone.utc)))
    engine.dispose()
    monkeypatch.delenv("TABLE_TIMEZONE", raising=False)
    assert "#1    2026-03-10 20:35:00 JST draw" in run(capsys, "history", sid)[1]
    monkeypatch.setenv("TABLE_TIMEZONE", "Europe/London")
    assert "2026-03-10 11:35:00 GMT" in run(capsys, "history", sid)[1]
    monkeypatch.delenv("TABLE_TIMEZONE")
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".env").write_text("TABLE_TIMEZONE=America/New_York\n")      # as the service reads it
    assert "2026-03-10 07:35:00 EDT" in run(capsys, "history", sid)[1]
    monkeypatch.setenv("TABLE_TIMEZONE", "Mars/Olympus")
    code, out, err = run(capsys, "history", sid)
    assert code == 2 and "TABLE_TIMEZONE: 'Mars/Olympus' is not a time zone" in err and err.count("\n") == 1


@pytest.mark.parametrize("content", [b"", b"x"])
def test_a_file_too_short_to_be_a_ledger_is_said_so_and_not_made_one(tmp_path, capsys, content):
    """An empty (or 1-byte) file at --db: list exited 0 with no session and had made the file an
    86 KB ledger, the guard against "no sessions" reading as a lost night got round."""
    stray = tmp_path / "ledger.sqlite3"
    stray.write_bytes(content)
    code, out, err = run(capsys, "--db", f"sqlite:///{stray}", "list")
    assert code == 2 and out == "" and "no ledger in it" in err and err.count("\n") == 1
    assert stray.read_bytes() == content


def _under_file_limit(kb: int):
    """For a child process: writes past ``kb`` KB fail as on a full disk (EFBIG, not a signal)."""
    import resource
    import signal

    def limit():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (kb * 1024, kb * 1024))
    return limit


def test_an_export_that_cannot_be_written_whole_leaves_the_last_one_as_it_was(db_url, tmp_path, capsys):
    """Written straight over the target, a full disk left the last export cut short, no longer JSON."""
    code, out, _ = run(capsys, "start", "--rules", "dunhill", "--players", *PLAYERS)
    sid = out.strip()
    for n in range(40):
        run(capsys, "draw", sid, "--tenpai", B)
    target = tmp_path / "export.json"
    assert run(capsys, "export", sid, "-o", str(target))[0] == 0
    before = target.read_bytes()
    assert len(before) > 8 * 1024
    p = subprocess.run([sys.executable, "-m", "service.ledger", "--db", db_url, "export", sid, "-o", str(target)],
                       capture_output=True, text=True, cwd=ROOT, preexec_fn=_under_file_limit(8))
    assert p.returncode == 2 and p.stderr.count("\n") == 1 and "Traceback" not in p.stderr
    assert target.read_bytes() == before
    assert sorted(f.name for f in tmp_path.iterdir() if f.name.startswith(".export")) == []


def test_a_ledger_restored_onto_itself_is_refused_at_once(db_url, tmp_path, capsys):
    """It copied the file onto itself and never ended, deaf to Ctrl-C."""
    run(capsys, "start", "--rules", "dunhill", "--players", *PLAYERS)
    path = db_url.removeprefix("sqlite:///")
    code, _, err = run(capsys, "restore", path)
    assert code == 2 and "is the ledger itself" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cli.sqlite3"]


def test_a_file_not_in_utf_8_is_named(db_url, tmp_path, capsys):
    run(capsys, "start", "--rules", "dunhill", "--players", *PLAYERS)
    binary = tmp_path / "hand.json"
    binary.write_bytes(b"\xff\xfe\x00")
    code, _, err = run(capsys, "import", str(binary))
    assert code == 2 and err == f"error: {binary}: not UTF-8 text\n"


def test_an_export_is_readable_as_a_file_the_user_made_and_a_missing_folder_is_named(db_url, tmp_path, capsys):
    """Written through a temporary file, it came out readable by its owner alone (0600)."""
    import os
    code, out, _ = run(capsys, "start", "--rules", "dunhill", "--players", *PLAYERS)
    sid = out.strip()
    umask = os.umask(0o022)
    try:
        assert run(capsys, "export", sid, "-o", str(tmp_path / "e.json"))[0] == 0
    finally:
        os.umask(umask)
    assert (tmp_path / "e.json").stat().st_mode & 0o777 == 0o644
    code, _, err = run(capsys, "export", sid, "-o", str(tmp_path / "nope" / "e.json"))
    assert code == 2 and err == f"error: {tmp_path / 'nope' / 'e.json'}: no folder {tmp_path / 'nope'} to write it in\n"
    assert not (tmp_path / "nope").exists()
