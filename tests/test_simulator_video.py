"""Recorded games: the video reads back, and its event truth matches the actions and the pixels."""

import json

import cv2
import numpy as np
import pytest

import rules
from simulator import SimulatorError
from simulator.layouts import easy_slider_layout
from simulator.render import CLEAN
from simulator.video import finishing_game, random_actions, render_game_video

SIZE = (480, 270)


def _frames(path):
    cap = cv2.VideoCapture(str(path))
    out = []
    while True:
        ok, f = cap.read()
        if not ok:
            break
        out.append(f)
    cap.release()
    return out


@pytest.fixture(scope="module")
def game_video(tmp_path_factory):
    layout = easy_slider_layout(4)
    actions = [{"type": "move", "from": [3, 4]}, {"type": "swap", "cells": [[0, 0], [0, 2]]},
               {"type": "pause", "seconds": 0.5}, {"type": "double", "from": [1, 4]}]
    path = tmp_path_factory.mktemp("video") / "game.avi"
    truth = render_game_video(layout, actions, seed=2, fps=10, size=SIZE, path=path, conditions=dict(CLEAN, table="felt"))
    return layout, actions, path, truth


def test_video_reads_back_with_the_truths_frame_count_and_size(game_video):
    _, _, path, truth = game_video
    frames = _frames(path)
    assert len(frames) == truth["frames"] > 0
    assert frames[0].shape == (SIZE[1], SIZE[0], 3)
    assert truth["fps"] == 10 and truth["size"] == list(SIZE)
    assert truth["duration"] == pytest.approx(truth["frames"] / 10)
    json.dumps(truth)


def test_events_follow_the_actions_in_the_caller_watch_schema(game_video):
    layout, _, _, truth = game_video
    ev = truth["events"]
    assert ev[0] == {"t": 0.0, "type": "board", "board": layout["board"]}
    assert [e["type"] for e in ev[1:]] == ["move", "illegal", "illegal"]
    move, swap, double = ev[1:]
    assert move["tile"] == layout["board"][3][4] and move["from"] == [3, 4] and move["to"] == [4, 4]
    assert swap["reason"] == "two tiles changed places" and swap["cells"] == [[0, 0], [0, 2]]
    assert double["reason"] == "two tiles moved at once" and double["cells"] == [[1, 4], [2, 4], [3, 4]]
    times = [e["t"] for e in ev]
    assert times == sorted(times) and all(e["t_hand"] < e["t"] < e["t_clear"] <= truth["duration"] for e in ev[1:])
    assert all(a["t_clear"] <= b["t_hand"] for a, b in zip(ev[1:], ev[2:]))  # one hand at a time
    game = rules.get("easy-slider")
    after_move = game.to_json(game.apply(game.from_json(layout), game.legal_moves(game.from_json(layout))[0]))
    assert truth["timeline"][0]["board"] == after_move["board"]
    b = [row[:] for row in after_move["board"]]
    b[0][0], b[0][2] = b[0][2], b[0][0]
    assert truth["timeline"][1]["board"] == b
    b[3][4], b[2][4], b[1][4] = b[2][4], b[1][4], None
    assert truth["end"]["board"] == b and truth["timeline"][-1]["board"] == b


def test_pixels_change_where_the_events_say_and_rest_elsewhere(game_video):
    layout, _, path, truth = game_video
    frames = [f.astype(float) for f in _frames(path)]
    start = json.loads(json.dumps(truth["start"]))
    from simulator.render import render_table  # the still with the same seed shares the camera

    cells = render_table(start, seed=2, size=SIZE, conditions=dict(CLEAN, table="felt")).truth["cells"]

    def patch(frame, cell):
        q = np.array(cells[cell[0]][cell[1]])
        c = q.mean(0)
        x0, y0 = (c - 0.25 * np.ptp(q, 0)).astype(int)
        x1, y1 = (c + 0.25 * np.ptp(q, 0)).astype(int)
        return frame[y0:y1, x0:x1]

    move = truth["events"][1]
    before = int(move["t"] * 10) - 12  # the hand is still approaching, the tile has not moved
    after = int(np.ceil(move["t_clear"] * 10)) + 1
    assert np.abs(patch(frames[after], [3, 4]) - patch(frames[0], [3, 4])).mean() > 25  # the tile left
    assert np.abs(patch(frames[after], [4, 4]) - patch(frames[0], [4, 4])).mean() > 25  # and filled the hole
    assert np.abs(patch(frames[after], [0, 4]) - patch(frames[0], [0, 4])).mean() < 6  # untouched
    assert np.abs(patch(frames[before], [3, 4]) - patch(frames[0], [3, 4])).mean() < 6


def test_finishing_game_ends_in_done_on_a_solved_board(tmp_path):
    layout, actions = finishing_game(6, 3)
    truth = render_game_video(layout, actions, seed=6, fps=5, size=(320, 180), path=tmp_path / "f.mp4")
    assert truth["events"][-1]["type"] == "done" and truth["events"][-1]["correct"] is True
    assert [e["type"] for e in truth["events"]].count("done") == 1
    game = rules.get("easy-slider")
    assert game.is_over(game.from_json(truth["end"])) and not game.is_over(game.from_json(layout))
    assert len(_frames(tmp_path / "f.mp4")) == truth["frames"]


def test_random_actions_are_legal_moves_with_the_illegal_ones_mixed_in():
    game = rules.get("easy-slider")
    layout = easy_slider_layout(9)
    actions = random_actions(layout, 6, seed=1, illegal=2)
    assert len(actions) == 8 and sum(a["type"] in ("swap", "double") for a in actions) == 2
    assert random_actions(layout, 6, seed=1, illegal=2) == actions
    state = game.from_json(layout)
    for a in actions:
        if a["type"] != "move":
            break
        move = next(m for m in game.legal_moves(state) if list(m.src) == a["from"])
        state = game.apply(state, move)


@pytest.mark.parametrize("action, message", [
    ({"type": "move", "from": [0, 0]}, "not next to the hole"),
    ({"type": "fly"}, "expected a dict with type"),
    ({"type": "swap", "cells": [[0, 0]]}, "two"),
    ({"type": "double", "from": [4, 3]}, "two cells from the hole"),
    ({"type": "pause", "seconds": -1}, "pause seconds"),
])
def test_bad_actions_are_one_line_errors(tmp_path, action, message):
    with pytest.raises(SimulatorError, match=message):
        render_game_video(easy_slider_layout(1), [action], seed=1, size=(320, 180), path=tmp_path / "x.mp4")


def test_bad_video_path_is_an_error(tmp_path):
    with pytest.raises(SimulatorError, match=".mp4 or .avi"):
        render_game_video(easy_slider_layout(1), [], seed=1, path=tmp_path / "x.gif")


def test_flicker_drifts_the_exposure_a_little_and_clean_videos_hold_still(tmp_path):
    layout = easy_slider_layout(2)
    means = {}
    for flicker in (0.0, 1.0):
        path = tmp_path / f"f{flicker}.avi"
        render_game_video(layout, [{"type": "pause", "seconds": 3.0}], seed=3, fps=10, size=(320, 180), path=path,
                          conditions=dict(CLEAN, flicker=flicker))
        means[flicker] = np.array([f.mean() for f in _frames(path)])
    steady, drifting = means[0.0], means[1.0]
    assert np.ptp(steady) < 0.2
    assert 0.003 < np.ptp(drifting) / drifting.mean() < 0.04
