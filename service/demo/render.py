"""Render the demo camera's frames: a felt table seen from above with a revealed hand.

    python -m service.demo.render [--tiles ../shared/tiles] [--out service/demo/frames]

The tile art (CC0, FluffyStuff riichi-mahjong-tiles) is read from the
``tiles_dir`` setting and never committed; only the rendered frames are. Without
the art, the tiles are drawn as plain blocks with their mpsz names.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np

from ..settings import DEMO_FRAMES, Settings

# A few revealed hands (mpsz), one per frame pair: what a player might lay down.
HANDS = ("234p678p234s66s777z", "334400p667788s99s", "234p666s0s67s44z777z", "123456789p11s555z")
SIZE = (960, 540)
TILE = (44, 60)
ART = {"m": "Man", "p": "Pin", "s": "Sou"}
HONOURS = ("Ton", "Nan", "Shaa", "Pei", "Haku", "Hatsu", "Chun")


def tile_names(mpsz: str) -> list[str]:
    from scoring.tiles import parse_mpsz, tile_name
    return [tile_name(t) for t in parse_mpsz(mpsz)]


def art_file(folder: Path, name: str) -> Path:
    n, suit = name[0], name[1]
    if suit == "z":
        return folder / f"{HONOURS[int(n) - 1]}.png"
    return folder / (f"{ART[suit]}5-Dora.png" if n == "0" else f"{ART[suit]}{n}.png")


def _over(base: np.ndarray, rgba: np.ndarray) -> np.ndarray:
    alpha = rgba[:, :, 3:4].astype(np.float32) / 255
    return (rgba[:, :, :3] * alpha + base * (1 - alpha)).astype(np.uint8)


def tile_image(name: str, art: Path | None) -> np.ndarray:
    w, h = TILE
    if art is not None and (art / "Front.png").is_file():
        front = cv2.imread(str(art / "Front.png"), cv2.IMREAD_UNCHANGED)
        face = cv2.imread(str(art_file(art, name)), cv2.IMREAD_UNCHANGED)
        tile = _over(np.full(front.shape[:2] + (3,), 40, np.uint8), front)
        if face is not None:
            tile = _over(tile, face)
        return cv2.resize(tile, (w, h), interpolation=cv2.INTER_AREA)
    tile = np.full((h, w, 3), (225, 240, 245), np.uint8)
    cv2.rectangle(tile, (0, 0), (w - 1, h - 1), (90, 110, 120), 2)
    cv2.putText(tile, name, (5, h // 2 + 8), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (40, 40, 40), 2)
    return tile


def frame(i: int, hand: str, art: Path | None) -> np.ndarray:
    w, h = SIZE
    rng = np.random.default_rng(i)
    img = np.zeros((h, w, 3), np.uint8)
    img[:] = (59, 93, 11)                                       # BGR felt green
    img = cv2.add(img, rng.integers(0, 6, (h, w, 1), dtype=np.uint8).repeat(3, 2))
    cv2.putText(img, f"demo camera  frame {i + 1}", (20, 36), cv2.FONT_HERSHEY_SIMPLEX, 0.9, (230, 230, 230), 2)
    names = tile_names(hand)
    x0 = (w - len(names) * (TILE[0] + 2)) // 2 + int(rng.integers(-20, 20))
    y0 = h // 2 + int(rng.integers(-30, 30))
    for k, name in enumerate(names):
        t = tile_image(name, art)
        x = x0 + k * (TILE[0] + 2)
        img[y0:y0 + TILE[1], x:x + TILE[0]] = t
    return img


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m service.demo.render", description=__doc__.splitlines()[0])
    p.add_argument("--tiles", type=Path, default=Settings().tiles_dir, help="tile art folder (TABLE_TILES_DIR)")
    p.add_argument("--out", type=Path, default=DEMO_FRAMES)
    p.add_argument("--frames", type=int, default=8)
    args = p.parse_args(argv)
    art = args.tiles / "png-regular" if (args.tiles / "png-regular").is_dir() else None
    args.out.mkdir(parents=True, exist_ok=True)
    for i in range(args.frames):
        path = args.out / f"frame-{i + 1:02d}.jpg"
        cv2.imwrite(str(path), frame(i, HANDS[(i // 2) % len(HANDS)], art), [cv2.IMWRITE_JPEG_QUALITY, 75])
        print(path)
    print("tile art:", art or "none (plain blocks)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
