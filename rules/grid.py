"""Shared grid logic for every game: cells, directions, immutable grids, line shifts and rays.

Coordinates are ``(row, col)`` with row 0 at the top (the far side from the player) and
col 0 at the left, as in docs/architecture.md; games with another convention (Slider's (0,0)
bottom-left) convert at their edges.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any, Callable, Generic, Iterable, Iterator, Sequence, TypeVar

from rules.errors import MalformedPosition

T = TypeVar("T")
Cell = tuple[int, int]


class Direction(Enum):
    """An orthogonal step; ``delta`` is (d_row, d_col) with rows growing towards the player."""

    UP = (-1, 0)
    DOWN = (1, 0)
    LEFT = (0, -1)
    RIGHT = (0, 1)

    @property
    def delta(self) -> Cell:
        return self.value

    @property
    def opposite(self) -> "Direction":
        return _OPPOSITE[self]

    @property
    def word(self) -> str:
        return self.name.lower()

    @classmethod
    def between(cls, a: Cell, b: Cell) -> "Direction | None":
        """The direction of a one-step orthogonal move from ``a`` to ``b``, or None if they are not adjacent."""
        return _BY_DELTA.get((b[0] - a[0], b[1] - a[1]))

    @classmethod
    def parse(cls, text: str) -> "Direction":
        try:
            return cls[text.strip().upper()]
        except (KeyError, AttributeError):
            raise MalformedPosition(f"bad direction {text!r}: expected up, down, left or right") from None


_OPPOSITE = {
    Direction.UP: Direction.DOWN,
    Direction.DOWN: Direction.UP,
    Direction.LEFT: Direction.RIGHT,
    Direction.RIGHT: Direction.LEFT,
}
_BY_DELTA = {d.value: d for d in Direction}
DIRECTIONS: tuple[Direction, ...] = tuple(Direction)


def step(cell: Cell, direction: Direction, distance: int = 1) -> Cell:
    return (cell[0] + direction.value[0] * distance, cell[1] + direction.value[1] * distance)


def manhattan(a: Cell, b: Cell) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def in_bounds(cell: Cell, shape: tuple[int, int]) -> bool:
    return 0 <= cell[0] < shape[0] and 0 <= cell[1] < shape[1]


def neighbours(cell: Cell, shape: tuple[int, int]) -> Iterator[tuple[Direction, Cell]]:
    """The orthogonal neighbours of ``cell`` that lie on a board of ``shape`` (rows, cols)."""
    for d in DIRECTIONS:
        n = step(cell, d)
        if in_bounds(n, shape):
            yield d, n


def ray(cell: Cell, direction: Direction, shape: tuple[int, int]) -> Iterator[Cell]:
    """The cells from ``cell`` (exclusive) to the board's edge in ``direction``, nearest first."""
    c = step(cell, direction)
    while in_bounds(c, shape):
        yield c
        c = step(c, direction)


def is_orthogonally_adjacent(a: Cell, b: Cell) -> bool:
    return manhattan(a, b) == 1


@dataclass(frozen=True)
class Grid(Generic[T]):
    """An immutable rectangular grid of values (``None`` for an empty cell).

    ``rows`` is a tuple of row tuples, row 0 first. Every "change" returns a new Grid.
    """

    rows: tuple[tuple[T, ...], ...]

    def __post_init__(self) -> None:
        widths = {len(r) for r in self.rows}
        if len(widths) > 1:
            raise MalformedPosition(f"ragged grid: row lengths {sorted(widths)}")

    @classmethod
    def of(cls, rows: Iterable[Iterable[T]]) -> "Grid[T]":
        return cls(tuple(tuple(r) for r in rows))

    @classmethod
    def filled(cls, shape: tuple[int, int], value: T = None) -> "Grid[T]":
        return cls(tuple(tuple(value for _ in range(shape[1])) for _ in range(shape[0])))

    @classmethod
    def parse(
        cls,
        rows: Any,
        parse_cell: Callable[[Any], T],
        shape: tuple[int, int] | None = None,
        what: str = "board",
    ) -> "Grid[T]":
        """Build a grid from nested lists (JSON), parsing each non-null cell with ``parse_cell``.

        Raises MalformedPosition naming the shape expected or the bad cell.
        """
        if not isinstance(rows, Sequence) or isinstance(rows, str) or not all(
            isinstance(r, Sequence) and not isinstance(r, str) for r in rows
        ):
            raise MalformedPosition(f"{what} must be a list of rows (lists), got {rows!r:.80}")
        if shape is not None and (len(rows) != shape[0] or any(len(r) != shape[1] for r in rows)):
            got = f"{len(rows)} rows of {sorted({len(r) for r in rows})}"
            raise MalformedPosition(f"{what} must be {shape[0]} rows of {shape[1]} cells, got {got}")
        out = []
        for i, row in enumerate(rows):
            out_row = []
            for j, value in enumerate(row):
                if value is None:
                    out_row.append(None)
                    continue
                try:
                    out_row.append(parse_cell(value))
                except MalformedPosition:
                    raise
                except ValueError as exc:
                    raise MalformedPosition(f"{what} cell [{i},{j}]: {exc}") from None
            out.append(tuple(out_row))
        return cls(tuple(out))

    def to_lists(self, fmt: Callable[[T], Any] = str) -> list[list[Any]]:
        """Nested lists for JSON, ``None`` kept as ``None``."""
        return [[None if v is None else fmt(v) for v in row] for row in self.rows]

    @property
    def shape(self) -> tuple[int, int]:
        return (len(self.rows), len(self.rows[0]) if self.rows else 0)

    def __getitem__(self, cell: Cell) -> T:
        return self.rows[cell[0]][cell[1]]

    def contains(self, cell: Cell) -> bool:
        return in_bounds(cell, self.shape)

    def cells(self) -> Iterator[Cell]:
        h, w = self.shape
        for r in range(h):
            for c in range(w):
                yield (r, c)

    def items(self) -> Iterator[tuple[Cell, T]]:
        for cell in self.cells():
            yield cell, self[cell]

    def values(self) -> Iterator[T]:
        for row in self.rows:
            yield from row

    def find(self, value: T) -> list[Cell]:
        return [cell for cell, v in self.items() if v == value]

    def set(self, cell: Cell, value: T) -> "Grid[T]":
        r, c = cell
        row = self.rows[r]
        return Grid(self.rows[:r] + (row[:c] + (value,) + row[c + 1 :],) + self.rows[r + 1 :])

    def set_many(self, changes: dict[Cell, T]) -> "Grid[T]":
        rows = [list(r) for r in self.rows]
        for (r, c), v in changes.items():
            rows[r][c] = v
        return Grid.of(rows)

    def swap(self, a: Cell, b: Cell) -> "Grid[T]":
        return self.set_many({a: self[b], b: self[a]})

    def diff(self, other: "Grid[T]") -> list[Cell]:
        """Cells whose values differ, in row-major order. Shapes must match."""
        if self.shape != other.shape:
            raise MalformedPosition(f"cannot compare grids of shapes {self.shape} and {other.shape}")
        return [cell for cell in self.cells() if self[cell] != other[cell]]

    def line(self, axis: str, index: int) -> list[Cell]:
        """The cells of row ``index`` (axis "row") or column ``index`` (axis "col"), in order."""
        h, w = self.shape
        if axis == "row":
            return [(index, c) for c in range(w)]
        if axis == "col":
            return [(r, index) for r in range(h)]
        raise MalformedPosition(f"bad axis {axis!r}: expected 'row' or 'col'")

    def rotate_line(self, axis: str, index: int, step_: int) -> "Grid[T]":
        """Shift a whole row or column by ``step_`` cells with wrap-around (+1: right/down)."""
        cells = self.line(axis, index)
        vals = [self[c] for c in cells]
        n = len(vals)
        shifted = [vals[(i - step_) % n] for i in range(n)]
        return self.set_many(dict(zip(cells, shifted)))

    def slide_into_gap(self, gap: Cell, source: Cell) -> "Grid[T]":
        """Move the run of values between ``source`` and ``gap`` (same row or column) one cell towards the gap.

        ``source`` becomes empty (None) and ``gap`` is filled: the push of Slide and of
        sliding puzzles. Raises MalformedPosition if the cells are not in one line.
        """
        if source == gap or (source[0] != gap[0] and source[1] != gap[1]):
            raise MalformedPosition(f"cells {source} and {gap} are not two cells of one row or column")
        d = Direction.between((0, 0), (sign(gap[0] - source[0]), sign(gap[1] - source[1])))
        assert d is not None
        changes: dict[Cell, T] = {}
        c = gap
        while c != source:
            prev = step(c, d.opposite)
            changes[c] = self[prev]
            c = prev
        changes[source] = None  # type: ignore[assignment]
        return self.set_many(changes)

    def render(self, fmt: Callable[[T], str] = str, empty: str = ".", sep: str = " ") -> str:
        """Plain text, one line a row, for the terminal referees."""
        width = max([len(empty)] + [len(fmt(v)) for v in self.values() if v is not None])
        return "\n".join(
            sep.join((empty if v is None else fmt(v)).rjust(width) for v in row) for row in self.rows
        )


def sign(x: int) -> int:
    return (x > 0) - (x < 0)


