"""Running ``caller watch`` end to end: source, reader, Caller, events file, voice, preview.

Kept apart from the argument parsing so that ``caller watch`` and ``caller demo`` share it.
"""

from __future__ import annotations

import math
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, TextIO

from caller.events import Event
from caller.jsonio import dumps_line
from caller.live import LiveCaller
from caller.preview import Preview, draw_overlay
from caller.sources import FrameSource, SourceNotice
from caller.watch import Watcher, apply_command


@dataclass
class SessionResult:
    events: list[Event] = field(default_factory=list)
    frames: int = 0
    reads: int = 0
    seconds: float = 0.0  # wall-clock seconds spent
    source_seconds: float = 0.0
    stopped_by_user: bool = False
    notices: list[SourceNotice] = field(default_factory=list)  # the camera lost or back, frames skipped...

    @property
    def source_problems(self) -> list[SourceNotice]:
        """What makes the source incomplete: frames skipped, a recording cut short, a camera lost
        for good (lost and never back)."""
        out = [n for n in self.notices if n.kind in ("skipped", "truncated")]
        if self.notices and self.notices[-1].kind == "lost" and not self.stopped_by_user:
            out.append(self.notices[-1])
        return out


def load_commands(path: str | None) -> dict[float, list[str]]:
    """Timed player commands for recorded sources: lines ``SECONDS COMMAND [PLAYER]`` (``12.5 accept``, ``30 done Ann``)."""
    if path is None:
        return {}
    from caller.errors import CallerError
    from caller.inputs import clip
    from caller.jsonio import read_text

    out: dict[float, list[str]] = {}
    lines = read_text(path, "commands file").splitlines()  # missing, a folder, not UTF-8: one line
    for n, line in enumerate(lines, 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        parts = line.split()
        try:
            t = float(parts[0])
        except ValueError:
            raise CallerError(f"{path}:{n}: expected 'SECONDS accept|done [PLAYER]', got {clip(line)}") from None
        if len(parts) not in (2, 3) or parts[1] not in ("accept", "done"):
            raise CallerError(f"{path}:{n}: expected 'SECONDS accept|done [PLAYER]', got {clip(line)}")
        if not math.isfinite(t):
            raise CallerError(f"{path}:{n}: {parts[0]!r} is not a time in seconds")
        out.setdefault(t, []).append(" ".join(parts[1:]))
    return out


class StdinCommands:
    """Reads 'accept' / 'done' / 'quit' lines from an interactive terminal without blocking the loop."""

    def __init__(self, stream: TextIO):
        self.queue: list[str] = []
        self._lock = threading.Lock()
        threading.Thread(target=self._run, args=(stream,), daemon=True, name="stdin-commands").start()

    def _run(self, stream: TextIO) -> None:
        for line in stream:
            with self._lock:
                self.queue.append(line.strip().lower())

    def take(self) -> list[str]:
        with self._lock:
            out, self.queue = self.queue, []
        return out


def run_session(source: FrameSource, reader, live: LiveCaller, *, on_event: Callable[[Event], None],
                commands: dict[float, list[str]] | None = None, preview: Preview | None = None,
                stdin: StdinCommands | None = None, progress: Callable[[int], None] | None = None) -> SessionResult:
    """Feed every frame of ``source`` through a Watcher; returns what happened."""
    watcher = Watcher(reader, live)
    pending = sorted((commands or {}).items())
    result = SessionResult()
    warning: str | None = None
    last_move: Event | None = None
    start = time.perf_counter()
    t = 0.0

    def emit(events: list[Event]) -> None:
        nonlocal last_move, warning
        for ev in events:
            result.events.append(ev)
            on_event(ev)
            if ev.type == "move":
                last_move = ev
            if ev.type in ("illegal", "setup", "fumble") or (ev.type == "camera" and ev.warning):
                warning = ev.say
            elif ev.type in ("restored", "accepted", "go", "move", "done", "camera"):
                warning = None

    for frame in source.items():
        if isinstance(frame, SourceNotice):
            result.notices.append(frame)
            t = max(t, frame.t)
            emit(watcher.source_notice(frame))
            continue
        t = frame.t
        events = watcher.process(frame.image, frame.t)
        typed: list[str] = []
        while pending and pending[0][0] <= frame.t:
            typed += pending.pop(0)[1]
        if stdin is not None:
            typed += stdin.take()
        if preview is not None:
            overlay = draw_overlay(frame.image, watcher.last_observation, last_move, warning,
                                   status=f"t={frame.t:6.1f}s  slides={live.slides}")
            key = preview.show(overlay)
            if key:
                typed.append(key)
        if "quit" in typed:
            result.stopped_by_user = True
        for cmd in typed:
            events += apply_command(live, cmd, frame.t)
        emit(events)
        if progress is not None:
            progress(frame.index + 1)
        if result.stopped_by_user:
            break
    result.frames = watcher.stats.frames
    result.reads = watcher.stats.reads
    result.seconds = time.perf_counter() - start
    result.source_seconds = t
    return result


class EventWriter:
    """Writes events as JSON lines to a file or stdout ('-'), flushing each so nothing is lost.

    A file appears under its name when closed (``outputs.StreamingOutput``: also after
    Ctrl-C, never half-written by a full disk). A stdout that breaks (``| head``) is given
    up with one notice and the session goes on.
    """

    def __init__(self, target: str | None):
        from rules.outputs import StreamingOutput

        self._own = False
        if target is None:
            self.stream = None
        elif target == "-":
            self.stream = sys.stdout
        else:
            self.stream = StreamingOutput(target)
            self._own = True

    def write(self, ev: Event) -> None:
        if self.stream is None:
            return
        if self._own:
            self.stream.write(dumps_line(ev.to_json()) + "\n")
            return
        try:
            self.stream.write(dumps_line(ev.to_json()) + "\n")
            self.stream.flush()
        except (BrokenPipeError, ValueError):
            self.stream = None
            print("caller: stdout was closed: the events are no longer printed, the Caller goes on", file=sys.stderr)

    def close(self) -> None:
        if self._own and self.stream is not None:
            self.stream.close()


def progress_bar(total: int | None, stream: TextIO | None = None, label: str = "frames") -> Callable[[int], None]:
    """A plain text progress bar on ``stream`` (default: the current stderr), drawn only on a terminal."""
    from caller.progress import FrameBar

    return FrameBar(total=total, unit=label, stream=stream)


def load_truth(truth_path: Path) -> list[dict] | None:
    """The events of the simulator truth file beside a recording, None when there is none.

    Checked before the recording is played, so that a truth file of the wrong shape is one
    error line up front rather than a failure after the whole run."""
    if not truth_path.is_file():
        return None
    from caller.errors import CallerError
    from caller.jsonio import load_json

    truth = load_json(truth_path)
    events = truth.get("events", []) if isinstance(truth, dict) else None

    def well_formed(e) -> bool:
        if not isinstance(e, dict) or not isinstance(e.get("type"), str):
            return False
        return e["type"] != "move" or (all(k in e for k in ("from", "to")) and any(k in e for k in MOVER_KEYS))

    if not isinstance(events, list) or not all(well_formed(e) for e in events):
        raise CallerError(f"{truth_path}: not a recording's truth file (expected an object whose 'events' list "
                          "holds objects with a 'type', and 'from', 'to' and the 'tile', 'pawn' or 'side' moved for "
                          "each move)")
    return events


#: what tells one move from another in events of any game: the piece moved, where from, where
#: to; a Slide card pushed in (the card, its line and side) or turned face up (its cell alone:
#: the camera sees the hole it leaves, not its number, which a recording's truth gives)
MOVE_KEYS = ("tile", "pawn", "side", "piece", "from", "to", "card", "line", "index", "from_side")
REVEAL_KEYS = ("cell",)
#: a Steppin' Stones coin turned into a stepping stone: its square and suit
FLIP_KEYS = ("at", "suit")
#: the events that are moves: a piece moved; in Slide, a card revealed or pushed in; in
#: Steppin' Stones, a coin flipped
MOVES = ("move", "reveal", "push", "flip")
#: what names the piece moved: an Easy Slider tile, a pawn, a Slider side's coin, a Steppin'
#: Stones piece ("S3", "S*", "@S")
MOVER_KEYS = ("tile", "pawn", "side", "piece")
#: the events that end a game: Easy Slider's "Done!", a game of turns' winner (its tie, a
#: solitaire's loss), a
#: Slide grid counted (``score``; a recording's truth counts every player's grid: ``scores``)
FINISHES = ("done", "won", "tie", "lost", "score", "scores")


def _move(kind: str, data: dict) -> tuple:
    keys = {"reveal": REVEAL_KEYS, "flip": FLIP_KEYS}.get(kind, MOVE_KEYS)
    return tuple((k, repr(data[k])) for k in keys if k in data)


def truth_summary(events: list[Event], truth: list[dict] | None) -> dict | None:
    """Compare the moves, the dice rolled (Steppin' Stones), the warnings and the finish with a
    recording's truth events (``load_truth``), for any game: moves by the piece moved and its
    squares, rolls by their turn and faces."""
    if truth is None:
        return None
    want = [_move(e["type"], e) for e in truth if e["type"] in MOVES]
    got = [_move(e.type, e.data) for e in events if e.type in MOVES]
    rolls = [(e["turn"], repr(e["dice"])) for e in truth if e["type"] == "roll"]
    got_rolls = [(e.data["turn"], repr(e.data["dice"])) for e in events if e.type == "roll"]
    return {"moves_expected": len(want), "moves_registered": len(got), "moves_match": want == got,
            "rolls_expected": len(rolls), "rolls_match": rolls == got_rolls,
            "illegal_expected": sum(1 for e in truth if e["type"] == "illegal"),
            "illegal_announced": sum(1 for e in events if e.type == "illegal"),
            "done_expected": any(e["type"] in FINISHES for e in truth),
            "done_called": any(e.type in FINISHES for e in events)}


def typed(sources) -> object | None:
    """The terminal as the push-to-talk fallback, when the sources are live and it is interactive."""
    if any(getattr(s, "live", False) for s in sources) and sys.stdin is not None and sys.stdin.isatty():
        return StdinCommands(sys.stdin)
    return None
