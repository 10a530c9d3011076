"""House rules on the tablet, in a real browser: the new-session page offers them (marked as house
rules), the rule page shows one beside its base item by item and counts a pasted record under
both, a broken file is a 422 page naming the key, and a session started before an edit of its
rule keeps counting under it."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from scoring import ScoringError, score
from table_fixtures import PIN, house_rule, write_rule  # the server fixture's rules: data/rules

RECORD = {"seat": "east", "win": "tsumo", "concealed": "234p678p234s66s777z", "win_tile": "6s", "gari": "1m"}


def _login(page, server):
    page.goto(server + "/login")
    page.fill("#pin", PIN)
    page.click("button[type=submit]")
    expect(page.locator("#rules")).to_be_visible()


def test_the_rule_page_shows_the_changes_and_counts_a_pasted_record_under_both(page, server, tmp_path):
    write_rule(tmp_path / "data" / "rules", "ours", house_rule(dealer=2))
    _login(page, server)
    option = page.locator('#rules option[value="ours"]')
    expect(option).to_contain_text("house rule")
    expect(option).to_contain_text("うちのルール")

    page.click("#rules-link")
    expect(page).to_have_url(re.compile(r"/rules$"))
    page.locator('#rule-list tr[data-rule="ours"] a').click()
    expect(page).to_have_url(re.compile(r"/rules/ours$"))
    expect(page.locator("h1")).to_contain_text("ハウスルール house rule")
    expect(page.locator("#base-link")).to_have_text("dunhill")
    rows = page.locator("#changes tr[data-key]")
    expect(rows).to_have_count(2)
    noten = page.locator('#changes tr[data-key="table.noten_total"]')
    expect(noten).to_contain_text("No-ten payment")
    expect(noten.locator(".was")).to_have_text("場に6 (6 in all)")
    expect(noten.locator(".now")).to_have_text("場に10 (10 in all)")
    expect(page.locator('#changes tr[data-key="items.dealer"] .now')).to_have_text("2点 2 points")

    page.fill("#record", json.dumps(RECORD))
    page.click("#try")
    base = page.locator('.try-col[data-role="base"]')
    house = page.locator('.try-col[data-role="house rule"]')
    expect(base.locator(".total")).to_have_text("6")
    expect(house.locator(".total")).to_have_text("7")
    expect(base.locator('tr[data-key="dealer"]')).to_contain_text("+1")
    expect(house.locator('tr[data-key="dealer"]')).to_contain_text("+2")
    expect(page.locator("#try-verdict")).to_contain_text("the counts differ")

    bad = {**RECORD, "concealed": "234p678p"}                                  # without its winning tile
    with pytest.raises(ScoringError) as refused:
        score({**bad, "rules": "dunhill"})
    page.fill("#record", json.dumps(bad))
    page.click("#try")
    expect(page.locator("#flash")).to_contain_text(str(refused.value))         # scoring's own message
    expect(house.locator(".total")).to_have_text("7")                         # the last count stays


def test_a_broken_house_rule_is_a_422_page_naming_the_key(page, server, tmp_path):
    write_rule(tmp_path / "data" / "rules", "broken", 'extends = "dunhill"\nname_ja = "x"\nname_en = "x"\n\n[tabel]\nnoten_total = 10\n')
    _login(page, server)
    expect(page.locator('#rules option[value="broken"]')).to_be_disabled()
    response = page.goto(server + "/rules/broken")
    assert response.status == 422
    expect(page.locator("#broken-message")).to_contain_text("broken.toml: unknown section [tabel]")
    expect(page.locator("#broken-message")).to_contain_text("[table]")                  # what is allowed
    expect(page.locator("#broken-file")).to_contain_text("[tabel]")


def test_a_session_started_before_an_edit_counts_under_its_rule_on_the_tablet(page, server, tmp_path):
    write_rule(tmp_path / "data" / "rules", "ours", house_rule(dealer=2))
    _login(page, server)
    page.select_option("#rules", "ours")
    for i, name in enumerate(("Aki", "Ben", "Chie"), 1):
        page.fill(f"#player{i}", name)
    page.click("#start")
    expect(page).to_have_url(re.compile(r"/s/[0-9a-f-]+$"))
    table_url = page.url

    write_rule(tmp_path / "data" / "rules", "ours", house_rule(dealer=5))                         # edited after the start
    page.goto(table_url)
    page.click("details.typed summary")
    page.fill("#concealed", "234p678p234s66s777z")
    page.fill("#win_tile", "6s")
    page.fill('input[name="gari"]', "1m")
    page.click("#apply")
    expect(page.locator("#total")).to_have_text("7")                          # dealer 2, as it started
    page.click("#confirm")
    expect(page.locator("#flash")).to_contain_text("hand 1 recorded")
    expect(page.locator('#balances [data-player="Aki"] .balance')).to_have_text("14")
    # the table page's rule link shows the rule the session plays, not the file as edited since
    page.click("#session-rule")
    expect(page).to_have_url(re.compile(r"/rules/ours\?session="))
    expect(page.locator("#stored-rule")).to_contain_text("the rule this session was started under")
    expect(page.locator('#changes tr[data-key="items.dealer"] .now')).to_have_text("2点 2 points")
    expect(page.locator("#try-form")).to_have_count(0)             # the try box counts under the file: not here
    (tmp_path / "data" / "rules" / "ours.toml").unlink()             # and once the file is gone (was a 404)
    page.reload()
    expect(page.locator("#stored-rule")).to_be_visible()
    expect(page.locator('#changes tr[data-key="items.dealer"] .now')).to_have_text("2点 2 points")
    page.goto(page.url.split("?")[0])
    expect(page.locator("body")).to_contain_text("no rule 'ours'")
