"""Frame sources under faults: a stream that drops and comes back, one that stalls, a stream
that never answers, a truncated recording, an unreadable frame in a folder, and a table that
does not match the announced setup.

The streams are real: MJPEG over HTTP from a server thread on 127.0.0.1
(``simulator.netcam``), read by OpenCV's FFmpeg backend exactly as a network camera is.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import threading
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from caller import sources as S
from caller.cli import main
from caller.sources import Frame, LiveSource, SourceNotice, open_source
from simulator.netcam import MjpegServer, NumberedFrames, Recording

SAMPLES = Path(__file__).resolve().parent.parent / "sample_images"
GAME = SAMPLES / "easy-slider_game.mp4"


# ---------------------------------------------------------------------------------------------
# a stream dropped and restored mid-game: the same game goes on, every slide registered


class QuitWhenDone:
    """Stands in for the player's terminal: types "quit" once the Caller has called "Done!"."""

    def __init__(self, events: list, safety_s: float = 120.0):
        self.events, self.deadline = events, time.monotonic() + safety_s

    def take(self) -> list[str]:
        done = any(e.type == "done" for e in self.events)
        return ["quit"] if done or time.monotonic() > self.deadline else []


def test_a_stream_dropped_and_restored_mid_game_goes_on_with_the_same_game(monkeypatch):
    from caller.live import LiveCaller
    from caller.referees.easy_slider_live import EasySliderLive
    from caller.session import run_session
    from rules import exact_search
    from vision import kernels
    from vision.reader import Reader

    exact_search.warm_up()  # once per process: the stream below plays in real time
    kernels.warm_up()
    truth = json.loads(GAME.with_suffix(".json").read_text())
    moves = [(e["tile"], e["from"], e["to"]) for e in truth["events"] if e["type"] == "move"]
    # the camera is off from 8.5 s to 12 s of the game: the third slide (the hand over the
    # board from 8.8 s, gone at 11.1 s) happens while the Caller sees nothing
    recording = Recording(GAME, wait_for_go=True)
    server = MjpegServer(recording, down=lambda: recording.t0 is not None and 8.5 <= recording.clock() < 12.0)
    events: list = []

    def on_event(ev):
        events.append(ev)
        if ev.type == "go":
            recording.go()

    try:
        with open_source(server.url) as src:
            assert isinstance(src, LiveSource) and src.reconnect
            result = run_session(src, Reader(), LiveCaller(EasySliderLive()), on_event=on_event, stdin=QuitWhenDone(events))
    finally:
        server.close()
    kinds = [e.type for e in events]
    seen = [(e.data["tile"], e.data["from"], e.data["to"]) for e in events if e.type == "move"]
    assert seen == moves  # every slide, in order, the one made while the camera was off too
    assert kinds.count("board") == 1 and kinds.count("go") == 1  # one game: never started again
    assert kinds.count("illegal") == 0 and kinds[-1] == "done"
    camera = [e for e in events if e.type == "camera"]
    assert [e.data["state"] for e in camera] == ["lost", "back"]
    assert camera[0].say == "The camera stopped sending pictures." and camera[0].warning
    assert camera[1].say == "The camera is back."
    # the third slide is registered from the pictures after the camera came back
    third = next(i for i, e in enumerate(events) if e.type == "move" and e.data["tile"] == moves[2][0])
    assert kinds.index("camera") < third and events.index(camera[1]) < third
    assert [n.kind for n in result.notices] == ["lost", "back"] and result.source_problems == []
    assert server.connections >= 2


# ---------------------------------------------------------------------------------------------
# a stream that stalls: open but silent


def test_a_stalled_stream_is_reported_lost_before_it_is_given_up_then_reconnected():
    server = MjpegServer(NumberedFrames(), stall_first=8, fps=20)
    items: list = []
    try:
        src = LiveSource(server.url, reconnect=True, lost_after_s=0.5, read_timeout_s=4.0)
        stalled_when_lost, back_at = None, None
        for item in src.items():
            items.append(item)
            if isinstance(item, SourceNotice) and item.kind == "lost":
                # the silence alone tells: the stalled connection is still open, FFmpeg still waiting
                stalled_when_lost = server.stall_open.is_set()
            if isinstance(item, SourceNotice) and item.kind == "back":
                back_at = len(items)
            if back_at is not None and len(items) - back_at >= 5:
                break
        src.close()
    finally:
        server.close()
    kinds = [i.kind if isinstance(i, SourceNotice) else "frame" for i in items]
    first_notice = kinds.index("lost")
    assert kinds[:first_notice] == ["frame"] * first_notice and first_notice >= 1
    assert kinds[first_notice:first_notice + 2] == ["lost", "back"]
    assert kinds[first_notice + 2:] == ["frame"] * 5
    assert stalled_when_lost is True
    assert items[first_notice].detail == f"stream {server.url} stopped sending pictures; reconnecting"
    assert server.connections == 2
    # source time goes on through the gap, and the frames after it are newer pictures
    frames = [i for i in items if isinstance(i, Frame)]
    assert [f.index for f in frames] == list(range(len(frames)))
    assert all(a.t < b.t for a, b in zip(frames, frames[1:]))


def test_without_reconnect_a_dropped_stream_ends_the_session_with_a_line_and_status_1(tmp_path, monkeypatch, capsys):
    # the recording's first slide (the board still again from 4 s), then the camera goes off for good
    from rules import exact_search
    from vision import kernels

    exact_search.warm_up()
    kernels.warm_up()
    recording = Recording(GAME)
    server = MjpegServer(recording, down=lambda: recording.t0 is not None and recording.clock() >= 6.0)
    events = tmp_path / "ev.jsonl"
    try:
        rc = main(["watch", server.url, "--no-voice", "--no-reconnect", "--events", str(events)])
    finally:
        server.close()
    captured = capsys.readouterr()
    err = captured.err.strip().splitlines()
    assert rc == 1
    lost = [json.loads(line) for line in events.read_text().splitlines()]
    assert [e["type"] for e in lost][:2] == ["board", "go"]
    assert lost[-1]["type"] == "camera" and lost[-1]["state"] == "lost"
    assert lost[-1]["say"] == "The camera stopped sending pictures."
    assert err[-1] == (f"caller: warning: stream {server.url} stopped sending pictures at {lost[-1]['t']:.1f} s "
                       f"and did not come back: the game so far is kept")
    assert "Caller: The camera stopped sending pictures." in captured.out.splitlines()


# ---------------------------------------------------------------------------------------------
# opening: bounded, and Ctrl-C stops it at once


@pytest.mark.timeout(120)
@pytest.mark.parametrize("command", [
    ["watch", "URL", "--no-voice"],
    ["race", "URL", "URL", "--players", "Ann,Bob", "--no-voice"],
    ["calibrate", "--setup", "7", "--camera-source", "URL", "--no-voice", "--out", "OUT"],
])
def test_a_stream_that_sends_nothing_is_one_error_line_not_a_hang(command, tmp_path, monkeypatch, capsys):
    import io

    monkeypatch.setattr(S, "OPEN_TIMEOUT_S", 0.5)
    monkeypatch.setattr("sys.stdin", io.StringIO("\n"))  # the guided calibration's Enter
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as quiet:
        quiet.bind(("127.0.0.1", 0))  # a UDP port that is there and never sends anything
        port = quiet.getsockname()[1]
        args = [f"udp://127.0.0.1:{port}" if a == "URL" else str(tmp_path / "p") if a == "OUT" else a for a in command]
        rc = main(args)
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2 and len(err) == 1
    assert err[0].startswith(f"caller: error: stream udp://127.0.0.1:{port} ")
    assert "0.5 s" in err[0]


def test_ctrl_c_stops_opening_a_stream_that_does_not_answer(monkeypatch):
    # a server that accepts the connection and never answers: FFmpeg waits for the reply
    # until its open timeout (here 60 s); Ctrl-C must not wait for it
    monkeypatch.setattr(S, "OPEN_TIMEOUT_S", 60.0)
    # (Ctrl-C raises KeyboardInterrupt here even where the suite was started with SIGINT
    # ignored, as a shell does for a command it runs in the background)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    accepted = threading.Event()
    held: list[socket.socket] = []

    def accept():
        conn, _ = listener.accept()
        held.append(conn)
        accepted.set()

    threading.Thread(target=accept, daemon=True).start()

    def interrupt():
        accepted.wait()
        os.kill(os.getpid(), signal.SIGINT)

    threading.Thread(target=interrupt, daemon=True).start()
    try:
        with pytest.raises(KeyboardInterrupt):
            open_source(f"http://127.0.0.1:{port}/stream.mjpg")
        # FFmpeg is still waiting on the connection (it has not hung up): the open was abandoned
        held[0].setblocking(False)
        with pytest.raises(BlockingIOError):
            while held[0].recv(4096):  # its request, then nothing: b"" would be the client hanging up
                pass
    finally:
        signal.signal(signal.SIGINT, previous)
        for conn in held:
            conn.close()
        listener.close()


# ---------------------------------------------------------------------------------------------
# files: a truncated recording, an unreadable frame in a folder


def _clip(path: Path, n: int) -> Path:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10.0, (64, 48))
    for i in range(n):
        img = np.zeros((48, 64, 3), np.uint8)
        img[:, :, 1] = 5 * i
        writer.write(img)
    writer.release()
    return path


def test_a_truncated_recording_is_reported_with_the_frames_it_had(tmp_path):
    whole = _clip(tmp_path / "whole.avi", 40)
    cut = tmp_path / "cut.avi"
    cut.write_bytes(whole.read_bytes()[: whole.stat().st_size // 2])
    with open_source(str(whole)) as src:
        assert sum(isinstance(i, SourceNotice) for i in src.items()) == 0
    with open_source(str(cut)) as src:
        assert src.frame_count == 40
        items = list(src.items())
    frames = [i for i in items if isinstance(i, Frame)]
    assert 0 < len(frames) < 38
    assert [round(float(f.image[:, :, 1].mean()) / 5) for f in frames] == list(range(len(frames)))
    assert items[-1] == SourceNotice(len(frames) / 10.0, "truncated",
                                     f"cut.avi ended after {len(frames)} of the 40 frames its header promises "
                                     f"(a truncated or damaged recording)")


def test_an_unreadable_frame_in_a_folder_is_skipped_and_reported(tmp_path):
    for i in range(5):
        img = np.zeros((48, 64, 3), np.uint8)
        img[:, :, 1] = 10 * i
        cv2.imwrite(str(tmp_path / f"f{i:03d}.png"), img)
    (tmp_path / "f002.png").write_bytes(b"\x89PNG\r\n\x1a\n not really")
    src = open_source(str(tmp_path), fps=5)
    items = list(src.items())
    assert [i.index if isinstance(i, Frame) else i.kind for i in items] == [0, 1, "skipped", 3, 4]
    assert items[2] == SourceNotice(0.4, "skipped", f"{tmp_path / 'f002.png'}: cannot be read as an image, skipped",
                                    str(tmp_path / "f002.png"))
    assert [f.index for f in open_source(str(tmp_path), fps=5)] == [0, 1, 3, 4]


def test_watch_goes_on_past_an_unreadable_frame_and_keeps_the_summary(tmp_path, capsys):
    # every third frame of the recording as a still, one of them damaged
    frames = tmp_path / "frames"
    frames.mkdir()
    cap = cv2.VideoCapture(str(GAME))
    i = 0
    while True:
        ok, img = cap.read()
        if not ok:
            break
        if i % 3 == 0:
            cv2.imwrite(str(frames / f"f{i:04d}.jpg"), img)
        i += 1
    (frames / "f0300.jpg").write_bytes(b"\xff\xd8 damaged")
    rc = main(["watch", str(frames), "--fps", "10", "--no-voice", "--events", str(tmp_path / "ev.jsonl")])
    err = capsys.readouterr().err.strip().splitlines()
    events = [json.loads(line) for line in (tmp_path / "ev.jsonl").read_text().splitlines()]
    truth = json.loads(GAME.with_suffix(".json").read_text())
    assert [(e["tile"], e["from"], e["to"]) for e in events if e["type"] == "move"] == \
        [(e["tile"], e["from"], e["to"]) for e in truth["events"] if e["type"] == "move"]
    assert events[-1]["type"] == "done"
    skipped = [e for e in events if e["type"] == "source"]
    assert skipped == [{"t": 10.0, "type": "source", "problem": "skipped",
                        "detail": f"{frames / 'f0300.jpg'}: cannot be read as an image, skipped", "say": None}]
    assert rc == 1
    assert err[-2].startswith("caller: 219 frames (21.9 s of 220 frames") and "; 5 slides, 0 illegal, done at " in err[-2]
    assert err[-1] == f"caller: warning: 1 frame(s) could not be read and were skipped: {frames / 'f0300.jpg'}"


def test_a_source_whose_only_frame_cannot_be_read_is_an_error(tmp_path, capsys):
    """Nothing was watched at all: that is an error (exit 2), not a game with a skipped frame."""
    fake = tmp_path / "text.jpg"
    fake.write_text("not a picture\n")
    assert main(["watch", str(fake), "--no-voice"]) == 2
    assert capsys.readouterr().err == f"caller: error: {fake}: no frame could be read ({fake}: not a picture or a video?)\n"


# ---------------------------------------------------------------------------------------------
# a table that does not match the announced setup


def test_a_table_that_never_matches_the_announced_setup_says_so_and_where(tmp_path, capsys):
    import rules
    from voice.phrasebook.easy_slider import setup_difference_lines

    # the recording's first 1.5 s (the dealt board, before the first slide): another deal than seed 7's
    clip = tmp_path / "start.avi"
    cap = cv2.VideoCapture(str(GAME))
    writer = cv2.VideoWriter(str(clip), cv2.VideoWriter_fourcc(*"MJPG"), 30.0, (1280, 720))
    for _ in range(45):
        writer.write(cap.read()[1])
    writer.release()
    rc = main(["watch", str(clip), "--no-voice", "--setup-seed", "7"])
    captured = capsys.readouterr()
    err = captured.err.strip().splitlines()
    assert rc == 2
    # the recording is another deal: the board was read, and the Caller said what differs
    assert sum(line.startswith("Caller: Check the setup.") for line in captured.out.splitlines()) >= 1
    start = rules.get("easy-slider").from_json(json.loads(GAME.with_suffix(".json").read_text())["start"])
    setup = rules.get("easy-slider").setup(seed=7)
    wrong = setup.board.diff(start.board)
    r, c = wrong[0]
    assert len(wrong) == 23 and setup_difference_lines(setup, start)[0].startswith("The pawn of row 1")
    assert err[-1] == (
        f"caller: error: {clip}: the table never matched the setup announced for --setup-seed 7, so the game did not "
        f"start (the pawns, the coins and 23 tiles differ; first, row {r + 1}, column {c + 1} should be the "
        f"{setup.board.rows[r][c].spoken}, not the {start.board.rows[r][c].spoken}): lay out that setup, or watch "
        f"without --setup-seed")
