"""Synthetic test audio for the spotter: phrases spoken by espeak-ng, and table noise made procedurally.

No recordings of real tables exist for this project, so the tests and
benchmarks/bench_listen.py build their audio here:

* ``speak``: one sentence by espeak-ng (any voice, speed and pitch) at 16 kHz, trimmed
  to the speech, so the end of a phrase is known to the sample; a voice named
  ``festival:NAME`` is said by the Festival synthesiser instead (its diphone and HTS voices
  are built from recordings of real speakers, unlike espeak-ng's formant voices, so they
  are the nearer stand-in for a person; ``apt install festival festvox-kallpc16k
  festvox-kdlpc16k festvox-us-slt-hts``); a voice named ``flite:NAME`` by Flite, whose
  ``awb``, ``rms`` and ``slt`` voices are built from CMU ARCTIC recordings of three real
  speakers (``apt install flite``);
* ``tile_noise``: tiles sliding and knocking: bursts of band-passed noise (0.1-0.6 s,
  300-5000 Hz, soft attack and decay) at random gaps over a faint room hiss;
* ``babble``: people talking in the background: espeak-ng sentences in several voices,
  overlapping;
* ``mix_at``: noise scaled to a signal-to-noise ratio measured over the phrase itself.
"""

from __future__ import annotations

import functools
import io
import shutil
import subprocess
import wave
from typing import Sequence

import numpy as np

from voice.errors import VoiceError
from voice.listen.audio import RATE


#: the speed Festival's voices speak at with no stretch, in words a minute (near enough)
FESTIVAL_WPM = 170


def speak(text: str, voice: str = "en-us", speed: int = 150, pitch: int = 50) -> np.ndarray:
    """``text`` said by espeak-ng (or by Festival for a ``festival:NAME`` voice, whose pitch
    is its own, or by Flite for a ``flite:NAME`` voice, whose pitch moves with ``pitch`` as
    espeak-ng's does), as float32 samples at 16 kHz, silence trimmed at both ends."""
    if voice.startswith("festival:"):
        out = _festival(text, voice.split(":", 1)[1], speed)
    elif voice.startswith("flite:"):
        out = _flite(text, voice.split(":", 1)[1], speed, pitch)
    else:
        exe = shutil.which("espeak-ng")
        if exe is None:
            raise VoiceError("espeak-ng is not installed (apt install espeak-ng)")
        out = subprocess.run([exe, "-v", voice, "-s", str(speed), "-p", str(pitch), "--stdout", text],
                             capture_output=True, check=True).stdout
    with wave.open(io.BytesIO(out)) as w:
        rate = w.getframerate()
        x = np.frombuffer(w.readframes(w.getnframes()), dtype=np.int16).astype(np.float32)
    if rate != RATE:
        from math import gcd

        from scipy.signal import resample_poly

        g = gcd(RATE, rate)
        x = resample_poly(x, RATE // g, rate // g).astype(np.float32)
    loud = np.flatnonzero(np.abs(x) > 0.02 * np.abs(x).max())
    return x[loud[0] : loud[-1] + 1] if len(loud) else x


def _festival(text: str, voice: str, speed: int) -> bytes:
    """A WAV file's bytes: ``text`` said by Festival's ``voice`` at about ``speed`` words a minute."""
    exe = shutil.which("text2wave")
    if exe is None:
        raise VoiceError("Festival is not installed (apt install festival festvox-kallpc16k)")
    stretch = FESTIVAL_WPM / max(60, speed)
    # Festival exits 0 on an unknown voice, writing nothing
    return _wav_of("Festival", voice, [exe, "-eval", f"(begin (voice_{voice}) (Parameter.set 'Duration_Stretch "
                                              f"{stretch:.3f}))", "-o"], stdin=text.encode())


def _wav_of(engine: str, voice: str, argv: list[str], stdin: bytes | None = None) -> bytes:
    """The bytes of the WAV file a synthesiser writes when run as ``argv`` followed by the
    file's path; one clear VoiceError when it fails or writes no sound."""
    import tempfile

    with tempfile.NamedTemporaryFile(suffix=".wav") as f:
        run = subprocess.run([*argv, f.name], input=stdin, capture_output=True)
        out = f.read()
    if run.returncode != 0 or len(out) <= 44:  # a header alone: no sound
        said = (run.stdout + run.stderr).decode(errors="replace").strip().splitlines()
        raise VoiceError(f"{engine} could not say it with voice {voice!r}: {said[-1] if said else 'no sound'}")
    return out


#: Flite's voices' own speed in words a minute (near enough), and their mean pitch in Hz
FLITE_WPM = 170
FLITE_F0 = {"awb": 130.0, "rms": 110.0, "slt": 175.0, "kal": 105.0, "kal16": 105.0}


@functools.lru_cache(maxsize=None)
def _flite_voices(exe: str) -> tuple[str, ...]:
    said = subprocess.run([exe, "-lv"], capture_output=True, text=True).stdout
    return tuple(said.split(":", 1)[-1].split())


def _flite(text: str, voice: str, speed: int, pitch: int) -> bytes:
    """A WAV file's bytes: ``text`` said by Flite's ``voice`` at about ``speed`` words a
    minute; ``pitch`` 50 is the voice's own, every 10 more or less moves it by a tenth."""
    exe = shutil.which("flite")
    if exe is None:
        raise VoiceError("Flite is not installed (apt install flite)")
    if voice not in _flite_voices(exe):  # Flite says an unknown voice with its default one
        raise VoiceError(f"Flite has no voice {voice!r} (it has {', '.join(_flite_voices(exe))})")
    f0 = FLITE_F0.get(voice, 120.0) * (1.0 + (pitch - 50) / 100.0)
    return _wav_of("Flite", voice, [exe, "-voice", voice, "--setf", f"duration_stretch={FLITE_WPM / max(60, speed):.3f}",
                                    "--setf", f"int_f0_target_mean={f0:.0f}", "-t", text, "-o"])


def tile_noise(seconds: float, rng: np.random.Generator) -> np.ndarray:
    """Tiles sliding on a table: band-passed noise bursts at random gaps over a faint hiss."""
    from scipy.signal import butter, sosfilt

    n = int(seconds * RATE)
    out = rng.normal(0.0, 0.03, n).astype(np.float32)  # room hiss, relative to the bursts' level 1
    t = rng.uniform(0.0, 0.8)
    while t < seconds:
        length = rng.uniform(0.1, 0.6)
        lo, hi = rng.uniform(300, 900), rng.uniform(2500, 5000)
        sos = butter(4, [lo, hi], btype="band", fs=RATE, output="sos")
        m = int(length * RATE)
        burst = sosfilt(sos, rng.normal(0.0, 1.0, m)).astype(np.float32)
        attack = min(m, int(0.02 * RATE))
        env = np.ones(m, dtype=np.float32)
        env[:attack] = np.linspace(0, 1, attack)
        env *= np.exp(-np.linspace(0, rng.uniform(1.0, 4.0), m)).astype(np.float32)
        start = int(t * RATE)
        seg = out[start : start + m]
        seg += burst[: len(seg)] * env[: len(seg)] * rng.uniform(0.3, 1.0)
        t += length + rng.uniform(0.05, 1.2)
    return out


def babble(seconds: float, rng: np.random.Generator, texts: Sequence[str], voices: Sequence[str],
           talkers: int = 3) -> np.ndarray:
    """``talkers`` overlapping voices saying ``texts`` (picked at random) for ``seconds``."""
    n = int(seconds * RATE)
    out = np.zeros(n, dtype=np.float32)
    for _ in range(talkers):
        pos = int(rng.uniform(0, 1.0) * RATE)
        while pos < n:
            x = speak(str(rng.choice(texts)), str(rng.choice(voices)), int(rng.integers(130, 200)),
                      int(rng.integers(30, 70)))
            x /= np.sqrt(np.mean(x**2)) + 1e-9
            seg = out[pos : pos + len(x)]
            seg += x[: len(seg)]
            pos += len(x) + int(rng.uniform(0.1, 1.0) * RATE)
    return out


def power(x: np.ndarray) -> float:
    return float(np.mean(np.asarray(x, dtype=np.float64) ** 2)) + 1e-12


def mix_at(speech: np.ndarray, noise: np.ndarray, snr_db: float) -> np.ndarray:
    """``noise`` scaled so that the phrase is ``snr_db`` above it (power over the phrase's span)."""
    return noise * np.sqrt(power(speech) / (power(noise) * 10 ** (snr_db / 10)))


def to_int16(x: np.ndarray, peak: float = 0.5) -> np.ndarray:
    """Float samples scaled to ``peak`` of full scale as int16."""
    m = float(np.abs(x).max()) or 1.0
    return np.clip(x / m * peak * 32767, -32768, 32767).astype(np.int16)


def write_wav(path, samples: np.ndarray) -> None:
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(np.asarray(samples, dtype=np.int16).tobytes())
