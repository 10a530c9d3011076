"""Money the tablet must say as the API can: a non-winner's open riichi (dunhill: "リーチ棒は2本", two
sticks into the pool) and a player's second 罰符 in one hand (isshokai: each false call one stick into
供託). A hand logged so and opened for correction, then confirmed unchanged, must log the same money."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest

from service.editing import Draft
from table_fixtures import CHUN, PLAYERS, record

HTMX = {"HX-Request": "true"}


class Forms(HTMLParser):
    """What each form of a page posts, as a browser would: every input's value (a checkbox or a
    radio only when checked), a name posted as often as its inputs are; keyed by the form's id, else
    its hx-post."""

    def __init__(self, page: str):
        super().__init__()
        self.forms: dict[str, dict[str, list[str]]] = {}
        self.current: dict[str, list[str]] | None = None
        self.feed(page)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self.current = self.forms.setdefault(a.get("id") or a.get("hx-post") or "", {})
        elif tag == "input" and self.current is not None and a.get("name") and (
                a.get("type") not in ("radio", "checkbox") or "checked" in a):
            self.current.setdefault(a["name"], []).append(a.get("value") or "")

    def handle_endtag(self, tag):
        if tag == "form":
            self.current = None


def _session(client, rules: str) -> str:
    return client.post("/api/sessions", json={"rules": rules, "players": PLAYERS}).json()["id"]


def _hand(client, sid: str, n: int = 1) -> dict:
    return client.get(f"/api/sessions/{sid}/hands").json()["hands"][n - 1]


def _money(hand: dict) -> tuple:
    return hand["riichi"], hand["penalties"], hand["deltas"], hand["pool_after"]


def _correction_page(client, sid: str, n: int = 1) -> dict[str, dict[str, list[str]]]:
    page = client.get(f"/s/{sid}?correct={n}")
    assert page.status_code == 200, page.text
    return Forms(page.text).forms


# -- open riichi (dunhill) ---------------------------------------------------------------------------

def test_an_open_riichi_by_a_non_winner_puts_two_sticks_in_the_pool_and_a_correction_confirmed_unchanged_keeps_them(client):
    """Ben's open riichi, logged by the API, is 20 in the pool (two sticks of 10) that Aki's tsumo
    takes. The editor opened it as a plain riichi: confirmed unchanged, Ben paid 10 and the pool 10."""
    sid = _session(client, "dunhill")
    r = client.post(f"/api/sessions/{sid}/wins", json={"records": [record()], "riichi": ["Ben:open"]})
    assert r.status_code == 201, r.text
    before = _hand(client, sid)
    assert before["riichi"] == {"Ben": "open"} and before["pool_delta"] == 0
    work = _correction_page(client, sid)["work"]
    assert work["riichi_open"] == ["Ben"] and work["riichi_others"] == ["Ben"]   # shown open, ticked
    r = client.post(f"/s/{sid}/confirm", data=work, headers=HTMX)
    assert r.status_code == 204, r.text
    after = _hand(client, sid)
    assert _money(after) == _money(before) and after["riichi"] == {"Ben": "open"}


def test_the_open_riichi_pays_ten_more_than_a_plain_one(client):
    """What the test above guards: under dunhill Ben's open riichi costs him 20, a plain one 10."""
    paid = {}
    for said in ("Ben", "Ben:open"):
        sid = _session(client, "dunhill")
        client.post(f"/api/sessions/{sid}/wins", json={"records": [record()], "riichi": [said]})
        paid[said] = _hand(client, sid)["deltas"]["Ben"]
    assert paid["Ben"] - paid["Ben:open"] == 10


def test_an_open_tick_is_a_riichi_kept_through_the_editor_s_taps_and_confirm_logs_it_open(client):
    sid = _session(client, "dunhill")
    form = {"seat": "east", "win": "tsumo", **CHUN, "melds": "[]", "hand": "1", "riichi_open": "Chie"}
    shown = Forms(client.post(f"/s/{sid}/edit", data={**form, "op": "add:1p"}, headers=HTMX).text).forms["work"]
    assert shown["riichi_open"] == ["Chie"] and shown["riichi_others"] == ["Chie"]    # open implies riichi
    shown = Forms(client.post(f"/s/{sid}/edit", data={**shown, "op": "del:concealed:0"},
                              headers=HTMX).text).forms["work"]
    assert shown["riichi_open"] == ["Chie"] and shown["concealed"] == ["234678p23466s777z"]
    r = client.post(f"/s/{sid}/confirm", data=shown, headers=HTMX)
    assert r.status_code == 204, r.text
    assert _hand(client, sid)["riichi"] == {"Chie": "open"}


@pytest.mark.parametrize("kind, body", [
    ("draw", {"tenpai": ["Aki", "Ben"], "riichi": ["Ben:open", "Aki"]}),
    ("chombo", {"offender": "Chie", "riichi": ["Ben:open"]}),
])
def test_a_draw_or_chombo_with_an_open_riichi_corrected_unchanged_keeps_its_sticks(client, kind, body):
    """The draw and chombo forms had a riichi box per player only: a correction confirmed unchanged
    logged Ben's open riichi plain, a stick short."""
    sid = _session(client, "dunhill")
    assert client.post(f"/api/sessions/{sid}/{kind}s", json=body).status_code == 201
    before = _hand(client, sid)
    assert before["riichi"]["Ben"] == "open"
    form = _correction_page(client, sid)[f"/s/{sid}/{kind}"]
    assert form["riichi_open"] == ["Ben"]
    r = client.post(f"/s/{sid}/{kind}", data=form, headers=HTMX)
    assert r.status_code == 204, r.text
    assert _money(_hand(client, sid)) == _money(before)


def test_the_draw_form_logs_an_open_tick_as_an_open_riichi(client):
    sid = _session(client, "dunhill")
    r = client.post(f"/s/{sid}/draw", data={"hand": "1", "tenpai": ["Ben"], "riichi_open": "Ben"}, headers=HTMX)
    assert r.status_code == 204, r.text
    hand = _hand(client, sid)
    assert hand["riichi"] == {"Ben": "open"} and hand["pool_after"] == 20      # a plain riichi: 10


@pytest.mark.parametrize("rules", ["isshokai", "balance", "toutenkou", "chinton"])
def test_a_rule_whose_open_riichi_is_one_stick_shows_no_open_box(client, rules):
    sid = _session(client, rules)
    assert 'name="riichi_open"' not in client.get(f"/s/{sid}").text


def test_the_winner_ticked_among_others_open_riichi_wins_with_her_open_riichi():
    """A double ron made Chie, ticked among others' open riichi, its second winner: her hand's
    riichi is open (its two sticks), not a plain one."""
    d = Draft(seat="south", win="ron", discarder="east", concealed="234p678p234s66s777z", win_tile="6s",
              riichi_others=frozenset({"Chie"}), open_others=frozenset({"Chie"}))
    second = d.apply("double").winner_riichi({"east": "Aki", "south": "Ben", "west": "Chie"})
    assert "open_riichi" in second.flags and not second.riichi_others and not second.open_others


def test_the_winner_ticked_open_is_asked_for_her_hand_s_open_riichi(client):
    sid = _session(client, "dunhill")
    form = {"seat": "south", "win": "tsumo", **CHUN, "melds": "[]", "hand": "1", "riichi": "1",
            "riichi_open": "Ben"}                                   # Ben sits south: she is the winner
    shown = client.post(f"/s/{sid}/edit", data={**form, "op": ""}, headers=HTMX).text
    assert "open riichi and is the winner: tick オープン open riichi" in shown
    assert client.post(f"/s/{sid}/confirm", data=form, headers=HTMX).status_code == 422
    r = client.post(f"/s/{sid}/confirm", data={**form, "open_riichi": "1"}, headers=HTMX)
    assert r.status_code == 204, r.text
    assert _hand(client, sid)["riichi"] == {"Ben": "open"}


def test_the_winner_ticked_open_alone_is_asked_for_open_riichi_first(client):
    """Ticked among others' open riichi, then made the winner with no riichi of her hand's: she was
    asked for 立直 riichi, and once it was ticked, asked again for オープン. オープン alone clears both."""
    sid = _session(client, "dunhill")
    form = {"seat": "south", "win": "tsumo", **CHUN, "melds": "[]", "hand": "1", "riichi_open": "Ben"}
    shown = client.post(f"/s/{sid}/edit", data={**form, "op": ""}, headers=HTMX).text
    assert "open riichi and is the winner: tick オープン open riichi" in shown
    assert "tick 立直 riichi for the hand" not in shown


# -- two penalties of one player (isshokai) ---------------------------------------------------------

def test_one_player_s_two_penalties_put_two_sticks_in_the_pool_and_a_correction_confirmed_unchanged_keeps_both(client):
    """Ben made two false calls in the hand: two 罰符, two sticks into 供託 (the winner takes them).
    The editor had a box per player: a correction confirmed unchanged logged one."""
    sid = _session(client, "isshokai")
    rec = record(rules="isshokai", shape={**CHUN, "gari": "5m"})
    r = client.post(f"/api/sessions/{sid}/wins", json={"records": [rec], "penalties": ["Ben", "Ben"]})
    assert r.status_code == 201, r.text
    before = _hand(client, sid)
    assert before["penalties"] == ["Ben", "Ben"]
    work = _correction_page(client, sid)["work"]
    assert work["penalty"] == ["Ben", "Ben"]
    r = client.post(f"/s/{sid}/confirm", data=work, headers=HTMX)
    assert r.status_code == 204, r.text
    assert _money(_hand(client, sid)) == _money(before)


def test_two_penalties_are_kept_through_the_editor_s_taps_and_logged_twice(client):
    sid = _session(client, "isshokai")
    form = {"seat": "east", "win": "tsumo", **CHUN, "gari": "5m", "melds": "[]", "hand": "1",
            "penalty": ["Chie", "Ben", "Chie"]}
    shown = Forms(client.post(f"/s/{sid}/edit", data={**form, "op": "refresh"}, headers=HTMX).text).forms["work"]
    assert sorted(shown["penalty"]) == ["Ben", "Chie", "Chie"]
    r = client.post(f"/s/{sid}/confirm", data=shown, headers=HTMX)
    assert r.status_code == 204, r.text
    hand = _hand(client, sid)
    assert sorted(hand["penalties"]) == ["Ben", "Chie", "Chie"]
    assert hand["deltas"]["Chie"] == hand["deltas"]["Ben"] - 1                 # her second stick, to Aki


@pytest.mark.parametrize("kind, body", [
    ("draw", {"tenpai": ["Aki"], "penalties": ["Ben", "Ben"]}),
    ("chombo", {"offender": "Chie", "penalties": ["Ben", "Ben"]}),
])
def test_a_draw_or_chombo_with_two_penalties_corrected_unchanged_keeps_both(client, kind, body):
    sid = _session(client, "isshokai")
    assert client.post(f"/api/sessions/{sid}/{kind}s", json=body).status_code == 201
    before = _hand(client, sid)
    form = _correction_page(client, sid)[f"/s/{sid}/{kind}"]
    assert form["penalty"] == ["Ben", "Ben"]
    r = client.post(f"/s/{sid}/{kind}", data=form, headers=HTMX)
    assert r.status_code == 204, r.text
    assert _money(_hand(client, sid)) == _money(before)


# -- a hand-made double-ron form ---------------------------------------------------------------------

@pytest.mark.parametrize("op", ["swap", "single"])
@pytest.mark.parametrize("melds", ['"x"', '[1]', '[{"kind": "pon"}]'])
def test_a_first_record_whose_melds_are_no_melds_is_refused_not_a_500(client, op, melds):
    sid = _session(client, "dunhill")
    first = ('{"seat": "south", "win": "ron", "discarder": "east", "concealed": "234p678p234s66s777z", '
             f'"win_tile": "6s", "melds": {melds}}}')
    form = {"seat": "west", "win": "ron", "discarder": "east", "melds": "[]", "first": first, "op": op}
    r = client.post(f"/s/{sid}/edit", data=form, headers=HTMX)
    assert r.status_code == 422 and "its melds must be a list" in r.text
