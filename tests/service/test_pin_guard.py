"""Wrong PINs: a six-digit PIN must not be guessable at network speed."""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient

from service.app import create_app
from service.pin_guard import PinGuard, TooManyWrongPins
from table_fixtures import PIN


class Clock:
    """Seconds that pass only when the test says so."""

    def __init__(self):
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_five_wrong_pins_lock_the_address_for_a_minute_even_for_the_right_one():
    clock = Clock()
    guard = PinGuard(tries=5, window_s=600, lock_s=60, clock=clock)
    for _ in range(4):
        guard.check("10.0.0.7")
        guard.failed("10.0.0.7")
    guard.check("10.0.0.7")                          # four wrong: still let in
    guard.failed("10.0.0.7")
    with pytest.raises(TooManyWrongPins, match="wait 60 s"):
        guard.check("10.0.0.7")
    guard.check("10.0.0.8")                          # another address is not held up
    clock.now += 59.5
    with pytest.raises(TooManyWrongPins, match="wait 1 s"):
        guard.check("10.0.0.7")
    clock.now += 1
    guard.check("10.0.0.7")


def test_old_mistakes_and_a_right_pin_clear_the_count():
    clock = Clock()
    guard = PinGuard(tries=3, window_s=600, lock_s=60, clock=clock)
    guard.failed("a")
    guard.failed("a")
    clock.now += 601                                 # out of the window
    guard.failed("a")
    guard.failed("a")
    guard.check("a")
    guard.passed("a")                                # the right PIN
    guard.failed("a")
    guard.failed("a")
    guard.check("a")


def test_the_service_answers_429_after_too_many_wrong_pins(settings):
    # a lock of 3 s: 1 s ran out before the login's check on a loaded CI machine
    app = create_app(settings.model_copy(update={"pin_tries": 3, "pin_lock_s": 3.0}))
    with TestClient(app) as client:
        for _ in range(3):
            assert client.get("/api/sessions", headers={"X-Table-PIN": "000000"}).status_code == 401
        r = client.get("/api/sessions", headers={"X-Table-PIN": PIN})
        assert r.status_code == 429 and "too many wrong PINs" in r.json()["detail"]
        page = client.post("/login", data={"pin": PIN}, follow_redirects=False)
        assert page.status_code == 429 and "wait" in page.text
        assert client.get("/api/sessions").status_code == 429          # no PIN: locked all the same
        time.sleep(3.1)
        assert client.get("/api/sessions", headers={"X-Table-PIN": PIN}).status_code == 200
        assert client.post("/login", data={"pin": PIN}, follow_redirects=False).status_code == 303
