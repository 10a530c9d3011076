"""A house rule's changes in the players' words: ``table.noten_total: 6 -> 10`` is
"ノーテン罰符 No-ten payment: 場に6 → 場に10 (6 → 10 in all)".

``words(key, old, new, preset)`` turns one change (scoring.house_check.changes)
into a line the rule page shows: what the item is (日本語 · English) and its
value before and after, each as players say it. Keys it has no words for show
their TOML values.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from scoring.house_check import changes, toml_value
from scoring.presets import Preset
from scoring.yaku import YAKU, YAKUMAN

_NONE = "なし none"


def _yes(v: Any) -> str:
    return "あり yes" if v else "なし no"


def _pts(v: Any) -> str:
    return f"{v}点 {v} point{'s' if v != 1 else ''}"


def _words(table: Mapping[str, str]) -> Callable[[Any], str]:
    return lambda v: table.get(v, toml_value(v)) if isinstance(v, str) else toml_value(v)


def _times(v: Any) -> str:
    return f"×{v}"


def _suits(v: Any) -> str:
    """``{m = 3, p = 4, s = 4}`` as 5m 3 · 5p 4 · 5s 4."""
    if isinstance(v, Mapping):
        return " · ".join(f"5{s} {n}" for s, n in v.items())
    return toml_value(v)


# section.key -> (日本語, English, how a value is said)
TABLE: dict[str, tuple[str, str, Callable[[Any], str]]] = {
    "table.new_dealer_honba": ("新しい親の本場", "A new dealer starts at", lambda v: f"{v}本場 {v} honba"),
    "table.noten_total": ("ノーテン罰符", "No-ten payment", lambda v: f"場に{v} ({v} in all)"),
    "table.noten_to": ("ノーテン罰符の行き先", "No-ten payment goes", _words(
        {"players": "聴牌者へ to the tenpai players", "pool": "供託へ to the pot"})),
    "table.noten_total_choices": ("ノーテン罰符の選択肢", "No-ten payment may be", toml_value),
    "table.chombo_each": ("チョンボ", "Chombo", lambda v: f"{v}点オール {v} to each player"),
    "table.chombo_honba": ("チョンボ後の本場", "After a chombo", _words(
        {"same": "同じ本場でやり直し replayed at the same honba", "add": "本場を積む a honba is added"})),
    "table.chombo_riichi": ("チョンボ時のリーチ棒", "Riichi sticks at a chombo", _words(
        {"return": "持ち主に戻す go back", "pool": "供託に残す stay in the pot"})),
    "table.riichi_stick": ("リーチ棒", "A riichi stick is worth", lambda v: f"{v}"),
    "table.unit_value": ("精算", "One unit is paid as", lambda v: f"{v:,}" if isinstance(v, int) else toml_value(v)),
    "table.open_riichi_sticks": ("オープンリーチの供託", "Open riichi puts in", lambda v: f"{v}本 {v} stick(s)"),
    "table.double_ron": ("ダブロン", "Double ron", lambda v: "あり allowed" if v else "なし head bump only"),
    "table.penalty": ("罰符", "A penalty (a false call) puts in the pool", lambda v: f"{v}"),
    "table.draw_dealer": ("流局後の親", "After a draw the deal", _words(
        {"stays": "親続行 stays with the dealer", "tenpai": "聴牌連荘 stays only if the dealer is tenpai"})),
    "table.double_ron_dealer": ("ダブロンの親", "Double ron: the deal goes to", _words(
        {"head": "上家取り the head winner", "dealer_keeps": "親が和了なら親続行 the dealer if a winner"})),
    "table.double_ron_honba": ("ダブロンの積み棒", "Double ron: honba paid to", _words(
        {"both": "両者 both winners", "head": "上家のみ the head winner only"})),
    "table.double_ron_bounty_exchange": ("ダブロンの懸賞のやり取り", "Double ron: winners exchange bounties", _yes),
    "table.start_sticks": ("持ち本数", "Each starts with", lambda v: f"{v}本 {v} sticks"),
    "table.return_sticks": ("返し", "Returned at the end", lambda v: f"{v}本 {v} sticks"),
    "table.top_bonus": ("トップ賞", "Top bonus", lambda v: f"+{v}本 +{v} sticks"),
    "table.end_at_or_below": ("終了", "The game ends at or below", lambda v: f"{v}本 {v} sticks"),
    "table.end_pool": ("終了時の供託", "Sticks left at the end go to", _words(
        {"top": "トップへ the top", "table": "卓に残す stay on the table"})),
    "table.top_tie": ("同点のトップ", "A tie for top", _words(
        {"last_win_then_head_from_dealer": "最後に和了した者、次に親から頭ハネ the tied player who won last, then head bump"})),
    "bounty.from_honba": ("懸賞", "Bounty round from", lambda v: f"{v}本場 {v} honba"),
    "bounty.dealer": ("懸賞 親", "Bounty for the dealer", _pts),
    "bounty.nondealer": ("懸賞 子", "Bounty for a non-dealer", _pts),
    "bounty.before_multiplier": ("懸賞は倍率の前", "Bounty added before the multipliers", _yes),
    "gari_set.factor": ("ガリ揃い", "Four of a gari kind", _times),
    "gari_set.mode": ("ガリ揃いの数え方", "Four of a gari kind counts", _words(
        {"multiply": "倍 multiplies", "double_kind": "種類ごとに倍 doubles per kind", "add": "加点 adds points"})),
    "gari_set.points": ("ガリ揃いの点", "Four of a gari kind adds", _pts),
    "karasu.factor": ("カラス(ガリなし)", "No gari (karasu)", _times),
    "karasu.mode": ("カラスの数え方", "No gari counts", _words(
        {"multiply": "倍 multiplies", "add": "加点 adds", "fixed": "固定 a fixed count",
         "fixed_by_state": "固定(門前・鳴き) fixed, closed or open", "final_count": "最終 the final count"})),
    "karasu.value": ("カラスの点", "No gari is worth", _pts),
    "karasu.closed": ("カラス 門前", "No gari, closed", _pts),
    "karasu.open": ("カラス 鳴き", "No gari, open", _pts),
    "yakuman.value": ("役満", "A yakuman counts", _pts),
    "yakuman.stack": ("役満の複合", "Yakumans add up", _yes),
    "yakuman.with_yaku": ("役満に役を足す", "Yaku counted with a yakuman", _words(
        {"none": "足さない none", "non_implied": "含まれない役は足す those it does not include"})),
    "rules.min_yaku": ("最低翻", "Yaku needed", lambda v: f"{v}"),
    "rules.riichi_with_double": ("ダブリーに立直も", "Double riichi adds riichi too", _yes),
    "rules.max_kans": ("槓の上限", "Kans at most", lambda v: f"{v}"),
    "rules.rinshan_on_gari": ("ガリ抜きで嶺上", "Rinshan on a gari taken out", _yes),
}

ITEMS: dict[str, tuple[str, str]] = {
    "banban": ("バンバン", "Banban"), "honba": ("本場", "Honba, each"), "dealer": ("親", "Dealer"),
    "dora": ("ドラ", "Dora, each"), "ura": ("裏ドラ", "Ura dora, each"), "ankan": ("暗槓", "Concealed kan"),
    "minkan": ("明槓", "Open kan"), "gari": ("ガリ", "Gari, each"), "north": ("北", "North, besides its gari"),
    "red": ("赤", "Red fives"), "five": ("五", "Every 5p/5s"), "menzen": ("門前", "Closed hand"),
    "ippatsu": ("一発", "Ippatsu bonus"), "ankan_extra": ("暗加槓", "Added concealed kan"),
    "minkan_extra": ("明加槓", "Added open kan"),
}

_YAKU = {y.key: y for y in YAKU}
_YAKUMAN = {y.id: y for y in YAKUMAN}


def _yaku_value(v: Any) -> str:
    if not isinstance(v, list) or len(v) != 2:
        return _NONE if v is None else toml_value(v)
    closed, opened = ["役満" if x == "yakuman" else ("—" if x == 0 else f"{x}") for x in v]
    return f"門前 {closed} · 鳴き {opened} (closed {closed}, open {opened})"


def _option_value(v: Any) -> str:
    if isinstance(v, bool):
        return "あり on" if v else "なし off"
    return toml_value(v)


def say(value: Any, how: Callable[[Any], str]) -> str:
    """``value`` as players say it; a value a rule does not have is "none"."""
    if value is None or toml_value(value) == "(none)":
        return _NONE
    return how(value)


def words(key: str, old: Any, new: Any, preset: Preset) -> dict[str, str]:
    """One change as the rule page shows it: its key, its name, and both values in words."""
    section, _, name = key.partition(".")
    if key in TABLE:
        ja, en, how = TABLE[key]
    elif section == "items" and name in ITEMS:
        (ja, en), how = ITEMS[name], (_suits if name in ("red", "five") else _pts)
    elif section == "yaku":
        y = _YAKU.get(name)
        ja, en = (y.ja, y.en) if y else (name, name)
        if name == "yakuhai":
            ja, en = "役牌", "Yakuhai"
        how = _yaku_value
    elif section == "yakuman" and name in _YAKUMAN:
        y = _YAKUMAN[name]
        ja, en, how = y.ja, f"{y.en} (yakuman)", lambda v: "—" if v == 0 else f"{v}倍役満 ×{v}"
    elif section == "options":
        spec = preset.data.get("options", {}).get(name, {})
        ja, en, how = f"オプション {name}", spec.get("doc", f"option {name}"), _option_value
    else:
        ja, en, how = key, key, toml_value
    was, now = say(old, how), say(new, how)
    return {"key": key, "ja": ja, "en": en, "base": was, "house": now,
            "line": f"{ja} {en}: {was} → {now}",
            "base_toml": toml_value(old), "house_toml": toml_value(new)}


def differences(preset: Preset, base: Preset) -> list[dict[str, str]]:
    """Every resolved value the house rule changes from its base, in words (options first)."""
    return [words(k, a, b, preset) for k, a, b in changes(preset, base)]
