"""What every text referee shares: prompts and lines in the terminal, and handing the Caller's lines to speech.

``RefereeIo`` prints on ``out``, reads from ``inp`` and keeps every Caller line; ``run_spoken``
runs a referee loop with ``--say`` (each batch spoken as it comes) and ``--voice-out WAV``
(everything said, written once at the end). ``voice`` is imported only when speech is asked
for, so the text referees work without the voice stack.
"""

from __future__ import annotations

import argparse
from typing import Callable, Sequence, TextIO

Speak = Callable[[list[str]], None]


class RefereeIo:
    """Prompts and lines on ``out``, input from ``inp``; every Caller line is also kept for speech."""

    def __init__(self, inp: TextIO, out: TextIO, speak: Speak | None = None) -> None:
        self.inp, self.out, self.speak = inp, out, speak
        self.said: list[str] = []

    def print(self, text: str = "") -> None:
        print(text, file=self.out)

    def caller(self, lines: Sequence[str]) -> None:
        """Print ``Caller: <line>`` for each line, keep them, and speak them when speech is on."""
        for line in lines:
            print(f"Caller: {line}", file=self.out)
        self.said.extend(lines)
        if self.speak and lines:
            self.speak(list(lines))

    def ask(self, prompt: str) -> str | None:
        """One line without its newline, or None at end of input."""
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            self.out.write("\n")
            return None
        return line.strip()


def run_spoken(
    args: argparse.Namespace,
    play: Callable[[argparse.Namespace, TextIO, TextIO, Speak | None], list[str]],
    inp: TextIO,
    out: TextIO,
) -> list[str]:
    """Run ``play(args, inp, out, speak)`` honouring ``args.say`` and ``args.voice_out``; returns what was said."""
    speak = None
    if args.say:

        def speak(lines: list[str]) -> None:
            from voice import say

            say(lines, voice_out=None, speaker=True)

    said = play(args, inp, out, speak)
    if args.voice_out and said:
        from voice import say

        say(said, voice_out=args.voice_out, speaker=False)
    return said
