"""A small bounded map: what waits between two taps (a count's reading until its Confirm, a teach-page
reading until its Confirm), the newest kept, the oldest forgotten."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Recent(Generic[K, V]):
    """The last ``size`` values put, by key (thread-safe); older ones are forgotten."""

    def __init__(self, size: int):
        self.size = size
        self._items: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def put(self, key: K, value: V) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def get(self, key: K) -> V | None:
        with self._lock:
            return self._items.get(key)

    def pop(self, key: K) -> V | None:
        with self._lock:
            return self._items.pop(key, None)
