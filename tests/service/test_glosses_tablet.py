"""Every line the tablet shows a player reads Japanese first: each warning the hand-photo reader can
give, each refusal a tap on the hand editor can meet, the history page's headings. A gloss carries
over what its English line names (the count, the tile), so the Japanese alone says it."""

from __future__ import annotations

import ast
import itertools
import re
from pathlib import Path

import pytest

from scoring.mend import Mend
from service.editing import Draft, EditError, Wall
from service.mending import mended
from service.refusal_ja import JAPANESE, bilingual
from vision.hand_photo import Tile, read_hand
from table_fixtures import CHUN, PLAYERS

ROOT = Path(__file__).resolve().parents[2]
# where the warnings of a photo of the hand are made: the reader's own, and the mending of its reading
HAND_PHOTO_WARNINGS = (ROOT / "vision" / "hand_photo.py", ROOT / "service" / "mending.py")
# where the warnings of the table camera's reading are made: the layout of the tiles, and the frame's reader
TABLE_WARNINGS = (ROOT / "vision" / "layout.py", ROOT / "vision" / "read.py")
SAID = {"warnings", "said"}          # the names the warnings are gathered in

# what a warning's variable part may be, by its expression in the code; any other reads as a count
SAMPLES = {
    "five": ("", " (a five: red or plain, check)"),
    "how": ("at 1.5 times the size", "at its own size, turned 90 degrees"),
    "kind": ("6m", "5p"),
    "red": ("0p",),
}


def _sample(node: ast.expr, spec: ast.expr | None = None) -> tuple[str, ...]:
    source = ast.unparse(node)
    if spec is not None:
        return (format(0.42, "".join(_render(spec)[0])),)
    if source in SAMPLES:
        return SAMPLES[source]
    if source.startswith("len("):
        return ("12",)
    if "join" in source:
        return ("1p 4p", "a 3m as 4m or 5m, or a 7s as 8s")
    if "tile" in source or re.fullmatch(r"on\[\d\]", source):
        return ("6m", "0p")
    return ("12",)


def _render(node: ast.expr) -> tuple[str, ...]:
    """Every text ``node`` (a string, an f-string, strings added) may make, its variable parts sampled."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return (node.value,)
    if isinstance(node, ast.JoinedStr):
        parts = [(_render(v) if isinstance(v, ast.Constant) else _sample(v.value, v.format_spec))
                 for v in node.values]
        return tuple("".join(p) for p in itertools.product(*parts))
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return tuple(a + b for a, b in itertools.product(_render(node.left), _render(node.right)))
    return _sample(node)


def _is_text(node: ast.AST) -> bool:
    return (isinstance(node, ast.JoinedStr) or (isinstance(node, ast.Constant) and isinstance(node.value, str))
            or (isinstance(node, ast.BinOp) and (_is_text(node.left) or _is_text(node.right))))


def _lines_in(node: ast.AST) -> list[ast.expr]:
    """The whole lines in what is added to the warnings: a text, or the texts of a tuple or list
    (displayed or comprehended)."""
    if _is_text(node):
        return [node]
    if isinstance(node, (ast.Tuple, ast.List)):
        return [line for e in node.elts if _is_text(e) or isinstance(e, (ast.Tuple, ast.IfExp))
                for line in _lines_in(e)]
    if isinstance(node, ast.IfExp):
        return _lines_in(node.body) + _lines_in(node.orelse)
    if isinstance(node, (ast.ListComp, ast.GeneratorExp)):
        return _lines_in(node.elt)
    if isinstance(node, ast.BinOp):
        return _lines_in(node.left) + _lines_in(node.right)
    return []


def _said(node: ast.expr) -> bool:
    """``warnings`` or ``reading.warnings``: a name the warnings are gathered in."""
    return (isinstance(node, ast.Name) and node.id in SAID) or (isinstance(node, ast.Attribute) and node.attr in SAID)


def warnings_made(path: Path) -> list[str]:
    """Every warning ``path`` can give: a text appended to, or added to, its warnings (``SAID``);
    given as a reading's ``warnings``; or returned as the lines to tell (a tuple of texts)."""
    found: list[ast.expr] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "append"
                and _said(node.func.value)):
            found += _lines_in(node.args[0])
        elif isinstance(node, (ast.AugAssign, ast.Assign)) and any(
                _said(t) for t in (node.targets if isinstance(node, ast.Assign) else [node.target])):
            found += _lines_in(node.value)
        elif isinstance(node, ast.keyword) and node.arg in SAID:
            found += _lines_in(node.value)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "HandRead":
            found += [line for arg in node.args if isinstance(arg, ast.Tuple) for line in _lines_in(arg)]
        elif isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple):
            found += _lines_in(node.value)
    return sorted({text for line in found for text in _render(line)})


HAND_PHOTO_LINES = [line for path in HAND_PHOTO_WARNINGS for line in warnings_made(path)]
TABLE_LINES = [line for path in TABLE_WARNINGS for line in warnings_made(path)]
MENDS = [Mend({}, "3m", "4m", 0.31).says(), Mend({}, "9p", "9m", 0.25, gari=True).says()]


def japanese_first(line: str) -> str:
    """The Japanese the tablet shows before ``line`` ('' where it shows none)."""
    shown = bilingual(line)
    ja = shown[: -len(line)] if shown.endswith(line) else ""
    return ja.removesuffix(" · ") if JAPANESE.search(ja) else ""


def test_the_warnings_are_all_found():
    # the collector sees the audited warnings, so a warning it missed cannot pass unseen
    for line in ("13 tiles in the line: the winning tile is not among them; pick it",
                 "who each meld was called from cannot be seen in a photo of the hand: check it",
                 "the hand waits on 1p 4p: pick the winning tile",
                 "the line holds 12 concealed tile(s) and 12 meld(s): 12, not 12",
                 "6m read where the line's spacing says a tile was missed; check it",
                 "the winning tile is not shown: the hand waits on 6m alone, so it is taken as the winning tile "
                 "(a five: red or plain, check)"):
        assert line in HAND_PHOTO_LINES
    assert len(HAND_PHOTO_LINES) >= 14


@pytest.mark.parametrize("line", HAND_PHOTO_LINES + MENDS)
def test_every_warning_the_hand_photo_reader_can_give_reads_japanese_first_on_the_tablet(line):
    assert japanese_first(line), f"no Japanese gloss (service/refusal_ja.py GLOSSES) for: {line}"


def test_the_table_cameras_warnings_are_all_found():
    for line in ("12 copies of 0p on the table (a set has 12)",
                 "unsure of the 6m at (0, 0) mm (score 0.42)",
                 "too few of the table's markers seen in this frame (covered?): used the last good fit",
                 "a 6m in the meld zone boxed as two halves (6m, 0p): read as one",
                 "the hand has 12 concealed tiles and 12 meld(s): 12, not 14"):
        assert line in TABLE_LINES
    assert len(TABLE_LINES) >= 15


@pytest.mark.parametrize("line", TABLE_LINES)
def test_every_warning_the_table_camera_can_give_reads_japanese_first_on_the_tablet(line):
    assert japanese_first(line), f"no Japanese gloss (service/refusal_ja.py GLOSSES) for: {line}"


@pytest.mark.parametrize("line, ja", [
    ("5 copies of 3p on the table (a set has 4)", "卓に 3p が 5 枚あります(1組に 4 枚)"),
    ("3 boxes of 7s in 52 mm of the hand row: read as 2", "手牌の列の 7s を 3 枚と見ましたが、長さから 2 枚と読みました"),
    ("unsure of the 0p at (120, 40) mm (score 0.41)", "0p の読みに自信がありません"),
    ("the table file changed but cannot be read (t1.json: not JSON): read with the one read before",
     "卓の設定ファイルが読めません"),
])
def test_the_table_cameras_warnings_carry_their_tiles_and_counts_into_the_japanese(line, ja):
    assert japanese_first(line).startswith(ja), bilingual(line)


W, H = 60, 80


def photo_line(tiles: str, gaps: dict[int, float] | None = None) -> list[Tile]:
    """Boxes of ``tiles`` side by side as a photo of the hand shows them; ``gaps[i]``: tile widths of
    felt before tile i."""
    out, x = [], 100.0
    for i, name in enumerate(tiles.split()):
        x += (gaps or {}).get(i, 0) * W
        out.append(Tile(name, (x, 500, x + W, 500 + H), 0.9, 0))
        x += W
    return out


@pytest.mark.parametrize("tiles, gaps, ja", [
    ("1m 1m 1m 2p 3p 4p 5p 6p 7p 9s 9s 9s 5z", None, "写真の牌は13枚で、和了牌がありません"),
    ("1m 1m 1m 2p 3p 4p 5p 6p 7p 9s 9s 9s", None, "手牌 12 枚と鳴き 0 組で 12 枚です"),
    ("2p 3p 4p 6s 7s 8s 9m 9m 1z 1z 1z 7z 7z 7z", {10: 0.5, 11: 0.6}, "誰から鳴いたかは写真ではわかりません"),
])
def test_a_photo_of_the_hand_is_told_in_japanese_with_its_own_counts(tiles, gaps, ja):
    said = read_hand(photo_line(tiles, gaps)).warnings
    assert any(japanese_first(w).startswith(ja) for w in said), said


def test_the_tiles_a_hand_waits_on_are_named_in_the_japanese_too():
    shown = {"rules": "dunhill", "seat": "east", "win": "tsumo", "concealed": "23678p234678s99s", "win_tile": ""}
    tiles = [Tile(t, (0, 0, 1, 1)) for t in "2p 3p 6p 7p 8p 2s 3s 4s 6s 7s 8s 9s 9s".split()]
    _, said = mended(shown, tiles)
    assert [japanese_first(w) for w in said] == ["待ちは 1p 4p です。和了牌を選んでください"]
    assert japanese_first("6m read where the line's spacing says a tile was missed; check it").startswith(
        "牌の間隔から見落としとみて、そこを 6m と読みました")
    assert "3m" in japanese_first(MENDS[0]) and "4m" in japanese_first(MENDS[0]) and "31%" in japanese_first(MENDS[0])


@pytest.mark.parametrize("draft, op", [
    (Draft(win="ron"), "double"),                                            # no discarder yet
    (Draft(seat="south", win="ron", discarder="east", concealed="11z").apply("double"), "double"),
    (Draft(concealed="123m456p789s11z5z"), "win:0"),                         # 13 tiles: no winning tile among them
    (Draft(concealed="123m"), "pick:concealed:9p"),                          # fixed already on another tap
    (Draft(), "pick:meld:1"),
    (Draft(), "red:0:0"),
    (Draft(melds=({"kind": "ankan", "tiles": "1111p"},)), "less:0"),       # nothing added to take back
    (Draft(melds=({"kind": "ankan", "tiles": "11112p"},)), "less:0"),
    (Draft(target="ankan", melds=({"kind": "ankan", "tiles": "11111111p"},), wall=Wall(kan_most=(4, 8, 8, 4))),
     "add:1p"),                                                            # chinton: a ninth 1p
    (Draft(concealed="123m"), "del:concealed:5"),
    (Draft(), "add:8z"),
    (Draft(), "frobnicate"),
])
def test_a_tap_the_editor_refuses_reads_japanese_first(draft, op):
    with pytest.raises(EditError) as refused:
        draft.apply(op)
    assert japanese_first(str(refused.value)), str(refused.value)


def test_a_ron_confirmed_without_its_discarder_is_refused_in_japanese_first(client):
    sid = client.post("/api/sessions", json={"rules": "dunhill", "players": PLAYERS}).json()["id"]
    form = {"hand": "1", "seat": "east", "win": "ron", "discarder": "", "melds": "[]", **CHUN}
    refused = client.post(f"/s/{sid}/confirm", data=form, headers={"HX-Request": "true"})
    assert refused.status_code == 422 and "ロンは放銃者を選んでください" in refused.text
    doubled = client.post(f"/s/{sid}/edit", data={**form, "op": "double"}, headers={"HX-Request": "true"})
    assert "ダブロンは、ロンと放銃者を選んでから押してください" in doubled.text


def test_the_history_page_says_each_heading_in_both_languages(client):
    sid = client.post("/api/sessions", json={"rules": "dunhill", "players": PLAYERS}).json()["id"]
    page = client.get(f"/s/{sid}/history").text
    assert "(今終わった場合 if the session ended now)" in page
    heads = re.findall(r"<th>([^<]+)</th>", re.search(r'id="hands">(.*?)</tr>', page, re.S).group(1))
    heads = [h for h in heads if h not in PLAYERS]
    assert heads and all(JAPANESE.search(h) and re.search(r"[a-z]", h) for h in heads), heads


def test_a_meld_is_labelled_by_its_kind_and_the_player_it_was_called_from(client):
    """The meld row read "pon ← west": the raw words of the record, English only."""
    import json
    sid = client.post("/api/sessions", json={"rules": "dunhill", "players": PLAYERS}).json()["id"]
    form = {"seat": "south", "win": "ron", "discarder": "west", "concealed": "234p678p234s66s", "win_tile": "6s",
            "melds": json.dumps([{"kind": "pon", "tiles": "777z", "from": "west"}]), "op": ""}
    page = client.post(f"/s/{sid}/edit", data=form, headers={"HX-Request": "true"}).text
    assert f"ポン pon ← 西 {PLAYERS[2]}" in page


@pytest.mark.parametrize("rules, offered", [("dunhill", False), ("balance", False), ("isshokai", True)])
def test_renhou_is_offered_where_the_rule_counts_it(client, rules, offered):
    """人和 was offered under every rule; ticked where the rule does not count it (its seed defers
    to four-player play), it changed nothing and said nothing."""
    sid = client.post("/api/sessions", json={"rules": rules, "players": PLAYERS}).json()["id"]
    form = {"seat": "south", "win": "ron", "discarder": "west", "concealed": "234p678p234s66s777z", "win_tile": "6s",
            "melds": "[]", "op": ""}
    page = client.post(f"/s/{sid}/edit", data=form, headers={"HX-Request": "true"}).text
    assert ('name="renhou"' in page) is offered and 'name="tenhou"' in page


def _flag_refusals() -> list[str]:
    """Every refusal ``scoring.validate._check_flags`` can give (the flags a player ticks on the
    tablet: riichi, rinshan, tenhou...), its variable parts sampled."""
    tree = ast.parse((ROOT / "scoring" / "validate.py").read_text(encoding="utf-8"))
    check = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "_check_flags")
    said = [call.args[0] for call in ast.walk(check) if isinstance(call, ast.Call)
            and getattr(call.func, "id", "") == "ScoringError" and call.args and _is_text(call.args[0])]
    return [text for node in said for text in _render(node)]


def test_every_refusal_of_a_ticked_flag_reads_japanese_first():
    """人和 ticked on an open hand under isshokai: the tablet said only "renhou is a non-dealer's
    closed ron"."""
    refusals = _flag_refusals()
    assert any("renhou" in r for r in refusals) and len(refusals) >= 10
    english_only = [r for r in refusals if not JAPANESE.search(bilingual(r).split(" · ")[0])]
    assert english_only == []
