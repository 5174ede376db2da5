"""The games' shared interface and the registry (``rules.get("easy-slider")``).

Every game package in ``rules/`` registers its record (``rules.record.GameRecord``) as
``RECORD`` in its ``record`` module: the game object (a ``game`` module's ``GAME``, which
follows ``Game``), its codec, notation, explain and reasons modules, and its table
description. The registry imports a record on first use, so a game costs nothing until it is
asked for, and adding a game is one line in ``_PACKAGES``.

Chance (dice, shuffles) lives in the state as a seed or a pre-drawn sequence, so that
``apply`` is a pure function and a seeded game replays exactly.
"""

from __future__ import annotations

import importlib
from typing import Any, Hashable, Protocol, Sequence, runtime_checkable

from rules.errors import UnknownGame
from rules.record import GameRecord

#: registry name -> the game's package (its record is ``<package>.record.RECORD``)
_PACKAGES: dict[str, str] = {
    "easy-slider": "rules.easy_slider",
    "scavenger-hunt": "rules.scavenger_hunt",
    "steppin-stones": "rules.steppin_stones",
    "slider": "rules.slider",
    "slide": "rules.slide",
}


@runtime_checkable
class Game(Protocol):
    """What every game offers. States and moves are frozen values; nothing here does I/O."""

    name: str  # registry key, e.g. "easy-slider"
    title: str  # "Easy Slider"

    def setup(self, seed: int | None = None, **options: Any) -> Any:
        """A start position; the same seed and options give the same position."""

    def legal_moves(self, state: Any) -> Sequence[Hashable]:
        """Every move the player to act may make, in a stable order (empty when the game is over)."""

    def apply(self, state: Any, move: Any) -> Any:
        """The position after ``move``; raises ``IllegalMove`` saying why the move is not allowed."""

    def is_over(self, state: Any) -> bool:
        """True when the game has ended (won, lost, tied or solved)."""

    def to_json(self, state: Any) -> dict:
        """The position as a JSON-ready dict (the game's documented schema)."""

    def from_json(self, obj: Any) -> Any:
        """Parse and validate a position; raises ``MalformedPosition`` quoting what is wrong."""


def names() -> list[str]:
    """Every game name the registry knows, in a stable order."""
    return list(_PACKAGES)


def record(name: str) -> GameRecord:
    """The record of the game called ``name``; raises UnknownGame listing the known names."""
    package = _PACKAGES.get(name)
    if package is None:
        raise UnknownGame(f"unknown game {name!r}: expected one of {', '.join(_PACKAGES)}")
    found = importlib.import_module(f"{package}.record").RECORD
    if found.name != name:  # a record registered under another game's name is a slip in the code
        raise RuntimeError(f"{package}.record.RECORD is named {found.name!r}, registered as {name!r}")
    return found


def get(name: str) -> Game:
    """The game called ``name``; raises UnknownGame listing the known names."""
    return record(name).game


def perft(game: Game, state: Any, depth: int) -> int:
    """The number of distinct legal move sequences of exactly ``depth`` moves from ``state``.

    A game may override this with its own ``perft`` (for a faster count, or when its
    "move" for counting differs from ``legal_moves``); sequences that end the game early
    are counted only if they reach ``depth``.
    """
    own = getattr(game, "perft", None)
    if callable(own):
        return own(state, depth)
    if depth < 0:
        raise ValueError(f"depth must be >= 0, got {depth}")
    if depth == 0:
        return 1
    total = 0
    for move in game.legal_moves(state):
        total += perft(game, game.apply(state, move), depth - 1) if depth > 1 else 1
    return total
