"""Outputs under faults: nothing destroyed, nothing half-written, nothing lost after the work.

Special files are FIFOs in a temporary folder, never real devices. A full disk is a 64 KiB
tmpfs where this runs as root and can mount one (those tests skip otherwise), and an
injected writer that fails with ENOSPC everywhere.
"""

from __future__ import annotations

import errno
import io
import json
import os
import select
import shutil
import signal
import stat
import subprocess
import sys
import threading
import wave
from pathlib import Path

import pytest

import voice.notices
from caller.cli import main
from rules.outputs import OutputError, OutputFiles, StreamingOutput, check_outputs, write_bytes, write_text
from voice import Announcer, ConsoleSink, VoiceConfig, WavSink
from voice.engine import Speech, SubprocessEngine

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_images"
GAME_VIDEO = SAMPLES / "easy-slider_game.mp4"
STILL = SAMPLES / "easy-slider_setup_standard.jpg"
STILL_TRUTH = SAMPLES / "easy-slider_setup_standard.json"


@pytest.fixture(autouse=True)
def fresh_notices():
    voice.notices.reset()
    yield
    voice.notices.reset()


class FifoReader:
    """Reads everything written into a FIFO; a reader exists from construction on (so a writer
    that refuses FIFOs nobody reads does not refuse this one)."""

    def __init__(self, path: Path):
        self.fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        self.data = bytearray()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        poller = select.poll()
        poller.register(self.fd, select.POLLIN)
        while True:
            poller.poll()  # Linux: no hang-up before the first writer came
            chunk = os.read(self.fd, 65536)
            if not chunk:
                return
            self.data += chunk

    def result(self) -> bytes:
        self.thread.join(60)
        os.close(self.fd)
        return bytes(self.data)


def _wav_frames(data: bytes) -> int:
    with wave.open(io.BytesIO(data), "rb") as w:
        return w.getnframes()


def _listing(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def _enospc(*args, **kwargs):
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


@pytest.fixture
def tiny_fs(tmp_path):
    """A 64 KiB tmpfs (root only): a real full disk."""
    folder = tmp_path / "tiny"
    folder.mkdir()
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a tmpfs needs root")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(folder)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], capture_output=True)


def _fill(folder: Path) -> None:
    """Use up every free byte of ``folder``'s filesystem."""
    with open(folder / "filler", "wb", buffering=0) as fh:
        try:
            while True:
                fh.write(b"\0" * 4096)
                fh.flush()
        except OSError as exc:
            assert exc.errno == errno.ENOSPC


# -- the outputs package -------------------------------------------------------------------------


def test_a_fifo_is_written_through_and_stays_a_fifo(tmp_path):
    fifo = tmp_path / "f.fifo"
    os.mkfifo(fifo)
    reader = FifoReader(fifo)
    write_bytes(fifo, b"RIFF" + bytes(range(256)) * 1000)  # more than a pipe's buffer
    assert reader.result() == b"RIFF" + bytes(range(256)) * 1000
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert _listing(tmp_path) == ["f.fifo"]


def test_a_fifo_nobody_reads_is_refused_without_hanging(tmp_path):
    fifo = tmp_path / "f.fifo"
    os.mkfifo(fifo)
    with pytest.raises(OutputError, match=r"f\.fifo: is a pipe with nothing reading it"):
        write_text(fifo, "x")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert _listing(tmp_path) == ["f.fifo"]


def test_a_symlink_stays_a_link_and_the_file_it_names_is_replaced(tmp_path):
    (tmp_path / "real.json").write_text("old")
    (tmp_path / "link.json").symlink_to("real.json")
    write_text(tmp_path / "link.json", "new")
    assert os.readlink(tmp_path / "link.json") == "real.json"
    assert (tmp_path / "real.json").read_text() == "new"
    assert _listing(tmp_path) == ["link.json", "real.json"]


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path):
    out = tmp_path / "r.json"
    out.write_text("old round")
    with pytest.raises(OutputError, match=r"r\.json: cannot write \(No space left on device\)"):
        with OutputFiles(out) as files, files.open(out) as fh:
            fh.write("half a rou")
            _enospc()
    assert out.read_text() == "old round"
    assert _listing(tmp_path) == ["r.json"]


def test_a_set_of_files_appears_together_or_not_at_all(tmp_path):
    a, b = tmp_path / "p.npz", tmp_path / "p.json"
    with pytest.raises(KeyboardInterrupt):
        with OutputFiles(a, b) as files:
            files.open(a, "wb").close()
            raise KeyboardInterrupt
    assert _listing(tmp_path) == []
    with OutputFiles(a, b) as files:
        with files.open(a, "wb") as fh:
            fh.write(b"arrays")
        with files.open(b) as fh:
            fh.write("head")
    assert (a.read_bytes(), b.read_text()) == (b"arrays", "head")
    assert _listing(tmp_path) == ["p.json", "p.npz"]


def test_a_new_file_gets_the_usual_permissions_and_a_replaced_one_keeps_its_own(tmp_path):
    umask = os.umask(0o022)
    try:
        write_text(tmp_path / "new.txt", "x")
        (tmp_path / "old.txt").write_text("x")
        os.chmod(tmp_path / "old.txt", 0o640)
        write_text(tmp_path / "old.txt", "y")
    finally:
        os.umask(umask)
    assert stat.S_IMODE(os.stat(tmp_path / "new.txt").st_mode) == 0o644
    assert stat.S_IMODE(os.stat(tmp_path / "old.txt").st_mode) == 0o640


def test_output_paths_are_checked_before_any_work(tmp_path):
    (tmp_path / "in.mp4").write_bytes(b"video")
    os.link(tmp_path / "in.mp4", tmp_path / "same.mp4")
    (tmp_path / "file").write_text("x")
    cases = {
        str(tmp_path): "is a folder, expected a file name",
        str(tmp_path / "nodir" / "e.jsonl"): f"the folder {tmp_path / 'nodir'} does not exist",
        str(tmp_path / "file" / "e.jsonl"): f"{tmp_path / 'file'} is a file, not a folder",
        str(tmp_path / "in.mp4"): "is also an input of this command: it would be overwritten",
        str(tmp_path / "same.mp4"): f"is also an input of this command ({tmp_path / 'in.mp4'}): it would be overwritten",
    }
    for path, reason in cases.items():
        with pytest.raises(OutputError) as info:
            check_outputs([path], [str(tmp_path / "in.mp4")])
        assert (info.value.path, info.value.reason) == (path, reason)
    with pytest.raises(OutputError, match="given for two outputs of this command"):
        check_outputs([str(tmp_path / "a.wav"), str(tmp_path / "." / "a.wav")])
    check_outputs([None, "-", str(tmp_path / "ok.json")], [str(tmp_path / "*.mp4")])
    with pytest.raises(OutputError, match="is also an input"):
        check_outputs([str(tmp_path / "same.mp4")], [str(tmp_path / "in.*")])  # a frames pattern counts as its files


def test_a_streamed_file_appears_when_closed_with_everything_written(tmp_path):
    out = tmp_path / "events.jsonl"
    stream = StreamingOutput(out)
    stream.write('{"t": 0.5}\n')
    assert not out.exists() and len(_listing(tmp_path)) == 1  # the temporary file, hidden
    stream.write('{"t": 1.0}\n')
    stream.close()
    assert out.read_text() == '{"t": 0.5}\n{"t": 1.0}\n'
    assert _listing(tmp_path) == ["events.jsonl"]


# -- commands: inputs are never overwritten, bad paths fail before the work -------------------------


def test_watch_refuses_events_over_the_video_it_watches(tmp_path, capsys):
    video = tmp_path / "v.mp4"
    shutil.copy(GAME_VIDEO, video)
    size = video.stat().st_size
    assert main(["watch", str(video), "--no-voice", "--events", str(video)]) == 2
    assert capsys.readouterr().err == f"caller: error: {video}: is also an input of this command: it would be overwritten\n"
    assert video.stat().st_size == size


def test_setup_voice_out_into_a_fifo_writes_the_wav_through_it(tmp_path, capsys):
    fifo = tmp_path / "f.fifo"
    os.mkfifo(fifo)
    reader = FifoReader(fifo)
    assert main(["setup", "--seed", "7", "--voice-out", str(fifo)]) == 0
    lines = capsys.readouterr().out.splitlines()[1:]  # the sentences said, after the title
    assert len(lines) == 7 and _wav_frames(reader.result()) > 22050 * 0.5 * len(lines)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert _listing(tmp_path) == ["f.fifo"]


def test_setup_refuses_a_wav_over_its_own_settings_file(tmp_path, capsys):
    config = tmp_path / "caller.toml"
    config.write_text("[voice]\nrate = 160\n")
    assert main(["setup", "--seed", "7", "--config", str(config), "--voice-out", str(config)]) == 2
    out, err = capsys.readouterr()
    assert (out, err) == ("", f"caller: error: {config}: is also an input of this command: it would be overwritten\n")
    assert config.read_text() == "[voice]\nrate = 160\n"


def test_render_refuses_to_write_its_truth_over_the_layout_it_draws(tmp_path, capsys):
    layout = tmp_path / "lay.json"
    shutil.copy(STILL_TRUTH, layout)
    before = layout.read_bytes()
    assert main(["render", str(layout), "-o", str(tmp_path / "lay.jpg")]) == 2
    assert capsys.readouterr().err == f"caller: error: {layout}: is also an input of this command: it would be overwritten\n"
    assert layout.read_bytes() == before and _listing(tmp_path) == ["lay.json"]


def test_calibrate_refuses_a_profile_over_its_own_truth(tmp_path, capsys):
    truth = tmp_path / "t.json"
    shutil.copy(STILL_TRUTH, truth)
    before = truth.read_bytes()
    assert main(["calibrate", str(STILL), "--truth", str(truth), "--out", str(tmp_path / "t"), "--quiet"]) == 2
    assert capsys.readouterr().err == f"caller: error: {truth}: is also an input of this command: it would be overwritten\n"
    assert truth.read_bytes() == before


def test_calibrate_camera_refuses_a_profile_over_a_frame(tmp_path, capsys):
    frame = tmp_path / "f.png"
    shutil.copy(STILL, frame)
    before = frame.read_bytes()
    assert main(["calibrate-camera", str(frame), "--out", str(frame), "--quiet"]) == 2
    assert capsys.readouterr().err == f"caller: error: {frame}: is also an input of this command: it would be overwritten\n"
    assert frame.read_bytes() == before


@pytest.mark.parametrize("argv, line", [
    (["watch", str(GAME_VIDEO), "--no-voice", "--events", "{tmp}"], "{tmp}: is a folder, expected a file name"),
    (["calibrate", str(STILL), "--truth", str(STILL_TRUTH), "--out", "{tmp}"],
     "{tmp}: is a folder: expected a profile name such as myset or DIR/myset"),
    (["read", str(STILL), "--debug", "{tmp}/file"], "{tmp}/file: is a file, expected a folder"),
    (["race", str(GAME_VIDEO), str(GAME_VIDEO), "--players", "Ann,Bob", "--no-voice", "--out", "{tmp}/nodir/r.json"],
     "{tmp}/nodir/r.json: the folder {tmp}/nodir does not exist"),
    (["render", "--seed", "1", "-o", "{tmp}/file/x.jpg"], "{tmp}/file/x.jpg: {tmp}/file is a file, not a folder"),
])
def test_a_bad_output_path_is_one_line_before_the_work(tmp_path, capsys, argv, line):
    (tmp_path / "file").write_text("x")
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert err == "caller: error: " + line.replace("{tmp}", str(tmp_path)) + "\n"
    assert out == "" and _listing(tmp_path) == ["file"]


def test_race_refuses_malformed_totals_before_the_round(tmp_path, capsys):
    totals = tmp_path / "totals.json"
    totals.write_text(json.dumps({"players": ["Ann", "Bob"], "rounds": [5]}))
    assert main(["race", str(GAME_VIDEO), str(GAME_VIDEO), "--players", "Ann,Bob", "--no-voice",
                 "--totals", str(totals), "--out", str(tmp_path / "r.json")]) == 2
    assert capsys.readouterr().err == (f"caller: error: {totals}: a round's points must map each of ['Ann', 'Bob'] "
                                       "to a whole number, got 5\n")


# -- interrupts: what was done is saved ---------------------------------------------------------------


def _wrapped_interrupt():
    """A Ctrl-C as it comes out of a numba-compiled loop: a SystemError around the interrupt."""
    try:
        raise KeyboardInterrupt
    except KeyboardInterrupt as inner:
        raise SystemError("CPUDispatcher(<function ink_maps>) returned a result with an exception set") from inner


@pytest.mark.parametrize("interrupt", ["plain", "inside compiled code"])
def test_an_interrupted_race_saves_the_round_so_far(tmp_path, capsys, monkeypatch, interrupt):
    import caller.race

    played = []

    def interrupted_round(race, frames, on_event, commands=None, heard=None):
        for t, _images in frames:  # a few frames of the round, then Ctrl-C
            played.append(t)
            if len(played) == 3:
                if interrupt == "plain":
                    raise KeyboardInterrupt
                _wrapped_interrupt()

    monkeypatch.setattr(caller.race, "run_round", interrupted_round)
    out = tmp_path / "r.json"
    assert main(["race", str(GAME_VIDEO), str(GAME_VIDEO), "--players", "Ann,Bob", "--seed", "12", "--no-voice",
                 "--out", str(out)]) == 130
    assert capsys.readouterr().err.splitlines()[-2:] == [f"caller: round 1 so far saved to {out}", "caller: interrupted"]
    record = json.loads(out.read_text())
    assert (record["round"], record["seed"], record["players"]) == (1, 12, ["Ann", "Bob"])
    assert (record["complete"], record["points"], record["finishes"]) == (False, None, [])
    assert _listing(tmp_path) == ["r.json"]


class _CtrlCStdin:
    """A terminal where the player presses Ctrl-C at the first prompt."""

    def readline(self, limit=-1):
        raise KeyboardInterrupt


@pytest.mark.parametrize("game", ["steppin-stones", "slider", "scavenger-hunt"])
def test_ctrl_c_in_a_referee_keeps_the_voice_out_wav(tmp_path, capsys, monkeypatch, game):
    monkeypatch.setattr(sys, "stdin", _CtrlCStdin())
    wav = tmp_path / "game.wav"
    assert main(["play", game, "--seed", "4", "--voice-out", str(wav)]) == 130
    said = [line for line in capsys.readouterr().out.splitlines() if line.startswith("Caller: ")]
    assert said and _wav_frames(wav.read_bytes()) > 22050 * 0.5 * len(said)  # every line said is in it
    assert _listing(tmp_path) == ["game.wav"]


def test_a_referee_checks_voice_out_before_the_game(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert main(["play", "slider", "--voice-out", str(tmp_path / "nodir" / "g.wav")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == f"caller: error: {tmp_path}/nodir/g.wav: the folder {tmp_path}/nodir does not exist\n"


def test_a_referee_refuses_a_wav_over_the_position_it_starts_from(tmp_path, capsys, monkeypatch):
    from rules.steppin_stones.game import GAME

    position = tmp_path / "p.json"
    position.write_text(json.dumps(GAME.to_json(GAME.setup(seed=4))))
    before = position.read_text()
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert main(["play", "steppin-stones", "--position", str(position), "--voice-out", str(position)]) == 2
    out, err = capsys.readouterr()
    assert (out, err) == ("", f"caller: error: {position}: is also an input of this command: it would be overwritten\n")
    assert position.read_text() == before


def test_sigterm_keeps_the_wav_of_watch_and_exits_143(tmp_path):
    wav = tmp_path / "w.wav"
    proc = subprocess.Popen([sys.executable, "-m", "caller", "watch", str(GAME_VIDEO), "--no-voice",
                             "--voice-out", str(wav), "--events", str(tmp_path / "e.jsonl")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    assert proc.stdout.readline() == "Caller: Go!\n"  # announced at 0.5 s of a 22 s recording
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 143, err
    assert err.splitlines()[-1] == "caller: terminated" and "Traceback" not in err
    assert _wav_frames(wav.read_bytes()) > 22050 * 0.3  # "Go!" at least, in a whole WAV
    events = [json.loads(line) for line in (tmp_path / "e.jsonl").read_text().splitlines()]
    assert [e["type"] for e in events[:2]] == ["board", "go"]
    assert _listing(tmp_path) == ["e.jsonl", "w.wav"]


# -- a closed stdout ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def finish_clip(tmp_path_factory):
    """The last 4 s of the sample game (the board is read at 2.5 s, already solved): "Go!", then "Done!"."""
    import cv2

    path = tmp_path_factory.mktemp("clip") / "finish.mp4"
    cap = cv2.VideoCapture(str(GAME_VIDEO))
    cap.set(cv2.CAP_PROP_POS_FRAMES, 540)
    out = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), cap.get(cv2.CAP_PROP_FPS),
                          (int(cap.get(cv2.CAP_PROP_FRAME_WIDTH)), int(cap.get(cv2.CAP_PROP_FRAME_HEIGHT))))
    while True:
        ok, frame = cap.read()
        if not ok:
            break
        out.write(frame)
    out.release()
    cap.release()
    return path


class _ClosingStdout(io.StringIO):
    """A stdout whose reader goes away after ``keep`` lines (``| head -1``)."""

    def __init__(self, keep: int):
        super().__init__()
        self.keep = keep

    def write(self, text):
        if self.getvalue().count("\n") >= self.keep:
            raise BrokenPipeError(errno.EPIPE, "Broken pipe")
        return super().write(text)


def test_a_broken_console_does_not_stop_the_wav():
    sink = WavSink(os.devnull)  # rendered sentences are what is checked
    console = ConsoleSink(_ClosingStdout(keep=1))
    speech = Speech(VoiceConfig(), engine=SubprocessEngine())
    with Announcer([console, sink], speech=speech) as a:
        for text in ("Go!", "Row 2, column 3: the Red Ace was lifted.", "Done!"):
            a.announce(text)
    assert [r.frames > 0 for r in sink.rendered] == [True, True, True]
    assert a.stats.spoken == 3 and console.broken


def test_watch_piped_into_head_keeps_speaking_to_the_wav(tmp_path, capsys, monkeypatch, finish_clip):
    stdout = _ClosingStdout(keep=1)
    monkeypatch.setattr(sys, "stdout", stdout)
    said = []
    emit = WavSink.emit
    monkeypatch.setattr(WavSink, "emit", lambda self, message: (said.append(message.text), emit(self, message)))
    wav = tmp_path / "p.wav"
    assert main(["watch", str(finish_clip), "--no-voice", "--voice-out", str(wav)]) == 0
    assert stdout.getvalue() == "Caller: Go!\n"
    assert said == ["Go!", "Done! Correct, in 0 seconds."]
    assert _wav_frames(wav.read_bytes()) > 22050 * 1.5
    err = capsys.readouterr().err
    assert "caller: the text output stopped (closed): the Caller's lines go on to the other outputs\n" in err
    assert "Traceback" not in err


def test_watch_events_to_a_closed_stdout_go_on_with_the_session(capsys, monkeypatch, finish_clip):
    stdout = _ClosingStdout(keep=1)
    monkeypatch.setattr(sys, "stdout", stdout)
    assert main(["watch", str(finish_clip), "--no-voice", "--events", "-"]) == 0
    assert stdout.getvalue().count("\n") == 1
    err = capsys.readouterr().err
    assert "caller: stdout was closed: the events are no longer printed, the Caller goes on\n" in err
    assert "118 frames" in err and "done at 2.5 s" in err  # the whole recording was watched


# -- a full disk ---------------------------------------------------------------------------------


class _FullStdout(io.StringIO):
    def write(self, text):
        _enospc()

    def flush(self):
        _enospc()


def test_stdout_on_a_full_disk_is_one_line(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdout", _FullStdout())
    assert main(["setup", "--seed", "7"]) == 2
    assert capsys.readouterr().err == "caller: error: cannot write the output (No space left on device)\n"


def test_stdout_on_a_full_tmpfs_is_one_line(tiny_fs):
    _fill(tiny_fs)
    with open(tiny_fs / "out.txt", "w") as out:
        done = subprocess.run([sys.executable, "-m", "caller", "setup", "--seed", "7"], stdout=out,
                              stderr=subprocess.PIPE, text=True, cwd=ROOT, timeout=60)
    assert (done.returncode, done.stderr) == (2, "caller: error: cannot write the output (No space left on device)\n")


def test_a_pattern_sheet_on_a_full_disk_is_our_line_only(tiny_fs):
    """The picture is encoded in memory and written by Python: no libpng complaint on stderr
    before the Caller's own line, and no broken PNG left."""
    _fill(tiny_fs)
    board = tiny_fs / "board.png"
    done = subprocess.run([sys.executable, "-m", "caller", "calibrate-camera", "--print-board", str(board)],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert (done.returncode, done.stderr) == (2, f"caller: error: {board}: cannot write (No space left on device)\n")
    assert not board.exists()


def test_a_video_on_a_full_disk_leaves_neither_video_nor_truth(tiny_fs, capsys):
    (tiny_fs / "filler").write_bytes(b"\0" * 60 * 1024)  # 4 KiB left; the video needs about 9
    out = tiny_fs / "v.mp4"
    assert main(["render", "--seed", "3", "--video", "--moves", "0", "--size", "320x180", "--fps", "10", "-o", str(out)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[-1] == f"caller: error: {out}: the video was written but cannot be read back (disk full? codec missing?)"
    assert _listing(tiny_fs) == ["filler"]
    (tiny_fs / "filler").unlink()
    _fill(tiny_fs)  # no room at all: the writer cannot even start
    assert main(["render", "--seed", "3", "--video", "--moves", "0", "--size", "320x180", "--fps", "10", "-o", str(out)]) == 2
    assert capsys.readouterr().err.splitlines()[-1] == f"caller: error: cannot open a mp4v video writer for {str(out)!r}"
    assert _listing(tiny_fs) == ["filler"]


def test_events_on_a_full_disk_are_one_line_and_no_half_file(tiny_fs, capsys):
    _fill(tiny_fs)
    events = tiny_fs / "e.jsonl"
    assert main(["watch", str(GAME_VIDEO), "--no-voice", "--events", str(events)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[-1] == f"caller: error: {events}: cannot write (No space left on device)"
    assert _listing(tiny_fs) == ["filler"]


def _toy_profile(seed: int):
    import numpy as np

    from vision.profile import Profile, fit_class_model

    rng = np.random.default_rng(seed)
    models = {}
    for kind, labels in (("tiles", ("S5", "Mn")), ("coins", ("a", "2")), ("pawns", ("S", "M"))):
        X = np.concatenate([rng.normal(i * 3.0, 1.0, (20, 4)) for i in range(len(labels))])
        models[kind] = fit_class_model(X, np.repeat(np.arange(len(labels)), 20), labels)
    return Profile(game="easy-slider", name=f"toy{seed}", features={"id": "toy"}, models=models)


def test_debug_pictures_on_a_full_disk_are_one_line_and_no_broken_png(tiny_fs, capsys):
    (tiny_fs / "filler").write_bytes(b"\0" * 60 * 1024)  # 4 KiB left, less than one picture
    assert main(["read", str(STILL), "--debug", str(tiny_fs / "dbg")]) == 2
    assert capsys.readouterr().err == f"caller: error: {tiny_fs}/dbg/easy-slider_setup_standard-grid.png: cannot write (No space left on device)\n"
    assert _listing(tiny_fs / "dbg") == []


def test_a_profile_on_a_full_disk_keeps_the_old_pair_whole(tmp_path, monkeypatch):
    import numpy as np

    from vision.profile import load_profile, save_profile

    save_profile(_toy_profile(1), tmp_path / "myset")
    before = {name: (tmp_path / name).read_bytes() for name in _listing(tmp_path)}

    def half_then_full(fh, **arrays):
        fh.write(b"PK\x03\x04 half an archive")
        _enospc()

    monkeypatch.setattr(np, "savez_compressed", half_then_full)
    with pytest.raises(OutputError, match=r"myset\.npz: cannot write \(No space left on device\)"):
        save_profile(_toy_profile(2), tmp_path / "myset")
    assert {name: (tmp_path / name).read_bytes() for name in _listing(tmp_path)} == before
    monkeypatch.undo()
    assert load_profile(tmp_path / "myset").name == "toy1"


def test_a_camera_profile_on_a_full_disk_leaves_no_empty_file(tiny_fs):
    import numpy as np

    from calibration.camera import CameraProfile, save_camera_profile

    _fill(tiny_fs)
    profile = CameraProfile(np.eye(3), np.zeros(5), (640, 480))
    with pytest.raises(OutputError, match=r"cam\.json: cannot write \(No space left on device\)"):
        save_camera_profile(profile, tiny_fs / "cam.json")
    assert _listing(tiny_fs) == ["filler"]


@pytest.mark.parametrize("wrapper", [SystemError, RuntimeError, OSError])
def test_a_signal_inside_compiled_code_is_still_an_interrupt(tmp_path, monkeypatch, capsys, wrapper):
    """A SIGTERM that arrives while a numba-compiled loop returns comes out as a SystemError
    ("returned a result with an exception set") with the interrupt inside, and a library
    interrupted half-way may raise its own error from it: it is still a SIGTERM (exit 143,
    the events so far whole), not a traceback."""
    from caller.interrupts import Terminated
    from caller.watch import Watcher

    real, calls = Watcher.process, [0]

    def process(self, image, t):
        calls[0] += 1
        if calls[0] == 40:
            try:
                raise Terminated()
            except Terminated as inner:
                raise wrapper("CPUDispatcher(<function ink_maps>) returned a result with an exception set") from inner
        return real(self, image, t)

    monkeypatch.setattr(Watcher, "process", process)
    events = tmp_path / "e.jsonl"
    assert main(["watch", str(GAME_VIDEO), "--no-voice", "--events", str(events)]) == 143
    assert capsys.readouterr().err.splitlines()[-1] == "caller: terminated"
    written = [json.loads(line) for line in events.read_text().splitlines()]
    assert [e["type"] for e in written][:2] == ["board", "go"]
