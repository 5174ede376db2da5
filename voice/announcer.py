"""The Announcer: a queue of things to say and one worker thread that says them.

``announce`` only takes a lock and appends to a list, so the camera loop never waits for
speech (microseconds; see benchmarks/bench_voice.py). The worker hands each message to
every sink in turn (console, WAV, speaker); rendering and playing happen there.

Rules of the queue:

* priority: a ``"warning"`` is said before any queued ``"routine"`` message; within one
  priority, first in first out;
* no repeats: a message whose ``key`` was last announced with the same ``state`` and the
  same text is dropped (the same warning is not repeated while nothing changed);
* no stale talk: announcing a new ``state`` for a ``key`` drops the queued, not yet spoken
  messages of that key about another state;
* a message without a ``key`` is always said.

``close(drain=True)`` says what is queued, then closes the sinks (the WAV file is written
then) and joins the worker; ``close(drain=False)`` drops what is queued (the sentence
being spoken is finished). The Announcer is a context manager that drains on exit.
"""

from __future__ import annotations

import heapq
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Hashable, Iterable

from voice.config import VoiceConfig
from voice.engine import Speech
from voice.errors import VoiceError
from voice.notices import notice
from voice.sinks import Sink

PRIORITIES = {"warning": 0, "routine": 1}


@dataclass(frozen=True)
class Message:
    """One thing to say. ``key``: the subject (e.g. "illegal"); ``state``: a hashable snapshot of what it is about."""

    text: str
    priority: str = "routine"
    key: Hashable | None = None
    state: Hashable | None = None
    seq: int = field(default=0, compare=False)


@dataclass
class Stats:
    """Counts since the Announcer started: queued, spoken, dropped as repeats, dropped as stale, dropped at close."""

    queued: int = 0
    spoken: int = 0
    repeats: int = 0
    stale: int = 0
    dropped_at_close: int = 0


class Announcer:
    """Says announcements through ``sinks`` from one worker thread; ``announce`` never blocks.

    ``config`` (a VoiceConfig, defaults when None) sets voice, rate and volume. ``speech``
    is made lazily in the worker when a sink needs it, unless one is passed in (tests,
    benchmarks); when the engine cannot start, sinks get None and say so once.
    ``start=False`` builds a stopped Announcer: messages queue up until ``start()``,
    which makes the order they are said in easy to check.
    """

    def __init__(
        self,
        sinks: Iterable[Sink],
        config: VoiceConfig | None = None,
        *,
        speech: Speech | None = None,
        needs_speech: bool | None = None,
        start: bool = True,
    ):
        self.sinks = list(sinks)
        self.config = config if config is not None else VoiceConfig()
        self._speech = speech
        self._own_speech = False
        # only sinks that make sound need an engine; a console-only Announcer never starts one
        self._needs_speech = needs_speech if needs_speech is not None else any(
            getattr(s, "needs_speech", False) for s in self.sinks
        )
        self._cond = threading.Condition()
        # a heap in saying order; stale messages are marked in _dropped and skipped when popped,
        # and _by_key finds a key's queued messages without scanning the queue
        self._heap: list[tuple[int, int, Message]] = []
        self._dropped: set[int] = set()
        self._by_key: dict[Hashable, list[Message]] = {}
        self._live = 0
        self._latest: dict[Hashable, tuple[Hashable, str]] = {}
        self._seq = 0
        self._busy = False
        self._busy_until = float("-inf")  # time.monotonic() when the last message was said
        self._closing = False
        self._drain = True
        self._closed = False
        self.stats = Stats()
        self.spoken: deque[Message] = deque(maxlen=256)  # the last messages said, for logs and tests
        self._thread: threading.Thread | None = None
        if start:
            self.start()

    # -- the camera loop's side --------------------------------------------------------------------
    def announce(
        self, text: str, *, priority: str = "routine", key: Hashable | None = None, state: Hashable | None = None
    ) -> bool:
        """Queue ``text``; returns False when it was dropped as a repeat. Never blocks on speech.

        Raises VoiceError for an unknown priority or after ``close``.
        """
        if priority not in PRIORITIES:
            raise VoiceError(f"unknown priority {priority!r}: expected 'routine' or 'warning'")
        with self._cond:
            if self._closing:
                raise VoiceError(f"the announcer is closed: cannot say {text!r:.60}")
            if key is not None:
                if self._latest.get(key) == (state, text):
                    self.stats.repeats += 1
                    return False
                self._latest[key] = (state, text)
                queued = self._by_key.get(key)
                if queued:
                    keep = []
                    for m in queued:
                        if m.state == state:
                            keep.append(m)
                        else:
                            self._dropped.add(m.seq)
                            self._live -= 1
                            self.stats.stale += 1
                    self._by_key[key] = keep
            self._seq += 1
            message = Message(text, priority, key, state, self._seq)
            heapq.heappush(self._heap, (PRIORITIES[priority], self._seq, message))
            if key is not None:
                self._by_key.setdefault(key, []).append(message)
            self._live += 1
            self.stats.queued += 1
            self._cond.notify()
        return True

    def forget(self, key: Hashable | None = None) -> None:
        """Allow the last message of ``key`` (of every key when None) to be said again."""
        with self._cond:
            if key is None:
                self._latest.clear()
            else:
                self._latest.pop(key, None)

    def pending(self) -> list[str]:
        """The texts waiting to be said, in the order they will be said."""
        with self._cond:
            return [m.text for _, seq, m in sorted(self._heap) if seq not in self._dropped]

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Block until everything queued has been said; True unless ``timeout`` ran out."""
        with self._cond:
            return self._cond.wait_for(lambda: not self._live and not self._busy, timeout)

    def speaking(self, tail: float = 0.0) -> bool:
        """True while a message is being said aloud (a sink plays sound into the room) and for
        ``tail`` seconds after it: the listening thread drops what the microphone hears then,
        so that the Caller never takes its own words for a player's command."""
        # a sink that plays sound into the room (and has not given up: no audio device)
        if not any(getattr(s, "aloud", False) and getattr(s, "failed", None) is None for s in self.sinks):
            return False
        with self._cond:
            return self._busy or time.monotonic() - self._busy_until < tail

    # -- life cycle ---------------------------------------------------------------------------------
    def start(self) -> None:
        """Start the worker (done by the constructor unless ``start=False``)."""
        with self._cond:
            if self._thread is not None:
                return
            self._thread = threading.Thread(target=self._run, name="voice-announcer", daemon=True)
        self._thread.start()

    def close(self, drain: bool = True, timeout: float | None = None) -> None:
        """Stop: say (``drain``) or drop what is queued, close the sinks, join the worker. Idempotent."""
        with self._cond:
            if self._closed:
                return
            self._closing = True
            self._drain = drain
            if not drain:
                self.stats.dropped_at_close += self._live
                self._clear()
            self._cond.notify_all()
        if self._thread is None:
            self.start()
        assert self._thread is not None
        self._thread.join(timeout)
        with self._cond:
            self._closed = not self._thread.is_alive()

    def __enter__(self) -> "Announcer":
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        self.close(drain=exc_type is None)

    # -- the worker -----------------------------------------------------------------------------------
    def _open_speech(self) -> Speech | None:
        if self._speech is None and self._needs_speech:
            self._speech = Speech(self.config)  # the engine itself starts on the first sentence
            self._own_speech = True
        return self._speech

    def _run(self) -> None:
        speech = self._open_speech()
        for sink in self.sinks:
            sink.open(speech)
        try:
            while True:
                with self._cond:
                    self._cond.wait_for(lambda: self._live or self._closing)
                    if not self._live:
                        break
                    message = self._pop()
                    self._busy = True
                try:
                    for sink in self.sinks:
                        self._emit(sink, message)
                finally:
                    with self._cond:
                        self._busy = False
                        self._busy_until = time.monotonic()
                        self.stats.spoken += 1
                        self.spoken.append(message)
                        self._cond.notify_all()
        finally:
            for sink in self.sinks:
                try:
                    sink.close()
                except VoiceError as exc:
                    notice(str(exc))
            if speech is not None and self._own_speech:
                speech.close()

    def _pop(self) -> Message:
        """The next message to say (caller holds the lock and knows one is live)."""
        while True:
            _, seq, message = heapq.heappop(self._heap)
            if seq in self._dropped:
                self._dropped.discard(seq)
                continue
            self._live -= 1
            if message.key is not None:
                queued = self._by_key[message.key]
                del queued[next(i for i, m in enumerate(queued) if m is message)]
                if not queued:
                    del self._by_key[message.key]
            return message

    def _clear(self) -> None:
        self._heap.clear()
        self._dropped.clear()
        self._by_key.clear()
        self._live = 0

    @staticmethod
    def _emit(sink: Sink, message: Message) -> None:
        try:
            sink.emit(message)
        except (VoiceError, OSError, ValueError) as exc:  # one failing sink must not silence the others
            notice(f"{type(sink).__name__}: {exc}")
