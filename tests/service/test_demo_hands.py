"""The demo camera's tables: a session of any house rule has tables it can count."""

from __future__ import annotations

import json

import pytest

from scoring import ScoringError, score
from service.demo.render import PRESETS, scores_under
from service.mending import vouched
from service.settings import DEMO_HANDS

HANDS = json.loads(DEMO_HANDS.read_text())


@pytest.mark.parametrize("name", sorted(HANDS)[::2])
def test_every_other_table_scores_under_every_house_rule(name):
    """As the service reads it: the camera's discards a rule's wall cannot hold are left out."""
    for rules in PRESETS:
        record, _ = vouched({**HANDS[name], "rules": rules})
        assert score(record).total > 0, (name, rules)


@pytest.mark.parametrize("rules", PRESETS)
def test_each_rule_counts_at_least_half_of_the_demo_tables(rules):
    counted = [n for n, h in HANDS.items() if scores_under(h, (rules,))]
    assert len(counted) >= len(HANDS) / 2, (rules, counted)


def test_the_demo_shows_closed_hands_and_hands_with_melds_of_both_kinds():
    names = sorted(HANDS)
    every_rule, dunhill = names[::2], names[1::2]
    for group in (every_rule, dunhill):
        assert {bool(HANDS[n].get("melds")) for n in group} == {True, False}


def test_scores_under_names_a_refusal():
    chinton_refuses = {**HANDS[sorted(HANDS)[0]], "concealed": "123m123p123s11122z", "win_tile": "2z"}
    with pytest.raises(ScoringError):
        score({**chinton_refuses, "rules": "chinton"})
    assert not scores_under(chinton_refuses, ("dunhill", "chinton"))
