"""Coins whose numerals are lighter than the coins (a pale numeral on a wood, dark or coloured
coin): calibration learns them in the negative, as the default model knows coins (a dark
numeral on a light coin), and the profile reads every frame's coins so.

Each photo is the leave-editions-out benchmark's (``benchmarks/bench_editions.py``: seed
20,000,000 + 8 x edition + j, j = 7 the calibration photo) of a tuning edition.
"""

from __future__ import annotations

import numpy as np
import pytest

from calibration.learn import _light_coin_ink, _prior, learn_profile
from calibration.truth import truth_from_json
from simulator.layouts import easy_slider_layout
from simulator.render import render_table
from vision.config import VisionConfig
from vision.reader import COIN_INK_KEY, LIGHT_COIN_INK, Reader, analyse, measure_pieces

#: tuning edition 460: pastel paper tiles, wood coins whose numerals are lighter than the wood
LIGHT_INK = 460
#: tuning edition 465: cream paper tiles and coins with dark numerals
DARK_INK = 465


def _photo(ed: int, j: int, kind: str):
    seed = 20_000_000 + 8 * ed + j
    return render_table(easy_slider_layout(seed, kind=kind), seed=seed, edition=ed)


def test_the_coins_are_measured_in_the_negative_once_their_centres_are_found():
    r = _photo(LIGHT_INK, 7, "setup")
    cfg = VisionConfig()
    plain = analyse(r.image, cfg)
    turned = measure_pieces(r.image, analyse(r.image, cfg, pieces=False), cfg, coins_negative=True)
    assert (plain.coins_negative, turned.coins_negative) == (False, True)
    assert np.array_equal(turned.coin_centres, plain.coin_centres)
    assert np.array_equal(turned.coin_windows, 255 - plain.coin_windows)


@pytest.mark.parametrize("ed, light", [(LIGHT_INK, True), (DARK_INK, False)])
def test_calibration_tells_the_coins_way_round_by_what_the_default_model_reads(ed, light):
    r = _photo(ed, 7, "setup")
    a = analyse(r.image, VisionConfig())
    assert _light_coin_ink(a, truth_from_json(r.truth, "t.json"), _prior().model("coins")) is light


def test_a_set_with_light_numerals_on_its_coins_is_learnt_and_its_coins_read():
    cal = _photo(LIGHT_INK, 7, "setup")
    profile = learn_profile([("calibration photo", cal.image)], [truth_from_json(cal.truth)], n_augment=12).profile
    assert profile.meta[COIN_INK_KEY] == LIGHT_COIN_INK
    reader = Reader(profile)
    assert reader.coins_negative is True
    r = _photo(LIGHT_INK, 3, "setup")
    obs = reader.read(r.image)
    # the default model's reading of the same coins, measured as they are: a permutation
    assert Reader(None).read(r.image).coins != tuple(r.truth["coins"])
    assert obs.coins == tuple(r.truth["coins"])
    assert obs.uncertain_coins == (1, 4)
    assert [list(row) for row in obs.board] == r.truth["board"]
