"""The editor by keyboard: each change posts the draft and the answer replaces the editor, so the
control a key changed must keep the focus (Space on a toggle, then Tab, went on from the page's top),
and the hidden input behind a pill shows the focus on its pill."""

from __future__ import annotations

from playwright.sync_api import expect

from tablet_steps import start_session, type_a_winning_hand


def _focused(page) -> str:
    return page.evaluate("(() => { const a = document.activeElement;"
                         " return a ? (a.name || a.id || a.tagName) + '=' + (a.value || '') : ''; })()")


def test_space_on_a_toggle_keeps_the_focus_there_and_tab_goes_on(page, server):
    start_session(page, server)
    type_a_winning_hand(page)
    before = page.locator("#total").inner_text()

    page.focus("#work input[name=riichi]")
    page.keyboard.press("Space")
    expect(page.locator("#work input[name=riichi]")).to_be_checked()
    expect(page.locator("#total")).not_to_have_text(before)        # the answer came and replaced the editor
    # and settled: then the focus is on the toggle again
    page.wait_for_function("""() => !document.querySelector('#work').classList.contains('htmx-request') &&
        document.activeElement && document.activeElement.name === 'riichi'""", timeout=5000)
    assert _focused(page) == "riichi=1"
    pill = page.locator("#work input[name=riichi] + span")
    assert page.evaluate("s => getComputedStyle(s).outlineStyle", pill.element_handle()) == "solid"

    page.keyboard.press("Tab")
    assert _focused(page) == "double_riichi=1"                     # the next toggle, not the bar's first link


def test_a_tapped_toggle_leaves_no_focus_behind(page, server):
    """After a tap nothing is focused anew: on a tablet a text field given the focus raises its keyboard."""
    start_session(page, server)
    type_a_winning_hand(page)
    before = page.locator("#total").inner_text()
    page.focus("#concealed")
    page.keyboard.press("End")                                      # a key, then a tap
    page.click("#work input[name=riichi] + span")
    expect(page.locator("#work input[name=riichi]")).to_be_checked()
    expect(page.locator("#total")).not_to_have_text(before)        # the answer came
    page.wait_for_function("() => !document.querySelector('#work').classList.contains('htmx-request')")
    page.wait_for_timeout(300)                                      # and settled
    assert _focused(page) == "BODY="


def test_space_on_a_players_second_penalty_stick_keeps_the_focus_on_that_stick(page, server):
    """isshokai: a box a stick. The +1 shares the player's first box's name and value, and the focus
    went back to the first box."""
    start_session(page, server, rules="isshokai")
    type_a_winning_hand(page)
    boxes = page.locator('#work input[name=penalty][value="Ben"]')
    boxes.nth(0).focus()
    page.keyboard.press("Space")
    expect(boxes.nth(0)).to_be_checked()
    boxes.nth(1).focus()
    page.keyboard.press("Space")
    expect(boxes.nth(1)).to_be_checked()
    # the answer comes and replaces the editor: then the focus is on the second stick again
    page.wait_for_function("""() => !document.querySelector('#work').classList.contains('htmx-request') &&
        Array.from(document.querySelectorAll('#work input[name=penalty][value="Ben"]'))
             .indexOf(document.activeElement) === 1""", timeout=5000)


def test_enter_in_a_typed_field_keeps_its_panel_open_and_the_focus_in_it(page, server):
    """The answer sent the typing panel back closed: the focus fell to the page's top."""
    start_session(page, server)
    type_a_winning_hand(page)
    if not page.locator("details.typed").evaluate("d => d.open"):
        page.click("details.typed summary")
    before = page.locator("#total").inner_text()
    page.focus("#work input[name=dora_indicators]")
    page.keyboard.type("1p")
    page.keyboard.press("Enter")
    expect(page.locator("#total")).not_to_have_text(before)
    page.wait_for_function("""() => !document.querySelector('#work').classList.contains('htmx-request') &&
        document.activeElement && document.activeElement.name === 'dora_indicators' &&
        document.activeElement.closest('details').open""", timeout=5000)
