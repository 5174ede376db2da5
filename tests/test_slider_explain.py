"""Explaining the change between two observed Slider boards: the move, or why it is illegal."""

import re

import pytest

from rules.errors import IllegalMove
from rules.grid import Direction
from rules.reasons import Reason
from rules.slider import reasons
from rules.slider.notation import parse_text
from rules.slider.state import PASS, Move, Side
from rules.slider.explain import ChangeReport, explain_change, move_between

UP, DOWN, LEFT, RIGHT = Direction.UP, Direction.DOWN, Direction.LEFT, Direction.RIGHT

BEFORE = """
4
+ + + +
+ H B +
+ + V H
+ V + +
"""


def b(text, to_move="H"):
    return parse_text(text.strip() + "\n", to_move=to_move)


def test_every_legal_move_is_recognised():
    for to_move in ("H", "V"):
        s = b(BEFORE, to_move)
        for m in s.legal_moves():
            report = explain_change(s, s.apply(m))
            assert report.legal and report.move == m and report.reason is None


def test_a_move_off_the_edge():
    s = b(BEFORE)
    r = explain_change(s, b("4\n+ + + +\n+ H B +\n+ + V +\n+ V + +"))
    assert r == ChangeReport(True, Move(3, 1, RIGHT), None, ((3, 1),))
    assert str(r) == "(3,1): RIGHT"


@pytest.mark.parametrize(
    "after, to_move, reason, squares",
    [
        ("4\n+ + + +\nH + B +\n+ + V H\n+ V + +", "H", "wrong direction: Horizontal may not move left ((1,2) to (0,2))", ((0, 2), (1, 2))),
        ("4\n+ + + +\n+ H B +\n+ + + H\n+ V V +", "V", "wrong direction: Vertical may not move down ((2,1) to (2,0))", ((2, 0), (2, 1))),
        ("4\n+ + + +\n+ + B +\n+ + V H\n+ V + H", "H", "the H piece jumped from (1,2) to (3,0) (4 squares); pieces move one square at a time", ((1, 2), (3, 0))),
        ("4\n+ + H +\n+ + B +\n+ + V H\n+ V + +", "H", "the H piece moved diagonally from (1,2) to (2,3)", ((1, 2), (2, 3))),
        ("4\n+ H + +\n+ + B +\n+ + V +\n+ V + H", "H", "2 pieces moved (2 H); a turn moves one piece", ((1, 2), (1, 3), (3, 0), (3, 1))),
        ("4\n+ + + +\n+ H B +\n+ V V +\n+ + + H", "H", "2 pieces moved (1 H and 1 V); a turn moves one piece", ((1, 0), (1, 1), (3, 0), (3, 1))),
        ("4\n+ + + +\n+ H B +\n+ + + H\n+ V V +", "H", "it is Horizontal's turn, but a V piece moved from (2,1)", ((2, 0), (2, 1))),
        ("4\n+ + + +\n+ H B +\n+ + V H\n+ + + +", "V", "the V piece on (1,0) left the board; Vertical may leave only off the top edge from row 3", ((1, 0),)),
        ("4\n+ + + +\n+ H B +\nH + V H\n+ V + +", "H", "an H piece appeared on (0,1); pieces never come back onto the board", ((0, 1),)),
        ("4\n+ + + +\n+ H + +\n+ + V H\n+ V + +", "H", "blocked squares changed at (2,2)", ((2, 2),)),
    ],
)
def test_illegal_changes_say_why(after, to_move, reason, squares):
    r = explain_change(b(BEFORE, to_move), b(after))
    assert r.legal is False and r.move is None
    assert r.reason == reason
    assert r.squares == squares
    with pytest.raises(IllegalMove, match="^" + re.escape(reason) + "$"):
        move_between(b(BEFORE, to_move), b(after))


def test_no_change_and_forced_pass():
    s = b(BEFORE)
    assert explain_change(s, s) == ChangeReport(True, None, None, ())
    assert move_between(s, s) is None
    stuck = b("4\nH + + +\nV B + +\n+ + + +\n+ + + +", "V")  # published board 3: V cannot move
    assert explain_change(stuck, stuck).move is PASS
    # V had to pass, then H moved: the camera only sees H's move
    after = b("4\n+ H + +\nV B + +\n+ + + +\n+ + + +")
    assert explain_change(stuck, after) == ChangeReport(True, Move(0, 3, RIGHT), None, ((0, 3), (1, 3)))


def test_changes_after_the_end_and_of_board_size():
    won = b("3\n+ + +\n+ + H\n+ V +").apply(Move(2, 1, RIGHT))
    r = explain_change(won, b("3\n+ + +\n+ V +\n+ + +"))
    assert r.legal is False and r.reason == "the game is already over"
    r = explain_change(b(BEFORE), b("3\n+ + +\n+ V +\nH + +"))
    assert r.reason == "the board size changed from 4 to 3"


H, V = Side.H, Side.V


@pytest.mark.parametrize(
    "after, to_move, why",
    [
        ("4\n+ + + +\nH + B +\n+ + V H\n+ V + +", "H", Reason(reasons.WRONG_DIRECTION, ((1, 2), (0, 2)), (H,))),
        ("4\n+ + + +\n+ + B +\n+ + V H\n+ V + H", "H", Reason(reasons.JUMPED, ((1, 2), (3, 0)), (H,), number=4)),
        ("4\n+ + H +\n+ + B +\n+ + V H\n+ V + +", "H", Reason(reasons.DIAGONAL, ((1, 2), (2, 3)), (H,))),
        ("4\n+ + + +\n+ H B +\n+ V V +\n+ + + H", "H",
         Reason(reasons.MANY_MOVED, ((3, 1), (1, 0)), (H, V))),
        ("4\n+ + + +\n+ H B +\n+ + + H\n+ V V +", "H", Reason(reasons.WRONG_TURN, ((2, 1),), (V,), was=(H,))),
        ("4\n+ + + +\n+ H B +\n+ + V H\n+ + + +", "V", Reason(reasons.LEFT_BOARD, ((1, 0),), (V,), number=3)),
        ("4\n+ + + +\n+ H B +\nH + V H\n+ V + +", "H", Reason(reasons.APPEARED, ((0, 1),), (H,))),
        ("4\n+ + + +\n+ H + +\n+ + V H\n+ V + +", "H", Reason(reasons.BLOCKS_CHANGED, ((2, 2),))),
        ("3\n+ + +\n+ V +\nH + +", "H", Reason(reasons.SIZE_CHANGED, was=(4,), number=3)),
    ],
)
def test_the_verdicts_are_data_with_the_exact_squares(after, to_move, why):
    r = explain_change(b(BEFORE, to_move), b(after))
    assert r.why == why
    assert r.reason == reasons.text(why)


def test_an_unknown_code_is_refused():
    with pytest.raises(ValueError, match="'shuffled' is not the code of a Slider change"):
        reasons.text(Reason("shuffled"))
