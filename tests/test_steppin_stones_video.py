"""Recorded Steppin' Stones games (``simulator.steppin_stones_video``): the truth of tiny
renders of scripted games (moves, flips, a suit's last flip, illegal actions put back, rolls on
the table and by the Caller, a pawn home and the win), the actions that cannot be filmed, the
seeded games, and a frame read back by the squares reader."""

import cv2
import pytest

from rules.errors import IllegalMove
from rules.steppin_stones.codec import from_json, to_json
from rules.steppin_stones.state import EndTurn, Flip, Move, apply, legal_moves, setup
from simulator.errors import SimulatorError
from simulator.steppin_stones_video import random_game, render_stones_video

TINY = {"fps": 3, "size": (320, 180), "min_square_px": None}
TIMES = ("t", "t_clear", "t_hand")


def without_times(events):
    return [{k: v for k, v in e.items() if k not in TIMES} for e in events]


def suns_near_home(seed=3):
    """setup(seed)'s position with four Suns coins stepping stones (one on [3, 2], by the
    Suns pawn), the Suns 3 left value side up on [2, 0] off its start (now empty), the Suns die
    a phase-2 4 and the Moons die its suit."""
    p = to_json(setup(seed=seed))
    b = p["board"]
    for r, c in [(0, 2), (1, 2), (2, 1), (2, 2)]:
        b[r][c] = "S"
    b[2][0], b[3][2] = "S3", "S"
    b[0][2] = None
    p["roll"][0] = {"suit": "S", "face": "4", "phase": 2, "left": 4}
    p["roll"][1] = {"suit": "M", "face": "s", "phase": 1, "left": 1}
    return p


def all_stones_pawn_home():
    """``suns_near_home`` with the Suns 3 a stone too: the Suns die may be phase 2."""
    p = suns_near_home()
    p["board"][2][0] = "S"
    return p


def one_step_from_winning():
    """All coins stones at their start squares, three pawns home and the Arms pawn on its
    stone [5, 1] by its home tile with a phase-2 2 to spend."""
    p = to_json(setup(seed=3))
    p["board"] = [[None if c is None else c[0] for c in row] for row in p["board"]]
    p["pawns"] = {"S": [1, 1], "M": [1, 6], "C": [6, 6], "A": [5, 1]}
    p["roll"] = [{"suit": "A", "face": "2", "phase": 2, "left": 2}]
    return p


def test_a_scripted_table_game(tmp_path):
    start = setup(seed=5)  # roll S3 M5 Cs A3
    actions = [
        {"type": "move", "from": [7, 2], "to": [6, 4]},  # the Arms 5 with the Moons' 5
        {"type": "flip", "at": [6, 2]},  # no Arms die showing the suit
        {"type": "restore"},
        {"type": "pause", "seconds": 0.5},
        {"type": "flip", "at": [5, 5]},  # a Crowns coin, its die showing the suit
        {"type": "roll"},
    ]
    truth = render_stones_video(start, actions, seed=2, path=tmp_path / "g.mp4", **TINY)
    ev = without_times(truth["events"])
    assert ev == [
        {"type": "board", "board": to_json(start)["board"],
         "pawns": {"S": [3, 3], "M": [3, 4], "C": [4, 4], "A": [4, 3]}},
        {"type": "roll", "turn": 1, "by": "table", "dice": [{"suit": "S", "face": "3"}, {"suit": "M", "face": "5"},
                                                            {"suit": "C", "face": "s"}, {"suit": "A", "face": "3"}]},
        {"type": "move", "piece": "A5", "from": [7, 2], "to": [6, 4], "home": False},
        {"type": "illegal", "code": "flip-no-die", "cells": [[6, 2]],
         "reason": "the Blue 4 may be flipped only when the Blue die shows the Arms"},
        {"type": "restored"},
        {"type": "flip", "at": [5, 5], "suit": "C"},
        {"type": "roll", "turn": 2, "by": "table", "dice": [{"suit": "S", "face": "2"}, {"suit": "M", "face": "s"},
                                                            {"suit": "C", "face": "4"}, {"suit": "A", "face": "4"}]},
    ]
    want = start
    for m in (Move((7, 2), (6, 4)), Flip((5, 5)), EndTurn()):
        want = apply(want, m)
    assert truth["end"] == to_json(want) and truth["start"] == to_json(start)
    assert truth["dice"] == "table" and truth["game"] == "steppin-stones"
    assert truth["actions"] == [*actions[:3], {"type": "pause", "seconds": 0.5}, *actions[4:]]
    assert [s["action"] for s in truth["timeline"]] == [0, 1, 2, 4, 5]
    assert truth["timeline"][1]["position"] is None and truth["timeline"][2]["position"] == truth["timeline"][0]["position"]
    assert truth["timeline"][-1]["position"] == to_json(want)
    hands = [e for e in truth["events"] if "t_hand" in e]
    assert len(hands) == 5 and all(e["t_hand"] < e["t"] <= e["t_clear"] for e in hands)
    assert all(a["t_clear"] <= b["t_hand"] for a, b in zip(hands, hands[1:]))
    assert truth["events"][0]["t"] == truth["events"][1]["t"] == 0.0
    cap = cv2.VideoCapture(str(tmp_path / "g.mp4"))
    assert int(cap.get(cv2.CAP_PROP_FRAME_COUNT)) == truth["frames"]
    cap.release()
    rot = truth["camera"]["rotation_deg"]
    assert min(rot, 360 - rot) <= 35 and truth["camera"]["tilt_deg"] <= 35


def test_the_last_flip_starts_phase_two_and_a_pawn_goes_home(tmp_path):
    start = all_stones_pawn_home()
    actions = [
        {"type": "flip", "at": [5, 1]},  # the Arms die shows no suit
        {"type": "restore"},
        {"type": "move", "from": [3, 3], "to": [3, 2]},  # the Suns pawn onto its stone (a phase-2 4)
        {"type": "move", "from": [3, 2], "to": [1, 1]},  # on over its stones and home
        {"type": "move", "from": [1, 2], "to": [1, 3]},  # a Suns stone: the die is gone with the pawn home
        {"type": "restore"},
        {"type": "flip", "at": [2, 5]},  # the Moons null: the Moons die shows the suit
        {"type": "roll"},
    ]
    truth = render_stones_video(start, actions, seed=4, path=tmp_path / "g.mp4", **TINY)
    ev = without_times(truth["events"])
    assert [e["type"] for e in ev] == ["board", "roll", "illegal", "restored", "move", "move", "illegal", "restored",
                                       "flip", "roll"]
    assert ev[2]["code"] == "flip-no-die" and ev[2]["cells"] == [[5, 1]]
    assert ev[4] == {"type": "move", "piece": "@S", "from": [3, 3], "to": [3, 2], "home": False}
    assert ev[5] == {"type": "move", "piece": "@S", "from": [3, 2], "to": [1, 1], "home": True}
    assert ev[6]["code"] == "stone-too-early" and ev[6]["cells"] == [[1, 2], [1, 3]]
    # the Suns die is carried off the table at the roll: three dice land
    assert [d["suit"] for d in ev[9]["dice"]] == ["M", "C", "A"] and ev[9]["turn"] == 2
    assert from_json(truth["end"]).pawn(from_json(truth["end"]).dice[0].suit) != (1, 1)

    start = suns_near_home()
    start["roll"][0] = {"suit": "S", "face": "s", "phase": 1, "left": 1}
    truth = render_stones_video(start, [{"type": "flip", "at": [2, 0]}], seed=4, path=tmp_path / "p.mp4", **TINY)
    flip, phase = truth["events"][2:4]
    assert without_times([flip, phase]) == [{"type": "flip", "at": [2, 0], "suit": "S"},
                                            {"type": "phase", "suit": "S", "phase": 2}]
    assert phase["t"] == flip["t_clear"]
    assert from_json(truth["end"]).in_phase_two(from_json(truth["end"]).dice[0].suit)


def test_the_winning_move_ends_the_game(tmp_path):
    start = one_step_from_winning()
    win = [{"type": "move", "from": [5, 1], "to": [6, 1]}]
    truth = render_stones_video(start, win, seed=1, path=tmp_path / "w.mp4", **TINY)
    assert without_times(truth["events"][2:]) == [{"type": "move", "piece": "@A", "from": [5, 1], "to": [6, 1],
                                                   "home": True}, {"type": "won"}]
    assert truth["events"][3]["t"] == truth["events"][2]["t_clear"]
    with pytest.raises(SimulatorError, match=r"action 1: the game is over \(won\): nothing more may be done"):
        render_stones_video(start, win + [{"type": "roll"}], seed=1, path=tmp_path / "x.mp4", **TINY)


def test_the_caller_rolls_when_nothing_else_is_left(tmp_path):
    start, actions = random_game(5, 3, dice="caller")
    assert not any(a["type"] == "roll" for a in actions)
    truth = render_stones_video(start, actions, seed=5, path=tmp_path / "c.mp4", dice="caller", **TINY)
    ev = truth["events"]
    rolls = [e for e in ev if e["type"] == "roll"]
    assert [(e["turn"], e["by"]) for e in rolls] == [(1, "caller"), (2, "caller"), (3, "caller"), (4, "caller")]
    for k, e in enumerate(ev):
        if e["type"] == "roll" and e["turn"] > 1:
            assert set(e) == {"t", "type", "turn", "dice", "by"} and e["t"] == ev[k - 1]["t_clear"]
    # the rules agree: each roll came when the dice were spent
    state = setup(seed=5)
    for a in actions:
        if a["type"] == "restore":
            continue
        move = Flip(tuple(a["at"])) if a["type"] == "flip" else Move(tuple(a["from"]), tuple(a["to"]))
        try:
            state = apply(state, move)
        except IllegalMove:
            continue
        while legal_moves(state) == [EndTurn()]:
            state = apply(state, EndTurn())
    assert truth["end"] == to_json(state) and truth["dice"] == "caller"
    assert rolls[-1]["dice"] == [{"suit": d["suit"], "face": d["face"]} for d in to_json(state)["roll"]] and [d["face"] for d in rolls[-1]["dice"]] == \
        ["2", "s", "5", "s"]


def test_a_seeded_game_replays_and_its_illegal_actions_are_illegal():
    start, actions = random_game(8, 5, illegal=3)
    again = random_game(8, 5, illegal=3)
    assert (to_json(start), actions) == (to_json(again[0]), again[1])
    assert random_game(9, 5, illegal=3)[1] != actions
    state, wrong, rolls = start, 0, 0
    for k, a in enumerate(actions):
        if a["type"] == "restore":
            continue
        if a["type"] == "roll":
            state, rolls = apply(state, EndTurn()), rolls + 1
            continue
        move = Flip(tuple(a["at"])) if a["type"] == "flip" else Move(tuple(a["from"]), tuple(a["to"]))
        if actions[k + 1:k + 2] == [{"type": "restore"}]:
            with pytest.raises(IllegalMove):
                apply(state, move)
            wrong += 1
        else:
            state = apply(state, move)
    assert wrong == 3 and rolls == 5


@pytest.mark.parametrize("start, actions, kw, message", [
    ("large", [], {}, r"start position: options .*: only the standard table is filmed \(8x8, no aces, not the "
                      r"larger board\)"),
    ({"board": 3}, [], {}, "start position: "),
    (None, [], {"dice": "bag"}, "dice 'bag': expected 'table' or 'caller'"),
    (None, [{"type": "roll"}], {"dice": "caller"}, "action 0: a roll with dice='caller': the Caller rolls the dice"),
    ("owed", [{"type": "roll"}], {}, "action 0: a roll now is not allowed: "),
    (None, [{"type": "restore"}], {}, "action 0: a restore here is out of turn: expected a move, a flip, a roll"),
    (None, [{"type": "flip", "at": [6, 2]}, {"type": "roll"}], {},
     r"action 1: a roll here is out of turn: expected a restore or a pause \(an illegal action stands\)"),
    (None, [{"type": "move", "from": [0, 0], "to": [0, 1]}], {}, r"action 0: nothing lies on \[0, 0\]"),
    (None, [{"type": "move", "from": [2, 0], "to": [2, 1]}], {}, r"action 0: a coin lies on \[2, 1\]"),
    (None, [{"type": "move", "from": [3, 3], "to": [3, 4]}], {}, r"action 0: a pawn stands on \[3, 4\]"),
    (None, [{"type": "flip", "at": [0, 0]}], {}, r"action 0: no coin lies on \[0, 0\]"),
    ("stones", [{"type": "flip", "at": [0, 3]}], {}, r"action 0: the coin on \[0, 3\] is suit side up already"),
    (None, [{"type": "move", "from": [8, 0], "to": [0, 1]}], {}, r"action 0 'from' \[8, 0\] is not on the 8x8 board"),
    (None, [{"type": "jump"}], {}, "action 0 .*: expected a dict with type move, flip, roll, restore, pause"),
])
def test_what_cannot_be_filmed_is_one_line(start, actions, kw, message, tmp_path):
    if start is None:
        start = setup(seed=5)
    elif start == "large":
        start = setup(seed=5, large=True)
    elif start == "owed":
        start = setup(seed=5)  # the Crowns die shows its suit: a flip is owed
    elif start == "stones":
        start = to_json(setup(seed=5))
        start["board"][0][3] = "M"
        start["board"][0][5] = None
    with pytest.raises(SimulatorError, match=message) as err:
        render_stones_video(start, actions, seed=1, path=tmp_path / "x.mp4", **{**TINY, **kw})
    assert "\n" not in str(err.value)


def test_a_frame_reads_back_as_the_truth_s_board(tmp_path):
    from rules.steppin_stones.table import TABLE
    from vision.table_reader import SquaresReader

    start = all_stones_pawn_home()
    actions = [{"type": "flip", "at": [2, 6]}]  # the Moons 2 turned to a stepping stone
    truth = render_stones_video(start, actions, seed=6, fps=1, size=(1280, 720), path=tmp_path / "r.mp4")
    cap = cv2.VideoCapture(str(tmp_path / "r.mp4"))
    cap.set(cv2.CAP_PROP_POS_FRAMES, truth["frames"] - 1)
    ok, frame = cap.read()
    cap.release()
    assert ok
    got = SquaresReader(TABLE).read(frame).to_json()
    end = truth["end"]
    # the camera sees a coin's side: a value coin's rank, a stone's suit
    assert got["board"] == [[None if c is None else c[-1] if len(c) == 2 else c for c in row] for row in end["board"]]
    assert end["board"][2][6] == "M"
    assert got["pawns"] == end["pawns"] == {"S": [3, 3], "M": [3, 4], "C": [4, 4], "A": [4, 3]}
    assert got["dice"] == [{"suit": d["suit"], "face": d["face"]} for d in end["roll"]]


def test_the_seeded_games_mix_in_every_illegal_kind():
    from simulator.steppin_stones_video import ILLEGAL_KINDS, _illegal_actions

    kinds = set()
    for seed in range(4):
        start, actions = random_game(seed, 5, illegal=3)
        state = start
        for k, a in enumerate(actions):
            if a["type"] == "restore":
                continue
            if actions[k + 1:k + 2] == [{"type": "restore"}]:
                kinds.add(next(kind for kind, acts in _illegal_actions(state).items() if a in acts))
                continue
            state = apply(state, EndTurn() if a["type"] == "roll" else Flip(tuple(a["at"])) if a["type"] == "flip"
                          else Move(tuple(a["from"]), tuple(a["to"])))
    assert kinds == set(ILLEGAL_KINDS)
