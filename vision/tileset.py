"""A table's own tile set: crops of the table's real tiles, named by the nearest enrolled kind.

Every parlour's set has its own glyphs, ink and back colour; the classifier learnt
one rendered design. Shown a few crops of each kind of the table's own tiles, the
set names a cut by the kind whose enrolled crops it looks most like, on the
classifier's embedding (``vision.classifier``: its pooled features and an earlier
stage's map, and a discriminant of them fitted on real tiles of many sets,
``vision/build/projection.py``). The
rule, per cut:

- each enrolled kind has two prototypes, upright and upside down: the sum of its
  crops' unit embeddings (each crop also seen with small shifts, light and blur) and
  of the kind's prior (the classifier's ``priors``: the kind's mean over real tiles
  of many makers, where the classifier file has them) weighed as ``PRIOR_WEIGHT``
  crops but never more than the kind's own crops less one (``prior``), made of unit
  length: a kind of two or three crops leans on what it looks like across makers,
  one enrolled once keeps to its crop, one that has learnt many hardly moves;
- the cut's cosine similarity to each kind (the likelier way up) goes through a
  softmax at ``TEMPERATURE``; the set is *sure* when its best kind has ``SURE`` or more;
- where the set is sure it names the tile, unless the classifier alone is surer
  than ``BASE_SURE`` of a kind the set has no crops of, or reads a back and the set
  holds none (a set taught from faces alone: before the teach page's back row, or
  from a photo), or the cut lies nearer the prior of a kind the set has no crops of
  than the set's pick (``Looks.rival``: a set of a few kinds pulled tiles of the
  others onto its own); elsewhere the classifier names it;
- a five is red or plain by the set alone only when the set holds both (``5p`` and
  ``0p``); with one of them, the classifier says which (plain where it sees neither);
- a cut the set named otherwise than the players confirmed is *fixed* (``FIXED``):
  learnt always, and a prototype of its own; a cut ``TWIN`` like a fixed one is
  named as it was fixed, whatever the rule (the tile fixed once is read right the
  next time), its five's colour excepted. A fix that a crop of another kind looks
  ``TWIN`` like is learnt into its kind's mean only, unless those crops are
  earlier fixes, which it overrules (``_contradicted``; ``forget`` of the count
  restores them);
- a cut named 白 is a back when its colour lies nearer the set's backs than its 白, where the set
  holds both (``back_or_blank``): a pale back is a blank face to a classifier, and only its colour
  differs;
- the set checks itself (``rule``): each of its crops is named without itself by
  that rule, by the set and classifier fused, and by the classifier alone; the one
  that names most right is used (the rule above on a tie). A set whose crops vary
  more within a kind than between kinds so steps back. A set with too few crops to
  tell (one a kind: the teach page's rows, a single photo) shares the naming with
  the classifier (fused): untried, it is trusted neither alone nor not at all.

On disk a set is a folder (``SET``): ``index.json`` (its format, the classifier it
was built on, each kind's crops, the log of updates), ``embeddings.npz`` (each
crop's two unit embeddings and the classifier's probabilities), and
``crops/<kind>/<n>.png``, the source images. A set built on another classifier is
stale (``StaleTileSet``) until rebuilt from its crops (``rebuild``).

Learning from confirmed counts (``learn``): the cuts of a confirmed reading, named
as confirmed, join the set, at most ``MAX_LEARNT`` a kind (the most recent half,
then the most unlike the kind's prototype) and ``MAX_FIXED`` fixed ones (the
newest). Every fifth cut the set named right, by its file name, is kept out of the
prototypes: an update is checked on all kept-out cuts and refused (and logged) when
it would name fewer of them right.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import logging
import zlib
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Iterable, Iterator, Mapping, Sequence

import cv2
import numpy as np

from .classes import BACK, BLANK, CLASSES, REDS
from .classifier import ranked_runners_up, unit
from .crop import CLS_SIZE, MARGIN, with_margin
from .runtime import one_blas_thread

log = logging.getLogger(__name__)
FORMAT = 1
INDEX = "index.json"
EMBEDDINGS = "embeddings.npz"
WRITING = ".writing"            # the lock a writer holds from load to save (``writing``)
KINDS = CLASSES                 # 34 kinds, the three red fives and ``back``
TEMPERATURE = 0.03              # the softmax over cosine similarities (they lie close together)
SURE = 0.5                      # the set names a cut when its best kind has this much
BASE_SURE = 0.9                 # ... unless the classifier is this sure of a kind the set lacks (a set taught
                                # from one photo lacks many: it must not pull their tiles onto its kinds)
AUGMENTS = 6                    # extra views of each enrolled crop
PRIOR_WEIGHT = 2.0              # a kind's prior (classifier.priors) counts as this many of its crops in a prototype
MIN_CHECKED = 12                # crops the set must name without themselves to choose its rule; fewer: fused (``rule``)
MAX_LEARNT = 20                 # learnt crops kept per kind (enrolled crops are always kept)
MAX_KEPT_OUT = 6                # kept-out cuts kept per kind
MAX_FIXED = 10                  # fixed cuts (the set named them otherwise) kept per kind, the newest
MIDDLE_MANZU = ("2m", "3m", "4m", "6m", "7m", "8m")     # not in a 三人花 wall (1m 5m 9m only)
TWIN = 0.95                     # a cut this like a fixed cut is that tile again: on camerash a cut lies 0.96 or more
                                # from its own stored embedding (1st percentile), 0.91 or less from any other kind (99th)
KEPT_OUT_EVERY = 5              # one learnt cut in this many is kept out, by its name's hash
MIN_WIDTH = 12                  # px: a crop narrower than this holds no readable face
KEEP_SIDE = 192                 # px: crops are stored no longer than this a side (the classifier reads 64)
IMAGE_TYPES = (".png", ".jpg", ".jpeg")
RED_SEEN = 0.01                 # the classifier's least share of a red five for a set of one colour to name it red
COLOURS_APART = 20.0            # Lab units (8-bit): a set whose backs and 白 lie closer in colour leaves them as named

ENROLLED, LEARNT, KEPT_OUT, FIXED = "enrolled", "learnt", "kept-out", "fixed"
# how a set weighs itself against the classifier (``TileSet.rule``): its own rule (module doc), the
# two fused (the set's softmax times the classifier's probability, per kind), or the classifier alone
SET, FUSED, BASE = "set", "fused", "base"
RULES = (SET, FUSED, BASE)


class TileSetError(ValueError):
    """Bad input for a tile set, said in one line naming what is wrong."""


class StaleTileSet(TileSetError):
    """The set was built on another classifier: its prototypes mean nothing to this one."""


class DamagedEmbeddings(TileSetError):
    """The set's index reads, its ``embeddings.npz`` does not: rebuilt from the crops (``ready``)."""


@dataclass(frozen=True)
class Naming:
    """What one cut was named: the tile (mpsz, ``back``), how sure (0..1), upside down, by whom
    (``set``, ``fused`` or ``base``, the classifier alone), and the next likeliest faces
    (``classifier.runners_up``), where ``scoring.mend`` looks for a misread tile's true face: where the
    set named the tile, those the set or the classifier gives, each at the larger share of the two (the
    set knows the table's design, the classifier every design it learnt: on camerash's held-out third
    each offered true faces the other did not, bench/bench_mend.py)."""

    tile: str
    score: float
    flipped: bool
    by: str
    others: tuple[tuple[str, float], ...] = ()


@dataclass(frozen=True)
class Update:
    """One ``learn`` call: whether it was taken, how many cuts it brought, and the kept-out cuts
    (of ``checked``) named right before and after: as the table names them (``right_``), and by the
    set's prototypes alone (``own_``: a classifier sure of those cuts hides a set gone wrong, which
    would show the first time it is unsure)."""

    accepted: bool
    added: int
    kept_out: int
    checked: int
    right_before: int
    right_after: int
    reason: str = ""
    own_before: int = 0
    own_after: int = 0


@dataclass
class Crop:
    file: str                   # relative to the set's folder
    source: str                 # enrolled, learnt, kept-out or fixed
    added: str                  # ISO time
    origin: str = ""            # learnt or kept out: the confirmed count it came from (``learn``)
    overruled: str = ""         # a fix made a learnt crop by a later count's fix: that count (``forget`` restores it)


def _crops_of(kinds) -> dict[str, list[Crop]]:
    """An index's ``kinds``, checked: kind -> its crops, each a file under the set's crops/ folder."""
    if not isinstance(kinds, dict):
        raise TypeError('"kinds" must be an object')
    out = {}
    for kind, crops in kinds.items():
        if kind not in KINDS or not isinstance(crops, list) or not all(isinstance(c, dict) for c in crops):
            raise TypeError(f"kind {kind!r}: a kind (mpsz, or back) with a list of crops")
        out[kind] = [Crop(**c) for c in crops]
        for c in out[kind]:
            if not all(isinstance(v, str) for v in (c.file, c.source, c.added)):
                raise TypeError(f"a crop of {kind}: file, source and added are strings")
            if not c.file.startswith("crops/") or ".." in Path(c.file).parts:
                raise ValueError(f"a crop of {kind}: {c.file!r} is not a file under the set's crops/")
    return out


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


@dataclass(frozen=True)
class Prototypes:
    """Each enrolled kind's two prototypes, in ``kinds``' order: ``up`` and ``down`` (K x D unit rows,
    the means of its crops' upright and upside-down embeddings)."""

    kinds: tuple[str, ...]
    up: np.ndarray
    down: np.ndarray
    # the priors of the kinds the set lacks (upright over upside down, L x D each): what a tile of a
    # kind it was never shown looks like across makers (``Looks.rival``)
    lacking: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), np.float32), repr=False)
    # the fixed cuts (``FIXED``), each a prototype of its kind of its own: upright and upside down (E x D
    # each), and the index in ``kinds`` of each one's kind. A cut is as like a kind as its nearest of them
    fixed_up: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), np.float32), repr=False)
    fixed_down: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), np.float32), repr=False)
    fixed_kind: np.ndarray = field(default_factory=lambda: np.zeros(0, np.intp), repr=False)
    # up, down, the fixed cuts both ways and the lacking kinds' priors: one product a cut
    both: np.ndarray = field(init=False, repr=False)

    def __post_init__(self) -> None:
        rows = [self.up, self.down] + [m for m in (self.fixed_up, self.fixed_down, self.lacking) if len(m)]
        object.__setattr__(self, "both", np.concatenate(rows).astype(np.float32))

    def looks(self, embedding) -> "Looks":
        """How N cuts' embeddings (N x D) lie among the set's rows, from one product (what a frame's
        naming costs): each kind's upright and upside-down cosine (a kind is as near as its mean or
        the nearest of its fixed cuts), the best cosine with a kind the set lacks, and the nearest
        fixed cut (``Looks``)."""
        e = np.asarray(embedding, np.float32)
        if not self.kinds:                                  # nothing enrolled: nothing to be like
            empty = np.zeros(e.shape[:-1] + (0,), np.float32)
            return Looks(empty, empty)
        with one_blas_thread():                             # one small product: threads only wait (runtime)
            s = e @ self.both.T
        # the product divided by each cut's length, rather than each cut scaled first: no copy of the
        # cuts' embeddings (3,402 values each), the same cosines
        length = np.sqrt(np.einsum("...d,...d->...", e, e))[..., None]
        s /= np.where(length > 0, length, 1)
        k, f = len(self.kinds), len(self.fixed_kind)
        su, sd = s[..., :k], s[..., k:2 * k]
        fixed_up, fixed_down = s[..., 2 * k:2 * k + f], s[..., 2 * k + f:2 * k + 2 * f]
        rival = s[..., 2 * k + 2 * f:].max(axis=-1) if len(self.lacking) else None
        twins = None
        if f:
            su, sd = su.reshape(-1, k).copy(), sd.reshape(-1, k).copy()
            np.maximum.at(su, (slice(None), self.fixed_kind), fixed_up.reshape(-1, f))
            np.maximum.at(sd, (slice(None), self.fixed_kind), fixed_down.reshape(-1, f))
            su, sd = su.reshape(s.shape[:-1] + (k,)), sd.reshape(s.shape[:-1] + (k,))
            either = np.maximum(fixed_up, fixed_down)
            best = either.argmax(axis=-1)
            twins = np.take_along_axis(either, best[..., None], axis=-1)[..., 0], self.fixed_kind[best]
        return Looks(su, sd, rival, twins)

    def similarities(self, embedding) -> tuple[np.ndarray, np.ndarray]:
        """A cut's cosine with each kind's upright prototype and with its upside-down one; of N cuts'
        embeddings (N x D), two N x K arrays (``looks``)."""
        looks = self.looks(embedding)
        return looks.up, looks.down


@dataclass(frozen=True)
class Looks:
    """N cuts among a set's prototypes (``Prototypes.looks``): cosines with each kind upright and
    upside down (N x K each); ``rival``, the best cosine with a kind the set lacks (None: it lacks
    none with a prior); ``twins``, the nearest fixed cut's cosine and its kind's index (None: no fix)."""

    up: np.ndarray
    down: np.ndarray
    rival: np.ndarray | None = None
    twins: tuple[np.ndarray, np.ndarray] | None = None


def prior(classifier, kind: str, crops: int) -> tuple[np.ndarray | float, np.ndarray | float]:
    """What ``kind``'s prior adds to its prototypes made of ``crops`` of its crops, upright and upside
    down: the classifier's prior for the kind (its mean over real tiles of many makers,
    ``Classifier.priors``) weighed as ``PRIOR_WEIGHT`` crops, but never as more than the kind's own
    crops less one: a kind enrolled once keeps to its one crop (a design unlike the fit's makers is
    pulled off its own tiles by a prior that outweighs them: bench/bench_teach.py). 0 where the
    classifier has none for it (red fives and backs, which no maker's tiles of that fit hold, and a
    classifier file without priors)."""
    got = classifier.priors.get(kind)
    weight = min(PRIOR_WEIGHT, crops - 1)
    if got is None or weight <= 0:
        return 0.0, 0.0
    return weight * got[0], weight * got[1]


def _base(tile: str, totals: np.ndarray, probs: np.ndarray, classifier) -> Naming:
    """A cut named ``tile`` by the classifier alone (``totals``: its shares of the faces)."""
    return Naming(tile, float(totals[classifier.faces.index(tile)]), classifier.upside_down(probs, tile), BASE,
                  ranked_runners_up(totals, classifier.faces, tile))


def _red_or_plain(tile: str, kinds: Sequence[str], totals: np.ndarray, col: Mapping[str, int]) -> str:
    """A five named by a set that holds only one of its plain and red forms: the classifier says which.
    Where it sees no five of either colour (``RED_SEEN``), plain: a red five is paid, and the set
    alone never says so."""
    if tile[0] not in "05" or tile[1] == "z":
        return tile
    plain, red = "5" + tile[1], "0" + tile[1]
    if plain in kinds and red in kinds:
        return tile
    share = lambda k: float(totals[col[k]]) if k in col else 0.0      # noqa: E731
    return red if share(red) > max(share(plain), RED_SEEN) else plain


def _same_five(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` are the red and the plain five of one suit (or the same five)."""
    return a[1:] == b[1:] and a[0] in "05" and b[0] in "05" and a[1] != "z"


def square_cut(image: np.ndarray) -> np.ndarray:
    """An upright tile image as the classifier's square input (the whole image, squashed, as
    ``vision.crop.cut_tile`` squashes a box)."""
    return cv2.resize(image, (CLS_SIZE, CLS_SIZE), interpolation=cv2.INTER_AREA)


def stored(image: np.ndarray) -> np.ndarray:
    """A crop as the set keeps it: no longer than ``KEEP_SIDE`` a side (enough to rebuild from)."""
    h, w = image.shape[:2]
    s = KEEP_SIDE / max(h, w)
    return image if s >= 1 else cv2.resize(image, (round(w * s), round(h * s)), interpolation=cv2.INTER_AREA)


def _pixels(image: np.ndarray | None) -> bytes:
    """A crop's pixels, as a short digest (an image that did not read: nothing any crop matches)."""
    if image is None:
        return b""
    return hashlib.blake2b(repr(image.shape).encode() + np.ascontiguousarray(image).tobytes(), digest_size=16).digest()


def views(image: np.ndarray, count: int, seed: int) -> list[np.ndarray]:
    """The crop and ``count`` variants of it: edges moved by -6..+8% (a locator's box is never
    exact), light scaled 0.75-1.2x and shifted, half of them blurred a little."""
    rng = np.random.default_rng(seed)
    h, w = image.shape[:2]
    out = [image]
    for _ in range(count):
        m = rng.uniform(-0.06, 0.08, 4)
        pad = [max(0, int(-m[1] * h)), max(0, int(-m[3] * h)), max(0, int(-m[0] * w)), max(0, int(-m[2] * w))]
        big = cv2.copyMakeBorder(image, *pad, cv2.BORDER_REPLICATE)
        y1, x1 = pad[0] + int(m[1] * h), pad[2] + int(m[0] * w)
        y2, x2 = pad[0] + h - int(m[3] * h), pad[2] + w - int(m[2] * w)
        v = big[max(0, y1):y2, max(0, x1):x2].astype(np.float32) * rng.uniform(0.75, 1.2) + rng.uniform(-20, 20)
        v = np.clip(v, 0, 255).astype(np.uint8)
        out.append(cv2.GaussianBlur(v, (3, 3), 0) if rng.random() < 0.5 else v)
    return out


def embeddings(items: Sequence[tuple[str, np.ndarray]], classifier
               ) -> dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Per named crop (name, BGR image as stored): its two unit embeddings, upright and upside down,
    each the mean over its ``views`` (seeded by the name), and the classifier's probabilities of it."""
    if not items:
        return {}
    cuts, owners = [], []
    for k, (name, image) in enumerate(items):
        for v in views(image, AUGMENTS, seed=zlib.crc32(name.encode())):
            cut = square_cut(v)
            cuts += [cut, cv2.rotate(cut, cv2.ROTATE_180)]
            owners += [k, k]
    probs, emb = classifier.read(cuts)
    emb = unit(emb)
    owners = np.array(owners)
    out = {}
    for k, (name, _) in enumerate(items):
        mine = np.where(owners == k)[0]
        out[name] = (unit(emb[mine[0::2]].mean(axis=0)), unit(emb[mine[1::2]].mean(axis=0)), probs[mine[0]])
    return out


def middle_colour(image: np.ndarray) -> np.ndarray:
    """A tile image's colour at its middle: the median, in Lab (8-bit), of the middle half each way of
    its square cut. On a back it is the back's colour; on 白 the blank face's, inside any frame."""
    cut = square_cut(image)
    q = CLS_SIZE // 4
    # the median of 8 x 8 means (a seventh of the time of the pixels' own: a pale table's walls read as 白)
    small = cv2.resize(cut[q:CLS_SIZE - q, q:CLS_SIZE - q], (8, 8), interpolation=cv2.INTER_AREA)
    return np.median(cv2.cvtColor(small, cv2.COLOR_BGR2LAB).reshape(-1, 3), axis=0).astype(np.float32)


def read_image(path: Path) -> np.ndarray:
    """A crop from disk, BGR; ``TileSetError`` naming the file when it is no readable image or too small."""
    if not path.exists():
        raise TileSetError(f"{path}: no such file")
    if path.is_dir():
        raise TileSetError(f"{path}: a folder, not an image of one tile")
    try:
        data = path.read_bytes() if path.is_file() else b""
    except OSError as e:
        raise TileSetError(f"{path}: cannot be read ({e.strerror or e})") from None
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR) if data else None
    if image is None:        # decoded from memory: a file cut short is refused (imread showed its rest grey)
        raise TileSetError(f"{path}: not a readable image (png or jpg; one cut short, copy it again)")
    if image.shape[1] < MIN_WIDTH or image.shape[0] < MIN_WIDTH:
        raise TileSetError(f"{path}: {image.shape[1]}x{image.shape[0]} px is too small for a tile "
                           f"(at least {MIN_WIDTH} px a side; about 20 px wide or more reads well)")
    return image


def _clutter(path: Path) -> bool:
    """What a Mac's zip or a file browser leaves beside crops: ``__MACOSX/``, hidden folders such as
    ``.thumbnails/``, AppleDouble ``._x.jpg`` files (no image)."""
    return path.name.startswith(".") or path.name == "__MACOSX"


def crops_in(folder: Path) -> dict[str, list[Path]]:
    """``folder/<kind>/*.png|jpg`` by kind. ``TileSetError`` for a missing folder, a sub-folder not
    named as a kind, an empty one, or no crops at all."""
    if not folder.is_dir():
        raise TileSetError(f"{folder}: not a folder of crops (it should hold one folder per kind: 1m, 0p, 5z, ...)")
    out: dict[str, list[Path]] = {}
    for sub in sorted(p for p in folder.iterdir() if p.is_dir() and not _clutter(p)):
        if sub.name not in KINDS:
            raise TileSetError(f"{sub}: not named as a kind (use mpsz: 1m-9m, 1p-9p, 1s-9s, 1z-7z, "
                               f"0m 0p 0s for red fives, or back)")
        files = sorted(p for p in sub.iterdir() if p.suffix.lower() in IMAGE_TYPES and not _clutter(p))
        if not files:
            raise TileSetError(f"{sub}: no png or jpg crops in it")
        out[sub.name] = files
    if not out:
        raise TileSetError(f"{folder}: no kind folders in it (1m/, 0p/, 5z/, ... each holding crops)")
    return out


def _kept_out(name: str) -> bool:
    return zlib.crc32(name.encode()) % KEPT_OUT_EVERY == 0


@dataclass
class TileSet:
    """A table's tile set, loaded in memory. ``folder`` is where it lives."""

    folder: Path
    base: dict                                   # {"view": camera view, "classifier": file name, "id": hash}
    crops: dict[str, list[Crop]] = field(default_factory=dict)
    log: list[dict] = field(default_factory=list)
    # per crop file: (upright unit embedding, upside-down unit embedding, classifier probabilities)
    vectors: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]] = field(default_factory=dict, repr=False)
    # per crop file: its ``middle_colour`` (of the image given, or read from its file when first needed)
    colours: dict[str, np.ndarray] = field(default_factory=dict, repr=False)
    _protos: Prototypes | None = field(default=None, repr=False)
    _pale: tuple[np.ndarray, np.ndarray] | None | bool = field(default=False, repr=False)
    _rule: str | None = field(default=None, repr=False)
    # crop files taken out since the last save, deleted once the index without them is saved: a
    # failure before that leaves the folder as its index says
    _trash: list[str] = field(default_factory=list, repr=False)

    # ---- making, loading, saving -------------------------------------------------------------------

    @classmethod
    def create(cls, folder: Path, classifier, view: str = "overhead") -> "TileSet":
        return cls(Path(folder), {"view": view, "classifier": classifier.path.name, "id": classifier.id})

    @property
    def view(self) -> str:
        """The camera view whose classifier the set is built on (``vision.detect.VIEWS``);
        ``TileSetError`` for an index edited to name another (it says how to rebuild the set)."""
        from .detect import VIEWS

        view = self.base.get("view", "overhead")
        if view not in VIEWS:
            raise TileSetError(f"{self.folder / INDEX}: built for the view {view!r}, which is none of "
                               f"{', '.join(VIEWS)}; rebuild it on one: python -m vision tileset rebuild "
                               f"{self.folder} --view overhead")
        return view

    @classmethod
    def load(cls, folder: Path, vectors: bool = True) -> "TileSet":
        """The set saved in ``folder``; ``TileSetError`` when there is none or it is not one.
        ``vectors=False`` reads its index alone (what it holds, not its embeddings: it names nothing)."""
        folder = Path(folder)
        index = folder / INDEX
        if not index.is_file():
            raise TileSetError(f"{folder}: no tile set there (no {INDEX}); make one with "
                               f"python -m vision tileset enroll {folder} --crops DIR")
        try:
            data = json.loads(index.read_text(encoding="utf-8"))
            if not isinstance(data, dict):
                raise TypeError("not a JSON object")
            if data.get("format") != FORMAT:
                raise TileSetError(f"{index}: format {data.get('format')!r}, this version reads {FORMAT}")
            crops, base, log = _crops_of(data["kinds"]), data["base"], data.get("log", [])
            if not isinstance(base, dict) or not isinstance(log, list):
                raise TypeError('"base" must be an object and "log" a list')
        except TileSetError:
            raise
        except (ValueError, KeyError, TypeError) as e:      # UnicodeDecodeError and JSON's errors are ValueErrors
            raise TileSetError(f"{index}: not a tile set index ({e})") from None
        except RecursionError:
            raise TileSetError(f"{index}: not a tile set index (nested too deeply)") from None
        out = cls(folder, base, crops, list(log))
        if vectors:
            out.view                     # noqa: B018 -- a set that names no view names nothing: said here
        vec = folder / EMBEDDINGS
        if vectors and not vec.is_file() and any(crops.values()):
            # crops without their embeddings name nothing: said, and healed as a damaged file is (``ready``)
            raise DamagedEmbeddings(f"{vec}: missing; rebuild it from the set's crops: "
                                    f"python -m vision tileset rebuild {folder}")
        if vectors and vec.is_file():
            try:
                with np.load(vec) as z:
                    # each z[name] reads (and unzips) its whole array anew: read once, then take rows
                    # (a row per crop read so kept every crop's whole array alive, memory as crops squared)
                    files, up, down, probs = ([str(f) for f in z["files"]], z["up"], z["down"], z["probs"])
                out.vectors = {f: (up[i], down[i], probs[i]) for i, f in enumerate(files)}
            except Exception as e:      # a damaged file: a bad zip, pickled data, an array missing or short
                raise DamagedEmbeddings(f"{vec}: damaged ({type(e).__name__}: {e}); rebuild it from the set's crops: "
                                   f"python -m vision tileset rebuild {folder}") from None
        return out

    def save(self) -> None:
        """Write the index and the embeddings (each to a temporary file, then renamed)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        data = {"format": FORMAT, "base": self.base, "updated": _now(),
                "kinds": {k: [vars(c) for c in v] for k, v in sorted(self.crops.items()) if v},
                "log": self.log[-200:]}
        tmp = self.folder / (INDEX + ".tmp")
        tmp.write_text(json.dumps(data, indent=1, ensure_ascii=False), encoding="utf-8")
        files = [c.file for v in self.crops.values() for c in v if c.file in self.vectors]
        arrays = {"files": np.array(files, dtype=str)}
        if files:
            arrays |= {name: np.stack([self.vectors[f][i] for f in files]) for i, name in
                       enumerate(("up", "down", "probs"))}
        else:
            arrays |= {"up": np.zeros((0, 1)), "down": np.zeros((0, 1)), "probs": np.zeros((0, 1))}
        vtmp = self.folder / "embeddings.tmp.npz"
        # not compressed: embeddings are floats zlib shrinks by a tenth, in two thirds of a Confirm's learning
        np.savez(vtmp, **arrays)
        vtmp.replace(self.folder / EMBEDDINGS)
        tmp.replace(self.folder / INDEX)
        held = {c.file for v in self.crops.values() for c in v}
        for file in self._trash:
            if file not in held:                 # taken out, then written again under its name: kept
                (self.folder / file).unlink(missing_ok=True)
        self._trash.clear()

    def check(self, classifier) -> None:
        """``StaleTileSet`` when the set was built on another classifier than ``classifier``."""
        if not classifier.has_embedding:
            raise TileSetError(f"{classifier.path} has no embedding output; add it with "
                               f"python -m vision.build.embedding {classifier.path}")
        if self.base.get("id") != classifier.id:
            raise StaleTileSet(f"{self.folder}: built on classifier {self.base.get('classifier')} "
                               f"({self.base.get('id')}), not on {classifier.path.name} ({classifier.id}); "
                               f"rebuild it from its crops: python -m vision tileset rebuild {self.folder}"
                               f" [--view V]")

    def rebuild(self, classifier, view: str | None = None) -> None:
        """Every crop embedded again by ``classifier`` (of ``view``, by default the set's), which the
        set is then built on. A crop whose file cannot be read (gone, or cut short by a power cut
        after the index was saved) is dropped and logged, not the whole set: a new model would
        otherwise leave a table with none of what it was taught."""
        self.base = {"view": view or self.view, "classifier": classifier.path.name, "id": classifier.id}
        self.vectors = {}
        dropped = []
        for kind, crops in self.crops.items():
            readable = []
            for c in list(crops):
                try:
                    readable.append((c.file, read_image(self.folder / c.file)))
                except TileSetError as e:
                    crops.remove(c)
                    dropped.append(c.file)
                    log.warning("tile set %s: crop dropped in the rebuild: %s", self.folder, e)
            self._embed(readable, classifier)
        self._changed()
        self.log.append({"at": _now(), "event": "rebuilt", "classifier": classifier.id}
                        | ({"dropped": dropped} if dropped else {}))

    # ---- enrolling -----------------------------------------------------------------------------------

    def enroll(self, kind: str, images: Sequence[np.ndarray], classifier, source: str = ENROLLED) -> list[Crop]:
        """Add upright crops of ``kind`` (BGR images of one tile each) and save their images; returns
        the new crops. An image the kind holds already, pixel for pixel, is not added again: a twin
        would name its own copy right in ``rule``'s check, and make the set trust itself more than
        its tiles earn. The set must be built on ``classifier`` (``check``)."""
        if kind not in KINDS:
            raise TileSetError(f"{kind!r} is not a kind (mpsz: 1m-9m, 1p-9p, 1s-9s, 1z-7z, 0m 0p 0s, back)")
        self.check(classifier)
        folder = self.folder / "crops" / kind
        folder.mkdir(parents=True, exist_ok=True)
        taken = {c.file for c in self.crops.get(kind, [])}
        n = len(list(folder.iterdir()))
        new = []
        held = {_pixels(cv2.imread(str(self.folder / f), cv2.IMREAD_COLOR)) for f in taken}
        fresh = []
        for image in map(stored, images):
            digest = _pixels(image)
            if digest not in held:
                held.add(digest)
                fresh.append(image)
        images = fresh
        for image in images:
            while (name := f"crops/{kind}/{n:05d}.png") in taken or (self.folder / name).exists():
                n += 1
            if not cv2.imwrite(str(self.folder / name), image):
                raise TileSetError(f"{self.folder / name}: could not be written")
            taken.add(name)
            new.append(Crop(name, source, _now()))
        self._embed([(c.file, img) for c, img in zip(new, images)], classifier)
        self.crops.setdefault(kind, []).extend(new)
        self._changed()
        return new

    def _embed(self, items: list[tuple[str, np.ndarray]], classifier) -> None:
        """Each crop's two unit embeddings and the classifier's probabilities (``embeddings``)."""
        self.vectors.update(embeddings(items, classifier))
        self.colours.update((name, middle_colour(image)) for name, image in items)

    # ---- naming --------------------------------------------------------------------------------------

    def kinds(self) -> list[str]:
        """The kinds that have crops in the prototypes (kept-out cuts do not count)."""
        return sorted(k for k, v in self.crops.items() if any(c.source != KEPT_OUT for c in v))

    def _prototypes(self, classifier) -> Prototypes:
        """The kinds' prototypes, from every crop but kept-out ones and each kind's prior
        (``prior``); cached until the set changes (a set is built on one classifier: ``check``)."""
        if self._protos is not None:
            return self._protos
        kinds, up, down, fixed = [], [], [], []
        for kind in sorted(self.crops):
            files = [c.file for c in self.crops[kind]
                     if c.source != KEPT_OUT and c.file in self.vectors]
            if files:
                fixed += [(len(kinds), c.file) for c in self.crops[kind] if c.source == FIXED and c.file in self.vectors]
                kinds.append(kind)
                prior_up, prior_down = prior(classifier, kind, len(files))
                up.append(unit(np.sum([self.vectors[f][0] for f in files], axis=0) + prior_up))
                down.append(unit(np.sum([self.vectors[f][1] for f in files], axis=0) + prior_down))
        # a set holding none of 2m-8m is a 三人花 table's: those kinds are not in its wall, no rival
        out_of_wall = () if any(k in kinds for k in MIDDLE_MANZU) else MIDDLE_MANZU
        lacking = [classifier.priors[k] for k in sorted(classifier.priors) if k not in kinds and k not in out_of_wall]
        if kinds:
            rivals = (np.array([v for pair in lacking for v in pair], np.float32) if lacking
                      else np.zeros((0, 0), np.float32))
            rows = lambda i: (np.array([self.vectors[f][i] for _, f in fixed], np.float32) if fixed  # noqa: E731
                              else np.zeros((0, 0), np.float32))
            protos = Prototypes(tuple(kinds), np.array(up, np.float32), np.array(down, np.float32), rivals,
                                rows(0), rows(1), np.array([k for k, _ in fixed], np.intp))
        else:
            protos = Prototypes((), np.zeros((0, 0), np.float32), np.zeros((0, 0), np.float32))
        self._protos = protos
        return protos

    def _changed(self) -> None:
        self._protos = None
        self._rule = None
        self._pale = False

    def _colour(self, file: str) -> np.ndarray | None:
        """A crop's ``middle_colour``, read from its file once (a set loaded from disk); None when
        the file cannot be read."""
        if file not in self.colours:
            image = cv2.imread(str(self.folder / file), cv2.IMREAD_COLOR)
            if image is None:
                return None
            self.colours[file] = middle_colour(image)
        return self.colours[file]

    def _back_and_blank(self) -> tuple[np.ndarray, np.ndarray] | None:
        """The median colour of the set's backs and of its 白 (each of its crops in the prototypes),
        or None when it lacks either or they lie within ``COLOURS_APART`` of each other."""
        if self._pale is False:
            medians = []
            for kind in (BACK, BLANK):
                got = [self._colour(c.file) for c in self.crops.get(kind, []) if c.source != KEPT_OUT]
                got = [g for g in got if g is not None]
                medians.append(np.median(got, axis=0) if got else None)
            back, blank = medians
            apart = back is not None and blank is not None and np.linalg.norm(back - blank) >= COLOURS_APART
            self._pale = (back, blank) if apart else None
        return self._pale

    def back_or_blank(self, namings: Sequence[Naming], colour_of: Callable[[int], np.ndarray | None],
                      plain: Sequence[float] | None = None) -> list[Naming]:
        """Each cut named 白 whose colour (``colour_of(j)``: cut j's ``middle_colour``, None where not
        known; asked only of cuts named 白, and only where the set tells the two apart) lies nearer
        the set's backs than its 白, named a back. A classifier knows a back by its plain
        face, and a pale back (grey, ivory) is as plain as 白: the teach page's back row gives the set
        the table's back colour. Colours are compared as seen: a camera that exposes its frames
        otherwise than when the set was taught moves them (docs/vision.md, "A pale back read as 白").
        Not the other way: a cut read as a back that is as pale as a face is mostly a face half
        hidden (a kakan's upper tile, a box across two tiles), not a 白 (design 70,003 of bench_learn
        lost a kakan so). Unchanged where the set lacks either kind or holds them in like colours
        (``_back_and_blank``). A cut so named a back is as sure as it is of a plain face (``plain``:
        each cut's share of back and 白 together, by the classifier; by default its share of 白):
        the set's prototypes of the two lie close, and its share of either alone is about a half."""
        pair = self._back_and_blank()
        if pair is None:
            return list(namings)
        out = []
        for j, n in enumerate(namings):
            colour = colour_of(j) if n.tile == BLANK else None
            if colour is not None and np.linalg.norm(colour - pair[0]) < np.linalg.norm(colour - pair[1]):
                score = max(n.score, float(plain[j])) if plain is not None else n.score
                n = replace(n, tile=BACK, score=score, flipped=False, by=SET,
                            others=((BLANK, round(n.score, 4)),) + n.others)
            out.append(n)
        return out

    def name(self, probs: np.ndarray, embedding: np.ndarray | None, classifier, protos: Prototypes | None = None,
             rule: str | None = None) -> Naming:
        """One cut's name from the classifier's probabilities and embedding (the rule: module doc;
        ``rule``: the set's, ``rule()``, by default; ``protos``: the set's prototypes, by default)."""
        protos = protos or self._prototypes(classifier)
        rule = rule or self.rule(classifier)
        looks = protos.looks(np.asarray(embedding)[None])
        return self._named(np.asarray(probs)[None], looks.up, looks.down, classifier, protos.kinds, rule,
                           looks.rival, looks.twins)[0]

    def name_all(self, probs: np.ndarray, embeddings: np.ndarray, classifier, rule: str | None = None,
                 cuts: Sequence[np.ndarray] | None = None) -> list[Naming]:
        """Each of N cuts named as ``name`` names it (``rule`` too), the work they share done at once
        (what a frame's naming costs). Given the ``cuts`` themselves (BGR), a cut named 白 may then be
        a back by its colour (``back_or_blank``)."""
        if not len(probs):
            return []
        protos = self._prototypes(classifier)
        looks = protos.looks(embeddings)
        named = self._named(probs, looks.up, looks.down, classifier, protos.kinds, rule or self.rule(classifier),
                            looks.rival, looks.twins)
        if cuts is None or all(n.tile != BLANK for n in named) or self._back_and_blank() is None:
            return named
        totals = classifier.face_totals(probs)
        plain = totals[:, classifier.faces.index(BACK)] + totals[:, classifier.faces.index(BLANK)]
        return self.back_or_blank(named, lambda j: middle_colour(cuts[j]), plain)

    def _named(self, probs: np.ndarray, su, sd, classifier, kinds: Sequence[str], rule: str,
               rival: np.ndarray | None = None, twins: tuple[np.ndarray, np.ndarray] | None = None) -> list[Naming]:
        """N cuts named by ``rule`` (module doc) from the classifier's probabilities (N x outputs),
        their cosines with the kinds' prototypes, upright ``su`` and upside down ``sd`` (N x K each),
        ``rival``, their best cosines with the priors of the kinds the set lacks (``Looks.rival``:
        a cut nearer a lacking kind than the set's pick is the classifier's), and ``twins``, their
        nearest fixed cut (``Looks.twins``: a cut ``TWIN`` like one is named as it was fixed,
        whatever the rule)."""
        named = self._by_rule(probs, su, sd, classifier, kinds, rule, rival)
        if twins is None:
            return named
        totals = classifier.face_totals(probs)
        col = {f: j for j, f in enumerate(classifier.faces)}
        for n, (near, i) in enumerate(zip(*twins)):
            if near < TWIN or named[n].tile == kinds[i] or _same_five(named[n].tile, kinds[i]):
                continue        # a five named already keeps the colour its rule gave: a twin says which tile,
                                # not which colour (a red and a plain five of one maker look alike)
            tile = _red_or_plain(kinds[i], (), totals[n], col)
            named[n] = Naming(tile, float(near), bool(sd[n, i] > su[n, i]), SET,
                              ranked_runners_up(totals[n], classifier.faces, tile))
        return named

    def _by_rule(self, probs: np.ndarray, su, sd, classifier, kinds: Sequence[str], rule: str,
                 rival: np.ndarray | None = None) -> list[Naming]:
        """``_named`` before the fixed cuts have their say."""
        faces = classifier.faces
        totals = classifier.face_totals(probs)                        # N x F
        base = totals.argmax(axis=1)
        if not kinds or rule == BASE:
            return [_base(faces[b], t, p, classifier) for b, t, p in zip(base, totals, probs)]
        col = {f: j for j, f in enumerate(faces)}
        sims = np.maximum(su, sd)
        # a cut that lies nearer a kind the set was never shown than the set's own pick: the set only
        # knows the kinds it holds, and would pull it onto the nearest of them
        elsewhere = (rival[:, None] > sims) if rival is not None else np.zeros(sims.shape, bool)
        q = np.exp((sims - sims.max(axis=1, keepdims=True)) / TEMPERATURE)
        q = (q / q.sum(axis=1, keepdims=True)).astype(np.float64)
        held = [i for i, k in enumerate(kinds) if k in col]             # the set's kinds the classifier names
        at = [col[kinds[i]] for i in held]
        # a set taught faces only says nothing of backs
        lacks_backs = [faces[b] == BACK and BACK not in kinds for b in base]
        out = []
        if rule == FUSED:
            # a kind the set lacks counts as one in F for the set: it neither favours nor bars it
            share = np.full(totals.shape, 1.0 / len(faces))
            share[:, at] = q[:, held]
            product = share * totals
            tile_at = product.argmax(axis=1)
            whole = product.sum(axis=1, keepdims=True)
            either = np.maximum(totals, product / np.where(whole > 0, whole, 1.0))
            kind_at = dict(zip(at, held))
            for n, (b, j) in enumerate(zip(base, tile_at)):
                i = kind_at.get(int(j))
                if lacks_backs[n] or (i is not None and elsewhere[n, i]):
                    out.append(_base(faces[b], totals[n], probs[n], classifier))
                elif i is None:
                    out.append(_base(faces[j], totals[n], probs[n], classifier))
                else:
                    tile = _red_or_plain(kinds[i], kinds, totals[n], col)
                    out.append(Naming(tile, float(q[n, i]), bool(sd[n, i] > su[n, i]), FUSED,
                                      ranked_runners_up(either[n], faces, tile)))
            return out
        best = q.argmax(axis=1)
        shares = np.zeros(totals.shape)
        shares[:, at] = q[:, held]
        either = np.maximum(totals, shares)
        for n, (b, i) in enumerate(zip(base, best)):
            score = float(q[n, i])
            if (score < SURE or lacks_backs[n] or elsewhere[n, i]
                    or (faces[b] not in kinds and totals[n, b] >= BASE_SURE)):
                out.append(_base(faces[b], totals[n], probs[n], classifier))
            else:
                tile = _red_or_plain(kinds[i], kinds, totals[n], col)
                out.append(Naming(tile, score, bool(sd[n, i] > su[n, i]), SET,
                                  ranked_runners_up(either[n], faces, tile)))
        return out

    def rule(self, classifier) -> str:
        """How the set names cuts: each of its crops is named without itself (its kind's prototype
        made of the kind's other crops) by each of ``RULES``, and the rule that names most of them
        right is used; on a tie the set's own rule. A set whose crops vary more within a kind than
        between kinds (tiles seen at many angles) so leaves the naming to the classifier, or shares
        it; a set that names its own tiles well keeps it. With fewer than ``MIN_CHECKED`` such crops
        the set is untried, and shares the naming (fused): on the real photos a set of one photo's
        tiles named another photo of its tile set better so (bench/bench_tileset.py)."""
        if self._rule is None:
            self._rule = self._calibrated(classifier)
        return self._rule

    def _calibrated(self, classifier) -> str:
        protos = self._prototypes(classifier)
        truth, probs, cos_up, cos_down = [], [], [], []   # each crop's kind, probabilities, and cosines
                                                        # with the kinds' prototypes made without it
        for k, kind in enumerate(protos.kinds):
            files = [c.file for c in self.crops[kind] if c.source != KEPT_OUT and c.file in self.vectors]
            if len(files) < 2:
                continue
            ups = np.array([self.vectors[f][0] for f in files])
            downs = np.array([self.vectors[f][1] for f in files])
            su, sd = protos.similarities(ups)
            # the crop's own kind's prototypes made of the kind's other crops (and its prior)
            prior_up, prior_down = prior(classifier, kind, len(files) - 1)
            su[:, k] = np.sum(unit(ups.sum(axis=0) - ups + prior_up) * ups, axis=1)
            sd[:, k] = np.sum(unit(downs.sum(axis=0) - downs + prior_down) * ups, axis=1)
            truth += [kind] * len(files)
            probs += [self.vectors[f][2] for f in files]
            cos_up.append(su)
            cos_down.append(sd)
        if len(truth) < MIN_CHECKED:
            return FUSED
        su, sd, probs = np.concatenate(cos_up), np.concatenate(cos_down), np.array(probs)
        # no rival here: these are crops of kinds the set holds, where the rival only hands cuts to the
        # classifier; counted, it made the set's own rule look better than it names the kinds it lacks
        # (a set of hand-92345ff1 on hand-839f5eac: 13 -> 11 of 13 as it switched to its own rule)
        right = {r: sum(n.tile == kind for n, kind in
                        zip(self._named(probs, su, sd, classifier, protos.kinds, r), truth))
                 for r in RULES}
        return max(RULES, key=lambda r: (right[r], r == SET))

    def name_images(self, images: Sequence[np.ndarray], classifier) -> list[Naming]:
        """Upright crops of single tiles, named with the set."""
        self.check(classifier)
        cuts = [square_cut(i) for i in images]
        probs, emb = classifier.read(cuts)
        return self.name_all(probs, emb, classifier, cuts=cuts)

    # ---- learning from confirmed counts -------------------------------------------------------------

    def learn(self, cuts: Sequence[tuple[str, np.ndarray]], classifier, stamp: str | None = None,
              origin: str = "") -> Update:
        """Add the cuts of a confirmed reading (``(kind, upright BGR cut)``), checked on the kept-out
        cuts: refused, and logged, when the set with them would name fewer kept-out cuts right.
        ``stamp`` names the new files (default: the time), and so which of them are kept out;
        ``origin`` (the count's snapshot) is kept with each, for ``forget``."""
        self.check(classifier)
        cuts = [(k, img) for k, img in cuts if k in KINDS]
        if not cuts:
            return Update(False, 0, 0, 0, 0, 0, "no cuts of a known kind")
        stamp = stamp or datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S%f")
        names = [f"crops/{kind}/l{stamp}-{j:03d}.png" for j, (kind, _) in enumerate(cuts)]
        self._embed([(name, img) for name, (_, img) in zip(names, cuts)], classifier)
        # a cut the set names otherwise than confirmed is a fix: learnt always (never kept out) and, unless
        # contradicted, a prototype of its own, so the tile fixed once is read right the next time
        named = self.name_images([img for _, img in cuts], classifier)     # as the table named them
        new: list[tuple[str, str, np.ndarray, str]] = []      # (kind, file, image, source)
        overruled: list[Crop] = []          # earlier fixes of another kind this count's fixes contradict
        for name, (kind, img), n in zip(names, cuts, named):
            if n.tile == kind:
                new.append((kind, name, img, KEPT_OUT if _kept_out(name) else LEARNT))
                continue
            blocked, earlier = self._contradicted(name, kind, zip(names, (k for k, _ in cuts)))
            overruled += [] if blocked else earlier
            # a fix contradicted is learnt into its kind's mean only, never kept out: its label is
            # in doubt, and a kept-out cut judges every later update by it
            new.append((kind, name, img, LEARNT if blocked else FIXED))
        # checked on earlier confirmed cuts only: this update's own kept-out cuts carry its labels, right or wrong
        checked = [(k, c.file) for k, v in self.crops.items() for c in v if c.source == KEPT_OUT]
        candidate = TileSet(self.folder, self.base, {k: list(v) for k, v in self.crops.items()}, [], self.vectors,
                            self.colours)
        for kind, name, _, source in new:
            if source != KEPT_OUT:
                candidate.crops.setdefault(kind, []).append(Crop(name, source, _now()))
        before, own_before = self._right(checked, classifier)
        after, own_after = candidate._right(checked, classifier)
        n_learnt = sum(s != KEPT_OUT for *_, s in new)
        n_kept = len(new) - n_learnt
        if checked and (after < before or own_after < own_before):
            for _, name, _, _ in new:
                self.vectors.pop(name, None)
                self.colours.pop(name, None)
            reason = (f"would name {before - after} of {len(checked)} kept-out cuts wrong" if after < before else
                      f"its prototypes alone would name {own_before - own_after} of {len(checked)} kept-out cuts wrong")
            update = Update(False, 0, 0, len(checked), before, after, reason, own_before, own_after)
        else:
            written: list[tuple[str, Crop]] = []
            try:
                for kind, name, img, source in new:
                    (self.folder / name).parent.mkdir(parents=True, exist_ok=True)
                    if not cv2.imwrite(str(self.folder / name), stored(img)):
                        raise TileSetError(f"{self.folder / name}: could not be written")
                    written.append((kind, Crop(name, source, _now(), origin)))
                    self.crops.setdefault(kind, []).append(written[-1][1])
            except BaseException:       # a full disk half way: none of this update, no file left behind
                for kind, crop in written:
                    self.crops[kind].remove(crop)
                    (self.folder / crop.file).unlink(missing_ok=True)
                for _, name, _, _ in new:
                    self.vectors.pop(name, None)
                    self.colours.pop(name, None)
                self._changed()
                raise
            for kind, crops in self.crops.items():          # an earlier fix the players now say otherwise of
                for j, c in enumerate(crops):
                    if any(c is o for o in overruled):
                        crops[j] = replace(c, source=LEARNT, overruled=origin)
            self._bound({k for k, *_ in new})
            update = Update(True, n_learnt, n_kept, len(checked), before, after, "", own_before, own_after)
        self._changed()
        self.log.append({"at": _now(), "event": "learnt" if update.accepted else "refused", **vars(update)})
        return update

    def _contradicted(self, file: str, kind: str, count: Iterable[tuple[str, str]] = ()) -> tuple[bool, list[Crop]]:
        """What the set and the same count (``count``: its cuts' files and kinds) hold ``TWIN`` like
        the new fix ``file`` as another kind: whether the fix is blocked (a cut of the same count, or
        a crop enrolled or confirmed as read, says otherwise: two fixes in one count read as one, a
        slip on the tablet; the fix is then learnt into its kind's mean only, no prototype of its
        own), and the earlier fixes it overrules (the players' latest word on that look wins)."""
        me = self.vectors[file][0]
        like = lambda f: f != file and f in self.vectors and float(self.vectors[f][0] @ me) >= TWIN  # noqa: E731
        other = lambda k: k != kind and not _same_five(k, kind)                                       # noqa: E731
        if any(other(k) and like(f) for f, k in count):
            return True, []
        twins = [c for k, v in self.crops.items() if other(k) for c in v if like(c.file)]
        if any(c.source != FIXED for c in twins):
            return True, []
        return False, twins

    def forget(self, origin: str) -> int:
        """Every crop learnt or kept out from the count ``origin`` taken out, its file deleted (a
        correction of that count's tiles is learnt in their place); how many. Logged when any."""
        if not origin:
            return 0
        gone = 0
        for crops in self.crops.values():
            for c in [c for c in crops if c.origin == origin]:
                self._drop(crops, c)
                gone += 1
            for j, c in enumerate(crops):        # the fixes that count's fix overruled stand again
                if c.overruled == origin:
                    crops[j] = replace(c, source=FIXED, overruled="")
        if gone:
            self._changed()
            self.log.append({"at": _now(), "event": "forgot", "origin": origin, "crops": gone})
        return gone

    def _right(self, checked: list[tuple[str, str]], classifier) -> tuple[int, int]:
        """How many of the kept-out cuts ``(kind, file)`` the set names right: as the table names
        them, and by the nearest prototype alone (either way up)."""
        if not checked:
            return 0, 0
        protos = self._prototypes(classifier)
        kinds = [kind for kind, _ in checked]
        ups = np.array([self.vectors[f][0] for _, f in checked])
        probs = np.array([self.vectors[f][2] for _, f in checked])
        if not protos.kinds:
            return sum(n.tile == k for n, k in zip(self._named(probs, None, None, classifier, (), BASE), kinds)), 0
        looks = protos.looks(ups)
        su, sd = looks.up, looks.down
        named = self._named(probs, su, sd, classifier, protos.kinds, self.rule(classifier), looks.rival, looks.twins)
        named = self.back_or_blank(named, lambda j: self._colour(checked[j][1]))
        right = sum(n.tile == k for n, k in zip(named, kinds))
        nearest = np.maximum(su, sd).argmax(axis=1)
        return right, sum(protos.kinds[i] == k for i, k in zip(nearest, kinds))

    def _bound(self, kinds: Iterable[str]) -> None:
        """At most ``MAX_LEARNT`` learnt crops a kind (the newest half, then the most unlike the kind's
        prototype: the most varied) and ``MAX_KEPT_OUT`` kept-out ones (the newest); files of the
        dropped ones are deleted."""
        for kind in kinds:
            crops = self.crops[kind]
            learnt = [c for c in crops if c.source == LEARNT]
            kept = [c for c in crops if c.source == KEPT_OUT]
            fixed = [c for c in crops if c.source == FIXED]
            drop: list[Crop] = fixed[:-MAX_FIXED] if len(fixed) > MAX_FIXED else []
            if len(learnt) > MAX_LEARNT:
                newest = learnt[-(MAX_LEARNT // 2):]
                older = learnt[:-(MAX_LEARNT // 2)]
                centre = unit(np.mean([self.vectors[c.file][0] for c in learnt], axis=0))
                older.sort(key=lambda c: float(self.vectors[c.file][0] @ centre))
                keep = set(id(c) for c in newest + older[:MAX_LEARNT - len(newest)])
                drop += [c for c in learnt if id(c) not in keep]
            if len(kept) > MAX_KEPT_OUT:
                drop += kept[:-MAX_KEPT_OUT]
            for c in drop:
                self._drop(crops, c)

    def _drop(self, crops: list[Crop], c: Crop) -> None:
        """The crop ``c`` taken out of its kind's ``crops``, with its vectors and colour; its file at the
        next ``save``."""
        crops.remove(c)
        self.vectors.pop(c.file, None)
        self.colours.pop(c.file, None)
        self._trash.append(c.file)


@contextmanager
def writing(folder: Path) -> Iterator[None]:
    """The set in ``folder`` held by one writer at a time, from its load to its save (a lock on
    ``folder/.writing``, which the kernel lets go when the process ends, however it ends): two
    ``enroll`` runs at once each add to what the other saved, where one lost the other's crops."""
    folder = Path(folder)
    if not folder.is_dir():         # no set there: the command says so, or makes the folder as it saves
        yield
        return
    with open(folder / WRITING, "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def open_or_create(folder: Path, classifier, view: str = "overhead") -> TileSet:
    """The set in ``folder`` (checked against ``classifier``), or a new empty one built on it."""
    if (Path(folder) / INDEX).is_file():
        s = TileSet.load(folder)
        s.check(classifier)
        return s
    return TileSet.create(folder, classifier, view)


def read_crop(path: Path, margin: float = MARGIN) -> np.ndarray:
    """A crop of one tile from disk (``read_image``) set in ``margin`` of its size on each side
    (``crop.with_margin``): a folder's crops are taken as cut at the tile's edges; 0 for crops
    that already hold what surrounds the tile, as the detector's cuts do."""
    return with_margin(read_image(path), margin)


def enroll_folder(tileset: TileSet, folder: Path, classifier, margin: float = MARGIN) -> dict[str, int]:
    """Every crop of ``folder/<kind>/`` enrolled (``read_crop``); returns how many per kind were added
    (a crop the set holds already, pixel for pixel, is not). All files are read (and refused, naming
    the file) before any is added."""
    found = crops_in(folder)
    # each shrunk as the set stores it once read: a folder of phone photos held at full size took gigabytes
    images = {k: [stored(read_crop(p, margin)) for p in files] for k, files in found.items()}
    before = {k: len(v) for k, v in tileset.crops.items()}
    for kind, imgs in images.items():
        tileset.enroll(kind, imgs, classifier)
    return {k: len(tileset.crops.get(k, [])) - before.get(k, 0) for k in images}


@dataclass(frozen=True)
class Evaluation:
    """How a set names a folder of labelled crops: per kind (right, of), red-five mix-ups
    (``"0p->5p"`` and ``"5p->0p"`` counts) and the worst crops (file, truth, named, score)."""

    right: int
    total: int
    per_kind: dict[str, tuple[int, int]]
    red_plain: dict[str, int]
    worst: list[tuple[str, str, str, float]]
    by_set: int
    rule: str = SET

    @property
    def accuracy(self) -> float:
        return self.right / self.total if self.total else 0.0

    def to_dict(self) -> dict:
        return {"right": self.right, "total": self.total, "accuracy": round(self.accuracy, 4),
                "named_by_set": self.by_set, "rule": self.rule,
                "per_kind": {k: {"right": r, "of": n} for k, (r, n) in sorted(self.per_kind.items())},
                "red_plain": self.red_plain,
                "worst": [{"file": f, "truth": t, "named": n, "score": round(s, 3)} for f, t, n, s in self.worst]}


def evaluate_folder(tileset: TileSet, folder: Path, classifier, worst: int = 10,
                    margin: float = MARGIN) -> Evaluation:
    """Name every crop of ``folder/<kind>/`` (``read_crop``) with the set and count what came out right."""
    found = crops_in(folder)
    files = [(k, p) for k, ps in found.items() for p in ps]
    named = tileset.name_images([stored(read_crop(p, margin)) for _, p in files], classifier)
    per_kind: dict[str, list[int]] = {}
    red_plain = {f"{a}->{b}": 0 for r in REDS for a, b in ((r, "5" + r[1]), ("5" + r[1], r))}
    wrong = []
    for (kind, path), n in zip(files, named):
        tally = per_kind.setdefault(kind, [0, 0])
        tally[1] += 1
        if n.tile == kind:
            tally[0] += 1
        else:
            wrong.append((str(path), kind, n.tile, n.score))
            if f"{kind}->{n.tile}" in red_plain:
                red_plain[f"{kind}->{n.tile}"] += 1
    wrong.sort(key=lambda w: -w[3])
    return Evaluation(sum(r for r, _ in per_kind.values()), len(files),
                      {k: (r, n) for k, (r, n) in per_kind.items()}, red_plain, wrong[:worst],
                      sum(n.by in (SET, FUSED) for n in named), tileset.rule(classifier))


TABLE_SUFFIX = ".tileset"


def table_tileset_path(table: str, folder: Path | None = None) -> Path:
    """Where a table's tile set lives: beside its calibration file, ``<table>.tileset/``."""
    from calibration.store import table_path

    return table_path(table, folder).with_suffix(TABLE_SUFFIX)


def for_table(table: str, folder: Path | None = None) -> TileSet | None:
    """The table's tile set, or None when it has none yet."""
    path = table_tileset_path(table, folder)
    return TileSet.load(path) if (path / INDEX).is_file() else None


def ready(folder: Path, classifier) -> TileSet:
    """The set saved in ``folder``, ready for ``classifier``: rebuilt from its crops (and saved) when
    it was built on another classifier, or when its embeddings cannot be read (a power cut in a
    save, a disk error): a table's service heals its set by itself rather than leave it out."""
    try:
        tileset = TileSet.load(folder)
    except DamagedEmbeddings as e:
        log.warning("%s: rebuilt from its crops", e)
        tileset = TileSet.load(folder, vectors=False)
        tileset.base = dict(tileset.base, id=None)       # as if built on another: every crop embedded anew
    return current(tileset, classifier)


def current(tileset: TileSet, classifier) -> TileSet:
    """The set ready for ``classifier``: rebuilt from its crops (and saved) when it was built on another."""
    from .detect import VIEWS

    try:
        tileset.check(classifier)
    except StaleTileSet:
        view = next((v for v, (_, c) in VIEWS.items() if Path(c).resolve() == classifier.path.resolve()), None)
        tileset.rebuild(classifier, view)
        tileset.save()
    return tileset
