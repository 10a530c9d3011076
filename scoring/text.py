"""The count as a person reads it: one line per item, in the order said aloud."""

from __future__ import annotations

from .engine import Result

_UNIT = {"points": ("点", "points"), "sticks": ("本", "han = sticks of 1,000")}


def render(result: Result) -> str:
    ja_unit, en_unit = _UNIT.get(result.unit, ("", result.unit))
    lines = [f"{result.rules}: {result.reading}"]
    running = 0
    for item in result.items:
        if item.factor != 1:
            running *= item.factor
            lines.append(f"  {item.ja:<14} {item.en:<28} x{item.factor:<4} = {running}")
        elif item.group == "fixed":
            running = item.points
            lines.append(f"  {item.ja:<14} {item.en:<28} -> {item.points}")
        else:
            running += item.points
            count = f" ({item.count})" if item.count != 1 else ""
            lines.append(f"  {item.ja:<14} {(item.en + count):<28} +{item.points:<4} = {running}")
    lines.append(f"  合計 total: {result.total}{ja_unit} ({result.total} {en_unit}, from each payer)")
    pays = ", ".join(f"{seat} pays {amount}" for seat, amount in result.payments.items())
    lines.append(f"  {pays}; the winner receives {result.received}")
    return "\n".join(lines)
