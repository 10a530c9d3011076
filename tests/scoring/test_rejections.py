"""A record that cannot be scored is refused with a message naming the problem.

The engine raises ScoringError (one line); the command line prints that line
and exits 2.
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rulebook import ScoringError, record, score

ROOT = Path(__file__).resolve().parents[2]
PLAIN = dict(concealed="234678p234678s99s", win_tile="3p", gari="1m", riichi=True)

# (what is wrong, record, words the message must contain)
BAD = [
    ("bad tile", record("dunhill", "234678p234678s98z", "3p", gari="1m"), "bad tile 9z"),
    ("bad suit letter", record("dunhill", "234678p234678s99x", "3p", gari="1m"), "'x' is not a digit"),
    ("digits without a suit", record("dunhill", "234678p234678s99", "3p", gari="1m"), "have no suit letter"),
    ("too many copies", record("dunhill", "22222p678p234s99s", "2p", gari="1m"), "too many copies of 2p"),
    ("too many copies across hand and gari",
     record("dunhill", **dict(PLAIN, gari="11111m")), "too many copies of 1m"),
    ("too many reds", record("dunhill", "234000p234678s99s", "2p", gari="1m"), "too many red fives 0p"),
    # 三人花's four 5p hold two red: a third plain one is a red one read as plain (the count short of it)
    ("too many plain fives", record("dunhill", "234p555p678s99s", "3p", gari="1m",
                                    melds=[{"kind": "pon", "tiles": "777z", "from": "west"}]),
     "too many plain fives 5p: 3 seen (hand 3)"),
    # where the plain ones lie, field by field: the players are told which tile to make red
    ("plain fives in the hand and the indicators", record("dunhill", "234p55p678s99s", "3p", gari="1m",
                                                        dora_indicators="5p",
                                                        melds=[{"kind": "pon", "tiles": "777z", "from": "west"}]),
     "too many plain fives 5p: 3 seen (hand 2, dora indicators 1)"),
    ("an ankan of fives with no red", record("dunhill", "234p678s99s", "3p", gari="1m", win="tsumo",
                                             melds=[{"kind": "ankan", "tiles": "5555p"},
                                                    {"kind": "pon", "tiles": "777z", "from": "west"}]),
     "the dunhill wall has 2 plain and 2 red (0p)"),
    ("13 tiles", record("dunhill", "234678p234678s9s", "3p", gari="1m"), "13 tiles"),
    ("15 tiles", record("dunhill", "234678p234678s999s", "3p", gari="1m"), "15 tiles"),
    ("not a winning hand", record("dunhill", "134678p234678s99s", "3p", gari="1m"), "not a winning hand"),
    ("no yaku", record("dunhill", "234678p234678s99s", "3p", gari="1m"), "no yaku"),
    ("unknown preset", record("nosuch", **PLAIN), "unknown rules preset 'nosuch'"),
    ("unknown option", record("dunhill", **PLAIN, options={"nosuch": 1}), "unknown option(s) for dunhill: nosuch"),
    ("bad option value", record("dunhill", **PLAIN, options={"open_riichi_points": 3}),
     "open_riichi_points"),
    ("gari kind in the hand", record("dunhill", "234p234678s99s111m", "3p", gari="9m", riichi=True),
     "1m is a gari under dunhill"),
    ("North in the hand under dunhill", record("dunhill", "234p234678s99s444z", "3p", gari="9m", riichi=True),
     "4z is a gari under dunhill"),
    ("2m outside the wall", record("dunhill", "234p234678s99s222m", "3p", gari="1m"),
     "2m is not in the dunhill wall"),
    ("5m outside the 108-tile wall", record("toutenkou", **dict(PLAIN, gari="5m")),
     "5m is not in the toutenkou wall"),
    ("the other suit in chinton", record("chinton", "123456789p234s99p", "3p", gari="1m"), "one suit per hand"),
    ("the other suit than the option says",
     record("chinton", "123456789p234p99p", "3p", gari="1m", options={"suit": "s"}),
     "1p is not in this hand's wall"),
    ("a non-gari set aside", record("dunhill", **dict(PLAIN, gari="2p")), "2p in gari is not a gari"),
    ("1m set aside under isshokai", record("isshokai", **dict(PLAIN, gari="1m")), "1m in gari is not a gari"),
    ("ura without riichi", record("dunhill", **dict(PLAIN, riichi=False, ura_indicators="1p")),
     "ura_indicators are only turned for a riichi"),
    ("haitei on a ron", record("dunhill", **PLAIN, haitei=True), "haitei is a tsumo win"),
    ("houtei on a tsumo", record("dunhill", **PLAIN, win="tsumo", houtei=True), "houtei is a ron win"),
    ("chankan on a tsumo", record("dunhill", **PLAIN, win="tsumo", chankan=True), "chankan is a ron win"),
    ("rinshan on a ron", record("dunhill", **PLAIN, rinshan=True), "rinshan is a tsumo win"),
    ("ippatsu without riichi", record("dunhill", **dict(PLAIN, riichi=False), ippatsu=True), "ippatsu needs riichi"),
    ("riichi with an open hand",
     record("dunhill", "234678p234s99s", "3p", gari="1m", riichi=True,
            melds=[{"kind": "pon", "tiles": "777z", "from": "west"}]), "riichi needs a closed hand"),
    ("tenhou for a non-dealer", record("dunhill", **PLAIN, win="tsumo", tenhou=True), "tenhou"),
    ("chiihou for the dealer", record("dunhill", **PLAIN, seat="east", win="tsumo", chiihou=True), "chiihou"),
    ("nagashi by ron", record("dunhill", **PLAIN, nagashi=True), "nagashi"),
    # a tenhou, chiihou or renhou is won before the winner's first discard: chinton and isshokai paid the riichi
    ("tenhou with a double riichi",
     record("chinton", "123p456p789p234p11z", "1z", seat="east", win="tsumo", gari="1m", tenhou=True,
            double_riichi=True, ippatsu=True), "before the winner's first discard"),
    ("renhou with a riichi",
     record("isshokai", "123p456p789p23s77z4s", "4s", discarder="east", renhou=True, riichi=True, ippatsu=True),
     "no riichi, double riichi or ippatsu"),
    # "カンは4回まで" (balance); max_kans = 4: one indicator and one per kan; one ura under each
    ("more dora indicators than kans allow",
     record("dunhill", **dict(PLAIN, dora_indicators="6z6z6z1p1p1p2p")), "7 dora indicators: a table shows at most 5"),
    ("more ura than dora indicators",
     record("dunhill", **dict(PLAIN, dora_indicators="3z", ura_indicators="6z6z6z6z")),
     "4 ura indicators under 1 dora indicator"),
    ("ura with no dora indicator", record("dunhill", **dict(PLAIN, ura_indicators="8s")),
     "1 ura indicators under 0 dora indicator"),
    ("a meld's tiles as a number", record("dunhill", "234p678s99s", "3p", gari="1m",
                                          melds=[{"kind": "pon", "tiles": 777, "from": "west"}]),
     "melds[0].tiles must be an mpsz string"),
    ("concealed as a list", record("dunhill", ["2p", "3p"], "3p", gari="1m"), "concealed must be an mpsz string"),
    # chinton: "北の暗槓は出来ない。また、他家が抜いた北を鳴くことは出来ない"
    ("a North kan in chinton",
     record("chinton", "111z222z333z11p", "1p", win="tsumo", melds=[{"kind": "ankan", "tiles": "4444z"}]),
     "4z is a gari under chinton: held in a hand only concealed"),
    ("a North pon in chinton",
     record("chinton", "111z222z333z11p", "1p", melds=[{"kind": "pon", "tiles": "444z", "from": "east"}]),
     "never called or made a kan"),
    ("win tile not in the hand", record("dunhill", **dict(PLAIN, win_tile="5p")), "win_tile 5p is not in concealed"),
    ("negative honba", record("dunhill", **PLAIN, honba=-1), "honba must be a whole number"),
    ("honba past any table", record("dunhill", **PLAIN, honba=10**30), "honba must be a whole number from 0 to 999"),
    ("unknown field", record("dunhill", **PLAIN, foo=1), "unknown field(s) in hand record: foo"),
    ("bad seat", record("dunhill", **PLAIN, seat="north"), "seat must be one of east, south, west"),
    ("flag not a bool", record("dunhill", **dict(PLAIN, riichi="yes")), "riichi must be true or false"),
    # {} and 0 were read as "none" and logged as sent
    ("gari not tile text", record("dunhill", **dict(PLAIN, gari={})), "gari must be an mpsz string"),
    ("indicators not tile text", record("dunhill", **PLAIN, dora_indicators=0),
     "dora_indicators must be an mpsz string such as"),
    ("discarder is the winner", record("dunhill", **PLAIN, discarder="south"), "discarder is the winner's own seat"),
    ("a pon of mixed tiles",
     record("dunhill", "234678p234s99s", "3p", gari="1m", melds=[{"kind": "pon", "tiles": "776z", "from": "west"}]),
     "a pon is tiles of one kind"),
    ("a pon called from oneself",
     record("dunhill", "234678p234s99s", "3p", gari="1m", melds=[{"kind": "pon", "tiles": "777z", "from": "south"}]),
     "from is the winner's own seat"),
    ("a five-tile kan outside chinton",
     record("balance", "345p666777s99s", "3p", gari="1m",
            melds=[{"kind": "ankan", "tiles": "22222p"}]), "2p"),
    ("a gari replacement as rinshan in chinton",
     record("chinton", "123456789p234p99p", "3p", win="tsumo", rinshan=True, gari="1m"), "rinshan needs a kan"),
    ("a haku dora that is not an honour",
     record("chinton", "123456789p234p99p", "3p", gari="1m", dora_indicators="5z",
            options={"haku_dora": "1p"}), "haku_dora must name an honour"),
    # the winner's discards are tiles of the wall too: balance counts karasu from them (a 5p among
    # them, none), so discards no wall holds changed the count (30 fixed to 3)
    ("a discard the wall lacks", record("balance", "234p678p234s22s", "3p", discards="1p2m",
                                        melds=[{"kind": "pon", "tiles": "777z", "from": "west"}]),
     "discards: 2m is not in the balance wall"),
    ("a fifth copy among the discards", record("balance", "234p678p234s22s", "3p", discards="5p5p5p5p5p",
                                               melds=[{"kind": "pon", "tiles": "777z", "from": "west"}]),
     "discards: 5 5p discarded and 0 in the hand"),
    ("a discard with the hand's copies over the wall's",
     record("dunhill", "234p678p234s22s", "2p", gari="1m", discards="2222p",
            melds=[{"kind": "pon", "tiles": "777z", "from": "west"}]),
     "discards: 4 2p discarded and 1 in the hand, melds, gari and indicators; the dunhill wall has 4"),
    ("a third red 0p among the discards", record("balance", "234p678p234s22s", "3p", discards="0p0p0p",
                                                 melds=[{"kind": "pon", "tiles": "777z", "from": "west"}]),
     "discards: 3 red 0p discarded"),
    ("the other suit among chinton's discards",
     record("chinton", "123456789p234p99p", "3p", gari="1m", discards="1s"),
     "discards: 1s is not in this hand's chinton wall"),
]


@pytest.mark.parametrize("why,rec,words", BAD, ids=[b[0] for b in BAD])
def test_invalid_record_is_refused_naming_the_problem(why, rec, words):
    with pytest.raises(ScoringError) as e:
        score(rec)
    msg = str(e.value)
    assert words in msg
    assert "\n" not in msg


def test_a_tsumo_has_no_discarder():
    rec = {"rules": "dunhill", "seat": "south", "win": "tsumo", "discarder": "west",
           "concealed": "234678p234678s99s", "win_tile": "3p", "gari": "1m"}
    with pytest.raises(ScoringError, match="a tsumo win has no discarder"):
        score(rec)


def test_a_record_that_is_not_an_object():
    with pytest.raises(ScoringError, match="must be a JSON object"):
        score(["dunhill"])


def test_missing_required_field():
    with pytest.raises(ScoringError, match="missing 'win_tile'"):
        score({"rules": "dunhill", "seat": "south", "win": "ron", "concealed": "234678p234678s99s"})


@pytest.mark.parametrize("field", ["melds", "options", "honba", "riichi", "ippatsu", "gari", "discarder"])
def test_null_in_an_optional_field_is_the_ordinary_case(field):
    """The format says a missing optional field, or null, means the ordinary case: null was refused
    for melds, options, honba and the flags ("melds must be a list")."""
    plain = record("dunhill", "234678p234678s88s", "3p", gari="1m", riichi=True)      # tanyao besides riichi
    nulled = {**plain, field: None}
    if field == "gari":
        assert score(nulled).total != score(plain).total      # no gari: a different count, but counted
    else:
        assert score(nulled).total == score({k: v for k, v in plain.items() if k != field}).total


@pytest.mark.parametrize("field", ["concealed", "gari", "discards", "dora_indicators"])
def test_a_tile_field_longer_than_any_hand_is_refused_at_once_and_not_echoed(field):
    """A run of 25,000 digits with no suit took seconds to parse (100,000: minutes), holding every
    other request of the table, and the refusal repeated the whole text twice. It is refused for
    its length before it is parsed."""
    rec = record("dunhill", **{**PLAIN, field: "1" * 5_000})
    with pytest.raises(ScoringError, match="tile text of 5,000 characters") as refused:
        score(rec)
    assert len(str(refused.value)) < 200


def test_scoring_error_is_a_value_error():
    assert issubclass(ScoringError, ValueError)


# --- the command line: exit 2 with one line --------------------------------------------

def _cli(tmp_path, text):
    f = tmp_path / "hand.json"
    f.write_text(text, encoding="utf-8")
    return subprocess.run([sys.executable, "-m", "scoring", "score", str(f)], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("text,words", [
    ('{"rules": "dunhill", "seat": "south"', "not valid JSON"),
    (json.dumps(record("dunhill", "234678p234678s98z", "3p", gari="1m")), "bad tile 9z"),
    (json.dumps(record("dunhill", "134678p234678s99s", "3p", gari="1m")), "not a winning hand"),
    (json.dumps(record("nosuch", **PLAIN)), "unknown rules preset"),
    (json.dumps(record("dunhill", **PLAIN))[:-1] + ', "honba": ' + "9" * 5000 + "}", "too long to read"),
], ids=["malformed JSON", "bad tile", "not a winning hand", "unknown preset", "a number of 5,000 digits"])
def test_cli_exits_2_with_one_line(tmp_path, text, words):
    p = _cli(tmp_path, text)
    assert p.returncode == 2
    assert p.stdout == ""
    err = p.stderr.strip().splitlines()
    assert len(err) == 1 and words in err[0]


def test_cli_missing_file_exits_2(tmp_path):
    p = subprocess.run([sys.executable, "-m", "scoring", "score", str(tmp_path / "none.json")], cwd=ROOT,
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1


def test_cli_scores_a_good_record(tmp_path):
    rec = record("dunhill", "334400p667788s99s", "3p", seat="east", win="tsumo",
                 gari="4444z0m1m9m9m", dora_indicators="8s", honba=5)
    p = _cli(tmp_path, json.dumps(rec))
    assert p.returncode == 0
    assert json.loads(p.stdout)["total"] == 96
