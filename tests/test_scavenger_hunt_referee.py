"""Scavenger Hunt: the Caller's phrases, the text referee driven by scripted stdin, and the CLI commands."""

import io
import json

import pytest

import voice
from caller import cli
from caller.errors import CallerError
from caller.referees import scavenger_hunt as referee
from rules.pieces import Rank
from rules.scavenger_hunt.game import GAME
from rules.scavenger_hunt.state import Shift, Turn
from rules.grid import Direction
from scavenger_hunt_positions import lone_coins
from voice.phrasebook import scavenger_hunt as phrases
from voice.phrasebook import setup_lines


def run(monkeypatch, capsys, argv, script):
    monkeypatch.setattr("sys.stdin", io.StringIO(script))
    status = referee.main(argv)
    return status, capsys.readouterr()


def write(tmp_path, state, name="pos.json"):
    path = tmp_path / name
    path.write_text(json.dumps(GAME.to_json(state)))
    return str(path)


# ---------------------------------------------------------------- phrases


def test_setup_lines_announce_board_pawns_deal_each_coin_and_first_player():
    state = GAME.setup(seed=1, players=2)
    lines = setup_lines("scavenger-hunt", state)
    assert lines[:5] == [
        "Scavenger Hunt for two players: Red and Black.",
        "Build a board of four rows of six tiles, grid side up.",
        "Red pawn in the corner at row 8, column 1.",
        "Black pawn in the corner at row 1, column 12.",
        "Deal each player six coins, one of each value, suit side down.",
    ]
    coin_lines = lines[5:-1]
    assert len(coin_lines) == 12 and lines[-1] == "Red plays first."
    cells = [c for c, m in state.coins.items() if m is not None]
    first = state.coins[cells[0]].rank
    assert coin_lines[0] == f"Place {'an' if first is Rank.ACE else 'a'} {first.spoken} on row {cells[0][0] + 1}, column {cells[0][1] + 1}."


def test_turn_lines_tell_the_shift_the_move_the_peek_and_the_win():
    state = lone_coins()
    turn = Turn(Shift("row", 3, Direction.RIGHT), (7, 6))
    assert phrases.turn_lines(state, turn, GAME.apply(state, turn)) == [
        "Red shifts tile row 4 right.",
        "Red moves to row 8, column 7.",
        "Red collects the Red Null: 6 of 6.",
        "Red wins with all six Red coins!",
    ]
    black = GAME.apply(lone_coins(must_move=False), Turn(Shift("row", 0, Direction.LEFT), (6, 0)))
    stay = Turn(Shift("col", 2, Direction.UP), (0, 9))
    assert phrases.turn_lines(black, stay, GAME.apply(black, stay)) == [
        "Black shifts tile column 3 up.",
        "Black stays on row 1, column 10.",
        "Red to play.",
    ]
    assert phrases.barred_lines(GAME.apply(black, stay)) == [
        "No tile row 1 right until Red has played again.",
        "No tile column 3 down until Black has played again.",
    ]


# ---------------------------------------------------------------- the referee


def test_help_is_its_own(capsys):
    with pytest.raises(SystemExit) as exit_:
        referee.main(["--help"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: caller play scavenger-hunt") and "--allow-stay" in out and "R2> 3,7" in out


def test_a_session_reports_bad_input_and_illegal_turns_then_plays(monkeypatch, capsys):
    script = "R4> up 3\nfoo\n\nR4> up 1\nboard\nmoves\nquit\nR1> 1,1\n"
    status, out = run(monkeypatch, capsys, ["--seed", "1", "--players", "2"], script)
    assert status == 0 and out.err == ""
    text = out.out
    assert "Caller: Illegal move: the pawn stops on the first coin it passes: the coin on 6,3." in text
    assert "? cannot read the turn 'foo': expected a turn such as" in text
    assert "Caller: Red shifts tile row 4 right.\nCaller: Red moves to row 7, column 3.\nCaller: Black to play.\n" in text
    assert "Collected: Red 0 of 6, Black 0 of 6.\nNo tile row 4 left until Red has played again.\n" in text
    after = GAME.apply(GAME.setup(seed=1, players=2), Turn(Shift("row", 3, Direction.RIGHT), (6, 2)))
    assert f"{len(GAME.legal_moves(after))} legal turns" in text
    assert referee.render(after) in text
    assert text.count("to play> ") == 7  # one prompt per line up to quit; nothing is read after it


def test_end_of_input_quits_cleanly(monkeypatch, capsys):
    status, out = run(monkeypatch, capsys, ["--seed", "2"], "R1> right 1\n")
    assert status == 0 and "Traceback" not in out.out + out.err
    assert out.out.endswith("Black (M) to play> \n")


def test_the_board_shows_tiles_coins_and_pawns():
    board = referee.render(lone_coins()).splitlines()
    assert board[0] == "       1  2    3  4    5  6    7  8    9 10   11 12"
    assert board[1] == "    +-------+-------+-------+-------+-------+-------+"
    assert board[2] == "  1 |  .  . |  .  . |  .  . |  .  . |  .  . |  .  M |"
    assert board[5] == "  3 |  .  . |  .  . |  .  . |  .  . |  .  n |  .  . |"
    assert board[12] == "  8 |  S  . |  .  . |  n  . |  .  . |  .  . |  .  . |"
    suits = referee.render(GAME.apply(lone_coins(must_move=False), Turn(Shift("row", 3, Direction.RIGHT), (7, 2))), True)
    # R4> carried the pawn from column 1 to 3 and the Red Null from column 5 to 7
    assert "  8 |  .  . |  S  . |  .  . | Sn  . |  .  . |  .  . |" in suits.splitlines()


def test_winning_from_a_position_file(monkeypatch, capsys, tmp_path):
    path = write(tmp_path, lone_coins())
    status, out = run(monkeypatch, capsys, ["--position", path], "R4> right 4\n")
    assert status == 0
    assert out.out.count("to play> ") == 1  # the game is over: no more prompts
    assert "Caller: Red collects the Red Null: 6 of 6.\nCaller: Red wins with all six Red coins!\n" in out.out


def test_public_mode_asks_for_the_peek_outcome(monkeypatch, capsys, tmp_path):
    path = write(tmp_path, lone_coins(mode="public"))
    status, out = run(monkeypatch, capsys, ["--position", path], "R4> right 4\nR4> right 4 -\n")
    assert status == 0
    assert "Caller: Illegal move: the pawn ends on the Null coin on 8,7: say whether it was collected (+) or not (-)." in out.out
    assert "Caller: Red peeks at a Null and leaves it.\nCaller: Black to play.\n" in out.out


def test_players_place_their_own_coins(monkeypatch, capsys):
    # one inner square on each of 12 tiles, the first on tile (1,1)
    spots = [(2, 2)] + [(2 * i + 1, 2 * j + 1) for i in (0, 2) for j in range(5)] + [(1, 10)]
    script = ["n 1,1", "n 3,3", "n 3,4"]  # an edge square; Red's Null; Black on the same tile
    k = 1
    for rank in "na2345":
        for player in range(2):
            if (rank, player) != ("n", 0):
                script.append(f"{rank} {spots[k][0] + 1},{spots[k][1] + 1}")
                k += 1
    status, out = run(monkeypatch, capsys, ["--seed", "4", "--players", "2", "--place"], "\n".join(script + ["quit"]) + "\n")
    text = out.out
    assert status == 0
    assert "? square 1,1 is an outside-edge square; coins go on inner squares only" in text
    assert "Caller: Red places a Null on row 3, column 3." in text
    assert "? the tile of square 3,4 already holds the coin on 3,3; one coin per tile" in text
    assert "Caller: Black places a Null on row 2, column 2." in text
    assert "Caller: All coins are placed. Red plays first." in text
    assert len([line for line in text.splitlines() if " places a" in line]) == 12
    board = text.split("All coins are placed. Red plays first.\n")[1]
    assert board.splitlines()[5] == "  3 |  .  . |  n  . |  .  . |  .  . |  .  . |  .  . |"


def test_a_value_already_placed_is_refused(monkeypatch, capsys):
    status, out = run(monkeypatch, capsys, ["--seed", "4", "--players", "2", "--place"], "n 2,2\nn 4,4\nn 6,6\n")
    assert status == 0
    assert "Caller: Black places a Null on row 4, column 4." in out.out
    assert "? Red has no Null left to place" in out.out


def test_speech_gets_every_caller_line(monkeypatch, capsys, tmp_path):
    calls = []
    monkeypatch.setattr(voice, "say", lambda lines, voice_out=None, speaker=False, config=None: calls.append((lines, voice_out, speaker)), raising=False)
    wav = str(tmp_path / "out.wav")
    status, out = run(monkeypatch, capsys, ["--seed", "1", "--players", "2", "--say", "--voice-out", wav], "R4> up 1\n")
    assert status == 0
    spoken = [line for lines, where, speaker in calls if speaker for line in lines]
    assert spoken[0] == "Scavenger Hunt for two players: Red and Black." and spoken[-1] == "Black to play."
    assert calls[-1] == (spoken, wav, False)  # the WAV gets everything once, at the end


def test_show_suits_needs_the_referee_mode(monkeypatch):
    with pytest.raises(CallerError, match="--show-suits needs the referee mode"):
        referee.main(["--public", "--show-suits"])


# ---------------------------------------------------------------- the caller commands


def test_caller_setup_json_and_perft(capsys, tmp_path):
    assert cli.main(["setup", "scavenger-hunt", "--seed", "3", "--players", "2", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == GAME.to_json(GAME.setup(seed=3, players=2))
    path = write(tmp_path, lone_coins())
    assert cli.main(["perft", "scavenger-hunt", path, "--depth", "1"]) == 0
    assert capsys.readouterr().out == "255\n"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"players": ["S"], "pawns": [], "coins": []}))
    assert cli.main(["perft", "scavenger-hunt", str(bad), "--depth", "1"]) == 2
    assert capsys.readouterr().err.startswith(f"caller: error: {bad}: players must be a list of 2 to 4 suit letters")


def test_caller_play_dispatches_to_the_referee(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert cli.main(["play", "scavenger-hunt", "--seed", "5", "--players", "3"]) == 0
    assert "Scavenger Hunt for three players: Red, Black and Green." in capsys.readouterr().out


def test_position_options_public_and_allow_stay_override_the_file(monkeypatch, capsys, tmp_path):
    path = write(tmp_path, lone_coins())  # a referee-mode position where pawns must move
    status, out = run(monkeypatch, capsys, ["--position", path, "--public", "--allow-stay"], "R1> stay\nR4> right 4\n")
    assert status == 0
    assert "Caller: Red stays on row 8, column 1.\nCaller: Black to play.\n" in out.out
    assert "Caller: Illegal move: the pawn ends on the Null coin on 8,7" not in out.out  # Black's turn now
    assert "Sn" not in out.out and "Caller: Illegal move: the Black pawn on 1,12" not in out.out
