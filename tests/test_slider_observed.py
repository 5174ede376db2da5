"""rules.slider.observed: a read of squares turned into a Slider board, and the start's quarter turn."""

import pytest

from rules.errors import MalformedPosition
from rules.slider.observed import DIE, board_from_squares, start_turns, turned


def start_squares(n: int, size: int, h="S", v="A"):
    sq = [[None] * size for _ in range(size)]
    for r in range(n - 1):
        sq[r][0] = h
    for c in range(1, n):
        sq[n - 1][c] = v
    return sq


def test_turned_is_a_clockwise_quarter_turn():
    assert turned([[1, 2], [3, 4]], 1) == [[3, 1], [4, 2]]
    assert turned([[1, 2], [3, 4]], 2) == [[4, 3], [2, 1]]
    assert turned([[1, 2], [3, 4]], 4) == [[1, 2], [3, 4]]


def test_start_found_in_each_quarter_turn_of_the_camera():
    sq = start_squares(6, 6)
    sq[2][3] = DIE
    for k in range(4):
        assert start_turns(turned(sq, k), 6, "S", "A") == [(4 - k) % 4]
    board = board_from_squares(sq, 6, "S", "A")
    assert board[2] == ["H", None, None, "B", None, None]
    assert board[5] == [None, "V", "V", "V", "V", "V"]


def test_odd_board_leaves_last_row_and_column_unused():
    sq = start_squares(5, 6)
    assert start_turns(sq, 5, "S", "A") == [0]
    assert board_from_squares(sq, 5, "S", "A")[4] == [None, "V", "V", "V", "V"]
    sq[5][5] = DIE
    with pytest.raises(MalformedPosition, match="row 6, column 6 is outside the 5 x 5 board"):
        board_from_squares(sq, 5, "S", "A")


def test_foreign_coin_is_named_by_square():
    sq = start_squares(4, 4)
    sq[1][2] = "M"
    with pytest.raises(MalformedPosition, match="row 2, column 3 holds a coin of suit M"):
        board_from_squares(sq, 4, "S", "A")
    assert start_turns(sq, 4, "S", "A") == []
    sq[1][2] = "3"
    with pytest.raises(MalformedPosition, match="row 2, column 3 holds a coin value side up"):
        board_from_squares(sq, 4, "S", "A")
