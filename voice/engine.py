"""The speech engine: pyttsx3 (espeak-ng on Linux) rendering one sentence at a time to WAV.

pyttsx3 is not thread-safe, its espeak driver keeps process-global C state (one
``espeak_Initialize`` per process, one synth callback), ``pyttsx3.init()`` hands the same
engine to every caller, and ``runAndWait`` can hang when it is re-entered. So every use of
pyttsx3 in a process goes through ONE engine thread (``shared_engine()``), fed by a queue;
callers wait for their sentence with a timeout, so a hung engine costs one timeout and
then text-only speech, never a stuck caller. ``SubprocessEngine`` runs the same code in a
child process instead (``engine = "subprocess"`` in the config), which can be killed and
restarted when it hangs.

Measured here (pyttsx3 2.99, espeak-ng 1.51, Linux):

* ``save_to_file`` + ``runAndWait`` of one sentence takes about 10 ms in a thread;
* two ``save_to_file`` calls before one ``runAndWait`` silently write only the last file
  (the espeak driver keeps a single pending text), and a long text can write no file at
  all; so sentences are rendered one ``runAndWait`` each and every
  file is checked (exists, readable WAV, frames > 0) before it counts as spoken;
* the espeak driver prints "Audio saved to ..." on stdout for every file, which would
  corrupt JSON printed on stdout: the print is silenced in the driver module only;
* ``say`` on Linux renders, then runs ``aplay`` through ``os.system`` and ignores its
  failure, so the speaker path here renders to a temporary WAV and plays it with
  ``aplay`` itself, checking the exit status ("no audio device" when there is no card).

WAV files from espeak-ng are mono, 16-bit, 22050 Hz.

The default espeak voice is ``gmw/en-us+klatt3`` (American English with the Klatt
formant variant): the stock voice loses about a third of the Caller's words in an offline
recogniser, the Klatt variant far fewer (benchmarks/bench_voice.py measures it).
"""

from __future__ import annotations

import json
import os
import platform
import queue
import select
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import wave
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Callable

from rules.outputs import OutputError, OutputFiles
from voice.config import VoiceConfig
from voice.errors import EngineUnavailable, NoAudioDevice, RenderFailed, VoiceError

#: The espeak-ng voice used when the config names none (see the module docstring).
DEFAULT_ESPEAK_VOICE = "gmw/en-us+klatt3"


@dataclass(frozen=True)
class WavInfo:
    """A checked WAV file: sample ``rate`` (Hz), ``channels``, ``width`` (bytes per sample), ``frames``."""

    path: str
    rate: int
    channels: int
    width: int
    frames: int

    @property
    def seconds(self) -> float:
        return self.frames / self.rate if self.rate else 0.0


def check_wav(path: str, text: str = "") -> WavInfo:
    """Open ``path`` as a WAV and check it holds sound; raises RenderFailed saying what is wrong."""
    what = f" for {text!r:.60}" if text else ""
    if not os.path.exists(path):
        raise RenderFailed(f"the speech engine wrote no file {path!r}{what}")
    if os.path.getsize(path) == 0:
        raise RenderFailed(f"the speech engine wrote an empty file {path!r}{what}")
    try:
        with wave.open(path, "rb") as w:
            info = WavInfo(path, w.getframerate(), w.getnchannels(), w.getsampwidth(), w.getnframes())
    except (wave.Error, EOFError, OSError) as exc:
        raise RenderFailed(f"{path!r}{what} is not a readable WAV file: {exc}") from None
    if info.frames <= 0 or info.rate <= 0:
        raise RenderFailed(f"{path!r}{what} holds no sound (0 frames)")
    return info


def concat_wavs(parts: list[str], out: str, gap_s: float = 0.35, rate: int = 22050) -> WavInfo:
    """Write the WAV files ``parts`` one after another into ``out``, ``gap_s`` seconds of silence between two.

    All parts must share rate, channels and sample width (they come from one engine). With
    no parts, ``out`` is a valid WAV with 0 frames at ``rate`` (mono, 16-bit). The file
    appears whole or not at all (``outputs.OutputFiles``; a FIFO or device is written through).
    """
    params = None
    frames = 0
    try:
        with OutputFiles(out) as files, wave.open(files.path(out), "wb") as dst:
            for i, part in enumerate(parts):
                with wave.open(part, "rb") as src:
                    p = (src.getnchannels(), src.getsampwidth(), src.getframerate())
                    if params is None:
                        params = p
                        dst.setnchannels(p[0])
                        dst.setsampwidth(p[1])
                        dst.setframerate(p[2])
                    elif p != params:
                        raise RenderFailed(f"{part!r} has format {p}, the others {params}: cannot join them")
                    if i:
                        gap = int(round(gap_s * p[2]))
                        dst.writeframes(b"\0" * (gap * p[0] * p[1]))
                        frames += gap
                    n = src.getnframes()
                    dst.writeframes(src.readframes(n))
                    frames += n
            if params is None:
                params = (1, 2, rate)
                dst.setnchannels(1)
                dst.setsampwidth(2)
                dst.setframerate(rate)
    except OutputError as exc:
        raise VoiceError(str(exc)) from None
    # told from what was written, not read back: ``out`` may be a FIFO or a device
    return WavInfo(out, params[2], params[0], params[1], frames)


def play_wav(path: str, timeout_s: float) -> None:
    """Play a WAV on the default sound card with ``aplay``; raises NoAudioDevice with aplay's reason."""
    aplay = shutil.which("aplay")
    if aplay is None:
        raise NoAudioDevice("aplay is not installed (apt install alsa-utils)")
    try:
        proc = subprocess.run([aplay, "-q", path], capture_output=True, text=True, timeout=timeout_s)
    except subprocess.TimeoutExpired:
        raise NoAudioDevice(f"aplay did not finish within {timeout_s:.0f} s") from None
    if proc.returncode != 0:
        reason = (proc.stderr.strip().splitlines() or [f"exit status {proc.returncode}"])[-1]
        raise NoAudioDevice(f"aplay failed: {reason}")


def _wait_for_file(path: str, timeout_s: float = 1.0) -> None:
    """Wait until ``path`` exists and its size holds still (the driver writes it from espeak's thread)."""
    deadline = time.monotonic() + timeout_s
    last = -1
    while time.monotonic() < deadline:
        size = os.path.getsize(path) if os.path.exists(path) else -1
        if size > 0 and size == last:
            return
        last = size
        time.sleep(0.005)


# -- pyttsx3 inside one thread ------------------------------------------------------------------


class _Pyttsx3:
    """One pyttsx3 engine; every method must run in the thread that created it."""

    def __init__(self) -> None:
        try:
            import pyttsx3
        except ImportError as exc:
            raise EngineUnavailable(f"pyttsx3 is not installed ({exc})") from None
        try:
            self.engine = pyttsx3.init()
        except Exception as exc:  # the driver raises RuntimeError/OSError/ImportError by platform
            hint = " (install espeak-ng)" if platform.system() == "Linux" else ""
            raise EngineUnavailable(f"the pyttsx3 driver could not start: {exc}{hint}") from None
        self.driver = self.engine.driver_name
        if self.driver == "espeak":
            # the driver prints "Audio saved to ..." for every file; silence that module only
            import pyttsx3.drivers.espeak as espeak_driver

            espeak_driver.print = lambda *args, **kwargs: None
        self._settings: tuple | None = None
        self.warm_up()

    def configure(self, voice: str | None, rate: int, volume: float) -> None:
        settings = (voice, rate, volume)
        if settings == self._settings:
            return
        if voice is None and self.driver == "espeak":
            try:
                self.engine.setProperty("voice", DEFAULT_ESPEAK_VOICE)
            except (ValueError, KeyError):
                pass  # an espeak-ng without the variant keeps its own default voice
        try:
            if voice is not None:
                self.engine.setProperty("voice", voice)
            self.engine.setProperty("rate", rate)
            self.engine.setProperty("volume", volume)
        except (ValueError, KeyError) as exc:
            raise VoiceError(f"the speech engine refused voice {voice!r}, rate {rate}, volume {volume}: {exc}") from None
        if self.driver == "espeak":
            self._settle_espeak()
        self._settings = settings

    @staticmethod
    def _settle_espeak() -> None:
        """Wait until espeak-ng has applied the voice, rate and volume just set.

        The driver starts espeak-ng in retrieval mode, which is asynchronous: a parameter is a
        command in espeak's own queue, applied by its thread. The next ``runAndWait`` ends the
        previous loop with ``espeak_Cancel`` while espeak still counts as playing, and a cancel
        empties that queue, so the rate set just before was sometimes dropped and the sentence
        spoken at the driver's default rate (about one process in four here: a 41 s setup
        came out as 27 s). ``espeak_Synchronize`` returns once the queue is empty.
        """
        from pyttsx3.drivers import _espeak

        _espeak.Synchronize()

    def render(self, text: str, path: str, attempts: int = 3) -> WavInfo:
        """Render ``text`` into ``path`` and check the file, trying again when none was written."""
        failure: RenderFailed | None = None
        for _ in range(attempts):
            if os.path.exists(path):
                os.remove(path)
            self.engine.save_to_file(text, path)
            self.engine.runAndWait()
            try:
                return check_wav(path, text)
            except RenderFailed:
                _wait_for_file(path)  # written late, from espeak's thread?
            try:
                return check_wav(path, text)
            except RenderFailed as exc:
                failure = exc
        assert failure is not None
        raise failure

    def warm_up(self) -> None:
        """Run the engine's first loop on a throwaway sentence.

        pyttsx3's first ``runAndWait`` after ``init`` ends its loop before espeak-ng has
        finished (the queued end-of-loop command runs in the same pump as the text), so
        about one first sentence in twelve was missing here, its audio arriving late. Every
        later loop waits properly; so the first one is spent on a word nobody hears.
        """
        with tempfile.TemporaryDirectory(prefix="caller-voice-") as tmp:
            path = os.path.join(tmp, "warm-up.wav")
            self.engine.save_to_file("Ready.", path)
            self.engine.runAndWait()
            _wait_for_file(path, 2.0)

    def say(self, text: str) -> None:
        self.engine.say(text)
        self.engine.runAndWait()


def _settings(config: VoiceConfig) -> tuple:
    return (config.voice, config.rate, config.volume)


_PYTTSX3_LOCK = threading.Lock()


class ThreadEngine:
    """pyttsx3 owned by one daemon thread; ``render``/``say`` are safe from any thread.

    The engine is created in the thread on the first request. A request that does not
    finish within ``timeout_s`` marks the engine hung: that request and every later one
    raise RenderFailed at once (the thread cannot be killed; use ``engine = "subprocess"``
    where that happens).
    """

    def __init__(self) -> None:
        self._requests: queue.Queue = queue.Queue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._failure: VoiceError | None = None
        self.driver: str | None = None

    def _ensure_thread(self) -> None:
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="voice-engine", daemon=True)
                self._thread.start()

    def _run(self) -> None:
        engine: _Pyttsx3 | None = None
        while True:
            job, future = self._requests.get()
            if not future.set_running_or_notify_cancel():
                continue
            try:
                # pyttsx3.init() hands every thread the same engine: extra ThreadEngines
                # (tests, benchmarks) take turns with the shared one
                with _PYTTSX3_LOCK:
                    if engine is None:
                        engine = _Pyttsx3()
                        self.driver = engine.driver
                    result = job(engine)
                future.set_result(result)
            except BaseException as exc:  # handed to the waiting caller, who decides
                future.set_exception(exc)

    def _call(self, job: Callable[[_Pyttsx3], object], timeout_s: float, what: str) -> object:
        if self._failure is not None:
            raise self._failure
        self._ensure_thread()
        future: Future = Future()
        self._requests.put((job, future))
        try:
            return future.result(timeout=timeout_s)
        except TimeoutError:
            self._failure = RenderFailed(f"the speech engine hung ({what} took over {timeout_s:g} s)")
            raise self._failure from None
        except EngineUnavailable as exc:
            self._failure = exc
            raise

    def render(self, text: str, path: str, config: VoiceConfig) -> WavInfo:
        """Render ``text`` to the WAV file ``path`` and check it; raises EngineUnavailable or RenderFailed."""

        def job(engine: _Pyttsx3) -> WavInfo:
            engine.configure(*_settings(config))
            return engine.render(text, path)

        return self._call(job, config.timeout_s, f"rendering {text!r:.40}")  # type: ignore[return-value]

    def say(self, text: str, config: VoiceConfig) -> None:
        """Speak through pyttsx3's own ``say`` (the path on macOS and Windows)."""

        def job(engine: _Pyttsx3) -> None:
            engine.configure(*_settings(config))
            engine.say(text)

        self._call(job, config.timeout_s + 60.0, f"saying {text!r:.40}")

    def close(self) -> None:
        """Nothing to release: the thread is shared by the process and ends with it."""


_SHARED: ThreadEngine | None = None
_SHARED_LOCK = threading.Lock()


def shared_engine() -> ThreadEngine:
    """The process's one pyttsx3 thread (created on first use)."""
    global _SHARED
    with _SHARED_LOCK:
        if _SHARED is None:
            _SHARED = ThreadEngine()
        return _SHARED


# -- pyttsx3 inside a child process -------------------------------------------------------------


class SubprocessEngine:
    """pyttsx3 in a child process (``python -m voice.engine``), one JSON line per request.

    Slower to start (one Python start-up, about 0.2-0.5 s) but a hung render is killed after
    ``timeout_s`` and the next request starts a fresh child. The child's stdout carries
    only the protocol; anything the driver prints goes to its stderr, which is discarded.
    """

    def __init__(self) -> None:
        self._proc: subprocess.Popen | None = None
        self._lock = threading.Lock()
        self._unavailable: EngineUnavailable | None = None
        self.driver: str | None = "espeak" if platform.system() == "Linux" else None

    def _start(self) -> subprocess.Popen:
        if self._proc is None or self._proc.poll() is not None:
            self._proc = subprocess.Popen(
                [sys.executable, "-m", "voice.engine"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                bufsize=1,
            )
        return self._proc

    def _kill(self) -> None:
        if self._proc is not None:
            self._proc.kill()
            self._proc.wait()
            self._proc = None

    def render(self, text: str, path: str, config: VoiceConfig) -> WavInfo:
        if self._unavailable is not None:
            raise self._unavailable
        request = {"text": text, "path": path, "voice": config.voice, "rate": config.rate, "volume": config.volume}
        with self._lock:
            proc = self._start()
            assert proc.stdin is not None and proc.stdout is not None
            try:
                proc.stdin.write(json.dumps(request) + "\n")
                proc.stdin.flush()
            except BrokenPipeError:
                self._kill()
                raise RenderFailed("the speech engine process exited") from None
            ready, _, _ = select.select([proc.stdout], [], [], config.timeout_s)
            if not ready:
                self._kill()
                raise RenderFailed(f"the speech engine hung (rendering {text!r:.40} took over {config.timeout_s:g} s)")
            line = proc.stdout.readline()
            if not line:
                self._kill()
                raise RenderFailed("the speech engine process exited")
        reply = json.loads(line)
        if reply.get("unavailable"):
            self._unavailable = EngineUnavailable(reply["unavailable"])
            self._kill()
            raise self._unavailable
        if reply.get("error"):
            raise RenderFailed(reply["error"])
        return check_wav(path, text)

    def say(self, text: str, config: VoiceConfig) -> None:
        raise VoiceError("the subprocess engine only renders to WAV; speakers play the WAV")

    def close(self) -> None:
        with self._lock:
            if self._proc is not None and self._proc.poll() is None:
                assert self._proc.stdin is not None
                self._proc.stdin.close()
                try:
                    self._proc.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    self._kill()
            self._proc = None


def _child_main() -> int:
    """The child of SubprocessEngine: read JSON requests on stdin, answer one JSON line each."""
    out = sys.stdout
    sys.stdout = sys.stderr  # only the protocol goes to the parent's pipe
    try:
        engine = _Pyttsx3()
    except EngineUnavailable as exc:
        engine = None
        failure = str(exc)
    for line in sys.stdin:
        if engine is None:
            reply: dict = {"unavailable": failure}
        else:
            req = json.loads(line)
            try:
                engine.configure(req.get("voice"), req["rate"], req["volume"])
                info = engine.render(req["text"], req["path"])
                reply = {"ok": True, "frames": info.frames}
            except VoiceError as exc:
                reply = {"error": str(exc)}
        out.write(json.dumps(reply) + "\n")
        out.flush()
    return 0


def make_engine(config: VoiceConfig) -> ThreadEngine | SubprocessEngine:
    """The engine the config asks for: the shared thread, or a new child process."""
    return SubprocessEngine() if config.engine == "subprocess" else shared_engine()


class Speech:
    """What sinks use to make sound: render a sentence to WAV, or speak it aloud.

    ``speak`` on Linux (espeak driver) renders to a temporary WAV and plays it with aplay,
    so a missing sound card is an error the caller sees (NoAudioDevice), not silence.
    """

    def __init__(self, config: VoiceConfig, engine: ThreadEngine | SubprocessEngine | None = None):
        self.config = config
        self.engine = engine if engine is not None else make_engine(config)
        self._tmpdir: tempfile.TemporaryDirectory | None = None
        self._count = 0

    def render(self, text: str, path: str) -> WavInfo:
        return self.engine.render(text, path, self.config)

    def temp_path(self) -> str:
        """A fresh path for a sentence WAV in this Speech's private temporary folder."""
        if self._tmpdir is None:
            self._tmpdir = tempfile.TemporaryDirectory(prefix="caller-voice-")
        self._count += 1
        return os.path.join(self._tmpdir.name, f"{self._count:05d}.wav")

    def speak(self, text: str) -> None:
        if platform.system() in ("Darwin", "Windows"):
            self.engine.say(text, self.config)
            return
        path = self.render(text, self.temp_path())
        try:
            play_wav(path.path, timeout_s=path.seconds + 10.0)
        finally:
            os.remove(path.path)

    def close(self) -> None:
        if self.engine is not _SHARED:
            self.engine.close()
        if self._tmpdir is not None:
            self._tmpdir.cleanup()
            self._tmpdir = None


if __name__ == "__main__":
    raise SystemExit(_child_main())
