"""Check recorded speech with an offline recogniser (pocketsphinx 5, English model in its wheel).

Used by the tests and benchmarks/bench_voice.py to show that what the Caller renders is
words a machine (and so, likely, a person) can make out. pocketsphinx is a test extra,
imported only here and only when called.

The recogniser gets a JSGF grammar that is a free loop over the Caller's vocabulary
(``VOCABULARY``: digits, colours, ranks, "pawns", "coins", "row", "done", ...): any
sequence of those words, so word order and repeats are not given away, but words the
Caller never says cannot be heard.
"""

from __future__ import annotations

import os
import re
import tempfile
import wave
from collections import Counter
from typing import Iterable

from voice.errors import VoiceError
from voice.phrasebook.common import number_word

#: Every word the Easy Slider Caller says in its setup, warnings and verdicts (lower case).
VOCABULARY: tuple[str, ...] = tuple(
    sorted(
        set(
            (
                "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
                "sixteen seventeen eighteen nineteen twenty thirty forty fifty "
                "black red blue green null ace pawns coins row column the hole and go done correct in "
                "minute minutes second seconds not yet is are wrong illegal move was lifted changed places "
                "moved diagonally slide fumble no points this round"
            ).split()
        )
    )
)

_TENS = {2: "twenty", 3: "thirty", 4: "forty", 5: "fifty"}
RATE = 16000  # the rate the bundled en-us acoustic model was trained at


def spoken_words(text: str) -> list[str]:
    """The words a sentence is heard as: lower case, no punctuation, numbers spelt ("27" -> "twenty seven")."""
    words: list[str] = []
    for token in re.findall(r"[A-Za-z]+|\d+", text):
        if token.isdigit():
            n = int(token)
            if n <= 20:
                words.append(number_word(n))
            elif n < 60:
                words.append(_TENS[n // 10])
                if n % 10:
                    words.append(number_word(n % 10))
            else:
                words.append(token)
        else:
            words.append(token.lower())
    return words


def recall(expected: Iterable[str], heard: Iterable[str]) -> tuple[int, int]:
    """(how many of ``expected`` were heard, how many expected), counting repeated words as often as expected."""
    want = Counter(expected)
    got = Counter(heard)
    return sum(min(n, got[w]) for w, n in want.items()), sum(want.values())


def grammar(vocabulary: Iterable[str] = VOCABULARY) -> str:
    """A JSGF grammar accepting any non-empty sequence of ``vocabulary``."""
    return (
        "#JSGF V1.0;\ngrammar caller;\npublic <utterance> = <word>+;\n<word> = "
        + " | ".join(sorted(set(vocabulary)))
        + ";\n"
    )


def _pcm16k(path: str, pad_s: float = 0.3) -> bytes:
    """The WAV at ``path`` as 16 kHz mono 16-bit PCM, with ``pad_s`` seconds of silence each side."""
    import numpy as np

    with wave.open(path, "rb") as w:
        if w.getsampwidth() != 2:
            raise VoiceError(f"{path!r}: expected 16-bit samples, got {8 * w.getsampwidth()}-bit")
        rate, channels = w.getframerate(), w.getnchannels()
        x = np.frombuffer(w.readframes(w.getnframes()), dtype=np.int16).astype(np.float32)
    if channels > 1:
        x = x.reshape(-1, channels).mean(axis=1)
    if rate != RATE:
        try:
            from math import gcd

            from scipy.signal import resample_poly

            g = gcd(RATE, rate)
            x = resample_poly(x, RATE // g, rate // g)
        except ImportError:  # linear interpolation: a little worse, still usable
            t = np.arange(int(len(x) * RATE / rate)) * (rate / RATE)
            x = np.interp(t, np.arange(len(x)), x)
    pad = np.zeros(int(RATE * pad_s), dtype=np.float32)
    x = np.concatenate([pad, x, pad])
    return np.clip(x, -32768, 32767).astype(np.int16).tobytes()


class Recogniser:
    """pocketsphinx with a grammar over ``vocabulary``; ``words(path)`` transcribes one WAV file."""

    def __init__(self, vocabulary: Iterable[str] = VOCABULARY):
        try:
            from pocketsphinx import Decoder
        except ImportError as exc:
            raise VoiceError(f"pocketsphinx is not installed ({exc}): pip install 'pocketsphinx>=5,<6'") from None
        self._tmp = tempfile.TemporaryDirectory(prefix="caller-asr-")
        gram = os.path.join(self._tmp.name, "caller.gram")
        with open(gram, "w") as f:
            f.write(grammar(vocabulary))
        # narrower beams than pocketsphinx's defaults: 5-10x faster on these short
        # sentences for the same words heard (measured in benchmarks/bench_voice.py)
        self._decoder_args = dict(samprate=RATE, jsgf=gram, loglevel="FATAL", beam=1e-30, wbeam=1e-20, maxhmmpf=5000)
        self._Decoder = Decoder

    def words(self, path: str) -> list[str]:
        """The words heard in the WAV file ``path`` (a fresh decoder per file, so results do not drift)."""
        decoder = self._Decoder(**self._decoder_args)
        decoder.start_utt()
        decoder.process_raw(_pcm16k(path), full_utt=True)
        decoder.end_utt()
        hyp = decoder.hyp()
        return hyp.hypstr.split() if hyp is not None and hyp.hypstr else []

    def close(self) -> None:
        self._tmp.cleanup()
