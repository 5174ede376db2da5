"""The Easy Slider slide notation and its text referee (``caller play easy-slider``)."""

import io
import sys

import pytest

from caller.cli import main
from rules.easy_slider.game import GAME
from rules.easy_slider.notation import format_slide, parse_slide
from rules.errors import IllegalMove, NotationError


@pytest.fixture
def state():
    s = GAME.setup(seed=7)  # the hole in the lower right corner, [4, 4]
    assert s.hole == (4, 4)
    return s


def test_a_slide_by_square_tile_or_direction(state):
    above, left = state.board[(3, 4)], state.board[(4, 3)]
    assert parse_slide("4,5", state) == parse_slide("4 5", state) == parse_slide("down", state) == parse_slide("v", state)
    assert parse_slide(above.code.lower(), state).tile == above
    assert parse_slide("right", state).src == parse_slide(">", state).src == (4, 3)
    assert parse_slide(left.code, state).dst == (4, 4)
    assert format_slide(parse_slide("down", state)) == f"{above.code} 4,5 -> 5,5"


@pytest.mark.parametrize("text, error, words", [
    ("up", NotationError, "no tile can slide up"),
    ("left", NotationError, "no tile can slide left"),
    ("5,5", NotationError, "is the hole"),
    ("6,1", NotationError, "off the board"),
    ("xyz", NotationError, "cannot read"),
    ("1,1", IllegalMove, "not next to the hole at 5,5"),
])
def test_what_is_not_a_slide_says_why(state, text, error, words):
    with pytest.raises(error, match=words):
        parse_slide(text, state)


def test_the_referee_takes_bad_input_and_quits_cleanly(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO("help\nnonsense\nmoves\njson\nboard\nquit\n"))
    assert main(["play", "easy-slider", "--seed", "7"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert "Easy Slider (seed 7):" in out and "Caller: Go!" in out
    assert "cannot read 'nonsense'" in out and "slides: " in out and '"game": "easy-slider"' in out
    assert out.rstrip().endswith("bye.")


def test_a_bad_option_is_one_line(capsys):
    assert main(["play", "easy-slider", "--seed", "x"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("caller: error: caller play easy-slider: argument --seed")
