"""What players saw wrong on the tablet (1280x800, Chromium): meld faces drawn white on white, a small
unstyled label field, draws and chombos that only the API could correct, Back after an undo showing the
balances from before it."""

from __future__ import annotations

import re

import httpx
from playwright.sync_api import expect

from table_fixtures import PIN
from tablet_steps import start_session

LUMA = """el => { const c = getComputedStyle(el).color.match(/\\d+(\\.\\d+)?/g).map(Number);
                  return (0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]) / 255; }"""


def test_meld_faces_keep_their_ink_on_the_white_tiles(page, server):
    start_session(page, server)
    page.click("text=加槓 added kan")
    page.click('#palette button[data-tile="2z"]')             # kakan of 南
    page.click("text=暗槓 closed kan")
    page.click('#palette button[data-tile="3s"]')             # ankan of 3s: the suit mark 索 below the number
    south = page.locator(".meld .face.z2 .top")
    souzu = page.locator(".meld .face.s .bottom").first
    expect(south).to_have_count(4)
    expect(page.locator(".meld .face.s")).to_have_count(4)     # both melds are in (the last tap's answer came)
    paper = page.locator(".meld .face").first.evaluate(
        "el => getComputedStyle(el).backgroundColor")
    assert paper.startswith("rgb(251, 248, 240")                # the tile's paper ...
    for glyph in (south.first, souzu):                          # ... and dark ink on it, not the row's white
        assert glyph.evaluate(LUMA) < 0.4
    assert page.locator(".meld small").first.evaluate(LUMA) > 0.9     # the meld's caption stays white on felt


def test_the_label_field_on_the_new_session_page_is_a_full_size_field(page, server):
    page.goto(server + "/login")
    page.fill("#pin", PIN)
    page.click("button[type=submit]")
    label, player = page.locator("#label").bounding_box(), page.locator("#player1").bounding_box()
    assert label["height"] >= 44 and abs(label["height"] - player["height"]) <= 2
    assert label["width"] >= 400
    assert page.locator("#label").evaluate("el => getComputedStyle(el).fontSize") == \
        page.locator("#player1").evaluate("el => getComputedStyle(el).fontSize")


def test_a_draw_and_a_chombo_are_corrected_on_the_tablet(page, server):
    sid = start_session(page, server)
    page.click("#draw summary")
    page.click("#draw label.toggle:has(input[name=tenpai][value=Aki])")
    page.click("#draw-confirm")
    expect(page.locator("#honba")).to_have_text("1")
    page.click("#chombo summary")
    page.click("#chombo label.choice:has(input[value=Ben])")
    page.click("#chombo-confirm")
    expect(page.locator("#next-hand")).to_have_text("3")

    page.goto(f"{server}/s/{sid}/history")
    page.click('#hands tr[data-hand="1"] a:has-text("Correct")')
    expect(page.locator("#correcting-other")).to_contain_text("a draw")
    expect(page.locator("#draw")).to_have_attribute("open", "")             # the draw, as it was logged
    expect(page.locator("#draw input[name=tenpai][value=Aki]")).to_be_checked()
    page.click("#draw label.toggle:has(input[name=tenpai][value=Ben])")
    page.click("#draw-confirm")
    expect(page.locator("#flash")).to_contain_text("hand 1 corrected")

    page.click('#hands tr[data-hand="2"] a:has-text("Correct")')
    expect(page.locator("#chombo")).to_have_attribute("open", "")
    expect(page.locator("#chombo input[name=offender][value=Ben]")).to_be_checked()
    page.click("#chombo label.choice:has(input[value=Chie])")
    page.click("#chombo-confirm")
    expect(page.locator("#flash")).to_contain_text("hand 2 corrected")

    hands = httpx.get(f"{server}/api/sessions/{sid}/hands", headers={"X-Table-PIN": PIN}).json()["hands"]
    by_number = {h["number"]: h for h in hands}
    assert by_number[1]["kind"] == "draw" and by_number[1]["tenpai"] == ["Aki", "Ben"] and by_number[1]["corrected"]
    assert by_number[2]["kind"] == "chombo" and by_number[2]["offender"] == "Chie" and by_number[2]["corrected"]


def test_back_after_an_undo_shows_the_table_as_it_is_now(page, server):
    """Undo lands on the history; Back must show the table page as the session is now (the hand
    undone), not the copy the browser kept of it before (Cache-Control: no-store, pageshow)."""
    sid = start_session(page, server)
    page.click("#draw summary")
    page.click("#draw label.toggle:has(input[name=tenpai][value=Aki])")
    page.click("#draw-confirm")
    expect(page.locator("#honba")).to_have_text("1")
    page.goto(f"{server}/s/{sid}/history")
    page.goto(f"{server}/s/{sid}")
    expect(page.locator("#undo")).to_contain_text("Undo hand 1")
    page.on("dialog", lambda d: d.accept())
    page.click("#undo")
    expect(page).to_have_url(re.compile(r"/history$"))
    page.go_back()
    expect(page).to_have_url(re.compile(r"/s/[0-9a-f-]+$"))
    expect(page.locator("#honba")).to_have_text("0")
    expect(page.locator("#undo")).to_have_count(0)


def test_a_second_tablet_shows_the_hand_another_logged(page, server):
    """Two tablets on one session: a draw logged on one reads the other anew, where nothing was being
    entered there; where a hand was being entered, it says so and offers to reload (its taps kept)."""
    sid = start_session(page, server)
    other = page.context.new_page()
    other.goto(f"{server}/s/{sid}")
    expect(other.locator("#watch")).to_have_attribute("data-listening", "1")
    page.click("#draw summary")
    page.click("#draw label.toggle:has(input[name=tenpai][value=Aki])")
    page.click("#draw-confirm")
    expect(page.locator("#honba")).to_have_text("1")
    expect(other.locator("#honba")).to_have_text("1")                   # read anew by itself
    expect(other.locator("#undo")).to_contain_text("Undo hand 1")
    expect(other.locator('[data-player="Aki"] .balance')).to_have_text("6")
    # a correction (here by another writer, the API) changes no hand count: still news
    expect(other.locator("#watch")).to_have_attribute("data-listening", "1")
    fixed = httpx.post(f"{server}/api/sessions/{sid}/hands/1/correct", headers={"X-Table-PIN": PIN},
                       json={"kind": "draw", "tenpai": ["Ben"]})
    assert fixed.status_code == 201, fixed.text
    expect(other.locator('[data-player="Ben"] .balance')).to_have_text("6")
    expect(page.locator('[data-player="Ben"] .balance')).to_have_text("6")

    expect(other.locator("#watch")).to_have_attribute("data-listening", "1")
    other.click('#palette button[value="add:1p"]')                       # a hand being entered there
    expect(other.locator("#work")).to_have_attribute("data-clean", "0")
    page.on("dialog", lambda d: d.accept())
    page.click("#undo")
    expect(other.locator("#logged-banner")).to_contain_text("another tablet changed the session")
    expect(other.locator("#honba")).to_have_text("1")                    # not reloaded under the player
    other.click("#logged-banner button")
    expect(other.locator("#honba")).to_have_text("0")


def test_the_table_page_shows_no_error_in_the_browser_console(page, server):
    """Before, every page asked for /favicon.ico and logged its 404."""
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    sid = start_session(page, server)
    page.goto(f"{server}/s/{sid}/history")
    page.goto(f"{server}/s/{sid}")
    expect(page.locator("#count")).to_be_visible()
    assert errors == []


def test_an_isshokai_penalty_is_logged_from_the_tablet(page, server):
    """isshokai's 罰符 (a false pon, kan or riichi: one stick into the pool) has its toggles in the
    draw and chombo forms and in the editor; a rule without one shows none."""
    sid = start_session(page, server, rules="isshokai")
    expect(page.locator("#penalties")).to_be_visible()
    page.click("#draw summary")
    page.click("#draw label.toggle:has(input[name=penalty][value=Ben])")
    page.click("#draw-confirm")
    expect(page.locator("#pool")).to_have_text("1")
    hands = httpx.get(f"{server}/api/sessions/{sid}/hands", headers={"X-Table-PIN": PIN}).json()["hands"]
    assert hands[0]["penalties"] == ["Ben"]
    page.goto(f"{server}/")
    page.select_option("#rules", "dunhill")
    for i, name in enumerate(("Dan", "Eri", "Fuyu"), 1):
        page.fill(f"#player{i}", name)
    page.click("#start")
    expect(page.locator("#count")).to_be_visible()
    assert page.locator("input[name=penalty]").count() == 0


def _hands(server: str, sid: str) -> list[dict]:
    return httpx.get(f"{server}/api/sessions/{sid}/hands", headers={"X-Table-PIN": PIN}).json()["hands"]


def test_a_second_penalty_of_one_player_is_a_second_box_shown_once_the_first_is_ticked(page, server):
    """isshokai: Ben's two false calls are two 罰符, two sticks into the pool. A box per player said one
    at most; a further box (+1) shows beside Ben's once his first is ticked, in the draw form without a
    round trip, and in the editor after one."""
    sid = start_session(page, server, rules="isshokai")
    page.click("#draw summary")
    more = page.locator("#draw label.stick:has(input[name=penalty][value=Ben])")
    expect(more).to_have_count(2)
    expect(more.first).to_be_hidden()                            # no first stick, no second box
    page.click("#draw label.toggle:has(input[name=penalty][value=Ben])")
    expect(more.first).to_be_visible()
    expect(more.nth(1)).to_be_hidden()
    more.first.click()
    page.click("#draw-confirm")
    expect(page.locator("#pool")).to_have_text("2")
    assert _hands(server, sid)[0]["penalties"] == ["Ben", "Ben"]
    page.click("#penalties label.toggle:has(input[name=penalty][value=Chie])")      # the editor's row
    second = page.locator("#penalties label.stick:has(input[name=penalty][value=Chie])").first
    expect(second).to_be_visible()
    second.click()
    expect(page.locator("#penalties input[name=penalty][value=Chie]:checked")).to_have_count(2)


def test_unticking_a_players_penalty_box_unticks_the_sticks_after_it(page, server):
    """A tap sets a player's 罰符 to that box, as stars do. Ben's box unticked with his +1 still ticked
    logged one stick the player had taken off (the draw form), and in the editor Chie's own box
    tapped stayed ticked, her +1 going instead."""
    sid = start_session(page, server, rules="isshokai")
    page.click("#draw summary")
    ben = page.locator("#draw label.toggle:has(input[name=penalty][value=Ben])")
    ben.click()
    page.locator("#draw label.stick:has(input[name=penalty][value=Ben])").first.click()
    ben.click()                                                       # Ben's penalty taken off
    expect(page.locator("#draw input[name=penalty][value=Ben]:checked")).to_have_count(0)
    expect(page.locator("#draw label.stick:has(input[name=penalty][value=Ben])").first).to_be_hidden()
    page.click("#draw label.toggle:has(input[name=tenpai][value=Aki])")
    page.click("#draw-confirm")
    expect(page.locator("#pool")).to_have_text("0")
    assert _hands(server, sid)[0]["penalties"] == []
    chie = page.locator("#penalties label.toggle:has(input[name=penalty][value=Chie])")
    chie.click()
    page.locator("#penalties label.stick:has(input[name=penalty][value=Chie])").first.click()
    expect(page.locator("#penalties input[name=penalty][value=Chie]:checked")).to_have_count(2)
    page.locator("#penalties label.toggle:has(input[name=penalty][value=Chie])").click()
    expect(page.locator("#penalties input[name=penalty][value=Chie]:checked")).to_have_count(0)


def test_a_non_winner_s_open_riichi_is_ticked_apart_under_dunhill_and_costs_two_sticks(page, server):
    """dunhill's open riichi puts two sticks in the pool: the draw form and the editor tick it beside
    the riichi boxes (an open tick is a riichi); isshokai, one stick either way, shows no such box."""
    sid = start_session(page, server)
    page.click("#draw summary")
    page.click("#draw label.toggle:has(input[name=tenpai][value=Ben])")
    page.click("#draw label.toggle:has(input[name=riichi_open][value=Ben])")
    page.click("#draw-confirm")
    expect(page.locator("#pool")).to_have_text("20")              # two sticks of 10 (a plain riichi: 10)
    assert _hands(server, sid)[0]["riichi"] == {"Ben": "open"}
    page.click("#work label.toggle:has(input[name=riichi_open][value=Chie])")       # the editor's row
    expect(page.locator("#work input[name=riichi_others][value=Chie]")).to_be_checked()    # a riichi too
    expect(page.locator("#work input[name=riichi_open][value=Chie]")).to_be_checked()


def test_leaving_for_the_teach_page_with_a_hand_entered_asks_first(page, server):
    """A hand counted and not logged lives in the page alone: Teach tiles (or History) asks before
    it is thrown away; a page with nothing entered leaves at once."""
    start_session(page, server)
    page.click("#teach-link")                                  # nothing entered: no question
    expect(page).to_have_url(re.compile(r"/teach$"))
    page.go_back()
    page.click('#palette button[data-tile="1m"]')              # a tile entered by hand
    expect(page.locator("#work")).not_to_have_attribute("data-clean", "1")
    asked = []
    page.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    page.click("#teach-link")
    assert asked and "not logged yet" in asked[0]
    expect(page).not_to_have_url(re.compile(r"/teach$"))
    expect(page.locator("#work")).not_to_have_attribute("data-clean", "1")     # the hand is still there
    page.once("dialog", lambda d: d.accept())
    page.click("#history-link")
    expect(page).to_have_url(re.compile(r"/history$"))


def test_a_correction_left_unchanged_leaves_without_asking_and_a_typed_hand_asks(page, server):
    """History is how players give up a correction: with nothing changed, nothing is lost, so no
    question; a hand typed in the text box and not applied yet is asked about like any other."""
    sid = start_session(page, server)
    page.click("#draw summary")
    page.click("#draw label.toggle:has(input[name=tenpai][value=Aki])")
    page.click("#draw-confirm")
    expect(page.locator("#honba")).to_have_text("1")
    asked = []
    page.on("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    page.goto(f"{server}/s/{sid}/history")
    page.click('#hands tr[data-hand="1"] a:has-text("Correct")')
    expect(page.locator("#correcting-other")).to_contain_text("a draw")
    page.click("#history-link")
    expect(page).to_have_url(re.compile(r"/history$"))
    assert asked == []
    page.goto(f"{server}/s/{sid}")
    page.click("details.typed summary")
    page.fill("#concealed", "123456789p")                       # typed, not applied
    page.click("#history-link")
    assert asked and "not logged yet" in asked[-1]
    expect(page).not_to_have_url(re.compile(r"/history$"))


def test_the_winning_tile_is_moved_with_one_tap_on_the_hand(page, server):
    """With 和了牌 chosen, a tile of the hand tapped is the winning tile, and stays in the hand."""
    start_session(page, server)
    for t in ("1p", "2p", "3p", "4p", "5p", "6p", "7p", "8p", "9p", "1s", "2s", "3s", "5s", "5s"):
        page.click(f'#palette button[data-tile="{t}"]')
    expect(page.locator("#hand button.tile")).to_have_count(14)
    page.click('label:has(input[name=target][value=win_tile])')
    expect(page.locator('#hand button.tile[data-tile="3p"]')).to_have_attribute("value", re.compile("^win:"))
    page.click('#hand button.tile[data-tile="3p"]')
    expect(page.locator("#hand button.tile.win")).to_have_attribute("data-tile", "3p")
    expect(page.locator("#hand button.tile")).to_have_count(14)


def test_a_kan_of_fives_takes_both_red_ones_by_a_tap_on_its_tile(page, server):
    start_session(page, server)
    page.click("text=暗槓 closed kan")
    page.click('#palette button[data-tile="5p"]')
    meld = page.locator(".meld").first
    expect(meld.locator('button.five[data-tile="0p"]')).to_have_count(2)      # the wall's four 5p: two red
    meld.locator('button.five[data-tile="0p"]').first.click()
    expect(page.locator(".meld").first.locator('button.five[data-tile="0p"]')).to_have_count(1)
    page.locator(".meld").first.locator('button.five[data-tile="5p"]').first.click()
    expect(page.locator(".meld").first.locator('button.five[data-tile="0p"]')).to_have_count(2)


def test_a_draw_ticked_and_not_logged_asks_before_leaving(page, server):
    start_session(page, server)
    page.click("#draw summary")
    page.click("#draw label.toggle:has(input[name=tenpai][value=Aki])")
    asked = []
    page.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    page.click("#teach-link")
    assert asked and "not logged yet" in asked[0]
    expect(page).not_to_have_url(re.compile(r"/teach$"))
