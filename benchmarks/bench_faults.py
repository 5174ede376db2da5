"""Bad input, faults and signals: every subcommand run the way a careless user or a hostile
machine would run it, counted by what went wrong.

Each case runs ``python -m caller ...`` in a fresh temporary folder and is judged on:

* traceback: the word ``Traceback`` on stderr;
* hang: not finished within its time limit (killed);
* unclean error: a non-zero exit whose last line on stderr is not ``caller: error: ...``
  (or ``caller: interrupted``/``terminated`` after a signal; after exit status 1, "ran but
  not everything succeeded", the Caller's own ``caller: warning: ...`` or summary line), a
  library's own log line (FFmpeg, OpenCV, libpng) on stderr, or an exit status other than
  the case expects (informational ``caller: ...`` lines and progress may come before the
  error line);
* half-written: an output the case names exists but is not a complete file of its kind
  (JSON that does not parse, a WAV whose header disagrees with its size, an image or video
  that does not decode, a profile's .json without its .npz or the other way round);
* destroyed: a file the case protects (an input, a FIFO, a symlink) changed type or content;
* lost result: work that was done (a race round, a WAV of what was said) is not on disk
  after an error or a signal.

The cases are grouped in classes (malformed, huge, nested, binary, empty, special files,
missing and unwritable outputs, disk full, closed stdin/stdout, signals, streams that drop or
stall). ``--verbose`` prints every failing case with its command and stderr.

    python benchmarks/bench_faults.py [--only CLASS] [--verbose]

The disk-full cases mount a 256 KiB tmpfs and need root; elsewhere they are skipped and the
table says so.
"""

from __future__ import annotations

import argparse
import hashlib
import http.server
import json
import os
import re
import shutil
import signal
import socket
import socketserver
import stat
import struct
import subprocess
import sys
import tempfile
import threading
import time
import wave
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
S = ROOT / "sample_images"
GAME_MP4 = S / "easy-slider_game.mp4"
LAYOUT = S / "easy-slider_setup_standard.json"
PHOTO = S / "easy-slider_setup_standard.jpg"

# ---------------------------------------------------------------- validators of outputs


def _json_ok(p: Path) -> bool:
    try:
        json.loads(p.read_text())
        return True
    except (OSError, ValueError):
        return False


def _jsonl_ok(p: Path) -> bool:
    try:
        text = p.read_text()
        for line in text.splitlines():
            json.loads(line)
        return text == "" or text.endswith("\n")
    except (OSError, ValueError):
        return False


def _wav_ok(p: Path) -> bool:
    try:
        with wave.open(str(p)) as w:
            n, width, ch = w.getnframes(), w.getsampwidth(), w.getnchannels()
        return p.stat().st_size >= 44 + n * width * ch
    except (OSError, EOFError, wave.Error):
        return False


def _image_ok(p: Path) -> bool:
    import cv2

    return cv2.imread(str(p)) is not None


def _video_ok(p: Path) -> bool:
    import cv2

    cap = cv2.VideoCapture(str(p))
    try:
        promised = int(cap.get(cv2.CAP_PROP_FRAME_COUNT))
        got = 0
        while cap.read()[0]:
            got += 1
        return got > 0 and got >= promised - 1
    finally:
        cap.release()


def _profile_ok(base: Path) -> bool:
    js, npz = base.with_suffix(".json"), base.with_suffix(".npz")
    if not js.exists() and not npz.exists():
        return True
    if not (js.exists() and npz.exists()):
        return False
    try:
        import numpy as np

        with np.load(npz) as z:
            for k in z.files:
                z[k]
        return _json_ok(js)
    except Exception:  # noqa: BLE001 - any failure to load is a half-written profile
        return False


VALIDATORS: dict[str, Callable[[Path], bool]] = {
    "json": _json_ok, "jsonl": _jsonl_ok, "wav": _wav_ok, "image": _image_ok, "video": _video_ok,
    "profile": _profile_ok,
}


def _fingerprint(p: Path) -> tuple:
    try:
        st = os.lstat(p)
    except FileNotFoundError:
        return ("missing",)
    if stat.S_ISLNK(st.st_mode):
        return ("link", os.readlink(p))
    if stat.S_ISFIFO(st.st_mode):
        return ("fifo",)
    if stat.S_ISDIR(st.st_mode):
        return ("dir",)
    return ("file", hashlib.sha256(p.read_bytes()).hexdigest())


# ---------------------------------------------------------------- the cases


@dataclass
class Case:
    cls: str
    argv: list[str]
    expect: str = "error"  # "error": a clean error line; "ok": exit 0; "clean": either
    stdin: str = "null"  # "null", "closed", "zero", or text to feed
    stdout: str = "pipe"  # "pipe", "full" (/dev/full), "closed", "head" (closed after one line)
    protect: list[str] = field(default_factory=list)
    outputs: list[tuple[str, str]] = field(default_factory=list)  # (path, kind): absent or complete
    results: list[tuple[str, str]] = field(default_factory=list)  # (path, kind): must exist, complete
    signal_after: tuple[int, float] | None = None
    status: int | None = None  # the exit status the case expects, when it is known
    timeout: float = 30.0
    needs_root: bool = False
    note: str = ""

    @property
    def label(self) -> str:
        return " ".join(self.argv)[:110]


def _png_claiming(width: int, height: int) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0" * 16)) + chunk(b"IEND", b"")


_SHARED: list[Path] = []


#: how many times the game is repeated in the long recording the signal cases watch
LONG_LOOPS = 8


def _shared_fixtures() -> Path:
    """Fixtures that take time to make, made once per run: frames of the game with one broken
    frame among them, and seeded Steppin' Stones and Slide positions."""
    if _SHARED:
        return _SHARED[0]
    import cv2

    d = Path(tempfile.mkdtemp(prefix="faults-shared-"))
    frames = d / "frames"
    frames.mkdir()
    cap = cv2.VideoCapture(str(GAME_MP4))
    for i in range(40):
        ok, img = cap.read()
        if ok and i % 4 == 0:
            cv2.imwrite(str(frames / f"f{i:03d}.jpg"), img)
    cap.release()
    (frames / "f020.jpg").write_bytes(b"\xff\xd8 broken")
    # the game played LONG_LOOPS times over: long enough that a signal sent seconds after the
    # start arrives mid-run (the game alone is read in about two seconds)
    cap = cv2.VideoCapture(str(GAME_MP4))
    game = []
    while True:
        ok, img = cap.read()
        if not ok:
            break
        game.append(img)
    cap.release()
    h, w = game[0].shape[:2]
    out = cv2.VideoWriter(str(d / "long.mp4"), cv2.VideoWriter_fourcc(*"mp4v"), 30.0, (w, h))
    for _ in range(LONG_LOOPS):
        for img in game:
            out.write(img)
    out.release()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for game, name in (("steppin-stones", "st.json"), ("slide", "sl.json")):
        out = subprocess.run([sys.executable, "-m", "caller", "setup", game, "--seed", "1", "--json"],
                             capture_output=True, text=True, cwd=ROOT, env=env)
        (d / name).write_text(out.stdout)
    _SHARED.append(d)
    return d


def make_fixtures(d: Path) -> None:
    """The inputs the cases refer to as {d}/NAME."""
    layout = json.loads(LAYOUT.read_text())
    (d / "layout.json").write_text(json.dumps(layout))
    (d / "empty.json").write_text("")
    (d / "bad.json").write_text('{"board": [[')
    (d / "nested.json").write_text("[" * 200000 + "]" * 200000)
    (d / "nested_obj.json").write_text('{"board": ' + "[" * 100000 + "]" * 100000 + "}")
    (d / "bigint.json").write_text('{"game": "easy-slider", "board": ' + "9" * 5000 + "}")
    (d / "chess.json").write_text(json.dumps({**layout, "game": "chess"}))
    twice = json.loads(json.dumps(layout))
    twice["board"][0][0] = twice["board"][0][1]
    (d / "twice.json").write_text(json.dumps(twice))
    (d / "binary.bin").write_bytes(bytes((i * 7919 + 13) % 256 for i in range(4096)))
    (d / "wrong_shape.json").write_text(json.dumps({"game": "easy-slider", "board": [[1, 2], [3]]}))
    (d / "adir").mkdir()
    (d / "huge.png").write_bytes(_png_claiming(100000, 100000))
    (d / "text.jpg").write_text("not a picture\n")
    os.mkfifo(d / "f.fifo")
    (d / "target.txt").write_text("keep me\n")
    os.symlink(d / "target.txt", d / "link.wav")
    (d / "slide_sup.txt").write_text("1 2 3 4\n5 6 7 8\n9 10 1 2\n3 4 5 \u00b2\n")
    (d / "slide_big.txt").write_text("1 2 3 4\n5 6 7 8\n9 10 1 2\n3 4 5 " + "9" * 5000 + "\n")
    (d / "slider_big.txt").write_text("9" * 5000 + "\n")
    (d / "cfg_binary.toml").write_bytes(b"\xff\xfe\x00[voice]\x00\x81\x82")
    (d / "cfg_bom.toml").write_bytes("\ufeff[voice]\n".encode("utf-8"))
    (d / "cfg_unknown.toml").write_text("[voise]\nrate = 1\n")
    (d / "cfg_zero.toml").write_text("[vision]\ncell_px = 0\n")
    (d / "cfg_nan.toml").write_text("[vision]\nconfidence_threshold = nan\n")
    (d / "commands_binary.txt").write_bytes(b"\xff\xfe\x00\x81 done Ann\n")
    (d / "commands_zed.txt").write_text("3 done Zed\n")
    (d / "truncated.mp4").write_bytes(GAME_MP4.read_bytes()[: GAME_MP4.stat().st_size // 3])
    for name in ("frames", "st.json", "sl.json"):
        src = _shared_fixtures() / name
        (shutil.copytree if src.is_dir() else shutil.copy)(src, d / name)
    os.symlink(_shared_fixtures() / "long.mp4", d / "long.mp4")  # read only
    shutil.copy(GAME_MP4, d / "game.mp4")
    shutil.copy(LAYOUT, d / "truth.json")
    shutil.copy(PHOTO, d / "cam_frame.png")
    (d / "profile_bad.json").write_text(json.dumps({"format": "table-caller-profile", "version": 1}))
    (d / "profile_bad.npz").write_bytes(b"PK\x03\x04 truncated")


def build_cases() -> list[Case]:
    c: list[Case] = []
    L = "{d}/layout.json"
    # --- missing, empty, malformed, nested, huge, binary inputs to every JSON-reading command
    for name in ("missing.json", "empty.json", "bad.json", "nested.json", "nested_obj.json", "bigint.json",
                 "binary.bin", "adir", "wrong_shape.json"):
        cls = {"nested.json": "nested", "nested_obj.json": "nested", "bigint.json": "huge",
               "binary.bin": "binary", "empty.json": "empty", "adir": "special"}.get(name, "malformed")
        f = f"{{d}}/{name}"
        c += [
            Case(cls, ["check", f], protect=[f]),
            Case(cls, ["hint", f], protect=[f]),
            Case(cls, ["explain", f, L], protect=[f]),
            Case(cls, ["render", f, "-o", "{d}/out.jpg"], outputs=[("{d}/out.jpg", "image")]),
            Case(cls, ["perft", "scavenger-hunt", f, "--depth", "1"]),
            Case(cls, ["perft", "easy-slider", f, "--depth", "1"]),
            Case(cls, ["race", str(GAME_MP4), str(GAME_MP4), "--players", "Ann,Bob", "--layout", f, "--no-voice"]),
            Case(cls, ["calibrate", str(PHOTO), "--truth", f, "--out", "{d}/prof"], outputs=[("{d}/prof", "profile")]),
            Case(cls, ["read", f]),
        ]
    c += [
        Case("malformed", ["check", "{d}/chess.json"]),
        Case("malformed", ["explain", "{d}/chess.json", L]),
        Case("malformed", ["hint", "{d}/chess.json"]),
        Case("malformed", ["render", "{d}/twice.json", "-o", "{d}/out.jpg"], outputs=[("{d}/out.jpg", "image")]),
        Case("huge", ["perft", "easy-slider", L, "--depth", "1000"], timeout=20),
        Case("huge", ["perft", "steppin-stones", "{d}/st.json", "--depth", "1000000"], timeout=20,
             note="position from 'caller setup steppin-stones --seed 1 --json'"),
        Case("huge", ["perft", "slide", "{d}/sl.json", "--depth", "1000000"], timeout=20,
             note="position from 'caller setup slide --seed 1 --json'"),
        Case("huge", ["calibrate", str(PHOTO), "--truth", str(LAYOUT), "--out", "{d}/prof", "--augment", "1000000"],
             timeout=60, outputs=[("{d}/prof", "profile")]),
        Case("huge", ["slide", "score", "{d}/slide_big.txt"]),
        Case("malformed", ["slide", "score", "{d}/slide_sup.txt"]),
        Case("huge", ["slider", "count", "{d}/slider_big.txt"]),
        Case("binary", ["slide", "score", "{d}/binary.bin"]),
        Case("binary", ["slider", "count", "{d}/binary.bin"]),
        Case("huge", ["read", "{d}/huge.png"]),
        Case("malformed", ["read", "{d}/text.jpg"]),
        Case("malformed", ["read", str(S / "slide_a.jpg")], status=1, note="a Slide photo is no Easy Slider board"),
        Case("huge", ["watch", "99999999999999999999", "--no-voice"], timeout=20),
        Case("malformed", ["render", "--seed", "-5", "-o", "{d}/neg.jpg"], expect="clean",
             outputs=[("{d}/neg.jpg", "image")]),
        Case("malformed", ["watch", str(GAME_MP4), "--no-voice", "--fps", "nan"]),
        Case("malformed", ["watch", str(GAME_MP4), "--no-voice", "--fps", "inf"]),
        Case("malformed", ["watch", str(GAME_MP4), "--no-voice", "--fps", "-30"]),
        Case("malformed", ["race", str(GAME_MP4), "--split", "5000x1", "--players", "Ann,Bob", "--no-voice"]),
        Case("malformed", ["race", str(GAME_MP4), str(GAME_MP4), "--players", "Ann,Bob", "--rounds", "0",
                           "--totals", "{d}/t.json", "--no-voice"]),
        Case("malformed", ["race", str(GAME_MP4), str(GAME_MP4), "--players", "Ann,Bob", "--rounds", "-3",
                           "--totals", "{d}/t.json", "--no-voice"]),
        Case("malformed", ["race", str(GAME_MP4), str(GAME_MP4), "--players", "Ann,Bob", "--layout", L,
                           "--commands", "{d}/commands_zed.txt", "--no-voice"], timeout=120),
        Case("binary", ["race", str(GAME_MP4), str(GAME_MP4), "--players", "Ann,Bob", "--layout", L,
                        "--commands", "{d}/commands_binary.txt", "--no-voice"]),
        Case("binary", ["race", str(GAME_MP4), str(GAME_MP4), "--players", "Ann,Bob", "--layout", L,
                        "--totals", "{d}/binary.bin", "--no-voice"], protect=["{d}/binary.bin"]),
        Case("malformed", ["read", str(PHOTO), "--profile", "{d}/profile_bad"]),
        Case("malformed", ["watch", str(GAME_MP4), "--no-voice", "--profile", "{d}/profile_bad"]),
        Case("malformed", ["caller-no-such-command"]),
        Case("malformed", ["read"]),
        Case("malformed", ["setup", "--seed", "x"]),
        Case("malformed", [], expect="clean"),
    ]
    # --- config files
    for name in ("cfg_binary.toml", "cfg_bom.toml", "cfg_unknown.toml", "cfg_zero.toml", "cfg_nan.toml"):
        expect = "ok" if name == "cfg_bom.toml" else "error"
        c += [
            Case("config", ["setup", "--seed", "7", "--config", f"{{d}}/{name}"], expect=expect),
            Case("config", ["read", str(PHOTO), "--config", f"{{d}}/{name}"], expect=expect),
            Case("config", ["watch", str(S / "easy-slider_illegal.mp4"), "--no-voice", "--config", f"{{d}}/{name}"],
                 expect=expect, timeout=90),
        ]
    # --- outputs: directories, missing folders, inputs as outputs, special files
    c += [
        Case("output", ["watch", str(GAME_MP4), "--no-voice", "--events", "{d}/adir"]),
        Case("output", ["watch", str(GAME_MP4), "--no-voice", "--events", "{d}/nodir/e.jsonl"]),
        Case("output", ["watch", "{d}/game.mp4", "--no-voice", "--events", "{d}/game.mp4"], protect=["{d}/game.mp4"]),
        Case("output", ["render", L, "-o", L], protect=[L]),
        Case("output", ["render", "--seed", "7", "-o", "{d}/adir"]),
        Case("output", ["render", "--seed", "7", "-o", "{d}/nodir/x.jpg"]),
        Case("output", ["calibrate", str(PHOTO), "--truth", "{d}/truth.json", "--out", "{d}/truth"],
             protect=["{d}/truth.json"]),
        Case("output", ["calibrate", str(PHOTO), "--truth", str(LAYOUT), "--out", "{d}/adir"]),
        Case("output", ["calibrate-camera", "{d}/cam_frame.png", "--out", "{d}/cam_frame.png"],
             protect=["{d}/cam_frame.png"]),
        Case("output", ["read", str(PHOTO), "--debug", "{d}/layout.json"], protect=[L]),
        Case("output", ["setup", "--seed", "7", "--voice-out", "{d}/f.fifo"], protect=["{d}/f.fifo"],
             expect="clean", timeout=60),
        Case("output", ["setup", "--seed", "7", "--voice-out", "{d}/link.wav"], protect=["{d}/link.wav"],
             expect="clean", timeout=60),
        Case("output", ["setup", "--seed", "7", "--voice-out", "{d}/adir"]),
        Case("output", ["race", str(GAME_MP4), str(GAME_MP4), "--players", "Ann,Bob", "--layout", L, "--no-voice",
                        "--out", "{d}/nodir/r.json"], timeout=120, note="must refuse before racing"),
        Case("output", ["race", str(GAME_MP4), str(GAME_MP4), "--players", "Ann,Bob", "--layout", L, "--no-voice",
                        "--out", "{d}/adir"], timeout=120),
        Case("output", ["race", str(GAME_MP4), str(GAME_MP4), "--players", "Ann,Bob", "--layout", L, "--no-voice",
                        "--totals", "{d}/bad.json"], timeout=120, protect=["{d}/bad.json"]),
    ]
    # --- disk full (a 256 KiB tmpfs, almost filled)
    c += [
        Case("disk-full", ["render", "--seed", "7", "-o", "{full}/x.jpg"], outputs=[("{full}/x.jpg", "image")],
             needs_root=True),
        Case("disk-full", ["render", "--seed", "7", "--video", "--moves", "1", "-o", "{full}/v.mp4"],
             outputs=[("{full}/v.mp4", "video"), ("{full}/v.json", "json")], needs_root=True, timeout=120),
        Case("disk-full", ["setup", "--seed", "7", "--voice-out", "{full}/v.wav"],
             outputs=[("{full}/v.wav", "wav")], needs_root=True, timeout=60),
        Case("disk-full", ["watch", str(S / "easy-slider_illegal.mp4"), "--no-voice", "--events", "{full}/e.jsonl"],
             outputs=[("{full}/e.jsonl", "jsonl")], needs_root=True, timeout=90, expect="clean"),
        Case("disk-full", ["calibrate", str(PHOTO), "--truth", str(LAYOUT), "--out", "{full}/prof"],
             outputs=[("{full}/prof", "profile")], needs_root=True, timeout=120),
        Case("disk-full", ["calibrate-camera", "--print-board", "{full}/board.png"],
             outputs=[("{full}/board.png", "image")], needs_root=True),
        Case("stdout", ["setup", "--seed", "7"], stdout="full"),
        Case("stdout", ["read", str(PHOTO), "--json"], stdout="full"),
    ]
    # --- closed or endless stdin, closed stdout
    for game in ("slide", "slider", "scavenger-hunt", "steppin-stones", "easy-slider"):
        c += [
            Case("stdin", ["play", game, "--seed", "1"], stdin="closed", expect="clean"),
            Case("stdin", ["play", game, "--seed", "1"], stdin="zero", expect="clean", timeout=20),
        ]
    c += [
        Case("stdin", ["calibrate", "--setup", "7", "--out", "{d}/p", "--camera-source", str(PHOTO), "--no-voice"],
             stdin="closed", expect="clean", timeout=120, outputs=[("{d}/p", "profile")]),
        Case("stdout", ["watch", str(S / "easy-slider_illegal.mp4"), "--no-voice", "--voice-out", "{d}/p.wav"],
             stdout="head", expect="clean", results=[("{d}/p.wav", "wav")], timeout=120),
    ]
    # --- signals mid-run
    c += [
        Case("signal", ["watch", "{d}/long.mp4", "--no-voice", "--voice-out", "{d}/w.wav", "--events", "{d}/e.jsonl"],
             signal_after=(signal.SIGTERM, 6.0), expect="clean", status=143,
             results=[("{d}/w.wav", "wav"), ("{d}/e.jsonl", "jsonl")], timeout=90),
        Case("signal", ["watch", "{d}/long.mp4", "--no-voice", "--voice-out", "{d}/w.wav", "--events", "{d}/e.jsonl"],
             signal_after=(signal.SIGINT, 6.0), expect="clean", status=130,
             results=[("{d}/w.wav", "wav"), ("{d}/e.jsonl", "jsonl")], timeout=90),
        Case("signal", ["race", "{d}/long.mp4", "{d}/long.mp4", "--players", "Ann,Bob", "--layout", L, "--no-voice",
                        "--out", "{d}/r.json"], signal_after=(signal.SIGINT, 8.0), expect="clean", status=130,
             results=[("{d}/r.json", "json")], timeout=90),
        Case("signal", ["render", "--seed", "7", "--video", "--moves", "4", "-o", "{d}/v.mp4"],
             signal_after=(signal.SIGINT, 5.0), expect="clean", status=130,
             outputs=[("{d}/v.mp4", "video"), ("{d}/v.json", "json")], timeout=90),
        Case("signal", ["calibrate", str(PHOTO), "--truth", str(LAYOUT), "--out", "{d}/prof"],
             signal_after=(signal.SIGTERM, 4.0), expect="clean", outputs=[("{d}/prof", "profile")], timeout=90),
    ]
    for game in ("slider", "scavenger-hunt", "steppin-stones", "slide"):
        c.append(Case("signal", ["play", game, "--seed", "1", "--say", "--voice-out", "{d}/p.wav"],
                      stdin="wait", signal_after=(signal.SIGINT, 4.0), expect="clean", status=130,
                      results=[("{d}/p.wav", "wav")], timeout=60))
    # --- sources: truncated recordings, broken frames, streams that never answer, drop or stall
    c += [
        Case("source", ["watch", "{d}/truncated.mp4", "--no-voice", "--events", "{d}/e.jsonl"], expect="clean",
             outputs=[("{d}/e.jsonl", "jsonl")], timeout=90),
        Case("source", ["watch", "{d}/frames", "--no-voice", "--fps", "2", "--events", "{d}/e.jsonl"],
             expect="clean", results=[("{d}/e.jsonl", "jsonl")], timeout=90),
        Case("source", ["watch", "udp://127.0.0.1:9", "--no-voice"], timeout=30),
        Case("source", ["watch", "udp://127.0.0.1:9", "--no-voice"], signal_after=(signal.SIGINT, 2.0),
             expect="clean", status=130, timeout=10),
        Case("source", ["race", "udp://127.0.0.1:9", "udp://127.0.0.1:9", "--players", "Ann,Bob", "--no-voice"],
             timeout=30),
        Case("source", ["watch", "http://127.0.0.1:{stall}/", "--no-voice", "--no-reconnect"], timeout=40,
             expect="clean", note="a server that accepts and never sends"),
        Case("source", ["watch", "http://127.0.0.1:{drop}/", "--no-voice", "--no-reconnect", "--events",
                        "{d}/e.jsonl"], timeout=60, expect="clean", results=[("{d}/e.jsonl", "jsonl")],
             note="an MJPEG server that sends 3 s of the game, then drops"),
        Case("source", ["watch", "/nonexistent/v.mp4", "--no-voice"]),
        Case("source", ["watch", "{d}/text.jpg", "--no-voice"]),
    ]
    return c


# ---------------------------------------------------------------- local stream servers


class _Servers:
    """An HTTP server that accepts and never answers, and an MJPEG server that drops."""

    def __init__(self) -> None:
        self.stall_sock = socket.socket()
        self.stall_sock.bind(("127.0.0.1", 0))
        self.stall_sock.listen(8)
        self.stall = self.stall_sock.getsockname()[1]
        self._held: list[socket.socket] = []
        threading.Thread(target=self._accept_and_hold, daemon=True).start()

        import cv2

        cap = cv2.VideoCapture(str(GAME_MP4))
        jpegs = []
        for _ in range(90):
            ok, img = cap.read()
            if not ok:
                break
            jpegs.append(cv2.imencode(".jpg", img)[1].tobytes())
        cap.release()

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *a):  # quiet
                pass

            def do_GET(self):  # noqa: N802 - the http.server name
                self.send_response(200)
                self.send_header("Content-Type", "multipart/x-mixed-replace; boundary=frame")
                self.end_headers()
                try:
                    for j in jpegs:
                        self.wfile.write(b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: %d\r\n\r\n" % len(j))
                        self.wfile.write(j + b"\r\n")
                        time.sleep(1 / 30)
                except OSError:
                    pass

        class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
            daemon_threads = True

        self.httpd = Server(("127.0.0.1", 0), Handler)
        self.drop = self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def _accept_and_hold(self) -> None:
        while True:
            try:
                conn, _ = self.stall_sock.accept()
            except OSError:
                return
            self._held.append(conn)

    def close(self) -> None:
        self.httpd.shutdown()
        self.stall_sock.close()
        for s in self._held:
            s.close()


# ---------------------------------------------------------------- running and judging


@dataclass
class Outcome:
    case: Case
    problems: list[str]
    status: int | None
    stderr: str
    seconds: float


def _mount_full(d: Path) -> Path | None:
    full = d / "full"
    full.mkdir()
    if os.geteuid() != 0:
        return None
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(full)],
                      capture_output=True).returncode != 0:
        return None
    # leave about 8 KiB free
    with open(full / "filler", "wb") as f:
        try:
            f.write(b"\0" * (248 * 1024))
        except OSError:
            pass
    return full


def run_case(case: Case, ports: dict[str, int], base_env: dict[str, str]) -> Outcome:
    d = Path(tempfile.mkdtemp(prefix="faults-"))
    full = None
    try:
        make_fixtures(d)
        if case.needs_root:
            full = _mount_full(d)
            if full is None:
                return Outcome(case, ["skipped (needs root and tmpfs)"], None, "", 0.0)
        subst = {"d": str(d), "full": str(full or d / "full"), **{k: str(v) for k, v in ports.items()}}

        def fill(s: str) -> str:
            for k, v in subst.items():
                s = s.replace("{" + k + "}", v)
            return s

        argv = [fill(a) for a in case.argv]
        protected = {fill(p): _fingerprint(Path(fill(p))) for p in case.protect}
        stdin = {"null": subprocess.DEVNULL, "closed": None, "zero": None, "wait": subprocess.PIPE}.get(
            case.stdin, subprocess.PIPE)
        stdin_file = open("/dev/zero", "rb") if case.stdin == "zero" else None
        stdout_file = open("/dev/full", "wb") if case.stdout == "full" else None
        cmd = [sys.executable, "-m", "caller", *argv]
        pass_fds: tuple[int, ...] = ()
        preexec = None
        if case.stdin == "closed":
            preexec = lambda: os.close(0)  # noqa: E731 - closed stdin in the child only
        t0 = time.monotonic()
        proc = subprocess.Popen(
            cmd, cwd=d, env=base_env, stdin=stdin_file or stdin, stderr=subprocess.PIPE,
            stdout=stdout_file or subprocess.PIPE, preexec_fn=preexec, pass_fds=pass_fds,
            start_new_session=True,
        )
        problems: list[str] = []
        hung = False
        if case.stdout == "head":
            proc.stdout.readline()
            proc.stdout.close()
        if case.signal_after:
            sig, after = case.signal_after
            try:
                proc.wait(timeout=after)
            except subprocess.TimeoutExpired:
                proc.send_signal(sig)
        try:
            _, err = proc.communicate(timeout=case.timeout) if case.stdout != "head" else (b"", proc.stderr.read())
            if case.stdout == "head":
                proc.wait(timeout=case.timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            err = proc.stderr.read() if proc.stderr else b""
            proc.wait()
            hung = True
        seconds = time.monotonic() - t0
        for f in (stdin_file, stdout_file):
            if f:
                f.close()
        err_text = err.decode("utf-8", "replace") if isinstance(err, bytes) else err
        status = proc.returncode
        if hung:
            problems.append("hang")
        if "Traceback" in err_text:
            problems.append("traceback")
        if not hung and "Traceback" not in err_text:
            lines = [ln for ln in err_text.replace("\r", "\n").splitlines() if ln.strip()]
            leaks = [ln for ln in lines if LIBRARY_LOG.match(ln)]
            last = lines[-1] if lines else ""
            # exit 1 is documented as "ran, but not everything succeeded": its last line is the
            # Caller's own warning or summary (a skipped frame, a camera that did not come back)
            clean_error = not leaks and (last.startswith(("caller: error:", "caller: interrupted", "caller: terminated"))
                                         or (status == 1 and last.startswith("caller: ")))
            if status != 0:
                if not clean_error:
                    problems.append("unclean error")
            elif leaks:
                problems.append("unclean error (library log on stderr)")
                if case.expect == "ok":
                    problems.append(f"exit {status}, expected 0")
            elif case.expect == "error":
                problems.append("exit 0, expected an error")
            if case.status is not None and status != case.status and not (case.status == 1 and status == 0 and
                                                                            case.expect == "clean"):
                problems.append(f"exit {status}, expected {case.status}")
        for p, before in protected.items():
            if _fingerprint(Path(p)) != before:
                problems.append(f"destroyed {Path(p).name}")
        for p, kind in case.outputs:
            path = Path(fill(p))
            if (kind == "profile" or path.exists()) and not VALIDATORS[kind](path):
                problems.append(f"half-written {path.name}")
        for p, kind in case.results:
            path = Path(fill(p))
            if not path.exists() or not VALIDATORS[kind](path):
                problems.append(f"lost result {path.name}")
        return Outcome(case, problems, status, err_text, seconds)
    finally:
        if full is not None:
            subprocess.run(["umount", str(full)], capture_output=True)
        shutil.rmtree(d, ignore_errors=True)


#: Lines that a library (FFmpeg, OpenCV, libpng) writes straight to stderr.
LIBRARY_LOG = re.compile(r"^(\[[\w ,]+ @ 0x[0-9a-f]+\]|\[ ?(WARN|ERROR|INFO)|libpng |OpenCV\(|Traceback)")

COLUMNS = ("traceback", "hang", "unclean error", "half-written", "destroyed", "lost result", "other")


def _column(problem: str) -> str:
    for col in COLUMNS[:-1]:
        if problem.startswith(col):
            return col
    return "other"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", help="run only this class (malformed, nested, huge, binary, empty, special, config, "
                                   "output, disk-full, stdout, stdin, signal, source)")
    ap.add_argument("--verbose", action="store_true", help="print every failing case")
    args = ap.parse_args(argv)

    env = {k: v for k, v in os.environ.items() if not k.startswith("CALLER_")}
    env["HOME"] = tempfile.mkdtemp(prefix="faults-home-")  # no user config leaks in
    env["PYTHONPATH"] = str(ROOT)
    cases = [c for c in build_cases() if not args.only or c.cls == args.only]
    servers = _Servers()
    ports = {"stall": servers.stall, "drop": servers.drop}
    outcomes: list[Outcome] = []
    t0 = time.monotonic()
    try:
        for i, case in enumerate(cases, 1):
            o = run_case(case, ports, env)
            outcomes.append(o)
            mark = "ok" if not o.problems else ", ".join(o.problems)
            print(f"[{i}/{len(cases)}] {case.cls:9s} {o.seconds:5.1f}s {mark:28.28s} caller {case.label}",
                  file=sys.stderr, flush=True)
    finally:
        servers.close()

    by_class: dict[str, dict[str, int]] = {}
    skipped = 0
    for o in outcomes:
        row = by_class.setdefault(o.case.cls, {"cases": 0, **{c: 0 for c in COLUMNS}})
        if o.problems and o.problems[0].startswith("skipped"):
            skipped += 1
            continue
        row["cases"] += 1
        for col in {_column(p) for p in o.problems}:
            row[col] += 1
    print(f"\nfault benchmark: {len(outcomes) - skipped} cases run, {skipped} skipped, "
          f"{time.monotonic() - t0:.0f} s\n")
    header = "| class | cases | " + " | ".join(COLUMNS) + " |"
    print(header)
    print("|" + "---|" * (len(COLUMNS) + 2))
    total = {"cases": 0, **{c: 0 for c in COLUMNS}}
    for cls, row in by_class.items():
        print(f"| {cls} | {row['cases']} | " + " | ".join(str(row[c]) for c in COLUMNS) + " |")
        for k in total:
            total[k] += row[k]
    print(f"| all | {total['cases']} | " + " | ".join(str(total[c]) for c in COLUMNS) + " |")
    if args.verbose:
        for o in outcomes:
            if o.problems and not o.problems[0].startswith("skipped"):
                print(f"\n- caller {' '.join(o.case.argv)}  [{', '.join(o.problems)}; exit {o.status}]")
                tail = o.stderr.strip().splitlines()[-3:]
                for line in tail:
                    print(f"    {line[:200]}")
    return 0 if not any(total[c] for c in COLUMNS) else 1


if __name__ == "__main__":
    raise SystemExit(main())
