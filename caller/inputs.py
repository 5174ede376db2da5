"""Checks on what a user types or pipes in, shared by every command and text referee.

* ``Parser``: an ``argparse`` parser whose usage errors are one ``caller: error:`` line
  (exit status 2) instead of a usage block and ``caller SUB: error:``;
* argparse types that refuse what would only fail later: ``seed`` (0 to 2**32 - 1, what
  the random generators accept), ``positive_float`` and ``finite_float`` (NaN, infinities
  and negative rates are refused), ``int_range(lo, hi)``;
* ``read_line``: one line of a text stream, at most ``MAX_LINE`` characters, so that a
  stream with no newline (``< /dev/zero``) cannot grow memory without bound, and a closed
  stdin (``<&-``, ``sys.stdin is None``) reads as the end of input;
* ``clip``: a piece of user input short enough to quote in an error line.
"""

from __future__ import annotations

import argparse
import math
from typing import Callable, NoReturn, TextIO

from caller.errors import CallerError

#: the longest line a referee or a prompt reads; longer input is refused, not buffered
MAX_LINE = 4096
#: seeds go to numpy's and Python's generators; numpy takes 0 to 2**32 - 1
MAX_SEED = 2**32 - 1
#: the most characters of user input an error line quotes
CLIP = 80


class UsageError(CallerError):
    """A command line argparse refused: a missing or unknown argument, a value of the wrong type."""


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors raise UsageError (one line, exit 2) rather than printing usage.

    Sub-parsers made with ``add_subparsers`` are of the same class, so every level behaves alike.
    """

    def error(self, message: str) -> NoReturn:
        where = f"{self.prog}: " if " " in self.prog else ""  # `caller` itself goes without saying
        raise UsageError(f"{where}{message} ('{self.prog} --help' explains the arguments)")


def clip(text: object, limit: int = CLIP) -> str:
    """``repr(text)`` cut to about ``limit`` characters, saying how long the whole was."""
    s = text if isinstance(text, str) else str(text)
    if len(s) <= limit:
        return repr(s)
    return repr(s[:limit]) + f"... ({len(s)} characters)"


def one_line(message: str, limit: int = 400) -> str:
    """An error message as one line of at most about ``limit`` characters (newlines become ' / ')."""
    text = " / ".join(part for part in str(message).splitlines() if part.strip()) or str(message).strip()
    if len(text) > limit:
        text = text[: limit - 40] + f"... ({len(text)} characters in all)"
    return text


def read_line(stream: TextIO | None, limit: int = MAX_LINE) -> str:
    """The next line of ``stream`` with its newline, '' at end of input or when there is no stream.

    A line longer than ``limit`` raises CallerError; a closed or missing stdin counts as the
    end of input.
    """
    if stream is None:
        return ""
    try:
        line = stream.readline(limit + 1)
    except (ValueError, OSError):  # closed, or not readable at all
        return ""
    except UnicodeDecodeError as exc:
        raise CallerError(f"the input is not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    if len(line) > limit and not line.endswith("\n"):
        raise CallerError(f"an input line is longer than {limit} characters")
    return line


def int_range(lo: int | None = None, hi: int | None = None, what: str = "an integer") -> Callable[[str], int]:
    """An argparse type: an integer from ``lo`` to ``hi`` (either end open when None)."""

    def parse(text: str) -> int:
        try:
            value = int(text) if len(text) <= 30 else None
        except ValueError:
            value = None
        if value is None:
            raise argparse.ArgumentTypeError(f"{clip(text)}: expected {what}")
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            span = (f"from {lo} to {hi}" if hi is not None else f"of {lo} or more") if lo is not None else f"up to {hi}"
            raise argparse.ArgumentTypeError(f"{value}: expected {what} {span}")
        return value

    parse.__name__ = what  # argparse names the type in its messages
    return parse


seed = int_range(0, MAX_SEED, "a seed")


def finite_float(lo: float = 0.0, *, zero_ok: bool = False) -> Callable[[str], float]:
    """An argparse type: a finite number above ``lo`` (or equal to it with ``zero_ok``);
    NaN and infinities are refused, they would only fail, or never end, later."""
    bound = f"{lo:g} or more" if zero_ok else f"above {lo:g}"

    def parse(text: str) -> float:
        try:
            value = float(text) if len(text) <= 30 else math.nan
        except ValueError:
            value = math.nan
        if not (math.isfinite(value) and (value >= lo if zero_ok else value > lo)):
            raise argparse.ArgumentTypeError(f"{clip(text)}: expected a number {bound}")
        return value

    parse.__name__ = "a number"
    return parse


#: frames per second, a rate: a finite number above 0
positive_float = finite_float(0.0)
