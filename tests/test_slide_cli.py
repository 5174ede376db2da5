"""Slide's commands (`caller slide score|explain`, `caller setup slide`), the phrasebook and the text referee."""

import io
import json
import random

import pytest

import voice
from caller.cli import main as cli
from caller.errors import CallerError
from caller.referees import slide as referee
from rules.grid import Grid
from rules.slide.state import Push, Reveal, Score, Side, Tournament, deal, score_grid
from voice.phrasebook import slide as phrases

EXAMPLE_TEXT = "8 8 5 10\n5 8 10 10\n1 4 4 7\n1 1 3 4\n"


@pytest.fixture
def example(tmp_path):
    path = tmp_path / "grid.txt"
    path.write_text(EXAMPLE_TEXT)
    return path


# -- caller slide score / explain --------------------------------------------------------------------


def test_score_json_is_the_rules_example(example, capsys):
    assert cli(["slide", "score", str(example), "--json"]) == 0
    out = capsys.readouterr().out
    assert json.loads(out) == {"points": 24, "cards": 5}
    assert out == '{"points": 24, "cards": 5}\n'


def test_score_text_marks_cancelled_cards(example, capsys):
    assert cli(["slide", "score", str(example)]) == 0
    assert capsys.readouterr().out == (
        " [8]  [8]    5 [10]\n"
        "   5  [8] [10] [10]\n"
        " [1]  [4]  [4]    7\n"
        " [1]  [1]    3    4\n"
        "24 points from 5 + 5 + 7 + 3 + 4 (5 cards left, 11 cancelled)\n"
    )


@pytest.mark.parametrize(
    "text, message",
    [
        ("8 8 5\n5 8 10 10\n1 4 4 7\n1 1 3 4\n", "line 1: 3 numbers, expected 4"),
        ("8 8 5 10\n5 8 ten 10\n1 4 4 7\n1 1 3 4\n", "line 2: 'ten' is not a card: expected a number 1 to 10"),
        ("8 8 5 10\n", "1 rows of numbers, expected 4"),
    ],
)
def test_score_of_a_malformed_grid_is_one_line_and_status_2(tmp_path, capsys, text, message):
    path = tmp_path / "bad.txt"
    path.write_text(text)
    assert cli(["slide", "score", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("caller: error: ") and message in err and err.count("\n") == 1


def test_score_of_a_missing_file(tmp_path, capsys):
    assert cli(["slide", "score", str(tmp_path / "none.txt")]) == 2
    assert capsys.readouterr().err == f"caller: error: {tmp_path / 'none.txt'}: no such file\n"


def test_explain_command(tmp_path, capsys):
    before, after, bad = tmp_path / "b.txt", tmp_path / "a.txt", tmp_path / "c.txt"
    before.write_text("# 3 # #\n# 5 . 2\n# 7 # #\n# # 9 #\n")
    after.write_text("# 3 # #\n8 # 5 2\n# 7 # #\n# # 9 #\n")
    bad.write_text("# 3 # #\n# 5 8 2\n# 7 # #\n# # 9 #\n")
    assert cli(["slide", "explain", str(before), str(after), "--middle", "3,8"]) == 0
    assert capsys.readouterr().out == "Legal: the 8 was pushed in from the left of row 2.\n"
    assert cli(["slide", "explain", str(before), str(after), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {
        "change": "push", "card": 8, "side": "left", "alternatives": [],
        "reason": "the 8 was pushed in from the left of row 2", "cells": [[1, 0], [1, 1], [1, 2]],
    }
    assert cli(["slide", "explain", str(before), str(bad)]) == 1
    assert capsys.readouterr().out.startswith("Not a legal step: a card was put straight into the hole")
    assert cli(["slide", "explain", str(before), str(after), "--middle", "3,x"]) == 2
    assert "--middle '3,x'" in capsys.readouterr().err


def test_setup_announces_without_revealing_the_cards(capsys):
    assert cli(["setup", "slide", "--seed", "4", "--players", "3"]) == 0
    out = capsys.readouterr().out
    first = deal(4, 3).first
    assert out.splitlines() == [
        "Slide setup (seed 4):",
        "Slide for three players.",
        "Shuffle the hundred cards and deal sixteen cards, face down, to each player.",
        "Arrange your cards into a four by four square: this is your grid.",
        "Return the remaining 52 cards to the box.",
        f"Player {first + 1} plays first and takes the First Player counter.",
    ]
    assert cli(["setup", "slide", "--seed", "4", "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["game"] == "slide" and obj["players"] == 2 and len(obj["grids"]) == 2


# -- phrasebook --------------------------------------------------------------------------------------


def test_score_and_winner_lines():
    example = score_grid(Grid.of([[8, 8, 5, 10], [5, 8, 10, 10], [1, 4, 4, 7], [1, 1, 3, 4]]))
    other = Score(24, 6, (4, 4, 4, 4, 4, 4), ())
    assert phrases.score_lines([example, other]) == [
        "All orthogonally adjacent cards with the same number cancel each other out.",
        "Player 1 scores 24 points (5 + 5 + 7 + 3 + 4) with 5 cards left.",
        "Player 2 scores 24 points (4 + 4 + 4 + 4 + 4 + 4) with 6 cards left.",
        "Player 1 wins with 24 points.",
    ]
    assert phrases.tiebreak_line([example, other]) == "Player 1 and Player 2 tie on 24 points; fewer cards left breaks the tie."
    assert phrases.winner_line([example, example, other]) == (
        "Player 1 and Player 2 tie with 24 points and 5 cards each, and share the victory."
    )
    assert phrases.tiebreak_line([example, example]) is None
    assert phrases.places_line([other, example, Score(30, 1, (30,), ())]) == "Places: Player 2 first, Player 1 second, Player 3 third."


def test_push_and_tournament_lines():
    assert phrases.push_line(0, Push(7, Side.LEFT), (1, 2)) == "Player 1 pushes the 7 in from the left of row 2."
    assert phrases.push_line(2, Push(10, Side.BOTTOM), (1, 2)) == "Player 3 pushes the 10 in from the bottom of column 3."
    t = Tournament.start(2).record([Score(60, 5, (), ()), Score(45, 5, (), ())])
    assert phrases.tournament_lines(t) == [
        "After game 1: Player 1 60, Player 2 45 points.",
        "Nobody has reached 100 points. Player 2 plays first in the next game.",
    ]
    t = t.record([Score(40, 5, (), ()), Score(70, 5, (), ())])
    assert phrases.tournament_lines(t)[-1] == "Player 1 wins the tournament with 100 points."


# -- the text referee ---------------------------------------------------------------------------------


def scripted_game(state, seed):
    """Turn lines for a random legal game from ``state`` and the finished state (the engine plays it too)."""
    rng = random.Random(seed)
    lines = []
    while not state.is_over:
        move = rng.choice(state.legal_moves())
        if isinstance(move, Reveal):
            lines.append(f"{move.cell[0] + 1} {move.cell[1] + 1}")
        else:
            lines.append(f"{move.card} {move.side.value}")
        state = state.apply(move)
    return lines, state


def run_referee(argv, lines):
    out = io.StringIO()
    status = referee.main(argv, stdin=io.StringIO("".join(line + "\n" for line in lines)), stdout=out)
    return status, out.getvalue()


def test_a_whole_game_ends_with_the_engines_scores():
    lines, final = scripted_game(deal(8, 3, first=1), seed=2)
    status, out = run_referee(["--players", "3", "--seed", "8", "--first", "2"], lines)
    assert status == 0
    said = [line[len("Caller: ") :] for line in out.splitlines() if line.startswith("Caller: ")]
    assert said[:5] == phrases.setup_lines(deal(8, 3, first=1))
    scores = final.scores()
    assert said[-5:-1] == phrases.score_lines(scores)[1:]
    assert said[-1] == phrases.places_line(scores)
    # the counter moves one seat a round: Player 2 starts round 1, so round 16 too (15 passes among 3 players)
    assert "Caller: Round 16 of 16. Player 2 has the First Player counter." in out
    assert out.count("Player 2 has chosen.") == 16
    assert "Game stopped." not in out


def test_bad_input_is_one_line_and_the_same_prompt_again():
    after = deal(8, 2, first=0).apply(Reveal((0, 0))).apply(Reveal((0, 0)))
    missing = next(n for n in range(1, 11) if n not in after.middle)
    script = ["", "5 5", "left 7", "help", "board", "1 1", "1 1", "1 1", "2 2", f"{missing} right", "quit"]
    status, out = run_referee(["--seed", "8", "--first", "1"], script)
    assert status == 0
    assert "Player 1, reveal (ROW COL)> 5 5\nCannot read '5 5': row and column go from 1 to 4. Type 'help'" in out
    assert "Player 1, reveal (ROW COL)> left 7\nCannot read 'left 7'" in out
    assert "Commands:\n  ROW COL" in out
    assert "Player 1, reveal (ROW COL)> board\nPlayer 1's grid:" in out
    assert "Player 1, reveal (ROW COL)> 1 1\nPlayer 1 has chosen." in out
    assert "Player 2, reveal (ROW COL)> 1 1\nPlayer 2 has chosen." in out
    assert f"Caller: In the middle: {after.middle[0]} and {after.middle[1]}." in out
    assert "Player 1, push (CARD SIDE)> 1 1\n'1 1' is a reveal, but it is time to push" in out
    assert "Player 1, push (CARD SIDE)> 2 2\n'2 2' is a reveal" in out
    assert f"Caller: Illegal move: player 1 cannot take a {missing}: it is not in the middle" in out
    assert out.rstrip().endswith("Player 1, push (CARD SIDE)> quit\nGame stopped.")


def test_an_illegal_push_is_called_and_the_player_tries_again():
    state = deal(8, 2, first=0).apply(Reveal((0, 0))).apply(Reveal((0, 0)))
    low = state.middle[0]
    status, out = run_referee(["--seed", "8", "--first", "1"], ["1 1", "1 1", f"{low} left", f"{low} top", f"{low} right"])
    assert status == 0
    assert (
        "Caller: Illegal move: player 1 cannot push from the left: the hole at row 1, column 1 is on that edge, "
        "and a card may not go straight into the hole." in out
    )
    assert f"Caller: Player 1 pushes the {low} in from the right of row 1." in out
    assert out.rstrip().endswith("Game stopped.")  # end of input


def test_options_are_checked(capsys):
    with pytest.raises(CallerError, match="Slide is for 2 to 6 players"):
        referee.main(["--players", "7"])
    with pytest.raises(SystemExit) as exc:
        referee.main(["--help"])
    assert exc.value.code == 0
    assert "usage: caller play slide" in capsys.readouterr().out


def test_caller_play_slide_reads_stdin(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert cli(["play", "slide", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Caller: Slide for two players.\n") and out.rstrip().endswith("Game stopped.")


def test_say_and_voice_out_pass_the_callers_lines_to_voice(monkeypatch):
    calls = []
    monkeypatch.setattr(voice, "say", lambda lines, voice_out=None, speaker=False, config=None: calls.append((list(lines), voice_out, speaker)), raising=False)
    status, _ = run_referee(["--seed", "1", "--say", "--voice-out", "game.wav"], ["quit"])
    assert status == 0
    setup, round1 = phrases.setup_lines(deal(1, 2)), phrases.round_lines(deal(1, 2))
    assert calls == [(setup, None, True), (round1, None, True), (setup + round1, "game.wav", False)]


def test_a_tournament_to_a_low_target_ends_after_one_game():
    # each game's deal comes from a seed drawn from --seed (documented in the README)
    game_seed = random.Random(5).randrange(2**31)
    lines, final = scripted_game(deal(game_seed, 2, first=0), seed=9)
    status, out = run_referee(["--seed", "5", "--first", "1", "--tournament", "--target", "1"], lines)
    assert status == 0
    t = Tournament.start(2, 0, target=1).record(final.scores())
    assert out.splitlines()[-2:] == ["Caller: " + line for line in phrases.tournament_lines(t)]
    assert "Game 1" in out and "Game 2" not in out


def test_board_keeps_the_middle_secret_until_everyone_has_revealed():
    status, out = run_referee(["--seed", "8", "--first", "1"], ["1 1", "board", "quit"])
    assert status == 0
    board = out.split("Player 2, reveal (ROW COL)> board\n", 1)[1]
    assert board.startswith("Player 1's grid:\n  . # # #\n")
    assert "Middle" not in board and "Caller: In the middle" not in out


def test_score_photo_of_every_player_s_grid_names_the_winner(tmp_path, capsys):
    """One photo per player: each grid scored, then the points and the winner as the Caller says them."""
    import cv2

    from simulator.games import layout_for
    from simulator.render import render_table

    layout = layout_for("slide", 4)
    grid = [[card["down"] if isinstance(card, dict) else card for card in row] for row in layout["grid"]]
    assert grid == [[4, 5, 2, 7], [8, 3, 2, 2], [1, 7, 9, 5], [1, 4, 9, 9]]  # 2s and 9s cancel: 43 points
    photo = tmp_path / "bob.jpg"
    cv2.imwrite(str(photo), render_table({**layout, "grid": grid, "deck": "gigamic"}, seed=604, game="slide",
                                         look="wood-classic").image)
    ann = "sample_images/slide_finished.jpg"  # 65 points, 11 cards left
    assert cli(["slide", "score-photo", ann, str(photo), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [(p["image"], p["points"], p["cards"]) for p in out["players"]] == [(ann, 65, 11), (str(photo), 43, 8)]
    assert (out["places"], out["winners"]) == ([2, 1], [1])
    assert cli(["slide", "score-photo", ann, str(photo)]) == 0
    assert capsys.readouterr().out.splitlines()[-3:] == [
        "Player 1 scores 65 points (4 + 9 + 3 + 6 + 8 + 10 + 2 + 1 + 8 + 5 + 9) with 11 cards left.",
        "Player 2 scores 43 points (4 + 5 + 7 + 8 + 3 + 7 + 5 + 4) with 8 cards left.",
        "Player 2 wins with 43 points."]
    # the same grid twice: a tie on points and cards, a shared win; a photo that cannot be scored: one line
    assert cli(["slide", "score-photo", ann, ann]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        "Player 1 and Player 2 tie with 65 points and 11 cards each, and share the victory.")
    assert cli(["slide", "score-photo", ann, "sample_images/slide_a.jpg", "sample_images/slide_b.jpg"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("caller: error: sample_images/slide_a.jpg: cannot score it: ")
    assert err[0].endswith("(and 1 more of the photos cannot be scored)")
