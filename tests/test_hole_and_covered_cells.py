"""Where the hole is, and what a hand may hide, on sets the project's looks do not cover.

The board search's faces are evidence against the hole, not a veto (``assign.seen_face_hole_cost``):
on a gingham cloth the table in the hole can look like a face to the search. And a covered
cell may hide any tile or the hole: a face whose runner-up is the label the assignment put
under the hand is not read confidently (``vision.reader._free_confidence``).
"""

from __future__ import annotations

import numpy as np
import pytest

from calibration.learn import learn_profile
from calibration.truth import truth_from_json
from simulator.layouts import easy_slider_layout
from simulator.render import render_table
from vision.reader import Reader, _free_confidence

#: tuning edition 561: pastel paper, blank nulls, a gingham cloth
GINGHAM = 561
#: tuning edition 523: mid-dark wood with light inks on a light wood table
WOOD = 523
#: tuning edition 545: white acrylic, ring nulls, on a cloth
WHITE = 545


def _photo(ed: int, j: int, kind: str, hands: int = 0):
    seed = 20_000_000 + 8 * ed + j
    return render_table(easy_slider_layout(seed, kind=kind), seed=seed, edition=ed, hands=hands)


def _calibrated(ed: int) -> Reader:
    cal = _photo(ed, 7, "setup")
    return Reader(learn_profile([("calibration photo", cal.image)], [truth_from_json(cal.truth)]).profile)


@pytest.mark.slow
def test_the_hole_over_a_gingham_cloth_is_read_where_it_is():
    # the search takes the gingham in the hole at (3, 3) for a face and misses the blank null
    # at (4, 0); with the search's faces a veto, the null was read as the hole (confidence
    # 0.999997) and the hole as that null (covered)
    photo = _photo(GINGHAM, 1, "midgame")
    obs = _calibrated(GINGHAM).read(photo.image)
    assert [list(row) for row in obs.board] == photo.truth["board"]
    assert obs.board[3][3] is None and obs.board[4][0] == "Mn"
    assert obs.uncertain == () and obs.covered == ()


@pytest.mark.slow
def test_a_face_whose_runner_up_a_hand_may_hide_is_not_read_confidently():
    # a hand over the middle of the board: the aces at (0, 0) and (3, 0) were read swapped
    # (Ma for Sa, Sa for Ma) at confidence 0.96 each, the covered cells holding the labels
    # that would have told them apart
    photo = _photo(WOOD, 1, "midgame", hands=1)
    obs = _calibrated(WOOD).read(photo.image)
    truth = photo.truth["board"]
    assert set(obs.covered) == {(2, 3), (3, 3), (4, 1), (4, 2)}
    sure_wrong = [(r, c) for r in range(5) for c in range(5)
                  if obs.board[r][c] != truth[r][c] and (r, c) not in obs.uncertain]
    assert sure_wrong == []
    assert (obs.board[0][0], obs.board[3][0]) == ("Ma", "Sa")  # still the assignment's labels
    assert {(0, 0), (3, 0)} <= set(obs.uncertain)
    # the cells that stay read are read right
    read = {(r, c) for r in range(5) for c in range(5) if (r, c) not in obs.uncertain}
    assert read == {(0, 1), (0, 2), (0, 3), (0, 4), (1, 0), (1, 1), (1, 2), (1, 4), (2, 0), (2, 1)}


@pytest.mark.slow
def test_a_loosely_fitting_hole_is_not_read_while_a_hand_covers_cells():
    # a hand over the middle and the bottom row hides the hole at (4, 2); the Arms null at
    # (4, 4), in its shadow, fits the hole better than its own face (13.5 nats, the board's
    # median best under 4) and was read as the hole at confidence 0.957
    photo = _photo(WHITE, 2, "solved", hands=1)
    obs = _calibrated(WHITE).read(photo.image)
    truth = photo.truth["board"]
    assert truth[4][2] is None and truth[4][4] == "An"
    assert (4, 2) in obs.covered
    assert obs.board[4][4] is None and (4, 4) in obs.uncertain
    sure_wrong = [(r, c) for r in range(5) for c in range(5)
                  if obs.board[r][c] != truth[r][c] and (r, c) not in obs.uncertain]
    assert sure_wrong == []


def test_covered_cells_free_to_hide_any_label_take_the_confidence_of_faces_that_could_be_them():
    # three cells, three labels: cell 0 fits label 0 (runner-up label 1 two nats worse), cell 1
    # is covered and was assigned label 1, cell 2 fits label 2 clearly
    cost = np.array([[0.0, 2.0, 30.0],
                     [9.0, 1.0, 9.0],
                     [30.0, 30.0, 0.0]])
    labels = np.array([0, 1, 2])
    covered = np.array([False, True, False])
    conf = _free_confidence(cost, labels, covered)
    # cell 0 could be label 1 with label 0 under the hand: its own margin of 2 nats is all it has
    assert conf[0] == pytest.approx(1.0 / (1.0 + np.exp(-2.0)))
    # cell 2's runner-up costs 30 nats more
    assert conf[2] == pytest.approx(1.0 / (1.0 + np.exp(-30.0)))
    # nothing covered: the assignment's confidences stand
    assert np.array_equal(_free_confidence(cost, labels, np.zeros(3, bool)), np.ones(3))
    # a face whose free reading differs from the assignment's gets none
    cost[0] = [5.0, 0.0, 30.0]
    assert _free_confidence(cost, labels, covered)[0] == 0.0
