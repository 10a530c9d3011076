"""Render the demo camera's frames: whole tables after a win, as the overhead camera sees them.

    python -m service.demo.render [--frames 6] [--seed 1] [--out service/demo/frames]

Each frame is one of scoring's random winning hands laid out by vision's
table renderer (half of them hands every house rule scores, see
``demo_scenes``): the winner's row with the winning tile set apart, melds,
gari, dora (and ura after a riichi), the other seats' hands as backs,
everybody's discards, the rim markers. The demo table
(``service.vision_reader.demo_table``: the default marker layout, no stored
fit) reads them, so ``python -m service`` counts a hand from the first tap.

The tile art is read from ``TOUTENKOU_TILE_ART`` (default ../shared/tiles) and
never committed; the frames are, with ``hands.json``: the hand record each
frame shows, as the layout stage writes it (a tsumo: the table cannot show
ron). The renderer prints how the demo table reads each frame.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

import cv2
import numpy as np

from calibration.markers import default_layout
from calibration.zones import SEATS
from scoring import ScoringError, preset_ids, score
from scoring.random_hands import random_winning_record
from vision.layout import tiles_of
from vision.synth.table import (MELD_GAP_MM, MELD_ROOM_MM, MELD_WIDTH, neighbour_side, record_of, render_deal,
                                wall)

from ..settings import DEMO_FRAMES, DEMO_HANDS


def deal_of(record: dict, rng: np.random.Generator) -> dict | None:
    """The table deal (vision.synth.table's form) that shows a winning hand record, the rest of
    the wall dealt as discards; None when the melds overrun the meld zone or a tile runs out."""
    seat = record["seat"]
    melds = record.get("melds", [])
    if sum(MELD_WIDTH[m["kind"]] + MELD_GAP_MM for m in melds) > MELD_ROOM_MM + MELD_GAP_MM:
        return None
    side_of = {s: side for side, s in neighbour_side(default_layout(), seat).items() if s}
    pool = wall(rng)
    concealed = tiles_of(record["concealed"])
    concealed.remove(record["win_tile"])             # the winning tile lies set apart, last
    concealed.append(record["win_tile"])
    d = {"seat": seat, "concealed": concealed,
         "melds": [{"kind": m["kind"], "tiles": tiles_of(m["tiles"]),
                    "side": None if m["kind"] == "ankan" else side_of[m["from"]]} for m in melds],
         "gari": tiles_of(record.get("gari", "")), "dora": tiles_of(record.get("dora_indicators", "")),
         "ura": tiles_of(record.get("ura_indicators", ""))}
    shown = d["concealed"] + [t for m in d["melds"] for t in m["tiles"]] + d["gari"] + d["dora"] + d["ura"]
    for t in shown:
        if t not in pool:
            return None
        pool.remove(t)
    if not d["dora"]:
        d["dora"] = [pool.pop()]
    d["discards"] = {s: [pool.pop() for _ in range(int(rng.integers(5, 13)))] for s in SEATS}
    return d


PRESETS = tuple(preset_ids())      # every house rule scoring ships


def scores_under(record: dict, presets) -> bool:
    """Whether the record is a hand every one of ``presets`` scores (none refuses it). Its discards
    aside: a rule's wall that cannot hold them (chinton's other suit, toutenkou's 5m) has the
    service's reader leave them out (``service.mending.vouched``); the hand is what must count."""
    hand = {k: v for k, v in record.items() if k != "discards"}
    try:
        for rules in presets:
            score({**hand, "rules": rules})
    except ScoringError:
        return False
    return True


def demo_scenes(n: int, seed: int, art):
    """``n`` (scene, record) pairs. Odd frames (1, 3, ...) show a hand every house rule scores, so a
    demo session of any rule has tables to count: the rules' walls and gari differ (chinton plays
    one suit, toutenkou has no 2-8m, balance and isshokai set aside other tiles), so these are
    one-suit hands without gari, drawn as chinton draws them. Even frames show dunhill hands
    (gari and all). Both kinds come closed and with melds (the reader reads both)."""
    rng = random.Random(seed)
    nrng = np.random.default_rng(seed)
    layout = default_layout()
    made = 0
    while made < n:
        every_rule = made % 2 == 0
        drawn = random_winning_record(rng, "chinton" if every_rule else "dunhill")
        if bool(drawn.get("melds")) != (made % 4 in (1, 2)):     # closed, melds, melds, closed, ...
            continue
        d = deal_of(drawn, nrng)
        if d is None:
            continue
        record = record_of(d, layout)
        # a yaku the table cannot show (ron, haitei, ...) or a tile a rule refuses: draw again
        if not scores_under(record, PRESETS if every_rule else ("dunhill",)):
            continue
        yield render_deal(d, nrng, art, layout), record
        made += 1


def main(argv: list[str] | None = None) -> int:
    from vision.synth.art import ArtMissing, TileArt
    from vision.layout import record_diff

    from ..reader import ReadContext
    from ..vision_reader import VisionReader, demo_table

    p = argparse.ArgumentParser(prog="python -m service.demo.render", description=__doc__.splitlines()[0])
    p.add_argument("--out", type=Path, default=DEMO_FRAMES)
    p.add_argument("--frames", type=int, default=6)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    try:
        art = TileArt()
    except ArtMissing as e:
        p.exit(2, f"error: {e}\n")
    args.out.mkdir(parents=True, exist_ok=True)
    for old in args.out.glob("frame-*.jpg"):
        old.unlink()
    reader = VisionReader(demo_table())
    hands = {}
    for i, (scene, record) in enumerate(demo_scenes(args.frames, args.seed, art)):
        path = args.out / f"frame-{i + 1:02d}.jpg"
        cv2.imwrite(str(path), scene.image, [cv2.IMWRITE_JPEG_QUALITY, 85])
        hands[path.name] = record
        reading = reader.read(cv2.imread(str(path)), ReadContext("dunhill"))
        diff = record_diff(record, dict(reading.record or {}))
        print(f"{path}: {record['concealed']}  read: {'exact' if not diff else 'differs in ' + ', '.join(diff)}")
    (args.out.parent / DEMO_HANDS.name).write_text(json.dumps(hands, indent=1, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
