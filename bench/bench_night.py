"""A night at one table: the service's memory and each Confirm's learning over hundreds of hands.

    .venv/bin/python bench/bench_night.py [--hands 300] [--every 25] [--learn/--no-learn]

Starts ``python -m service`` in its own process on 127.0.0.1 (a fresh SQLite
file in a temp folder, the demo camera), then plays one session: each hand
posts a demo frame to /api/read (the real vision reader), and confirms the
hand that frame shows (service/demo/hands.json) with the reading's snapshot,
so the table's tile set learns the count's cuts as the players confirmed them
(``TABLE_LEARN_TILES``). Every ``--every`` hands it prints the service's
resident memory, the set's crops and the seconds those hands took. The set is
bounded per kind (``vision.tileset.MAX_LEARNT``), so once it is full a
service that keeps nothing it should not holds its memory level: the check
is that the second half of the night grows it by less than ``--grow-mb``.
Exits 1 if that fails, or a hand is refused, lost or doubled.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

import cv2
import httpx
import numpy as np

from bench_service import FRAMES, PIN, free_port, start_server

from options import at_least, quiet_pipe  # noqa: E402

HANDS = json.loads((FRAMES[0].parent.parent / "hands.json").read_text())


def resident_mb(pid: int) -> float:
    """The process's resident memory (Linux: /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise SystemExit(f"no VmRSS for process {pid}")


def taken(frame: np.ndarray, hand: int) -> bytes:
    """The demo frame as a camera takes it for hand ``hand``: its own sensor noise, so each count is a
    snapshot of its own (the same image twice is one count's snapshot, and a correction of it: the
    set learns it again in place of the first)."""
    noise = np.random.default_rng(hand).normal(0, 2.0, frame.shape)
    return cv2.imencode(".jpg", np.clip(frame + noise, 0, 255).astype(np.uint8))[1].tobytes()


def crops_held(data: Path) -> int:
    index = data / "demo.tileset" / "index.json"
    if not index.is_file():
        return 0
    return sum(len(v) for v in json.loads(index.read_text())["kinds"].values())


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hands", type=at_least(1), default=300)
    p.add_argument("--every", type=at_least(1), default=25)
    p.add_argument("--learn", action=argparse.BooleanOptionalAction, default=True)
    p.add_argument("--grow-mb", type=float, default=100.0)
    args = p.parse_args()
    if not 2 <= args.hands <= 5000 or not 1 <= args.every <= args.hands:
        raise SystemExit("bounded: 2-5000 hands, a line every 1 to --hands hands")
    problems: list[str] = []
    rows: list[tuple[int, float]] = []
    frames = {f: cv2.imread(str(f), cv2.IMREAD_COLOR) for f in FRAMES}
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp)
        port = free_port()
        proc = start_server(data, port, {"TABLE_LEARN_TILES": str(args.learn).lower()})
        try:
            with httpx.Client(base_url=f"http://127.0.0.1:{port}", headers={"X-Table-PIN": PIN}, timeout=60) as c:
                sid = c.post("/api/sessions", json={"rules": "dunhill", "players": ["A", "B", "C"]}).json()["id"]
                start = resident_mb(proc.pid)
                print(f"one table, {args.hands} hands read and confirmed (learning {'on' if args.learn else 'off'}); "
                      f"the service starts at {start:.0f} MB")
                t0 = time.perf_counter()
                for hand in range(1, args.hands + 1):
                    frame = FRAMES[hand % len(FRAMES)]
                    read = c.post("/api/read", files={"image": (frame.name, taken(frames[frame], hand), "image/jpeg")},
                                  data={"session": sid})
                    if read.status_code != 200:
                        problems.append(f"hand {hand}: read {read.status_code} {read.text[:120]}")
                        break
                    body = {"records": [HANDS[frame.name]], "hand": hand, "snapshot": read.json()["snapshot"]}
                    won = c.post(f"/api/sessions/{sid}/wins", json=body)
                    if won.status_code != 201:
                        problems.append(f"hand {hand}: confirm {won.status_code} {won.text[:120]}")
                        break
                    if hand % args.every == 0:
                        mb = resident_mb(proc.pid)
                        rows.append((hand, mb))
                        print(f"  hand {hand:>5}: {mb:6.0f} MB, the set holds {crops_held(data):>4} crops, "
                              f"{time.perf_counter() - t0:6.1f} s so far", flush=True)
                logged = c.get(f"/api/sessions/{sid}").json()["hands"]
                if not problems and logged != args.hands:
                    problems.append(f"the session logged {logged} hands, not {args.hands}")
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    half = [mb for hand, mb in rows if hand >= args.hands / 2]
    if len(half) >= 2:
        grown = half[-1] - half[0]
        print(f"  the night's second half grew the service by {grown:+.0f} MB (at most {args.grow_mb:g})")
        if grown > args.grow_mb:
            problems.append(f"the second half grew the service by {grown:.0f} MB")
    if problems:
        print("FAILED:")
        for line in problems:
            print("  " + line)
        return 1
    return 0


if __name__ == "__main__":
    quiet_pipe()
    sys.exit(main())
