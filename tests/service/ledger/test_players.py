"""The player register: a typed name finds a regular, a new name adds one, a shared name asks
for the member code, and search finds players by name, reading or code as they are typed."""

from __future__ import annotations

import pytest

from service.ledger import Ledger, LedgerError, export
from service.ledger.players import Player, fold_text, search


def test_a_new_name_adds_a_player_and_the_same_name_finds_them_again(ledger):
    s1 = ledger.start("dunhill", ["Aki", "Ben", "Chie"])
    s2 = ledger.start("dunhill", ["Chie", "Aki", "Dai"])
    assert [p.name for p in ledger.players()] == ["Aki", "Ben", "Chie", "Dai"]
    assert s2.player_ids == (s1.player_ids[2], s1.player_ids[0], ledger.player("Dai").id)


def test_a_member_code_or_the_choice_label_finds_the_player(ledger):
    aki = ledger.add_player("Aki", kana="あき", code="M12")
    assert ledger.player("m12") == aki                     # codes are not case-sensitive
    assert ledger.player("Aki (M12)") == aki
    s = ledger.start("dunhill", ["M12", "Ben", "Chie"])
    assert s.players[0] == "Aki" and s.player_ids[0] == aki.id


def test_two_players_sharing_a_name_are_told_apart_by_code(ledger):
    first = ledger.add_player("Tanaka", code="T1")
    second = ledger.add_player("Tanaka", code="T2")
    with pytest.raises(LedgerError, match=r"2 players are named 'Tanaka'.*T1, T2"):
        ledger.start("dunhill", ["Tanaka", "Ben", "Chie"])
    s = ledger.start("dunhill", ["T1", "T2", "Chie"])
    assert s.players[:2] == ("Tanaka (T1)", "Tanaka (T2)")   # the log's seat names differ
    assert s.player_ids[:2] == (first.id, second.id)


def test_bad_register_input_is_refused_with_the_reason(ledger):
    ledger.add_player("Aki", code="A1")
    cases = [(lambda: ledger.add_player("Ben", code="a1"), "member code 'a1' is taken"),
             (lambda: ledger.add_player("Ben", code="no spaces"), "member code is 1-16 letters"),
             (lambda: ledger.add_player("   "), "name is empty"),
             (lambda: ledger.add_player("x" * 101), "at most 100"),
             (lambda: ledger.start("dunhill", ["Aki", "A1", "Ben"]), "Aki \\(A1\\) is given twice"),
             (lambda: ledger.player("Nobody"), "no player named 'Nobody'"),
             (lambda: ledger.rename_player(999, name="x"), "no player 999")]
    for call, message in cases:
        with pytest.raises(LedgerError, match=message):
            call()


def test_renaming_changes_the_register_not_the_log(ledger):
    s = ledger.start("dunhill", ["Aki", "Ben", "Chie"])
    aki = ledger.player("Aki")
    renamed = ledger.rename_player(aki.id, name="Akiko", kana="あきこ", code="VIP1")
    assert (renamed.id, renamed.name, renamed.code) == (aki.id, "Akiko", "VIP1")
    assert ledger.config(s.id).players == ("Aki", "Ben", "Chie")
    assert ledger.start("dunhill", ["Akiko", "Ben", "Chie"]).player_ids == s.player_ids
    # the old code, typed out of habit, is no one's now: refused, not made a new player named "101"
    ledger.rename_player(aki.id, code="101")
    ledger.rename_player(aki.id, code="201")
    with pytest.raises(LedgerError, match="no member code 101: type the player's name"):
        ledger.start("dunhill", ["101", "Ben", "Chie"])
    assert [p.name for p in ledger.players()].count("101") == 0


def test_search_as_you_type_by_name_reading_or_code():
    people = [Player(1, "佐藤", "さとう", "0001"), Player(2, "Sato Ken", "", "0002"),
              Player(3, "鈴木", "スズキ", "S3"), Player(4, "Kasato", "", "0004")]
    assert [p.id for p in search(people, "さと")] == [1]
    assert [p.id for p in search(people, "sato")] == [2, 4]          # starts with, then contains
    assert [p.id for p in search(people, "すず")] == [3]             # katakana reading, typed in hiragana
    assert [p.id for p in search(people, "s3")] == [3]
    assert search(people, "  ") == []
    assert fold_text("ＳＡＴＯ") == "sato"                            # full-width letters too


def test_a_name_typed_in_another_case_or_width_finds_the_regular(ledger):
    aki = ledger.add_player("Aki")
    kana = ledger.add_player("アキラ")
    assert ledger.player("aki") == aki and ledger.player("ＡＫＩ") == aki
    assert ledger.player("あきら") == kana                      # hiragana for a katakana name
    assert ledger.start("dunhill", ["aki", "Ben", "Chie"]).player_ids[0] == aki.id
    ledger.add_player("AKI", code="X9")                          # now two fold to "aki" (neither exactly "aKi")
    with pytest.raises(LedgerError, match="2 players are named 'aKi'"):
        ledger.player("aKi")
    assert ledger.player("Aki") == aki                           # the exact name still finds its one


def test_digits_are_a_member_code_when_a_session_starts_and_a_name_when_a_log_is_imported(ledger, tmp_path):
    """At a session's start digits name a member by code, full-width as a Japanese keyboard types
    them too; digits no one's code are refused. An imported log keeps its seats' names as logged."""
    aki = ledger.add_player("Aki", code="0001")
    assert ledger.start("dunhill", ["０００１", "Ben", "Chie"]).player_ids[0] == aki.id
    with pytest.raises(LedgerError, match="no member code 777"):
        ledger.start("dunhill", ["777", "Ben", "Chie"])
    named = ledger.add_player("777", code="X7")                   # a player whose name is digits
    s = ledger.start("dunhill", ["777", "Ben", "Chie"])          # found by name first
    assert s.player_ids[0] == named.id
    elsewhere = Ledger(f"sqlite:///{tmp_path / 'elsewhere.sqlite3'}")
    assert export.from_json(elsewhere, export.to_json(ledger, s.id)).players[0] == "777"
    elsewhere.close()


# -- one player entered twice: merged into the one kept -----------------------------------------

def test_a_regular_entered_twice_is_merged_and_standings_add_both_up(ledger):
    """Akiko was Aki; staff typed "Aki" at a second table and made a second player. Merged, the
    register lists Akiko alone, Aki's code finds her, standings count both sessions as hers, and
    no session's log changes."""
    from ledger_play import hand
    from service.ledger.standings import Period, standings
    from service.standings_cache import StandingsCache

    first = ledger.start("dunhill", ["Akiko", "Ben", "Chie"])
    ledger.add_win(first.id, [hand("dunhill", "east", "tsumo", honba=0)])
    second = ledger.start("dunhill", ["Aki", "Dai", "Eri"])
    ledger.add_win(second.id, [hand("dunhill", "east", "tsumo", honba=0)])
    akiko, aki = ledger.player("Akiko"), ledger.player("Aki")
    cache = StandingsCache(ledger)
    before = standings(cache.summaries(), Period("all"), merged=cache.merged())
    assert {r.player_id for r in before.rows} >= {akiko.id, aki.id}

    assert ledger.merge_players(aki.code, akiko.code) == akiko
    assert [p.name for p in ledger.players()] == ["Akiko", "Ben", "Chie", "Dai", "Eri"]
    assert ledger.player(aki.code) == akiko and ledger.players_by_id([aki.id]) == {aki.id: akiko}
    after = standings(cache.summaries(), Period("all"), merged=cache.merged())
    row = next(r for r in after.rows if r.player_id == akiko.id)
    assert aki.id not in {r.player_id for r in after.rows}
    assert (row.sessions, row.wins) == (2, 2)
    assert row.total == sum(r.total for r in before.rows if r.player_id in (akiko.id, aki.id))
    assert ledger.config(second.id).players == ("Aki", "Dai", "Eri")         # the log as logged
    # a new session typed by the old code seats the kept player
    assert ledger.start("dunhill", [aki.code, "Ben", "Chie"]).player_ids[0] == akiko.id

    assert ledger.unmerge_player(aki.id) == aki                               # undone: two players again
    assert "Aki" in [p.name for p in ledger.players()]
    undone = standings(cache.summaries(), Period("all"), merged=cache.merged())
    assert {r.player_id: r.sessions for r in undone.rows}[aki.id] == 1


def test_two_players_who_sat_together_are_not_merged(ledger):
    ledger.start("dunhill", ["Aki", "Ben", "Chie"])
    ledger.start("dunhill", ["Aki2", "Dai", "Eri"])
    ledger.merge_players("Aki2", "Aki")
    cases = [(("Ben", "Aki"), r"Ben \(0002\) and Aki \(0001\) played in one session .*two players"),
             (("Dai", "Aki"), r"Dai \(0005\) and Aki \(0001\) played in one session"),   # with Aki2, now Aki
             (("Aki", "Aki"), "cannot be merged into themselves"),
             (("Aki2", "Chie"), r"Aki2 \(0004\) is merged into Aki \(0001\) already"),
             (("Nobody", "Aki"), "no player named 'Nobody'"),
             ((999, "Aki"), "no player 999")]
    for (gone, kept), message in cases:
        with pytest.raises(LedgerError, match=message):
            ledger.merge_players(gone, kept)
    with pytest.raises(LedgerError, match="is merged into another player"):
        ledger.rename_player(ledger.merges()[0][0].id, name="Aki again")
    with pytest.raises(LedgerError, match=r"Aki \(0001\) is not merged into anyone"):
        ledger.unmerge_player(ledger.player("Aki").id)


def test_a_player_merged_into_one_since_merged_follows_it_and_undo_puts_back_what_was(ledger):
    """C into B, then B into A, puts C's sessions with A too. Undoing B's merge puts C back under B:
    before, merges were flattened, and the undo left C with A, a merge nobody made."""
    for names in (["A", "X", "Y"], ["B", "X2", "Y2"], ["C", "X3", "Y3"]):
        ledger.start("dunhill", names)
    a, b, c = (ledger.player(n) for n in "ABC")
    ledger.merge_players(c.id, b.id)
    ledger.merge_players(b.id, a.id)
    assert ledger.merged_ids() == {b.id: a.id, c.id: a.id}
    assert ledger.player(c.code) == a and ledger.players_by_id([c.id]) == {c.id: a}
    assert [(g.name, k.name) for g, k in ledger.merges()] == [("B", "A"), ("C", "B")]     # the latest first
    ledger.unmerge_player(b.id)
    assert ledger.merged_ids() == {c.id: b.id} and ledger.player(c.code) == b


def test_search_finds_a_merged_players_code_and_old_name_as_the_player_kept(ledger):
    """The register's search was blind to them, though the code counted as taken."""
    ledger.start("dunhill", ["Aki", "Ben", "Chie"])
    ledger.start("dunhill", ["Akiko", "Dai", "Eri"])
    akiko = ledger.player("Akiko")
    ledger.merge_players(akiko.code, "Aki")
    aki = ledger.player("Aki")
    assert ledger.find_players(akiko.code) == [aki]
    assert ledger.find_players("akiko") == [aki]
    assert ledger.find_players("aki") == [aki]                      # found twice over, listed once


def test_a_name_typed_exactly_is_that_player_not_one_whose_code_spells_it(ledger):
    """Dan typed "Dan"; Daniel's member code is DAN. The seat is Dan's: a code wins only as typed."""
    dan, daniel = ledger.add_player("Dan"), ledger.add_player("Daniel", code="DAN")
    assert ledger.start("dunhill", ["Dan", "Ben", "Chie"]).player_ids[0] == dan.id
    assert ledger.player("DAN") == daniel                          # the code as typed
    assert ledger.player("dan") == daniel                          # no one is named "dan" exactly


def test_a_member_code_that_is_another_players_name_is_refused_and_never_seats_the_wrong_player(ledger):
    """Other's code was set to "Sam", Sam's name: typing Sam at a session's start seated Other, and
    the night's results went to the wrong member without a word."""
    sam = ledger.add_player("Sam")
    with pytest.raises(LedgerError, match="'Sam' is another player's name"):
        ledger.add_player("Other", code="Sam")
    other = ledger.add_player("Other")
    with pytest.raises(LedgerError, match="'Sam' is another player's name"):
        ledger.rename_player(other.id, code="Sam")
    ledger.rename_player(sam.id, code="Sam")                     # one's own name as one's code: no harm
    # a code given before someone of that name came (an old register, an import): asked, not guessed
    ledger.rename_player(other.id, code="Uma")
    ledger.add_player("Uma")
    with pytest.raises(LedgerError, match=r"'Uma' is Other's member code and Uma's name: type Other \(Uma\) or "
                                          r"Uma \(\d{4}\)") as asked:
        ledger.start("dunhill", ["Uma", "Ben", "Chie"])
    # each way the message offers seats the one it names (the code alone was what it refused)
    told = str(asked.value).split("type ")[1].split(" or ")
    cfg = ledger.start("dunhill", [*told, "Chie"])
    assert cfg.player_ids[:2] == (other.id, ledger.player(told[1]).id) and cfg.players[:2] == ("Other", "Uma")


def test_two_counters_merging_the_same_pair_at_once_merge_it_once(ledger, db_url, monkeypatch):
    """Staff at two counters merge X into Y and Y into X in the same instant. Each checks, then
    writes: without the register's lock on PostgreSQL both were accepted, and X and Y, each merged
    into the other, left the register. One merge stands; the other is refused."""
    import threading
    from service.ledger import players as register

    ledger.start("dunhill", ["X", "A1", "B1"])
    ledger.start("dunhill", ["Y", "A2", "B2"])
    x, y = ledger.player("X").id, ledger.player("Y").id
    checked = threading.Barrier(2, timeout=1.5)
    real = register.merged_ids

    def after_the_checks(conn):          # both merges meet here, past their checks, where they can
        try:
            checked.wait()
        except threading.BrokenBarrierError:
            pass                         # the other waits on the register's lock: this one goes on alone
        return real(conn)

    monkeypatch.setattr(register, "merged_ids", after_the_checks)
    other = Ledger(db_url)
    outcomes = []

    def merge(handle, gone, kept):
        try:
            handle.merge_players(gone, kept)
            outcomes.append("merged")
        except LedgerError as e:
            outcomes.append(str(e))
    threads = [threading.Thread(target=merge, args=(ledger, x, y)), threading.Thread(target=merge, args=(other, y, x))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    other.close()
    assert outcomes.count("merged") == 1, outcomes
    assert any("already" in o for o in outcomes), outcomes
    assert len(ledger.merged_ids()) == 1 and len(ledger.players()) == 5


def test_the_old_name_typed_again_finds_the_player_kept(ledger):
    """Aki was merged into Akiko because staff typed "Aki" at a second table: typed again, it seats
    Akiko, not a third entry."""
    akiko = ledger.start("dunhill", ["Akiko", "Ben", "Chie"]).player_ids[0]
    ledger.start("dunhill", ["Aki", "Dai", "Eri"])
    ledger.merge_players("Aki", "Akiko")
    assert ledger.start("dunhill", ["Aki", "Ben", "Chie"]).player_ids[0] == akiko
    assert ledger.start("dunhill", ["aki", "Ben", "Chie"]).player_ids[0] == akiko
    assert [p.name for p in ledger.players()].count("Aki") == 0


def test_the_merge_form_finds_players_as_the_session_start_does(ledger):
    """"Dan" is the player named Dan, not the one whose member code is DAN."""
    ledger.start("dunhill", ["Dan", "A1", "B1"])
    ledger.add_player("Daniel", code="DAN")
    ledger.start("dunhill", ["Eve", "A2", "B2"])
    ledger.merge_players("Dan", "Eve")
    assert ledger.merges()[0][0].name == "Dan"


def test_two_tables_adding_players_at_once_give_each_its_own_code(ledger, db_url, monkeypatch):
    """Member cards typed in ahead of the register's ids: two tables adding a player at the same
    instant both found the same next free code, and on PostgreSQL one got a 500 (unique code)."""
    import threading
    from service.ledger import players as register

    card = ledger.add_player("Card holder", code="0000")
    ledger.rename_player(card.id, code=f"{card.id + 1:04d}")   # the next id's code: it skips to the one after
    chosen = threading.Barrier(2, timeout=1.5)
    real = register._free_code

    def after_choosing(conn, pid):        # both adds meet here, each past choosing, where they can
        code = real(conn, pid)
        try:
            chosen.wait()
        except threading.BrokenBarrierError:
            pass                          # the other waits on the register's lock: this one goes on alone
        return code

    monkeypatch.setattr(register, "_free_code", after_choosing)
    other = Ledger(db_url)
    added, failed = [], []

    def add(handle, name):
        try:
            added.append(handle.add_player(name))
        except Exception as e:            # a unique-code clash from the database
            failed.append(repr(e))
    threads = [threading.Thread(target=add, args=(ledger, "Dai")), threading.Thread(target=add, args=(other, "Emi"))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    other.close()
    assert not failed, failed
    assert len({p.code for p in added}) == 2 and card.code not in {p.code for p in added}
