"""A writer process for the crash tests: appends hands to a session until killed.

    python ledger_writer.py URL SESSION COUNT [KILL_AFTER_STATEMENT]
    python ledger_writer.py URL SESSION COUNT hold     # then waits to be killed, its connection open

Prints "confirmed N" (N = hands in the session) after each append returns. With
KILL_AFTER_STATEMENT it SIGKILLs itself right after that SQL statement (counted
from the start, opening and migration check included), so a test can stop it
between any two statements.
"""

import os
import signal
import sys
import time

from sqlalchemy import event

from service.ledger import Ledger

HAND = dict(rules="dunhill", seat="east", win="tsumo", concealed="234p678p234s66s777z",
            win_tile="6s", gari="1m")


def main() -> None:
    url, sid, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    hold = sys.argv[4:] == ["hold"]
    kill_after = int(sys.argv[4]) if len(sys.argv) > 4 and not hold else None
    seen = 0

    def count_statement(*_a):
        nonlocal seen
        seen += 1
        if kill_after is not None and seen >= kill_after:
            os.kill(os.getpid(), signal.SIGKILL)

    import sqlalchemy
    event.listen(sqlalchemy.engine.Engine, "after_cursor_execute", count_statement)
    ledger = Ledger(url)
    for _ in range(count):
        st = ledger.state(sid)
        if st.hands % 2:   # odd: the dealer tsumo (honba filled in by the ledger)
            _, st = ledger.add_win(sid, [dict(HAND)], riichi=["Ben"] if st.hands % 4 == 1 else None)
        else:              # even: a draw, Aki tenpai (Aki is always the dealer here)
            _, st = ledger.add_draw(sid, ["Aki"])
        print(f"confirmed {st.hands}", flush=True)
    print(f"statements {seen}", flush=True)
    while hold:                     # a power cut comes now: no hand more, the -wal as it lies
        time.sleep(60)


if __name__ == "__main__":
    main()
