"""The engine still scores what it scored when this reference was frozen (a guard for speed work).

tests/scoring/data/speed_reference.jsonl holds 2,000 records (400 per preset:
random hands and hands adapted to the preset, refusals included) with the
total, the yaku and a digest of the whole ``Result.to_dict()`` (items, reading,
payments) that the engine gave when the file was written (main at 5378b7f). Every one must come out
the same. speed_reference.py writes the file and checks larger mixes.
"""

from pathlib import Path

from speed_reference import check

DATA = Path(__file__).parent / "data" / "speed_reference.jsonl"


def test_every_reference_record_scores_as_before():
    n, bad = check(str(DATA))
    assert n == 2000
    assert not bad, f"{len(bad)} of {n} differ, first: {bad[0]}"
