"""Steppin' Stones positions as JSON: round trips, every malformed shape, and the setup/perft commands."""

import copy
import json

import pytest

from caller.cli import main as cli
from rules.errors import MalformedPosition
from rules.pieces import Suit
from rules.steppin_stones.game import GAME
from rules.steppin_stones.state import setup
from steppin_stones_helpers import endgame
from voice.phrasebook import setup_lines


@pytest.mark.parametrize(
    "options",
    [{}, {"highest_first": True}, {"aces": 2}, {"aces": 4, "ace_stones": True}, {"large": True}],
)
def test_round_trip_of_every_variant(options):
    state = setup(seed=9, **options)
    obj = json.loads(json.dumps(GAME.to_json(state)))
    assert GAME.from_json(obj) == state
    assert GAME.to_json(GAME.from_json(obj)) == obj
    assert obj["options"] == {"highest_first": False, "aces": 0, "ace_stones": False, "large": False, **options}


def test_optional_keys_default():
    obj = GAME.to_json(setup(seed=4))
    for key in ("game", "options", "turn", "seed"):
        del obj[key]
    state = GAME.from_json(obj)
    assert (state.turn, state.seed, state.options.large) == (1, 0, False)


def _start():
    return GAME.to_json(setup(seed=4))


def _edit(path_value_pairs):
    obj = _start()
    for path, value in path_value_pairs:
        target = obj
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return obj


def _all_red_stones(obj):
    for r, c in ((0, 2), (1, 2), (2, 2), (2, 1), (2, 0)):
        obj["board"][r][c] = "S"
    return obj


BAD = [
    (lambda: [1, 2], "is a JSON object"),
    (lambda: {**_start(), "extra": 1}, r"unknown \['extra'\]"),
    (lambda: {k: v for k, v in _start().items() if k != "roll"}, r"missing \['roll'\]"),
    (lambda: {**_start(), "game": "slide"}, "not 'steppin-stones'"),
    (lambda: {**_start(), "board": _start()["board"][:7]}, "must be 8 rows of 8"),
    (lambda: _edit([(("board", 0, 2), "X9")]), r"cell \[0,2\].*'X9'"),
    (lambda: _edit([(("board", 3, 0), "S5")]), "two coins of value 5"),
    (lambda: _edit([(("board", 0, 2), None)]), "4 coin.*0 stepping stone.*expected 5 coins"),
    (lambda: _edit([(("board", 3, 0), "Sa")]), "aces variant is off"),
    (lambda: _edit([(("options",), {"aces": 3})]), "aces must be 0, 2 or 4"),
    (lambda: _edit([(("options",), {"large": "yes"})]), "large must be true or false"),
    (lambda: _edit([(("options",), {"players": 2})]), "bad options"),
    (lambda: _edit([(("pawns",), {"S": [3, 3], "M": [3, 4], "C": [4, 4]})]), "keys S, M, C, A"),
    (lambda: _edit([(("pawns", "S"), [8, 0])]), "S pawn must be .* on the 8x8 board"),
    (lambda: _edit([(("pawns", "S"), [3, 4])]), "two pawns on one square"),
    (lambda: _edit([(("pawns", "S"), [0, 2])]), "Red pawn on c1 stands on a Red 5"),
    (lambda: _edit([(("pawns", "S"), [0, 0])]), "left its start square while a Red coin still shows"),
    (lambda: _edit([(("roll",), _start()["roll"][:3])]), "one die for each suit"),
    (lambda: _edit([(("roll", 0, "face"), "7")]), "face must be one of n, s, 2, 3, 4, 5"),
    (lambda: _edit([(("roll", 0, "face"), "a")]), "face must be one of"),
    (lambda: _edit([(("roll", 0, "phase"), 3)]), "phase must be 1 or 2"),
    (lambda: _edit([(("roll", 0, "left"), 2)]), "left must be 0 to 1"),
    (lambda: _edit([(("roll", 0, "left"), True)]), "must be an integer"),
    (lambda: _edit([(("roll", 0), {"suit": "S", "face": "2"})]), "expected keys suit, face, phase, left"),
    (lambda: _edit([(("roll", 0), {"suit": "S", "face": "2", "phase": 2, "left": 2})]), "phase 2 but a Red coin"),
    (lambda: _edit([(("turn",), 0)]), "turn must be 1 or more"),
    (lambda: _edit([(("seed",), "x")]), "seed must be an integer"),
]


@pytest.mark.parametrize("make,match", BAD)
def test_malformed_positions_say_what_is_wrong(make, match):
    with pytest.raises(MalformedPosition, match=match):
        GAME.from_json(make())


def test_phase_and_pawn_invariants_once_a_suit_is_all_stones():
    obj = _all_red_stones(_start())
    obj["roll"][0] = {"suit": "S", "face": "2", "phase": 1, "left": 1}
    with pytest.raises(MalformedPosition, match="unused phase-1 die but every Red coin is a stepping stone"):
        GAME.from_json(obj)
    obj["roll"][0] = {"suit": "S", "face": "s", "phase": 2, "left": 7}
    with pytest.raises(MalformedPosition, match="left must be 0 to 6"):
        GAME.from_json(obj)
    obj["roll"][0]["left"] = 6
    obj["pawns"]["S"] = [3, 2]
    with pytest.raises(MalformedPosition, match="neither its start square nor its home tile"):
        GAME.from_json(obj)
    obj["pawns"]["S"] = [0, 0]  # home: its die must be gone from the roll
    with pytest.raises(MalformedPosition, match=r"one die for each suit whose pawn is not home, in order \['M', 'C', 'A'\]"):
        GAME.from_json(obj)
    obj["roll"] = obj["roll"][1:]
    state = GAME.from_json(obj)
    assert state.is_home(Suit.SUNS) and [d.suit.code for d in state.dice] == ["M", "C", "A"]


def test_large_board_holes_must_stay_empty():
    obj = GAME.to_json(setup(seed=1, large=True))
    obj["board"][4][4] = obj["board"][0][2]
    obj["board"][0][2] = None
    with pytest.raises(MalformedPosition, match="no tile under it"):
        GAME.from_json(obj)


# ---------------------------------------------------------------------------- commands


def test_caller_setup_json_and_announcement(capsys):
    assert cli(["setup", "steppin-stones", "--seed", "3", "--json"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert json.loads(out[0]) == GAME.to_json(setup(seed=3))
    assert cli(["setup", "steppin-stones", "--seed", "3"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert out[0] == "Steppin' Stones setup (seed 3):"
    assert out[1:] == setup_lines("steppin-stones", setup(seed=3))
    assert "Around the Red tile: Red 5 on c1, Red 4 on c2, Red Null on c3, Red 2 on b3 and Red 3 on a3." in out


def test_caller_perft_counts_this_rolls_actions(tmp_path, capsys):
    # only the Red pawn is out, on its stone on c1 beside home, the Red die shows Null (1 square);
    # hand count in test_steppin_stones.test_perft_counts_the_actions_of_this_roll_by_hand
    state = endgame("n", "c1")
    p = tmp_path / "p.json"
    p.write_text(json.dumps(GAME.to_json(state)))
    assert cli(["perft", "steppin-stones", str(p), "--depth", "1"]) == 0
    assert capsys.readouterr().out == "11\n"
    assert cli(["perft", "steppin-stones", str(p), "--depth", "2"]) == 0
    assert capsys.readouterr().out == "0\n"


def test_caller_perft_rejects_a_malformed_position_in_one_line(tmp_path, capsys):
    obj = copy.deepcopy(_start())
    obj["board"][0][2] = "S9"
    p = tmp_path / "bad.json"
    p.write_text(json.dumps(obj))
    assert cli(["perft", "steppin-stones", str(p), "--depth", "1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"caller: error: {p}: board cell [0,2]") and "'S9'" in err[0]
