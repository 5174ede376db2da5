"""One record per game: what the rules side offers for it, in one place.

Each game package registers its record as ``RECORD`` in ``rules/<game>/record.py``;
``rules.registry.record(name)`` finds it. A part is named by its module (``"pkg.mod"``) or
by a name in a module (``"pkg.mod:NAME"``) and imported on first use, so that listing the
games costs nothing and an expensive part (a solver's tables) loads only when asked for.
``None`` means the game has no such part yet.

The outer packages add what they own (phrasebook, text referee, simulator scene, live
referee) in their own lists keyed by the same names (``caller.games``); nothing here
imports them.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Callable

from rules.table import TableDescription

#: the parts a record may name, in the order they are listed
PARTS = ("game", "codec", "notation", "explain", "reasons", "observed")


def load(ref: str) -> Any:
    """The module ``"pkg.mod"`` or the object ``"pkg.mod:NAME"``."""
    module_name, _, attr = ref.partition(":")
    module = importlib.import_module(module_name)
    return getattr(module, attr) if attr else module


@dataclass(frozen=True)
class GameRecord:
    """What the rules offer for one game.

    ``game`` is the registry's game object (``rules.registry.Game``); ``codec`` the JSON
    module (``to_json``/``from_json``); ``notation`` the module that parses what people type;
    ``explain`` the module that names the moves between two observed positions; ``reasons``
    the codes of its verdicts; ``observed`` the module that turns a camera read of the
    game's squares into its position where the read's squares are not the position's words
    (``read_table(n, h_suit, v_suit)`` and ``position_from_read(squares, n, h_suit, v_suit)``,
    behind ``caller read --n --h-suit --v-suit``; None: the read is written as it is).
    ``table`` describes the usual setup on the table and ``table_for``
    (``"pkg.mod:function"``) the table of a given position.
    """

    name: str
    title: str
    game_ref: str
    table: TableDescription
    table_for_ref: str
    codec: str | None = None
    notation: str | None = None
    explain: str | None = None
    reasons: str | None = None
    observed: str | None = None
    max_perft_depth: int = 6  # the deepest ``caller perft`` counts in reasonable time

    @property
    def game(self) -> Any:
        """The game object (``rules.registry.Game``)."""
        return load(self.game_ref)

    def part(self, name: str) -> Any:
        """The module of part ``name`` (one of PARTS), or None when the game has none."""
        if name not in PARTS:
            raise KeyError(f"unknown part {name!r}: expected one of {', '.join(PARTS)}")
        if name == "game":
            return self.game
        ref = getattr(self, name)
        return None if ref is None else load(ref)

    def parts(self) -> dict[str, str | None]:
        """Every part's reference (None where the game has none), in PARTS order."""
        return {name: (self.game_ref if name == "game" else getattr(self, name)) for name in PARTS}

    def table_of(self, state: Any) -> TableDescription:
        """The table description of ``state`` (its size may depend on the game's options)."""
        table_for: Callable[[Any], TableDescription] = load(self.table_for_ref)
        return table_for(state)
