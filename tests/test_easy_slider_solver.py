"""The Easy Slider solver, the hint, and the generic reduction solver behind them."""

import random

import pytest

from rules import sliding
from rules.easy_slider.game import GAME
from rules.easy_slider.solver import hint, solve
from rules.easy_slider.state import EasySliderState, is_done
from rules.grid import Grid
from rules.pieces import Pawn, Rank, Tile


def play(state, slides):
    for s in slides:
        state = GAME.apply(state, s)  # raises on any illegal slide
    return state


def scrambled(seed):
    """A seeded position that is not a fresh deal: the deal with its hole walked at random."""
    rng = random.Random(seed)
    state = GAME.setup(seed=seed)
    for _ in range(rng.randrange(0, 60)):
        state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
    return state


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4, 5])
def test_solver_reaches_a_done_board_from_random_positions(seed):
    state = scrambled(seed)
    solution = solve(state)
    assert is_done(play(state, solution))
    assert 30 <= len(solution) <= 400
    # no slide is undone by the next one
    assert all(a.src != b.dst or a.dst != b.src for a, b in zip(solution, solution[1:]))


def test_solver_is_deterministic_and_improvement_never_lengthens():
    state = scrambled(11)
    first, second = solve(state), solve(state)
    assert first == second
    plain = solve(state, improve=False)
    assert is_done(play(state, plain))
    assert len(first) <= len(plain)


def test_hint_is_the_first_slide_of_the_solution():
    state = scrambled(12)
    solution = solve(state)
    assert hint(state) == (solution[0], len(solution))


def test_done_board_needs_nothing():
    state = GAME.from_json(
        {
            "board": [[p + c for c in "a2345"] for p in "SMCA"] + [["Sn", None, "Mn", "Cn", "An"]],
            "pawns": list("SMCA"),
            "coins": list("a2345"),
        }
    )
    assert solve(state) == ()
    assert hint(state) == (None, 0)


@pytest.mark.parametrize("hole_col", range(5))
def test_near_done_boards_end_in_whatever_goal_variant_is_closest(hole_col):
    # one slide away from done with the hole anywhere in the sponge row
    pawns, coins = "CASM", "5432a"
    board = [[p + c for c in coins] for p in pawns] + [["Mn", "Sn", "An", "Cn"]]
    board[4].insert(hole_col, None)
    state = GAME.from_json({"board": board, "pawns": list(pawns), "coins": list(coins)})
    assert is_done(state)
    moved = state.slide((3, hole_col))
    assert solve(moved) == (GAME.legal_moves(moved)[[m.src for m in GAME.legal_moves(moved)].index((4, hole_col))],)


def test_solver_handles_nulls_in_the_top_rows():
    # all four nulls in the top row, the hole top left
    tiles = [Tile.parse(s + r) for s in "SMCA" for r in "a2345"]
    cells = [None, Tile.parse("Sn"), Tile.parse("Mn"), Tile.parse("Cn"), Tile.parse("An")] + tiles
    board = Grid.of([cells[r * 5 : r * 5 + 5] for r in range(5)])
    state = EasySliderState(board, tuple(Pawn.parse(p) for p in "ACMS"), tuple(Rank.parse(c) for c in "3a524"))
    assert is_done(play(state, solve(state)))


def test_reduce_solve_on_other_shapes_with_distinct_labels():
    rng = random.Random(4)
    for shape in [(3, 3), (4, 4), (3, 5), (4, 6)]:
        h, w = shape
        goal = tuple(range(1, h * w)) + (None,)
        board = goal
        for _ in range(200):  # a random walk keeps the parity right
            hole = board.index(None)
            board = sliding.apply_path(board, [rng.choice(sliding.neighbour_table(shape)[hole])])
        path = sliding.reduce_solve(board, goal, shape)
        assert sliding.apply_path(board, path) == goal


def test_reduce_solve_needs_room():
    with pytest.raises(ValueError, match="at least 2 rows and 3 columns"):
        sliding.reduce_solve((1, None), (1, None), (1, 2))


def test_same_parity():
    shape = (2, 3)
    goal = (1, 2, 3, 4, 5, None)
    assert sliding.same_parity(goal, goal, shape)
    assert sliding.same_parity((1, 2, 3, 4, None, 5), goal, shape)  # one slide
    assert not sliding.same_parity((2, 1, 3, 4, 5, None), goal, shape)  # a swap
    assert not sliding.same_parity((1, 2, 3, None, 5, 4), goal, shape)  # a jump over a tile


def test_cancel_reversals():
    # hole at 4 on a 3x3: to 1, back to 4, to 5, to 2, back to 5, back to 4 -> nothing left
    assert sliding.cancel_reversals([1, 4, 5, 2, 5, 4], 4) == []
    assert sliding.cancel_reversals([1, 0, 3], 4) == [1, 0, 3]
    assert sliding.cancel_reversals([1, 0, 1, 2], 4) == [1, 2]


def test_shortest_path_known_distances():
    shape = (3, 3)
    goal = (1, 2, 3, 4, 5, 6, 7, 8, None)
    # the 8-puzzle position 8 6 7 / 2 5 4 / 3 . 1 is one of the two hardest: 31 slides
    start = (8, 6, 7, 2, 5, 4, 3, None, 1)
    path = sliding.shortest_path(start, goal, shape, node_budget=5_000_000)
    assert len(path) == 31
    assert sliding.apply_path(start, path) == goal
    assert sliding.shortest_path(start, goal, shape, max_length=30, node_budget=5_000_000) is None
    with pytest.raises(sliding.SearchBudgetExceeded):
        sliding.shortest_path(start, goal, shape, node_budget=10)


def test_improve_path_replaces_a_detour_by_a_shortest_stretch():
    # on a 3x3 board with the hole at the lower right: twice round the lower right 2x2
    # block (8 slides) is once round it the other way (4, the last of which the next slide
    # would undo), then up the right column and left along the top: 5 slides in all
    start = (1, 2, 3, 4, 5, 6, 7, 8, None)
    path = [5, 4, 7, 8] * 2 + [5, 2, 1]
    end = sliding.apply_path(start, path)
    assert len(sliding.shortest_path(start, end, (3, 3))) == 5
    better = sliding.improve_path(start, path, (3, 3), windows=(10,), window_budget=1_000)
    assert len(better) == 5
    assert sliding.apply_path(start, better) == end
    # a window longer than the path leaves it alone
    assert sliding.improve_path(start, path, (3, 3), windows=(12,)) == path
