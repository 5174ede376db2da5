"""Explaining an observed Easy Slider change: the slides that lead from one board to the next, or why none do."""

from __future__ import annotations

from dataclasses import dataclass, field

from rules import exact_search, sliding
from rules.easy_slider import reasons
from rules.easy_slider.state import SHAPE, TILES, EasySliderState, Slide, board_problems, slides_of
from rules.errors import MalformedPosition
from rules.grid import Cell, Grid
from rules.pieces import Pawn, Rank, Tile
from rules.reasons import Reason

#: Node budgets of ``explain``'s searches (see rules.sliding.path_to): the exact IDA*, then
#: the weighted A* fallback. Each caps the search at some 30 ms of CPU time: a node of the
#: exact search costs about 0.12 microseconds compiled (rules.exact_search, numba) and
#: about 5 in plain Python, a node of the weighted one about 5.5.
EXPLAIN_EXACT_BUDGET = 250_000 if exact_search.COMPILED else 8_000
EXPLAIN_WEIGHTED_BUDGET = 1_000


@dataclass(frozen=True)
class Explanation:
    """How the board got from one observation to the next.

    ``legal``: True when a sequence of slides leads there; then ``slides`` is that
    sequence (a shortest one when ``shortest`` is True, see ``explain``). When False,
    ``why`` is the verdict as data (``rules.easy_slider.reasons``), ``reason`` its written
    form and ``cells`` the cells concerned (``[row, col]``, 0-based, row-major order).
    ``why`` is left out of comparisons: ``reason`` and ``cells`` are made from it.
    """

    legal: bool
    slides: tuple[Slide, ...] = ()
    reason: str | None = None
    cells: tuple[Cell, ...] = ()
    shortest: bool = True
    why: Reason | None = field(default=None, compare=False)

    def to_json(self) -> dict:
        """``{"legal": true, "slides": [...], "shortest": bool}`` or ``{"legal": false, "reason": ..., "cells": [...]}``."""
        if self.legal:
            return {"legal": True, "slides": [m.to_json() for m in self.slides], "shortest": self.shortest}
        return {"legal": False, "reason": self.reason, "cells": [list(c) for c in self.cells]}


def illegal(why: Reason) -> Explanation:
    """The explanation of a change the rules do not allow, for the verdict ``why``."""
    return Explanation(False, (), reasons.text(why), tuple(sorted(set(why.cells))), why=why)


def explain(
    before: "EasySliderState | Grid",
    after: "EasySliderState | Grid",
    max_slides: int | None = None,
    pawns: "tuple[Pawn, ...] | None" = None,
    coins: "tuple[Rank, ...] | None" = None,
) -> Explanation:
    """Explain the change from ``before`` (the last accepted board) to ``after`` (a new observation).

    ``before`` must be a legal position (else MalformedPosition); ``after`` may be any 5x5
    grid of observed values (Tile, None for an empty cell, anything else for "not a tile
    of the set"). When both are states, or ``pawns``/``coins`` give what was observed
    around the new board, a change of pawns or coins is reported too.

    The verdicts, checked in this order: pawns/coins moved; a value not in the set; a tile
    doubled; a tile missing (lifted: more than one hole); two tiles swapped; then, when no
    sequence of slides can lead there (the permutation parity does not match the hole's
    move), a diagonal move, a tile that jumped, or "swapped or lifted" with the changed
    cells. Otherwise the result is legal with a sequence of slides: a shortest one found
    by IDA* (Manhattan + linear conflicts) when that search stays within its node
    budget, else a legal sequence from a weighted search or the reduction solver, with
    ``shortest=False``. With ``max_slides``, a change that needs more slides than that is
    reported as not explainable.
    """
    pawns_coins = None
    if isinstance(after, EasySliderState):
        pawns, coins = after.pawns, after.coins
    if isinstance(before, EasySliderState):
        if pawns is not None and tuple(pawns) != before.pawns:
            pawns_coins = illegal(Reason(reasons.PAWNS_CHANGED, pieces=tuple(pawns), was=before.pawns))
        elif coins is not None and tuple(coins) != before.coins:
            pawns_coins = illegal(Reason(reasons.COINS_CHANGED, pieces=tuple(coins), was=before.coins))
    b0 = before.board if isinstance(before, EasySliderState) else before
    b1 = after.board if isinstance(after, EasySliderState) else after
    problems = board_problems(b0)
    if problems:
        raise MalformedPosition(f"the last accepted board is not a legal position: {problems[0]}")
    if not isinstance(b1, Grid) or b1.shape != SHAPE:
        shape = b1.shape if isinstance(b1, Grid) else type(b1).__name__
        raise MalformedPosition(f"the new board must be a 5x5 grid, got {shape}")
    if pawns_coins is not None:
        return pawns_coins

    foreign = [cell for cell, v in b1.items() if v is not None and (not isinstance(v, Tile) or v not in TILES)]
    if foreign:
        return illegal(Reason(reasons.FOREIGN, tuple(foreign), tuple(b1[c] for c in foreign)))
    where: dict[Tile, list[Cell]] = {}
    holes = []
    for cell, v in b1.items():
        if v is None:
            holes.append(cell)
        else:
            where.setdefault(v, []).append(cell)
    doubled = {t: cells for t, cells in where.items() if len(cells) > 1}
    if doubled:
        grouped = sorted(doubled.items(), key=lambda kv: kv[1])
        return illegal(Reason(
            reasons.DOUBLED, tuple(c for _, cells in grouped for c in cells), tuple(t for t, cells in grouped for _ in cells)
        ))
    old_where = {v: cell for cell, v in b0.items() if v is not None}
    missing = sorted((t for t in TILES if t not in where), key=lambda t: old_where[t])
    if missing:
        return illegal(Reason(reasons.LIFTED, tuple(old_where[t] for t in missing), tuple(missing), number=len(holes)))

    changed = b0.diff(b1)
    if not changed:
        return Explanation(True)
    hole0, hole1 = b0.find(None)[0], holes[0]
    if hole0 == hole1 and len(changed) == 2:
        a, b = changed
        ta, tb = b0[a], b0[b]
        return illegal(Reason(reasons.SWAPPED, (a, b), (ta, tb)))
    start = tuple(b0.values())
    goal = tuple(b1.values())
    if not sliding.same_parity(start, goal, SHAPE):
        if len(changed) == 2 and hole0 != hole1:
            tile = b0[hole1]
            diagonal = abs(hole1[0] - hole0[0]) == 1 and abs(hole1[1] - hole0[1]) == 1
            return illegal(Reason(reasons.DIAGONAL if diagonal else reasons.JUMPED, (hole1, hole0), (tile,)))
        return illegal(Reason(reasons.NO_SLIDES, tuple(changed)))
    path, shortest = sliding.path_to(
        start, goal, SHAPE, EXPLAIN_EXACT_BUDGET, EXPLAIN_WEIGHTED_BUDGET, max_length=max_slides
    )
    if path is None or (max_slides is not None and len(path) > max_slides):
        return illegal(Reason(reasons.TOO_MANY, tuple(changed), number=max_slides))
    return Explanation(True, slides_of(b0, path), shortest=shortest)
