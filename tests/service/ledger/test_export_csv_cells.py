"""The CSV export writes a text cell that begins with =, +, - or @ as text (a leading '), so a
player named =HYPERLINK(...) never becomes a formula in a spreadsheet; numbers stay numbers. A CSV
file starts with UTF-8's byte-order mark, so Excel on a Japanese Windows reads the players' kanji
as written, not as Shift_JIS. Exported over the API and by the command line (the same function),
on SQLite and PostgreSQL."""

from __future__ import annotations

import codecs
import csv
import io
import re

import pytest
from fastapi.testclient import TestClient

from ledger_play import hand
from service.app import create_app
from service.ledger.__main__ import main
from service.settings import Settings

PIN = "2468"
EVIL = '=HYPERLINK("http://evil","x")'
PLUS = "+Ben"
LABEL = "@SUM(1)"
TABLE = "-1+1"
NUMBER = re.compile(r"-?\d+")


@pytest.fixture
def client(db_url, tmp_path):
    settings = Settings(_env_file=None, data_dir=tmp_path / "data", db_url=db_url, table_name=TABLE,
                        pin=PIN, camera="", reader="", watch=False)
    assert settings.ledger_url == db_url
    with TestClient(create_app(settings), headers={"X-Table-PIN": PIN}) as c:
        yield c


def _played(client) -> str:
    """A session of EVIL (east, the first dealer), +Ben and Chie: +Ben rons EVIL, a draw with
    EVIL alone tenpai, a chombo by +Ben."""
    r = client.post("/api/sessions", json={"rules": "dunhill", "players": [EVIL, PLUS, "Chie"], "label": LABEL})
    assert r.status_code == 201, r.text
    assert r.json()["players"] == [EVIL, PLUS, "Chie"]
    sid = r.json()["id"]
    win = hand("dunhill", "south", "ron", "east", honba=0)
    assert client.post(f"/api/sessions/{sid}/wins", json={"records": [win]}).status_code == 201
    assert client.post(f"/api/sessions/{sid}/draws", json={"tenpai": [EVIL]}).status_code == 201
    assert client.post(f"/api/sessions/{sid}/chombos", json={"offender": PLUS}).status_code == 201
    return sid


def _rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def test_text_cells_that_look_like_formulas_are_written_as_text(client):
    sid = _played(client)
    r = client.get(f"/api/sessions/{sid}/export.csv")
    assert r.status_code == 200
    rows = _rows(r.content.decode("utf-8-sig"))
    header, body = rows[0], rows[1:]
    table = [dict(zip(header, row)) for row in body]
    assert len(table) == 3

    assert f"'{EVIL} change" in header and f"'{PLUS} balance" in header and "Chie change" in header
    won = table[0]
    assert won["winners"] == f"'{PLUS}" and won["discarder"] == f"'{EVIL}" and won["dealer"] == f"'{EVIL}"
    assert won["next dealer"] == f"'{PLUS}"
    assert {row["label"] for row in table} == {f"'{LABEL}"}
    assert {row["table"] for row in table} == {f"'{TABLE}"}
    assert table[1]["winners"] == f"tenpai: {EVIL}"          # a name inside a cell is no formula: as it was
    assert table[2]["winners"] == f"chombo: {PLUS}"

    # numbers stay numbers: the payments are plain (negative) integers, as the API counts them
    hands = client.get(f"/api/sessions/{sid}/hands").json()["hands"]
    for row, counted in zip(table, hands):
        for player, delta in counted["deltas"].items():
            cell = row[f"'{player} change" if player[0] in "=+-@" else f"{player} change"]
            assert NUMBER.fullmatch(cell) and int(cell) == delta
    assert any(int(row[f"'{EVIL} change"]) < 0 for row in table)
    assert int(table[2][f"'{PLUS} change"]) < 0           # the chombo's payment

    # no cell anywhere starts like a formula unless it is a number
    for row in rows:
        for cell in row:
            assert NUMBER.fullmatch(cell) or not cell.startswith(("=", "+", "-", "@", "\t", "\r")), cell


def test_the_command_line_exports_the_same_cells(client, db_url, capsys):
    sid = _played(client)
    over_api = _rows(client.get(f"/api/sessions/{sid}/export.csv").content.decode("utf-8-sig"))
    assert main(["--db", db_url, "export", sid, "--format", "csv"]) == 0
    out = capsys.readouterr().out
    assert _rows(out) == over_api
    assert over_api[1][over_api[0].index("label")] == f"'{LABEL}"


def test_a_csv_file_opens_as_utf8_in_a_spreadsheet_and_stdout_stays_plain(client, db_url, tmp_path, capsys):
    """Without the mark, Excel on a Japanese Windows read 田中 as Shift_JIS: 逕ｰ荳ｭ."""
    players = ["田中", "鈴木", "佐藤"]
    sid = client.post("/api/sessions", json={"rules": "dunhill", "players": players}).json()["id"]
    win = hand("dunhill", "south", "ron", "east", honba=0)
    assert client.post(f"/api/sessions/{sid}/wins", json={"records": [win]}).status_code == 201
    exported = tmp_path / "night.csv"
    assert main(["--db", db_url, "export", sid, "--format", "csv", "-o", str(exported)]) == 0
    files = {"export.csv": client.get(f"/api/sessions/{sid}/export.csv").content,
             "standings.csv": client.get("/api/standings.csv", params={"period": "all"}).content,
             "export -o": exported.read_bytes()}
    for name, body in files.items():
        assert body.startswith(codecs.BOM_UTF8), name
        text = body.decode("utf-8-sig")
        assert all(p in text for p in players) and "\ufeff" not in text, name
    assert files["export -o"].decode("utf-8-sig") == files["export.csv"].decode("utf-8-sig")
    assert main(["--db", db_url, "export", sid, "--format", "csv"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("hand,") and "田中" in out         # a pipe gets the CSV alone
