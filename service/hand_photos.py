"""A photo of the winner's revealed hand, taken at the seat with the tablet: its tiles into the draft.

The table's camera reads the whole table from above (``service.vision_reader``). A photo taken
from the seat is another view: no markers, no zones, the tiles seen from the side. The oblique
view's detector finds its tiles and ``vision.hand_photo`` the revealed line among them, so it
needs no calibrated table: a table without a camera counts from the tablet's photo too.

What such a photo cannot show (the seat, tsumo or ron, who dealt in, the gari, the dora
indicators, riichi) stays as the tablet's draft has it; the photo replaces the hand's concealed
tiles, its winning tile and its melds. A photo whose hand makes no win, even mended, is read again
at other sizes, and the first reading that does is taken (``vision.hand_photo.read_photo``): the
winner revealed a winning hand, so the first reading was off. Its cuts teach the table's tile set nothing: the set is
taught at the table camera's view, and a seat's view of the tiles would blur it.
"""

from __future__ import annotations

import threading
from typing import Any, Mapping

import numpy as np

from scoring.mend import a_winners_hand

from .mending import mended, set_of
from .reader import Detection, Reading

NAME = "hand photo"


class HandPhotoReader:
    """Reads photos of a revealed hand; the oblique detector is loaded on the first photo."""

    def __init__(self, detector=None, mend: bool = True, again: bool = True):
        self._detector = detector
        self.mend = mend                    # a hand read one tile off a win mended (service.mending)
        self.again = again                  # a hand that makes no win read again at other sizes
        self._lock = threading.Lock()       # one photo at a time through one detector

    def read(self, photo: np.ndarray, draft: Mapping[str, Any], preset=None) -> Reading:
        """``draft`` (a hand record as the tablet has it) with the photo's hand in it, mended where it
        makes no win (``service.mending``; ``preset``: the session's rule), the line's tiles as
        detections (zone ``hand``) and what the players should check."""
        from vision.hand_photo import read_photo, seat_detector

        def as_mended(hand) -> tuple:       # the hand as the players get it, and what they are told
            return mended(hand.into(draft) if hand.line else None, hand.hand, preset, mend_tiles=self.mend)

        last: dict = {}                     # the reading wins() judged last, mended: the one taken, if any

        def wins(hand) -> bool:
            last.update(line=hand.line, mended=as_mended(hand))
            return hand.line is not None and a_winners_hand(last["mended"][0], preset)

        with self._lock:
            if self._detector is None:
                self._detector = seat_detector()
            hand = read_photo(photo, self._detector, accept=wins if self.again else None,
                              wall=set_of(draft.get("rules", ""), preset)[0])
        tiles = hand.line.tiles if hand.line else []
        detections = tuple(Detection(t.tile, int(t.box[0]), int(t.box[1]), int(t.width), int(t.height),
                                     score=t.score, zone="hand", rotation=t.rotation) for t in tiles)
        record, said = last["mended"] if last and last["line"] is hand.line else as_mended(hand)
        warnings = hand.warnings
        if record and record.get("win_tile"):     # found where the hand waits on one tile: not the players' to pick
            warnings = tuple(w for w in warnings if not w.startswith("13 tiles in the line"))
        return Reading(NAME, record, detections, warnings + said, from_seat=True)
