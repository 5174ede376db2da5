"""Recorded Scavenger Hunt games: the video reads back, its events are exactly what the hands
did, every board in its truth is the rules engine's, illegal actions stay on the table until
put back, and a collected coin ends suit side up by its owner's corner."""

import json

import cv2
import numpy as np
import pytest

from rules.grid import Direction
from rules.scavenger_hunt import reasons
from rules.scavenger_hunt.codec import to_json
from rules.scavenger_hunt.state import Shift, Turn, apply, rook_reason, setup
from simulator import SimulatorError
from simulator.render import CLEAN
from simulator.scavenger_hunt_video import (
    double_shift_reason, random_game, render_scavenger_hunt_video, shifted_twice, square_px, table_of,
)

SIZE = (160, 90)
COND = dict(CLEAN, table="felt")
LEFT, RIGHT = Direction.LEFT, Direction.RIGHT

# Two players (Red S from the near-left corner 7,0; Black M from the far-right corner 0,11), deal 1.
# Red collects the Red 2, Black peeks at a null and leaves it, Red reverses Black's shift (put
# back), moves past a coin (put back), moves legally, then Black pushes a row two tiles.
ACTIONS = [
    {"type": "shift", "line": "row", "index": 1, "direction": "left"}, {"type": "move", "to": [3, 0]}, {"type": "peek"},
    {"type": "shift", "line": "row", "index": 0, "direction": "left"}, {"type": "move", "to": [6, 9]}, {"type": "peek"},
    {"type": "pause", "seconds": 0.5},
    {"type": "shift", "line": "row", "index": 0, "direction": "right"}, {"type": "restore"},
    {"type": "shift", "line": "row", "index": 0, "direction": "left"}, {"type": "move", "to": [0, 0]},
    {"type": "restore"}, {"type": "move", "to": [2, 0]},
    {"type": "shift", "line": "row", "index": 0, "direction": "left", "by": 2},
]
TURNS = [Turn(Shift("row", 1, LEFT), (3, 0)), Turn(Shift("row", 0, LEFT), (6, 9)), Turn(Shift("row", 0, LEFT), (2, 0))]


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


def _without_times(event):
    return {k: v for k, v in event.items() if k not in ("t", "t_clear", "t_hand")}


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    start = setup(1, players=2)
    path = tmp_path_factory.mktemp("shvideo") / "game.avi"
    truth = render_scavenger_hunt_video(to_json(start), ACTIONS, seed=3, fps=4, size=SIZE, path=path, conditions=COND)
    return start, path, truth


def test_video_reads_back_with_the_truths_frame_count_and_size(game):
    _, path, truth = game
    frames = _frames(path)
    assert len(frames) == truth["frames"] > 0
    assert frames[0].shape == (SIZE[1], SIZE[0], 3)
    assert truth["game"] == "scavenger-hunt" and truth["fps"] == 4 and truth["size"] == list(SIZE)
    assert truth["duration"] == pytest.approx(truth["frames"] / 4)
    assert truth["camera"]["tilt_deg"] <= 35
    json.dumps(truth)


def test_events_are_exactly_what_the_hands_did(game):
    start, _, truth = game
    ev = truth["events"]
    values = to_json(setup(1, players=2, mode="public"))["coins"]
    assert ev[0] == {"t": 0.0, "type": "board", "board": to_json(start), "players": ["S", "M"],
                     "pawns": {"S": [7, 0], "M": [0, 11]}, "coins": values}
    assert values[3][2] == "2" and values[6][9] == "n"
    assert [_without_times(e) for e in ev[1:]] == [
        {"type": "turn", "player": "S", "first": True},
        {"type": "shift", "player": "S", "line": "row", "index": 1, "direction": "left"},
        {"type": "move", "pawn": "S", "from": [7, 0], "to": [3, 0], "coin": "2"},
        {"type": "collect", "player": "S", "value": "2", "coin": "S2", "square": [3, 0], "count": 1},
        {"type": "turn", "player": "M", "turn": 1},
        {"type": "shift", "player": "M", "line": "row", "index": 0, "direction": "left"},
        {"type": "move", "pawn": "M", "from": [0, 9], "to": [6, 9], "coin": "n"},
        {"type": "peek", "player": "M", "square": [6, 9], "value": "n"},
        {"type": "turn", "player": "S", "turn": 2},
        {"type": "illegal", "code": "reversed", "squares": [],
         "reason": "shift R1> reverses Black's shift R1<; not allowed until Black has completed another turn",
         "cells": [[1, 0], [1, 1], [1, 2], [1, 4], [1, 5], [1, 7], [1, 11]]},
        {"type": "restored"},
        {"type": "shift", "player": "S", "line": "row", "index": 0, "direction": "left"},
        {"type": "illegal", "code": "past-coin", "squares": [[1, 0]],
         "reason": "the pawn stops on the first coin it passes: the coin on 2,1", "cells": [[0, 0], [3, 0]]},
        {"type": "restored"},
        {"type": "move", "pawn": "S", "from": [3, 0], "to": [2, 0], "coin": None},
        {"type": "turn", "player": "M", "turn": 3},
        {"type": "illegal", "code": "no-shift", "squares": [],
         "reason": "no shift of one row or column of tiles by one tile explains where the coins and pawns went",
         "cells": [[1, 0], [1, 3], [1, 5], [1, 6], [1, 8], [1, 9], [1, 10], [1, 11]]},
    ]
    times = [e["t"] for e in ev]
    assert times == sorted(times)
    handled = [e for e in ev if "t_hand" in e]
    assert all(e["t_hand"] < e["t"] < e["t_clear"] <= truth["duration"] for e in handled)
    # a turn is over when the hand that finished it has left
    for before, e in zip(ev[1:], ev[2:]):
        if e["type"] == "turn":
            assert e["t"] == before["t_clear"]


def test_every_board_in_the_truth_is_the_rules_engines(game):
    start, _, truth = game
    s1 = apply(start, TURNS[0])
    s2 = apply(s1, TURNS[1])
    s3 = apply(s2, TURNS[2])
    assert to_json(s1)["collected"] == [["2"], []]  # the engine collects the Red 2 here

    def mid(state, shift):
        coins, pawns = state.shifted(shift)
        return {**table_of(state), "coins": coins.to_lists(lambda v: v.code),
                "pawns": {s.code: list(p) for s, p in zip(state.players, pawns)}}

    def moved(table, suit, square):
        return {**table, "pawns": {**table["pawns"], suit: list(square)}}

    r1_right = Shift("row", 0, RIGHT)
    twice_coins, twice_pawns = shifted_twice(s3, Shift("row", 0, LEFT))
    expected = [
        (0, mid(start, TURNS[0].shift), None),
        (1, moved(mid(start, TURNS[0].shift), "S", (3, 0)), None),
        (2, table_of(s1), to_json(s1)),
        (3, mid(s1, TURNS[1].shift), None),
        (4, moved(mid(s1, TURNS[1].shift), "M", (6, 9)), None),
        (5, table_of(s2), to_json(s2)),
        (7, mid(s2, r1_right), None),  # the reversed shift stands until it is put back
        (8, table_of(s2), to_json(s2)),
        (9, mid(s2, TURNS[2].shift), None),
        (10, moved(mid(s2, TURNS[2].shift), "S", (0, 0)), None),  # the pawn past the coin, not yet put back
        (11, mid(s2, TURNS[2].shift), None),
        (12, table_of(s3), to_json(s3)),
        (13, {**table_of(s3), "coins": twice_coins.to_lists(lambda v: v.code),
              "pawns": {s.code: list(p) for s, p in zip(s3.players, twice_pawns)}}, None),
    ]
    got = [(e["action"], e["table"], e["position"]) for e in truth["timeline"]]
    assert got == expected
    assert truth["start"] == to_json(start) and truth["end"] == to_json(s3)
    assert [e["t"] for e in truth["timeline"]] == sorted(e["t"] for e in truth["timeline"])
    assert truth["actions"][1] == {"type": "move", "pawn": "S", "from": [7, 0], "to": [3, 0]}
    assert truth["actions"][2] == {"type": "peek", "keep": True} and truth["actions"][5] == {"type": "peek", "keep": False}
    assert truth["actions"][13] == {"type": "shift", "line": "row", "index": 0, "direction": "left", "by": 2}


def test_the_collected_coin_ends_suit_side_up_by_its_owners_corner(tmp_path):
    start = setup(1, players=2)
    path = tmp_path / "collect.avi"
    truth = render_scavenger_hunt_video(start, ACTIONS[:3], seed=3, fps=2, size=(640, 360), path=path, conditions=COND)
    assert truth["timeline"][-1]["table"]["collected"] == {"S": ["S2"], "M": []}
    assert truth["end"]["collected"] == [["2"], []] and truth["end"]["coins"][3][2] is None
    (x, y), = truth["collected_points"]["S"]
    corners = np.array(truth["board_corners"], np.float32)  # far-left, far-right, near-right, near-left
    assert cv2.pointPolygonTest(corners, (x, y), True) < -3  # off the board
    nearest = int(np.argmin(np.linalg.norm(corners - [x, y], axis=1)))
    assert nearest == 3  # Red's pawn started on the near-left corner square
    frames = _frames(path)
    first, last = (f[int(y) - 3:int(y) + 4, int(x) - 3:int(x) + 4].reshape(-1, 3).astype(int) for f in (frames[0], frames[-1]))

    def suns_ink(px):  # the Suns' orange-red symbol of the suit side (a value side is black on white)
        return int(((px[:, 2] > 150) & (px[:, 0] < 110) & (px[:, 2] - px[:, 1] > 50)).sum())

    assert suns_ink(last) >= 3 and suns_ink(first) == 0


def test_players_keen_on_coins_end_a_game_soon_and_players_blind_to_them_play_on():
    def moves(**eyes):
        return sum(a["type"] == "move" for a in random_game(730000, 60, players=2, **eyes)[1])

    # every collecting turn taken, every turn onto a coin: a winner after 16 turns; none taken
    # but by chance: all 60 turns played (the memory benchmark's long game)
    assert (moves(keen=1.0, greed=1.0), moves(keen=0.0, greed=0.0)) == (16, 60)
    assert random_game(5, 12, players=4) == random_game(5, 12, players=4, keen=0.5, greed=0.6)


def test_random_games_are_the_rules_engines_turns_with_illegal_actions_put_back():
    start_json, actions = random_game(5, 12, players=4, illegal=8)
    assert (start_json, actions) == random_game(5, 12, players=4, illegal=8)
    state = setup(5, players=4)
    assert start_json == to_json(state)
    i, turns, illegal = 0, 0, 0
    while i < len(actions):
        act = actions[i]
        me = state.to_move
        if act["type"] == "shift":
            shift = Shift.from_json({k: act[k] for k in ("line", "index", "direction")})
            if act.get("by") == 2:
                assert double_shift_reason(state, shift) is not None and actions[i + 1] == {"type": "restore"}
                illegal, i = illegal + 1, i + 2
                continue
            if shift in state.barred_shifts():
                assert actions[i + 1] == {"type": "restore"}
                illegal, i = illegal + 1, i + 2
                continue
            i += 1
            coins, pawns = state.shifted(shift)
            nxt = actions[i]
            if nxt["type"] == "move" and rook_reason(coins, pawns, state.players, me, tuple(nxt["to"])) is not None:
                assert rook_reason(coins, pawns, state.players, me, tuple(nxt["to"])).code in (
                    reasons.PAST_COIN, reasons.PAST_PAWN)
                assert actions[i + 1] == {"type": "restore"}
                illegal, i = illegal + 1, i + 2
                nxt = actions[i]
            to = tuple(nxt["to"]) if nxt["type"] == "move" else pawns[me]
            on_coin = nxt["type"] == "move" and coins[to] is not None
            i += 1
            if on_coin:
                if actions[i] == {"type": "peek", "keep": True}:  # a coin of another suit kept, then put back
                    assert coins[to].suit != state.mover and actions[i + 1] == {"type": "restore"}
                    illegal, i = illegal + 1, i + 2
                assert actions[i] == {"type": "peek"}
                i += 1
            state = apply(state, Turn(shift, to))
            turns += 1
        else:
            pytest.fail(f"action {i} {act} does not start a turn")
    assert illegal == 8 and turns == 12 and state.turn == 12


def test_actions_a_camera_could_not_film_or_out_of_turn_are_refused(tmp_path):
    start = setup(1, players=2)
    path = tmp_path / "x.avi"
    shift = {"type": "shift", "line": "row", "index": 1, "direction": "left"}
    cases = [
        ([{"type": "move", "to": [3, 0]}], "a move here is out of turn: expected shift or pause"),
        ([shift, {"type": "peek"}], "a peek here is out of turn: expected move or stay or pause"),
        ([shift, {"type": "stay"}], "the pawn may not stay"),
        ([shift, {"type": "move", "to": [0, 11]}], r"square \[0, 11\] holds the M pawn"),
        ([shift, {"type": "move", "to": [3, 0]}, {"type": "peek", "keep": False}], "the rules say True for the S2 coin"),
        ([{"type": "shift", "line": "row", "index": 0, "direction": "right", "by": 2}, shift],
         "a shift here is out of turn: expected restore or pause"),  # played on before putting it back
        ([{"type": "shift", "line": "diagonal", "index": 0, "direction": "left"}], "bad shift axis 'diagonal'"),
        ([{"type": "jump"}], "expected a dict with type shift, move, stay, peek, restore, pause"),
    ]
    for actions, match in cases:
        with pytest.raises(SimulatorError, match=match):
            render_scavenger_hunt_video(start, actions, seed=1, fps=2, size=(64, 36), path=path)
    public = to_json(setup(1, players=2, mode="public"))
    with pytest.raises(SimulatorError, match="referee-mode position"):
        render_scavenger_hunt_video(public, [], seed=1, fps=2, size=(64, 36), path=path)


def test_caller_render_films_a_scavenger_hunt_game(tmp_path, capsys):
    from caller.cli import main

    out = tmp_path / "hunt.avi"
    assert main(["render", "--game", "scavenger-hunt", "--seed", "4", "--video", "--moves", "1", "--players", "2",
                 "--fps", "2", "--size", "96x54", "--clean", "-o", str(out)]) == 0
    truth = json.loads((tmp_path / "hunt.json").read_text())
    start, actions = random_game(4, 1, players=2)
    assert truth["start"] == start and truth["events"][0]["board"] == start
    assert [a["type"] for a in truth["actions"]] == [a["type"] for a in actions]
    assert truth["events"][-1]["type"] == "turn" and truth["events"][-1]["turn"] == 1
    assert len(_frames(out)) == truth["frames"]
    capsys.readouterr()
    assert main(["render", "--game", "scavenger-hunt", "--seed", "4", "--video", "--finish", "-o", str(tmp_path / "x.avi")]) == 2
    err = capsys.readouterr().err
    assert err == "caller: error: --finish is for Easy Slider videos; a Scavenger Hunt video plays --moves turns\n"


def test_the_sixth_coin_wins_and_ends_the_game(tmp_path):
    # Red holds five coins; the Red Null lies on 8,5, four squares right of Red's pawn
    coins = [[None] * 12 for _ in range(8)]
    coins[2][9], coins[7][4] = "Mn", "Sn"
    start = {"game": "scavenger-hunt", "players": ["S", "M"], "to_move": 0, "turn": 7, "pawns": [[7, 0], [0, 11]],
             "coins": coins, "collected": [["a", "2", "3", "4", "5"], ["a", "2", "3", "4", "5"]],
             "last_shifts": [None, {"line": "row", "index": 3, "direction": "right"}]}
    actions = [{"type": "shift", "line": "row", "index": 0, "direction": "right"}, {"type": "move", "to": [7, 4]},
               {"type": "peek"}, {"type": "pause", "seconds": 1}]
    truth = render_scavenger_hunt_video(start, actions, seed=2, fps=2, size=(64, 36), path=tmp_path / "won.avi")
    tail = [_without_times(e) for e in truth["events"][-3:]]
    assert tail == [{"type": "move", "pawn": "S", "from": [7, 0], "to": [7, 4], "coin": "n"},
                    {"type": "collect", "player": "S", "value": "n", "coin": "Sn", "square": [7, 4], "count": 6},
                    {"type": "won", "player": "S", "collected": 6}]
    assert truth["end"]["collected"][0] == ["n", "a", "2", "3", "4", "5"] and truth["end"]["turn"] == 8
    assert len(truth["collected_points"]["S"]) == 6 and len(truth["collected_points"]["M"]) == 5
    with pytest.raises(SimulatorError, match="a shift here is out of turn: expected pause"):
        render_scavenger_hunt_video(start, actions + [actions[0]], seed=2, fps=2, size=(64, 36), path=tmp_path / "x.avi")


def test_a_diagonal_move_and_another_players_pawn_are_illegal(tmp_path):
    start = setup(1, players=2)
    actions = [{"type": "shift", "line": "row", "index": 1, "direction": "left"},
               {"type": "move", "to": [6, 1]}, {"type": "restore"},
               {"type": "move", "pawn": "M", "to": [1, 11]}, {"type": "restore"}, {"type": "move", "to": [3, 0]}]
    truth = render_scavenger_hunt_video(start, actions, seed=2, fps=2, size=(64, 36), path=tmp_path / "bad.avi")
    illegal = [_without_times(e) for e in truth["events"] if e["type"] == "illegal"]
    assert illegal == [
        {"type": "illegal", "code": "diagonal", "squares": [[7, 0], [6, 1]], "cells": [[6, 1], [7, 0]],
         "reason": "the pawn moves like a rook, in a straight line; 8,1 to 7,2 is diagonal"},
        {"type": "illegal", "code": "wrong-pawn", "squares": [[0, 11], [1, 11]], "cells": [[0, 11], [1, 11]],
         "reason": "it is Red's turn, but the Black pawn moved from 1,12 to 2,12"},
    ]
    assert truth["timeline"][3]["table"]["pawns"] == {"S": [7, 0], "M": [1, 11]}  # left as moved until put back
    assert truth["timeline"][4]["table"]["pawns"] == {"S": [7, 0], "M": [0, 11]}
    # the video may end mid-turn: the pawn stands on the Red 2, not yet peeked at
    assert _without_times(truth["events"][-1]) == {"type": "move", "pawn": "S", "from": [7, 0], "to": [3, 0], "coin": "2"}
    assert truth["timeline"][-1]["position"] is None and truth["end"] == to_json(start)


def test_a_coin_of_another_suit_kept_is_illegal_and_put_back(tmp_path):
    start = setup(1, players=2)
    actions = ACTIONS[:5] + [{"type": "peek", "keep": True}, {"type": "restore"}, {"type": "peek"}]
    truth = render_scavenger_hunt_video(start, actions, seed=3, fps=2, size=(64, 36), path=tmp_path / "kept.avi")
    assert [_without_times(e) for e in truth["events"][8:]] == [
        {"type": "illegal", "code": "wrong-peek", "squares": [[6, 9]], "cells": [[6, 9]],
         "reason": "the coin on 7,10 is the Red Null: Black cannot collect it"},
        {"type": "restored"},
        {"type": "peek", "player": "M", "square": [6, 9], "value": "n"},
        {"type": "turn", "player": "S", "turn": 2},
    ]
    kept, restored, peeked = truth["timeline"][5:]
    assert kept["table"]["collected"] == {"S": ["S2"], "M": ["Sn"]} and kept["table"]["coins"][6][9] is None
    assert restored["table"]["collected"] == {"S": ["S2"], "M": []} and restored["table"]["coins"][6][9] == "Sn"
    assert kept["position"] is None and restored["position"] is None
    assert peeked["position"] == to_json(apply(apply(start, TURNS[0]), TURNS[1]))


def test_a_pawn_with_nowhere_to_go_stays_and_the_turn_ends_with_the_shift(tmp_path):
    start = {**to_json(setup(2, players=3)), "turn": 3, "pawns": [[0, 0], [0, 1], [1, 0]]}  # Red boxed in
    actions = [{"type": "shift", "line": "row", "index": 3, "direction": "right"}, {"type": "stay"}]
    truth = render_scavenger_hunt_video(start, actions, seed=2, fps=2, size=(64, 36), path=tmp_path / "stay.avi")
    assert [_without_times(e) for e in truth["events"][2:]] == [
        {"type": "shift", "player": "S", "line": "row", "index": 3, "direction": "right"},
        {"type": "move", "pawn": "S", "from": [0, 0], "to": [0, 0], "coin": None},
        {"type": "turn", "player": "M", "turn": 4},
    ]
    assert truth["end"]["to_move"] == 1
    assert truth["end"]["last_shifts"][0] == {"line": "row", "index": 3, "direction": "right"}


def test_an_illegal_board_stands_at_least_1_5_s_before_the_hand_puts_it_back(game):
    # a player leaves an illegal board until the Caller speaks (its bar: 1 s after the board
    # settles); the restoring hand starts coming in 1.5-2.2 s after the illegal one has gone
    _, _, truth = game
    ev = truth["events"]
    waits = [round(r["t_hand"] - e["t_clear"], 2) for e, r in zip(ev, ev[1:]) if r["type"] == "restored"]
    assert waits == [2.0, 1.5]  # 1.5-2.2 s, in frames of 0.25 s (fps 4)


@pytest.mark.slow
def test_the_sample_recording_is_rendered_again_with_its_own_parameters(tmp_path):
    # sample_images/scavenger-hunt_game.mp4 was made before the wait before a restore and the
    # one before the first action: with restore_wait_s=0 and start_wait_s=(0.5, 2.2) (the rest a
    # shift had) the simulator films the very same game (its camera already shows squares
    # above 18 px, so the framing leaves it as drawn); at 160x90 to be quick, the times are the same
    from pathlib import Path

    sample = json.loads((Path(__file__).resolve().parents[1] / "sample_images" / "scavenger-hunt_game.json").read_text())
    start, actions = random_game(102, 4, players=4, illegal=1)
    truth = render_scavenger_hunt_video(start, actions, seed=102, fps=15, size=(160, 90), path=tmp_path / "s.avi",
                                        restore_wait_s=0, start_wait_s=(0.5, 2.2))
    assert truth["events"] == sample["events"] and truth["timeline"] == sample["timeline"]
    assert truth["camera"]["distance_mm"] == sample["camera"]["distance_mm"] == 454.822
    assert truth["frames"] == sample["frames"] == 994


def test_the_random_camera_shows_squares_of_18_px_at_720p_at_least(tmp_path):
    # seed 720014's camera stands 1151 mm away with a wide lens: squares of 13.9 px at 1280x720,
    # below the reader's 18 px; it is moved in along its line of sight, tilt and turn kept
    from simulator import looks as L
    from simulator.games import scavenger_hunt_scene
    from simulator.render import SCENE_STREAM, camera_for
    from simulator.scavenger_hunt_video import TILT_RANGE, framed

    seed = 720014
    start, _ = random_game(seed, 0)
    layout = {"coins": start["coins"], "pawns": dict(zip(start["players"], start["pawns"]))}
    scene, _ = scavenger_hunt_scene(layout, L.get_look(None), np.random.default_rng([seed, SCENE_STREAM]))
    x0, y0, x1, y1 = scene.extent
    reach = float(scene.board_corners[:, 1].max()) + 8 + L.COIN_MM + 6
    drawn = camera_for(None, seed, (1280, 720), (x0, min(y0, -reach), x1, max(y1, reach)), tilt_range=TILT_RANGE)
    assert round(square_px(drawn, scene.board_corners), 1) == 13.9
    truth = render_scavenger_hunt_video(start, [], seed=seed, fps=2, size=(128, 72), path=tmp_path / "c.avi")
    cam = truth["camera"]
    assert cam["distance_mm"] == 858.851 and cam["tilt_deg"] == round(drawn.tilt_deg, 4) <= 35
    assert cam["rotation_deg"] == round(drawn.rotation_deg, 4)
    moved = framed(drawn, scene.board_corners, 18.0)
    assert moved.distance_mm == 858.851 and round(square_px(moved, scene.board_corners), 2) == 18.06
    # the whole board and the rows of collected coins stay in the picture
    corners = np.array(truth["board_corners"])
    assert corners.min() > 0 and corners[:, 0].max() < 128 and corners[:, 1].max() < 72


def test_the_first_action_waits_2_to_3_s_for_the_caller_to_say_who_starts(game, tmp_path):
    # the players wait for the Caller's word before the first shift (a later shift comes 0.5-2.2 s
    # after the table settled): its hand starts coming in 2-3 s after the start
    _, _, truth = game
    first = next(e for e in truth["events"] if "t_hand" in e)
    assert first["type"] == "shift" and first["t_hand"] == 2.5  # in frames of 0.25 s (fps 4)
    # a wait asked for that is no (low, high) pair of seconds is one clear error
    with pytest.raises(SimulatorError, match=r"start_wait_s \(3, 2\): expected \(low, high\) seconds"):
        render_scavenger_hunt_video(to_json(setup(1, players=2)), ACTIONS, seed=3, fps=4, size=SIZE,
                                    path=tmp_path / "x.avi", start_wait_s=(3, 2))
