"""One-line notices about the voice itself ("no audio device: speaking in text only").

Each distinct notice is printed once per process, to stderr, prefixed "caller: ", so a
Caller that cannot speak says so once and goes on in text; stdout stays clean for JSON.
"""

from __future__ import annotations

import logging
import sys
import threading
from typing import TextIO

_LOG = logging.getLogger("voice")
_SEEN: set[str] = set()
_LOCK = threading.Lock()
#: Where notices go; None means the current ``sys.stderr`` (so pytest's capture sees them).
stream: TextIO | None = None


def notice(text: str) -> bool:
    """Print ``text`` once per process; returns True if it was printed now."""
    with _LOCK:
        if text in _SEEN:
            return False
        _SEEN.add(text)
    _LOG.info(text)
    out = stream if stream is not None else sys.stderr
    print(f"caller: {text}", file=out, flush=True)
    return True


def reset() -> None:
    """Forget which notices were printed (for tests)."""
    with _LOCK:
        _SEEN.clear()
