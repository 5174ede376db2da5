"""Pawns read by a profile calibrated on one photo are read only when their reading beats the
next best by a good share of their own misfit (``assign.pawn_relative_margin``).

Such a profile's pawn temperature is set on copies of the calibration photo, which its pawns
fit far better than any other photo's: on another photo every margin runs to hundreds of nats,
a permutation of the pawns as sure as the truth. The margin over the pawn's own cost is the
same on any scale.
"""

from __future__ import annotations

import pytest

from calibration.learn import learn_profile
from calibration.truth import truth_from_json
from simulator.layouts import easy_slider_layout
from simulator.render import render_table
from vision.reader import Reader

#: tuning edition 540: dark green plastic tiles on a laminate table under a spot light
DARK_GREEN = 540


def _photo(j: int, kind: str):
    seed = 20_000_000 + 8 * DARK_GREEN + j
    return render_table(easy_slider_layout(seed, kind=kind), seed=seed, edition=DARK_GREEN)


@pytest.fixture(scope="module")
def reader():
    cal = _photo(7, "setup")
    return Reader(learn_profile([("calibration photo", cal.image)], [truth_from_json(cal.truth)]).profile)


@pytest.mark.slow
def test_a_permutation_of_the_pawns_is_not_read(reader):
    # the board seen from a corner: the four pawns fit every colour at 100-1000 nats and were
    # read as a permutation of the truth at confidence 1.0
    photo = _photo(0, "setup")
    obs = reader.read(photo.image)
    assert photo.truth["pawns"] == ["M", "A", "C", "S"]
    assert obs.pawns == ("S", "C", "M", "A")
    assert obs.uncertain_pawns == (0, 1, 2, 3)
    assert obs.pawn_confidence == (0.5, 0.5, 0.5, 0.5)


@pytest.mark.slow
def test_pawns_that_fit_their_colours_clearly_are_still_read(reader):
    photo = _photo(1, "midgame")
    obs = reader.read(photo.image)
    assert list(obs.pawns) == photo.truth["pawns"] == ["A", "S", "M", "C"]
    assert obs.uncertain_pawns == ()
