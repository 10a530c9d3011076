"""The speed paths give what the plain paths give.

Parsing and the record constructor have fast paths (tiles._parse,
HandRecord.from_dict filling the frozen dataclass in one step); these tests
hold them to the plain character walk and the dataclass __init__.
"""

import dataclasses
import random

import pytest

from scoring import HandRecord, ScoringError
from scoring.random_hands import random_winning_record
from scoring.tiles import _parse, _parse_walk


@pytest.mark.parametrize("text", [
    "", "1m", "123p406s77z", "12m0p7z", " 1 2m ", "0m0p0s", "1234567z", "11122233344455s",
    "8z", "0z", "9z", "m", "12", "12x", "1m2", "1m m", "１m", "5z5z5z", "99s 11z",
])
def test_parse_fast_path_matches_the_walk(text):
    try:
        want = _parse_walk(text)
    except ScoringError as e:
        with pytest.raises(ScoringError, match=None) as got:
            _parse.__wrapped__(text)
        assert str(got.value) == str(e)
    else:
        assert _parse.__wrapped__(text) == want


def test_from_dict_builds_what_the_constructor_builds():
    rng = random.Random(3)
    for _ in range(300):
        data = random_winning_record(rng, "dunhill")
        rec = HandRecord.from_dict(data)
        plain = HandRecord(**{f.name: getattr(rec, f.name) for f in dataclasses.fields(HandRecord)})
        assert rec == plain
        assert rec.true_flags == plain.true_flags
        assert HandRecord.from_dict(rec.to_dict()) == rec


def test_from_dict_flags_and_defaults():
    rec = HandRecord.from_dict({"rules": "dunhill", "seat": "east", "win": "tsumo",
                                "concealed": "123p456p789p11s222z", "win_tile": "1p",
                                "double_riichi": True, "nagashi": True, "ippatsu": False,
                                "discards": None})
    assert rec.true_flags == frozenset({"double_riichi", "riichi"})
    assert rec.discards is None and rec.options == {} and rec.melds == () and rec.honba == 0
    with pytest.raises(dataclasses.FrozenInstanceError):
        rec.seat = "south"
