"""The preview overlay and the headless rule (no window without a display)."""

import numpy as np

from caller import preview
from caller.events import Event
from vision.observation import Observation


def _observation(corners):
    board = tuple(tuple(f"S{r}" for r in "n2345") for _ in range(4)) + (("Mn", "Ma", "M2", "M3", None),)
    return Observation(board=board, pawns=("S", "M", "C", "A"), coins=("a", "2", "3", "4", "5"),
                       cell_confidence=((1.0,) * 5,) * 5, pawn_confidence=(1.0,) * 4, coin_confidence=(1.0,) * 5,
                       uncertain=((2, 2),), uncertain_pawns=(), uncertain_coins=(), covered=(), orientation=0,
                       board_corners=corners)


def test_overlay_draws_the_grid_labels_and_warning():
    frame = np.zeros((360, 640, 3), np.uint8)
    obs = _observation(((100.0, 50.0), (350.0, 50.0), (350.0, 300.0), (100.0, 300.0)))
    out = preview.draw_overlay(frame, obs, Event(1.0, "move", {"tile": "S5", "from": [0, 1], "to": [0, 0]}),
                               warning="Illegal move.", status="t=1.0")
    assert frame.sum() == 0  # the camera frame itself is not drawn on
    yellow = (out[:, :, 2] > 200) & (out[:, :, 1] > 150) & (out[:, :, 0] < 80)
    assert yellow[50, 100:351].mean() > 0.9  # the board's top edge
    assert yellow[50:301, 200].mean() > 0.9  # the grid line between columns 1 and 2
    red = (out[:, :, 2] > 200) & (out[:, :, 1] < 60) & (out[:, :, 0] < 60)
    assert red[150:200, 200:250].any()  # the uncertain centre cell's label is red
    assert red[:120, :300].any()  # the warning line at the top


def test_headless_stays_headless(monkeypatch):
    monkeypatch.setattr(preview.sys, "platform", "linux")
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    said = []
    assert preview.Preview.open(said.append) is None
    assert said == ["no display: running headless without a preview window"]


def test_overlay_draws_a_board_of_squares_as_the_observation_reads_it():
    from vision.observation import SquaresObservation

    coins = [[None] * 12 for _ in range(8)]
    coins[7][11] = "5"
    obs = SquaresObservation(coins=tuple(tuple(row) for row in coins), pawns=(("A", (0, 0)),),
                             square_confidence=((1.0,) * 12,) * 8, uncertain=((0, 0),),
                             board_corners=((100.0, 50.0), (580.0, 50.0), (580.0, 370.0), (100.0, 370.0)))
    out = preview.draw_overlay(np.zeros((420, 640, 3), np.uint8), obs)
    yellow = (out[:, :, 2] > 200) & (out[:, :, 1] > 150) & (out[:, :, 0] < 80)
    assert yellow[52:369, 140].mean() > 0.9  # the line between columns 1 and 2 of 12 (40 px each)
    assert yellow[90, 102:579].mean() > 0.9  # the line between rows 1 and 2 of 8
    red = (out[:, :, 2] > 200) & (out[:, :, 1] < 60) & (out[:, :, 0] < 60)
    green = (out[:, :, 1] > 120) & (out[:, :, 2] < 80)
    assert red[52:89, 102:139].any() and not green[52:89, 102:139].any()  # the pawn, unsure
    assert green[332:369, 542:579].any() and not red[332:369, 542:579].any()  # the 5, sure
    assert not (out[173:208, 303:338] > 0).any()  # an empty square: nothing drawn in it
