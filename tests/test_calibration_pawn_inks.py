"""Calibration's pawn check stands aside when two suits share an ink.

The check matches the pawns' colours to the suits' ink colours on the tiles; on a set printed
in one black ink for every suit (tuning edition 582, light wood on a gingham cloth) the inks
differ only by noise, and the honest pawns were refused ("pawn 1 (left of row 1) looks blue
(Arms), the truth says green (Crowns)"). A set whose suits have inks of their own still has a
swap of two pawns named.
"""

from __future__ import annotations

from calibration.config import CalibrationConfig
from calibration.learn import _choose_turn, _pawn_problems, _prior
from calibration.truth import truth_from_json
from simulator.layouts import easy_slider_layout
from simulator.render import render_table
from vision.config import VisionConfig


def _analysis(ed: int):
    seed = 20_000_000 + 8 * ed + 7  # the leave-editions-out benchmark's calibration photo
    r = render_table(easy_slider_layout(seed, kind="setup"), seed=seed, edition=ed)
    a = _choose_turn(r.image, truth_from_json(r.truth, "t.json"), VisionConfig(), _prior().model("tiles"),
                     CalibrationConfig())
    return a, r.truth


def _swapped(truth):
    pawns = list(truth["pawns"])
    pawns[0], pawns[1] = pawns[1], pawns[0]
    return truth_from_json(dict(truth, pawns=pawns), "t.json")


def test_pawns_of_a_set_printed_in_one_ink_are_not_judged_by_it():
    a, truth = _analysis(582)
    assert _pawn_problems(a, truth_from_json(truth, "t.json")) == []
    assert _pawn_problems(a, _swapped(truth)) == []  # nor can a swap be seen


def test_a_swap_of_two_pawns_is_named_where_the_suits_have_inks_of_their_own():
    a, truth = _analysis(572)
    assert _pawn_problems(a, truth_from_json(truth, "t.json")) == []
    names = {"S": "red (Suns)", "M": "black (Moons)", "C": "green (Crowns)", "A": "blue (Arms)"}
    first, second = truth["pawns"][:2]
    assert _pawn_problems(a, _swapped(truth)) == [
        f"pawn 1 (left of row 1) looks {names[first]}, the truth says {names[second]}",
        f"pawn 2 (left of row 2) looks {names[second]}, the truth says {names[first]}"]
