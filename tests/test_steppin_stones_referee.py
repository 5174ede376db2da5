"""The Steppin' Stones text referee driven by scripted stdin, its notation, and the Caller's phrases."""

import io
import json
import sys

import pytest

import voice
from caller.cli import main as cli
from caller.referees import steppin_stones as referee
from rules.errors import NotationError
from rules.pieces import DieFace
from rules.steppin_stones.game import GAME
from rules.steppin_stones.state import EndTurn, Flip, Move
from rules.steppin_stones.notation import format_action, parse_action, parse_cell, parse_faces
from steppin_stones_helpers import across_home, endgame, walled_in


def run(argv, script):
    args = referee.build_parser().parse_args(argv)
    out = io.StringIO()
    said = referee.play(args, io.StringIO(script), out)
    return out.getvalue(), said


# ---------------------------------------------------------------------------- notation


def test_squares_actions_and_dice_as_typed():
    assert parse_cell("c2", 8) == (1, 2) and parse_cell("2,3", 8) == (1, 2) and parse_cell(" H8 ", 8) == (7, 7)
    assert parse_cell("j10", 10) == (9, 9)
    for bad in ("i1", "a9", "0,1", "c", "2,3,4"):
        with pytest.raises(NotationError, match="bad square"):
            parse_cell(bad, 8)
    assert parse_action("c2 a4", 8) == Move((1, 2), (3, 0))
    assert parse_action("c2-a4", 8) == parse_action("c2 to a4", 8) == parse_action("2,3 4,1", 8) == Move((1, 2), (3, 0))
    assert parse_action("FLIP c4", 8) == Flip((3, 2))
    assert parse_action("end", 8) == parse_action("roll", 8) == parse_action("done", 8) == EndTurn()
    with pytest.raises(NotationError, match="cannot read the action 'c2'"):
        parse_action("c2", 8)
    assert [format_action(a) for a in (Move((1, 2), (3, 0)), Flip((3, 2)), EndTurn())] == ["c2-a4", "flip c4", "end"]
    assert parse_faces("0 4 2 *", 4) == [DieFace.NULL, DieFace.FOUR, DieFace.TWO, DieFace.SUIT]
    assert parse_faces("n42s", 4) == parse_faces("0 4 2 *", 4)
    with pytest.raises(NotationError, match="expected 4 face"):
        parse_faces("0 4 2", 4)
    with pytest.raises(NotationError, match="expected 3 face"):
        parse_faces("1 4 2", 3)


# ---------------------------------------------------------------------------- the referee


def test_referee_plays_the_first_example_with_typed_dice():
    script = "\n".join(["1 2", "* 0 4 2", "end", "xyz", "c3 c4", "b3 c4", "c2 a4", "flip c4", ""])
    out, said = run(["--seed", "1", "--dice", "manual"], script)
    lines = out.splitlines()
    assert "? cannot read the dice '1 2': expected 4 face(s), one face per die, null 0 or n, the suit * or s, or 2-5, such as '0 4 2 *'" in out
    expected = [
        "Caller: Turn 1. Phase one: Red Suns, Black Null, Green 4 and Blue 2.",
        "Caller: You must flip a Red coin: it becomes a stepping stone.",
        "Caller: Illegal move: the Red die shows the Suns: flip a Red coin before ending the turn.",
        "Caller: Illegal move: the Red Null on c3 may not move at all (a Null moves zero squares).",
        "Caller: Red 2 from b3 to c4.",
        "Caller: Red 4 from c2 to a4.",
        "Caller: Red 2 on c4 is now a stepping stone.",
        "Caller: Nothing more can move with these dice.",
        "Caller: End of turn. Roll the dice.",
    ]
    caller_lines = [line.split("> ")[-1] for line in lines if "Caller: " in line]
    assert caller_lines[-len(expected):] == expected
    assert any("? cannot read the action 'xyz'" in line for line in lines)
    # the board after the turn: the Red 4 on a4, the Red stepping stone on c4 beside the Red pawn
    assert "  4 |  S4   . |  S*  @S |  @M   . |   .   . |" in lines
    # input ended at the next roll's prompt: a clean stop
    assert lines[-1].endswith("Roll your dice and type them (S M C A)> ")
    assert said[-1] == "End of turn. Roll the dice."


def test_referee_auto_dice_setup_and_quit():
    out, said = run(["--seed", "5"], "moves\nboard\nhelp\nquit\n")
    state = GAME.setup(seed=5)
    assert out.splitlines()[0] == "Steppin' Stones (seed 5):"
    assert said[0].startswith("Steppin' Stones, a solitaire.")
    assert "Caller: Turn 1. Phase one: Red 3, Black 5, Green Crowns and Blue 3." in out
    listed = [line for line in out.splitlines() if "flip f6 flip g6" in line][0].split("> ")[-1]
    assert listed.split(" ")[:2] == ["flip", "f6"] and listed.count("flip") == 5
    assert len(listed.replace("flip ", "flip_").split()) == len(GAME.legal_moves(state))
    assert "Board: S5 a coin showing its value" in out


def test_referee_announces_a_pawn_home_and_the_win(tmp_path):
    state = endgame("n", "c1")
    p = tmp_path / "end.json"
    p.write_text(json.dumps(GAME.to_json(state)))
    out, said = run(["--position", str(p)], "c1 a1\nc1 b1\nmore input is never read\n")
    assert said == [
        f"Steppin' Stones, from {p}.",
        "Turn 1. Phase two: Red Null, 1 square.",
        "Illegal move: the Red pawn cannot reach a1 within 1 square(s): it steps only on Red stepping stones "
        "and ends on one or on the first square of its home tile it reaches.",
        "The Red pawn is home on b1! Its die leaves play.",
        "All four pawns are home. You win!",
    ]
    assert "more input" not in out


def test_referee_stops_a_pawn_on_the_first_square_of_its_home_tile(tmp_path):
    # the Red pawn on b3 with 2 squares: over its stone on b2 to b1 or c2 is no move, b2 is home
    p = tmp_path / "across.json"
    p.write_text(json.dumps(across_home()))
    out, said = run(["--position", str(p)], "moves\nb3 b1\nb3 c2\nb3 b2\n")
    listed = next(line for line in out.splitlines() if line.startswith("Turn 1> c1-a1")).split()
    assert {"b3-a2", "b3-b2", "b3-a3"} <= set(listed) and not {"b3-b1", "b3-c2"} & set(listed)
    past = "within 2 square(s): it steps only on Red stepping stones and ends on one or on the first square of its home tile it reaches."
    assert said[2:5] == [
        f"Illegal move: the Red pawn cannot reach b1 {past}",
        f"Illegal move: the Red pawn cannot reach c2 {past}",
        "The Red pawn is home on b2! Its die leaves play.",
    ]


def test_referee_announces_a_loss_at_once(tmp_path):
    state = walled_in()
    p = tmp_path / "lost.json"
    p.write_text(json.dumps(GAME.to_json(state)))
    _, said = run(["--position", str(p)], "")
    assert said[-1] == "No legal move is left for any roll of the dice. The game is lost."


def test_caller_play_runs_main_with_stdin_and_speaks_through_voice_say(monkeypatch, capsys, tmp_path):
    calls = []

    def fake_say(lines, voice_out=None, speaker=False, config=None):
        calls.append((list(lines), voice_out, speaker))

    monkeypatch.setattr(voice, "say", fake_say, raising=False)
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    wav = str(tmp_path / "game.wav")
    assert cli(["play", "steppin-stones", "--seed", "5", "--say", "--voice-out", wav]) == 0
    out = capsys.readouterr().out
    assert "Caller: Turn 1. Phase one: Red 3, Black 5, Green Crowns and Blue 3." in out
    spoken = [c for c in calls if c[2]]
    assert spoken and all(c[1] is None for c in spoken)
    written = [c for c in calls if c[1] == wav]
    assert len(written) == 1 and written[0][0] == [line for c in spoken for line in c[0]]


def test_referee_help_and_bad_options(capsys):
    with pytest.raises(SystemExit) as exc:
        referee.main(["--help"])
    assert exc.value.code == 0
    assert "caller play steppin-stones" in capsys.readouterr().out
    # a variant combination the rules do not allow is one line from the CLI, not a traceback
    assert cli(["play", "steppin-stones", "--ace-stones"]) == 2
    assert capsys.readouterr().err.strip() == "caller: error: ace_stones needs aces (2 or 4) on the board"
