"""The README's run command starts the service on the demo camera with SQLite and prints its URL."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

from live_server import free_port

ROOT = Path(__file__).resolve().parents[2]


def test_readme_run_command_starts_the_service(tmp_path):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert re.search(r"pip install -e \. && \.venv/bin/python -m service\n", readme), "README lost its run command"
    proc = _serve(tmp_path, TABLE_PIN="")
    try:
        first = proc.stdout.readline()
        m = re.search(r"(http://127\.0\.0\.1:\d+/)\s+PIN (\d{6})", first)
        assert m, first
        url, pin = m.groups()
        deadline = time.monotonic() + 20
        while True:
            try:
                r = httpx.get(url + "api/camera/frame.jpg", headers={"X-Table-PIN": pin}, timeout=2)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline and proc.poll() is None, "the service did not answer"
                time.sleep(0.2)
        assert r.status_code == 200 and r.content[:2] == b"\xff\xd8"      # the demo camera is running
        assert (tmp_path / "ledger.sqlite3").exists()
        pin_header = {"X-Table-PIN": pin}
        session = httpx.post(url + "api/sessions", headers=pin_header, timeout=10,
                             json={"rules": "dunhill", "players": ["A", "B", "C"]}).json()
        read = httpx.post(url + f"api/camera/read?session={session['id']}", headers=pin_header, timeout=60).json()
        assert read["reader"] == "vision" and read["record"]["concealed"]     # and reads the demo table's hand
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_a_bad_camera_is_one_line_and_exit_2(tmp_path):
    env = {**os.environ, "TABLE_CAMERA": str(tmp_path / "nope"), "TABLE_DATA_DIR": str(tmp_path)}
    out = subprocess.run([sys.executable, "-m", "service"], cwd=tmp_path, env=env, capture_output=True, text=True,
                         timeout=30)
    assert out.returncode == 2 and out.stderr.strip().startswith("error: camera source")
    assert "Traceback" not in out.stderr


def test_an_unknown_calibrated_table_is_one_line_and_exit_2(tmp_path):
    env = {**os.environ, "TABLE_CALIBRATION": "nope", "CALIBRATION_DIR": str(tmp_path), "TABLE_DATA_DIR": str(tmp_path)}
    out = subprocess.run([sys.executable, "-m", "service"], cwd=tmp_path, env=env, capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 2 and out.stderr.count("\n") == 1
    assert "nope" in out.stderr and "python -m calibration fit" in out.stderr and "Traceback" not in out.stderr


def test_a_bad_setting_is_named_in_one_line_and_exit_2(tmp_path):
    # the last three started the service before, to fail at every standings page, login or locked address
    for name, value, words in (("TABLE_CAMERA_FPS", "abc", "valid number"), ("TABLE_PORT", "-5", "greater than"),
                               ("TABLE_TIMEZONE", "Nope/Zone", "unknown time zone"),
                               ("TABLE_TABLET_LOGIN_DAYS", "inf", "finite number"),
                               ("TABLE_PIN_LOCK_S", "1e308", "less than or equal to 86400")):
        env = {**os.environ, name: value, "TABLE_DATA_DIR": str(tmp_path)}
        out = subprocess.run([sys.executable, "-m", "service"], cwd=tmp_path, env=env, capture_output=True,
                             text=True, timeout=30)
        assert out.returncode == 2 and out.stderr.count("\n") == 1, out.stderr
        assert out.stderr.startswith(f"error: {name}:") and words in out.stderr and repr(value) in out.stderr


def test_a_staff_pin_equal_to_the_table_pin_is_refused_without_showing_it(tmp_path):
    env = {**os.environ, "TABLE_PIN": "424242", "TABLE_STAFF_PIN": "424242", "TABLE_DATA_DIR": str(tmp_path)}
    out = subprocess.run([sys.executable, "-m", "service"], cwd=tmp_path, env=env, capture_output=True,
                         text=True, timeout=30)
    assert out.returncode == 2 and out.stderr.count("\n") == 1, out.stderr
    assert out.stderr.startswith("error: TABLE_STAFF_PIN: the staff PIN must differ") and "424242" not in out.stderr


def test_a_port_in_use_is_one_line_and_exit_2_before_the_url_is_printed(tmp_path):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        env = {**os.environ, "TABLE_HOST": "127.0.0.1", "TABLE_PORT": str(port), "TABLE_DATA_DIR": str(tmp_path)}
        out = subprocess.run([sys.executable, "-m", "service"], cwd=tmp_path, env=env, capture_output=True,
                             text=True, timeout=30)
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr == f"error: cannot listen on 127.0.0.1:{port}: Address already in use\n"


def _env(data_dir, **env) -> dict[str, str]:
    """The run command's environment: ``env`` over a free port on 127.0.0.1, ``data_dir`` and SQLite."""
    return {**os.environ, "TABLE_DATA_DIR": str(data_dir), "TABLE_HOST": "127.0.0.1", "TABLE_PORT": str(free_port()),
            "TABLE_DB_URL": "", "LEDGER_DB_URL": "", **env}


def _serve(tmp_path, **env) -> subprocess.Popen:
    """The run command serving in the background, its output (stdout and stderr) in one pipe."""
    return subprocess.Popen([sys.executable, "-m", "service"], cwd=tmp_path, env=_env(tmp_path, **env),
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def _start(tmp_path, **env):
    """The run command under ``env``, with a free port, waited for (each of these stops before it serves)."""
    return subprocess.run([sys.executable, "-m", "service"], cwd=tmp_path, capture_output=True, text=True, timeout=60,
                          env=_env(tmp_path / "data", **env))


def test_a_file_that_is_no_database_is_named_and_left_as_it_was(tmp_path):
    ledger = tmp_path / "ledger.sqlite3"
    ledger.write_bytes(b"the night's scores, typed by hand\n" * 40)
    before = ledger.read_bytes()
    out = _start(tmp_path, TABLE_DB_URL=f"sqlite:///{ledger}")
    assert out.returncode == 2 and out.stdout == "" and out.stderr.count("\n") == 1, out.stderr
    assert out.stderr.startswith(f"error: database sqlite:///{ledger}: ") and "not a database" in out.stderr
    assert ledger.read_bytes() == before


def test_a_ledger_from_a_newer_version_is_one_line_and_left_as_it_was(tmp_path):
    """A newer program's schema (a parlour that went back a version): two Alembic tracebacks and exit 1."""
    import sqlite3

    from service.ledger import Ledger
    ledger = tmp_path / "ledger.sqlite3"
    Ledger(f"sqlite:///{ledger}").close()
    with sqlite3.connect(ledger) as c:
        c.execute("UPDATE alembic_version SET version_num = '0099'")
    out = _start(tmp_path, TABLE_DB_URL=f"sqlite:///{ledger}")
    assert out.returncode == 2 and out.stdout == "" and out.stderr.count("\n") == 1, out.stderr
    assert "schema is 0099, which this program does not know" in out.stderr and "Traceback" not in out.stderr
    with sqlite3.connect(ledger) as c:
        assert c.execute("SELECT version_num FROM alembic_version").fetchall() == [("0099",)]
    cli = subprocess.run([sys.executable, "-m", "service.ledger", "--db", f"sqlite:///{ledger}", "list"],
                         cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert cli.returncode == 2 and cli.stderr.count("\n") == 1 and "schema is 0099" in cli.stderr, cli.stderr


def test_a_database_url_that_cannot_be_used_is_one_line_without_its_password(tmp_path):
    for url, words in (("nosuchdb://x", "Can't load plugin"), ("not a url", "Could not parse"),
                       ("postgresql://staff:hunter2@127.0.0.1:1/parlour", "Connection refused"),
                       ("postgresql://staff:hunter2@127.0.0.1:port/parlour", "port is no number")):
        out = _start(tmp_path, TABLE_DB_URL=url)
        assert out.returncode == 2 and out.stdout == "" and out.stderr.count("\n") == 1, out.stderr
        assert out.stderr.startswith("error: database ") and words in out.stderr and "TABLE_DB_URL" in out.stderr
        assert "hunter2" not in out.stderr and "Traceback" not in out.stderr


def test_the_start_up_banner_hides_an_ip_cameras_password(tmp_path):
    proc = _serve(tmp_path, TABLE_CAMERA="rtsp://admin:s3cret@127.0.0.1:1/stream")
    try:
        lines = [proc.stdout.readline()]
        while "camera" not in lines[-1] and len(lines) < 3:       # the banner's line that names the camera
            lines.append(proc.stdout.readline())
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    said = "".join(lines)
    assert "camera rtsp://admin:***@127.0.0.1:1/stream" in said and "s3cret" not in said, said


def test_a_data_folder_that_is_a_file_is_one_line_and_exit_2(tmp_path):
    (tmp_path / "data").write_text("not a folder")
    out = _start(tmp_path)
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr == f"error: data folder {tmp_path / 'data'}: a file, not a folder (TABLE_DATA_DIR, TABLE_DB_URL)\n"


def test_a_house_rules_folder_that_is_a_file_is_one_line_and_exit_2(tmp_path):
    (tmp_path / "rules.toml").write_text("base = 'dunhill'")
    out = _start(tmp_path, TABLE_RULES_DIR=str(tmp_path / "rules.toml"))
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr == f"error: house rules folder {tmp_path / 'rules.toml'}: a file, not a folder (TABLE_RULES_DIR)\n"


def test_a_settings_file_that_is_not_utf8_is_named_in_one_line(tmp_path):
    (tmp_path / ".env").write_bytes(b"TABLE_PIN=246813\n\xff\xfe\n")
    out = _start(tmp_path)
    assert out.returncode == 2 and out.stdout == "" and out.stderr.count("\n") == 1, out.stderr
    assert out.stderr.startswith(f"error: {tmp_path / '.env'}: not UTF-8 text") and "Traceback" not in out.stderr
