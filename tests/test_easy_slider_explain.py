"""Explaining observed Easy Slider changes: shortest slide sequences and illegal-change verdicts."""

import random
from collections import deque

import pytest

from rules import sliding
from rules.easy_slider import reasons
from rules.easy_slider.explain import Explanation, explain
from rules.easy_slider.game import GAME
from rules.easy_slider.state import EasySliderState, Slide
from rules.errors import MalformedPosition
from rules.grid import Grid
from rules.pieces import Pawn, Rank, Tile
from rules.reasons import Reason

T = Tile.parse
START = GAME.setup(seed=7)
B = START.board
# seed 7:
#   C3 Sn Mn C5 Aa
#   Ca An M5 M2 A2
#   S3 C4 M4 A5 Sa
#   S4 M3 A4 S5 C2
#   Ma A3 S2 Cn .


def walk(state, k, rng):
    """``state`` after k random slides that never undo the previous one."""
    prev = None
    for _ in range(k):
        moves = [m for m in GAME.legal_moves(state) if m.src != prev]
        move = rng.choice(moves)
        prev = move.dst
        state = GAME.apply(state, move)
    return state


def bfs_distance(a: Grid, b: Grid, limit: int) -> int:
    """Exact slide distance by breadth-first search (an independent check of IDA*)."""
    start, goal = tuple(a.values()), tuple(b.values())
    nbt = sliding.neighbour_table((5, 5))
    seen = {start}
    frontier = deque([(start, 0)])
    while frontier:
        board, d = frontier.popleft()
        if board == goal:
            return d
        if d == limit:
            continue
        hole = board.index(None)
        for src in nbt[hole]:
            nxt = sliding.apply_path(board, [src])
            if nxt not in seen:
                seen.add(nxt)
                frontier.append((nxt, d + 1))
    raise AssertionError("not found within the limit")


def play(board: Grid, slides) -> Grid:
    state = EasySliderState(board, START.pawns, START.coins)
    for s in slides:
        state = GAME.apply(state, s)  # raises if any slide is illegal
    return state.board


def test_no_change():
    assert explain(START, START) == Explanation(True, (), None, (), True)
    assert explain(B, B).slides == ()


def test_one_slide():
    after = GAME.apply(START, Slide(T("C2"), (3, 4), (4, 4)))
    assert explain(START, after) == Explanation(True, (Slide(T("C2"), (3, 4), (4, 4)),))
    assert explain(B, after.board).to_json() == {
        "legal": True,
        "slides": [{"tile": "C2", "from": [3, 4], "to": [4, 4]}],
        "shortest": True,
    }


@pytest.mark.parametrize("k", [2, 3, 5, 7])
def test_multi_slide_changes_are_shortest(k):
    rng = random.Random(100 + k)
    for trial in range(6):
        before = walk(START, 10 + trial, rng)
        after = walk(before, k, rng)
        result = explain(before, after)
        assert result.legal and result.shortest
        assert play(before.board, result.slides) == after.board
        assert len(result.slides) == bfs_distance(before.board, after.board, k)


def test_longer_changes_are_legal_and_no_longer_than_the_walk():
    rng = random.Random(42)
    for k in (12, 20, 30):
        for _ in range(3):
            before = walk(GAME.setup(seed=rng.randrange(1000)), 5, rng)
            after = walk(before, k, rng)
            result = explain(before, after)
            assert result.legal
            assert play(before.board, result.slides) == after.board
            if result.shortest:
                assert len(result.slides) <= k


def test_a_cycle_that_returns_a_tile_is_still_explained():
    # the hole goes round the 2x2 block at the lower right three times: every tile is back
    state = START
    for _ in range(3):
        for src in [(3, 4), (3, 3), (4, 3), (4, 4)]:
            state = state.slide(src)
    assert state.board == B
    assert explain(START, state) == Explanation(True)
    # twice round one way (8 slides) is once round the other way (4 slides)
    state = START
    for _ in range(2):
        for src in [(3, 4), (3, 3), (4, 3), (4, 4)]:
            state = state.slide(src)
    result = explain(START, state)
    assert [s.src for s in result.slides] == [(4, 3), (3, 3), (3, 4), (4, 4)]
    assert play(B, result.slides) == state.board


def test_a_far_tile_moved_into_the_hole_with_the_right_parity_needs_many_slides():
    # A2 from [1, 4] to the hole at [4, 4], nothing else changed: reachable (odd distance),
    # but only by moving other tiles away and back
    after = B.set((4, 4), B[(1, 4)]).set((1, 4), None)
    result = explain(B, after)
    assert result.legal and len(result.slides) > 3
    assert play(B, result.slides) == after


def test_swap_of_two_tiles():
    result = explain(B, B.swap((0, 0), (2, 3)))
    assert result == Explanation(
        False, (), "Green 3 and Blue 5 changed places: tiles must slide into the hole, not swap", ((0, 0), (2, 3))
    )


def test_swap_after_a_slide_is_still_caught():
    after = GAME.apply(START, Slide(T("C2"), (3, 4), (4, 4))).board.swap((0, 0), (0, 1))
    result = explain(B, after)
    assert not result.legal
    assert result.reason.startswith("no sequence of slides leads to this board")
    assert result.cells == ((0, 0), (0, 1), (3, 4), (4, 4))


def test_diagonal_move():
    after = B.set((4, 4), B[(3, 3)]).set((3, 3), None)
    assert explain(B, after) == Explanation(
        False,
        (),
        "Red 5 moved diagonally from [3, 3] to [4, 4]: tiles slide along rows and columns only",
        ((3, 3), (4, 4)),
    )


def test_jump_over_a_tile():
    after = B.set((4, 4), B[(4, 2)]).set((4, 2), None)
    result = explain(B, after)
    assert result.reason == "Red 2 jumped from [4, 2] to [4, 4]: it was lifted or moved past other tiles"
    assert result.cells == ((4, 2), (4, 4))


def test_lifted_tiles():
    result = explain(B, B.set((1, 1), None))
    assert result == Explanation(False, (), "Blue Null (An) from [1, 1] was lifted off the board: 2 holes", ((1, 1),))
    result = explain(B, B.set((1, 1), None).set((0, 0), None))
    assert result.reason == "Green 3 (C3) from [0, 0], Blue Null (An) from [1, 1] were lifted off the board: 3 holes"
    assert result.cells == ((0, 0), (1, 1))


def test_tile_doubled_or_put_down_in_the_hole():
    result = explain(B, B.set((4, 4), T("S3")))
    assert result.reason == "Red 3 (S3) is on the board twice, at [2, 0] and [4, 4]"
    assert result.cells == ((2, 0), (4, 4))


def test_value_not_in_the_set():
    result = explain(B, B.set((2, 2), "X9"))
    assert result.reason == "not a tile of the set: 'X9' at [2, 2]"
    assert result.cells == ((2, 2),)


def test_pawns_and_coins_changes_are_reported():
    moved = EasySliderState(B, tuple(reversed(START.pawns)), START.coins)
    assert explain(START, moved).reason == "the pawns changed: A M S C became C S M A"
    coins = EasySliderState(B, START.pawns, (Rank.ACE,) + START.coins[:4])
    assert explain(START, coins).reason == "the coins changed: 2 4 3 5 a became a 2 4 3 5"
    # observed pawns next to a bare board
    assert not explain(START, B, pawns=(Pawn.parse("M"),) + START.pawns[1:]).legal


def test_max_slides():
    after = walk(START, 6, random.Random(3))
    n = len(explain(START, after).slides)
    assert explain(START, after, max_slides=n).legal
    limited = explain(START, after, max_slides=n - 1)
    assert not limited.legal and limited.reason == f"the board changed too much to be {n - 1} slides or fewer"


def test_bad_inputs_raise():
    with pytest.raises(MalformedPosition, match="last accepted board"):
        explain(B.set((0, 0), None), B)
    with pytest.raises(MalformedPosition, match="5x5"):
        explain(B, Grid.filled((4, 4)))


def test_fallbacks_still_give_a_legal_path():
    rng = random.Random(9)
    before = walk(START, 3, rng)
    after = walk(before, 24, rng)
    a, b = tuple(before.board.values()), tuple(after.board.values())
    exact, shortest = sliding.path_to(a, b, (5, 5))
    weighted, flag_w = sliding.path_to(a, b, (5, 5), exact_budget=1, weighted_budget=100_000)
    reduced, flag_r = sliding.path_to(a, b, (5, 5), exact_budget=1, weighted_budget=1)
    assert flag_w is False and flag_r is False
    for path in (exact, weighted, reduced):
        assert sliding.apply_path(a, path) == b
    if shortest:
        assert len(exact) <= len(weighted) <= 2 * len(exact)
    assert len(reduced) >= len(exact)


def test_a_fallback_as_long_as_the_proven_lower_bound_counts_as_shortest():
    # the exact search runs out of nodes in its last iteration (bound 16, the true length),
    # so every path of 14 or fewer slides was ruled out; a 16-slide fallback is shortest
    shortest_cases = 0
    for seed, weighted_length in ((1, 16), (14, 18)):
        rng = random.Random(seed)
        before = walk(START, 3, rng)
        after = walk(before, 16, rng)
        a, b = tuple(before.board.values()), tuple(after.board.values())
        stats = {}
        exact = sliding.shortest_path(a, b, (5, 5), stats=stats)
        assert len(exact) == 16
        path, shortest = sliding.path_to(a, b, (5, 5), exact_budget=stats["nodes"] - 1, weighted_budget=100_000)
        assert sliding.apply_path(a, path) == b
        assert len(path) == weighted_length
        assert shortest is (weighted_length == 16)
        shortest_cases += shortest
    assert shortest_cases == 1


def test_the_verdicts_are_data_with_the_exact_squares_and_tiles():
    """The rules say what happened as a Reason; the written reason is made from it."""
    def why(after, **kw):
        result = explain(START, after, **kw)
        assert not result.legal and result.reason == reasons.text(result.why)
        assert result.cells == tuple(sorted(set(result.why.cells)))
        return result.why

    assert why(B.swap((0, 0), (2, 3))) == Reason(reasons.SWAPPED, ((0, 0), (2, 3)), (T("C3"), T("A5")))
    assert why(B.set((4, 4), B[(3, 3)]).set((3, 3), None)) == Reason(reasons.DIAGONAL, ((3, 3), (4, 4)), (T("S5"),))
    assert why(B.set((4, 4), B[(4, 2)]).set((4, 2), None)) == Reason(reasons.JUMPED, ((4, 2), (4, 4)), (T("S2"),))
    assert why(B.set((1, 1), None).set((0, 0), None)) == Reason(
        reasons.LIFTED, ((0, 0), (1, 1)), (T("C3"), T("An")), number=3
    )
    assert why(B.set((4, 4), T("S3"))) == Reason(reasons.DOUBLED, ((2, 0), (4, 4)), (T("S3"), T("S3")))
    assert why(B.set((2, 2), "X9")) == Reason(reasons.FOREIGN, ((2, 2),), ("X9",))
    moved = EasySliderState(B, tuple(reversed(START.pawns)), START.coins)
    assert why(moved) == Reason(reasons.PAWNS_CHANGED, pieces=tuple(reversed(START.pawns)), was=START.pawns)
    coins = (Rank.ACE,) + START.coins[:4]
    assert why(EasySliderState(B, START.pawns, coins)) == Reason(reasons.COINS_CHANGED, pieces=coins, was=START.coins)
    swap_and_slide = B.swap((0, 0), (0, 1)).swap((4, 3), (4, 4))
    assert why(swap_and_slide) == Reason(reasons.NO_SLIDES, ((0, 0), (0, 1), (4, 3), (4, 4)))
    after = walk(START, 6, random.Random(3))
    assert why(after, max_slides=1) == Reason(reasons.TOO_MANY, tuple(B.diff(after.board)), number=1)
    assert explain(START, B).why is None


def test_a_board_that_is_no_position_carries_its_reason():
    with pytest.raises(MalformedPosition, match="2 holes") as holes:
        EasySliderState(B.set((0, 0), None), START.pawns, START.coins)
    assert holes.value.reason == Reason(reasons.HOLES, ((0, 0), (4, 4)))
    with pytest.raises(MalformedPosition, match="twice") as twice:
        EasySliderState(B.set((4, 4), T("C3")), START.pawns, START.coins)
    assert twice.value.reason == Reason(reasons.DOUBLED, ((0, 0), (4, 4)), (T("C3"), T("C3")))
    with pytest.raises(MalformedPosition, match="repeat a colour") as pawns:
        EasySliderState(B, START.pawns[:3] + START.pawns[:1], START.coins)
    assert pawns.value.reason == Reason(reasons.PAWNS_REPEAT, pieces=START.pawns[:3] + START.pawns[:1])
    with pytest.raises(ValueError, match="'holes' is not the code of an Easy Slider change"):
        reasons.text(holes.value.reason)
