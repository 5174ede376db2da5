"""The layout check for sets the default model does not know: the set's own suit x rank structure.

A synthetic set (each face a suit vector plus a rank vector, each copy with its own noise)
checks the arithmetic; a render of an unfamiliar edition (dark plastic tiles with light inks,
which the default model reads none of) checks that an honest layout passes and two swapped
tiles are named.
"""

from __future__ import annotations

import numpy as np
import pytest

from calibration.augment import DEFAULT_NUISANCE
from calibration.config import CalibrationConfig
from calibration.learn import _augmented, _choose_turn, _prior, _tile_problems
from calibration.structure import structure_fit
from calibration.truth import truth_from_json
from simulator.editions import edition
from simulator.layouts import easy_slider_layout
from simulator.render import render_table
from vision.config import VisionConfig

CODES = [s + r for s in "SMCA" for r in "na2345"] + [None]


def _synthetic_copies(n: int = 12, dim: int = 30, noise: float = 0.6) -> np.ndarray:
    rng = np.random.default_rng(0)
    suit = rng.normal(0, 1, (4, dim))
    rank = rng.normal(0, 1, (6, dim))
    faces = np.array([suit["SMCA".index(c[0])] + rank["na2345".index(c[1])] if c else np.zeros(dim) for c in CODES])
    faces += rng.normal(0, 0.3, faces.shape)  # each face a little its own, as printed faces are
    return faces[None] + rng.normal(0, noise, (n, len(CODES), dim))


def _swapped(labels, i, j):
    out = list(labels)
    out[i], out[j] = out[j], out[i]
    return out


def test_an_honest_synthetic_layout_reads_right_and_no_exchange_fits_better():
    fit = structure_fit(_synthetic_copies(), CODES, [False] * 25, ridge=0.05)
    assert np.isnan(fit.suit[24]).all()  # the hole is not scored
    assert fit.misread(CODES) == []
    gain, _, _ = fit.swaps(CODES)[0]
    assert gain < 0  # every exchange of two labels fits worse


def test_two_swapped_synthetic_tiles_are_the_best_exchange_by_a_wide_margin():
    labels = _swapped(CODES, 3, 17)  # S3 and C4
    fit = structure_fit(_synthetic_copies(), labels, [False] * 25, ridge=0.05)
    assert fit.misread(labels) == [3, 17]
    (gain, i, j), (second, _, _) = fit.swaps(labels)[:2]
    assert (i, j) == (3, 17)
    assert gain * fit.temperature(labels) > CalibrationConfig().swap_gap > second * fit.temperature(labels)


def test_another_layout_altogether_is_misread_almost_everywhere():
    order = np.random.default_rng(1).permutation(24)
    labels = [CODES[k] for k in order] + [None]
    fit = structure_fit(_synthetic_copies(), labels, [False] * 25, ridge=0.05)
    assert len(fit.misread(labels)) > CalibrationConfig().structure_misread


def test_a_covered_cell_is_left_out_and_its_suit_and_rank_still_judged_by_the_rest():
    skip = [i == 8 for i in range(25)]
    fit = structure_fit(_synthetic_copies(), CODES, skip, ridge=0.05)
    assert np.isnan(fit.suit[8]).all() and np.isfinite(fit.suit[9]).all()
    assert fit.misread(CODES) == []


# an unfamiliar edition: tuning edition 26 is black plastic tiles with light inks on a felt table


@pytest.fixture(scope="module")
def dark_photo():
    ed = 26
    assert edition(ed).families["tiles"] == "dark"
    seed = 20_000_000 + 8 * ed + 7  # the leave-editions-out benchmark's calibration photo of the edition
    r = render_table(easy_slider_layout(seed, kind="setup"), seed=seed, edition=ed)
    cfg = VisionConfig()
    truth = truth_from_json(r.truth, "t.json")
    a = _choose_turn(r.image, truth, cfg)
    copies, _ = _augmented(r.image, a, cfg, 16, np.random.default_rng(0), DEFAULT_NUISANCE)
    return a, r.truth, copies


def _problems(dark_photo, board=None):
    a, truth, copies = dark_photo
    t = truth_from_json(dict(truth, board=board or truth["board"]), "t.json")
    return _tile_problems(a, t, copies, _prior().model("tiles"))[1]


def test_the_default_model_cannot_read_the_dark_set_but_its_honest_layout_is_accepted(dark_photo):
    a, truth, _ = dark_photo
    from vision.assign import assign
    prior = _prior().model("tiles")
    read = [prior.classes[k] for k in assign(prior.costs(a.tile_feats))]
    wanted = [truth["board"][i // 5][i % 5] or "hole" for i in range(25)]
    assert sum(x == y for x, y in zip(read, wanted)) < CalibrationConfig().familiar_cells
    assert _problems(dark_photo) == []


def test_two_swapped_tiles_of_the_dark_set_are_named(dark_photo):
    _, truth, _ = dark_photo
    board = [list(row) for row in truth["board"]]
    (r1, c1), (r2, c2) = (1, 2), (3, 0)
    a_code, b_code = board[r1][c1], board[r2][c2]
    board[r1][c1], board[r2][c2] = b_code, a_code
    assert _problems(dark_photo, board) == [
        f"cells [{r1}, {c1}] ({b_code}) and [{r2}, {c2}] ({a_code}) look swapped: each looks like the tile the truth "
        f"puts on the other"]


def test_two_null_faces_are_never_paired_as_a_swap():
    # a null's suit is a small mark: two nulls of different suits are not told apart by the
    # other faces' inks and emblems, so their exchange is not judged
    labels = _swapped(CODES, 0, 6)  # Sn and Mn
    fit = structure_fit(_synthetic_copies(), labels, [False] * 25, ridge=0.05)
    pairs = {(i, j) for _, i, j in fit.swaps(labels)}
    assert (0, 6) not in pairs
    assert len(pairs) == 24 * 23 // 2 - 6  # every other pair of different tiles: the four nulls make six pairs
    assert (0, 7) in pairs  # a null and another face are
