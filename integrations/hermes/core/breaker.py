"""A circuit breaker for the calls to engram (mem0's numbers: 5 consecutive failures open it for
120 s). While open, calls fail at once without touching the network; after the cool-down one call
is let through (half-open): its success closes the breaker, its failure opens it again.

Only failures that say engram is unreachable or broken count (connection errors, timeouts, 5xx);
a 4xx is an answer from a live server and counts as a success. Thread-safe.
"""

from __future__ import annotations

import threading
import time
from typing import Callable, Optional

THRESHOLD = 5
COOLDOWN_S = 120.0


class CircuitBreaker:
    def __init__(self, threshold: int = THRESHOLD, cooldown_s: float = COOLDOWN_S,
                 clock: Callable[[], float] = time.monotonic,
                 on_down: Optional[Callable[[str], None]] = None,
                 on_up: Optional[Callable[[], None]] = None) -> None:
        self._threshold = threshold
        self._cooldown_s = cooldown_s
        self._clock = clock
        self._lock = threading.Lock()
        self._failures = 0
        self._opened_at: Optional[float] = None
        self._trial_in_flight = False
        self._down = False  # a failure was reported and no success since: the user was told
        self._on_down = on_down
        self._on_up = on_up

    def allow(self) -> bool:
        """True when a call may go out now (closed, or the one trial call of half-open)."""
        with self._lock:
            if self._opened_at is None:
                return True
            if self._clock() - self._opened_at < self._cooldown_s or self._trial_in_flight:
                return False
            self._trial_in_flight = True
            return True

    def seconds_until_retry(self) -> float:
        """0 when closed; else how long until the half-open trial is allowed."""
        with self._lock:
            if self._opened_at is None:
                return 0.0
            return max(0.0, self._cooldown_s - (self._clock() - self._opened_at))

    @property
    def down(self) -> bool:
        """A failure was recorded and no success since."""
        with self._lock:
            return self._down

    @property
    def is_open(self) -> bool:
        with self._lock:
            return self._opened_at is not None

    def record_success(self) -> None:
        with self._lock:
            was_down = self._down
            self._failures = 0
            self._opened_at = None
            self._trial_in_flight = False
            self._down = False
        if was_down and self._on_up:
            self._on_up()

    def record_failure(self, reason: str) -> None:
        with self._lock:
            self._failures += 1
            if self._trial_in_flight or self._failures >= self._threshold:
                self._opened_at = self._clock()
            self._trial_in_flight = False
            first = not self._down
            self._down = True
        if first and self._on_down:
            self._on_down(reason)
