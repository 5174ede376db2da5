"""Recorded Slider games (``simulator.slider_video``): the truth a tiny render gives, checked
against the rules engine and against the live Caller fed the truth's own timeline (no camera),
and the actions that cannot be filmed."""

import cv2
import pytest

from caller.live import LiveCaller
from caller.referees.slider_live import SliderLive
from rules.slider.codec import from_json
from simulator.errors import SimulatorError
from simulator.slider_video import ROTATION_RANGE, ai_game, random_game, render_slider_video
from tests.test_slider_live import observe

TINY = {"fps": 5, "size": (128, 72), "min_square_px": None}


def without_times(events):
    return [{k: v for k, v in e.items() if k not in ("t", "t_clear", "t_hand")} for e in events]


def test_a_random_game_with_illegal_moves_and_its_truth(tmp_path):
    start, actions = random_game(3, 6, illegal=2, n=4)
    assert actions == [
        {"type": "move", "from": [0, 3], "to": [1, 3]},
        {"type": "move", "from": [1, 0], "to": [2, 0]}, {"type": "restore"},  # Blue's coin set on Blue's
        {"type": "move", "from": [2, 0], "to": [2, 1]}, {"type": "move", "from": [1, 3], "to": [2, 3]},
        {"type": "move", "from": [1, 0], "to": [2, 0]}, {"type": "move", "from": [0, 1], "to": [0, 0]},
        {"type": "move", "from": [2, 0], "to": [3, 0]}, {"type": "restore"},
        {"type": "move", "from": [2, 1], "to": [2, 2]}]
    truth = render_slider_video(start, actions, seed=3, path=tmp_path / "g.mp4", **TINY)
    ev = without_times(truth["events"])
    assert [e["type"] for e in ev] == ["board", "turn", "move", "turn", "illegal", "restored", "move", "turn", "move",
                                       "turn", "move", "turn", "move", "turn", "illegal", "restored", "move", "turn"]
    assert ev[1] == {"type": "turn", "side": None, "first": True}  # either player may start
    assert ev[2] == {"type": "move", "side": "H", "from": [0, 3], "to": [1, 3]}
    assert ev[4] == {"type": "illegal", "code": "occupied", "squares": [[1, 0], [2, 0]],
                     "reason": "illegal move (1,0): RIGHT: square (2,0) is taken by V"}
    assert ev[14]["code"] == "occupied" and ev[14]["squares"] == [[2, 0], [3, 0]]
    # the camera sees the top coin of the two
    assert truth["timeline"][1]["board"][3] == [None, None, "V", "V"] and truth["timeline"][1]["position"] is None
    # the end is the rules engine's, the frames those written
    assert from_json(truth["end"]).h == frozenset({(2, 3), (0, 2), (0, 0)})
    # the live Caller fed the truth's boards warns too: to the camera a coin set on its own side's
    # coin has left the board
    said = replay(truth, SliderLive())
    assert [e.type for e in said] == [e["type"] for e in ev]
    assert said[4].say == "Illegal move. Blue leaves the board only off the top edge: put the coin back on column 1, row 0."
    cap = cv2.VideoCapture(str(tmp_path / "g.mp4"))
    assert int(cap.get(cv2.CAP_PROP_FRAME_COUNT)) == truth["frames"]
    cap.release()
    rot = truth["camera"]["rotation_deg"]
    assert min(rot, 360 - rot) <= max(abs(r) for r in ROTATION_RANGE)  # the camera on the players' side
    for e in truth["events"]:
        if "t_hand" in e:
            assert e["t_hand"] < e["t"] <= e["t_clear"]


def replay(truth, ref):
    """The live Caller fed the truth's timeline as exact reads (each board read twice, as the
    loop's confirming re-read does), with the start first."""
    live = LiveCaller(ref)
    start = from_json(truth["start"])
    events = live.on_position(0.0, ref.reading(observe(start)))
    for k, step in enumerate(truth["timeline"]):
        board = from_json({"n": start.n, "board": step["board"], "to_move": "H"})
        for again in (0.0, 0.2):
            events += live.on_position(step["t"] + again, ref.reading(observe(board)))
    return events


def test_an_illegal_first_move_is_illegal_for_either_player():
    """Either player may make a game's first move: the other side's step there is no illegal
    move. Seed 740196 drew one as the first move's illegal one, and its film was refused (a
    restore after a legal move)."""
    from rules.slider.board import Side

    start, actions = random_game(740196, 14, illegal=2, n=6)
    assert actions[1] == {"type": "restore"}
    frm, to = tuple(actions[0]["from"]), tuple(actions[0]["to"])
    for side in Side:
        assert all((m.square, m.target()) != (frm, to) for m in start.piece_moves(side))


def test_the_live_caller_says_what_the_truth_says_from_the_truth_s_boards(tmp_path):
    start, actions = random_game(8, 10, illegal=3, n=4)
    truth = render_slider_video(start, actions, seed=8, path=tmp_path / "g.mp4", **TINY)
    said = replay(truth, SliderLive())
    want = [(e["type"], e.get("side"), e.get("from"), e.get("to")) for e in truth["events"]]
    got = [(e.type, e.data.get("side"), e.data.get("from"), e.data.get("to")) for e in said]
    assert got == want and len(want) > 10


def test_an_ai_game_s_calls_are_the_live_caller_s(tmp_path):
    start, actions = ai_game(4, 9, ai="V", level=2, n=4, illegal=1)
    truth = render_slider_video(start, actions, seed=4, path=tmp_path / "g.mp4", ai="V", level=2, **TINY)
    calls = [e for e in truth["events"] if e["type"] == "call"]
    # one for each of the computer's four moves, and one for the move after the recording ends
    assert len(calls) == 5 and all(e["side"] == "V" for e in calls)
    said = replay(truth, SliderLive(ai="V", level=2))
    want = [(e["type"], e.get("from"), e.get("to")) for e in truth["events"]]
    got = [(e.type, e.data.get("from"), e.data.get("to")) for e in said]
    assert got == want
    assert not any(e.type == "different" for e in said)


@pytest.mark.parametrize("actions, message", [
    ([{"type": "restore"}], "action 0: a restore here is out of turn: expected a move or a pause"),
    ([{"type": "move", "from": [0, 1], "to": [1, 2]}, {"type": "move", "from": [1, 0], "to": [1, 1]}],
     r"action 1: a move here is out of turn: expected a restore or a pause \(an illegal move stands\)"),
    ([{"type": "move", "from": [2, 2], "to": [2, 3]}], r"action 0: no coin stands on \[2, 2\]"),
    ([{"type": "move", "from": [0, 1], "to": [0, 3]}], r"action 0: square \[0, 3\] is not free \(a coin is stacked "
                                                        r"only on a coin one square away\)"),
    ([{"type": "move", "from": [1, 0], "to": None}], r"action 0: the V coin on \[1, 0\] is not on its far edge"),
    ([{"type": "jump"}], "action 0 .*: expected a dict with type move, restore, pause"),
])
def test_actions_that_cannot_be_filmed_are_refused(actions, message, tmp_path):
    start, _ = random_game(3, 1, n=4)
    with pytest.raises(SimulatorError, match=message):
        render_slider_video(start, actions, seed=1, path=tmp_path / "x.mp4", **TINY)


def test_the_benchmark_scores_a_game_called_as_its_truth_says(tmp_path):
    from benchmarks.bench_slider_live import score

    start, actions = ai_game(5, 8, ai="H", level=2, n=4, illegal=1)
    truth = render_slider_video(start, actions, seed=5, path=tmp_path / "g.mp4", ai="H", level=2, **TINY)
    got = score(replay(truth, SliderLive(ai="H", level=2)), truth)
    assert {k: v for k, v in got.items() if k != "illegal_latency"} == {
        "moves": 8, "moves_ok": 8, "moves_exact": True, "illegal": 1, "illegal_said": 1, "false_illegal": 0,
        "calls": 4, "calls_ok": 4, "different": 0, "end": None, "end_said": None}
    # a Caller that missed a move and warned twice is scored so
    said = replay(truth, SliderLive(ai="H", level=2))
    moves = [e for e in said if e.type == "move"]
    said = [e for e in said if e is not moves[3]]
    said.append(next(e for e in said if e.type == "illegal"))
    worse = score(said, truth)
    assert (worse["moves_ok"], worse["moves_exact"], worse["false_illegal"]) == (7, False, 1)
