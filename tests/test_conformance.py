"""Every registered game plays seeded random games through the shared interface, and every
capability its record declares (``rules.record``, ``caller.games``) exists and agrees: the
codec, the phrasebook, the table description, the simulator scene, the text referee, the
live referee, and the camera commands, which work or refuse with one line."""

import io
import json
import random
import shutil
import sys
from pathlib import Path

import numpy as np
import pytest

import rules
from caller import games
from caller.cli import main
from caller.events import Event
from caller.session import load_truth, truth_summary
from rules.errors import IllegalMove
from rules.record import PARTS, GameRecord
from rules.table import CardGrid, PlayerSide, TableDescription, TileLattice


@pytest.mark.parametrize("name", rules.names())
def test_random_games_follow_the_interface(name):
    game = rules.get(name)
    assert isinstance(game, rules.Game)
    assert game.name == name
    for seed in range(5):
        rng = random.Random(seed)
        state = game.setup(seed=seed)
        assert game.to_json(game.setup(seed=seed)) == game.to_json(state), "same seed, same setup"
        for _ in range(60):
            # the JSON form round-trips at every step
            as_json = json.loads(json.dumps(game.to_json(state)))
            assert game.to_json(game.from_json(as_json)) == game.to_json(state)
            if game.is_over(state):
                assert list(game.legal_moves(state)) == []
                break
            moves = list(game.legal_moves(state))
            assert moves, f"{name}: a game that is not over must offer a move (or a pass)"
            assert len(set(moves)) == len(moves), "moves are distinct values"
            state = game.apply(state, rng.choice(moves))


@pytest.mark.parametrize("name", rules.names())
def test_malformed_json_is_a_rules_error(name):
    game = rules.get(name)
    for bad in (None, [], "x", {"nonsense": 1}):
        with pytest.raises(rules.MalformedPosition):
            game.from_json(bad)


def test_unknown_game():
    with pytest.raises(rules.UnknownGame, match="'chess'"):
        rules.get("chess")


@pytest.mark.parametrize("name", rules.names())
def test_apply_of_a_foreign_move_raises_illegal(name):
    game = rules.get(name)
    state = game.setup(seed=1)
    with pytest.raises(IllegalMove):
        game.apply(state, object())


# -- every game's record: its declared parts exist and agree -----------------------------------

SAMPLES = Path(__file__).resolve().parents[1] / "sample_images"


def _squares_of(name: str, obj: dict) -> tuple[int, int]:
    """(rows, cols) of the square grid in a position's JSON form (each game's documented schema)."""
    grid = {"scavenger-hunt": "coins", "slide": "grids"}.get(name, "board")
    rows = obj[grid][0] if name == "slide" else obj[grid]
    return (len(rows), len(rows[0]))


def test_the_registry_and_the_caller_know_the_same_games():
    assert games.names() == rules.names()
    for name in rules.names():
        assert games.entry(name).record is rules.record(name)
    with pytest.raises(rules.UnknownGame, match="'chess'"):
        games.entry("chess")


@pytest.mark.parametrize("name", rules.names())
def test_the_record_s_parts_exist(name):
    record = rules.record(name)
    assert isinstance(record, GameRecord) and record.name == name
    assert record.game is rules.get(name) and record.title == record.game.title
    for part, ref in record.parts().items():
        assert part in PARTS
        if ref is not None:
            assert record.part(part) is not None, f"{name}: {part} {ref} does not load"
    codec = record.part("codec")
    assert callable(codec.to_json) and callable(codec.from_json)
    explain = record.part("explain")
    if explain is not None:
        assert any(callable(getattr(explain, f, None)) for f in ("explain", "explain_change"))
    assert 1 <= record.max_perft_depth <= 12


@pytest.mark.parametrize("name", rules.names())
def test_the_codec_round_trips_a_setup(name):
    record = rules.record(name)
    codec = record.part("codec")
    state = record.game.setup(seed=3)
    as_json = json.loads(json.dumps(codec.to_json(state)))
    assert as_json["game"] == name
    assert codec.to_json(codec.from_json(as_json)) == as_json == record.game.to_json(state)


@pytest.mark.parametrize("name", rules.names())
def test_the_phrasebook_says_the_setup(name):
    entry = games.entry(name)
    state = entry.game.setup(seed=3)
    lines = entry.setup_lines(state)
    assert lines and all(isinstance(line, str) and line.strip() for line in lines)
    from voice.phrasebook import setup_lines

    assert setup_lines(name, state) == lines  # the voice package's own lookup names the same module


@pytest.mark.parametrize("name", rules.names())
def test_the_table_description_fits_the_setup(name):
    record = rules.record(name)
    table = record.table
    assert isinstance(table, TableDescription)
    state = record.game.setup(seed=3)
    assert record.table_of(state) == table, "the usual setup lies on the usual table"
    assert table.square_shape == _squares_of(name, record.game.to_json(state))
    rows, cols = table.board.rows, table.board.cols
    assert 0 in table.rotations and 180 in table.rotations
    assert (90 in table.rotations) == (rows == cols and 270 in table.rotations)
    if table.player_side is PlayerSide.FROM_PIECES:
        assert table.off_board, "the player's side is told from pieces off the board"
    assert table.player_side_how
    for off in table.off_board:
        assert off.what and len(off.counts) >= 1
    if isinstance(table.board, TileLattice):
        assert table.board.tiles <= 24, "one piecepack has 24 tiles"
        assert all(table.board.has_square((r, c)) or table.board.tile_of((r, c)) in table.board.holes
                   for r in range(table.square_shape[0]) for c in range(table.square_shape[1]))
    else:
        assert isinstance(table.board, CardGrid)


def test_table_values_per_game():
    es, sh, ss, sl, sd = (rules.record(n).table for n in ("easy-slider", "scavenger-hunt", "steppin-stones",
                                                           "slider", "slide"))
    assert (es.board.rows, es.board.cols, es.board.squares, es.board.moving_holes) == (5, 5, (1, 1), 1)
    assert es.board.tiles == 24 and es.on_squares.pieces == ()
    assert [o.count for o in es.off_board] == [4, 5]
    assert (sh.board.rows, sh.board.cols, sh.board.squares, sh.square_shape) == (4, 6, (2, 2), (8, 12))
    assert sh.rotations == (0, 180)
    assert (ss.board.rows, ss.square_shape, len(ss.board.face_up)) == (4, (8, 8), 4)
    assert ss.on_squares.pawn_on_coin and ss.off_board[0].counts == range(0, 5)
    assert (sl.board.rows, sl.square_shape) == (3, (6, 6))
    assert sd.square_shape == (4, 4) and isinstance(sd.board, CardGrid)


def test_tables_that_change_with_the_options():
    from rules.slider.game import GAME as SLIDER
    from rules.steppin_stones.game import GAME as STEPPIN
    from rules.steppin_stones.state import holes

    for n in (3, 5, 8):
        table = rules.record("slider").table_of(SLIDER.setup(seed=1, n=n))
        assert table.square_shape == (n, n) and table.board.rows == (n + 1) // 2
    large = STEPPIN.setup(seed=1, large=True)
    table = rules.record("steppin-stones").table_of(large)
    assert table.square_shape == _squares_of("steppin-stones", STEPPIN.to_json(large)) == (10, 10)
    assert table.board.holes == {(2, 2)} and table.board.tiles == 24
    assert {sq for sq in holes(large.options)} == {(r, c) for r in range(10) for c in range(10)
                                                  if not table.board.has_square((r, c))}


@pytest.mark.parametrize("name", rules.names())
def test_the_simulator_scene_draws_the_table(name):
    from simulator.games import layout_for
    from simulator.looks import get_look

    entry = games.entry(name)
    layout = layout_for(name, 2)
    built = entry.scene(layout, get_look(None), np.random.default_rng(0))
    scene = built[0] if isinstance(built, tuple) else built
    # a Slider layout draws its own board size; the table of that size is the one to match
    table = entry.record.table_of(entry.game.setup(seed=1, n=layout["n"])) if name == "slider" else entry.table
    assert tuple(scene.grid_shape) == table.square_shape


# -- the text referee of every game plays a few scripted moves -----------------------------------


def _script(name: str) -> tuple[list[str], str]:
    """Typed lines for ``caller play NAME --seed 1``: legal moves as the referee reads them, and a
    line the Caller must then have said."""
    game = rules.get(name)
    state = game.setup(seed=1)
    if name == "easy-slider":
        from rules.easy_slider.notation import format_square

        lines = []
        for _ in range(3):
            move = game.legal_moves(state)[0]
            lines.append(format_square(move.src))
            state = game.apply(state, move)
        return lines + ["done"], "Caller: Not done yet"
    if name == "steppin-stones":
        from rules.steppin_stones.notation import format_action

        move = game.legal_moves(state)[0]
        return [format_action(move)], "Caller: "
    if name == "slide":
        return ["1 1", "2 2"], "Caller: "
    return [str(game.legal_moves(state)[0])], "Caller: "


@pytest.mark.parametrize("name", rules.names())
def test_the_text_referee_plays_scripted_moves(name, monkeypatch, capsys):
    lines, said = _script(name)
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(lines) + "\n"))
    assert main(["play", name, "--seed", "1"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert said in out
    for bad in ("Illegal", "cannot read", "? ", "'help' explains"):
        assert bad not in out, f"{name}: {bad!r} in the referee's output:\n{out[-2000:]}"


def test_the_easy_slider_referee_checks_done(tmp_path, monkeypatch, capsys):
    from rules.easy_slider.state import EasySliderState, Slide
    from rules.grid import Grid
    from rules.pieces import Rank, Tile

    game = rules.get("easy-slider")
    start = game.setup(seed=5)
    nulls = [Tile(p.suit, Rank.NULL) for p in start.pawns]
    rows = [[Tile(start.pawns[r].suit, c) for c in start.coins] for r in range(4)] + [nulls + [None]]
    solved = EasySliderState(Grid.of(rows), start.pawns, start.coins)
    assert game.is_over(solved)
    one_off = game.apply(solved, Slide(rows[3][4], (3, 4), (4, 4)))
    position = tmp_path / "one-off.json"
    position.write_text(json.dumps(game.to_json(one_off)))
    monkeypatch.setattr(sys, "stdin", io.StringIO("done\n1,1\nup\ndone\n"))
    assert main(["play", "easy-slider", "--position", str(position)]) == 0
    out = capsys.readouterr().out
    assert "Caller: Not done yet: row 4, column 5 and row 5, column 5 are wrong." in out
    assert "Caller: Illegal move: the " in out and "is not next to the hole at 4,5" in out
    assert "Caller: Done! Correct." in out and "solved in 1 slide." in out


# -- the camera commands work or refuse with one line ---------------------------------------------


def _one_error(err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("caller: error: "), err
    return lines[0]


@pytest.mark.parametrize("name", rules.names())
def test_caller_read_works_or_refuses(name, capsys):
    image = sorted(SAMPLES.glob(f"{name}_*.jpg"))[0]
    status = main(["read", str(image), "--game", name, "--json"])
    out, err = capsys.readouterr()
    if games.entry(name).has("camera"):
        assert status == 0 and err == ""
        assert json.loads(out.splitlines()[0])["game"] == name
    else:
        assert status == 2 and out == ""
        assert f"read --game {name}" in _one_error(err)


@pytest.mark.parametrize("name", rules.names())
def test_caller_watch_works_or_refuses(name, capsys, tmp_path):
    entry = games.entry(name)
    source = SAMPLES / f"{name}_game.mp4"
    recorded = source.exists()
    calls = entry.has("camera") and entry.has("live")
    if not recorded:
        still = sorted(SAMPLES.glob(f"{name}_*.jpg"))[0]
        source = still
        if calls:  # no recorded game: a still of a game under way, held for a second
            source = tmp_path / "frames"
            source.mkdir()
            for i in range(10):
                shutil.copy(still, source / f"f{i:02d}.jpg")
    events = tmp_path / "events.jsonl"
    fps = ["--fps", "10"] if source.is_dir() else []
    truth = load_truth(source.with_suffix(".json")) if recorded else None
    board = next((e for e in truth or () if e["type"] == "board"), {})
    players = ["--players", ",".join(board["players"])] if calls and "players" in entry.live.options else []
    status = main(["watch", str(source), "--game", name, "--no-voice", "--events", str(events), *fps, *players])
    out, err = capsys.readouterr()
    if calls and recorded:  # the recording called as its truth says: every move in order, each warning
        assert status == 0
        said = [Event(e["t"], e["type"], {k: v for k, v in e.items() if k not in ("t", "type", "say")})
                for e in map(json.loads, events.read_text().splitlines())]
        summary = truth_summary(said, truth)
        assert summary["moves_match"] and summary["moves_expected"] > 0 and summary["rolls_match"]
        assert summary["illegal_announced"] == summary["illegal_expected"]
        assert summary["done_called"] == summary["done_expected"]
    elif calls:  # read, and refused as a start position in one line, after saying why
        assert status == 2 and err.splitlines()[-1].startswith(
            f"caller: error: {source}: the table never showed a start position")
        assert [json.loads(line)["type"] for line in events.read_text().splitlines()] == ["illegal"]
    else:
        assert status == 2 and out == "" and not events.exists()
        assert f"watch --game {name}" in _one_error(err)


@pytest.mark.parametrize("name", [n for n in rules.names() if games.entry(n).has("live")])
def test_the_live_part_is_a_live_referee(name):
    from caller.live import LiveCaller
    from caller.live_referee import LiveReferee

    entry = games.entry(name)
    assert issubclass(entry.live, LiveReferee)
    setup = entry.game.setup(seed=3)
    live = entry.live_caller(setup=setup if entry.live.checks_setup else None)
    assert isinstance(live, LiveCaller) and isinstance(live.referee, entry.live)
    assert entry.live_caller().referee is not live.referee  # one referee per board
    clock = ("go", "done", "fumble") if entry.live.clock else ()  # a game of turns has no clock
    for said in ("restored", "accepted", "illegal", "unreadable_start", *clock):
        assert callable(getattr(live.referee.phrases, said))
    # the setup, read sure, starts the game: "Go!" in a race, who starts in a game of turns,
    # the dice seen in a solo game
    first = [e.type for e in live.on_position(0.0, live.referee.reading_of(setup))][:2]
    assert first == [entry.live.board_event, entry.live.opening_event]
    assert (entry.live.opening_event == "go") if entry.live.clock else (entry.live.opening_event in ("turn", "roll"))


@pytest.mark.parametrize("name", [n for n in rules.names() if not games.entry(n).has("live")])
def test_caller_watch_refuses_a_game_without_a_live_referee(name, capsys, tmp_path, monkeypatch):
    """Even once the camera reads a game's table, ``caller watch`` needs its live referee."""
    monkeypatch.setattr("vision.table_reader.what_it_reads", lambda table: "squares")
    events = tmp_path / "events.jsonl"
    status = main(["watch", str(tmp_path / "none.mp4"), "--game", name, "--no-voice", "--events", str(events)])
    out, err = capsys.readouterr()
    assert status == 2 and out == "" and not events.exists()
    line = _one_error(err)
    assert f"watch --game {name}: the live Caller calls" in line and games.entry(name).title in line


def test_caller_race_refuses_without_a_live_referee(capsys, tmp_path, monkeypatch):
    from dataclasses import replace

    monkeypatch.setitem(games._OUTER, "easy-slider", replace(games._OUTER["easy-slider"], live=None))
    out_file = tmp_path / "round.json"
    status = main(["race", "a.mp4", "b.mp4", "--players", "Ann,Bob", "--no-voice", "--out", str(out_file)])
    out, err = capsys.readouterr()
    assert status == 2 and out == "" and not out_file.exists()
    assert _one_error(err).startswith("caller: error: race: the live Caller calls Scavenger Hunt, Steppin' Stones, Slider, Slide only so far, "
                                      "not Easy Slider")


@pytest.mark.parametrize("name", rules.names())
def test_caller_setup_says_the_phrasebook_s_lines(name, capsys):
    assert main(["setup", name, "--seed", "4"]) == 0
    out = capsys.readouterr().out.splitlines()
    entry = games.entry(name)
    assert out[0] == f"{entry.title} setup (seed 4):"
    assert out[1:] == entry.setup_lines(entry.game.setup(seed=4))


def test_a_missing_part_is_refused_with_one_line(monkeypatch):
    from dataclasses import replace

    from caller.errors import CallerError

    slider = games.entry("slider")
    without = replace(slider, outer=replace(slider.outer, referee=None))
    assert without.referee is None and not without.has("referee")
    with pytest.raises(CallerError, match=r"^play slider: there is no text referee for Slider yet$"):
        without.require("referee", "play slider")
    monkeypatch.setitem(games._OUTER, "scavenger-hunt", replace(games._OUTER["scavenger-hunt"], live=None))
    camera_only = games.entry("scavenger-hunt")  # the camera reads its table; no live referee
    assert camera_only.has("camera") and not camera_only.has("live")
    with pytest.raises(CallerError, match=r"^watch --game scavenger-hunt: the live Caller calls Easy Slider, Steppin' Stones, Slider, Slide only so far"):
        camera_only.require("live", "watch --game scavenger-hunt")
