"""Explaining an observed change between two Slider boards (for the camera): the move, or why it is illegal.

Both boards are ``SliderState`` values in Slider coordinates ((i, j) = column, row
from the bottom). The player to move is taken from ``before``; ``after``'s own
``to_move`` is ignored (a board read from a photo does not know whose turn it is).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.errors import IllegalMove
from rules.grid import Cell, manhattan
from rules.reasons import Reason
from rules.slider import reasons
from rules.slider.board import direction_between
from rules.slider.state import PASS, Move, Pass, Side, SliderState


@dataclass(frozen=True)
class ChangeReport:
    """What happened between two boards.

    ``move``: the legal move seen, PASS when the board is unchanged and the player to
    move had to pass, None when nothing moved or the change is illegal. ``why``: the
    verdict as data when the change is illegal (``rules.slider.reasons``), ``reason`` its
    written form (None when legal). ``squares``: the squares (i, j) that changed, sorted.
    ``why`` is left out of comparisons: ``reason`` is made from it.
    """

    legal: bool
    move: Move | Pass | None
    reason: str | None
    squares: tuple[Cell, ...]
    why: Reason | None = field(default=None, compare=False)

    def __str__(self) -> str:
        if not self.legal:
            return f"illegal: {self.reason}"
        return "no change" if self.move is None else str(self.move)


def explain_change(before: SliderState, after: SliderState) -> ChangeReport:
    """The move that turns ``before`` into ``after``'s board, or why no single legal move does.

    When the player to move in ``before`` has no legal move (a forced pass, invisible on
    the table) and the other player's piece moved, the report gives that other move.
    """

    def illegal(why: Reason, squares) -> ChangeReport:
        return ChangeReport(False, None, reasons.text(why), tuple(sorted(squares)), why)

    if before.n != after.n:
        return illegal(Reason(reasons.SIZE_CHANGED, was=(before.n,), number=after.n), ())
    if before.blocked != after.blocked:
        changed = before.blocked ^ after.blocked
        return illegal(Reason(reasons.BLOCKS_CHANGED, tuple(sorted(changed))), changed)
    gone = {Side.H: before.h - after.h, Side.V: before.v - after.v}
    new = {Side.H: after.h - before.h, Side.V: after.v - before.v}
    changed = set().union(*gone.values(), *new.values())
    if not changed:
        if not before.is_over and before.legal_moves() == [PASS]:
            return ChangeReport(True, PASS, None, ())
        return ChangeReport(True, None, None, ())
    if before.is_over:
        return illegal(Reason(reasons.GAME_OVER), changed)
    for side in Side:
        if len(new[side]) > len(gone[side]):
            extra = sorted(new[side])[0]
            return illegal(Reason(reasons.APPEARED, (extra,), (side,)), changed)
    movers = [side for side in Side if gone[side]]
    if sum(len(g) for g in gone.values()) > 1:
        left = [(s, sq) for s in movers for sq in sorted(gone[s])]
        return illegal(Reason(reasons.MANY_MOVED, tuple(sq for _, sq in left), tuple(s for s, _ in left)), changed)
    side = movers[0]
    frm = next(iter(gone[side]))
    if side is not before.to_move and before.legal_moves() == [PASS]:
        # the player to move had to pass, which a camera cannot see: the other side's move follows it
        before = before.apply(PASS)
        if before.is_over:  # that pass was the second in a row: a tie
            return illegal(Reason(reasons.GAME_OVER), changed)
    if side is not before.to_move:
        return illegal(Reason(reasons.WRONG_TURN, (frm,), (side,), was=(before.to_move,)), changed)
    if not new[side]:
        if side is Side.H and frm[0] == before.n - 1 or side is Side.V and frm[1] == before.n - 1:
            move = Move(frm[0], frm[1], side.forward)
        else:
            return illegal(Reason(reasons.LEFT_BOARD, (frm,), (side,), number=before.n - 1), changed)
    else:
        to = next(iter(new[side]))
        d = direction_between(frm, to)
        if d is None:
            if abs(to[0] - frm[0]) == 1 and abs(to[1] - frm[1]) == 1:
                return illegal(Reason(reasons.DIAGONAL, (frm, to), (side,)), changed)
            return illegal(Reason(reasons.JUMPED, (frm, to), (side,), number=manhattan(frm, to)), changed)
        if d not in side.directions:
            return illegal(Reason(reasons.WRONG_DIRECTION, (frm, to), (side,)), changed)
        move = Move(frm[0], frm[1], d)  # onto a free square: a block or a piece there would be gone from ``after``
    return ChangeReport(True, move, None, tuple(sorted(changed)))


def move_between(before: SliderState, after: SliderState) -> Move | Pass | None:
    """The legal move from ``before`` to ``after`` (None if nothing changed); raises IllegalMove with the reason
    (its message, and the verdict as data in its ``reason``)."""
    report = explain_change(before, after)
    if not report.legal:
        raise IllegalMove(report.reason, report.why)
    return report.move


__all__ = ["ChangeReport", "explain_change", "move_between"]
