"""What every text referee shares: prompts and lines in the terminal, and handing the Caller's lines to speech.

``RefereeIo`` prints on ``out``, reads from ``inp`` and keeps every Caller line; its
``command`` reads the next command line and answers the commands every referee shares (quit,
help, board). ``run_spoken`` runs a referee loop with ``--say`` (each batch spoken as it comes)
and ``--voice-out WAV`` (everything said, written once at the end); ``speaker`` and
``write_voice_out`` are its two halves for a referee that runs its own loop. ``voice`` is
imported only when speech is asked for, so the text referees work without the voice stack.
"""

from __future__ import annotations

import argparse
from typing import Callable, Sequence, TextIO

from caller.inputs import read_line
from rules.grid import Cell

Speak = Callable[[list[str]], None]

QUIT_WORDS = ("quit", "exit", "q")
HELP_WORDS = ("help", "?")


class RefereeIo:
    """Prompts and lines on ``out``, input from ``inp``; every Caller line is also kept for speech.

    With ``echo`` every line read is printed back after its prompt, so that a transcript of
    piped input reads like a session. ``at_eof`` turns true once the input has ended.
    """

    def __init__(self, inp: TextIO, out: TextIO, speak: Speak | None = None, echo: bool = False) -> None:
        self.inp, self.out, self.speak, self.echo = inp, out, speak, echo
        self.said: list[str] = []
        self.at_eof = False

    def print(self, text: str = "") -> None:
        # flushed so that a referee driven through a pipe shows each line as it is made
        print(text, file=self.out, flush=True)

    def caller(self, lines: Sequence[str]) -> None:
        """Print ``Caller: <line>`` for each line, keep them, and speak them when speech is on."""
        for line in lines:
            self.print(f"Caller: {line}")
        self.said.extend(lines)
        if self.speak and lines:
            self.speak(list(lines))

    def ask(self, prompt: str) -> str | None:
        """One line without its newline, or None at end of input (a closed stdin is one).

        Lines are read bounded (``caller.inputs.read_line``): an endless line is an error, not
        a growing buffer."""
        self.out.write(prompt)
        self.out.flush()
        line = read_line(self.inp)
        if not line:
            self.at_eof = True
            self.out.write("\n")
            return None
        text = line.strip()
        if self.echo:
            self.print(text)
        return text

    def command(
        self,
        prompt: str,
        help_text: str,
        on_board: Callable[[], None] | None = None,
        help_words: Sequence[str] = HELP_WORDS,
    ) -> str | None:
        """The next command line for the game to read, stripped (not lower-cased).

        None at end of input or on a quit word (``at_eof`` tells the two apart). Empty
        lines are skipped, a help word prints ``help_text`` and ``board`` calls ``on_board``
        (when given), each followed by the same prompt again.
        """
        while True:
            text = self.ask(prompt)
            if text is None:
                return None
            word = text.lower()
            if not word:
                continue
            if word in QUIT_WORDS:
                return None
            if word in help_words:
                self.print(help_text)
                continue
            if word == "board" and on_board is not None:
                on_board()
                continue
            return text


def render_tiles(
    shape: tuple[int, int],
    tile: int,
    mark: Callable[[Cell], str],
    col_label: Callable[[int], str],
    width: int,
) -> str:
    """A board of ``shape`` (rows, cols) as text, a border around every ``tile`` x ``tile`` block.

    Columns are headed by ``col_label(col)``, rows numbered from 1 on the left; each square
    shows ``mark((row, col))`` right-aligned in ``width`` characters.
    """
    rows, cols = shape
    blocks = range(0, cols, tile)
    sep = "    +" + "+".join("-" * (tile * width + tile + 1) for _ in blocks) + "+"
    header = " " * 6 + "   ".join(" ".join(col_label(c).rjust(width) for c in range(j, j + tile)) for j in blocks)
    lines = [header]
    for r in range(rows):
        if r % tile == 0:
            lines.append(sep)
        tiles = [" ".join(mark((r, c)).rjust(width) for c in range(j, j + tile)) for j in blocks]
        lines.append(f"{r + 1:>3} | " + " | ".join(tiles) + " |")
    lines.append(sep)
    return "\n".join(lines)


def voice_settings(args: argparse.Namespace):
    """The ``[voice]`` settings of ``--config`` (else ``$CALLER_CONFIG`` or the user file),
    read once a run and kept on ``args``; raises caller.config.ConfigError."""
    if getattr(args, "voice_settings", None) is None:
        from caller import config

        args.voice_settings = config.load(getattr(args, "config", None)).voice
    return args.voice_settings


def speaker(args: argparse.Namespace) -> Speak | None:
    """What speaks each batch of lines as it comes with ``--say``; None without it. With
    ``--say`` or ``--voice-out`` the settings file is read here, before the game starts."""
    if args.say or args.voice_out:
        voice_settings(args)
    if not args.say:
        return None

    def speak(lines: list[str]) -> None:
        from voice import say

        say(lines, voice_out=None, speaker=True, config=voice_settings(args))

    return speak


def write_voice_out(args: argparse.Namespace, said: list[str]) -> None:
    """With ``--voice-out WAV``, write everything said to that file (nothing when nothing was said)."""
    if args.voice_out and said:
        from voice import say

        say(said, voice_out=args.voice_out, speaker=False, config=voice_settings(args))


def run_spoken(
    args: argparse.Namespace,
    play: Callable[[argparse.Namespace, TextIO, TextIO, Speak | None], list[str]],
    inp: TextIO,
    out: TextIO,
) -> list[str]:
    """Run ``play(args, inp, out, speak)`` honouring ``args.say`` and ``args.voice_out``; returns what was said.

    The ``--voice-out`` path is checked before the game starts, and the WAV is written also
    when the game is stopped by Ctrl-C (with what was said until then).
    """
    from rules.outputs import check_outputs

    check_outputs([args.voice_out], [getattr(args, name, None) for name in ("position", "board")])
    said: list[str] = []
    speak = speaker(args)

    def keep(lines: list[str]) -> None:
        said.extend(lines)
        if speak is not None:
            speak(lines)

    try:
        play(args, inp, out, keep)
    finally:
        write_voice_out(args, said)
    return said
