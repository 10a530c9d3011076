"""House rules as a whole: what a value needs beside it, and what a chain of house rules keeps.

A house rule is checked key by key (test_house_rules.py) and, once merged with its base, as a
whole (docs/house-rules.md, "The format"):

- a karasu or gari set mode comes with the values the engine reads for it (the base may give them);
- seven pairs counted by their quads have a value for every number of quads short of yakuman;
- every number, a yaku's and a yakuman's too, stays within the largest a table plays;
- the yaku a gari in hand is for are yaku, and a list of a key's choices lists something;
- in a chain, an option a house rule chooses does not patch a key a rule it extends set, and
  the note says so, as for a single file.
"""

from __future__ import annotations

import json

import pytest

from house_files import ROOT, cli, house, one_error_line, rules  # noqa: F401  (rules: a fixture)
from rulebook import ScoringError, score
from scoring import house_check, load_preset
from scoring.house import read

NO_GARI = {"rules": "toutenkou", "seat": "east", "win": "tsumo", "concealed": "234p678p234s66s777z",
           "win_tile": "6s"}
FOUR_OF_A_KIND_PAIRS = {"rules": "balance", "seat": "east", "win": "tsumo", "concealed": "1111p335577s2233z",
                        "win_tile": "3z", "gari": "1m"}


# --- a mode and what it reads ----------------------------------------------------------------

MODE_WITHOUT_ITS_VALUES = {
    "a fixed karasu without its count": (
        "toutenkou", '[karasu]\nmode = "fixed"\n', 'karasu.mode "fixed" needs karasu.value'),
    "a karasu fixed by state without its counts": (
        "balance", '[karasu]\nmode = "fixed_by_state"\n',
        'karasu.mode "fixed_by_state" needs karasu.closed (.*) and karasu.open'),
    "a final-count karasu without its count and what it becomes": (
        "toutenkou", '[karasu]\nmode = "final_count"\n',
        'karasu.mode "final_count" needs karasu.when (.*) and karasu.value'),
    "a final-count karasu without what it becomes": (
        "toutenkou", '[karasu]\nmode = "final_count"\nwhen = 3\n',
        r'karasu.mode "final_count" needs karasu.value \('),
    "an added karasu without its points": (
        "balance", '[karasu]\nmode = "add"\n', 'karasu.mode "add" needs karasu.closed (.*) and karasu.open'),
    "a multiplying karasu without its multiplier": (
        "isshokai", '[karasu]\nmode = "multiply"\n', 'karasu.mode "multiply" needs karasu.factor'),
    "an added gari set without its points": (
        "balance", '[gari_set]\nmode = "add"\n', 'gari_set.mode "add" needs gari_set.points'),
    "a multiplying gari set without its multiplier": (
        "toutenkou", '[gari_set]\nmode = "multiply"\n', 'gari_set.mode "multiply" needs gari_set.factor'),
}


@pytest.mark.parametrize("case", MODE_WITHOUT_ITS_VALUES, ids=list(MODE_WITHOUT_ITS_VALUES))
def test_a_mode_set_without_the_values_it_reads_is_refused_naming_them(rules, case):
    base, body, message = MODE_WITHOUT_ITS_VALUES[case]
    with pytest.raises(ScoringError, match=rf"ours\.toml: {message}"):
        read(house(rules, "ours", base, body))


def test_a_fixed_karasu_without_its_count_is_refused_at_scoring_not_counted_as_0(rules):
    house(rules, "tk-fixed", "toutenkou", '[karasu]\nmode = "fixed"\n')
    p = cli("score", "-", "--rules", "tk-fixed", "--text", env_dir=rules, stdin=json.dumps(NO_GARI))
    line = one_error_line(p)
    assert 'tk-fixed.toml: karasu.mode "fixed" needs karasu.value' in line
    assert p.stdout == ""


def test_a_mode_whose_values_come_from_the_base_or_the_file_loads_and_counts_with_them(rules):
    """toutenkou has closed 30 / open 20: its karasu may be fixed by state as they are; a fixed
    karasu with its value counts the value; isshokai's final count may change only what it becomes."""
    by_state = read(house(rules, "by-state", "toutenkou", '[karasu]\nmode = "fixed_by_state"\n')).preset
    assert score({**NO_GARI, "rules": "by-state"}).total == 30
    assert dict(by_state.section("karasu"))["closed"] == 30
    read(house(rules, "fixed", "toutenkou", '[karasu]\nmode = "fixed"\nvalue = 25\n'))
    assert score({**NO_GARI, "rules": "fixed"}).total == 25
    assert read(house(rules, "late", "isshokai", "[karasu]\nvalue = 20\n")).preset.section("karasu")["value"] == 20


def test_in_a_chain_a_mode_may_take_its_values_from_a_house_rule_it_extends(rules):
    house(rules, "pa", "dunhill", '[karasu]\nmode = "add"\nclosed = 3\nopen = 2\n')
    rule = read(house(rules, "pb", "pa", '[karasu]\nmode = "fixed_by_state"\n'))
    assert dict(rule.preset.section("karasu")) == {"mode": "fixed_by_state", "factor": 3, "closed": 3, "open": 2}
    with pytest.raises(ScoringError, match=r'pc\.toml: karasu\.mode "fixed" needs karasu\.value'):
        read(house(rules, "pc", "pa", '[karasu]\nmode = "fixed"\n'))


# --- seven pairs by their quads ----------------------------------------------------------------

@pytest.mark.parametrize("body, short", [
    ("[chiitoitsu]\nby_quads = [4]\n", "0 to 2"),                 # balance: 3 quads are yakuman
    ("[chiitoitsu]\nyakuman_quads = 4\n", "0 to 3"),             # now 3 quads count by by_quads[3]
])
def test_seven_pairs_by_quads_need_a_value_for_every_count_of_quads_short_of_yakuman(rules, body, short):
    with pytest.raises(ScoringError, match=rf"ours\.toml: chiitoitsu\.by_quads must have a value for "
                                           rf"every number of quads {short} "):
        read(house(rules, "ours", "balance", body))
    p = cli("rules", "check", "ours", env_dir=rules)
    assert "chiitoitsu.by_quads" in one_error_line(p)


def test_seven_pairs_with_a_value_for_each_count_of_quads_load_and_count(rules):
    """balance's 4-6-8 with a fourth value for three quads, now short of yakuman; a dunhill rule's
    seven pairs use no kind four times (max_use 2), so one value is enough there."""
    read(house(rules, "ours", "balance", "[chiitoitsu]\nyakuman_quads = 4\nby_quads = [4, 6, 8, 10]\n"))
    assert score({**FOUR_OF_A_KIND_PAIRS, "rules": "ours"}).total == score(FOUR_OF_A_KIND_PAIRS).total
    read(house(rules, "fewer", "balance", "[chiitoitsu]\nyakuman_quads = 1\nby_quads = [4]\n"))
    assert score({**FOUR_OF_A_KIND_PAIRS, "rules": "fewer"}).total >= 50     # one quad: yakuman
    read(house(rules, "dh", "dunhill", "[chiitoitsu]\nby_quads = [4]\n"))


# --- the largest number ------------------------------------------------------------------------

@pytest.mark.parametrize("body, where", [
    ("[yaku]\nriichi = [9223372036854775807, 0]\n", "yaku.riichi"),
    ("[yaku]\nsanrenkou = [2, 1000001]\n", "yaku.sanrenkou"),
    ("[yakuman]\nsuurenkou = 9223372036854775807\n", "yakuman.suurenkou"),
])
def test_a_yakus_or_a_yakumans_number_stays_within_the_largest_a_table_plays(rules, monkeypatch, body, where):
    """A yakuman no built-in counts (here suurenkou, as if none did) is checked as one some built-in counts."""
    vocab = house_check.vocabulary()
    monkeypatch.setattr(house_check, "vocabulary", lambda: {
        **vocab, "yakuman": {k: v for k, v in vocab["yakuman"].items() if k != "suurenkou"}})
    assert house_check.allowed_keys("yakuman", load_preset("dunhill"))["suurenkou"] == []
    with pytest.raises(ScoringError, match=rf"ours\.toml: {where} must be a finite number within 1,000,000"):
        read(house(rules, "ours", "dunhill", body))


# --- gari in hand, a key's choices --------------------------------------------------------------

@pytest.mark.parametrize("value, sub", [
    ('{ kinds = ["1m"], for = ["nope"] }', "for"),
    ('{ kinds = ["1m"], for = ["kokushi"], not_for = ["yakuman"] }', "not_for"),
])
def test_the_yaku_a_gari_in_hand_is_for_or_not_for_are_yaku(rules, value, sub):
    with pytest.raises(ScoringError, match=rf"ours\.toml: tiles\.gari_in_hand\.{sub} lists '(nope|yakuman)', not a yaku"):
        read(house(rules, "ours", "toutenkou", f"[tiles]\ngari_in_hand = {value}\n"))
    read(house(rules, "fine", "toutenkou",
               '[tiles]\ngari_in_hand = { kinds = ["1m"], for = ["yakuman", "kokushi"], not_for = ["tsuuiisou"] }\n'))


def test_a_keys_choices_list_at_least_one_value(rules):
    with pytest.raises(ScoringError, match=r"ours\.toml: table\.noten_total_choices must list at least one value"):
        read(house(rules, "ours", "toutenkou", "[table]\nnoten_total_choices = []\n"))


# --- a chain keeps "a value set wins over an option" ------------------------------------------

def test_an_option_chosen_down_a_chain_does_not_patch_a_key_a_base_set_and_the_note_says_so(rules):
    """As in one file: pa sets noten_total 10, so pb's noten = 30 leaves it 10, and pb's check says so."""
    single = read(house(rules, "single", "toutenkou", "[options]\nnoten = 30\n[table]\nnoten_total = 10\n"))
    house(rules, "pa", "toutenkou", "[table]\nnoten_total = 10\n")
    pb = read(house(rules, "pb", "pa", "[options]\nnoten = 30\n"))
    assert single.preset.table["noten_total"] == pb.preset.table["noten_total"] == 10
    assert load_preset("pb", {"noten": 30}).table["noten_total"] == 10
    assert pb.notes == ("option noten no longer changes table.noten_total (pa sets it; the value set there wins)",)
    p = cli("rules", "check", "pb", env_dir=rules)
    assert p.returncode == 0, p.stderr
    assert "  note: option noten no longer changes table.noten_total (pa sets it" in p.stdout


def test_a_key_set_again_down_a_chain_gets_the_note_of_a_value_set_here(rules):
    house(rules, "pa", "toutenkou", "[table]\nnoten_total = 10\n")
    pc = read(house(rules, "pc", "pa", "[options]\nnoten = 30\n[table]\nnoten_total = 30\n"))
    assert pc.preset.table["noten_total"] == 30
    assert pc.notes == ("option noten no longer changes table.noten_total (the value set here wins)",)
