"""A session keeps the rule it was started under: the house rule's file is resolved once, stored
with the session (ledger_rules), and every hand of it, a correction included, is counted with the
stored rule; editing the file changes new sessions only. The export carries the rule and an import
brings it along. SQLite, and PostgreSQL when LEDGER_TEST_POSTGRES_URL is set."""

from __future__ import annotations

import json

import pytest

import scoring
from scoring.house import read as read_house
from ledger_play import PLAYERS, hand
from table_fixtures import house_rule
from table_fixtures import write_rule as write_fixture_rule
from service.ledger import Ledger, LedgerError, export

A, B, C = PLAYERS


def write_rule(folder, dealer: int, noten: int, text: str | None = None) -> None:
    """Write (or edit) rules/ours.toml; its time moves on by a second, so an edit is seen even where
    the file system's clock is coarse."""
    write_fixture_rule(folder, "ours", text if text is not None else house_rule(dealer, noten))


def ours(seat: str, win: str, discarder: str | None = None, *, honba: int) -> dict:
    """ledger_play's dunhill hand (a chun triplet, one gari), named for the house rule."""
    return {**hand("dunhill", seat, win, discarder, honba=honba), "rules": "ours"}


@pytest.fixture
def rules(tmp_path):
    folder = tmp_path / "rules"
    folder.mkdir()
    write_rule(folder, dealer=2, noten=10)
    return folder


@pytest.fixture
def led(db_url, rules):
    ledger = Ledger(db_url, rules_dir=rules)
    yield ledger
    ledger.close()


def total(event) -> int:
    body = event.body["event"]["body"] if event.kind == "correct" else event.body
    return body["wins"][0]["score"]["total"]


def test_a_session_started_before_an_edit_keeps_its_rule(led, rules, db_url):
    # Aki's dealer tsumo: dunhill counts 6 (dealer 1); ours (dealer 2) 7; after the edit (dealer 5) 10.
    assert scoring.score(hand("dunhill", "east", "tsumo", honba=0)).total == 6
    played = led.start("ours", PLAYERS).id
    waiting = led.start("ours", PLAYERS).id                   # started before the edit, no hand yet
    event, st = led.add_win(played, [ours("east", "tsumo", honba=0)])
    assert total(event) == 7 and st.balances == (14, -7, -7)

    write_rule(rules, dealer=5, noten=20)
    after = led.start("ours", PLAYERS).id
    event, st = led.add_win(waiting, [ours("east", "tsumo", honba=0)])
    assert total(event) == 7 and st.balances == (14, -7, -7)  # unchanged: its rule is the one it started under
    event, st = led.add_win(after, [ours("east", "tsumo", honba=0)])
    assert total(event) == 10 and st.balances == (20, -10, -10)   # the edited file

    # The stored rule's [table] moves the old session too: a draw (Aki alone tenpai) is 場に10 there.
    assert led.add_draw(waiting, [A])[1].balances == (14 + 10, -7 - 5, -7 - 5)
    assert led.add_draw(after, [A])[1].balances == (20 + 20, -10 - 10, -10 - 10)

    cfgs = {s: led.config(s) for s in (played, waiting, after)}
    assert cfgs[played].rule_digest == cfgs[waiting].rule_digest != cfgs[after].rule_digest
    assert [cfgs[s].table.noten_total for s in (played, waiting, after)] == [10, 10, 20]

    # A fresh handle (nothing cached) reads the rules back from the database.
    fresh = Ledger(db_url, rules_dir=rules)
    assert fresh.config(waiting).preset.section("items")["dealer"] == 2
    event, _ = fresh.add_win(waiting, [ours("east", "tsumo", honba=2)])
    assert total(event) == 7 + 2                              # 2 honba
    assert fresh.stored_rule(after)["data"]["items"]["dealer"] == 5
    fresh.close()


def test_a_correction_in_an_old_session_is_counted_under_its_rule(led, rules, db_url):
    s = led.start("ours", PLAYERS).id
    led.add_win(s, [ours("east", "ron", "south", honba=0)])  # dealer ron: banban 2, dealer 2, chun 1, gari 1
    assert led.state(s).balances == (6, -6, 0)
    write_rule(rules, dealer=5, noten=20)
    # Hand 1 was a tsumo after all: counted as the session's rule counts it (dealer 2), not the file's.
    fresh = Ledger(db_url, rules_dir=rules)
    event, st = fresh.correct(s, 1, "win", records=[ours("east", "tsumo", honba=0)])
    assert total(event) == 7 and st.balances == (14, -7, -7)
    # A draw corrected in is paid at the session's 場に10 too.
    event, st = fresh.correct(s, 1, "draw", tenpai=[B])
    assert st.balances == (-5, 10, -5)
    fresh.close()


def test_an_old_session_counts_on_when_its_file_is_broken_or_gone(led, rules):
    s = led.start("ours", PLAYERS).id
    write_rule(rules, 0, 0, text='extends = "dunhill"\nname_ja = "x"\nname_en = "x"\n[table]\nnoten_total = "10"\n')
    with pytest.raises(LedgerError, match=r"ours\.toml: table\.noten_total must be an integer"):
        led.start("ours", PLAYERS)                            # a new session: the file as it is now
    assert total(led.add_win(s, [ours("east", "tsumo", honba=0)])[0]) == 7
    (rules / "ours.toml").unlink()
    with pytest.raises(LedgerError, match="unknown rules 'ours'"):
        led.start("ours", PLAYERS)
    assert total(led.add_win(s, [ours("east", "tsumo", honba=1)])[0]) == 8


def test_a_built_in_session_stores_its_built_in(led):
    cfg = led.start("toutenkou", PLAYERS, table={"noten_total": 30})
    stored = led.stored_rule(cfg.id)
    assert cfg.rule_digest == stored["digest"] == scoring.load_preset("toutenkou").digest
    assert (stored["name"], stored["extends"], cfg.table.noten_total) == ("toutenkou", None, 30)


def test_the_export_carries_the_rule_and_an_import_brings_it_along(led, rules, tmp_path):
    s = led.start("ours", PLAYERS, label="night").id
    led.add_win(s, [ours("east", "tsumo", honba=0)])
    data = json.loads(export.dumps(led, s))
    rule = data["session"]["rule"]
    assert (rule["name"], rule["extends"], rule["name_en"]) == ("ours", "dunhill", "Ours")
    assert rule["digest"] == led.config(s).rule_digest == read_house(rules / "ours.toml").preset.digest
    assert (rule["data"]["items"]["dealer"], rule["data"]["table"]["noten_total"]) == (2, 10)
    assert rule["file"] == str(rules / "ours.toml")
    rows = export.to_csv(led, s).splitlines()
    assert rows[0].endswith(",rules,rule digest") and rows[1].endswith(f",ours,{rule['digest']}")

    # Another database, whose rules folder has no 'ours' at all: the session counts with its stored rule.
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    other = Ledger(f"sqlite:///{tmp_path / 'other.sqlite3'}", rules_dir=elsewhere)
    assert export.from_json(other, data).rule_digest == rule["digest"]
    assert json.loads(export.dumps(other, s)) == data
    assert total(other.add_win(s, [ours("east", "tsumo", honba=1)])[0]) == 7 + 1
    with pytest.raises(LedgerError, match="unknown rules 'ours'"):
        other.start("ours", PLAYERS)

    # A stored rule edited by hand in the export does not match its digest: refused, nothing written.
    tampered = json.loads(export.dumps(led, s))
    tampered["session"]["id"] = "another"
    tampered["session"]["rule"]["data"]["items"]["dealer"] = 9
    with pytest.raises(LedgerError, match="does not match its digest"):
        export.from_json(other, tampered)
    assert [c.id for c in other.sessions()] == [s]
    other.close()


def test_the_command_line_starts_a_session_under_a_house_rule(rules, tmp_path, capsys):
    from service.ledger.__main__ import main
    db = f"sqlite:///{tmp_path / 'cli.sqlite3'}"
    assert main(["--db", db, "--rules-dir", str(rules), "start", "--rules", "ours", "--players", *PLAYERS]) == 0
    sid = capsys.readouterr().out.strip()
    write_rule(rules, 0, 0, text="extends = 'dunhill'\n")
    assert main(["--db", db, "--rules-dir", str(rules), "start", "--rules", "ours", "--players", *PLAYERS]) == 2
    assert "ours.toml: missing key 'name_ja'" in capsys.readouterr().err
    assert main(["--db", db, "export", sid]) == 0
    assert json.loads(capsys.readouterr().out)["session"]["rule"]["data"]["items"]["dealer"] == 2


def test_a_session_from_before_rules_were_stored_replays_as_it_was_played(led, tmp_path):
    """An export made before sessions stored their rule counts under its built-in by name. chinton's
    dealer kept the deal after every draw then (table.draw_dealer came later): its log still adds
    up, though the built-in now passes a noten dealer's deal."""
    s = led.start("chinton", PLAYERS, table={"draw_dealer": "stays"}).id     # played as then
    led.add_draw(s, [B])                                                       # Aki, the dealer, noten
    led.add_win(s, [hand("chinton", "south", "ron", "west", honba=1)])        # Aki still dealing
    data = json.loads(export.dumps(led, s))
    del data["session"]["rule"]                                               # as such an export was
    data["session"]["table_overrides"] = {}
    other = Ledger(f"sqlite:///{tmp_path / 'old.sqlite3'}")
    cfg = export.from_json(other, data)
    assert cfg.rule_digest is None and cfg.table.draw_dealer == "stays"
    assert other.state(s).balances == led.state(s).balances and not other.state(s).warnings
    other.close()


def test_a_rule_renamed_and_nothing_else_is_shown_by_its_new_name(led, rules, db_url):
    """The names count nothing (the digest leaves them out): a rename alone kept the first names
    stored, and every later session's receipt said the old name."""
    before = led.start("ours", PLAYERS).id
    write_rule(rules, 2, 10, house_rule(2, 10).replace("うちのルール", "新しい名前").replace("Ours", "New name"))
    after = led.start("ours", PLAYERS).id
    assert led.config(before).rule_digest == led.config(after).rule_digest
    fresh = Ledger(db_url, rules_dir=rules)
    for sid in (before, after):
        data = fresh.config(sid).preset.data
        assert (data["name_ja"], data["name_en"]) == ("新しい名前", "New name")
    assert led.config(after).preset.data["name_en"] == "New name"


def test_honba_to_the_head_winner_alone_leaves_both_winners_in_the_bounty_round(db_url, tmp_path):
    """A house rule of dunhill with 積み棒も上家取り (``double_ron_honba = "head"``): the second
    winner counts no honba, but the bounty round (懸賞, from 3 honba) is the table's. Scored at 0
    honba, the second winner lost her bounty and still paid the head's: a winner down 1 on her own
    win (Aki -16, Ben +17, Chie -1), where the winners exchange bounties both ways.

    At 3 honba Aki (east, dealer) deals in to Ben (south) and Chie (west); Ben is the head.
    Ben: 4 + honba 3 + bounty 5 = 12 from Aki; Chie: 4 (no honba) + bounty 5 = 9 from Aki.
    The exchange: Chie pays Ben 5, Ben pays Chie 5. Aki -21, Ben +12, Chie +9."""
    rules = tmp_path / "rules"
    rules.mkdir()
    write_fixture_rule(rules, "head", 'extends = "dunhill"\nname_ja = "上家取り"\nname_en = "head"\n'
                                      '[table]\ndouble_ron_honba = "head"\n')
    ledger = Ledger(db_url, rules_dir=rules)
    try:
        s = ledger.start("head", PLAYERS).id
        for _ in range(3):
            ledger.add_draw(s, PLAYERS)                          # all tenpai: Aki deals on
        recs = [{**hand("dunhill", "south", "ron", "east", honba=3), "rules": "head"},
                {**hand("dunhill", "west", "ron", "east", honba=3, shape="hatsu"), "rules": "head"}]
        event, st = ledger.add_win(s, recs)
        paid = {w["winner"]: w["score"]["payments"] for w in event.body["wins"]}
        assert paid == {B: {"east": 12, "west": 5}, C: {"east": 9, "south": 5}}
        assert dict(zip(PLAYERS, st.balances)) == {A: -21, B: 12, C: 9}
    finally:
        ledger.close()
