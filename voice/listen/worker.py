"""The listening thread: an audio source through a ``Spotter``; the camera loop takes what was heard.

``take()`` only takes a lock and empties a list: the camera loop never waits for the
microphone or the decoder. ``listen_file`` runs the same source-and-spotter path on a
WAV file to its end (``caller listen file.wav``, recorded rounds).
"""

from __future__ import annotations

import threading
from typing import Callable, Iterable

from voice.listen.audio import open_audio
from voice.listen.spotter import Heard, Spotter


def spot(source, spotter: Spotter, on_heard: Callable[[Heard], None], stop: threading.Event | None = None,
         muted: Callable[[], bool] | None = None) -> None:
    """Every chunk of ``source`` through ``spotter``; each phrase heard goes to ``on_heard``.
    A chunk read while ``muted()`` is true (the Caller speaking) is fed as silence."""
    for chunk in source.chunks():
        if stop is not None and stop.is_set():
            return
        quiet = muted is not None and muted()
        for h in (spotter.feed_muted(chunk) if quiet else spotter.feed(chunk)):
            on_heard(h)
    for h in spotter.finish():
        on_heard(h)


def listen_file(path: str, names: Iterable[str] = (), **spotter_args) -> list[Heard]:
    """Every phrase heard in the WAV file ``path``."""
    heard: list[Heard] = []
    source = open_audio(path)
    try:
        spot(source, Spotter(names, **spotter_args), heard.append)
    finally:
        source.close()
    return heard


class Listener:
    """Listens to ``source`` (a spec for ``open_audio`` or an opened source) in a daemon thread.

    ``take()`` returns the phrases heard since the last call. ``error`` holds the exception
    that stopped the thread (a microphone unplugged), if any; the camera loop carries on.
    ``muted`` (settable later, e.g. to ``lambda: announcer.speaking(MUTE_TAIL_S)``): while it
    returns True the microphone's sound is not listened to (the Caller's own voice).
    """

    def __init__(self, source, names: Iterable[str] = (), muted: Callable[[], bool] | None = None, **spotter_args):
        self.source = open_audio(source) if isinstance(source, str) else source
        self.spotter = Spotter(names, **spotter_args)
        self.muted = muted
        self.error: Exception | None = None
        self._heard: list[Heard] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True, name="caller-listen")
        self._thread.start()

    def _run(self) -> None:
        try:
            spot(self.source, self.spotter, self._add, self._stop, lambda: self.muted is not None and self.muted())
        except Exception as exc:  # reported by the loop through .error; the thread just ends
            self.error = exc

    def _add(self, heard: Heard) -> None:
        with self._lock:
            self._heard.append(heard)

    def take(self) -> list[Heard]:
        with self._lock:
            out, self._heard = self._heard, []
        return out

    def join(self, timeout: float | None = None) -> bool:
        """Wait for the source to end (a file); True when it has."""
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def close(self) -> None:
        self._stop.set()
        self.source.close()
        self._thread.join(timeout=2)
