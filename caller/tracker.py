"""From a stream of (possibly noisy) board readings to accepted positions.

A reading is accepted as the position on the table only when every cell is confidently
read and the same reading has held for ``accept_s`` seconds of source time across at
least ``min_reads`` reads. A cell that flickers for a frame or two therefore never becomes
a move, and a hand over the board (uncertain cells) never becomes a position. A pause in
the reads (the scene moved, a hand hid cells, no board was found) does not restart the wait
when the next confident reading is the same position: nothing changed on the table, and a
hand that hovers after a slide must not hold the position back (or the warning about an
illegal one, which needs the position accepted twice).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from vision.config import TrackerConfig

__all__ = ["PositionTracker", "Reading", "TrackerConfig"]

Cell = tuple[int, int]


@dataclass(frozen=True)
class Reading:
    """One frame's reading of an Easy Slider table, in notation (codes, None for the hole)."""

    board: tuple[tuple[str | None, ...], ...]
    pawns: tuple[str | None, ...]
    coins: tuple[str | None, ...]
    uncertain: frozenset[Cell] = field(default_factory=frozenset)

    @property
    def confident(self) -> bool:
        return not self.uncertain and None not in self.pawns and None not in self.coins

    @property
    def key(self) -> tuple:
        """What must agree between reads for them to count as the same position."""
        return (self.board, self.pawns, self.coins)


class PositionTracker:
    """Feed ``offer(t, reading)`` for each read still frame; ``None`` when no board was read.

    Returns the reading when it has just been accepted, else None. ``interrupt()`` is called
    when the scene moves: a pending candidate must then be confirmed afresh.
    """

    def __init__(self, config: TrackerConfig | None = None):
        self.config = config or TrackerConfig()
        self.accepted: Reading | None = None
        self._candidate: Reading | None = None
        self._since: float = 0.0
        self._reads = 0
        self._last_read_t: float | None = None
        self._paused = False
        #: set by the loop while a change waits for its confirming re-read: the next candidate
        #: is accepted on ``min_reads`` fresh reads, without waiting ``accept_s`` again (the
        #: change already held that long; a player who moves on at once must not keep the
        #: warning back until the next still moment)
        self.confirming = False

    def interrupt(self) -> None:
        """The scene moved or a read was not confident: the candidate waits, no longer pending,
        for the next confident reading (the same position goes on from where it was)."""
        self._paused = True

    @property
    def pending(self) -> bool:
        """True while a candidate position waits for confirmation (keep reading frames)."""
        return self._candidate is not None and not self._paused

    def wants_read(self, t: float) -> bool:
        """Whether a still frame at ``t`` should be read (saves reads once a position is settled)."""
        if self._candidate is None:
            return True
        return self._last_read_t is None or t - self._last_read_t >= self.config.reread_s - 1e-9

    def offer(self, t: float, reading: Reading | None, held: tuple[float, int] | None = None,
              expected: Callable[[Reading], bool] | None = None) -> Reading | None:
        """``held``: (since, reads) when the caller has seen this same reading on every read
        since then (confidently or as a steady choice): a new candidate counts from there.
        ``expected(reading)``: whether the reading is the change the game expects next, which
        is accepted after ``expected_s`` instead of ``accept_s``."""
        self._last_read_t = t
        if reading is None or not reading.confident:
            self.interrupt()
            return None
        if self._candidate is None or reading.key != self._candidate.key:
            self._candidate, self._since, self._reads = reading, t, 1
            if held is not None:
                self._since, self._reads = min(t, held[0]), max(1, held[1])
        else:
            self._reads += 1
        self._paused = False
        wait = self.config.accept_s
        if expected is not None and self.config.expected_s < wait and expected(self._candidate):
            wait = self.config.expected_s
        if self._reads >= self.config.min_reads and (self.confirming or t - self._since >= wait - 1e-9):
            accepted = self._candidate
            self._candidate = None
            self._reads = 0
            self.confirming = False
            if self.accepted is not None and accepted.key == self.accepted.key:
                return None
            self.accepted = accepted
            return accepted
        return None
