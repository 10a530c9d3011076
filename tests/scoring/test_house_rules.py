"""House rules: a parlour's own rule file that extends a preset (docs/house-rules.md).

A house rule says what it extends, its names, and only what differs. Each test
writes small house rule files into a fresh rules folder (TOUTENKOU_RULES_DIR)
and checks what the engine and the command line make of them:

- a house rule that changes nothing counts every worked example as its base;
- each kind of change moves exactly the counts it should, and nothing else;
- a house rule may extend a house rule;
- a bad file is refused with one line naming the file, the key and what is allowed;
- ``presets``, ``rules new``, ``rules check`` and ``score --rules`` do what
  docs/house-rules.md says.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from house_files import ROOT, cli, house, one_error_line, rules  # noqa: F401  (rules: a fixture)
from rulebook import ScoringError, lines, score
from scoring import load_preset, preset_ids
from scoring.house import changes, read, toml_value
from scoring.rules_cli import template

EXAMPLES = sorted((ROOT / "examples").glob("*.json"))
REFERENCE = Path(__file__).parent / "data" / "speed_reference.jsonl"


def example(name: str) -> dict:
    return json.loads((ROOT / "examples" / name).read_text(encoding="utf-8"))


def outcome(record: dict, **kw) -> dict | str:
    """What the engine says of a record: its count without the rule's name, or the refusal."""
    try:
        d = score(record, **kw).to_dict()
    except ScoringError as e:
        return f"refused: {e}"
    d.pop("rules")
    return d


# --- a house rule that changes nothing counts as its base -------------------------------------

def test_there_are_worked_examples_to_count():
    assert {example(f.name)["rules"] for f in EXAMPLES} >= {"dunhill", "balance", "toutenkou"}
    assert sum(1 for _ in REFERENCE.open()) == 2000


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_a_house_rule_that_changes_nothing_counts_each_seed_example_as_its_base(rules, path):
    rec = json.loads(path.read_text(encoding="utf-8"))
    base = rec["rules"]
    house(rules, f"same-{base}", base)
    as_base = outcome(rec)
    assert isinstance(as_base, dict)
    assert outcome({**rec, "rules": f"same-{base}"}) == as_base            # named in the record
    same = read(rules / f"same-{base}.toml").preset
    assert outcome({**rec, "rules": same.id}, preset=same) == as_base       # handed to score()


def test_a_house_rule_that_changes_nothing_counts_every_reference_record_as_its_base(rules):
    """tests/scoring/data/speed_reference.jsonl: 2,000 records of all five rules, options and
    refusals included; each comes out the same under a house rule that only names its base."""
    for pid in preset_ids():
        house(rules, f"same-{pid}", pid)
    n = differ = 0
    first = None
    for line in REFERENCE.open(encoding="utf-8"):
        rec = json.loads(line)["record"]
        base, same = rec["rules"], f"same-{rec['rules']}"
        a, b = outcome(rec), outcome({**rec, "rules": same})
        if isinstance(b, str):
            b = b.replace(same, base)       # a refusal names the rule it was counted under
        n += 1
        if a != b:
            differ += 1
            first = first or (rec, a, b)
    assert n == 2000
    assert differ == 0, f"{differ} differ, first: {first}"


@pytest.mark.parametrize("base", preset_ids())
def test_a_house_rule_that_changes_nothing_has_its_bases_digest_and_no_changes(rules, base):
    rule = read(house(rules, "same", base))
    assert rule.preset.digest == load_preset(base).digest
    assert changes(rule.preset, rule.base) == []
    assert dict(rule.preset.table) == dict(load_preset(base).table)
    assert rule.preset.id == "same" and rule.preset.extends == base


def test_the_digest_is_a_stable_hash_of_what_counts(rules):
    d = load_preset("dunhill").digest
    assert re.fullmatch(r"[0-9a-f]{20}", d)
    fresh = subprocess.run([sys.executable, "-c", "import scoring; print(scoring.load_preset('dunhill').digest)"],
                           cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert fresh.stdout.strip() == d                                         # same in another process
    renamed = read(house(rules, "renamed", "dunhill", name_ja="別名", name_en="Other name"))
    assert renamed.preset.digest == d                                        # names are not counted
    noten = read(house(rules, "noten", "dunhill", "[table]\nnoten_total = 10\n"))
    assert noten.preset.digest != d                                          # any value is
    assert load_preset("dunhill", {"open_riichi_points": 1}).digest != d     # options too


@pytest.mark.parametrize("base", preset_ids())
def test_every_line_of_a_starting_file_uncommented_alone_changes_nothing(rules, base):
    """``rules new`` shows each key at its current value: uncommenting any one of them
    gives a valid house rule that resolves to exactly its base's values."""
    text = template("start", load_preset(base))
    assert tomllib.loads(text)["extends"] == base
    commented = [i for i, line in enumerate(text.splitlines())
                 if re.match(r"^# [A-Za-z0-9_]+ = ", line)]
    assert len(commented) > 40
    recs = [example(f.name) for f in EXAMPLES if example(f.name)["rules"] == base]
    for i in commented:
        src = text.splitlines()
        src[i] = src[i][2:]
        path = rules / "start.toml"
        path.write_text("\n".join(src) + "\n", encoding="utf-8")
        rule = read(path)
        assert changes(rule.preset, rule.base) == [], src[i]
        for rec in recs:
            assert outcome({**rec, "rules": "start"}) == outcome(rec), src[i]


# --- each kind of change moves exactly the counts it should -----------------------------------

def _under(rules: Path, body: str, rec: dict, base: str = "dunhill"):
    house(rules, "ours", base, body)
    return score(rec), score({**rec, "rules": "ours"})


def _only_differs(a, b, keys: set[str]) -> None:
    la, lb = lines(a), lines(b)
    assert set(la) | set(lb) >= keys
    assert {k: v for k, v in la.items() if k not in keys} == {k: v for k, v in lb.items() if k not in keys}


def test_an_item_value_dealer_2_adds_one_point_before_the_multiplier(rules):
    """[items] dealer = 2: example 1 counts 49 instead of 48, then x2 = 98."""
    base, ours = _under(rules, "[items]\ndealer = 2\n", example("dunhill-96.json"))
    assert (lines(base)["dealer"], lines(ours)["dealer"]) == (1, 2)
    _only_differs(base, ours, {"dealer"})
    assert (base.total, ours.total) == (96, 98)
    assert dict(ours.payments) == {"south": 98, "west": 98}
    assert ours.rules == "ours"


def test_a_yaku_value_ittsu_3_adds_one_point_to_example_2_only(rules):
    base, ours = _under(rules, "[yaku]\nittsu = [3, 1]\n", example("dunhill-60.json"))
    assert (lines(base)["ittsu"], lines(ours)["ittsu"]) == (2, 3)
    _only_differs(base, ours, {"ittsu"})
    assert (base.total, ours.total) == (60, 63)                              # 21 x 3
    b96, o96 = score(example("dunhill-96.json")), score({**example("dunhill-96.json"), "rules": "ours"})
    assert outcome(o96.record) == outcome(b96.record) and o96.total == 96    # no ittsu there


def test_a_multiplier_karasu_x2_instead_of_x3(rules):
    base, ours = _under(rules, "[karasu]\nfactor = 2\n", example("dunhill-60.json"))
    assert (lines(base)["karasu"], lines(ours)["karasu"]) == ("x3", "x2")
    _only_differs(base, ours, {"karasu"})
    assert (base.total, ours.total) == (60, 40)                              # 20 x 2
    assert score({**example("dunhill-96.json"), "rules": "ours"}).total == 96  # it has gari


def test_a_multiplier_gari_set_x3_instead_of_x2(rules):
    base, ours = _under(rules, "[gari_set]\nfactor = 3\n", example("dunhill-96.json"))
    assert (base.total, ours.total) == (96, 144)                             # 48 x 3
    _only_differs(base, ours, {"gari_set"})
    assert score({**example("dunhill-60.json"), "rules": "ours"}).total == 60


def test_the_bounty_round_from_6_honba_drops_example_1s_bounty(rules):
    base, ours = _under(rules, "[bounty]\nfrom_honba = 6\n", example("dunhill-96.json"))
    assert "bounty" in lines(base) and "bounty" not in lines(ours)
    _only_differs(base, ours, {"bounty"})
    assert (base.total, ours.total, ours.bounty) == (96, 76, 0)              # (48 - 10) x 2


def test_an_option_choice_open_riichi_1_counts_an_open_riichi_as_a_riichi(rules):
    rec = {**example("dunhill-60.json"), "riichi": True, "open_riichi": True}
    base, ours = _under(rules, "[options]\nopen_riichi_points = 1\n", rec)
    assert lines(base)["open_riichi"] == 1 and "open_riichi" not in lines(ours)
    _only_differs(base, ours, {"open_riichi"})
    assert (base.total, ours.total) == (66, 63)                              # (22 | 21) x 3
    assert load_preset("ours").option("open_riichi_points") == 1
    # the record may still choose the other way
    assert score({**rec, "rules": "ours", "options": {"open_riichi_points": 2}}).total == 66


def test_an_option_that_is_a_plain_value_gari_bai_on_doubles_gari_under_a_gari_indicator(rules):
    """toutenkou's ガリ倍: a gari (9m) as the dora indicator doubles the gari points."""
    rec = {**example("toutenkou-12.json"), "dora_indicators": "9m"}
    base, ours = _under(rules, "[options]\ngari_bai = true\n", rec, base="toutenkou")
    assert (lines(base)["gari"], lines(ours)["gari"]) == (3, 6)
    _only_differs(base, ours, {"gari"})
    assert (base.total, ours.total) == (13, 16)
    assert score({**example("toutenkou-12.json"), "rules": "ours"}).total == 12   # no gari indicator


def test_a_key_another_built_in_has_every_5p_5s_counts_in_dunhill(rules):
    """[items] five is balance's and isshokai's key; a dunhill house rule may set it."""
    base, ours = _under(rules, "[items]\nfive = { p = 1, s = 1 }\n", example("dunhill-60.json"))
    assert "fives" not in lines(base) and lines(ours)["fives"] == 4          # 0p 0s 0s 5s
    _only_differs(base, ours, {"fives"})
    assert (base.total, ours.total) == (60, 72)                              # 24 x 3


def test_table_rules_change_the_table_the_ledger_reads_and_no_count(rules):
    house(rules, "ours", "dunhill", "[table]\nnoten_total = 10\nchombo_each = 30\nnew_dealer_honba = 1\n")
    base, ours = dict(load_preset("dunhill").table), dict(load_preset("ours").table)
    assert {k: (base[k], ours[k]) for k in base if base[k] != ours[k]} == {
        "noten_total": (6, 10), "chombo_each": (20, 30), "new_dealer_honba": (0, 1)}
    assert [c[0] for c in changes(load_preset("ours"), load_preset("dunhill"))] == [
        "table.new_dealer_honba", "table.noten_total", "table.chombo_each"]        # nothing else moved
    for f in EXAMPLES:
        rec = example(f.name)
        if rec["rules"] == "dunhill":
            assert outcome({**rec, "rules": "ours"}) == outcome(rec)


def test_a_value_set_here_wins_over_the_option_that_patches_it(rules):
    """toutenkou's option fives patches items.red; a house rule's own red stays whatever
    the option says, and the other keys the option patches still follow it."""
    rule = read(house(rules, "ours", "toutenkou", "[items]\nred = { m = 2, p = 2, s = 2 }\n"))
    assert rule.notes == ("option fives no longer changes items.red (the value set here wins)",)
    dora = load_preset("ours", {"fives": "dora"})
    assert dict(dora.section("items")["red"]) == {"m": 2, "p": 2, "s": 2}
    assert dict(dora.section("items")["five"]) == {"p": 1, "s": 1}


def test_a_table_value_must_be_in_the_bases_choices_unless_the_house_changes_them(rules):
    with pytest.raises(ScoringError, match=r"ours\.toml: table\.noten_total must be one of 10, 30"):
        read(house(rules, "ours", "toutenkou", "[table]\nnoten_total = 20\n"))
    rule = read(house(rules, "ours2", "toutenkou", "[table]\nnoten_total = 20\nnoten_total_choices = [10, 20, 30]\n"))
    assert rule.preset.table["noten_total"] == 20
    assert "option noten no longer changes table.noten_total (the value set here wins)" in rule.notes


# --- extends chains -------------------------------------------------------------------------

def test_a_house_rule_may_extend_a_house_rule(rules):
    house(rules, "parlour", "dunhill", "[table]\nnoten_total = 10\n")
    rule = read(house(rules, "parlour-late", "parlour", "[table]\nchombo_each = 30\n[items]\ndealer = 2\n"))
    assert rule.chain == ("parlour", "dunhill")
    t = rule.preset.table
    assert (t["noten_total"], t["chombo_each"]) == (10, 30)                  # both layers
    assert [c[0] for c in changes(rule.preset, rule.base)] == ["items.dealer", "table.chombo_each"]
    assert score({**example("dunhill-96.json"), "rules": "parlour-late"}).total == 98
    assert score({**example("dunhill-96.json"), "rules": "parlour"}).total == 96


def test_a_base_beside_the_file_is_found_before_the_rules_folder(rules, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    house(elsewhere, "parlour", "dunhill", "[items]\ndealer = 3\n")
    house(rules, "parlour", "dunhill", "[items]\ndealer = 2\n")
    beside = read(house(elsewhere, "late", "parlour"))
    assert beside.preset.section("items")["dealer"] == 3
    in_folder = read(house(tmp_path, "late2", "parlour"))                    # none beside: the folder's
    assert in_folder.preset.section("items")["dealer"] == 2


def test_editing_a_base_reaches_the_rules_that_extend_it(rules):
    house(rules, "parlour", "dunhill", "[table]\nnoten_total = 10\n")
    house(rules, "late", "parlour")
    assert load_preset("late").table["noten_total"] == 10
    house(rules, "parlour", "dunhill", "[table]\nnoten_total = 100\n")
    assert load_preset("late").table["noten_total"] == 100


# --- a bad file: one error naming the file, the key and what is allowed -----------------------

BAD = {
    "unknown top-level key": ("dunhill", 'unit = "sticks"\n',
                              ["unknown key 'unit' at the top", "extends, name_ja, name_en", "[table]"]),
    "unknown section": ("dunhill", "[tabel]\nnoten_total = 10\n",
                        ["unknown section [tabel]", "allowed: [options]", "[table]"]),
    "unknown key in a section": ("dunhill", "[table]\nnoten = 10\n",
                                 ["unknown key table.noten ", "allowed in [table]", "noten_total"]),
    "unknown option": ("dunhill", "[options]\ngari_bai = true\n",
                       ["unknown option options.gari_bai", "declared by toutenkou",
                        "dunhill declares: open_riichi_deal_in, dora_counts_gari, open_riichi_points"]),
    "a string for a number": ("dunhill", '[table]\nnoten_total = "10"\n',
                              ["table.noten_total must be an integer like dunhill's 6", 'got "10"']),
    "a number for true/false": ("dunhill", "[table]\ndouble_ron = 1\n",
                                ["table.double_ron must be true or false like dunhill's true", "got 1"]),
    "a yaku value not [closed, open]": ("dunhill", "[yaku]\nittsu = 2\n",
                                        ["yaku.ittsu must be [closed, open]", "got 2"]),
    "a key of an inline table": ("dunhill", "[items]\nred = { m = 3, z = 1 }\n",
                                 ["items.red key 'z' must be m, p or s"]),
    "a value inside an inline table": ("dunhill", '[items]\nred = { m = "3" }\n',
                                       ["items.red.m must be an integer"]),
    "an option of the wrong type": ("dunhill", '[options]\nopen_riichi_points = "1"\n',
                                    ["options.open_riichi_points must be an integer like dunhill's 2"]),
    "a value outside an option's choices": ("dunhill", "[options]\nopen_riichi_points = 3\n",
                                            ["options.open_riichi_points must be one of 1, 2", "got 3"]),
    "a value outside a table rule's choices": ("toutenkou", "[table]\nnoten_total = 20\n",
                                               ["table.noten_total must be one of 10, 30"]),
    "a word the ledger does not know": ("dunhill", '[table]\nnoten_to = "kitty"\n',
                                        ["table.noten_to must be one of players, pool", 'got "kitty"']),
    "not a tile": ("dunhill", '[tiles]\ngari = ["1m", "5m", "9m", "8z"]\n',
                   ["tiles.gari (an element) must be a tile", 'got "8z"']),
    "a negative count": ("dunhill", "[items]\ndealer = -1\n", ["items.dealer must not be negative"]),
    "a stick worth more than a table plays": ("dunhill", "[table]\nriichi_stick = 100000000000000000000000000000\n",
                                              ["table.riichi_stick must be a finite number within 1,000,000"]),
    "an endless multiplier": ("dunhill", "[karasu]\nfactor = inf\n", ["karasu.factor must be"]),
    "a multiplier of nothing": ("dunhill", "[karasu]\nfactor = 0\n", ["karasu.factor must be at least 1", "got 0"]),
    "a gari set of nothing": ("dunhill", "[gari_set]\nfactor = 0\n", ["gari_set.factor must be at least 1"]),
    "a point worth nothing": ("dunhill", "[table]\nunit_value = 0\n", ["table.unit_value must be at least 1"]),
    "an odd noten payment": ("dunhill", "[table]\nnoten_total = 7\n", ["table.noten_total must be even", "got 7"]),
    "a stick game that pays out more than it takes": (
        "isshokai", "[table]\nstart_sticks = 30\n",
        ["a stick game must settle to nothing", "table.start_sticks 30", "= 15, not 0"]),
    "a stick game that ends before it starts": (
        "isshokai", "[table]\nstart_sticks = 0\n", ["a stick game must settle to nothing", "= -75, not 0"]),
    "a file nested thousands deep": ("dunhill", "[table]\nchombo_each = " + "[" * 3000 + "]" * 3000 + "\n",
                                     ["nested deeper than 8 levels"]),
    "a table nested hundreds deep": ("dunhill", "[table]\nchombo_each = " + "{a=" * 500 + "1" + "}" * 500 + "\n",
                                     ["nested deeper than 8 levels"]),
    "a missing base": ("nosuch", "", ["extends = 'nosuch': no such rule", "built-ins: balance, chinton"]),
    "no copies of a kind": ("dunhill", "[tiles]\ncopies = 0\n", ["tiles.copies must be at least 1"]),
    "a manzu number off the tiles": ("dunhill", "[tiles]\nmanzu = [1, 5, 10]\n",
                                     ["tiles.manzu must list numbers 1-9, each once", "got [1, 5, 10]"]),
    "more red fives than fives": ("dunhill", "[tiles]\nred = { m = 2, p = 5, s = 2 }\n",
                                  ["tiles.red.p = 5 is more red fives than the 4 copies of 5p"]),
    "a gari not in the wall": ("dunhill", "[tiles]\nmanzu = [1, 9]\n",
                               ["tiles.gari names 5m, not in the wall", "tiles.manzu = [1, 9]"]),
    "a dora not in the wall": ("dunhill", '[tiles]\nmanzu = [1, 9]\ngari = ["1m", "9m", "4z"]\n',
                               ["tiles.dora_next: the indicator 1m points at 5m, not in the wall"]),
}


def test_a_wall_without_5m_loads_once_its_gari_and_dora_say_so(rules):
    # 108 tiles, as toutenkou's: 1m's dora is 9m and 5m is no gari, since 5m is not in the wall
    path = house(rules, "no5m", "dunhill",
                 '[tiles]\nmanzu = [1, 9]\ngari = ["1m", "9m", "4z"]\ndora_next = { "1m" = "9m", "9m" = "1m" }\n')
    rule = read(path)
    assert rule.preset.section("tiles")["manzu"] == [1, 9]


@pytest.mark.parametrize("case", BAD, ids=list(BAD))
def test_a_bad_file_is_refused_naming_the_file_and_the_key(rules, case):
    base, body, words = BAD[case]
    path = house(rules, "bad", base, body)
    with pytest.raises(ScoringError) as e:
        read(path)
    msg = str(e.value)
    assert msg.startswith(f"{path}: ") and "\n" not in msg
    for w in words:
        assert w in msg, msg
    # the engine refuses it by name, and the CLI in one line, exit 2
    with pytest.raises(ScoringError, match=re.escape(str(path))):
        score({**example("dunhill-60.json"), "rules": "bad"})
    err = one_error_line(cli("rules", "check", str(path), env_dir=rules))
    assert words[0] in err and str(path) in err


def test_a_cycle_in_extends_is_refused(rules):
    house(rules, "a", "b")
    house(rules, "b", "a")
    with pytest.raises(ScoringError, match=r"a\.toml: extends makes a cycle: a -> b -> a"):
        read(rules / "a.toml")
    with pytest.raises(ScoringError, match=r"self\.toml: extends makes a cycle: self -> self"):
        read(house(rules, "self", "self"))


def test_a_file_named_like_a_built_in_is_refused(rules):
    with pytest.raises(ScoringError, match=r"dunhill\.toml: 'dunhill' is a built-in rule's name; "
                                           r"built-ins are read-only"):
        read(house(rules, "dunhill", "dunhill"))
    assert load_preset("dunhill").extends is None                           # the built-in still wins
    with pytest.raises(ScoringError, match=r"'Dunhill' is a built-in rule's name"):    # beside dunhill: a trap
        read(house(rules, "Dunhill", "dunhill"))


def test_a_missing_base_lists_the_house_rules_of_the_files_own_folder(rules, tmp_path):
    """The counter's rules folder is not scoring's default one: the message listed the wrong folder's."""
    elsewhere = tmp_path / "counter-rules"
    elsewhere.mkdir()
    house(elsewhere, "ours", "dunhill")
    with pytest.raises(ScoringError, match=rf"house rules in {re.escape(str(elsewhere))}: ours"):
        read(house(elsewhere, "typo", "ourz"))


@pytest.mark.parametrize("text,words", [
    ('name_ja = "x"\nname_en = "x"\n', "missing key 'extends'"),
    ('extends = "dunhill"\nname_en = "x"\n', "missing key 'name_ja'"),
    ('extends = "dunhill"\nname_ja = "x"\nname_en = 3\n', "name_en must be a non-empty string"),
    ('extends = "dunhill\n', "not valid TOML"),
], ids=["no extends", "no name_ja", "name_en not a string", "not TOML"])
def test_a_file_missing_what_every_house_rule_has_is_refused(rules, text, words):
    path = rules / "bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ScoringError, match=re.escape(f"{path}: {words}")):
        read(path)


def test_an_unknown_name_is_still_an_unknown_rules_preset(rules):
    with pytest.raises(ScoringError, match=r"unknown rules preset 'nosuch'; built-ins: .*; house rules in"):
        score({**example("dunhill-60.json"), "rules": "nosuch"})
    with pytest.raises(ScoringError, match="unknown rules preset '../dunhill'"):
        score({**example("dunhill-60.json"), "rules": "../dunhill"})


# --- the command line -------------------------------------------------------------------------

def test_presets_lists_the_built_ins_and_the_house_rules_marked_as_such(rules):
    house(rules, "parlour", "dunhill")
    house(rules, "broken", "dunhill", "[table]\nnoten = 1\n")
    p = cli("presets", env_dir=rules)
    assert p.returncode == 0, p.stderr
    rows = p.stdout.splitlines()
    assert rows[:5] == [f"{pid:<12} built-in" for pid in preset_ids()]
    assert f"parlour      house rule, extends dunhill, file {rules / 'parlour.toml'}" in rows
    assert any(r.startswith("broken ") and "not loadable" in r and "table.noten" in r for r in rows)


def test_rules_new_writes_a_commented_starting_file_that_changes_nothing(rules, tmp_path):
    p = cli("rules", "new", "parlour", "--from", "dunhill", env_dir=rules)
    assert p.returncode == 0, p.stderr
    path = rules / "parlour.toml"
    text = path.read_text(encoding="utf-8")
    data = tomllib.loads(text)
    assert data["extends"] == "dunhill" and data["name_ja"] and data["name_en"]
    for key, value in load_preset("dunhill").table.items():                  # every key, commented
        assert f"# {key} = {toml_value(value)}" in text
    assert "# open_riichi_points = 2" in text and "Choices: 1, 2." in text
    assert '# "場に6点": one tenpai takes 3 from each; one noten pays 3 to each\n# noten_total = 6' in text
    check = cli("rules", "check", "parlour", env_dir=rules)
    assert check.returncode == 0, check.stderr
    assert "changes from dunhill: none (it counts as dunhill)" in check.stdout
    missing = tmp_path / "no-such-folder"                 # examples asked for where there are none
    assert f"--examples {missing}: no such folder" in one_error_line(
        cli("rules", "check", "parlour", "--examples", str(missing), env_dir=rules))


def test_rules_new_refuses_to_overwrite_or_to_take_a_built_ins_name(rules, tmp_path):
    assert cli("rules", "new", "parlour", "--from", "dunhill", env_dir=rules).returncode == 0
    before = (rules / "parlour.toml").read_text(encoding="utf-8")
    assert "exists already" in one_error_line(cli("rules", "new", "parlour", "--from", "balance", env_dir=rules))
    assert (rules / "parlour.toml").read_text(encoding="utf-8") == before
    assert "built-in rule's name" in one_error_line(cli("rules", "new", "dunhill", "--from", "dunhill", env_dir=rules))
    assert "no such rule" in one_error_line(cli("rules", "new", "x", "--from", "nosuch", env_dir=rules))
    assert "named by its file" in one_error_line(
        cli("rules", "new", "x", "--from", "dunhill", "--out", str(tmp_path / "y.toml"), env_dir=rules))


def test_rules_new_out_writes_elsewhere_and_may_start_from_a_house_rule(rules, tmp_path):
    house(rules, "parlour", "dunhill", "[table]\nnoten_total = 10  # 場に10\n")
    p = cli("rules", "new", "late", "--from", "parlour", "--out", str(tmp_path), env_dir=rules)
    assert p.returncode == 0, p.stderr
    text = (tmp_path / "late.toml").read_text(encoding="utf-8")
    assert '# 場に10\n# noten_total = 10' in text                           # the house rule's value and comment
    assert read(tmp_path / "late.toml").chain == ("parlour", "dunhill")
    # a folder not made yet, said as one (a trailing slash): it was refused as a misnamed file
    p = cli("rules", "new", "later", "--from", "dunhill", "--out", str(tmp_path / "new") + "/", env_dir=rules)
    assert p.returncode == 0, p.stderr
    assert read(tmp_path / "new" / "later.toml").chain == ("dunhill",)


def test_rules_check_prints_the_changes_and_the_bases_examples_side_by_side(rules):
    path = house(rules, "parlour", "dunhill", "[items]\ndealer = 2\n[table]\nnoten_total = 10\n")
    p = cli("rules", "check", str(path), env_dir=rules)
    assert p.returncode == 0, p.stderr
    out = p.stdout
    assert f"house rule, extends dunhill, file {path}" in out
    assert "  items.dealer: 1 -> 2\n  table.noten_total: 6 -> 10\n" in out
    rows = {r.split()[0]: r for r in out.splitlines() if r.startswith("  dunhill-")}
    assert set(rows) == {"dunhill-60.json", "dunhill-96.json", "dunhill-first.json"}   # only the base's examples
    assert re.search(r"96 \(south 96, west 96\)\s+98 \(south 98, west 98\)\s+<- differs", rows["dunhill-96.json"])
    assert re.search(r"60 \(south 60, west 60\)\s+63 \(south 63, west 63\)", rows["dunhill-60.json"])


def test_rules_check_refuses_a_built_in_and_a_bad_file_with_one_line(rules):
    assert "is a built-in rule" in one_error_line(cli("rules", "check", "dunhill", env_dir=rules))
    path = house(rules, "bad", "dunhill", "[table]\nnoten_to = 3\n")
    err = one_error_line(cli("rules", "check", str(path), env_dir=rules))
    assert f"{path}: table.noten_to must be a string" in err
    assert "cannot read house rule" in one_error_line(cli("rules", "check", str(rules / "none.toml"), env_dir=rules))


def test_score_rules_with_a_file_or_a_name(rules):
    path = house(rules, "parlour", "dunhill", "[items]\ndealer = 2\n")
    hand = str(ROOT / "examples" / "dunhill-96.json")
    by_file = cli("score", hand, "--rules", str(path), env_dir=rules)
    by_name = cli("score", hand, "--rules", "parlour", env_dir=rules)
    assert by_file.returncode == by_name.returncode == 0, by_file.stderr + by_name.stderr
    assert by_file.stdout == by_name.stdout
    got = json.loads(by_file.stdout)
    assert (got["rules"], got["total"], got["payments"]) == ("parlour", 98, {"south": 98, "west": 98})
    text = cli("score", hand, "--rules", "parlour", "--text", env_dir=rules).stdout
    assert text.startswith("parlour: ") and "合計 total: 98点" in text
    # a record may name the house rule itself
    rec = json.dumps({**example("dunhill-96.json"), "rules": "parlour"})
    assert json.loads(cli("score", "-", stdin=rec, env_dir=rules).stdout)["total"] == 98


@pytest.mark.parametrize("flags", [[], ["--text"]], ids=["json", "text"])
def test_score_keeps_the_built_ins_output_byte_for_byte(rules, flags):
    for f in EXAMPLES:
        plain = cli("score", str(f), *flags, env_dir=rules)
        named = cli("score", str(f), *flags, "--rules", example(f.name)["rules"], env_dir=rules)
        builtin_file = cli("score", str(f), *flags, "--rules",
                           str(ROOT / "scoring" / "presets" / f"{example(f.name)['rules']}.toml"), env_dir=rules)
        assert plain.returncode == 0 and plain.stdout == named.stdout == builtin_file.stdout


def test_score_rules_refuses_a_missing_or_bad_rule_with_one_line(rules):
    hand = str(ROOT / "examples" / "dunhill-96.json")
    assert "cannot read house rule" in one_error_line(cli("score", hand, "--rules", str(rules / "no.toml"),
                                                          env_dir=rules))
    assert "unknown rules preset 'nosuch'" in one_error_line(cli("score", hand, "--rules", "nosuch", env_dir=rules))
    house(rules, "bad", "dunhill", "[yaku]\nittsu = [2]\n")
    assert "yaku.ittsu must be [closed, open]" in one_error_line(cli("score", hand, "--rules", "bad", env_dir=rules))


# --- the documented examples ------------------------------------------------------------------

HOUSE_EXAMPLES = ROOT / "examples" / "house-rules"
DOC = ROOT / "docs" / "house-rules.md"


@pytest.mark.parametrize("name", ["dunhill-ba10.toml", "toutenkou-garibai.toml"])
def test_the_example_files_are_shown_in_the_docs_as_they_are(name):
    text = (HOUSE_EXAMPLES / name).read_text(encoding="utf-8")
    assert f"```toml\n{text}```" in DOC.read_text(encoding="utf-8")


def test_dunhill_with_noten_10_and_chombo_30_all(rules):
    """docs/house-rules.md: dunhill's [table] has noten_total and chombo_each; ガリ倍 it has not."""
    rule = read(HOUSE_EXAMPLES / "dunhill-ba10.toml")
    assert [(k, a, b) for k, a, b in changes(rule.preset, rule.base)] == [
        ("table.noten_total", 6, 10), ("table.chombo_each", 20, 30)]
    assert rule.preset.table["noten_to"] == "players"                        # 場に: to the tenpai players
    for name in ("dunhill-60.json", "dunhill-96.json"):
        assert outcome({**example(name), "rules": rule.name}, preset=rule.preset) == outcome(example(name))
    with pytest.raises(ScoringError, match="unknown option options.gari_bai .gari_bai is declared by toutenkou"):
        read(house(rules, "ours", "dunhill", "[options]\ngari_bai = true\n"))


def test_toutenkou_with_gari_bai_noten_30_and_chombo_30_all(rules):
    rule = read(HOUSE_EXAMPLES / "toutenkou-garibai.toml")
    assert [k for k, _, _ in changes(rule.preset, rule.base)] == [
        "options.gari_bai", "options.noten", "table.noten_total", "table.chombo_each"]
    assert (rule.preset.table["noten_total"], rule.preset.table["chombo_each"]) == (30, 30)
    rec = {**example("toutenkou-12.json"), "dora_indicators": "9m"}          # a gari as the indicator
    assert (score(rec).total, score({**rec, "rules": rule.name}, rule.preset).total) == (13, 16)


def test_a_base_not_found_is_said_with_the_house_rules_of_the_folder_it_was_looked_for_in(tmp_path):
    """The counter's New with an unknown base named the command line's rules folder, not the
    table service's own, where the staff looked."""
    from scoring.house import resolve_base
    (tmp_path / "ours.toml").write_text('extends = "dunhill"\nname_ja = "x"\nname_en = "x"\n')
    with pytest.raises(ScoringError, match=f"house rules in {tmp_path}: ours"):
        resolve_base("nosuch", tmp_path / "new.toml")


def test_a_value_a_house_rule_sets_wins_over_an_option_the_seed_left_open(rules):
    """yakuman_stack and rinshan_on_gari were read as options before the rule's own keys: a house
    rule's ``[yakuman] stack = false`` counted two yakuman (306, where it counts 156), and an isshokai
    rule's ``[rules] rinshan_on_gari = true`` still refused a gari's rinshan."""
    house(rules, "once", "dunhill", "[yakuman]\nstack = false\n")
    two = {"seat": "south", "win": "ron", "discarder": "west", "concealed": "11155566677722z", "win_tile": "1z"}
    stacked, once = score({"rules": "dunhill", **two}), score({"rules": "once", **two})
    assert stacked.total - once.total == 150 and once.total == 156
    house(rules, "rinshan", "isshokai", "[rules]\nrinshan_on_gari = true\n")
    gari = {"seat": "south", "win": "tsumo", "concealed": "234678p234678s99s", "win_tile": "3p", "gari": "5m",
            "rinshan": True}
    assert lines(score({"rules": "rinshan", **gari}))["rinshan"] == 4
    with pytest.raises(ScoringError, match="rinshan needs a kan"):
        score({"rules": "isshokai", **gari})
    assert read(rules / "once.toml").notes == ("option yakuman_stack no longer changes yakuman.stack "
                                                "(the value set here wins)",)


def test_a_rule_file_cut_short_by_a_full_disk_is_not_left_behind(tmp_path):
    """Half a rule file passed ``rules check`` and blocked the retry ("exists already")."""
    import resource
    import signal
    import subprocess
    import sys

    def limit():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (2048, 2048))

    argv = [sys.executable, "-m", "scoring", "rules", "new", "big", "--from", "dunhill", "--out", f"{tmp_path}/"]
    cut = subprocess.run(argv, capture_output=True, text=True, preexec_fn=limit)
    assert cut.returncode == 2 and "cannot write" in cut.stderr
    assert not (tmp_path / "big.toml").exists()
    again = subprocess.run(argv, capture_output=True, text=True)
    assert again.returncode == 0 and (tmp_path / "big.toml").stat().st_size > 2048
