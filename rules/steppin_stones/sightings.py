"""What a camera can see on a Steppin' Stones table that no action of the game explains, as data.

The live Caller (``caller.referees.steppin_stones_live``) judges a change with the rules
first (``state.apply``: a coin moved the wrong distance, a flip without its die); these are
the verdicts on what the rules have no action for. Each is a ``rules.reasons.Reason`` with one
of the codes below; ``text`` writes it, and ``voice.phrasebook.steppin_stones`` says it from
the same fields. Squares are 0-based ``(row, col)``.

* ``NOT_A_START``: ``cells`` the squares that differ from the setup (coins around their suit's
  home tile, pawns on the four middle squares), sorted.
* ``UNEXPLAINED``: ``cells`` the squares that changed, sorted: no action of the roll, nor a
  roll of the dice and its actions, leaves the board seen (pieces swapped, a coin turned back,
  a coin's value changed).
* ``NO_ROLL``: ``cells`` the squares that changed: a piece moved before the camera saw the
  dice of the turn (they are rolled beside the board, where it sees them).
"""

from __future__ import annotations

from rules.reasons import Reason
from rules.steppin_stones.reasons import cell_name

NOT_A_START = "not-a-start"
UNEXPLAINED = "unexplained"
NO_ROLL = "no-roll"
CODES = (NOT_A_START, UNEXPLAINED, NO_ROLL)


def text(reason: Reason) -> str:
    """The written form, for the ``illegal`` event's ``reason``."""
    where = ", ".join(cell_name(c) for c in reason.cells)
    if reason.code == NOT_A_START:
        return ("not the setup: each suit's coins around its home tile (5, 4, Null, 2, 3) and the pawns on the "
                f"four middle squares; look at {where}")
    if reason.code == UNEXPLAINED:
        return f"no action of the roll leaves the board seen; look at {where}"
    if reason.code == NO_ROLL:
        return f"a piece moved before the dice were rolled beside the board; look at {where}"
    raise ValueError(f"{reason.code!r} is no Steppin' Stones sighting: expected one of {', '.join(CODES)}")
