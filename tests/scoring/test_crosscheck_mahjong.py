"""Cross-check: the yaku our engine finds on random dunhill hands vs the `mahjong` package.

On N_HANDS random dunhill winning hands (scoring/random_hands.py, fixed seed)
the yaku ids of ``score(record).yaku`` must equal those `mahjong` 2.1.0
(HandCalculator.estimate_hand_value) finds for the same hand, mapped to our
ids by scoring/mahjong_bridge.py (yakuhai by tile; dora, aka dora and ura dora
are items, not yaku, and are left out).

How `mahjong` is configured (scoring/mahjong_bridge.py): open tanyao on, aka
dora off, round wind East, seat wind by seat (east = dealer, so an East
triplet is both seat and round wind), tsumo / riichi / double riichi / open
riichi / ippatsu / rinshan / chankan / haitei / houtei / tenhou / chiihou from
the record's flags, kakan as SHOUMINKAN (open), ankan as a closed KAN,
double yakuman off, three-player dora order.

Which reading is compared. `mahjong` keeps the decomposition with the
highest four-player payment (han and fu, with mangan-style limits); our engine
keeps the one with the most dunhill points, which have no fu, no limits, and
other values (chanta 4/2, junchan 6/3). So the test does not compare with
`mahjong`'s own pick. It records EVERY reading `mahjong` evaluates (by
wrapping its private ``_hand_priority``, pinned to mahjong 2.1.0), values each
one by the dunhill table in RULES.md (written out below, independently of
scoring/presets/dunhill.toml), and requires our yaku to equal the yaku of a
best-valued `mahjong` reading. Where two readings tie on dunhill value with
different yaku, either one is accepted (counted and printed as "ties").
How often `mahjong`'s own pick differs from the dunhill-best reading is
printed ("reading differs"), never failed.

Rule differences, left out or adjusted (and counted in the printout):
* Yaku names: `mahjong`'s "Open Riichi" is our riichi + open_riichi (the
  dunhill open riichi counts riichi 1 + open riichi 1); "Double Open Riichi"
  is double_riichi + open_riichi. Double yakuman variants (suuankou tanki,
  junsei chuuren, kokushi 13-wait) are the one yakuman id each (dunhill
  counts every yakuman as one unit).
* all_reds: dunhill's own yakuman "a win using all six reds" (the reds in
  hand, melds and gari) is unknown to `mahjong`. For such a hand the expected
  list is `mahjong`'s yakuman (if any) + all_reds, with ordinary yaku dropped
  (dunhill: ordinary yaku are not added to a yakuman); where `mahjong` finds no
  yaku at all, ["all_reds"] alone. Random hands rarely hold all six reds, so
  ``test_crosscheck_all_reds_rule_difference`` checks three fixed ones.
* Not generated, so not checked: renhou (not a dunhill yaku), nagashi (needs
  discards; a dunhill special yakuman), open_riichi_deal_in (an option, off),
  sanshoku doujun and kokushi / shousuushii / daisuushii / chinroutou
  (impossible with 1m 5m 9m and North as gari).
* Dora, aka dora and ura dora are items, not yaku: never compared.

A mismatch prints the record (JSON) and both yaku lists. The test
``test_crosscheck_detects_a_wrong_mapping`` corrupts one name mapping and
requires the same harness to report mismatches, so the check can fail.
"""

from __future__ import annotations

import collections
import contextlib
import json
import random
import time
from typing import Any

import pytest

mahjong = pytest.importorskip("mahjong")

from mahjong.hand_calculating import hand as mj_hand  # noqa: E402
from mahjong.hand_calculating.hand import HandCalculator  # noqa: E402

from scoring import ScoringError, score  # noqa: E402
from scoring import mahjong_bridge as bridge  # noqa: E402
from scoring.random_hands import random_winning_record  # noqa: E402
from scoring.tiles import parse_mpsz  # noqa: E402

SEED = 20260522
N_HANDS = 10000

# dunhill yaku values (closed, open) from RULES.md, section dunhill; 0 = not counted open.
DUNHILL = {
    "riichi": (1, 0), "ippatsu": (1, 0), "menzen_tsumo": (1, 0), "pinfu": (1, 0),
    "tanyao": (1, 1), "iipeikou": (1, 0), "rinshan": (1, 1), "chankan": (1, 1),
    "haitei": (1, 1), "houtei": (1, 1), "double_riichi": (2, 0), "open_riichi": (1, 0),
    "chiitoitsu": (2, 0), "toitoi": (2, 2), "sanankou": (2, 2), "sankantsu": (2, 2),
    "shousangen": (2, 2), "honroutou": (2, 2), "ittsu": (2, 1), "sanshoku_doukou": (2, 2),
    "honitsu": (3, 2), "ryanpeikou": (3, 0), "chinitsu": (6, 5), "chanta": (4, 2),
    "junchan": (6, 3),
    "yakuhai_haku": (1, 1), "yakuhai_hatsu": (1, 1), "yakuhai_chun": (1, 1),
    "yakuhai_seat_wind": (1, 1), "yakuhai_round_wind": (1, 1),
}
YAKUMAN = {"kokushi", "suuankou", "daisangen", "shousuushii", "daisuushii", "tsuuiisou",
           "chinroutou", "ryuuiisou", "chuuren", "suukantsu", "tenhou", "chiihou", "all_reds"}
YAKUMAN_POINTS = 50


def dunhill_value(ids: list[str], is_open: bool) -> int:
    """Points of a reading's yaku under the dunhill table (items excluded)."""
    ym = sum(1 for y in ids if y in YAKUMAN)
    if ym:
        return ym * YAKUMAN_POINTS
    return sum(DUNHILL[y][1 if is_open else 0] for y in ids)


@contextlib.contextmanager
def all_readings():
    """Collect every reading mahjong evaluates (its yaku lists), pinned to mahjong 2.1.0."""
    seen: list[list[Any]] = []
    orig = mj_hand._hand_priority

    def spy(h):
        key = id(h)
        if key not in ids_seen:
            ids_seen.add(key)
            seen.append(list(h["hand_yaku"]))
        return orig(h)

    ids_seen: set[int] = set()
    mj_hand._hand_priority = spy
    try:
        yield seen, ids_seen
    finally:
        mj_hand._hand_priority = orig


def holds_all_reds(rec: dict) -> bool:
    tiles = parse_mpsz(rec["concealed"]) + parse_mpsz(rec.get("gari") or "")
    for m in rec.get("melds") or ():
        tiles += parse_mpsz(m["tiles"])
    c = collections.Counter(t for t in tiles if t >= 34)
    return all(c[r] >= 2 for r in (34, 35, 36))


def to_ids(yaku_list, seat: str, name_map: dict) -> list[str]:
    out: list[str] = []
    for y in yaku_list:
        name = y.name
        if name in bridge.ITEM_NAMES:
            continue
        if name.startswith("Yakuhai (seat wind"):
            out.append("yakuhai_seat_wind")
        elif name.startswith("Yakuhai (round wind"):
            out.append("yakuhai_round_wind")
        else:
            out.extend(name_map[name])
    return sorted(out)


def crosscheck(records: list[dict], name_map: dict | None = None) -> dict[str, Any]:
    """Compare our yaku with mahjong's on ``records``; returns counts and the mismatches."""
    name_map = bridge.NAME_TO_IDS if name_map is None else name_map
    rep: dict[str, Any] = collections.defaultdict(int)
    rep["mismatches"] = []
    rep["tie_examples"] = []
    for rec in records:
        args = bridge.to_mahjong(rec)
        is_open = any(m["kind"] != "ankan" for m in rec.get("melds") or ())
        with all_readings() as (readings, _):
            resp = HandCalculator.estimate_hand_value(**args.kwargs())
        try:
            res = score(rec)
            ours = sorted(res.yaku)
            ours_err = None
            n_ym = sum(1 for y in ours if y in YAKUMAN)
            if res.yakuman != n_ym:
                ours_err = f"yakuman count {res.yakuman} for yaku {ours}"
        except ScoringError as e:  # an engine refusal of a legal winning hand
            ours, ours_err = [], f"ScoringError: {e}"
        except Exception as e:  # noqa: BLE001 - an engine crash is a mismatch too
            ours, ours_err = [], f"{type(e).__name__}: {e}"

        reds = holds_all_reds(rec)
        if resp.error == HandCalculator.ERR_NO_YAKU and reds:
            # no standard yaku, but dunhill's all_reds yakuman makes it a win
            rep["all_reds_adjusted"] += 1
            if ours_err is None and ours == ["all_reds"]:
                rep["agree"] += 1
            else:
                rep["mismatches"].append((rec, ours_err or ours, [["all_reds"]], []))
            continue
        if resp.error:
            rep["mahjong_error"] += 1
            rep["mismatches"].append((rec, ours_err or ours, f"mahjong error {resp.error}", []))
            continue
        cands = [to_ids(r, rec["seat"], name_map) for r in readings]
        cands = [c for c in cands if c]  # readings without a yaku are not wins
        if reds:
            rep["all_reds_adjusted"] += 1
            cands = [sorted([y for y in c if y in YAKUMAN] + ["all_reds"]) for c in cands]
        best = max(dunhill_value(c, is_open) for c in cands)
        accepted = []
        for c in cands:
            if dunhill_value(c, is_open) == best and c not in accepted:
                accepted.append(c)
        mj_pick = to_ids(resp.yaku, rec["seat"], name_map)
        if reds:
            mj_pick = sorted([y for y in mj_pick if y in YAKUMAN] + ["all_reds"])
        if mj_pick not in accepted:
            rep["reading_differs"] += 1
        if len(accepted) > 1:
            rep["ties"] += 1
        if ours_err is None and ours in accepted:
            rep["agree"] += 1
            if len(accepted) > 1 and len(rep["tie_examples"]) < 3:
                rep["tie_examples"].append((rec, ours, accepted))
        else:
            rep["mismatches"].append((rec, ours_err or ours, accepted, mj_pick))
    rep["hands"] = len(records)
    return rep


def format_mismatch(m) -> str:
    rec, ours, accepted, mj_pick = m
    return (f"  record: {json.dumps(rec, ensure_ascii=False)}\n"
            f"    ours:    {ours}\n"
            f"    mahjong (best dunhill reading(s)): {accepted}\n"
            f"    mahjong (its own pick):            {mj_pick}")


def print_report(rep: dict, seconds: float) -> None:
    print(f"\ncross-check vs mahjong 2.1.0: {rep['hands']} dunhill hands in {seconds:.1f}s: "
          f"{rep['agree']} agree, {len(rep['mismatches'])} mismatch(es); "
          f"ties between equal-value readings {rep['ties']}, mahjong's own pick differs from the "
          f"dunhill-best reading {rep['reading_differs']}, all_reds adjusted {rep['all_reds_adjusted']}, "
          f"mahjong errors {rep['mahjong_error']}")
    for rec, ours, accepted in rep["tie_examples"]:
        print(f"  tie example: ours {ours}, accepted {accepted}")


@pytest.fixture(scope="module")
def records() -> list[dict]:
    rng = random.Random(SEED)
    return [random_winning_record(rng, "dunhill") for _ in range(N_HANDS)]


def test_crosscheck_yaku_against_mahjong(records):
    t0 = time.perf_counter()
    rep = crosscheck(records)
    print_report(rep, time.perf_counter() - t0)
    mism = rep["mismatches"]
    if mism:
        classes = collections.Counter()
        for rec, ours, accepted, _ in mism:
            best = accepted[0] if isinstance(accepted, list) and accepted else []
            if isinstance(ours, str):
                classes[ours.split(":")[0]] += 1
            else:
                key = (tuple(sorted(set(ours) - set(best))), tuple(sorted(set(best) - set(ours))))
                classes[f"ours extra {list(key[0])} / missing {list(key[1])}"] += 1
        lines = [f"{n} x {k}" for k, n in classes.most_common()]
        shown = "\n".join(format_mismatch(m) for m in mism[:25])
        pytest.fail(f"{len(mism)} of {len(records)} hands disagree with mahjong:\n"
                    + "\n".join(lines) + "\nfirst ones:\n" + shown)


def test_crosscheck_detects_a_wrong_mapping(records):
    """The harness itself must be able to fail: a wrong name map gives mismatches."""
    wrong = dict(bridge.NAME_TO_IDS)
    wrong["Honitsu"] = ("chinitsu",)   # deliberately wrong
    wrong["Chantai"] = ("junchan",)
    rep = crosscheck(records[:400], wrong)
    assert len(rep["mismatches"]) > 0


def test_generator_hands_are_wins_with_yaku_for_mahjong(records):
    """Every generated hand is a legal win with a yaku by standard rules (mahjong agrees)."""
    bad = []
    for rec in records:
        resp = HandCalculator.estimate_hand_value(**bridge.to_mahjong(rec).kwargs())
        if resp.error:
            bad.append((resp.error, rec))
    assert not bad, bad[:5]


def test_crosscheck_all_reds_rule_difference():
    """The all_reds adjustment (a dunhill-only yakuman) is exercised on fixed hands."""
    base = {"rules": "dunhill", "seat": "south", "win": "ron", "discarder": "east",
            "concealed": "340p055p340s055s22z", "win_tile": "3p", "gari": "00m"}
    hands = [base, dict(base, riichi=True), dict(base, concealed="340p055p340s05s555z", win_tile="5z")]
    rep = crosscheck(hands)
    assert rep["all_reds_adjusted"] == 3
    assert not rep["mismatches"], "\n".join(format_mismatch(m) for m in rep["mismatches"])
