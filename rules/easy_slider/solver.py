"""Solving Easy Slider: a legal sequence of slides to a done board, and the hint it gives."""

from __future__ import annotations

from rules import sliding
from rules.easy_slider.state import SHAPE, SIZE, SPONGE_ROW, EasySliderState, Slide, is_done, slides_of
from rules.pieces import Rank

_NULL = "null"  # the reduction solver's label for any null tile: they are interchangeable


def solve(state: EasySliderState, improve: bool = True) -> tuple[Slide, ...]:
    """A legal sequence of slides from ``state`` to a done board (empty when it is done).

    Row-by-row reduction with small exact searches (rules.sliding.reduce_solve), the nulls
    interchangeable and the hole free in the sponge row, then (``improve``) stretches of
    the path replaced by shortest ones. Deterministic. Not a shortest solution in general.
    """
    if is_done(state):
        return ()
    cells = list(state.board.values())
    labelled = tuple(_NULL if t is not None and t.rank is Rank.NULL else t for t in cells)
    target = tuple(
        state.goal_tile(divmod(i, SIZE)) if i // SIZE != SPONGE_ROW else _NULL for i in range(SIZE * SIZE)
    )
    sponge = range(SPONGE_ROW * SIZE, SIZE * SIZE)
    path = sliding.reduce_solve(labelled, target, SHAPE, hole_ok=sponge)
    if improve:
        # four window sizes: about 168 slides from a deal instead of 179 with the
        # improve_path defaults, for about 0.1 s more (benchmarks/bench_solver.py); the
        # node budgets keep the worst case under half a second
        path = sliding.improve_path(
            tuple(cells), path, SHAPE, windows=(10, 16, 24, 32), window_budget=2_000, total_budget=200_000
        )
    return slides_of(state.board, path)


def hint(state: EasySliderState) -> tuple[Slide | None, int]:
    """The next slide of ``solve(state)`` and that solution's length (``(None, 0)`` when done)."""
    solution = solve(state)
    return (solution[0] if solution else None), len(solution)
