"""Progress bars on stderr, one implementation for every command.

A bar redraws its line with a carriage return and leaves it open. ``end_line`` closes an
open line, so that an error or "interrupted" line printed while a bar is on screen starts
on a line of its own (``caller.cli`` calls it before every final line).
"""

from __future__ import annotations

import sys
from typing import TextIO

_open: list[TextIO] = []  # the stream whose line a bar left open, if any


def bar(done: int, total: int, width: int = 30) -> str:
    """``[#####.....]  50%`` for ``done`` of ``total``."""
    pct = int(100 * done / max(total, 1))
    filled = pct * width // 100
    return f"[{'#' * filled}{'.' * (width - filled)}] {pct:3d}%"


def draw(text: str, stream: TextIO | None = None, *, last: bool = False) -> None:
    """Redraw the open progress line with ``text``; ``last`` ends the line."""
    stream = sys.stderr if stream is None else stream
    stream.write("\r" + text + ("\n" if last else ""))
    stream.flush()
    _open[:] = [] if last else [stream]


def end_line() -> None:
    """End a progress line left open, if any (before an error or a summary line)."""
    if _open:
        stream = _open.pop()
        try:
            stream.write("\n")
            stream.flush()
        except (OSError, ValueError):
            pass


class FrameBar:
    """``LABEL [####....]  40% 203/507 frames``, redrawn when the percentage changes, on a terminal only
    (``always`` draws on any stream, for callers that decide themselves)."""

    def __init__(self, label: str = "", total: int | None = None, unit: str = "frames",
                 stream: TextIO | None = None, always: bool = False):
        self.stream = sys.stderr if stream is None else stream
        self.show = always or getattr(self.stream, "isatty", lambda: False)()
        self.label, self.total, self.unit, self.last = label, total, unit, -1

    def __call__(self, done: int, total: int | None = None, extra: str = "") -> None:
        total = self.total if total is None else total
        if not self.show:
            return
        prefix = f"{self.label} " if self.label else ""
        if total:
            pct = int(100 * done / total)
            if pct == self.last and done < total:
                return
            self.last = pct
            draw(f"{prefix}{bar(done, total)} {done}/{total} {self.unit}{extra}", self.stream, last=done >= total)
        elif done % 30 == 0:
            draw(f"{prefix}{done} {self.unit}{extra}", self.stream)
