"""``caller watch`` and ``caller demo`` end to end on the recorded sample game (a real video
file stands in for the camera; real decoding, real reader, real speech to WAV)."""

import json
import subprocess
import sys
import wave
from pathlib import Path

import pytest

from caller.cli import main

ROOT = Path(__file__).resolve().parents[1]
VIDEO = ROOT / "sample_images" / "easy-slider_game.mp4"
TRUTH = json.loads(VIDEO.with_suffix(".json").read_text())

pytestmark = pytest.mark.slow


def _moves(events):
    return [(e["tile"], e["from"], e["to"]) for e in events if e["type"] == "move"]


def test_watch_registers_every_slide_in_order_and_verifies_done(tmp_path, capsys):
    out = tmp_path / "events.jsonl"
    wav = tmp_path / "caller.wav"
    status = main(["watch", str(VIDEO), "--events", str(out), "--no-voice", "--voice-out", str(wav)])
    assert status == 0
    events = [json.loads(line) for line in out.read_text().splitlines()]
    assert _moves(events) == _moves(TRUTH["events"])
    assert [e["type"] for e in events if e["type"] != "move"] == ["board", "go", "done"]
    assert events[0]["board"] == TRUTH["start"]["board"]
    done = events[-1]
    truth_done = next(e for e in TRUTH["events"] if e["type"] == "done")
    last_move = [e for e in TRUTH["events"] if e["type"] == "move"][-1]
    # "Done!" within 1 s of the final slide settling (the hand gone), never before the slide
    assert truth_done["t"] <= done["t"] <= last_move["t_clear"] + 1.0
    assert done["correct"] is True and done["say"].startswith("Done! Correct")
    # every event's time is source time: frame index / fps (written to the millisecond)
    assert all(abs(e["t"] * TRUTH["fps"] - round(e["t"] * TRUTH["fps"])) < 0.02 for e in events)
    with wave.open(str(wav)) as w:
        assert w.getnframes() > w.getframerate() * 0.5  # "Go!" and the Done! sentence were spoken
    assert "Caller: Go!" in capsys.readouterr().out


def test_demo_runs_the_sample_game_and_checks_it_against_the_truth(tmp_path):
    wav = tmp_path / "demo.wav"
    proc = subprocess.run([sys.executable, "-m", "caller", "demo", "--no-voice", "--voice-out", str(wav)],
                          capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "Summary: 5 of 5 slides registered in order, 0 illegal-move warnings (expected 0), Done! verified." \
        in proc.stdout
    assert "Traceback" not in proc.stderr
    assert wav.is_file()


def test_an_illegal_swap_is_announced_once_then_accepted_on_command(tmp_path):
    video = ROOT / "sample_images" / "easy-slider_illegal.mp4"
    truth = json.loads(video.with_suffix(".json").read_text())
    swap = next(e for e in truth["events"] if e["type"] == "illegal")
    later = [(e["tile"], e["from"], e["to"]) for e in truth["events"] if e["type"] == "move" and e["t"] > swap["t"]]
    before = [(e["tile"], e["from"], e["to"]) for e in truth["events"] if e["type"] == "move" and e["t"] < swap["t"]]
    out = tmp_path / "events.jsonl"
    assert main(["watch", str(video), "--events", str(out), "--no-voice"]) == 0
    events = [json.loads(line) for line in out.read_text().splitlines()]
    illegal = [e for e in events if e["type"] == "illegal"]
    assert len(illegal) == 1  # once, though the player plays on from the swapped board
    assert illegal[0]["cells"] == swap["cells"]
    assert "changed places" in illegal[0]["reason"]
    assert illegal[0]["say"].startswith("Illegal move. Row 4, column 2 and row 5, column 2")
    assert swap["t_clear"] <= illegal[0]["t"] <= swap["t_clear"] + 1.0  # within 1 s of the board settling
    assert _moves(events) == before  # nothing registered while the warning stands
    # the player accepts the swapped board (a key, or a timed command for a recording)
    cmds = tmp_path / "cmds.txt"
    cmds.write_text(f"{swap['t_clear'] + 1.5:.1f} accept\n")
    out2 = tmp_path / "events2.jsonl"
    assert main(["watch", str(video), "--events", str(out2), "--no-voice", "--commands", str(cmds)]) == 0
    events2 = [json.loads(line) for line in out2.read_text().splitlines()]
    assert [e["type"] for e in events2 if e["type"] not in ("move",)] == ["board", "go", "illegal", "accepted"]
    assert _moves(events2) == before + later


def test_watch_errors_are_one_line(tmp_path, capsys):
    assert main(["watch", str(tmp_path / "nope.mp4"), "--no-voice"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == f"caller: error: {tmp_path / 'nope.mp4'}: no such file, folder or camera"
    bad = tmp_path / "broken.mp4"
    bad.write_bytes(b"\x00" * 100)
    assert main(["watch", str(bad), "--no-voice"]) == 2
    assert capsys.readouterr().err.startswith(f"caller: error: {bad}:")
    assert main(["watch", "96", "--no-voice"]) == 2
    assert "camera 96 cannot be opened" in capsys.readouterr().err
    cmds = tmp_path / "cmds.txt"
    cmds.write_text("soon accept\n")
    assert main(["watch", str(VIDEO), "--no-voice", "--commands", str(cmds)]) == 2
    assert "expected 'SECONDS accept|done [PLAYER]'" in capsys.readouterr().err


def test_demo_of_a_game_of_turns_names_its_players_and_counts_pawn_moves(tmp_path):
    # the first 12 s of the Scavenger Hunt recording (Red's shift and move), as a clip of its own
    import cv2

    video = ROOT / "sample_images" / "scavenger-hunt_game.mp4"
    truth = json.loads(video.with_suffix(".json").read_text())
    src = cv2.VideoCapture(str(video))
    clip = tmp_path / "clip.mp4"
    out = cv2.VideoWriter(str(clip), cv2.VideoWriter_fourcc(*"mp4v"), truth["fps"], tuple(truth["size"]))
    for _ in range(int(12 * truth["fps"])):
        ok, frame = src.read()
        assert ok
        out.write(frame)
    out.release()
    short = dict(truth, events=[e for e in truth["events"] if e["t"] <= 12.0])
    clip.with_suffix(".json").write_text(json.dumps(short))
    proc = subprocess.run([sys.executable, "-m", "caller", "demo", "--game", "scavenger-hunt", "--video", str(clip),
                           "--no-voice", "--voice-out", str(tmp_path / "demo.wav")], capture_output=True, text=True, cwd=tmp_path,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "Caller: Red starts." in proc.stdout  # the players in the recording's turn order
    assert "Summary: 1 of 1 pawn moves registered in order, 0 illegal-move warnings (expected 0), " \
           "no winner yet, as in the recording." in proc.stdout
