"""How the reader reads this table: each confirmed count set against its reading, kept, summed for the
counter, which asks for the tiles to be taught again when the camera's counts are fixed too often."""

from __future__ import annotations

import json
import re

from fastapi.testclient import TestClient

from service.app import create_app
from service.heartbeat import Heartbeat
from service.read_tally import CAMERA, LOW_AFTER, SEAT, ReadTally, outcome, reads_poorly, summary
from service.reader import ReadContext, Reading
from service.settings import DEMO_FRAMES, DEMO_HANDS

from table_fixtures import PIN, PLAYERS

READ = {"rules": "dunhill", "seat": "south", "win": "tsumo", "concealed": "222234444888s66z", "win_tile": "4s",
        "dora_indicators": "5s", "discards": "9m39p"}


def test_a_count_confirmed_as_read_is_as_read_whatever_its_discards():
    done = outcome(READ, [{**READ, "discards": ""}])
    assert done["as_read"] and done["source"] == CAMERA and done["fields"] == [] and done["misread"] == []


def test_a_fix_names_the_field_the_tile_read_and_the_tile_there():
    done = outcome(READ, [{**READ, "dora_indicators": "6s"}])
    assert not done["as_read"] and done["fields"] == ["dora_indicators"]
    assert (done["misread"], done["missed"]) == (["5s"], ["6s"])


def test_a_photo_from_the_seat_is_its_own_source_and_nothing_read_is_no_outcome():
    assert outcome(READ, [READ], from_seat=True)["source"] == SEAT
    assert outcome(None, [READ]) is None and outcome(READ, []) is None


def test_the_summary_counts_each_source_and_the_tiles_fixed_most_first():
    outcomes = [outcome(READ, [READ]), outcome(READ, [{**READ, "dora_indicators": "6s"}]),
                outcome(READ, [{**READ, "dora_indicators": "6s", "concealed": "222234444888s77z"}]),
                outcome(READ, [READ], from_seat=True)]
    s = summary(outcomes)
    assert s[CAMERA]["counts"] == 3 and s[CAMERA]["as_read"] == 1
    assert s[CAMERA]["fixed_most"] == [["6s", 2], ["7z", 2]]
    assert s[SEAT] == {"counts": 1, "as_read": 1, "fixed_most": []}
    assert summary([]) == {}


def test_the_counter_asks_for_teaching_when_the_camera_reads_too_few_counts_as_confirmed():
    def reads(n, k):
        return {CAMERA: {"counts": n, "as_read": k, "fixed_most": [["6p", 3]]}}
    assert reads_poorly(reads(LOW_AFTER - 1, 0)) == ""          # too few counts to say
    assert reads_poorly(reads(12, 10)) == ""
    said = reads_poorly(reads(12, 7))
    assert "7 of its last 12" in said and "6p x3" in said and "teach" in said
    assert reads_poorly(None) == "" and reads_poorly({SEAT: {"counts": 20, "as_read": 0}}) == ""


def _reading(record, from_seat=False) -> tuple[Reading, tuple[int, int]]:
    return Reading("vision", record, from_seat=from_seat), (1920, 1080)


def test_the_tally_keeps_the_last_outcomes_on_disk_and_reads_them_back(tmp_path):
    path = tmp_path / "reads.json"
    readings = {**{f"{i}.jpg": _reading(READ) for i in range(4)}, "b.jpg": _reading(None)}
    tally = ReadTally(path, readings.get, keep=3)
    for i, fixed in enumerate(("5s", "6s", "7s", "8s")):
        assert tally.add(f"{i}.jpg", [{**READ, "dora_indicators": fixed}]) is not None
    assert tally.add("b.jpg", [READ]) is None                  # nothing read: the players typed it
    assert tally.add("c.jpg", [READ]) is None and tally.add(None, [READ]) is None    # no reading of it
    again = ReadTally(path, readings.get, keep=3)
    assert again.summary()[CAMERA] == {"counts": 3, "as_read": 0, "fixed_most": [["6s", 1], ["7s", 1], ["8s", 1]]}
    assert [p.name for p in tmp_path.iterdir()] == ["reads.json"]          # no part file left


def test_a_count_corrected_later_replaces_its_outcome(tmp_path):
    tally = ReadTally(tmp_path / "reads.json", {"a.jpg": _reading(READ), "b.jpg": _reading(READ)}.get)
    tally.add("a.jpg", [READ])
    tally.add("b.jpg", [READ])
    tally.add("a.jpg", [{**READ, "dora_indicators": "6s"}])     # hand 1 corrected: its indicator was a 6s
    assert tally.summary()[CAMERA] == {"counts": 2, "as_read": 1, "fixed_most": [["6s", 1]]}


def test_a_tally_file_that_cannot_be_read_starts_afresh_and_says_so(tmp_path, caplog):
    path = tmp_path / "reads.json"
    path.write_text("{not json")
    assert ReadTally(path, {}.get).summary() == {} and "started afresh" in caplog.text
    path.write_text('{"a": 1}')
    assert ReadTally(path, {}.get).summary() == {}


def test_tallying_never_fails_a_confirm(tmp_path, caplog):
    def broken(snapshot):
        raise OSError("disk gone")
    assert ReadTally(tmp_path / "reads.json", broken).add("a.jpg", [READ]) is None
    assert "could not be tallied" in caplog.text


# ---- at the table: a count read by the camera, fixed by the players, tallied and told to the counter ----

def _read_and_confirm(client, sid: str, hand: int, frame: str, turn: int = 0, **fixes) -> None:
    """The demo frame read on the tablet (uploaded, as the camera would give it) and confirmed. Its
    truth names the zones' seats (the first deal's): ``turn``, the deal's turns since, names the seats
    the hand was won at."""
    page = client.post(f"/s/{sid}/upload", data={"hand": str(hand), "correct": fixes.get("correct", "")},
                       files={"image": (frame, (DEMO_FRAMES / frame).read_bytes(), "image/jpeg")})
    snapshot = re.search(r'name="snapshot" value="([0-9a-f]{20}\.jpg)"', page.text).group(1)
    truth = ReadContext("", turn=turn).seats_now(json.loads(DEMO_HANDS.read_text())[frame])
    form = {"snapshot": snapshot, "hand": str(hand), "seat": truth["seat"], "win": truth["win"],
            "melds": json.dumps(truth.get("melds") or []),
            **{k: truth[k] for k in ("concealed", "win_tile", "dora_indicators")}, **fixes}
    assert client.post(f"/s/{sid}/confirm", data=form).status_code == 204


def test_each_confirmed_count_is_tallied_and_the_heartbeat_carries_it(settings):
    roomy = settings.model_copy(update={"max_upload_bytes": 2_000_000})
    with TestClient(create_app(roomy), headers={"X-Table-PIN": PIN}) as client:
        sid = client.post("/api/sessions", json={"rules": "dunhill", "players": PLAYERS}).json()["id"]
        _read_and_confirm(client, sid, 1, "frame-01.jpg")                         # confirmed as read ...
        _read_and_confirm(client, sid, 2, "frame-02.jpg", turn=1)                 # ... and the next (Ben deals)
        # hand 1 corrected from the history: its indicator read 5s was a 6s (its outcome replaced)
        _read_and_confirm(client, sid, 1, "frame-01.jpg", dora_indicators="6s", correct="1")
        reads = Heartbeat(client.app, client.app.state.parlour.engine).status()["reads"]
    assert reads == {CAMERA: {"counts": 2, "as_read": 1, "fixed_most": [["6s", 1]]}}
    assert len(json.loads(roomy.read_tally_path.read_text())) == 2


def test_the_teach_page_says_how_the_camera_reads_and_asks_for_teaching_when_poorly(client):
    assert 'id="reads"' not in client.get("/teach").text           # nothing read and confirmed yet
    app = client.app
    for i in range(LOW_AFTER):
        app.state.offers.remember(f"{i}.jpg", Reading("vision", READ), (1920, 1080))
        app.state.read_tally.add(f"{i}.jpg", [{**READ, "dora_indicators": "6s"} if i % 2 else READ])
    page = client.get("/teach").text
    said = " ".join(re.search(r'id="reads">(.*?)</p>', page, re.S).group(1).split())
    half = LOW_AFTER // 2
    assert f"read {half} of its last {LOW_AFTER} counts" in said and f"6s ×{half}" in said
    assert "teach the tiles again" in said and 'class="flash warn" id="reads"' in page
