"""Hands read one tile off a win, mended by the reader's next choice (``scoring.mend``).

    .venv/bin/python bench/bench_mend.py [--hands 500] [--repeats 20] [--designs 8] [--frames 25]

A winner reveals a winning hand; where the tiles as read make none, the service changes the one
tile whose change, to a face the classifier gave it, makes a win (``service.mending``). This bench
counts whole hands read right, before and after, and the mends that made a hand wrong:

1. **Real tiles** (``../shared/real-tiles/camerash``, the held-out third only: never fitted on;
   ``--fitting``: the fitting two thirds instead, where the mend's bars were chosen).
   Winning closed hands (``scoring.random_hands``, dunhill's tiles: pinzu, souzu and 1z 2z 3z 5z 6z
   7z; hands with red fives left out, camerash has none), each tile shown by a random held-out crop
   of its kind, so a hand mixes designs. Each crop is named as the detector names a cut (its tile,
   and ``vision.detect.runners_up`` of the classifier's probabilities): by the classifier alone, and
   by sets of 3 crops a kind enrolled from the held-out third (``--repeats`` splits, as
   bench_tileset enrols; the hand's crops drawn from each split's other crops). And the gari: each
   crop of a gari kind (dunhill's 1m 5m 9m North) as a record's one gari tile, mended where it reads
   as a kind that is no gari (``scoring.mend.mend_gari``).
2. **Rendered tables** (needs ../shared/tiles): whole-table frames of winning hands (no melds) in
   ``--designs`` tile designs no model learnt (bench_teach's designs), read by
   ``vision.read.TableReader`` with the classifier alone: the winner's concealed tiles and winning
   tile against the truth.

Prints the figures; the model card carries them.
"""

from __future__ import annotations

import argparse
import collections
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from options import at_least, quiet_pipe  # noqa: E402

import numpy as np  # noqa: E402

from bench_tileset import split_by_kind  # noqa: E402
from scoring.engine import gari_kinds  # noqa: E402
from scoring.mend import Doubt, mend, mend_gari  # noqa: E402
from scoring.random_hands import random_winning_record  # noqa: E402
from scoring.tiles import parse_mpsz, tile_name  # noqa: E402
from vision.build.real_tiles import REAL_TILES, camerash, held_out  # noqa: E402
from vision.classifier import Classifier  # noqa: E402
from vision.detect import VIEWS, Detector, runners_up  # noqa: E402
from vision.layout import plain_kind  # noqa: E402
from vision.tileset import TileSet, square_cut  # noqa: E402

RULES = "dunhill"
GARI = frozenset(gari_kinds({"rules": RULES}))
GARI_HAND = "2p 3p 4p 6p 7p 8p 2s 3s 4s 6s 7s 8s 9s 9s".split()    # a winning hand the gari tile lies beside
SHOTS = 3
HAND_SEED = 90_000          # hand i of a part is drawn from random.Random(HAND_SEED + i)


def winning_hand(seed: int, kinds: set[str] | None = None, fits=None) -> list[str]:
    """A closed winning hand's 14 tiles under dunhill, the winning tile last: no melds, no red fives,
    every kind in ``kinds`` (when given) and the tiles ``fits`` (when given) accepts."""
    rng = random.Random(seed)
    while True:
        rec = random_winning_record(rng, RULES, p_closed=1.0)
        tiles = [tile_name(c) for c in parse_mpsz(rec["concealed"])]
        if rec.get("melds") or any(t[0] == "0" for t in tiles):
            continue
        if kinds is not None and not set(tiles) <= kinds:
            continue
        tiles.remove(rec["win_tile"])
        tiles.append(rec["win_tile"])
        if fits is None or fits(tiles):
            return tiles


def record_of(tiles: list[str]) -> dict:
    return {"rules": RULES, "seat": "east", "win": "tsumo", "concealed": "".join(tiles), "win_tile": tiles[-1]}


def same_hand(record: dict, tiles: list[str]) -> bool:
    try:
        shown = sorted(parse_mpsz(record.get("concealed", "")))
    except ValueError:
        return False
    return shown == sorted(parse_mpsz("".join(tiles))) and record.get("win_tile") == tiles[-1]


class Tally:
    """Hands read right as read and after the mend; mends made, and mends that left a hand wrong."""

    def __init__(self):
        self.n = self.read = self.mended = self.mends = self.wrong = self.one_off = 0
        self.ms: list[float] = []

    def add(self, truth: list[str], record: dict, doubts: list[Doubt]) -> None:
        """One hand: its true tiles (the winning tile last), the record as read, and the doubts of the
        tiles it was read from."""
        started = time.perf_counter()
        done = mend(record, doubts)
        self.ms.append((time.perf_counter() - started) * 1000)
        after = done.record if done else record
        self.n += 1
        self.read += same_hand(record, truth)
        self.one_off += len(doubts) == len(truth) and sum(t != d.tile for t, d in zip(truth, doubts)) == 1
        self.mended += same_hand(after, truth)
        self.mends += done is not None
        self.wrong += done is not None and not same_hand(after, truth)

    def text(self) -> str:
        return (f"{self.read}/{self.n} hands read right ({self.read / self.n:.1%}); mended "
                f"{self.mended}/{self.n} ({self.mended / self.n:.1%}); {self.one_off} hands had one tile misread; "
                f"{self.mends} mends made, {self.wrong} of them wrong; mend {np.mean(self.ms):.1f} ms mean, "
                f"{max(self.ms):.1f} ms most")

    def figures(self) -> dict:
        return {"hands": self.n, "read": self.read, "mended": self.mended, "one_off": self.one_off,
                "mends": self.mends, "wrong_mends": self.wrong, "mend_ms_mean": float(np.mean(self.ms)),
                "mend_ms_max": float(max(self.ms))}


class GariTally:
    """Crops of the rule's gari kinds, each read as a record's one gari tile (``scoring.mend.mend_gari``):
    read right, read as another gari kind (no rule tells), read off the rule and mended right, mended
    wrong, or left off the rule for the players."""

    def __init__(self):
        self.n = self.right = self.other_gari = self.off = self.mended = self.wrong = 0

    def add(self, kind: str, doubt: Doubt) -> None:
        if kind not in GARI:
            return
        self.n += 1
        if doubt.tile == kind:
            self.right += 1
            return
        if plain_kind(doubt.tile) in GARI:      # a red five is a five
            self.other_gari += 1
            return
        self.off += 1
        record, done = mend_gari({**record_of(GARI_HAND), "gari": doubt.tile}, [doubt])
        if done:
            self.mended += record["gari"] == kind
            self.wrong += record["gari"] != kind

    def text(self) -> str:
        return (f"{self.right}/{self.n} read right; {self.other_gari} read as another gari kind; {self.off} read as "
                f"no gari, of which {self.mended} mended right and {self.wrong} wrong")

    def figures(self) -> dict:
        return {"gari_crops": self.n, "right": self.right, "other_gari_kind": self.other_gari, "off_rule": self.off,
                "mended": self.mended, "wrong_mends": self.wrong}


def named_crops(classifier: Classifier, tileset: TileSet, images: list[np.ndarray],
                classifier_others: bool = False) -> list[Doubt]:
    """Each crop's tile and runners-up, as ``vision.detect`` names a cut with ``tileset`` (an empty set:
    the classifier alone; ``classifier_others``: the classifier's runners-up alone even where the set
    named the crop, as before the set gave its own)."""
    probs, embeddings = classifier.read([square_cut(i) for i in images])
    out = []
    for p, e in zip(probs, embeddings):
        named = tileset.name(p, e, classifier)
        others = runners_up(classifier.totals(p), named.tile) if classifier_others else named.others
        out.append(Doubt(named.tile, others))
    return out


def real_hands(classifier: Classifier, hands: int, repeats: int, folder: Path, fitting: bool = False,
               classifier_others: bool = False) -> dict:
    """Part 1 (module doc); ``fitting``: of the fitting two thirds instead, which the classifiers learnt
    (where ``scoring.mend``'s bars were chosen); ``classifier_others``: see ``named_crops``."""
    crops = [(kind, image) for name, kind, image in camerash() if held_out(name) != fitting]
    if not crops:
        print(f"real tiles: skipped, no {REAL_TILES}")
        return {}
    by_kind = collections.defaultdict(list)
    for i, (kind, _) in enumerate(crops):
        by_kind[kind].append(i)
    out = {}
    # the classifier alone: every held-out crop named once; each hand draws crops of its kinds
    named = named_crops(classifier, TileSet.create(folder / "none", classifier), [image for _, image in crops])
    alone = Tally()
    for h in range(hands):
        rng = random.Random(HAND_SEED + h)
        truth = winning_hand(HAND_SEED + h, set(by_kind))
        doubts = [named[rng.choice(by_kind[t])] for t in truth]
        alone.add(truth, record_of([d.tile for d in doubts]), doubts)
    print(f"real tiles ({len(crops)} {'fitting' if fitting else 'held-out'} crops of camerash), hands of {RULES}'s tiles, classifier alone: "
          f"{alone.text()}")
    out["alone"] = alone.figures()
    gari = GariTally()
    for i, (kind, _) in enumerate(crops):
        gari.add(kind, named[i])
    print(f"  gari ({RULES}'s: {' '.join(sorted(GARI))}), each crop of those kinds as one gari tile: {gari.text()}")
    out["gari_alone"] = gari.figures()
    with_set, gari_set = Tally(), GariTally()
    split_rng = np.random.default_rng(0)
    per_split = max(1, hands // repeats)
    crop_kinds = np.array([kind for kind, _ in crops])
    for r in range(repeats):
        enrol, rest = split_by_kind(crop_kinds, by_kind, SHOTS, split_rng)
        tileset = TileSet.create(folder / f"split-{r}", classifier)
        for kind in sorted(by_kind):
            tileset.enroll(kind, [crops[i][1] for i in enrol[kind]], classifier)
        left = [i for idx in rest.values() for i in idx]
        named_rest = dict(zip(left, named_crops(classifier, tileset, [crops[i][1] for i in left], classifier_others)))
        kinds = {k for k, idx in rest.items() if idx}
        for h in range(per_split):
            seed = HAND_SEED + 100_000 * (r + 1) + h
            rng = random.Random(seed)
            truth = winning_hand(seed, kinds)
            doubts = [named_rest[rng.choice(rest[t])] for t in truth]
            with_set.add(truth, record_of([d.tile for d in doubts]), doubts)
        for i in left:
            gari_set.add(crops[i][0], named_rest[i])
    print(f"  with a set of {SHOTS} crops a kind ({repeats} splits, {per_split} hands each): {with_set.text()}")
    out["with_set"] = with_set.figures()
    print(f"  gari with the sets (each split's crops not enrolled): {gari_set.text()}")
    out["gari_with_set"] = gari_set.figures()
    return out


def rendered_tables(designs: int, frames: int) -> dict:
    """Part 2 (module doc)."""
    from bench_teach import design_style, tile_art

    from calibration.markers import default_layout
    from calibration.store import TableFile
    from vision.read import TableReader
    from vision.synth.table import deal, render_deal, wall

    art = tile_art()
    if art is None:
        return {}
    layout = default_layout()
    reader = TableReader(TableFile("synthetic"), RULES, Detector())
    in_wall = collections.Counter(wall(np.random.default_rng(0)))
    fits = lambda tiles: all(in_wall[t] >= n for t, n in collections.Counter(tiles).items())  # noqa: E731
    tally = Tally()
    for d in range(designs):
        style = design_style(0, d)
        for i in range(frames):
            seed = HAND_SEED + 1000 * d + i
            truth = winning_hand(seed, fits=fits)
            rng = np.random.default_rng(seed)
            scene = render_deal(deal(rng, truth), rng, art, layout, style=style)
            reader.tracker.last_good = None                 # each frame on its own markers
            reading = reader.read(scene.image)
            tally.add(truth, reading.record, [Doubt(p.tile, p.others) for p in reading.hand])
    print(f"rendered tables ({designs} designs no model learnt x {frames} frames, classifier alone): "
          f"{tally.text()}")
    return tally.figures()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=at_least(1), default=500)
    ap.add_argument("--repeats", type=at_least(1), default=20)
    ap.add_argument("--designs", type=at_least(1), default=8)
    ap.add_argument("--frames", type=at_least(1), default=25)
    ap.add_argument("--view", choices=("overhead", "oblique"), default="overhead",
                    help="whose classifier names the real crops (the table rig's, or the seat photo's)")
    ap.add_argument("--fitting", action="store_true",
                    help="hands of the fitting two thirds' crops (the classifiers learnt them), not the held-out third")
    ap.add_argument("--classifier-others", action="store_true",
                    help="crops a set named keep the classifier's runners-up, not the set's (as before the set gave its own)")
    ap.add_argument("--no-tables", action="store_true", help="leave out part 2 (minutes of rendering)")
    a = ap.parse_args()
    classifier = Classifier(VIEWS[a.view][1])
    with tempfile.TemporaryDirectory() as tmp:
        real_hands(classifier, a.hands, a.repeats, Path(tmp), a.fitting, a.classifier_others)
    if not a.no_tables:
        rendered_tables(a.designs, a.frames)
    return 0


if __name__ == "__main__":
    quiet_pipe()
    raise SystemExit(main())
