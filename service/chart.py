"""The points-over-time chart as inline SVG: one polyline per player, no script, no CDN."""

from __future__ import annotations

from html import escape
from typing import Mapping, Sequence

COLOURS = ("#d9480f", "#1971c2", "#2f9e44")


def balance_chart(series: Mapping[str, Sequence[int]], width: int = 640, height: int = 220,
                  pad: int = 28) -> str:
    """An SVG chart of balances (x: hands played, y: balance), with a zero line and a legend."""
    values = [v for vs in series.values() for v in vs] or [0]
    lo, hi = min(min(values), 0), max(max(values), 0)
    span = (hi - lo) or 1
    n = max((len(vs) for vs in series.values()), default=1)
    step = (width - 2 * pad) / max(n - 1, 1)

    def y(v: int) -> float:
        return round(pad + (hi - v) * (height - 2 * pad) / span, 1)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {width} {height}" '
             f'role="img" aria-label="balances by hand">',
             f'<line x1="{pad}" x2="{width - pad}" y1="{y(0)}" y2="{y(0)}" stroke="#999" stroke-dasharray="4"/>',
             f'<text x="2" y="{y(hi) + 4}" font-size="11">{hi}</text>',
             f'<text x="2" y="{y(lo) + 4}" font-size="11">{lo}</text>']
    for i, (player, vs) in enumerate(series.items()):
        colour = COLOURS[i % len(COLOURS)]
        points = " ".join(f"{round(pad + j * step, 1)},{y(v)}" for j, v in enumerate(vs))
        parts.append(f'<polyline data-player="{escape(player)}" fill="none" stroke="{colour}" '
                     f'stroke-width="3" points="{points}"/>')
        parts.append(f'<text x="{pad + 120 * i}" y="{height - 6}" fill="{colour}" font-size="13">'
                     f'{escape(player)} {vs[-1] if vs else 0}</text>')
    parts.append("</svg>")
    return "".join(parts)
