"""Slide in text: moves (``"reveal 2 3"``, ``"push 7 left"``) and the 4x4 grids of ``caller slide``."""

from __future__ import annotations

from collections import Counter
from typing import Iterable

from rules.errors import MalformedPosition, NotationError
from rules.grid import Cell, Grid
from rules.slide.state import COPIES, NUMBERS, SIZE, Card, Move, Push, Reveal, Side


def parse_move(text: str) -> Move:
    """Text notation: ``"reveal ROW COL"`` (1-based) or ``"push CARD SIDE"`` ("push 7 left").

    The words ``reveal``/``push`` may be left out: two numbers are a reveal, a number and a
    side a push. Raises NotationError quoting the text.
    """
    words = text.replace(",", " ").split() if isinstance(text, str) else []
    if words and words[0].lower() in ("reveal", "push"):
        verb, words = words[0].lower(), words[1:]
    else:
        verb = None
    expected = "expected 'ROW COL' (1-4 each) to reveal or 'CARD SIDE' (e.g. '7 left') to push"
    quoted = repr(text) if len(text) <= 60 else repr(text[:60]) + "..."
    first = number(words[0]) if len(words) == 2 else None
    if first is None:
        raise NotationError(f"cannot read {quoted}: {expected}")
    second = number(words[1])
    if second is not None and verb in (None, "reveal"):
        if not (1 <= first <= SIZE and 1 <= second <= SIZE):
            raise NotationError(f"cannot read {quoted}: row and column go from 1 to {SIZE}")
        return Reveal((first - 1, second - 1))
    if second is None and verb in (None, "push"):
        return Push(first, Side.parse(words[1]))
    raise NotationError(f"cannot read {quoted}: {expected}")


def number(token: str) -> int | None:
    """The number a token spells in at most three ASCII digits, else None: '²' or a
    5000-digit token is not a card, a row or a column (and ``int`` would refuse both)."""
    return int(token) if token.isascii() and token.isdigit() and len(token) <= 3 else None


def parse_grid_text(text: str, what: str = "grid") -> Grid[int]:
    """A finished 4x4 grid from text: 4 lines of 4 numbers 1..10 separated by spaces.

    Blank lines and anything after ``#`` are ignored. Raises MalformedPosition naming the
    line and the token that is wrong.
    """
    rows: list[tuple[int, ...]] = []
    for lineno, line in enumerate(text.splitlines(), 1):
        tokens = line.split("#", 1)[0].split()
        if not tokens:
            continue
        row = []
        for tok in tokens:
            value = number(tok)
            if value not in NUMBERS:
                raise MalformedPosition(f"{what} line {lineno}: {tok[:20]!r} is not a card: expected a number 1 to 10")
            row.append(value)
        if len(row) != SIZE:
            raise MalformedPosition(f"{what} line {lineno}: {len(row)} numbers, expected {SIZE}")
        rows.append(tuple(row))
    if len(rows) != SIZE:
        raise MalformedPosition(f"{what}: {len(rows)} rows of numbers, expected {SIZE}")
    counts = Counter(v for row in rows for v in row)
    over = sorted(n for n, c in counts.items() if c > COPIES)
    if over:
        raise MalformedPosition(f"{what}: {counts[over[0]]} cards numbered {over[0]}; there are only {COPIES} of each")
    return Grid(tuple(rows))


def render_grid(grid: Grid[Card | None], hidden: str = "#", cancelled: Iterable[Cell] = ()) -> str:
    """A grid for the terminal: face-up numbers, ``hidden`` for face-down cards, ``.`` for the hole.

    Cancelled cells (end of game) are shown in brackets, e.g. ``[8]``.
    """
    gone = set(cancelled)

    def cell(c: Cell, v: Card | None) -> str:
        if v is None:
            return "."
        if not v.face_up:
            return hidden
        return f"[{v.number}]" if c in gone else str(v.number)

    texts = [[cell((r, c), v) for c, v in enumerate(row)] for r, row in enumerate(grid.rows)]
    width = max(len(t) for row in texts for t in row)
    return "\n".join(" ".join(t.rjust(width) for t in row) for row in texts)
