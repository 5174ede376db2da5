"""Slider in text: moves (``"(1,2): UP"``, ``"pass"``), squares (``"1,2 3,0"``) and the course
project's text board (the size on the first line, then the rows from the top)."""

from __future__ import annotations

import re
from typing import Iterable

from rules.errors import MalformedPosition, NotationError
from rules.grid import Cell, Direction, Grid
from rules.slider.state import MAX_N, MIN_N, PASS, Move, Pass, Side, SliderState, board_from_grid


_MOVE_RE = re.compile(
    r"^\s*\(?\s*(-?\d+)\s*[, ]\s*(-?\d+)\s*\)?\s*(?::|->)?\s*([A-Za-z]+)\s*$"
)


def parse_move(text: str) -> Move | Pass:
    """``"(1,2): UP"`` -> Move(1, 2, UP); ``"pass"`` -> PASS. Case and spaces are free; ``1,2 up`` works too."""
    if not isinstance(text, str):
        raise NotationError(f"bad move {text!r}: expected '(i,j): DIR' or 'pass'")
    if text.strip().lower() == "pass":
        return PASS
    m = _MOVE_RE.match(text)
    if not m:
        raise NotationError(
            f"bad move {text!r}: expected '(i,j): DIR' with i the column, j the row from the bottom, "
            "DIR one of UP, DOWN, LEFT, RIGHT (or 'pass')"
        )
    try:
        direction = Direction[m.group(3).upper()]
    except KeyError:
        raise NotationError(f"bad direction {m.group(3)!r} in move {text!r}: expected UP, DOWN, LEFT or RIGHT") from None
    return Move(int(m.group(1)), int(m.group(2)), direction)


_TEXT_CELLS = {"H": "H", "V": "V", "B": "B", "+": None}


def parse_text(text: str, to_move: Side | str = Side.H, source: str = "board") -> SliderState:
    """Parse the course project's text board (first line N, then N rows of ``H V B +`` separated by spaces).

    Blank lines at the end are ignored. Raises MalformedPosition naming ``source``, the
    line and what was expected.
    """
    if not isinstance(text, str):
        raise MalformedPosition(f"{source}: expected text, got {type(text).__name__}")
    lines = text.splitlines()
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines:
        raise MalformedPosition(f"{source}: empty; expected the board size N on the first line")
    first = lines[0].strip()
    try:
        n = int(first)
    except ValueError:
        raise MalformedPosition(f"{source} line 1: {first!r} is not a board size: expected a number {MIN_N} to {MAX_N}") from None
    if not MIN_N <= n <= MAX_N:
        raise MalformedPosition(f"{source} line 1: board size {n} is out of range: expected {MIN_N} to {MAX_N}")
    rows = lines[1:]
    if len(rows) != n:
        raise MalformedPosition(f"{source}: {len(rows)} board rows after the size line, expected {n}")
    cells = []
    for k, line in enumerate(rows, start=2):
        parts = line.split()
        if len(parts) != n:
            raise MalformedPosition(f"{source} line {k}: {len(parts)} cells in {line!r}, expected {n} (ragged rows)")
        row = []
        for c, p in enumerate(parts):
            if p not in _TEXT_CELLS:
                raise MalformedPosition(
                    f"{source} line {k} cell {c + 1}: unknown character {p!r}: expected H, V, B or +"
                )
            row.append(_TEXT_CELLS[p])
        cells.append(row)
    return board_from_grid(Grid.of(cells), Side.parse(to_move), 0)


def parse_squares(text: str | Iterable[str]) -> frozenset[Cell]:
    """``"1,2 3,0"`` or ``["1,2", "(3,0)"]`` -> {(1, 2), (3, 0)} (column, row from the bottom)."""
    items = text.replace(";", " ").split() if isinstance(text, str) else list(text)
    out = set()
    for item in items:
        m = re.fullmatch(r"\s*\(?\s*(\d+)\s*,\s*(\d+)\s*\)?\s*", item)
        if not m:
            raise NotationError(f"bad square {item!r}: expected i,j (column, row from the bottom) such as 2,3")
        out.add((int(m.group(1)), int(m.group(2))))
    return frozenset(out)
