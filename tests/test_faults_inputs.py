"""Bad, huge, nested, binary or missing input: every command answers with one line
``caller: error: ...`` and its documented exit status, never a traceback or a hang.

Each test feeds what a user could type or pipe in (files in a temporary folder, never real
devices) and checks the exact outcome.
"""

from __future__ import annotations

import io
import json
import struct
import subprocess
import sys
import wave
import zlib
from pathlib import Path

import numpy as np
import pytest

import rules
from caller.cli import main as cli
from caller.errors import CallerError
from caller.events import Event, announce_event
from caller.inputs import MAX_LINE, read_line
from caller.race import MIN_REGION, RaceRound, lockstep, run_round
from rules.easy_slider.solver import solve
from rules.errors import MalformedPosition, NotationError
from rules.slide.notation import parse_grid_text, parse_move
from vision.errors import ProfileError
from vision.profile import DEFAULT_PROFILE, load_profile
from voice import Announcer, ConsoleSink

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_images"
EASY = rules.get("easy-slider")


def one_error(capsys) -> str:
    """The single stderr line of the last command (fails when there are more, or a traceback)."""
    err = capsys.readouterr().err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("caller: error: "), err[:2000]
    return lines[0]


def layout_file(tmp_path: Path, name: str = "start.json", **changes) -> Path:
    obj = dict(EASY.to_json(EASY.setup(seed=7)), **changes)
    path = tmp_path / name
    path.write_text(json.dumps(obj))
    return path


def png_claiming(path: Path, width: int, height: int) -> Path:
    """A PNG whose header states ``width`` x ``height`` pixels (its data is tiny)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\0" * 64))
                     + chunk(b"IEND", b""))
    return path


# ---------------------------------------------------------------- JSON: nesting and huge numbers


@pytest.mark.parametrize("argv", [["check", "{}"], ["hint", "{}"], ["perft", "easy-slider", "{}", "--depth", "1"],
                                  ["perft", "slide", "{}", "--depth", "1"], ["render", "{}", "-o", "x.png"]])
def test_deeply_nested_json_is_one_line(tmp_path, monkeypatch, capsys, argv):
    monkeypatch.chdir(tmp_path)
    nested = tmp_path / "nested.json"
    nested.write_text("[" * 100_000 + "]" * 100_000)
    assert cli([str(nested) if a == "{}" else a for a in argv]) == 2
    assert one_error(capsys) == f"caller: error: {nested}: arrays or objects nested deeper than 32 levels"


def test_nesting_just_under_the_recursion_limit_is_refused_too(tmp_path, capsys):
    nested = tmp_path / "n.json"
    nested.write_text("[" * 900 + "]" * 900)  # decodes, but would break anything that walks it
    assert cli(["explain", str(layout_file(tmp_path)), str(nested)]) == 2
    assert one_error(capsys).endswith("nested deeper than 32 levels")


def test_nested_truth_camera_and_profile_files_are_one_line(tmp_path, capsys):
    nested = tmp_path / "nested.json"
    nested.write_text("[" * 100_000 + "]" * 100_000)
    photo = str(SAMPLES / "easy-slider_setup_standard.jpg")
    assert cli(["calibrate", photo, "--truth", str(nested), "--out", str(tmp_path / "p")]) == 2
    assert one_error(capsys).startswith(f"caller: error: {nested}: not usable JSON (RecursionError: ")
    assert cli(["read", photo, "--profile", str(tmp_path / "nested")]) == 2
    assert one_error(capsys).startswith(f"caller: error: {tmp_path / 'nested'}: not a readable profile (RecursionError")
    assert cli(["watch", "frames/", "--camera", str(nested)]) == 2
    assert one_error(capsys).startswith(f"caller: error: {nested}: not a readable camera profile (RecursionError")


def test_a_5000_digit_integer_in_json_is_one_line(tmp_path, capsys):
    path = tmp_path / "big.json"
    path.write_text('{"board": [[' + "1" * 5000 + "]]}")
    assert cli(["check", str(path)]) == 2
    assert one_error(capsys) == (f"caller: error: {path}: not usable JSON (Exceeds the limit (4300 digits) for "
                                 "integer string conversion: value has 5000 digits)")


# ---------------------------------------------------------------- bounds on work


def test_perft_depth_is_bounded_per_game(tmp_path, capsys):
    slide = tmp_path / "slide.json"
    slide.write_text(json.dumps(rules.get("slide").to_json(rules.get("slide").setup(seed=1))))
    assert cli(["perft", "slide", str(slide), "--depth", "1000000"]) == 2
    assert one_error(capsys).startswith("caller: error: --depth 1000000: expected 0 to 7 for slide")
    assert cli(["perft", "easy-slider", str(layout_file(tmp_path)), "--depth", "1000"]) == 2
    assert one_error(capsys).startswith("caller: error: --depth 1000: expected 0 to 12 for easy-slider")
    assert cli(["perft", "easy-slider", str(layout_file(tmp_path)), "--depth", "2"]) == 0
    assert capsys.readouterr().out == "6\n"


def test_calibrate_augment_and_seeds_are_bounded(tmp_path, capsys):
    base = ["calibrate", "a.png", "--truth", "a.json", "--out", str(tmp_path / "p")]
    assert cli(base + ["--augment", "1000000"]) == 2
    assert "argument --augment: 1000000: expected a number of variations from 1 to 96" in one_error(capsys)
    assert cli(base + ["--seed", "-1"]) == 2
    assert "argument --seed: -1: expected a seed from 0 to 4294967295" in one_error(capsys)
    assert cli(["render", "--seed", "-1", "-o", str(tmp_path / "x.png")]) == 2
    assert "argument --seed: -1: expected a seed from 0 to 4294967295" in one_error(capsys)
    assert not (tmp_path / "x.png").exists()


# ---------------------------------------------------------------- binary and malformed side files


def test_binary_commands_and_totals_files_are_one_line(tmp_path, capsys):
    binary = tmp_path / "bin.txt"
    binary.write_bytes(bytes(range(256)) * 4)
    race = ["race", "a.mp4", "b.mp4", "--players", "Ann,Bob", "--out", str(tmp_path / "r.json")]
    assert cli(race + ["--commands", str(binary)]) == 2
    assert one_error(capsys).startswith(f"caller: error: {binary}: cannot read (UnicodeDecodeError: ")
    assert cli(race + ["--totals", str(binary)]) == 2
    assert one_error(capsys).startswith(f"caller: error: not a totals file: {binary}: cannot read (UnicodeDecodeError")


def test_race_argument_ranges(tmp_path, capsys):
    race = ["race", "a.mp4", "b.mp4", "--players", "Ann,Bob"]
    for rounds in ("0", "-3"):
        assert cli(race + ["--rounds", rounds]) == 2
        assert f"argument --rounds: {rounds}: expected a number of rounds from 1 to 1000" in one_error(capsys)
    assert cli(["race", "a.mp4", "--players", "Ann,Bob", "--split", "5000x1"]) == 2
    assert one_error(capsys) == "caller: error: --split '5000x1': expected COLSxROWS such as 2x1, each from 1 to 8"
    commands = tmp_path / "c.txt"
    commands.write_text("3 done Zed\n")
    assert cli(race + ["--commands", str(commands)]) == 2
    assert one_error(capsys) == (f"caller: error: {commands}: at 3 s 'done Zed': a race takes 'SECONDS done NAME' "
                                 "with NAME one of Ann, Bob")


def test_a_split_too_fine_for_the_frame_is_refused():
    class One:
        def __iter__(self):
            from caller.sources import Frame
            yield Frame(0, 0.0, np.zeros((720, 1280, 3), np.uint8))

    with pytest.raises(CallerError, match=f"leaves regions of 51x720 px; each board needs at least {MIN_REGION}"):
        next(lockstep([One()], [f"P{i}" for i in range(25)], (25, 1)))
    assert len(next(lockstep([One()], [f"P{i}" for i in range(8)], (8, 2)))[1]) == 8  # 160x360 px each


@pytest.mark.parametrize("fps", ["nan", "inf", "-30", "0"])
def test_watch_fps_must_be_a_positive_number(capsys, fps):
    assert cli(["watch", "frames/", "--fps", fps]) == 2
    assert one_error(capsys) == (f"caller: error: caller watch: argument --fps: {fps!r}: expected a number above 0 "
                                 "('caller watch --help' explains the arguments)")


@pytest.mark.parametrize("budget", ["nan", "inf", "-1"])
def test_the_slider_computers_time_is_a_finite_number(capsys, budget):
    assert cli(["play", "slider", "--ai", "V", "--time", budget]) == 2
    assert one_error(capsys) == (f"caller: error: caller play slider: argument --time: {budget!r}: expected a number "
                                 "0 or more ('caller play slider --help' explains the arguments)")


def test_an_out_of_range_camera_index_is_one_line(capsys):
    assert cli(["watch", "99999999999999999999"]) == 2
    assert one_error(capsys) == "caller: error: camera 999999999999...: no such camera index (expected 0 to 9999)"


# ---------------------------------------------------------------- stdin: closed, endless


@pytest.mark.parametrize("game", ["scavenger-hunt", "steppin-stones", "slider", "slide"])
def test_referees_take_a_closed_stdin_as_the_end_of_input(monkeypatch, capsys, game):
    monkeypatch.setattr(sys, "stdin", None)
    assert cli(["play", game, "--seed", "1"]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    assert captured.out.rstrip().endswith({"slide": "Game stopped.", "slider": "bye."}.get(game, ">"))


@pytest.mark.parametrize("game", ["scavenger-hunt", "steppin-stones", "slider", "slide"])
def test_an_endless_line_is_refused_not_buffered(monkeypatch, capsys, game):
    monkeypatch.setattr(sys, "stdin", io.StringIO("0" * (20 * MAX_LINE)))  # like < /dev/zero
    assert cli(["play", game, "--seed", "1"]) == 2
    assert one_error(capsys) == f"caller: error: an input line is longer than {MAX_LINE} characters"


def test_read_line_bounds():
    assert read_line(None) == ""
    closed = io.StringIO("x\n")
    closed.close()
    assert read_line(closed) == ""
    assert read_line(io.StringIO("a" * MAX_LINE + "\nrest")) == "a" * MAX_LINE + "\n"
    with pytest.raises(CallerError, match="longer than"):
        read_line(io.StringIO("a" * (MAX_LINE + 1) + "\n"))


def test_guided_calibration_with_stdin_closed_cancels(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(sys, "stdin", None)
    assert cli(["calibrate", "--setup", "7", "--no-voice", "--camera-source", str(tmp_path / "none.png"),
                "--out", str(tmp_path / "p")]) == 1
    assert capsys.readouterr().err == "caller: error: calibration cancelled: no confirmation that the pieces are laid out\n"


# ---------------------------------------------------------------- Slide notation


def test_slide_numbers_are_ascii_and_short(tmp_path, capsys):
    for text in ("² 1", "push ² left", "reveal 1 ²", "1² up", "1" * 4400 + " left"):
        with pytest.raises(NotationError, match="cannot read"):
            parse_move(text)
    for bad in ("²", "1" * 5000):
        with pytest.raises(MalformedPosition, match="is not a card"):
            parse_grid_text(f"1 2 3 4\n5 6 7 8\n9 10 1 2\n3 4 5 {bad}\n")
    grid = tmp_path / "g.txt"
    grid.write_text("1 2 3 4\n5 6 7 8\n9 10 1 2\n3 4 5 ²\n")
    assert cli(["slide", "score", str(grid)]) == 2
    assert one_error(capsys) == f"caller: error: {grid} line 4: '²' is not a card: expected a number 1 to 10"
    assert cli(["slide", "explain", str(grid), str(grid)]) == 2
    one_error(capsys)
    ok = tmp_path / "ok.txt"
    ok.write_text("1 2 3 4\n5 6 7 8\n9 10 1 2\n3 4 5 #\n")
    assert cli(["slide", "explain", str(ok), str(ok), "--middle", "²"]) == 2
    assert one_error(capsys).startswith("caller: error: --middle '²': expected card numbers 1 to 10")


# ---------------------------------------------------------------- images and profiles


def test_a_png_header_claiming_ten_gigapixels_is_refused_before_decoding(tmp_path, capsys):
    huge = png_claiming(tmp_path / "huge.png", 100_000, 100_000)
    assert cli(["read", str(huge), str(SAMPLES / "easy-slider_setup_standard.jpg")]) == 1
    captured = capsys.readouterr()
    assert captured.err.splitlines() == [
        f"caller: error: {huge}: the file says the image has more pixels than a camera takes (at most 100 megapixels)",
        "caller: error: 1 of 2 images could not be read",
    ]
    assert captured.out.startswith("sample_images/easy-slider_setup_standard.jpg: confidence 1.00") or \
        "easy-slider_setup_standard.jpg: confidence 1.00" in captured.out
    assert cli(["calibrate", str(png_claiming(tmp_path / "big.png", 12_000, 9_000)), "--truth",
                str(layout_file(tmp_path)), "--out", str(tmp_path / "p")]) == 2
    assert one_error(capsys).endswith("(at most 100 megapixels: 12000x9000)")


def test_read_reports_each_failed_image_on_stderr(tmp_path, capsys):
    junk = tmp_path / "junk.jpg"
    junk.write_bytes(b"not a picture")
    good = str(SAMPLES / "easy-slider_setup_standard.jpg")
    assert cli(["read", str(junk), good, "--json"]) == 1
    captured = capsys.readouterr()
    assert captured.err.splitlines() == [
        f"caller: error: {junk}: not an image OpenCV can read (expected JPEG, PNG, BMP, TIFF or WebP)",
        "caller: error: 1 of 2 images could not be read",
    ]
    out = [json.loads(line) for line in captured.out.splitlines()]
    assert [o.get("image") for o in out] == [str(junk), good] and "error" in out[0] and "board" in out[1]


def test_another_games_photo_is_no_board_in_view(capsys):
    photo = str(SAMPLES / "slide_a.jpg")
    assert cli(["read", photo]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.splitlines()[0] == (
        f"caller: error: {photo}: no board in view: tiles on a lattice, but only 0 of 25 cells look like tiles "
        "of the set (another game's board, the board mostly covered, or a set this profile does not know: learn it "
        "with 'caller calibrate')")


def _profile_copy(tmp_path: Path, name: str, arrays: bytes | dict) -> Path:
    head = json.loads(DEFAULT_PROFILE.with_suffix(".json").read_text())
    head["arrays"] = f"{name}.npz"
    (tmp_path / f"{name}.json").write_text(json.dumps(head))
    npz = tmp_path / f"{name}.npz"
    if isinstance(arrays, bytes):
        npz.write_bytes(arrays)
    else:
        np.savez(npz, **arrays)
    return tmp_path / name


def test_damaged_profiles_are_one_line(tmp_path):
    good = DEFAULT_PROFILE.with_suffix(".npz").read_bytes()
    with pytest.raises(ProfileError, match=r"is damaged \(EOFError"):
        load_profile(_profile_copy(tmp_path, "empty", b""))
    with pytest.raises(ProfileError, match=r"is damaged \(BadZipFile"):
        load_profile(_profile_copy(tmp_path, "cut", good[:3000]))
    with np.load(DEFAULT_PROFILE.with_suffix(".npz")) as npz:
        arrays = {k: npz[k].copy() for k in npz.files}
    arrays["tiles_means"][0, 0] = np.nan
    with pytest.raises(ProfileError, match="'tiles' model: class model holds NaN or infinite numbers"):
        load_profile(_profile_copy(tmp_path, "nan", arrays))


# ---------------------------------------------------------------- layouts that are not Easy Slider's


def test_check_explain_hint_refuse_another_games_layout(tmp_path, capsys):
    chess = layout_file(tmp_path, "chess.json", game="chess")
    start = layout_file(tmp_path)
    for argv in (["check", str(chess)], ["hint", str(chess)], ["explain", str(start), str(chess)],
                 ["explain", str(chess), str(start)]):
        assert cli(argv) == 2
        assert "is for game 'chess', expected 'easy-slider'" in one_error(capsys)


def test_render_refuses_a_tile_twice(tmp_path, capsys):
    obj = EASY.to_json(EASY.setup(seed=7))
    obj["board"][0][1] = obj["board"][0][0]
    layout = tmp_path / "dup.json"
    layout.write_text(json.dumps(obj))
    out = tmp_path / "out" / "dup.png"
    assert cli(["render", str(layout), "-o", str(out)]) == 2
    tile = obj["board"][0][0]
    assert one_error(capsys) == f"caller: error: {layout}: tile {tile} is on the board twice, at [0, 0] and [0, 1]"
    assert not out.exists()


def test_demo_checks_the_truth_file_before_the_run(tmp_path, capsys):
    video = tmp_path / "g.mp4"
    video.write_bytes(b"never played")
    (tmp_path / "g.json").write_text('{"events": [{"type": "move"}]}')
    assert cli(["demo", "--video", str(video), "--no-voice", "--voice-out", ""]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (f"caller: error: {tmp_path / 'g.json'}: not a recording's truth file (expected an object "
                            "whose 'events' list holds objects with a 'type', and 'from', 'to' and the 'tile', 'pawn' or "
                            "'side' moved for each move)\n")


# ---------------------------------------------------------------- the error line itself


def test_usage_errors_are_one_line(capsys):
    assert cli(["perft", "nope"]) == 2
    assert one_error(capsys).startswith("caller: error: caller perft: argument game: invalid choice: 'nope'")
    assert cli(["--bogus"]) == 2
    assert one_error(capsys) == ("caller: error: unrecognized arguments: --bogus "
                                 "('caller --help' explains the arguments)")
    assert cli(["play", "slide", "--players", "x"]) == 2
    assert one_error(capsys).startswith("caller: error: caller play slide: argument --players: invalid int value")


@pytest.mark.parametrize("argv", [[], ["slider"], ["slide"]])
def test_a_command_group_alone_prints_its_help(capsys, argv):
    assert cli(argv) == 0
    captured = capsys.readouterr()
    assert captured.err == "" and captured.out.startswith("usage: caller")


def test_an_error_line_quotes_at_most_a_few_hundred_characters(tmp_path, capsys):
    assert cli(["perft", "x" * 200_000]) == 2
    line = one_error(capsys)
    assert len(line) < 420 and line.endswith("characters in all)")
    commands = tmp_path / "c.txt"
    commands.write_text("1 " + "y" * 200_000 + "\n")
    assert cli(["watch", "frames/", "--commands", str(commands)]) == 2
    assert len(one_error(capsys)) < 300


def test_video_library_logs_stay_off_stderr(tmp_path):
    cut = tmp_path / "cut.mp4"
    cut.write_bytes((SAMPLES / "easy-slider_game.mp4").read_bytes()[:5000])  # no moov atom
    proc = subprocess.run([sys.executable, "-m", "caller", "watch", str(cut), "--no-voice"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert proc.stderr == f"caller: error: {cut}: cannot be opened as a video (unknown format or damaged file)\n"


# ---------------------------------------------------------------- voice


def test_a_repeated_illegal_move_is_warned_again_after_the_board_was_put_back():
    out = io.StringIO()
    illegal = Event(1.0, "illegal", {"reason": "swap", "cells": [[0, 0], [0, 1]]}, "Illegal move: two tiles swapped.",
                    warning=True)
    written = []
    with Announcer([ConsoleSink(out)]) as announcer:
        for ev in (illegal,
                   Event(1.5, "illegal", illegal.data, illegal.say, warning=True),  # the same, nothing changed
                   Event(2.0, "restored", {}, "Thank you."),
                   Event(3.0, "illegal", illegal.data, illegal.say, warning=True)):  # made again: warned again
            written.append(announce_event(announcer, ev))
            announcer.wait_idle()
    assert [e.say for e in written] == [illegal.say, None, "Thank you.", illegal.say]
    assert out.getvalue().splitlines() == [f"Caller: {illegal.say}", "Caller: Thank you.", f"Caller: {illegal.say}"]


def test_the_speaking_rate_is_applied_in_every_process(tmp_path):
    """The same sentence rendered in fresh processes has exactly the same length (a dropped rate
    change made about one render in four come out at the driver's default rate)."""
    script = ("import sys, wave; from voice import say; say(['Row five: Blue 5, Blue Null, Blue 3, Red 4, and the "
              "hole.'], voice_out=sys.argv[1], speaker=False); w = wave.open(sys.argv[1]); print(w.getnframes())")
    frames = []
    for i in range(8):
        proc = subprocess.run([sys.executable, "-c", script, str(tmp_path / f"{i}.wav")], cwd=ROOT,
                              capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, proc.stderr
        frames.append(int(proc.stdout.split()[-1]))
    assert len(set(frames)) == 1, frames
    with wave.open(str(tmp_path / "0.wav")) as w:
        assert w.getnframes() / w.getframerate() > 5.5  # 140 words a minute, not the driver's 200


# ---------------------------------------------------------------- race: the same recording twice


def test_the_same_recording_for_two_players_is_a_tie():
    from test_race_round import FrameList, TaggedReader, path_states, play

    setup = EASY.setup(seed=4)
    reader = TaggedReader()
    states = path_states(setup, solve(setup))
    frames = play(reader, states[::6] + [states[-1]])
    race = RaceRound(["Ann", "Bob"], setup, reader)
    events: list[Event] = []
    run_round(race, lockstep([FrameList(frames), FrameList(frames)], ["Ann", "Bob"], None), events.append)
    said = [e.say for e in events if e.say]
    assert said.count(f"Ann: Done! Correct, in {said[0].split('in ', 1)[1]}") == 1
    assert sum(1 for s in said if s.startswith("Bob: Done!")) == 1
    finishes = [(e.data["player"], e.data["place"]) for e in events if e.type == "finish"]
    assert finishes == [("Ann", 1), ("Bob", 1)]
    assert race.points() == {"Ann": 0, "Bob": 0}
    record = race.record(seed=4, round_no=1)
    assert record["slides"]["Ann"] == record["slides"]["Bob"] > 0
    assert [e.type for e in events].count("round_over") == 1
