"""Explain an observed change of one Slide grid: which reveal or push turned one picture into the next, or why none did.

This is what the camera will see, so an observed grid holds what can be read off the
table: a face-up card's number (int 1..10), ``DOWN`` for a card lying face down (its
number unseen), ``None`` for the hole. Cells are ``(row, col)``, row 0 at the top of the
player's grid, as in ``rules.slide.state``. Only one player's grid is compared at a time.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from rules.errors import MalformedPosition
from rules.grid import Cell, Grid
from rules.reasons import Reason
from rules.slide import reasons
from rules.slide.notation import number
from rules.slide.state import NUMBERS, SHAPE, SIDES, SIZE, Card, Push, Reveal, edge_cell, push_in

DOWN = "#"  # an observed face-down card


@dataclass(frozen=True)
class Explanation:
    """The outcome of ``explain``: ``move`` is the Reveal or Push that explains the change, or None.

    ``why`` is the verdict as data either way (what happened, or why it is not a legal
    step: ``rules.slide.reasons``) and ``reason`` its written sentence; ``cells`` are the
    cells that changed, row-major; ``alternatives`` are other pushes that give the very
    same picture (e.g. a 5 pushed into a row of 5s from either end). ``why`` is left out
    of comparisons: ``reason`` is made from it.
    """

    move: Reveal | Push | None
    reason: str
    cells: tuple[Cell, ...] = ()
    alternatives: tuple[Push, ...] = ()
    why: Reason | None = field(default=None, compare=False)

    @property
    def ok(self) -> bool:
        return self.move is not None

    def to_json(self) -> dict:
        out: dict[str, Any] = {"change": "none", "reason": self.reason, "cells": [list(c) for c in self.cells]}
        if isinstance(self.move, Reveal):
            out["change"] = "reveal"
            out["cell"] = list(self.move.cell)
        elif isinstance(self.move, Push):
            out["change"] = "push"
            out["card"] = self.move.card
            out["side"] = self.move.side.value
            out["alternatives"] = [{"card": p.card, "side": p.side.value} for p in self.alternatives]
        return out


def observe(grid: Grid[Card | None]) -> Grid[Any]:
    """What the camera would see of a state's grid: face-down cards become ``DOWN``."""
    return Grid(tuple(tuple(_seen(v) for v in row) for row in grid.rows))


def _seen(v: Card | None) -> Any:
    if v is None:
        return None
    return v.number if v.face_up else DOWN


def _check(grid: Grid[Any], what: str) -> Grid[Any]:
    if not isinstance(grid, Grid) or grid.shape != SHAPE:
        raise MalformedPosition(f"{what}: expected a {SIZE}x{SIZE} grid, got {grid!r:.80}")
    for cell, v in grid.items():
        ok = v is None or v == DOWN or (isinstance(v, int) and not isinstance(v, bool) and v in NUMBERS)
        if not ok:
            raise MalformedPosition(f"{what} cell {list(cell)}: {v!r} is not 1..10, {DOWN!r} (face down) or None (hole)")
    return grid


def explain(before: Grid[Any], after: Grid[Any], middle: Sequence[int] | None = None) -> Explanation:
    """Which reveal or push turned the observed grid ``before`` into ``after``, or why none did.

    ``middle``, when known, is the face-up numbers in the middle before a push; a pushed
    card must be one of them. Raises MalformedPosition for grids that are not 4x4 of
    numbers, ``DOWN`` and ``None``.
    """
    before, after = _check(before, "first grid"), _check(after, "second grid")
    changed = tuple(before.diff(after))
    b_holes, a_holes = before.find(None), after.find(None)
    for holes, which in ((b_holes, 1), (a_holes, 2)):
        if len(holes) > 1:
            return _verdict(None, Reason(reasons.HOLES, tuple(holes), number=which), changed)
    if not changed:
        return _verdict(None, Reason(reasons.NOTHING), changed)
    if not b_holes and not a_holes:
        return _verdict(None, Reason(reasons.NO_HOLE, changed), changed)
    if b_holes and a_holes:
        if b_holes != a_holes:
            return _verdict(None, Reason(reasons.HOLE_MOVED, (b_holes[0], a_holes[0])), changed)
        return _verdict(None, Reason(reasons.HOLE_STAYED, (b_holes[0],) + changed), changed)
    if not b_holes:
        return _explain_reveal(before, after, a_holes[0], changed)
    return _explain_push(before, after, b_holes[0], changed, middle)


def _verdict(move: Reveal | Push | None, why: Reason, changed: tuple[Cell, ...], alternatives=()) -> Explanation:
    return Explanation(move, reasons.text(why), changed, tuple(alternatives), why)


def _explain_reveal(before: Grid[Any], after: Grid[Any], hole: Cell, changed: tuple[Cell, ...]) -> Explanation:
    others = tuple(c for c in changed if c != hole)
    if others:
        return _verdict(None, Reason(reasons.REVEAL_AND_MORE, (hole,) + others), changed)
    if before[hole] != DOWN:
        return _verdict(None, Reason(reasons.FACE_UP_TAKEN, (hole,), (before[hole],)), changed)
    return _verdict(Reveal(hole), Reason(reasons.REVEALED, (hole,)), changed)


def _explain_push(
    before: Grid[Any], after: Grid[Any], hole: Cell, changed: tuple[Cell, ...], middle: Sequence[int] | None
) -> Explanation:
    matches: list[Push] = []
    face_down_entry: list[Cell] = []
    for side in SIDES:
        edge = edge_cell(hole, side.direction, SHAPE)
        if edge == hole:
            continue
        if push_in(before, hole, side.direction, after[edge]) != after:
            continue
        if after[edge] == DOWN:
            face_down_entry.append(edge)
        else:
            matches.append(Push(after[edge], side))
    if matches and middle is not None:
        in_middle = [m for m in matches if m.card in middle]
        if not in_middle:
            return _verdict(None, Reason(reasons.NOT_IN_MIDDLE, pieces=(matches[0].card,), was=tuple(sorted(middle))), changed)
        matches = in_middle
    if matches:
        push = matches[0]
        return _verdict(push, Reason(reasons.PUSHED, (hole,), (push.card, push.side)), changed, matches[1:])
    if face_down_entry:
        return _verdict(None, Reason(reasons.FACE_DOWN_PUSHED, (face_down_entry[0],)), changed)
    outside = tuple(c for c in changed if c[0] != hole[0] and c[1] != hole[1])
    if outside:
        return _verdict(None, Reason(reasons.OUTSIDE, (hole,) + outside), changed)
    if changed == (hole,):
        return _verdict(None, Reason(reasons.PUT_IN_HOLE, (hole,)), changed)
    rows_changed = any(c[0] == hole[0] and c != hole for c in changed)
    cols_changed = any(c[1] == hole[1] and c != hole for c in changed)
    if rows_changed and cols_changed:
        return _verdict(None, Reason(reasons.ROW_AND_COLUMN, (hole,)), changed)
    return _verdict(None, Reason(reasons.NOT_ONE_PUSH, (hole,), ("row" if rows_changed else "column",)), changed)


def parse_observed_text(text: str, what: str = "grid") -> Grid[Any]:
    """An observed grid from text: 4 lines of 4 tokens, a number 1..10, ``#`` (or ``?``) face down, ``.`` the hole.

    Blank lines are skipped; there are no comments, since ``#`` is a face-down card.
    Raises MalformedPosition naming the line and the bad token.
    """
    rows: list[tuple[Any, ...]] = []
    for lineno, line in enumerate(text.splitlines(), 1):
        tokens = line.split()
        if not tokens:
            continue
        row: list[Any] = []
        for tok in tokens:
            if tok in ("#", "?"):
                row.append(DOWN)
            elif tok == ".":
                row.append(None)
            elif number(tok) in NUMBERS:
                row.append(number(tok))
            else:
                raise MalformedPosition(
                    f"{what} line {lineno}: {tok[:20]!r}: expected a number 1 to 10, '#' (face down) or '.' (the hole)"
                )
        if len(row) != SIZE:
            raise MalformedPosition(f"{what} line {lineno}: {len(row)} cells, expected {SIZE}")
        rows.append(tuple(row))
    if len(rows) != SIZE:
        raise MalformedPosition(f"{what}: {len(rows)} rows, expected {SIZE}")
    return Grid(tuple(rows))
