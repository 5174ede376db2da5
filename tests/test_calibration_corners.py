"""The board's corners given by the person: parsing, refusals, the lattice built from them, the
click-the-corners window's state machine (driven with synthetic events, no window), and the
``caller calibrate --corners`` command line's refusals."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from calibration.click import CornerClicker, window_scale
from calibration.corners import (DEFAULT_FACE, BadCorners, check_corners, estimate_face, lattice_from_corners,
                                 parse_corners)
from caller.cli import main

SHAPE = (720, 1280, 3)
GOOD = ["440.68,215.27", "836.26,176.56", "923.61,561.53", "463.78,618"]


def test_parse_corners_reads_four_pairs():
    c = parse_corners(GOOD)
    assert c.tolist() == [[440.68, 215.27], [836.26, 176.56], [923.61, 561.53], [463.78, 618.0]]
    assert parse_corners(["1, 2", "3,4", "5,6", "7,8"])[0].tolist() == [1.0, 2.0]


@pytest.mark.parametrize("values, said", [
    (GOOD[:3], "--corners takes 4 corners x,y (far-left, far-right, near-right, near-left), got 3"),
    (GOOD + ["1,1"], "--corners takes 4 corners x,y (far-left, far-right, near-right, near-left), got 5"),
    (["a,b"] + GOOD[1:], "--corners: the far-left corner 'a,b' is not x,y (two numbers, image pixels)"),
    (GOOD[:2] + ["923.61"] + GOOD[3:], "--corners: the near-right corner '923.61' is not x,y (two numbers, image pixels)"),
    (GOOD[:3] + ["nan,3"], "--corners: the near-left corner 'nan,3' is not a finite number pair"),
])
def test_parse_corners_refuses_with_one_line(values, said):
    with pytest.raises(BadCorners) as e:
        parse_corners(values)
    assert str(e.value) == said


@pytest.mark.parametrize("pts, said", [
    ([[440, 215], [836, 176], [1300, 561], [463, 618]],
     "--corners: the near-right corner (1300, 561) is outside the 1280x720 image"),
    ([[440, 215], [836, 176], [923, 561], [463, -1]],
     "--corners: the near-left corner (463, -1) is outside the 1280x720 image"),
    ([[440, 215], [470, 215], [470, 245], [440, 245]],
     "--corners: the board's sides must be at least 60 px long, the shortest is 30 px (corners on top of each "
     "other, or a board too small to read)"),
    ([[440, 215], [923, 561], [836, 176], [463, 618]],
     "--corners: the corners do not outline a convex board (their sides cross or bend inwards): give them in "
     "order around the board, far-left first, clockwise"),
    ([[440, 215], [836, 176], [600, 300], [463, 618]],
     "--corners: the corners do not outline a convex board (their sides cross or bend inwards): give them in "
     "order around the board, far-left first, clockwise"),
    ([[440, 215], [463, 618], [923, 561], [836, 176]],
     "--corners: the corners go anticlockwise around the board: give them clockwise, far-left first "
     "(far-left, far-right, near-right, near-left)"),
])
def test_check_corners_refuses_what_cannot_be_a_board(pts, said):
    with pytest.raises(BadCorners) as e:
        check_corners(np.array(pts, float), SHAPE)
    assert str(e.value) == said


def test_lattice_from_corners_puts_the_outer_tile_edges_on_the_corners():
    c = parse_corners(GOOD)
    lat = lattice_from_corners(c, SHAPE, 0.9)
    e = 0.05
    uv = lat.to_lattice(c)
    assert np.allclose(uv, [[e, e], [5 - e, e], [5 - e, 5 - e], [e, 5 - e]], atol=1e-6)
    assert lat.lam == 0.0 and lat.face == 0.9 and lat.tiles == frozenset()
    assert np.allclose(lat.to_image(uv), c, atol=1e-6)


def _drawn_board(face: float, size: int = 600) -> tuple[np.ndarray, np.ndarray]:
    """A synthetic top view: 5 x 5 light faces ``face`` pitches wide on a dark table; (image, corners)."""
    img = np.full((size, size, 3), 40, np.uint8)
    pitch = 100.0
    x0 = (size - (4 + face) * pitch) / 2
    for r in range(5):
        for c in range(5):
            a = (int(round(x0 + c * pitch)), int(round(x0 + r * pitch)))
            b = (int(round(x0 + (c + face) * pitch)) - 1, int(round(x0 + (r + face) * pitch)) - 1)
            cv2.rectangle(img, a, b, (220, 225, 230), -1)
    x1 = x0 + (4 + face) * pitch
    return img, np.array([[x0, x0], [x1, x0], [x1, x1], [x0, x1]])


@pytest.mark.parametrize("face", [0.85, 0.9, 0.95])
def test_estimate_face_measures_the_gaps(face):
    img, corners = _drawn_board(face)
    assert abs(estimate_face(img, corners) - face) <= 0.01


def test_estimate_face_without_gaps_keeps_the_default():
    img = np.full((600, 600, 3), 200, np.uint8)
    assert estimate_face(img, np.array([[50, 50], [550, 50], [550, 550], [50, 550]], float)) == DEFAULT_FACE


# --- the click-the-corners window, driven with synthetic events ------------------------------

def _clicked(points, scale=1.0):
    k = CornerClicker(np.zeros(SHAPE, np.uint8), scale)
    for x, y in points:
        k.mouse(cv2.EVENT_LBUTTONDOWN, x, y)
    return k


def test_clicker_takes_four_corners_and_enter_accepts():
    k = CornerClicker(np.zeros(SHAPE, np.uint8))
    assert k.message == "click the far-left corner (1 of 4)"
    k.mouse(cv2.EVENT_LBUTTONDOWN, 440, 215)
    k.mouse(cv2.EVENT_MOUSEMOVE, 10, 10)  # moves are not clicks
    assert k.points == [(440.0, 215.0)] and k.message == "click the far-right corner (2 of 4)"
    for x, y in ((836, 176), (923, 561), (463, 618)):
        k.mouse(cv2.EVENT_LBUTTONDOWN, x, y)
    k.mouse(cv2.EVENT_LBUTTONDOWN, 5, 5)  # a fifth click is ignored
    assert len(k.points) == 4 and k.state == "clicking"
    assert k.message == "Enter: accept these corners; right click or Backspace: undo; Esc: cancel"
    k.key(13)
    assert k.state == "done" and k.corners.tolist() == [[440, 215], [836, 176], [923, 561], [463, 618]]


def test_clicker_maps_window_pixels_back_to_the_image():
    k = _clicked([(220, 107.5), (418, 88), (461.5, 280.5), (231.5, 309)], scale=0.5)
    k.key(32)
    assert k.state == "done" and k.corners.tolist() == [[440, 215], [836, 176], [923, 561], [463, 618]]


def test_clicker_enter_before_four_corners_does_nothing_and_undo_takes_the_last_back():
    k = _clicked([(440, 215), (836, 176)])
    k.key(13)
    assert k.state == "clicking" and len(k.points) == 2
    k.mouse(cv2.EVENT_RBUTTONDOWN, 0, 0)
    assert k.points == [(440.0, 215.0)] and k.message == "click the far-right corner (2 of 4)"
    k.key(8)  # Backspace
    k.key(8)  # nothing left to take back
    assert k.points == [] and k.state == "clicking"


def test_clicker_refuses_crossed_corners_and_starts_again():
    k = _clicked([(440, 215), (923, 561), (836, 176), (463, 618)])
    k.key(13)
    assert k.state == "clicking" and k.points == [] and k.corners is None
    assert k.message.startswith("the corners clicked: the corners do not outline a convex board")
    assert k.message.endswith("; click again")


def test_clicker_escape_cancels_and_later_events_change_nothing():
    k = _clicked([(440, 215)])
    k.key(27)
    assert k.state == "cancelled"
    k.mouse(cv2.EVENT_LBUTTONDOWN, 836, 176)
    k.key(13)
    assert k.state == "cancelled" and k.points == [(440.0, 215.0)] and k.corners is None


def test_clicker_picture_draws_the_corners_clicked():
    k = _clicked([(440, 215), (836, 176)])
    pic = k.picture()
    assert pic.shape == SHAPE
    assert tuple(pic[215, 440]) == (0, 220, 255)  # a yellow dot on the corner
    assert window_scale((720, 1280)) == 1.0 and window_scale((3000, 4000)) == 0.35


# --- the command line ---------------------------------------------------------------------------

@pytest.mark.parametrize("extra, said", [
    (["--corners", "1,2", "3,4"], "--corners takes 4 corners x,y (far-left, far-right, near-right, near-left), got 2"),
    (["--corners", "1,2", "3,4", "x,4", "5,6"], "--corners: the near-right corner 'x,4' is not x,y (two numbers, image pixels)"),
])
def test_cli_bad_corners_are_one_line_and_exit_2(tmp_path, capsys, extra, said):
    assert main(["calibrate", "a.png", "--truth", "a.json", "--out", str(tmp_path / "p"), *extra]) == 2
    err = capsys.readouterr().err
    assert err == f"caller: error: {said}\n"
    assert not list(tmp_path.iterdir())


def test_cli_corners_need_exactly_one_image(tmp_path, capsys):
    args = ["calibrate", "a.png", "b.png", "--truth", "a.json", "--out", str(tmp_path / "p"), "--corners", *GOOD]
    assert main(args) == 2
    assert capsys.readouterr().err == ("caller: error: --corners gives the board of one photo: pass exactly one IMAGE with "
                                       "it, not 2 (calibrate each photo whose board is not found on its own, or click the "
                                       "corners when asked)\n")
