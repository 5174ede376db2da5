"""Voice benchmark: render speed, announce latency, and how much of the speech a recogniser hears.

    .venv/bin/python benchmarks/bench_voice.py [--seeds 3] [--voices default gmw/en-us] [--rates 140]

Prints three tables:

1. milliseconds to render one sentence to a checked WAV (pyttsx3 + espeak-ng), in the
   shared engine thread and in the child-process engine, plus each engine's start-up;
2. microseconds ``Announcer.announce`` takes while the worker is held busy (the camera
   loop's cost; it must never wait for speech);
3. recogniser keyword accuracy: the setup announcements of ``--seeds`` deals plus a fixed
   set of warnings and verdicts, rendered per voice and rate, transcribed by pocketsphinx
   with the Caller's vocabulary grammar; words heard / words said, overall and by kind.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import rules  # noqa: E402
from voice.announcer import Announcer  # noqa: E402
from voice.config import VoiceConfig  # noqa: E402
from voice.engine import DEFAULT_ESPEAK_VOICE, Speech, SubprocessEngine, ThreadEngine  # noqa: E402
from voice.phrasebook import easy_slider as ph  # noqa: E402
from voice.transcribe import Recogniser, recall, spoken_words  # noqa: E402

EXTRA = [
    "Go!",
    "Row 2, column 3: the Red Ace was lifted.",
    "Row 1, column 1 and row 1, column 2: the Blue 5 and the Green Null changed places.",
    "Done! Correct, in 1 minute 27 seconds.",
    "Not done yet: row 3, column 2 is wrong.",
    "Fumble! Row 4, column 5 is wrong: no points this round.",
]
KINDS = {
    "colour": {"black", "red", "blue", "green"},
    "rank/number": {"null", "ace", "one", "two", "three", "four", "five", "twenty", "seven"},
    "structure": {"pawns", "coins", "row", "column", "hole", "done", "correct", "lifted", "wrong", "fumble", "go"},
}


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def sentences(seeds: int) -> list[str]:
    game = rules.get("easy-slider")
    out = []
    for seed in range(1, seeds + 1):
        out += ph.setup_lines(game.setup(seed=seed))
    return out + EXTRA


def bench_render(texts: list[str]) -> list[tuple[str, str, str, str, str]]:
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, make in (("thread", ThreadEngine), ("subprocess", SubprocessEngine)):
            config = VoiceConfig(engine=name)
            speech = Speech(config, engine=make())
            t0 = time.perf_counter()
            speech.render("Ready.", os.path.join(tmp, "first.wav"))
            start_ms = (time.perf_counter() - t0) * 1000
            times, audio = [], 0.0
            for i, text in enumerate(texts):
                t = time.perf_counter()
                info = speech.render(text, os.path.join(tmp, f"{name}{i}.wav"))
                times.append((time.perf_counter() - t) * 1000)
                audio += info.seconds
            speech.close()
            rows.append((name, f"{start_ms:.0f}", f"{statistics.median(times):.1f}", f"{pct(times, 0.9):.1f}",
                         f"{audio * 1000 / sum(times):.0f}x"))
    return rows


class _Held:
    """A sink that holds the worker on its first message, so every announce meets a busy worker."""

    needs_speech = False

    def __init__(self) -> None:
        self.gate = threading.Event()

    def open(self, speech) -> None:
        pass

    def emit(self, message) -> None:
        self.gate.wait(60)

    def close(self) -> None:
        pass


def bench_announce(n: int = 20000) -> tuple[str, str, str, str]:
    sink = _Held()
    announcer = Announcer([sink])
    announcer.announce("held")
    times = []
    for i in range(n):
        # realistic mix: keyed warnings about changing states and plain routine talk
        t = time.perf_counter()
        if i % 4 == 0:
            announcer.announce(f"warning {i}", priority="warning", key="illegal", state=i)
        else:
            announcer.announce(f"move {i}")
        times.append((time.perf_counter() - t) * 1e6)
    sink.gate.set()
    announcer.close(drain=False)
    return (f"{n}", f"{statistics.median(times):.1f}", f"{pct(times, 0.99):.1f}", f"{max(times):.0f}")


def bench_recogniser(texts: list[str], voices: list[str], rates: list[int]) -> list[tuple]:
    rows = []
    recogniser = Recogniser()
    with tempfile.TemporaryDirectory() as tmp:
        for voice in voices:
            for rate in rates:
                config = VoiceConfig(voice=None if voice == "default" else voice, rate=rate)
                speech = Speech(config, engine=ThreadEngine())
                hit = total = 0
                kind_hits = {k: [0, 0] for k in KINDS}
                asr_s = []
                for i, text in enumerate(texts):
                    path = speech.render(text, os.path.join(tmp, f"r{i}.wav")).path
                    t = time.perf_counter()
                    heard = recogniser.words(path)
                    asr_s.append(time.perf_counter() - t)
                    said = spoken_words(text)
                    k, n = recall(said, heard)
                    hit, total = hit + k, total + n
                    for kind, words in KINDS.items():
                        kk, nn = recall([w for w in said if w in words], heard)
                        kind_hits[kind][0] += kk
                        kind_hits[kind][1] += nn
                speech.close()
                rows.append(
                    (voice if voice != "default" else f"default ({DEFAULT_ESPEAK_VOICE})", rate, f"{hit}/{total}",
                     f"{100 * hit / total:.0f}%")
                    + tuple(f"{100 * a / b:.0f}%" if b else "-" for a, b in kind_hits.values())
                    + (f"{statistics.median(asr_s):.2f}",)
                )
    recogniser.close()
    return rows


def table(title: str, header: tuple, rows: list[tuple]) -> None:
    cols = [header] + [tuple(str(c) for c in r) for r in rows]
    widths = [max(len(r[i]) for r in cols) for i in range(len(header))]
    print(f"\n{title}")
    for j, r in enumerate(cols):
        print("  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths))))
        if j == 0:
            print("  ".join("-" * w for w in widths))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seeds", type=int, default=3, help="setup announcements of seeds 1..N (default 3)")
    p.add_argument("--voices", nargs="+", default=["default", "gmw/en-us"], help="espeak-ng voices to compare")
    p.add_argument("--rates", nargs="+", type=int, default=[VoiceConfig().rate],
                   help=f"speaking rates in words per minute (default {VoiceConfig().rate}, the config's default)")
    p.add_argument("--skip-recogniser", action="store_true", help="only the speed tables")
    args = p.parse_args(argv)
    texts = sentences(args.seeds)
    print(f"{len(texts)} sentences ({args.seeds} setups of 7 + {len(EXTRA)} warnings/verdicts), "
          f"{sum(len(spoken_words(t)) for t in texts)} words; {os.cpu_count()} CPUs")
    table("Render one sentence to WAV (pyttsx3 + espeak-ng)",
          ("engine", "start ms", "median ms", "p90 ms", "audio/real"), bench_render(texts))
    table("Announcer.announce while the worker is busy (never waits for speech)",
          ("calls", "median us", "p99 us", "max us"), [bench_announce()])
    if not args.skip_recogniser:
        table("Recogniser keyword accuracy (pocketsphinx 5, Caller vocabulary grammar)",
              ("voice", "rate", "words", "recall") + tuple(KINDS) + ("asr s/sentence",),
              bench_recogniser(texts, args.voices, args.rates))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
