"""SIGTERM handled like Ctrl-C, so that what a command has done is saved either way.

``terminate_as_interrupt()`` makes SIGTERM raise ``Terminated``, a KeyboardInterrupt, in
the main thread: every ``finally`` and ``except KeyboardInterrupt`` that keeps work on
Ctrl-C (the events file, the WAV of the announcements, a race round so far) runs for
SIGTERM too. A second SIGTERM while that cleanup runs is ignored. ``exit_status`` gives
the shell's convention: 130 after Ctrl-C, 143 after SIGTERM.
"""

from __future__ import annotations

import signal
import threading
from contextlib import contextmanager
from typing import Iterator


class Terminated(KeyboardInterrupt):
    """The process was asked to stop with SIGTERM."""


def _raise_terminated(signum, frame) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    raise Terminated()


@contextmanager
def terminate_as_interrupt() -> Iterator[None]:
    """While inside, SIGTERM raises Terminated (only from the main thread; elsewhere a no-op)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _raise_terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def hidden_interrupt(exc: BaseException) -> KeyboardInterrupt | None:
    """The Ctrl-C or SIGTERM that ``exc`` was raised while handling, else None.

    A signal that arrives while a numba-compiled function returns comes out as a SystemError
    ("returned a result with an exception set") around the interrupt, and a library that is
    interrupted half-way (numba loading its cache, a codec) may raise its own error from it:
    either way the user asked the command to stop."""
    seen = 0
    inner = exc
    while inner is not None and seen < 16:
        if isinstance(inner, KeyboardInterrupt):
            return inner
        inner = inner.__cause__ or inner.__context__
        seen += 1
    return None


@contextmanager
def unmasked_interrupts() -> Iterator[None]:
    """Re-raise a Ctrl-C or SIGTERM that compiled code wrapped in a SystemError as itself, so
    that the ``except KeyboardInterrupt`` that keeps the work done so far sees it."""
    try:
        yield
    except Exception as exc:
        inner = hidden_interrupt(exc)
        if inner is None:
            raise
        raise inner from None


def exit_status(exc: KeyboardInterrupt) -> int:
    """130 for Ctrl-C (128 + SIGINT), 143 for SIGTERM (128 + SIGTERM)."""
    return 128 + (signal.SIGTERM if isinstance(exc, Terminated) else signal.SIGINT)
