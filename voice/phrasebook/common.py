"""Sentences and pieces of sentences every game's phrasebook shares.

Cells are 0-based ``(row, col)`` tuples in, and are spoken 1-based the way players count
("row 2, column 3"); numbers the rules texts spell out in announcements ("Row one") come
from ``number_word``. Durations are spoken in whole seconds.
"""

from __future__ import annotations

from typing import Iterable, Mapping, Sequence

_WORDS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen twenty"
).split()


def number_word(n: int) -> str:
    """0-20 as words ("one"), larger numbers as digits (the engine reads digits aloud anyway)."""
    return _WORDS[n] if 0 <= n < len(_WORDS) else str(n)


def join_and(items: Iterable[str]) -> str:
    """``["a"]`` -> "a"; ``["a", "b", "c"]`` -> "a, b and c"."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def plural(n: int, word: str, many: str | None = None) -> str:
    """``plural(1, "point")`` -> "1 point"; ``plural(3, "point")`` -> "3 points"."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def cell(c: Sequence[int]) -> str:
    """``(1, 2)`` -> "row 2, column 3" (players count from 1)."""
    return f"row {c[0] + 1}, column {c[1] + 1}"


def cells(cs: Iterable[Sequence[int]]) -> str:
    """Several cells: "row 1, column 1 and row 3, column 2"."""
    return join_and(cell(c) for c in cs)


def capital(text: str) -> str:
    """The sentence with its first letter upper-cased (the rest unchanged)."""
    return text[:1].upper() + text[1:]


def duration(seconds: float) -> str:
    """87.4 -> "1 minute 27 seconds"; 45 -> "45 seconds"; 120 -> "2 minutes"; 3725 -> "1 hour 2 minutes 5 seconds".

    Rounded to the nearest whole second; under half a second is "0 seconds".
    """
    total = int(round(max(0.0, float(seconds))))
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    parts = []
    if hours:
        parts.append(plural(hours, "hour"))
    if minutes:
        parts.append(plural(minutes, "minute"))
    if secs or not parts:
        parts.append(plural(secs, "second"))
    return " ".join(parts)


def go() -> str:
    """The Caller's signal to start ("At the Caller's signal, all players ... slide")."""
    return "Go!"


def scores_line(title: str, points: Mapping[str, int], notes: Mapping[str, str] | None = None) -> str:
    """``"Round 1", {"Ann": 2, "Bob": 0}, {"Bob": "fumble"}`` -> "Round 1: Ann 2 points, Bob 0 points (fumble)."

    Players are said in the order of ``points``.
    """
    notes = notes or {}
    items = []
    for name, n in points.items():
        note = f" ({notes[name]})" if name in notes else ""
        items.append(f"{name} {plural(n, 'point')}{note}")
    return f"{title}: {', '.join(items)}."


def standings_line(totals: Mapping[str, int]) -> str:
    """Running totals, most points first (ties keep the given order): "Totals: Ann 7 points, Bob 4 points."."""
    order = sorted(totals.items(), key=lambda kv: -kv[1])
    return scores_line("Totals", dict(order))


def winner_line(totals: Mapping[str, int]) -> str:
    """The end of the game: "Ann wins with 7 points." or, on a tie, the playoff the rules call for."""
    if not totals:
        return "No scores yet."
    best = max(totals.values())
    top = [name for name, n in totals.items() if n == best]
    if len(top) == 1:
        return f"{top[0]} wins with {plural(best, 'point')}."
    return f"{join_and(top)} are tied on {plural(best, 'point')}: a playoff round decides."


def engine_notice(reason: str) -> str:
    """Said (printed) once when no speech engine can start."""
    return f"no speech engine ({reason}): speaking in text only"


def device_notice(reason: str) -> str:
    """Said (printed) once when speech cannot be played."""
    return f"no audio device ({reason}): speaking in text only"


def camera_lost() -> str:
    """Said when the camera or stream stops sending pictures mid-game (the game is kept)."""
    return "The camera stopped sending pictures."


def camera_back() -> str:
    """Said when a lost camera or stream sends pictures again and the game goes on."""
    return "The camera is back."
