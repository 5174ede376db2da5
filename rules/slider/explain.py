"""Explaining an observed change between two Slider boards (for the camera): the move, or why it is illegal.

Both boards are ``SliderState`` values in Slider coordinates ((i, j) = column, row
from the bottom). The player to move is taken from ``before``; ``after``'s own
``to_move`` is ignored (a board read from a photo does not know whose turn it is).
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.errors import IllegalMove
from rules.grid import Cell, manhattan
from rules.slider.state import PASS, Move, Pass, Side, SliderState, direction_between, format_square


@dataclass(frozen=True)
class ChangeReport:
    """What happened between two boards.

    ``move``: the legal move seen, PASS when the board is unchanged and the player to
    move had to pass, None when nothing moved or the change is illegal. ``reason``: one
    sentence saying why the change is illegal (None when legal). ``squares``: the squares
    (i, j) that changed, sorted.
    """

    legal: bool
    move: Move | Pass | None
    reason: str | None
    squares: tuple[Cell, ...]

    def __str__(self) -> str:
        if not self.legal:
            return f"illegal: {self.reason}"
        return "no change" if self.move is None else str(self.move)


_sq = format_square


def _a(side: Side) -> str:
    """ "an H" (aitch) but "a V"."""
    return f"an {side}" if side is Side.H else f"a {side}"


def explain_change(before: SliderState, after: SliderState) -> ChangeReport:
    """The move that turns ``before`` into ``after``'s board, or why no single legal move does.

    When the player to move in ``before`` has no legal move (a forced pass, invisible on
    the table) and the other player's piece moved, the report gives that other move.
    """

    def illegal(reason: str, squares) -> ChangeReport:
        return ChangeReport(False, None, reason, tuple(sorted(squares)))

    if before.n != after.n:
        return illegal(f"the board size changed from {before.n} to {after.n}", ())
    if before.blocked != after.blocked:
        changed = before.blocked ^ after.blocked
        return illegal(f"blocked squares changed at {', '.join(_sq(s) for s in sorted(changed))}", changed)
    gone = {Side.H: before.h - after.h, Side.V: before.v - after.v}
    new = {Side.H: after.h - before.h, Side.V: after.v - before.v}
    changed = set().union(*gone.values(), *new.values())
    if not changed:
        if not before.is_over and before.legal_moves() == [PASS]:
            return ChangeReport(True, PASS, None, ())
        return ChangeReport(True, None, None, ())
    if before.is_over:
        return illegal("the game is already over", changed)
    for side in Side:
        if len(new[side]) > len(gone[side]):
            extra = sorted(new[side])[0]
            return illegal(f"{_a(side)} piece appeared on {_sq(extra)}; pieces never come back onto the board", changed)
    movers = [side for side in Side if gone[side]]
    total = sum(len(g) for g in gone.values())
    if total > 1:
        what = " and ".join(f"{len(gone[s])} {s}" for s in movers)
        return illegal(f"{total} pieces moved ({what}); a turn moves one piece", changed)
    side = movers[0]
    frm = next(iter(gone[side]))
    if side is not before.to_move and before.legal_moves() == [PASS]:
        # the player to move had to pass, which a camera cannot see: the other side's move follows it
        before = before.apply(PASS)
    if side is not before.to_move:
        return illegal(f"it is {before.to_move.word}'s turn, but {_a(side)} piece moved from {_sq(frm)}", changed)
    if not new[side]:
        if side is Side.H and frm[0] == before.n - 1 or side is Side.V and frm[1] == before.n - 1:
            move = Move(frm[0], frm[1], side.forward)
        else:
            edge = "right edge from column" if side is Side.H else "top edge from row"
            return illegal(
                f"the {side} piece on {_sq(frm)} left the board; {side.word} may leave only off the {edge} {before.n - 1}",
                changed,
            )
    else:
        to = next(iter(new[side]))
        d = direction_between(frm, to)
        if d is None:
            if abs(to[0] - frm[0]) == 1 and abs(to[1] - frm[1]) == 1:
                return illegal(f"the {side} piece moved diagonally from {_sq(frm)} to {_sq(to)}", changed)
            dist = manhattan(frm, to)
            return illegal(
                f"the {side} piece jumped from {_sq(frm)} to {_sq(to)} ({dist} squares); pieces move one square at a time",
                changed,
            )
        if d not in side.directions:
            return illegal(f"wrong direction: {side.word} may not move {d.word} ({_sq(frm)} to {_sq(to)})", changed)
        move = Move(frm[0], frm[1], d)
    try:
        before.apply(move)
    except IllegalMove as exc:
        return illegal(str(exc), changed)
    return ChangeReport(True, move, None, tuple(sorted(changed)))


def move_between(before: SliderState, after: SliderState) -> Move | Pass | None:
    """The legal move from ``before`` to ``after`` (None if nothing changed); raises IllegalMove with the reason."""
    report = explain_change(before, after)
    if not report.legal:
        raise IllegalMove(report.reason)
    return report.move


__all__ = ["ChangeReport", "explain_change", "move_between"]
