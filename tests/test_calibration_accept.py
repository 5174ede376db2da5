"""The acceptance check of ``caller calibrate``: a correct layout is accepted, a wrong one refused.

The check runs on the reader's analysis of the photo and a few augmented copies (for the
spread that scales the misfit), without the learning itself, so that bundled stills and
fresh renders can be checked quickly against honest and wrong truths.
"""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from calibration.augment import DEFAULT_NUISANCE
from calibration.learn import _augmented, _choose_turn, _prior, _skip, _spread, _suspect_cells, _tile_labels, tile_misfit
from calibration.truth import truth_from_json
from simulator.layouts import easy_slider_layout
from simulator.render import render_table
from vision.config import VisionConfig

N_COPIES = 4  # enough copies for the spread that scales the misfit


@pytest.fixture(scope="module")
def prior():
    model = _prior()
    assert model is not None, "the bundled default model must load"
    return model.model("tiles")


class Photo:
    """One photo analysed once; ``refused(truth)`` lists the cells the check refuses as (row, col, code)."""

    def __init__(self, image: np.ndarray, truth: dict, prior):
        self.truth, self.prior, self.cfg = truth, prior, VisionConfig()
        t = truth_from_json(truth, "t.json")
        self.a = _choose_turn(image, t, self.cfg)
        copies, _ = _augmented(image, self.a, self.cfg, N_COPIES, np.random.default_rng(0), DEFAULT_NUISANCE)
        self.spread = _spread(copies)

    def refused(self, obj: dict | None = None) -> list[tuple[int, int, str]]:
        t = truth_from_json(obj or self.truth, "t.json")
        mis = tile_misfit(self.a.tile_feats, _tile_labels(t), self.spread, _skip(t))
        return [(i // 5, i % 5, t.board[i // 5][i % 5]) for i in _suspect_cells(self.a, t, mis, self.prior)]

    def swapped(self, a: tuple[int, int], b: tuple[int, int]) -> dict:
        board = [list(r) for r in self.truth["board"]]
        board[a[0]][a[1]], board[b[0]][b[1]] = board[b[0]][b[1]], board[a[0]][a[1]]
        return dict(self.truth, board=board)

    def cell_of(self, code: str) -> tuple[int, int]:
        return next((r, c) for r in range(5) for c in range(5) if self.truth["board"][r][c] == code)


def _bundled(name: str, prior) -> Photo:
    image = cv2.imread(f"sample_images/easy-slider_{name}.jpg")
    truth = json.loads(open(f"sample_images/easy-slider_{name}.json", encoding="utf-8").read())
    return Photo(image, truth, prior)


@pytest.mark.parametrize("name", ["setup_standard", "setup_plastic_1080p", "midgame_wood"])
def test_bundled_stills_with_their_own_layouts_are_accepted_and_a_swap_refused(name, prior):
    # each set's Moons and Crowns aces are emblems of their own, not "suit colour + ace glyph":
    # their misfit under the suit + rank model is far above the rest, yet the default model
    # reads them as the layout says, by a wide margin
    photo = _bundled(name, prior)
    assert photo.refused() == []
    ma, ca = photo.cell_of("Ma"), photo.cell_of("Ca")
    # the two aces the check now lets through, swapped in the layout: both refused
    assert photo.refused(photo.swapped(ma, ca)) == sorted([(*ma, "Ca"), (*ca, "Ma")])
    # two tiles of one suit with neighbouring ranks
    s2, s3 = photo.cell_of("S2"), photo.cell_of("S3")
    assert photo.refused(photo.swapped(s2, s3)) == sorted([(*s2, "S3"), (*s3, "S2")])


@pytest.mark.parametrize("seed", [105, 111])
def test_fresh_renders_in_the_default_look_are_accepted_and_wrong_layouts_refused(seed, prior):
    layout = easy_slider_layout(seed, kind="setup")
    r = render_table(layout, seed=seed)
    photo = Photo(r.image, r.truth, prior)
    assert photo.refused() == []
    a, b = photo.cell_of("Ma"), photo.cell_of("A3")
    assert photo.refused(photo.swapped(a, b)) == sorted([(*a, "A3"), (*b, "Ma")])
    # another deal's layout altogether: (nearly) every cell refused
    other = easy_slider_layout(seed + 1, kind="setup")
    wrong = [(r_, c, code) for r_, row in enumerate(other["board"]) for c, code in enumerate(row)
             if code is not None and code != layout["board"][r_][c]]
    assert photo.refused(dict(r.truth, board=other["board"])) == wrong
