"""Sets printed the other way round: faces darker than their inks (black plastic with white
numerals, dark wood with light inks) are measured in the negative, so that ink is ink.

The board's way round is judged from its cells (``vision.features.faces_negative``); a profile
calibrated on such a set learns its faces so and reads every frame so (``Reader.negative``);
the default model, which knows only light faces, reads such a board all uncertain.
"""

from __future__ import annotations

import numpy as np
import pytest

from calibration.learn import learn_profile
from calibration.truth import truth_from_json
from simulator.layouts import easy_slider_layout
from simulator.render import render_table
from vision import features as F
from vision.config import VisionConfig
from vision.reader import DARK_FACES, FACES_KEY, Reader, analyse

#: tuning edition 473: black acrylic tiles with light inks on a felt table, in window light
DARK = 473


def _photo(ed: int | None, j: int, kind: str):
    seed = 20_000_000 + 8 * (ed or 0) + j
    return render_table(easy_slider_layout(seed, kind=kind), seed=seed, edition=ed)


def test_a_dark_set_is_judged_negative_and_a_light_one_not():
    cfg = VisionConfig()
    dark = analyse(_photo(DARK, 1, "midgame").image, cfg, pieces=False)
    light = analyse(_photo(None, 1, "midgame").image, cfg, pieces=False)
    assert (F.faces_negative(dark.cell_images), dark.negative) == (True, True)
    assert (F.faces_negative(light.cell_images), light.negative) == (False, False)
    # the way round can be given: a calibrated profile knows its set
    assert analyse(_photo(DARK, 1, "midgame").image, cfg, pieces=False, negative=False).negative is False


def test_a_light_set_printed_the_other_way_round_measures_as_the_light_set_in_the_negative():
    # the light look's faces inverted are a dark set with light inks: measured in the negative,
    # their ink maps are the light set's to within 0.05 a map cell (the face's level is taken
    # from the middle of each crop, the light set's from the whole crop); measured as they are,
    # every face is mostly ink
    crops = analyse(_photo(None, 1, "midgame").image, VisionConfig(), pieces=False).cell_images
    grid = slice(0, 100)  # the 10 x 10 ink map (times 2) comes first
    light = F.tile_features(crops)[0][:, grid]
    dark_negative, white = F.tile_features(255 - crops, negative=True)
    assert np.abs(dark_negative[:, grid] - light).max() < 0.05
    assert np.abs(F.tile_features(255 - crops)[0][:, grid] - light).mean() > 1.0
    # the white levels returned are the crops' own, as given: the pawns are measured against them
    assert np.array_equal(white, F.tile_features(255 - crops)[1])


@pytest.fixture(scope="module")
def dark_profile():
    cal = _photo(DARK, 7, "setup")
    return learn_profile([("calibration photo", cal.image)], [truth_from_json(cal.truth)], n_augment=12).profile


def test_a_dark_set_calibrates_and_its_profile_reads_another_photo_right(dark_profile):
    assert dark_profile.meta[FACES_KEY] == DARK_FACES
    reader = Reader(dark_profile)
    assert reader.negative is True
    r = _photo(DARK, 1, "midgame")
    obs = reader.read(r.image)
    assert [list(row) for row in obs.board] == r.truth["board"]
    assert obs.uncertain == ()
    # the default model knows only light faces: it reads the same photo all uncertain
    assert len(Reader(None).read(r.image).uncertain) == 25


def test_a_profile_calibrated_before_faces_were_told_apart_reads_them_as_it_learnt_them(dark_profile):
    from dataclasses import replace

    old = replace(dark_profile, meta={k: v for k, v in dark_profile.meta.items() if k != FACES_KEY})
    assert Reader(old).negative is False
    assert Reader(None).negative is None  # the default model judges each frame
