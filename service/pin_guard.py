"""Wrong PINs, counted per client address: a six-digit PIN must not be guessable at network speed.

After ``tries`` wrong PINs from one address within ``window_s``, that address is refused for
``lock_s`` (HTTP 429), the right PIN included; a right PIN clears its count. With the defaults
(10 in 10 minutes, then 60 s) a guesser gets about 9 PINs a minute: a million take months.
"""

from __future__ import annotations

import threading
import time
from typing import Callable


class TooManyWrongPins(Exception):
    def __init__(self, wait_s: float):
        self.wait_s = max(1, int(wait_s + 0.999))
        self.status = 429
        super().__init__(f"too many wrong PINs from this address: wait {self.wait_s} s and try again")


class PinGuard:
    def __init__(self, tries: int = 10, window_s: float = 600.0, lock_s: float = 60.0,
                 clock: Callable[[], float] = time.monotonic):
        self.tries, self.window_s, self.lock_s, self.clock = tries, window_s, lock_s, clock
        self._wrong: dict[str, list[float]] = {}
        self._locked_until: dict[str, float] = {}
        self._lock = threading.Lock()          # routes run in a thread pool

    def check(self, client: str) -> None:
        """TooManyWrongPins while ``client`` is locked out."""
        with self._lock:
            until = self._locked_until.get(client, 0.0)
        now = self.clock()
        if now < until:
            raise TooManyWrongPins(until - now)

    def failed(self, client: str) -> None:
        now = self.clock()
        with self._lock:
            recent = [t for t in self._wrong.get(client, []) if now - t < self.window_s] + [now]
            if len(recent) >= self.tries:
                self._locked_until[client] = now + self.lock_s
                recent = []
            self._wrong[client] = recent

    def passed(self, client: str) -> None:
        with self._lock:
            self._wrong.pop(client, None)
