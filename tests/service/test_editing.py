"""The tablet's draft: taps turn into a hand record the engine accepts."""

from __future__ import annotations

import json
import re

import pytest

import scoring
from scoring.tiles import parse_mpsz
from dataclasses import replace

from service.editing import Draft, EditError, wall_of


def test_tapping_fourteen_tiles_and_the_winning_tile_makes_a_record():
    d = Draft()
    for t in ["2p", "3p", "4p", "6p", "7p", "8p", "2s", "3s", "4s", "6s", "7z", "7z", "7z"]:
        d = d.apply(f"add:{t}")
    d = Draft(**{**d.__dict__, "target": "win_tile"}).apply("add:6s")
    d = Draft(**{**d.__dict__, "target": "gari"}).apply("add:1m")
    rec = d.record("dunhill")
    assert rec["concealed"] == "234678p23466s777z" and rec["win_tile"] == "6s" and rec["gari"] == "1m"
    assert scoring.score(rec).total > 0


def test_changing_a_tile_is_two_taps():
    d = Draft(concealed="234p678p234s66s777z", win_tile="6s")
    i = d.tiles("concealed").index("2p")
    d = d.apply(f"del:concealed:{i}").apply("add:5p")
    assert d.concealed == "345678p23466s777z"


def test_changing_the_winning_tile_replaces_it_in_the_hand():
    d = Draft(concealed="234p678p234s66s777z", win_tile="6s", target="win_tile").apply("add:0s")
    assert d.win_tile == "0s" and d.tiles("concealed").count("6s") == 1 and "0s" in d.tiles("concealed")


def test_with_the_winning_tile_chosen_a_tile_of_the_hand_tapped_is_the_one_won_on():
    """The reader took the line's last tile as the winning one; it was the 8s. Before, moving the mark
    took five taps through "not a winning hand" and "15 tiles"; now one (the hand stays as it is)."""
    d = Draft(concealed="446688s22336677z", win_tile="4s", target="win_tile")
    tiles = d.tiles("concealed")
    d = d.apply(f"win:{tiles.index('8s')}")
    assert d.win_tile == "8s" and d.tiles("concealed") == tiles
    with pytest.raises(EditError, match="no tile 15"):
        d.apply("win:14")
    # 13 tiles: the winning tile is not among them; marking one would make the picker's tile replace
    # a real one of the hand
    thirteen = Draft(concealed="234567p2346s777z", target="win_tile")
    with pytest.raises(EditError, match="13 tiles"):
        thirteen.apply("win:0")


def test_removing_the_last_copy_of_the_winning_tile_clears_it():
    d = Draft(concealed="123p", win_tile="1p").apply("del:concealed:0")
    assert d.win_tile == "" and d.concealed == "23p"


def test_melds_and_double_ron():
    d = Draft(seat="south", win="ron", discarder="east", target="pon").apply("add:7z")
    assert d.melds == ({"kind": "pon", "tiles": "777z", "from": "east"},)   # default: from the 上家
    d = d.apply("delmeld:0")
    assert d.melds == ()
    second = Draft(seat="south", win="ron", discarder="east", concealed="11z").apply("double")
    assert second.seat == "west" and second.discarder == "east" and second.first["seat"] == "south"
    with pytest.raises(EditError, match="double ron starts from a ron"):
        Draft().apply("double")


def test_a_double_ron_s_second_hand_shares_the_dead_wall_and_taking_it_back_keeps_the_first():
    """The second winner's draft began with no dora indicator, so it was counted and paid without the
    table's dora (9 where it counts 12); and 取消 kept the blank second draft, losing the first hand."""
    first = Draft(seat="south", win="ron", discarder="west", concealed="123789p234s555z22z", win_tile="2z",
                  dora_indicators="5s", riichi_others=frozenset({"Aki"}), penalties=frozenset({"Ben"}))
    second = first.apply("double")
    assert second.dora_indicators == "5s" and second.seat == "east"
    back = replace(second, concealed="123789p678s666z99s", win_tile="9s").apply("single")
    assert back.first is None and back.seat == "south"
    assert sorted(parse_mpsz(back.concealed)) == sorted(parse_mpsz(first.concealed)) and back.win_tile == "2z"
    assert (back.dora_indicators, back.riichi_others, back.penalties) == ("5s", {"Aki"}, {"Ben"})
    assert Draft(seat="east").apply("single") == Draft(seat="east")


def test_form_round_trip_and_bad_input():
    form = {"seat": "west", "win": "ron", "discarder": "south", "concealed": "77z 66s", "win_tile": "6s",
            "riichi": "1", "melds": "[]"}
    d = Draft.from_form(form)
    assert d.concealed == "66s77z" and d.flags == {"riichi"}
    assert d.record("balance")["discarder"] == "south"
    assert Draft(concealed="12x").problems() == ["concealed: bad tile text '12x': 'x' is not a digit or one of m, p, s, z"]
    for op in ("add:8z", "del:concealed:9", "jump", "del:nope:0"):
        with pytest.raises(EditError):
            Draft(concealed="1p").apply(op)
    with pytest.raises(EditError, match="not JSON"):
        Draft.from_form({"melds": "[oops"})


def test_the_winning_tile_is_marked_once():
    d = Draft(concealed="66s", win_tile="6s")
    assert d.win_index() == 1 and Draft(concealed="66s").win_index() == -1
    assert Draft.from_form({"tenhou": "1"}).record("dunhill")["tenhou"] is True


def test_a_tile_picked_on_the_snapshot_is_replaced_by_the_next_tile_tapped():
    d = Draft(concealed="234p678p234s66s777z", win_tile="6s", gari="1m")
    picked = d.apply("pick:concealed:2p:4")                 # the 5th box on the snapshot read 2p
    assert picked.pick == "concealed:2p:4" and picked.picked() == ("concealed", "2p")
    fixed = picked.apply("add:5p")
    assert fixed.concealed == "345678p23466s777z" and fixed.pick == "" and fixed.win_tile == "6s"
    assert d.apply("pick:gari:1m").apply("add:9m").gari == "9m"
    assert picked.apply("pick:concealed:2p:4").pick == ""   # the same tap again lets go
    with pytest.raises(EditError, match="no longer"):
        d.apply("pick:concealed:9p")


def test_the_winning_tiles_own_box_fixed_changes_the_winning_tile_though_the_hand_holds_its_kind():
    """The hand holds 6s three times and wins on the 6s set apart: that box tapped, then 白, makes
    白 the winning tile (one 6s leaves the hand). Before, a 6s left and 6s stayed the winning tile."""
    d = Draft(concealed="12333345666789s", win_tile="6s", gari="1m")
    fixed = d.apply("pick:win_tile:6s:13").apply("add:5z")
    assert fixed.win_tile == "5z" and fixed.pick == ""
    assert fixed.tiles("concealed").count("6s") == 2 and "5z" in fixed.tiles("concealed")
    assert d.apply("pick:concealed:6s:7").apply("add:5z").win_tile == "6s"     # another 6s: the win stays


def test_a_misread_winning_tile_or_meld_is_fixed_whole():
    d = Draft(concealed="234p678p234s6s777z1z", win_tile="1z",
              melds=({"kind": "pon", "tiles": "555s", "from": "west"},))
    assert d.apply("pick:concealed:1z").apply("add:6s").win_tile == "6s"     # the only 1z was the winning tile
    meld = d.apply("pick:meld:0").apply("add:0p").melds[0]
    assert meld["kind"] == "pon" and meld["from"] == "west" and sorted(meld["tiles"]) == sorted("055p")
    with pytest.raises(EditError):
        d.apply("pick:meld:3")


def test_a_double_ron_keeps_the_hands_penalties_and_riichi_sticks():
    d = Draft(seat="south", win="ron", discarder="east", concealed="234p678p234s66s777z", win_tile="6s",
              riichi_others=frozenset({"Aki"}), penalties=frozenset({"Aki"}))
    both = d.apply("double")
    assert both.penalties == {"Aki"} and both.riichi_others == {"Aki"}


def test_the_boxes_fixed_on_the_snapshot_stay_fixed_through_a_double_ron():
    """The snapshot's boxes the players tapped and fixed say which cuts the tile set learns as fixed;
    made a double ron, swapped or taken back to one hand, the draft forgot them (the fix then learnt
    as a typed one, or not at all)."""
    d = Draft(seat="south", win="ron", discarder="east", concealed="234p678p234s66s777z", win_tile="6s",
              fixed=frozenset({3}))
    both = d.apply("double")
    assert both.fixed == {3}
    ready = replace(both, concealed="123789p678s777z99s", win_tile="9s")
    assert ready.apply("swap").fixed == {3} and ready.apply("single").fixed == {3}


def test_a_tile_the_rule_refuses_is_said_before_the_winning_tile_is_asked_for(client):
    """A 13-tile photo of a four-player hand: the page asked for the winning tile first, and said
    only then that 6m is no tile of the dunhill wall. The tiles' own refusal comes first now."""
    from table_fixtures import PLAYERS
    sid = client.post("/api/sessions", json={"rules": "dunhill", "players": PLAYERS}).json()["id"]
    form = {"seat": "south", "win": "tsumo", "concealed": "06788m23406s567p", "melds": "[]", "op": ""}
    r = client.post(f"/s/{sid}/edit", data=form, headers={"HX-Request": "true"})
    assert r.status_code == 200
    assert "6m is not in" in r.text and "choose the winning tile" not in r.text
    fine = client.post(f"/s/{sid}/edit", headers={"HX-Request": "true"},
                       data={**form, "concealed": "234567p23466s777z"})
    assert "choose the winning tile" in fine.text


def test_three_plain_fives_of_thirteen_tiles_are_said_before_the_winning_tile_is_asked_for(client):
    """The page asked for the winning tile first, and said only then that a red 5p was read plain."""
    from table_fixtures import PLAYERS
    sid = client.post("/api/sessions", json={"rules": "dunhill", "players": PLAYERS}).json()["id"]
    form = {"seat": "south", "win": "tsumo", "concealed": "555p123456789s1z", "melds": "[]", "op": ""}
    r = client.post(f"/s/{sid}/edit", data=form, headers={"HX-Request": "true"})
    assert "too many plain fives 5p" in r.text and "赤五を黒と読んでいませんか" in r.text
    assert "choose the winning tile" not in r.text


def test_a_first_winner_s_refused_hand_is_named_over_the_second_winner_s_draft(client):
    """Begun from a refused first hand (three plain 5p), the refusal showed over the second winner's
    draft naming no one, and only once that hand was whole; only taking the double ron back got
    out, and that lost the second hand. It is said at once, naming the seat, and もう一人を直す
    (swap) brings the first hand to the editor with the second held."""
    from table_fixtures import PLAYERS
    sid = client.post("/api/sessions", json={"rules": "dunhill", "players": PLAYERS}).json()["id"]
    form = {"seat": "south", "win": "ron", "discarder": "west", "concealed": "555p123789s22z666z", "win_tile": "2z",
            "melds": "[]", "op": "double"}
    from test_snapshot_fix import EditorForm
    doubled = client.post(f"/s/{sid}/edit", data=form, headers={"HX-Request": "true"})
    assert "保留中のもう一人の和了が数えられません" in doubled.text                   # before the second is entered
    assert "the other winner&#39;s hand, held, is refused (south: too many plain fives 5p" in doubled.text
    second = {**EditorForm(doubled.text).values, "concealed": "123789p678s777z99s", "win_tile": "9s", "op": "swap"}
    swapped = EditorForm(client.post(f"/s/{sid}/edit", data=second, headers={"HX-Request": "true"}).text).values
    assert swapped["seat"] == "south" and json.loads(swapped["first"])["seat"] == "east"   # the second held
    assert sorted(parse_mpsz(swapped["concealed"])) == sorted(parse_mpsz(form["concealed"]))
    fixed = {**swapped, "concealed": "505p123789s22z666z", "op": ""}
    r = client.post(f"/s/{sid}/edit", data=fixed, headers={"HX-Request": "true"})
    assert r.status_code == 200 and "is refused" not in r.text
    assert client.post(f"/s/{sid}/confirm", data=fixed, headers={"HX-Request": "true"}).status_code == 204
    logged = client.get(f"/api/sessions/{sid}/hands").json()["hands"][-1]
    assert sorted(r["seat"] for r in logged["records"]) == ["east", "south"]


def test_in_a_double_ron_the_hand_being_drafted_is_the_one_checked_for_refused_tiles(client):
    """The first winner's hand, held, came first after the double ron's reordering, and its tiles
    were checked in place of the draft's: 6m went unsaid."""
    import json
    from table_fixtures import PLAYERS
    sid = client.post("/api/sessions", json={"rules": "dunhill", "players": PLAYERS}).json()["id"]
    first = {"rules": "dunhill", "seat": "south", "win": "ron", "discarder": "west",
             "concealed": "234567p23466s777z", "win_tile": "6s"}
    form = {"seat": "east", "win": "ron", "discarder": "west", "concealed": "06788m23406s567p", "melds": "[]",
            "first": json.dumps(first), "op": ""}
    r = client.post(f"/s/{sid}/edit", data=form, headers={"HX-Request": "true"})
    assert r.status_code == 200 and "6m is not in" in r.text


def test_with_thirteen_tiles_and_the_winning_tile_target_a_hand_tile_tapped_is_not_removed(client):
    """The hint says to tap the winning tile "in the hand, or in the picker": on 13 tiles a hand tile
    tapped was deleted."""
    from table_fixtures import PLAYERS
    sid = client.post("/api/sessions", json={"rules": "balance", "players": PLAYERS}).json()["id"]
    form = {"concealed": "1233334566789s", "target": "win_tile", "melds": "[]", "op": ""}
    page = client.post(f"/s/{sid}/edit", data=form, headers={"HX-Request": "true"}).text
    assert "del:concealed:" not in page and "tap the winning tile in the picker" in page


def test_a_fact_of_the_hand_the_rule_needs_is_one_toggle(client):
    """Balance's karasu (30 fixed) holds only when no 5p/5s was discarded, and the tablet could not
    say one was: the discarder paid 30 for a hand of 4. The rule's per-hand facts are toggles now,
    offered only where the session's rule has them."""
    import json
    from table_fixtures import PLAYERS
    hx = {"HX-Request": "true"}
    sid = client.post("/api/sessions", json={"rules": "balance", "players": PLAYERS}).json()["id"]
    form = {"seat": "south", "win": "ron", "discarder": "west", "concealed": "123789p234s11s", "win_tile": "1s",
            "melds": json.dumps([{"kind": "pon", "tiles": "555z", "from": "west"}]), "hand": "1"}
    page = client.post(f"/s/{sid}/edit", data={**form, "op": ""}, headers=hx).text
    assert 'name="option_discarded_five"' in page and 'name="option_open_riichi_deal_in"' in page
    assert client.post(f"/s/{sid}/confirm", data={**form, "option_discarded_five": "1"}).status_code == 204
    hand = client.get(f"/api/sessions/{sid}/hands").json()["hands"][0]
    assert hand["records"][0]["options"] == {"discarded_five": True}
    assert hand["totals"] == [4] and hand["deltas"]["Chie"] == -4               # not karasu's 30
    other = client.post("/api/sessions", json={"rules": "isshokai", "players": PLAYERS}).json()["id"]
    assert 'id="hand-options"' not in client.post(f"/s/{other}/edit", data={**form, "op": ""}, headers=hx).text


def test_a_logged_record_with_null_fields_opens_in_the_editor_as_none():
    """The API logs a record with "gari": null (none, as the format says); the correction editor showed
    the text None in the field, and its Confirm was refused "bad tile text 'None'"."""
    rec = {"rules": "dunhill", "seat": "south", "win": "tsumo", "concealed": "234678p234678s88s", "win_tile": "3p",
           "gari": None, "dora_indicators": None, "ura_indicators": None, "melds": None}
    d = Draft.from_record(rec)
    assert (d.gari, d.dora_indicators, d.ura_indicators, d.melds) == ("", "", "", ()) and d.problems() == []
    assert scoring.score(d.record("dunhill")).total == scoring.score(rec).total


@pytest.mark.parametrize("rules, made", [("dunhill", "550p"), ("chinton", "555p")])
def test_the_tablet_makes_a_meld_of_fives_as_the_session_s_wall_holds_them(client, rules, made):
    """The editor takes the session's rule's wall: 三人花's pon of 5p holds a red one, chinton's suit of
    eight 5p (four red) may be a pon of plain ones."""
    import html
    from table_fixtures import PLAYERS
    sid = client.post("/api/sessions", json={"rules": rules, "players": PLAYERS}).json()["id"]
    page = client.post(f"/s/{sid}/edit", data={"target": "pon", "meld_from": "west", "melds": "[]", "op": "add:5p"},
                       headers={"HX-Request": "true"}).text
    assert f'"tiles": "{made}"' in html.unescape(page)


def test_a_hand_s_fact_said_false_stays_false_through_the_editor():
    """A house rule whose default is true (balance with discarded_five = true): a hand logged saying
    false opened in the correction editor and confirmed untouched logged true (the editor kept only
    trues, and an unticked box wrote nothing), 4 where the hand counted 30."""
    rec = {"rules": "bal5", "seat": "south", "win": "ron", "discarder": "west", "concealed": "123789p234s11s",
           "win_tile": "1s", "options": {"discarded_five": False}}
    assert Draft.from_record(rec).record("bal5")["options"] == {"discarded_five": False}
    shown = {"concealed": "123789p234s11s", "win_tile": "1s", "options_shown": "discarded_five"}
    assert Draft.from_form(shown).record("bal5")["options"] == {"discarded_five": False}
    assert Draft.from_form({**shown, "option_discarded_five": "1"}).record("bal5")["options"] == {"discarded_five": True}
    assert "options" not in Draft.from_form({"concealed": "123789p234s11s"}).record("bal5")     # not offered


@pytest.mark.parametrize("said, discards, default, ticked", [
    ({}, "", False, False), ({}, "", True, True),                    # the rule's default
    ({}, "1s5p", False, True), ({}, "1s6p", True, False),            # the camera's discards
    ({"discarded_five": False}, "1s5p", True, False),                # the hand's word over both
])
def test_the_fact_s_box_shows_what_the_hand_says_else_the_discards_else_the_rule(said, discards, default, ticked):
    rec = {"seat": "south", "concealed": "123789p234s11s", "win_tile": "1s", "options": said,
           **({"discards": discards} if discards else {})}
    assert Draft.from_record(rec).ticked("discarded_five", default) is ticked


@pytest.mark.parametrize("rules, concealed, win_tile, honba, running", [
    # balance: karasu is 30 at any honba, the bounty (from 4 honba) added on top
    ("balance", "123789p234s11s", "1s", 5, [5, 7, 8, 30, 35]),
    # isshokai: a count of exactly 3 becomes 15
    ("isshokai", "234p678s33s678s", "8s", 0, [2, 3, 15]),
])
def test_a_fixed_count_is_the_running_total_where_it_stands(rules, concealed, win_tile, honba, running):
    """The column read 34 (or 18) down to a 合計 of 30 (or 15): a fixed count was added as points."""
    from service.views import score_view
    meld = {"kind": "pon", "tiles": "555z" if rules == "balance" else "777z", "from": "west"}
    result = scoring.score({"rules": rules, "seat": "south", "win": "ron", "discarder": "west", "melds": [meld],
                            "concealed": concealed, "win_tile": win_tile, "honba": honba}).to_dict()
    lines = score_view(result, {"east": "Aki", "south": "Ben", "west": "Chie"})["lines"]
    assert [line["running"] for line in lines] == running and running[-1] == result["total"]


def test_an_added_kan_tapped_on_a_pon_makes_that_pon_the_kan():
    """It made a second, four-tile meld beside the pon, and the count refused "7 seen"."""
    d = Draft(seat="south", target="pon", meld_from="east").apply("add:8s")
    d = replace(d, target="kakan").apply("add:8s")
    assert d.melds == ({"kind": "kakan", "tiles": "8888s", "from": "east"},)
    red = replace(Draft(seat="south", target="pon", meld_from="west").apply("add:5p"), target="kakan").apply("add:0p")
    assert red.melds == ({"kind": "kakan", "tiles": "5500p", "from": "west"},)        # the pon's red, and one added
    alone = Draft(seat="south", target="kakan").apply("add:3p")                          # no pon: a kakan as before
    assert len(alone.melds) == 1 and alone.melds[0]["kind"] == "kakan"


def test_a_meld_of_fives_made_by_a_tap_holds_the_wall_s_reds_and_a_tap_on_a_five_turns_it():
    """三人花's four 5p hold two red. A kan of fives tapped as 5p was 5555p, two reds short (dunhill: 9
    where the hand counts 17); a kan holds both reds, a pon one (only two are plain); a five of a meld
    tapped turns red or plain, for what the players see."""
    for tapped in ("5p", "0p"):
        assert Draft(seat="south", target="ankan").apply(f"add:{tapped}").melds[0]["tiles"] == "5500p"
        assert Draft(seat="south", target="pon").apply(f"add:{tapped}").melds[0]["tiles"] == "550p"
    assert Draft(seat="south", target="pon").apply("add:6p").melds[0]["tiles"] == "666p"
    pon = Draft(seat="south", target="pon", meld_from="west").apply("add:5p")
    for tapped in ("5p", "0p"):                          # the kan added onto it holds the wall's two reds too
        assert replace(pon, target="kakan").apply(f"add:{tapped}").melds[0]["tiles"] == "5500p"
    # chinton's suit holds eight 5p, four red: a pon or kan of plain ones is a hand of its wall
    chinton = wall_of(scoring.load_preset("chinton"))
    assert Draft(target="pon", wall=chinton).apply("add:5p").melds[0]["tiles"] == "555p"
    assert Draft(target="ankan", wall=chinton).apply("add:0p").melds[0]["tiles"] == "5550p"
    d = Draft(seat="south", target="ankan").apply("add:5p")
    rec = {"rules": "dunhill", "seat": "east", "win": "tsumo", "concealed": "234p678s11s789s", "win_tile": "9s",
           "gari": "1m", "melds": [dict(d.melds[0])]}
    assert scoring.score(rec).total == 17
    red = _names_of(d.melds[0]["tiles"]).index("0p")
    d = d.apply(f"red:0:{red}")
    assert d.melds[0]["tiles"] == "5550p"
    with pytest.raises(scoring.ScoringError, match="too many plain fives 5p"):       # no such kan in this wall
        scoring.score({**rec, "melds": [dict(d.melds[0])]})
    plain = _names_of(d.melds[0]["tiles"]).index("5p")
    assert d.apply(f"red:0:{plain}").melds[0]["tiles"] == "5500p"                  # and back
    with pytest.raises(EditError, match="no five"):
        Draft(melds=({"kind": "pon", "tiles": "777z"},)).apply("red:0:0")


def _names_of(mpsz: str) -> list[str]:
    from scoring.tiles import parse_mpsz, tile_name
    return [tile_name(t) for t in parse_mpsz(mpsz)]


@pytest.mark.parametrize("rules, logged, total", [
    ("balance", {"discards": "5p"}, 4),                 # a 5p discarded: no karasu
    ("isshokai", {"options": {"round_wind": "2z"}}, None),
])
def test_a_hand_corrected_untouched_counts_as_it_was_logged(client, rules, logged, total):
    """What the editor does not show (the camera's discards, a rule's other per-hand options) was
    dropped: a correction confirmed untouched changed the count (balance 4 -> 30)."""
    import json
    from table_fixtures import PLAYERS
    sid = client.post("/api/sessions", json={"rules": rules, "players": PLAYERS}).json()["id"]
    meld = {"kind": "pon", "tiles": "555z" if rules == "balance" else "777z", "from": "west"}
    record = {"rules": rules, "seat": "south", "win": "ron", "discarder": "west", "melds": [meld],
              "concealed": "123789p234s11s" if rules == "balance" else "234p678s33s678s",
              "win_tile": "1s" if rules == "balance" else "8s", **logged}
    assert client.post(f"/api/sessions/{sid}/wins", json={"records": [record]}).status_code == 201
    before = client.get(f"/api/sessions/{sid}/hands").json()["hands"][0]
    page = client.get(f"/s/{sid}?correct=1").text
    from test_snapshot_fix import EditorForm
    form = EditorForm(page).values
    form.update({"seat": "south", "win": "ron", "discarder": "west", "concealed": record["concealed"],
                 "win_tile": record["win_tile"], "melds": json.dumps([meld]), "correct": "1"})
    assert client.post(f"/s/{sid}/confirm", data=form).status_code == 204
    after = client.get(f"/api/sessions/{sid}/hands").json()["hands"][0]
    assert after["corrected"] and after["totals"] == before["totals"]
    assert total is None or after["totals"] == [total]
    for key, value in logged.items():
        assert after["records"][0][key] == value


# chinton's suit in play holds eight of each number: "暗カン 2点、暗加カン1回につき2点追加",
# "明カン 1点、明加カン1回につき1点追加" (seed 004). The tablet built only kans of four: a 1p tapped
# onto an ankan of 1p made a second 1111p beside it.
CHINTON_HAND = {"rules": "chinton", "seat": "south", "win": "tsumo", "concealed": "234p678p234p99p", "win_tile": "9p"}


def _kan_points(draft: Draft) -> dict[str, int]:
    """The kan lines of the count of ``draft``'s melds in a chinton hand of 234p678p234p99p."""
    result = scoring.score({**CHINTON_HAND, "melds": draft.record("chinton")["melds"]}).to_dict()
    return {i["key"]: i["points"] for i in result["items"] if i["group"] == "kan"}


def test_chinton_an_ankan_tapped_again_is_an_added_closed_kan_two_points_each():
    """暗加カン: a 1p tapped onto the ankan of 1p is its fifth tile (2 + 2), up to the eighth (2 + 8).
    A tile taken back (−) counts one fewer; a ninth is refused at the tap (it made a second kan the
    count refused: the wall has no tiles for it)."""
    chinton = wall_of(scoring.load_preset("chinton"))
    d = Draft(seat="south", target="ankan", wall=chinton).apply("add:1p").apply("add:1p")
    assert d.melds == ({"kind": "ankan", "tiles": "11111p"},)
    assert _kan_points(d) == {"ankan": 2, "ankan_extra": 2}
    for _ in range(3):
        d = d.apply("add:1p")
    assert d.melds == ({"kind": "ankan", "tiles": "11111111p"},)
    assert _kan_points(d) == {"ankan": 2, "ankan_extra": 8}
    d = d.apply("less:0")
    assert d.melds == ({"kind": "ankan", "tiles": "1111111p"},) and _kan_points(d) == {"ankan": 2, "ankan_extra": 6}
    full = d.apply("add:1p")
    with pytest.raises(EditError, match="a kan of 1p holds 8 already"):      # a ninth: refused at the tap
        full.apply("add:1p")
    # honours are four in chinton's wall too: a kan of them takes no fifth
    assert len(Draft(target="ankan", wall=chinton).apply("add:7z").apply("add:7z").melds) == 2
    with pytest.raises(EditError, match="no added tile"):
        Draft(target="ankan", wall=chinton).apply("add:7z").apply("less:0")


def test_chinton_an_added_kan_tapped_onto_a_kan_is_an_added_open_kan_one_point_each():
    """明加カン: the added-kan target grows the open kan of that tile, a kakan made on a pon or a
    minkan, one tile a tap (1 + 1 a tile); it stays the kan it was, called from the same seat."""
    chinton = wall_of(scoring.load_preset("chinton"))
    pon = Draft(seat="south", target="pon", meld_from="east", wall=chinton).apply("add:1p")
    d = replace(pon, target="kakan").apply("add:1p").apply("add:1p")
    assert d.melds == ({"kind": "kakan", "tiles": "11111p", "from": "east"},)
    assert _kan_points(d) == {"minkan": 1, "minkan_extra": 1}
    d = replace(Draft(seat="south", target="minkan", meld_from="west", wall=chinton).apply("add:1p"),
                target="kakan").apply("add:1p").apply("add:1p")
    assert d.melds == ({"kind": "minkan", "tiles": "111111p", "from": "west"},)
    assert _kan_points(d) == {"minkan": 1, "minkan_extra": 2}
    assert _kan_points(d.apply("less:0")) == {"minkan": 1, "minkan_extra": 1}


def test_chinton_an_added_five_is_red_once_the_wall_s_four_plain_ones_are_in_the_kan():
    """Chinton's eight 5p hold four red: a fifth 5p tapped onto 5555p is a red one (55555p is refused,
    "a red one taken for plain?"); a red tapped stays red, and a five of the kan tapped turns."""
    chinton = wall_of(scoring.load_preset("chinton"))
    d = Draft(seat="south", target="ankan", wall=chinton).apply("add:5p")
    assert d.apply("add:5p").melds[0]["tiles"] == "55550p"
    assert _kan_points(d.apply("add:5p")) == {"ankan": 2, "ankan_extra": 2}
    with pytest.raises(scoring.ScoringError, match="too many plain fives 5p"):
        scoring.score({**CHINTON_HAND, "melds": [{"kind": "ankan", "tiles": "55555p"}]})
    d = d.apply("add:0p").apply("add:5p")
    assert d.melds[0]["tiles"] == "555500p"
    with pytest.raises(scoring.ScoringError, match="too many plain fives 5p"):      # a red turned plain: 555550p
        _kan_points(d.apply(f"red:0:{_names_of(d.melds[0]['tiles']).index('0p')}"))
    d = d.apply(f"red:0:{_names_of(d.melds[0]['tiles']).index('5p')}")
    assert d.melds[0]["tiles"] == "555000p" and _kan_points(d) == {"ankan": 2, "ankan_extra": 4}
    assert d.apply("less:0").melds[0]["tiles"] == "55000p"            # a plain one taken back: the reds stay


def test_chinton_minus_takes_back_the_five_the_last_tap_added():
    """5555p and a 5p tapped onto it is 55550p (the wall's four plain are in it): − gave 5550p, a red
    five the kan never had before the tap (+2 from each payer); it gives back 5555p."""
    chinton = wall_of(scoring.load_preset("chinton"))
    for target in ("ankan", "minkan"):
        d = Draft(seat="south", target=target, meld_from="west", wall=chinton).apply("add:5p")
        if target == "minkan":
            d = replace(d, target="kakan")
        grown = d.apply("add:5p")
        assert grown.melds[0]["tiles"] == "55550p"
        assert grown.apply("less:0").melds[0]["tiles"] == d.melds[0]["tiles"] == "5555p"


def test_chinton_minus_keeps_a_red_five_the_players_chose():
    """A kan of 5p made with a red one tapped (5550p), then a 5p tapped: 55550p as well. − gives back
    the plain 5p of that tap, and the red the players chose stays (it took the red away)."""
    chinton = wall_of(scoring.load_preset("chinton"))
    chosen = Draft(seat="south", target="ankan", wall=chinton).apply("add:0p")
    assert chosen.melds[0]["tiles"] == "5550p"
    grown = chosen.apply("add:5p")
    assert grown.melds[0]["tiles"] == "55550p"
    assert grown.apply("less:0").melds[0]["tiles"] == "5550p"
    # the page carries the last tap in its form: a draft read back from it takes back the same tile
    read_back = replace(Draft.from_form({"melds": json.dumps(grown.melds), "grown": grown.grown}), wall=chinton)
    assert read_back.apply("less:0").melds[0]["tiles"] == "5550p"


def test_under_san_nin_bana_a_kan_stays_four_and_the_count_refuses_a_second_one(client):
    """三人花's wall holds four of a kind and no added kan: an ankan or kan tapped again is a second
    kan beside it, as before, and the count refuses it; the page offers no − (take back a tile) on a
    kan of four. The same taps on a chinton session's page grow the kan and offer it."""
    from table_fixtures import PLAYERS
    from test_snapshot_fix import EditorForm
    dunhill = wall_of(scoring.load_preset("dunhill"))
    d = Draft(seat="south", target="ankan", wall=dunhill).apply("add:1p").apply("add:1p")
    assert d.melds == ({"kind": "ankan", "tiles": "1111p"},) * 2
    rec = {"rules": "dunhill", "seat": "south", "win": "tsumo", "concealed": "234p678s11s789s", "win_tile": "9s",
           "gari": "1m", "melds": [dict(m) for m in d.melds]}
    with pytest.raises(scoring.ScoringError, match="too many copies of 1p: 8 seen .* the wall has 4"):
        scoring.score(rec)
    kan = replace(Draft(seat="south", target="pon", meld_from="east", wall=dunhill).apply("add:8s"),
                  target="kakan").apply("add:8s").apply("add:8s")
    assert [m["tiles"] for m in kan.melds] == ["8888s", "8888s"]
    with pytest.raises(scoring.ScoringError, match="too many copies of 1p: 5 seen .* the wall has 4"):
        scoring.score({**rec, "melds": [{"kind": "ankan", "tiles": "11111p"}]})
    with pytest.raises(EditError, match="no added tile"):
        d.apply("less:0")
    form = {"seat": "south", "target": "ankan", "melds": json.dumps([{"kind": "ankan", "tiles": "1111p"}]),
            "op": "add:1p"}
    for rules, made in (("dunhill", ["1111p", "1111p"]), ("chinton", ["11111p"])):
        sid = client.post("/api/sessions", json={"rules": rules, "players": PLAYERS}).json()["id"]
        page = client.post(f"/s/{sid}/edit", data=form, headers={"HX-Request": "true"}).text
        assert [m["tiles"] for m in json.loads(EditorForm(page).values["melds"])] == made
        assert ('value="less:0"' in page) is (rules == "chinton")


@pytest.mark.parametrize("discards, kept", [("9m2m", False), ("5555s", False), ("9m3p", True)])
def test_the_camera_s_discards_no_wall_holds_do_not_block_the_count_and_are_not_logged(client, discards, kept):
    """The engine refuses discards its wall cannot hold (a 2m under 三人花; a fifth 5s with the
    hand's). The tablet carries the camera's discards unshown and unconfirmed: misread, they are
    left out rather than leaving the players a count they cannot fix."""
    import json
    from table_fixtures import PLAYERS
    sid = client.post("/api/sessions", json={"rules": "dunhill", "players": PLAYERS}).json()["id"]
    form = {"hand": "1", "seat": "south", "win": "tsumo", "concealed": "222234444888s66z", "win_tile": "4s",
            "dora_indicators": "5s", "melds": "[]", "extra": json.dumps({"discards": discards})}
    shown = client.post(f"/s/{sid}/edit", data=form, headers={"HX-Request": "true"})
    assert shown.status_code == 200 and 'id="total"' in shown.text and 'id="score-error"' not in shown.text
    assert client.post(f"/s/{sid}/confirm", data=form).status_code == 204
    logged = client.get(f"/api/sessions/{sid}/hands").json()["hands"][0]["records"][0]
    assert logged.get("discards") == (discards if kept else None)


def test_the_camera_s_refused_discards_tick_no_toggle_and_the_count_shown_is_the_count_logged(client):
    """balance: karasu (30) where no 5p/5s was discarded. The camera read five 5p among the discards,
    which the engine refuses: the count went without them (30), but the 5p/5s toggle was ticked by
    them, and Confirm posted it: logged 4 where the screen said 30."""
    import json
    import re
    from table_fixtures import PLAYERS
    sid = client.post("/api/sessions", json={"rules": "balance", "players": PLAYERS}).json()["id"]
    form = {"hand": "1", "seat": "south", "win": "tsumo", "concealed": "234p678p234s22s", "win_tile": "3p",
            "melds": json.dumps([{"kind": "pon", "tiles": "777z", "from": "west"}]),
            "extra": json.dumps({"discards": "5p5p5p5p5p"})}
    from test_snapshot_fix import EditorForm
    shown = client.post(f"/s/{sid}/edit", data=form, headers={"HX-Request": "true"})
    assert shown.status_code == 200
    total = int(re.search(r'id="total"[^>]*>\D*(\d+)', shown.text).group(1))
    posted = EditorForm(shown.text).values
    assert "option_discarded_five" not in posted            # not ticked
    assert client.post(f"/s/{sid}/confirm", data=posted).status_code == 204
    assert client.get(f"/api/sessions/{sid}/hands").json()["hands"][0]["totals"] == [total] == [30]


def test_a_double_ron_s_held_hand_goes_without_discards_an_indicator_fixed_since_makes_refused():
    """East's hand held (discards 4s9m: scored alone, fine); the second hand on screen names the dead
    wall's indicator 4s, which is east's too: five 4s with east's discards. East's record kept them,
    and Confirm was refused for discards the players cannot see."""
    from types import SimpleNamespace
    import scoring
    from service.pages.work import vouched_draft
    cfg = SimpleNamespace(rules="dunhill", preset=scoring.load_preset("dunhill"))
    east = {"rules": "dunhill", "seat": "east", "win": "ron", "discarder": "south",
            "concealed": "123s444s678s999s66z", "win_tile": "6z", "discards": "4s9m"}
    held = Draft.from_record(east).apply("double").first
    assert held["discards"] == "4s9m"
    west = Draft.from_record({"rules": "dunhill", "seat": "west", "win": "ron", "discarder": "south",
                              "concealed": "111p222p333p789p55z", "win_tile": "5z", "dora_indicators": "4s"},
                             first=held)
    first, second = vouched_draft(west, cfg).records("dunhill")
    assert "discards" not in first and first["dora_indicators"] == "4s"
    assert scoring.score(first).total > 0 and scoring.score(second).total > 0
