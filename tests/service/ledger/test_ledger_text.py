"""Free text the ledger keeps holds no control character and has a bound (service/ledger/text.py).

PostgreSQL's text holds no NUL: its driver refused the statement before sending it, and the table
said its database could not be reached (503, "check the network"). Now either database refuses it
in one line naming the field, and writes nothing."""

from __future__ import annotations

import pytest

from ledger_play import PLAYERS
from service.ledger import LedgerError
from service.ledger.export import from_json, to_json

A, B, C = PLAYERS


def test_a_name_with_a_nul_starts_no_session_and_adds_no_player(ledger):
    with pytest.raises(LedgerError, match=r"a player's name holds a control character \(U\+0000\)"):
        ledger.start("dunhill", [A + "\x00", B, C])
    assert ledger.sessions() == [] and ledger.players() == []


def test_a_tab_or_a_line_break_in_a_name_is_folded_as_before(ledger):
    cfg = ledger.start("dunhill", [f"{A}\tTan", f"{B}\n", C])
    assert cfg.players[:2] == (f"{A} Tan", B)


@pytest.mark.parametrize("label, says", [
    ("night\x00two", r"a session's label holds a control character \(U\+0000\)"),
    ("bell\x07", r"a session's label holds a control character \(U\+0007\)"),
    ("x" * 201, "a session's label has at most 200 characters, not 201"),
])
def test_a_label_refused_starts_no_session(ledger, label, says):
    with pytest.raises(LedgerError, match=says):
        ledger.start("dunhill", PLAYERS, label=label)
    assert ledger.sessions() == []


def test_a_label_of_200_characters_with_a_line_break_is_kept(ledger):
    label = "金曜の夜\n" + "x" * 195
    assert ledger.config(ledger.start("dunhill", PLAYERS, label=label).id).label == label


def test_who_confirmed_with_a_control_character_writes_no_hand(ledger):
    sid = ledger.start("dunhill", PLAYERS).id
    with pytest.raises(LedgerError, match=r"who confirmed holds a control character \(U\+0000\)"):
        ledger.add_draw(sid, [A], confirmed_by="Ben\x00")
    with pytest.raises(LedgerError, match="who confirmed has at most 100 characters"):
        ledger.add_draw(sid, [A], confirmed_by="B" * 101)
    assert ledger.state(sid).hands == 0 and ledger.history(sid) == []
    ledger.add_draw(sid, [A], confirmed_by="Ben")
    assert ledger.state(sid).hands == 1


def test_a_reading_or_a_new_name_with_a_nul_changes_no_player(ledger):
    with pytest.raises(LedgerError, match="a player's reading holds a control character"):
        ledger.add_player("Dai", kana="だ\x00い")
    dai = ledger.add_player("Dai", kana="だい")
    with pytest.raises(LedgerError, match="a player's name holds a control character"):
        ledger.rename_player(dai.id, name="D\x00ai")
    assert [(p.name, p.kana) for p in ledger.players()] == [("Dai", "だい")]


@pytest.mark.parametrize("spoil, says", [
    (lambda d: d["session"].update(label="ni\x00ght"), "a session's label holds a control character"),
    (lambda d: d["events"][0].update(confirmed_by="B\x00en"), "hand 1's confirmer holds a control character"),
])
def test_an_export_with_a_nul_is_not_imported(ledger, spoil, says):
    sid = ledger.start("dunhill", PLAYERS, label="night").id
    ledger.add_draw(sid, [A], confirmed_by="Ben")
    data = to_json(ledger, sid)
    data["session"]["id"] = "an-other-session"
    spoil(data)
    with pytest.raises(LedgerError, match=says):
        from_json(ledger, data)
    assert [cfg.id for cfg in ledger.sessions()] == [sid]
