"""Where announcements go: the console (always), a WAV file, the speaker.

A sink is any object with ``open(speech)``, ``emit(message)`` and ``close()``; the
Announcer calls all three from its one worker thread, in that order, so sinks need no
locks. ``speech`` is a ``voice.engine.Speech`` (or None when the Announcer was built
without one, e.g. text only); ``message`` a ``voice.announcer.Message`` (``text``,
``priority``, ``key``, ``state``).

A sink that cannot make sound any more says so once (``voice.notices.notice``) and goes
on silently; the console sink keeps the text flowing.
"""

from __future__ import annotations

import os
import sys
from typing import Any, Protocol, TextIO

from rules.outputs import OutputError
from rules.outputs.files import check_output
from voice.engine import Speech, WavInfo, concat_wavs
from voice.errors import EngineUnavailable, NoAudioDevice, VoiceError
from voice.notices import notice
from voice.phrasebook.common import device_notice, engine_notice


class Sink(Protocol):
    def open(self, speech: Speech | None) -> None: ...

    def emit(self, message: Any) -> None: ...

    def close(self) -> None: ...


class ConsoleSink:
    """Prints ``Caller: <text>`` lines to ``stream`` (stdout by default), flushed at once.

    A stream that breaks (``caller watch ... | head -1``, a closed stdout) is given up
    with one notice; the other sinks go on, so the WAV file and the speaker miss nothing.
    """

    needs_speech = False

    def __init__(self, stream: TextIO | None = None, prefix: str = "Caller: "):
        self.stream = stream
        self.prefix = prefix
        self.broken = False

    def open(self, speech: Speech | None) -> None:
        pass

    def emit(self, message: Any) -> None:
        stream = self.stream if self.stream is not None else sys.stdout
        if self.broken or stream is None:
            return
        try:
            stream.write(f"{self.prefix}{message.text}\n")
            stream.flush()
        except (OSError, ValueError) as exc:  # a closed pipe, a full disk, a closed file
            self.broken = True
            reason = "closed" if isinstance(exc, (BrokenPipeError, ValueError)) else (exc.strerror or str(exc))
            notice(f"the text output stopped ({reason}): the Caller's lines go on to the other outputs")

    def close(self) -> None:
        pass


class WavSink:
    """All announcements, in the order spoken, in one WAV file at ``path``.

    Each sentence is rendered to its own temporary WAV as it is announced (one engine call
    per sentence: see the pitfall in voice/engine.py) and checked; ``close`` joins them with
    ``gap_s`` seconds of silence (the config's ``gap_s`` when None) into ``path``.
    ``rendered`` lists the checked sentence files; ``error`` holds the first failure
    (None when every sentence was written), and then no file is written at all rather
    than one with sentences missing.
    """

    needs_speech = True

    def __init__(self, path: str, gap_s: float | None = None):
        self.path = os.fspath(path)
        self.gap_s = gap_s
        self.rendered: list[WavInfo] = []
        self.error: VoiceError | None = None
        self.info: WavInfo | None = None
        self._speech: Speech | None = None

    def open(self, speech: Speech | None) -> None:
        self._speech = speech
        try:
            check_output(self.path)  # a path that cannot be written is said before any sentence is rendered
        except OutputError as exc:
            self.error = VoiceError(f"cannot write {self.path!r}: {exc.reason}")
            notice(str(self.error))
            return
        if speech is None:
            self.error = EngineUnavailable(f"speech is off: {self.path!r} is not written")
            notice(str(self.error))

    def emit(self, message: Any) -> None:
        if self.error is not None or self._speech is None:
            return
        try:
            self.rendered.append(self._speech.render(message.text, self._speech.temp_path()))
        except EngineUnavailable as exc:
            self.error = exc
            notice(engine_notice(str(exc)) + f"; {self.path!r} is not written")
        except VoiceError as exc:
            self.error = exc
            notice(f"{exc}; {self.path!r} is not written")

    def close(self) -> None:
        if self.error is not None or self._speech is None:
            return
        gap = self.gap_s if self.gap_s is not None else self._speech.config.gap_s
        try:
            self.info = concat_wavs([r.path for r in self.rendered], self.path, gap_s=gap)
        except VoiceError as exc:
            self.error = exc
            notice(str(exc))


class SpeakerSink:
    """Speaks each announcement aloud, blocking the worker (never the caller) while it plays.

    On the first failure it says once why ("no speech engine ..." or "no audio device ...:
    speaking in text only") and stays silent from then on.
    """

    needs_speech = True
    aloud = True  # sound in the room, which a microphone hears (Announcer.speaking)

    def __init__(self) -> None:
        self._speech: Speech | None = None
        self.failed: VoiceError | None = None
        self.spoken = 0

    def open(self, speech: Speech | None) -> None:
        self._speech = speech

    def emit(self, message: Any) -> None:
        if self.failed is not None or self._speech is None:
            return
        try:
            self._speech.speak(message.text)
            self.spoken += 1
        except EngineUnavailable as exc:
            self.failed = exc
            notice(engine_notice(str(exc)))
        except NoAudioDevice as exc:
            self.failed = exc
            notice(device_notice(str(exc)))
        except VoiceError as exc:
            self.failed = exc
            notice(f"{exc}: speaking in text only")

    def close(self) -> None:
        pass
