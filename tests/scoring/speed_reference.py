"""A frozen reference for the speed work: records of every preset and what they score.

``mix(n_random, n_adapted)`` builds a seeded mix of records per preset:
random dunhill-set winning hands named for the preset (scoring/random_hands.py;
other walls refuse many of them, which exercises the refusals), and the same
kind of hands adapted to the preset (gari kept to the preset's gari kinds,
chinton's hands moved into one suit, an honour read as a haku wildcard,
random preset options, flags and honba). ``outcome(record)`` is what the
engine says: the whole ``Result.to_dict()`` with the reading's shape, or the
ScoringError message.

    python tests/scoring/speed_reference.py write FILE [N_RANDOM N_ADAPTED]
    python tests/scoring/speed_reference.py write-short FILE [N_RANDOM N_ADAPTED]
    python tests/scoring/speed_reference.py check FILE

``write`` stores records and outcomes as JSON lines (``write-short``: each
outcome as total, yaku and a digest of the whole); ``check`` scores them
again and counts differences. tests/scoring/data/speed_reference.jsonl was
written this way before the engine was made faster (test_speed_equivalence.py
reads it); a larger file kept outside the repository checks more.
"""

from __future__ import annotations

import copy
import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from scoring import ScoringError, load_preset, preset_ids, score  # noqa: E402
from scoring.random_hands import random_winning_record  # noqa: E402
from scoring.tiles import format_mpsz, kind, parse_mpsz, parse_tile, tile_name  # noqa: E402

_FLAGS = ("riichi", "double_riichi", "open_riichi", "ippatsu", "rinshan", "chankan",
          "haitei", "houtei", "tenhou", "chiihou", "renhou")


def _random_options(rng: random.Random, preset_id: str) -> dict[str, Any]:
    declared = load_preset(preset_id).data.get("options", {})
    out: dict[str, Any] = {}
    for name, spec in declared.items():
        if rng.random() < 0.7:
            continue
        choices = spec.get("choices")
        default = spec.get("default")
        if choices:
            key = rng.choice(sorted(choices))
            value: Any = key
            if isinstance(default, bool):
                value = key == "true"
            elif isinstance(default, int):
                value = int(key)
        elif isinstance(default, bool):
            value = not default
        elif isinstance(default, int):
            value = rng.choice((1, 2))
        elif name == "suit":
            value = rng.choice(("p", "s", "auto"))
        elif name == "haku_dora":
            value = rng.choice(("auto", "1z", "7z", "6z"))
        else:
            continue
        out[name] = value
    return out


def _map_tiles(text: str, f) -> str:
    return format_mpsz(f(t) for t in parse_mpsz(text))


def _adapt(rng: random.Random, preset_id: str) -> dict[str, Any]:
    rec = random_winning_record(rng, preset_id)
    gari_kinds = {kind(parse_tile(x)) for x in load_preset(preset_id).section("tiles").get("gari", [])}
    if "gari" in rec:
        rec["gari"] = format_mpsz(t for t in parse_mpsz(rec["gari"]) if kind(t) in gari_kinds)
    if preset_id == "chinton":
        to_pin = rng.random() < 0.5   # sou to pin, else pin to sou

        def one_suit(t: int) -> int:
            if to_pin:
                return t - 9 if 18 <= t < 27 else 35 if t == 36 else t
            return t + 9 if 9 <= t < 18 else 36 if t == 35 else t
        for name in ("concealed", "dora_indicators", "ura_indicators"):
            if name in rec:
                rec[name] = _map_tiles(rec[name], one_suit)
        rec["win_tile"] = tile_name(one_suit(parse_tile(rec["win_tile"])))
        for m in rec.get("melds", []):
            m["tiles"] = _map_tiles(m["tiles"], one_suit)
        if rng.random() < 0.5:   # an honour of the hand read as haku, the wildcard
            honours = sorted({t for t in parse_mpsz(rec["concealed"]) if 27 <= t < 34})
            if honours:
                h = rng.choice(honours)
                rec["concealed"] = _map_tiles(rec["concealed"], lambda t: 31 if t == h else t)
                if parse_tile(rec["win_tile"]) == h:
                    rec["win_tile"] = "5z"
    if rng.random() < 0.3:
        opts = _random_options(rng, preset_id)
        if opts:
            rec["options"] = opts
    if rng.random() < 0.2:   # a flag that may or may not fit the hand
        rec[rng.choice(_FLAGS)] = True
    if rng.random() < 0.2:
        rec["honba"] = rng.randrange(0, 9)
    return rec


def mix(n_random: int, n_adapted: int) -> list[dict[str, Any]]:
    """Records for every preset, seeded by the preset's name."""
    out = []
    for pid in preset_ids():
        seed = int(hashlib.sha256(pid.encode()).hexdigest()[:8], 16)
        rng = random.Random(seed)
        out += [random_winning_record(rng, pid) for _ in range(n_random)]
        rng = random.Random(seed + 1)
        out += [_adapt(rng, pid) for _ in range(n_adapted)]
    return out


def outcome(record: Any) -> dict[str, Any]:
    """The engine's whole answer for one record, as plain JSON."""
    try:
        r = score(copy.deepcopy(record))
    except ScoringError as e:
        return {"error": str(e)}
    d = r.to_dict()
    d["shape"] = None if r.shape is None else [list(x) if isinstance(x, tuple) else x for x in r.shape]
    d["items_full"] = [list(i) for i in r.items]
    return json.loads(json.dumps(d))


def compact(full: dict[str, Any]) -> dict[str, Any]:
    """A short stand-in for an outcome: total, yaku and a digest of the whole answer."""
    if "error" in full:
        return full
    text = json.dumps(full, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return {"total": full["total"], "yaku": full["yaku"],
            "digest": hashlib.sha256(text.encode()).hexdigest()[:20]}


def write(path: str, records: list[Any], short: bool = False) -> None:
    with open(path, "w") as f:
        for rec in records:
            out = outcome(rec)
            f.write(json.dumps({"record": rec, "outcome": compact(out) if short else out},
                               ensure_ascii=False, separators=(",", ":")) + "\n")


def check(path: str) -> tuple[int, list[str]]:
    """(records checked, differences found, each as the record and both outcomes)."""
    n = 0
    bad: list[str] = []
    with open(path) as f:
        for line in f:
            row = json.loads(line)
            n += 1
            want = row["outcome"]
            got = outcome(row["record"])
            if "digest" in want:
                got = compact(got)
            if got != want:
                bad.append(json.dumps({"record": row["record"], "want": row["outcome"], "got": got},
                                      ensure_ascii=False))
    return n, bad


if __name__ == "__main__":
    cmd, path = sys.argv[1], sys.argv[2]
    if cmd in ("write", "write-short"):
        n_random, n_adapted = (int(sys.argv[3]), int(sys.argv[4])) if len(sys.argv) > 4 else (3000, 1500)
        write(path, mix(n_random, n_adapted), short=cmd == "write-short")
    else:
        n, bad = check(path)
        print(f"{n} records, {len(bad)} differ")
        for b in bad[:5]:
            print(b)
        sys.exit(1 if bad else 0)
