"""Explaining an observed change of a Slide grid: the reveal or push that made it, or why none did."""

import random

import pytest

from rules.errors import MalformedPosition
from rules.grid import Grid
from rules.reasons import Reason
from rules.slide import reasons
from rules.slide.state import Push, Reveal, Side, deal
from rules.slide.explain import DOWN, explain, observe, parse_observed_text

D = DOWN


def grid(text):
    return parse_observed_text(text)


BEFORE = grid(
    """
    # 3 # #
    # 5 . 2
    # 7 # #
    # # 9 #
    """
)


def test_a_reveal_is_a_face_down_card_leaving_a_hole():
    before = grid("# # # #\n# 5 # #\n# # # #\n# # # #")
    after = grid("# # # #\n# 5 . #\n# # # #\n# # # #")
    result = explain(before, after)
    assert result.move == Reveal((1, 2)) and result.ok
    assert result.reason == "the card at row 2, column 3 was turned face up into the middle"
    assert result.to_json() == {
        "change": "reveal",
        "reason": "the card at row 2, column 3 was turned face up into the middle",
        "cells": [[1, 2]],
        "cell": [1, 2],
    }


def test_revealing_a_face_up_card_is_not_allowed():
    before = grid("# # # #\n# 5 # #\n# # # #\n# # # #")
    after = grid("# # # #\n# . # #\n# # # #\n# # # #")
    result = explain(before, after)
    assert result.move is None
    assert result.reason == "the 5 at row 2, column 2 was already face up; a player must turn a face-down card"


@pytest.mark.parametrize(
    "after, side, reason",
    [
        ("# 3 # #\n8 # 5 2\n# 7 # #\n# # 9 #", Side.LEFT, "the 8 was pushed in from the left of row 2"),
        ("# 3 # #\n# 5 2 8\n# 7 # #\n# # 9 #", Side.RIGHT, "the 8 was pushed in from the right of row 2"),
        ("# 3 8 #\n# 5 # 2\n# 7 # #\n# # 9 #", Side.TOP, "the 8 was pushed in from the top of column 3"),
        ("# 3 # #\n# 5 # 2\n# 7 9 #\n# # 8 #", Side.BOTTOM, "the 8 was pushed in from the bottom of column 3"),
    ],
)
def test_every_push_direction_is_recognised(after, side, reason):
    result = explain(BEFORE, grid(after), middle=[8, 8, 1])
    assert result.move == Push(8, side)
    assert result.reason == reason
    assert result.alternatives == ()


def test_a_push_with_the_hole_in_a_corner():
    before = grid(". 4 # #\n# # # #\n6 # # #\n# # # #")
    # column 1 was: hole, #, 6, #; pushed up from the bottom: #, 6, #, 1
    after = grid("# 4 # #\n6 # # #\n# # # #\n1 # # #")
    assert explain(before, after).move == Push(1, Side.BOTTOM)
    assert explain(before, grid("1 4 # #\n# # # #\n6 # # #\n# # # #")).reason.startswith("a card was put straight into the hole at row 1, column 1")
    assert explain(before, grid("4 # # 1\n# # # #\n6 # # #\n# # # #")).move == Push(1, Side.RIGHT)


def test_equal_pictures_from_both_ends_list_the_alternative():
    before = grid("5 . 5 5\n# # # #\n# # # #\n# # # #")
    after = grid("5 5 5 5\n# # # #\n# # # #\n# # # #")
    result = explain(before, after)
    assert result.move == Push(5, Side.LEFT)
    assert result.alternatives == (Push(5, Side.RIGHT),)
    assert result.to_json()["alternatives"] == [{"card": 5, "side": "right"}]


@pytest.mark.parametrize(
    "after, middle, reason",
    [
        # a card back where the hole was: read as a face-down card pushed down column 3 (the column's cards are all backs)
        ("# 3 # #\n# 5 # 2\n# 7 # #\n# # 9 #", None, "the card pushed in at row 1, column 3 is face down; cards from the middle are face up"),
        ("# 3 # #\n# 5 . 2\n# 7 # #\n# # 9 #", None, "nothing changed"),
        ("# 3 # #\n# 5 8 2\n# 7 # #\n# # 9 #", None, "a card was put straight into the hole at row 2, column 3; it must be pushed in from the edge of its row or column"),
        ("8 3 # #\n# # 5 2\n# 7 # #\n# # 9 #", None, "cards changed at row 1, column 1, outside row 2 and column 3 of the hole; a push moves only the hole's row or column (never diagonally)"),
        ("# 3 # #\n8 # 5 2\n# 7 # #\n# # 9 #", [3, 9], "the pushed 8 is not in the middle (middle: 3, 9)"),
        ("# 3 # #\n# # 5 2\n# 7 # #\n# # 9 #", None, "the card pushed in at row 2, column 1 is face down; cards from the middle are face up"),
        ("# 3 # #\n# 5 2 .\n# 7 # #\n# # 9 #", None, "the hole moved from row 2, column 3 to row 2, column 4: cards may not slide inside the grid; a card from the middle must be pushed in from the edge"),
        ("# 3 # #\n5 8 # 2\n# 7 # #\n# # 9 #", None, "row 2 changed, but not as one card pushed in from an end: the cards between that end and the hole move one step towards the hole and keep their order"),
        ("# 3 8 #\n8 # 5 2\n# 7 # #\n# # 9 #", None, "both row 2 and column 3 changed; a push moves only one of them"),
        ("# 3 . #\n# 5 . 2\n# 7 # #\n# # 9 #", None, "the second grid has 2 holes (row 1, column 3; row 2, column 3); a Slide grid has at most one"),
    ],
)
def test_why_a_change_is_not_a_legal_step(after, middle, reason):
    result = explain(BEFORE, grid(after), middle)
    assert result.move is None and not result.ok
    assert result.reason == reason
    assert result.to_json()["change"] == "none"


def test_changes_without_any_hole():
    full = grid("1 2 3 4\n5 6 7 8\n9 10 1 2\n3 4 5 6")
    swapped = grid("2 1 3 4\n5 6 7 8\n9 10 1 2\n3 4 5 6")
    assert explain(full, swapped).reason == "cards changed at row 1, column 1; row 1, column 2 with no card revealed and none pushed in"


def test_every_step_of_random_games_is_explained_as_the_move_played():
    rng = random.Random(3)
    state = deal(3, 3)
    while not state.is_over:
        move = rng.choice(state.legal_moves())
        p = state.to_act
        after = state.apply(move)
        result = explain(observe(state.grids[p]), observe(after.grids[p]), state.middle)
        assert result.move == move or move in result.alternatives, (move, result)
        state = after


def test_malformed_observed_grids():
    with pytest.raises(MalformedPosition, match="line 2: 'x'"):
        parse_observed_text("# # # #\n# x # #\n# # # #\n# # # #")
    with pytest.raises(MalformedPosition, match="line 1: 3 cells"):
        parse_observed_text("# # #\n# # # #\n# # # #\n# # # #")
    with pytest.raises(MalformedPosition, match="3 rows"):
        parse_observed_text("# # # #\n# # # #\n# # # #")
    with pytest.raises(MalformedPosition, match="expected a 4x4 grid"):
        explain(Grid.of([[1, 2], [3, 4]]), BEFORE)
    with pytest.raises(MalformedPosition, match="11 is not 1..10"):
        explain(BEFORE.set((0, 0), 11), BEFORE)
    assert parse_observed_text("? # # #\n# # # #\n# # # #\n# # # #")[(0, 0)] == D


@pytest.mark.parametrize(
    "before, after, middle, why",
    [
        ("# # # #\n# 5 # #\n# # # #\n# # # #", "# # # #\n# 5 . #\n# # # #\n# # # #", None,
         Reason(reasons.REVEALED, ((1, 2),))),
        ("# # # #\n# 5 # #\n# # # #\n# # # #", "# # # #\n# . # #\n# # # #\n# # # #", None,
         Reason(reasons.FACE_UP_TAKEN, ((1, 1),), (5,))),
        ("# # # #\n# 5 # #\n# # # #\n# # # #", "# 3 # #\n# 5 . #\n# # # #\n# # # #", None,
         Reason(reasons.REVEAL_AND_MORE, ((1, 2), (0, 1)))),
        ("# 3 # #\n# 5 . 2\n# 7 # #\n# # 9 #", "# 3 # #\n8 # 5 2\n# 7 # #\n# # 9 #", [8],
         Reason(reasons.PUSHED, ((1, 2),), (8, Side.LEFT))),
        ("# 3 # #\n# 5 . 2\n# 7 # #\n# # 9 #", "# 3 # #\n8 # 5 2\n# 7 # #\n# # 9 #", [4, 1],
         Reason(reasons.NOT_IN_MIDDLE, pieces=(8,), was=(1, 4))),
        ("# 3 # #\n# 5 . 2\n# 7 # #\n# # 9 #", "# 3 # #\n# 5 . 2\n# 7 # #\n# # 9 #", None,
         Reason(reasons.NOTHING)),
        ("# 3 # #\n# 5 . 2\n# 7 # #\n# # 9 #", "# 3 # #\n# . 5 2\n# 7 # #\n# # 9 #", None,
         Reason(reasons.HOLE_MOVED, ((1, 2), (1, 1)))),
        ("# 3 # #\n# 5 . 2\n# 7 # #\n# # 9 #", "# 4 # #\n# 5 . 2\n# 7 # #\n# # 9 #", None,
         Reason(reasons.HOLE_STAYED, ((1, 2), (0, 1)))),
        ("# 3 # #\n# 5 . 2\n# 7 # #\n# # 9 #", "# 3 # #\n# 5 . .\n# 7 # #\n# # 9 #", None,
         Reason(reasons.HOLES, ((1, 2), (1, 3)), number=2)),
        ("# 3 # #\n# 5 . 2\n# 7 # #\n# # 9 #", "# 3 # #\n# 5 4 2\n# 7 # #\n# # 9 #", None,
         Reason(reasons.PUT_IN_HOLE, ((1, 2),))),
        ("# 3 # #\n# 5 . 2\n# 7 # #\n# # 9 #", "# 4 # #\n# 5 8 2\n# 7 # #\n# # 9 #", None,
         Reason(reasons.OUTSIDE, ((1, 2), (0, 1)))),
        ("# 3 # #\n# 5 . 2\n# 7 # #\n# # 9 #", "# 3 # #\n# # 5 2\n# 7 # #\n# # 9 #", None,
         Reason(reasons.FACE_DOWN_PUSHED, ((1, 0),))),
    ],
)
def test_the_verdicts_are_data_with_the_exact_cells(before, after, middle, why):
    result = explain(grid(before), grid(after), middle=middle)
    assert result.why == why
    assert result.reason == reasons.text(why)
    with pytest.raises(ValueError, match="'shuffled' is not the code of a Slide step"):
        reasons.text(Reason("shuffled"))
