"""The tablet's Japanese glosses: each put before the English line it explains, none where it
would say something else."""

from __future__ import annotations

import pytest

from service.refusal_ja import bilingual


@pytest.mark.parametrize("line, ja", [
    ("no yaku: dunhill needs at least one yaku", "役がありません"),
    ("hand record: melds[0].from is the winner's own seat", "鳴いた相手が和了者自身"),
    ("hand record: discarder is the winner's own seat", "放銃者が和了者自身"),
    ("the game is over (a player started a hand at or below 0)", "半荘は終了"),
    ("new rule: a house rule's name is its file's name: use letters, digits, '-' or '_' (at most 64), got 'あ'",
     "ルール名は半角英数字"),
    ("/rules/ours.toml exists already: edit it, or choose another name", "同じ名前のルールがあります"),
])
def test_a_known_refusal_reads_japanese_first(line, ja):
    assert bilingual(line).startswith(ja) and bilingual(line).endswith(line)


def test_a_line_already_bilingual_or_unknown_is_left_as_it_is():
    for line in ("手牌を入力 enter the hand: tap tiles below", "the table cannot write to its disk"):
        assert bilingual(line) == line
