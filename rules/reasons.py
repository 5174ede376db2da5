"""Verdicts as data: what the rules found wrong with a change or a position, as a value.

A ``Reason`` names its case with a ``code`` (each game lists its codes and what the other
fields hold for each in its ``reasons`` module), the squares concerned and the pieces on
them. The game's ``reasons.text`` writes a reason as the command line and the JSON print it;
where the Caller speaks a verdict, ``voice.phrasebook`` says it from the same fields. Nothing
parses either text back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.grid import Cell


@dataclass(frozen=True)
class Reason:
    """One verdict: ``code`` (the case, e.g. "swapped"), ``cells`` (0-based ``(row, col)`` in the
    order the code gives), ``pieces`` (the pieces concerned, one per cell where the code says
    so), ``was`` (what those pieces were before, for a change of pieces) and ``number`` (a
    count or a limit the case names)."""

    code: str
    cells: tuple[Cell, ...] = ()
    pieces: tuple[Any, ...] = ()
    was: tuple[Any, ...] = ()
    number: int | None = None
