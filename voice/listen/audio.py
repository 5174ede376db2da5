"""Audio sources for the spotter: 16 kHz mono 16-bit chunks of ``CHUNK_S`` seconds.

``open_audio(spec)``: a WAV file (any rate, mono or stereo, 16-bit), or a microphone: an
index ("0", "1": the ALSA card, ``plughw:N``) or an ALSA device name ("default",
"plughw:1,0", "pulse"). The microphone is read through ``arecord`` (alsa-utils, which
scripts/setup.sh installs); where ``arecord`` is missing, through the ``sounddevice``
package (PortAudio), where the index or name is PortAudio's. Both hand the spotter the
same chunks a WAV file does, so a file stands in for the microphone exactly.
"""

from __future__ import annotations

import shutil
import subprocess
import wave
from pathlib import Path
from typing import Iterator

import numpy as np

from voice.errors import VoiceError

RATE = 16000  # the rate of the en-us acoustic model in pocketsphinx's wheel
CHUNK_S = 0.1
CHUNK = int(RATE * CHUNK_S)


class AudioError(VoiceError):
    """An audio source that cannot be opened or read (no such file, not a WAV, no microphone)."""


def read_wav(path: str | Path) -> np.ndarray:
    """The whole WAV file as 16 kHz mono int16 (resampled, channels averaged)."""
    try:
        with wave.open(str(path), "rb") as w:
            width, rate, channels = w.getsampwidth(), w.getframerate(), w.getnchannels()
            raw = w.readframes(w.getnframes())
    except FileNotFoundError:
        raise AudioError(f"{path}: no such file") from None
    except (wave.Error, EOFError, OSError) as exc:
        raise AudioError(f"{path}: not a readable WAV file ({exc})") from None
    if width != 2:
        raise AudioError(f"{path}: expected 16-bit samples, got {8 * width}-bit")
    x = np.frombuffer(raw, dtype=np.int16).astype(np.float32)
    if channels > 1:
        x = x[: len(x) // channels * channels].reshape(-1, channels).mean(axis=1)
    if rate != RATE:
        from math import gcd

        from scipy.signal import resample_poly

        g = gcd(RATE, rate)
        x = resample_poly(x, RATE // g, rate // g)
    return np.clip(np.round(x), -32768, 32767).astype(np.int16)


class WavAudio:
    """A WAV file as chunks; ``live`` is False (times are seconds of the file)."""

    live = False

    def __init__(self, path: str | Path):
        self.path = str(path)
        self.samples = read_wav(path)
        self.description = f"WAV {Path(path).name} ({len(self.samples) / RATE:.1f} s)"

    def chunks(self) -> Iterator[np.ndarray]:
        for i in range(0, len(self.samples), CHUNK):
            yield self.samples[i : i + CHUNK]

    def close(self) -> None:
        pass


class ArecordAudio:
    """A microphone read by ``arecord`` as raw 16 kHz mono S16_LE on its stdout."""

    live = True

    def __init__(self, device: str):
        self.device = f"plughw:{device}" if device.isdigit() else device
        self.description = f"microphone {self.device} (arecord)"
        self._proc = subprocess.Popen(
            ["arecord", "-q", "-D", self.device, "-f", "S16_LE", "-r", str(RATE), "-c", "1", "-t", "raw"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    def chunks(self) -> Iterator[np.ndarray]:
        assert self._proc.stdout is not None
        while True:
            data = self._proc.stdout.read(CHUNK * 2)
            if not data:
                err = self._proc.stderr.read().decode(errors="replace").strip() if self._proc.stderr else ""
                if self._proc.wait() not in (0, -15):
                    raise AudioError(f"microphone {self.device}: arecord failed ({err.splitlines()[-1] if err else 'no sound'})")
                return
            yield np.frombuffer(data[: len(data) // 2 * 2], dtype=np.int16)

    def close(self) -> None:
        if self._proc.poll() is None:
            self._proc.terminate()
            try:
                self._proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                self._proc.kill()


class SounddeviceAudio:
    """A microphone read through PortAudio (the ``sounddevice`` package)."""

    live = True

    def __init__(self, device: str):
        try:
            import sounddevice
        except (ImportError, OSError) as exc:
            raise AudioError(f"microphone {device}: neither arecord (apt install alsa-utils) nor sounddevice "
                             f"(pip install sounddevice, apt install libportaudio2) is available ({exc})") from None
        self.device = int(device) if device.isdigit() else device
        self.description = f"microphone {device} (PortAudio)"
        try:
            self._stream = sounddevice.RawInputStream(samplerate=RATE, channels=1, dtype="int16",
                                                      blocksize=CHUNK, device=self.device)
            self._stream.start()
        except Exception as exc:  # PortAudioError, ValueError for an unknown device
            raise AudioError(f"microphone {device}: {exc}") from None

    def chunks(self) -> Iterator[np.ndarray]:
        while not self._stream.closed:
            data, _overflowed = self._stream.read(CHUNK)
            yield np.frombuffer(bytes(data), dtype=np.int16)

    def close(self) -> None:
        self._stream.close()


def open_audio(spec: str):
    """A WAV file when ``spec`` names one (ends in .wav or is an existing file), else a microphone."""
    spec = str(spec)
    if spec.lower().endswith(".wav") or Path(spec).is_file():
        return WavAudio(spec)
    if shutil.which("arecord"):
        return ArecordAudio(spec)
    return SounddeviceAudio(spec)
