"""What the camera can see on a Slider table that is no position of the game, as data.

The changes between two positions are ``rules.slider.reasons``; these are the reads that are
no Slider board at all, or no start. Squares are Slider's ``(i, j)`` (column from the left,
row from the bottom, both from 0) in the players' frame (before the frame is known, the
camera's: the players sit on the camera's side).

* ``STRAY``: ``cells`` (the square,), ``pieces`` (what lies there: a suit letter of a third
  suit, a coin value, or ``"outside"`` for a piece on the unused row or column of an odd board).
* ``NOT_A_START``: ``cells`` the start squares without their piece, then the squares holding a
  piece off its start, sorted each; ``pieces`` the side of each, in the same order;
  ``number`` the board size.
"""

from __future__ import annotations

from rules.reasons import Reason
from rules.slider.board import Side, format_square
from rules.slider.state import start_h, start_v

STRAY = "stray"
NOT_A_START = "not-a-start"
CODES = (STRAY, NOT_A_START)


def not_a_start(n: int, h: frozenset, v: frozenset) -> Reason | None:
    """Why the pieces ``h`` and ``v`` (squares (i, j)) on an ``n`` x ``n`` board are no start;
    None when they are one."""
    missing = [(sq, Side.H) for sq in sorted(start_h(n) - h)] + [(sq, Side.V) for sq in sorted(start_v(n) - v)]
    extra = [(sq, Side.H) for sq in sorted(h - start_h(n))] + [(sq, Side.V) for sq in sorted(v - start_v(n))]
    if not missing and not extra:
        return None
    both = missing + extra
    return Reason(NOT_A_START, tuple(sq for sq, _ in both), tuple(s for _, s in both), number=n)


def text(reason: Reason) -> str:
    """The written form, for the ``illegal`` event's ``reason``."""
    if reason.code == STRAY:
        what = reason.pieces[0]
        sq = format_square(reason.cells[0])
        if what == "outside":
            return f"a piece lies on {sq}, on the unused row or column of the tiles, outside the board"
        return f"{sq} holds {what!r}, which is no Slider piece"
    if reason.code == NOT_A_START:
        n = reason.number
        return (f"not a start: H up column 0 (rows 1 to {n - 1}), V along row 0 (columns 1 to {n - 1}); "
                f"look at {', '.join(format_square(c) for c in reason.cells)}")
    raise ValueError(f"{reason.code!r} is no Slider sighting: expected one of {', '.join(CODES)}")
