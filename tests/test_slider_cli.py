"""Slider on the command line: `caller slider count|play|explain`, `caller play slider`, `caller setup slider`, the phrasebook."""

import io
import json
import sys
from pathlib import Path

import pytest

import voice
from caller.cli import main as cli
from caller.referees import slider as referee
from rules.slider.game import GAME
from voice.phrasebook import slider as phrases

FIXTURES = Path(__file__).parent / "data" / "slider"


@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_count_prints_h_then_v(k, capsys):
    assert cli(["slider", "count", str(FIXTURES / f"input{k}.txt")]) == 0
    assert capsys.readouterr().out == (FIXTURES / f"output{k}.txt").read_text()


def test_count_errors_are_one_line(tmp_path, capsys):
    bad = tmp_path / "b.txt"
    bad.write_text("3\nH + +\n+ V\n+ + +\n")
    assert cli(["slider", "count", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err == f"caller: error: {bad} line 3: 2 cells in '+ V', expected 3 (ragged rows)\n"
    assert cli(["slider", "count", str(tmp_path / "none.txt")]) == 2
    assert capsys.readouterr().err == f"caller: error: {tmp_path / 'none.txt'}: no such file\n"
    bad.write_text("12\n")
    assert cli(["slider", "count", str(bad)]) == 2
    assert "board size 12 is out of range: expected 3 to 8" in capsys.readouterr().err


def test_setup_lines_and_json(capsys):
    assert cli(["setup", "slider", "--seed", "4"]) == 0
    out = capsys.readouterr().out.splitlines()
    state = GAME.setup(seed=4)
    assert out == ["Slider setup (seed 4):"] + phrases.setup_lines(state)
    assert out[1] == "Slider on a 6 by 6 board."
    assert cli(["setup", "slider", "--seed", "4", "--json"]) == 0
    assert GAME.from_json(json.loads(capsys.readouterr().out)) == state


def test_setup_lines_words():
    s = GAME.setup(n=5, blocked=[(2, 3), (4, 1)], first="V")
    assert phrases.setup_lines(s) == [
        "Slider on a 5 by 5 board.",
        "Horizontal plays the Red coins, Vertical the Blue coins.",
        "Horizontal's 4 pieces go in column 0, rows 1 to 4.",
        "Vertical's 4 pieces go in row 0, columns 1 to 4.",
        "Block these 2 squares: column 2, row 3; and column 4, row 1.",
        "Vertical moves first.",
    ]
    mid = s.apply(s.legal_moves()[0])
    assert phrases.setup_lines(mid)[2] == "Horizontal's pieces: column 0, row 1; column 0, row 2; column 0, row 3; and column 0, row 4."


GAME_SCRIPT = """\
(0,2): right
(2,0): UP
(1,2): RIGHT
(1,0): down
hello
moves
(1,0): LEFT
(2,2): RIGHT
(2,1): UP
(0,1): RIGHT
(0,0): UP
(1,1): RIGHT
(2,2): UP
(2,1): RIGHT
"""


def run_referee(argv, stdin_text, monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin_text))
    status = cli(argv)
    return status, capsys.readouterr().out


def test_referee_plays_a_whole_game_from_stdin(monkeypatch, capsys):
    status, out = run_referee(["play", "slider", "--n", "3", "--blocks", "0", "--first", "H"], GAME_SCRIPT, monkeypatch, capsys)
    assert status == 0
    lines = out.splitlines()
    assert "Vertical (V)> Caller: Illegal move: Vertical may not move down." in lines
    assert any(line.startswith("Vertical (V)> bad move 'hello': expected '(i,j): DIR'") for line in lines)
    assert "Vertical (V)> legal moves: (1,0): UP, (1,0): LEFT, (1,0): RIGHT, (2,1): LEFT" in lines
    assert "Horizontal (H)> Caller: Horizontal moves the piece on column 2, row 2 off the board." in lines
    assert lines[-1] == "Caller: Horizontal wins: every Horizontal piece is off the board."
    assert lines[-6:-1] == ["2 | + + +", "1 | V + +", "0 | + + +", "    -----", "    0 1 2"]


def test_referee_quits_cleanly_on_eof_and_quit(monkeypatch, capsys):
    status, out = run_referee(["play", "slider", "--n", "4", "--seed", "2"], "", monkeypatch, capsys)
    assert status == 0 and out.endswith("> \nend of input: bye.\n")
    status, out = run_referee(["play", "slider", "--n", "4", "--seed", "2"], "help\nquit\n(0,1): RIGHT\n", monkeypatch, capsys)
    assert status == 0 and out.endswith("bye.\n")
    assert referee.HELP_TEXT in out
    assert "moves right" not in out


def test_referee_announces_forced_passes(monkeypatch, capsys, tmp_path):
    start = tmp_path / "b.txt"
    start.write_text((FIXTURES / "input3.txt").read_text())
    status, out = run_referee(["play", "slider", "--board", str(start), "--first", "V"], "(1,1): UP\nquit\n", monkeypatch, capsys)
    assert status == 0
    lines = out.splitlines()
    assert "Caller: Vertical has no legal move and passes." in lines
    assert "Horizontal (H)> Caller: Horizontal moves up from column 1, row 1 to column 1, row 2." in lines


def test_play_against_the_computer_is_deterministic_with_a_depth_limit(monkeypatch, capsys):
    argv = ["slider", "play", "--ai", "V", "--n", "4", "--blocks", "0", "--first", "V", "--time", "0", "--depth", "3"]
    status, out = run_referee(argv, "(0,3): RIGHT\nquit\n", monkeypatch, capsys)
    assert status == 0
    lines = out.splitlines()
    assert "Caller: The computer plays Vertical." in lines
    ai_lines = [line for line in lines if line.startswith("V: (")]
    assert len(ai_lines) == 2  # it opened, then answered the human's move
    status, again = run_referee(argv, "(0,3): RIGHT\nquit\n", monkeypatch, capsys)
    assert again == out


def test_play_needs_ai_and_a_limit(monkeypatch, capsys):
    assert cli(["slider", "play", "--n", "4"]) == 2
    assert "--ai" in capsys.readouterr().err
    assert cli(["slider", "play", "--ai", "H", "--time", "0"]) == 2
    assert capsys.readouterr().err == "caller: error: --time 0 needs --depth or --nodes, or the computer would think forever\n"


def test_say_passes_the_lines_to_voice(monkeypatch, capsys, tmp_path):
    calls = []
    monkeypatch.setattr(voice, "say", lambda lines, voice_out=None, speaker=False, config=None: calls.append((list(lines), voice_out, speaker)), raising=False)
    wav = tmp_path / "game.wav"
    status, out = run_referee(
        ["play", "slider", "--n", "3", "--blocks", "0", "--first", "H", "--voice-out", str(wav)], "(0,2): RIGHT\nquit\n", monkeypatch, capsys
    )
    assert status == 0
    assert len(calls) == 1
    lines, voice_out, speaker = calls[0]
    assert voice_out == str(wav) and speaker is False
    assert lines[0] == "Slider on a 3 by 3 board." and lines[-1] == "Horizontal moves right from column 0, row 2 to column 1, row 2."
    calls.clear()
    status, out = run_referee(["play", "slider", "--n", "3", "--blocks", "0", "--first", "H", "--say"], "(0,2): RIGHT\n", monkeypatch, capsys)
    assert [c[2] for c in calls] == [True, True]
    assert calls[1][0] == ["Horizontal moves right from column 0, row 2 to column 1, row 2."]


def test_explain_command(tmp_path, capsys):
    before = tmp_path / "before.txt"
    after = tmp_path / "after.txt"
    before.write_text("3\nH + +\n+ V +\n+ + +\n")
    after.write_text("3\n+ H +\n+ V +\n+ + +\n")
    assert cli(["slider", "explain", str(before), str(after)]) == 0
    assert capsys.readouterr().out == "(0,2): RIGHT\n"
    after.write_text("3\nH + +\n+ + +\n+ V +\n")
    assert cli(["slider", "explain", str(before), str(after), "--turn", "V"]) == 1
    assert capsys.readouterr().out == "illegal: wrong direction: Vertical may not move down ((1,1) to (1,0))\n"
