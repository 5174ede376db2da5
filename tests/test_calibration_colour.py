"""Colour constancy by the tile paper: synthetic faces with exact answers, then simulator renders under other lights."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from calibration.colour import (
    CANONICAL_WHITE,
    apply_gains,
    normalise_face,
    normalise_frame,
    paper_white,
    white_gains,
)
from calibration.errors import CalibrationError
from simulator.layouts import easy_slider_layout
from simulator.render import CLEAN, render_table

PAPER = np.array([200.0, 215.0, 230.0])  # an ivory paper, BGR
INK = np.array([150.0, 70.0, 35.0])  # a blue ink, BGR


def _face(paper=PAPER, ink=INK, size=40, glare=False):
    face = np.empty((size, size, 3), np.float32)
    face[:] = paper
    face[12:28, 12:28] = ink  # 16% ink, like a digit or a symbol
    if glare:
        face[:3, :] = 255.0  # a specular streak along one edge
    return face


def test_paper_white_is_the_paper_not_the_ink_nor_the_glare():
    assert paper_white(_face(glare=True).astype(np.uint8)).tolist() == PAPER.tolist()


def test_a_coloured_light_is_undone_exactly_on_a_face():
    light = np.array([0.70, 0.92, 1.06])  # the simulator's warm lamp, B, G, R
    lit = np.clip(_face() * light, 0, 255).astype(np.uint8)
    got = normalise_face(lit)
    want = INK * CANONICAL_WHITE / PAPER  # the ink's colour relative to its own paper
    assert np.abs(got[20, 20] - want).max() <= 1.0
    assert np.abs(got[2, 2] - CANONICAL_WHITE).max() <= 1.0


def test_frame_gains_and_mask():
    img = np.zeros((20, 20, 3), np.uint8)
    img[:, :10] = (100, 120, 150)
    img[:, 10:] = (30, 200, 30)  # the table, outside the mask
    mask = np.zeros((20, 20), np.uint8)
    mask[:, :10] = 1
    out, gains = normalise_frame(img, mask)
    assert gains == pytest.approx(CANONICAL_WHITE / [100, 120, 150])
    assert out[0, 0].tolist() == [225, 225, 225]
    assert apply_gains(np.array([[10.0, 10.0, 10.0]]), [2.0, 3.0, 30.0]).tolist() == [[20, 30, 255]]


def test_a_face_without_paper_falls_back_to_the_frame_gains():
    dark = np.full((20, 20, 3), 12, np.uint8)  # the hole: dark table
    with pytest.raises(CalibrationError, match=r"paper white \[12.0, 12.0, 12.0\] \(B, G, R\) is too dark"):
        normalise_face(dark)
    assert normalise_face(dark, np.array([2.0, 2.0, 2.0]))[0, 0].tolist() == [24.0, 24.0, 24.0]


def test_white_gains_refuse_a_dark_white_and_bad_shapes():
    with pytest.raises(CalibrationError, match="too dark to be a white reference"):
        white_gains([200.0, 200.0, 20.0])
    with pytest.raises(CalibrationError, match=r"expected H x W x 3 BGR"):
        paper_white(np.zeros((4, 4), np.uint8))
    with pytest.raises(CalibrationError, match="only 4 pixels of tile face"):
        paper_white(np.zeros((2, 2, 3), np.uint8))


def _faces(render) -> dict[str, np.ndarray]:
    """Each tile's face cut from the frame with the truth's corners (52 x 52 BGR, edges trimmed)."""
    out = {}
    dst = np.float32([[0, 0], [63, 0], [63, 63], [0, 63]])
    for r, row in enumerate(render.truth["cells"]):
        for c, quad in enumerate(row):
            code = render.truth["board"][r][c]
            if code is not None:
                H = cv2.getPerspectiveTransform(np.float32(quad), dst)
                out[code] = cv2.warpPerspective(render.image, H, (64, 64))[6:58, 6:58]
    return out


def _ink(face: np.ndarray) -> np.ndarray:
    f = face.astype(np.float32).reshape(-1, 3)
    lum = f @ np.array([0.114, 0.587, 0.299], np.float32)
    return f[lum <= np.quantile(lum, 0.08)].mean(0)


def test_suit_inks_under_a_warm_lamp_and_a_cold_window_agree_after_normalising():
    layout = easy_slider_layout(1)
    fives = ("S5", "M5", "C5", "A5")
    raw, norm = {}, {}
    for wb in (-1.0, 1.0):  # a warm lamp, a cold window; uneven light on top
        cond = dict(CLEAN, white_balance=wb, exposure=0.85, uneven=0.5)
        faces = _faces(render_table(layout, seed=5, look="unseen-ivory", conditions=cond))
        raw[wb] = np.array([_ink(faces[c]) for c in fives])
        norm[wb] = np.array([_ink(normalise_face(faces[c])) for c in fives])
    assert np.abs(raw[-1.0] - raw[1.0]).max() > 30  # the lights really move the suits' colours
    assert np.abs(norm[-1.0] - norm[1.0]).max() < 8  # and the paper white takes that away
