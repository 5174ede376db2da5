"""Explaining an observed change in Scavenger Hunt: which turn turns one position into another.

The camera sees coins by value and pawns by colour, never the (identical, grid side up)
tiles, so a shift is recognised only by the pieces that ride on the shifted tiles. Positions
are compared by coin value and pawn square only: the ``after`` position may be a full
``State`` or an ``Observed`` (what a camera reads), in either knowledge mode.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.errors import IllegalMove, MalformedPosition
from rules.grid import Cell, Grid
from rules.pieces import Coin, Rank
from rules.reasons import Reason
from rules.scavenger_hunt import reasons
from rules.scavenger_hunt.codec import from_json, parse_square, parse_value
from rules.scavenger_hunt.state import SHAPE, SHIFTS, Shift, State, Turn, apply, value_of


@dataclass(frozen=True)
class Observed:
    """A board as seen: ``pawns`` in the players' order, ``coins`` an 8x12 grid of values (or coins)."""

    pawns: tuple[Cell, ...]
    coins: Grid

    @classmethod
    def from_json(cls, obj: Any, players: int) -> "Observed":
        """``{"pawns": [[r, c], ...], "coins": 8x12 of values or null}``; a full position's JSON works too."""
        if not isinstance(obj, dict) or "pawns" not in obj or "coins" not in obj:
            raise MalformedPosition(f"an observed board is an object with pawns and coins, got {obj!r:.80}")
        pawns = obj["pawns"]
        if not isinstance(pawns, list) or len(pawns) != players:
            raise MalformedPosition(f"pawns must list {players} squares, got {pawns!r:.80}")
        coins = Grid.parse(obj["coins"], _seen_value, SHAPE, "coins")
        return cls(tuple(parse_square(p, f"pawns[{i}]") for i, p in enumerate(pawns)), coins)


def _seen_value(text: Any) -> Rank:
    """A coin as JSON writes it, by value: ``"3"`` or a referee-mode ``"S3"``."""
    return Coin.parse(text).rank if isinstance(text, str) and len(text) == 2 else parse_value(text)


@dataclass(frozen=True)
class Explanation:
    """Every legal turn that explains the change, in ``SHIFTS`` order. More than one when
    the shifted line carries no coin and no pawn, which a camera cannot tell apart."""

    turns: tuple[Turn, ...]

    @property
    def turn(self) -> Turn:
        return self.turns[0]

    @property
    def ambiguous(self) -> bool:
        return len(self.turns) > 1


def _values(grid: Grid) -> list[list[Any]]:
    return [[value_of(v) for v in row] for row in grid.rows]


def explain(before: State, after: Any) -> Explanation:
    """The turns of ``before.mover`` that lead from ``before`` to the board ``after`` (a State
    or an Observed); raises IllegalMove saying why none does: a reversed shift, a rook move
    through a coin or a pawn, a diagonal move, another pawn moving, or pieces no single shift
    explains; its ``reason`` is a ``Reason`` with a code of ``reasons``."""
    n = len(before.players)
    if len(after.pawns) != n:
        raise MalformedPosition(f"the observed board has {len(after.pawns)} pawns, the game has {n}")
    if before.winner is not None:
        why = Reason(reasons.GAME_OVER, pieces=(before.winner,))
        raise IllegalMove(reasons.text(why), why)
    me = before.to_move
    seen = _values(after.coins)
    to = after.pawns[me]
    matches: list[tuple[Shift, bool]] = []
    wrong_pawn: Reason | None = None
    for shift in SHIFTS:
        coins, pawns = before.shifted(shift)
        diff = [
            (r, c)
            for r, row in enumerate(_values(coins))
            for c, v in enumerate(row)
            if v != seen[r][c]
        ]
        vanished = diff == [to] and seen[to[0]][to[1]] is None and to != pawns[me]
        if diff and not vanished:
            continue
        others = [i for i in range(n) if i != me and pawns[i] != after.pawns[i]]
        if others:
            if wrong_pawn is None:
                other = others[0]
                wrong_pawn = Reason(
                    reasons.WRONG_PAWN,
                    (before.pawns[other], after.pawns[other]),
                    (before.mover, before.players[other]),
                )
            continue
        matches.append((shift, vanished))
    if not matches:
        why = wrong_pawn or Reason(reasons.NO_SHIFT)
        raise IllegalMove(reasons.text(why), why)
    legal: list[Turn] = []
    problems: list[IllegalMove] = []
    reversals: list[IllegalMove] = []
    barred = before.barred_shifts()
    for shift, vanished in matches:
        turn = Turn(shift, to, vanished)
        try:
            after_turn = apply(before, turn)
        except IllegalMove as exc:
            (reversals if shift in barred else problems).append(exc)
            continue
        legal.append(Turn(shift, to, len(after_turn.collected[me]) > len(before.collected[me])))
    if legal:
        return Explanation(tuple(legal))
    first = (problems or reversals)[0]
    raise IllegalMove(str(first), first.reason)


def explain_json(before: Any, after: Any) -> Explanation:
    """``explain`` on JSON: a full position before, and a full position or an observed board after."""
    state = from_json(before)
    return explain(state, Observed.from_json(after, len(state.players)))

