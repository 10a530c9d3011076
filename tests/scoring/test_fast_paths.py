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


def test_cached_is_closed_matches_the_melds():
    rng = random.Random(5)
    for _ in range(200):
        rec = HandRecord.from_dict(random_winning_record(rng, "dunhill"))
        plain = HandRecord(**{f.name: getattr(rec, f.name) for f in dataclasses.fields(HandRecord)})
        assert rec.is_closed == plain.is_closed == all(not m.is_open for m in rec.melds)


def test_units_asked_only_when_they_can_hold():
    """A unit's ``needs`` says when the engine may skip it: check that it then says 0."""
    from scoring.engine import _hand, _placements
    from scoring import decompose, load_preset
    from scoring.table import Table
    from scoring.validate import tally
    from scoring.yaku import SIMPLE_MASK, YAKU, YAKUMAN
    t = Table.of(load_preset("dunhill"))
    rng = random.Random(11)
    for _ in range(400):
        data = random_winning_record(rng, "dunhill")
        data.pop("riichi", None), data.pop("double_riichi", None), data.pop("open_riichi", None)
        for f in ("ippatsu", "rinshan", "chankan", "haitei", "houtei", "tenhou", "chiihou", "renhou"):
            data.pop(f, None)
        data.pop("ura_indicators", None)
        rec = HandRecord.from_dict(data)
        c = tally(rec)
        hand = _hand(rec, t, c.concealed, c)
        assert not hand.flags
        for y in YAKU + YAKUMAN:
            if y.needs == "flags":
                assert y.test(hand, None) == 0, y.id
            if (y.needs == "one_suit" and hand.suit is None
                    or y.needs == "no_simples" and hand.mask & SIMPLE_MASK):
                assert y.test(hand, None) == 0, y.id
        # A flag unit says 0 unless one of the flags it names is set.
        for flag in ("riichi", "double_riichi", "open_riichi", "ippatsu", "rinshan", "chankan",
                     "haitei", "houtei", "tenhou", "chiihou", "renhou"):
            flagged = hand._replace(flags=frozenset({flag}))
            for y in YAKU + YAKUMAN:
                if y.needs == "flags" and flag not in y.flags:
                    assert y.test(flagged, None) == 0, (y.id, flag)
        meld_trips = tuple((m.tile_kind, not m.is_open, m.is_kan) for m in rec.melds)
        w = rec.win_tile if rec.win_tile < 34 else (4, 13, 22)[rec.win_tile - 34]
        for std in decompose.standard_readings(c.concealed, 4 - len(rec.melds)):
            for r in _placements(std, meld_trips, w, hand.tsumo):
                for y in YAKU + YAKUMAN:
                    if (y.needs == "three_trips" and len(r.trip_kinds) < 3
                            or y.needs == "seqs" and not r.seqs
                            or y.needs == "dragon_trips" and not {31, 32, 33} & set(r.trip_kinds)
                            or y.needs == "wind_trips" and not {27, 28, 29, 30} & set(r.trip_kinds)):
                        assert y.test(hand, r) == 0, y.id


def test_split_needs_keep_the_preset_order_of_lines():
    """Dragon and wind triplet units are asked apart but counted in the preset's order."""
    from scoring import score
    r = score({"rules": "balance", "seat": "south", "win": "ron", "concealed": "999p55566677z",
               "win_tile": "9p", "melds": [{"kind": "pon", "tiles": "222z", "from": "east"}],
               "discarder": "west", "gari": "9m", "dora_indicators": "56p", "honba": 2})
    assert r.yaku == ("honitsu", "toitoi", "yakuhai_haku", "yakuhai_hatsu", "yakuhai_seat_wind", "shousangen")
