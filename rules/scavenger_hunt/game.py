"""Scavenger Hunt for the registry (``rules.get("scavenger-hunt")``)."""

from __future__ import annotations

from typing import Any

from rules.scavenger_hunt import codec, state as rules_state
from rules.scavenger_hunt.state import NAME, Shift, State, Turn


class ScavengerHunt:
    """The Scavenger Hunt rules; module-level ``GAME`` follows ``rules.registry.Game``."""

    name = NAME
    title = "Scavenger Hunt"

    def setup(self, seed: int | None = None, **options: Any) -> State:
        """A start position (players, mode, must_move, coins: see ``rules.scavenger_hunt.state.setup``)."""
        return rules_state.setup(seed, **options)

    def legal_moves(self, state: State) -> list[Turn]:
        return rules_state.legal_moves(state)

    def legal_shifts(self, state: State) -> list[Shift]:
        return rules_state.legal_shifts(state)

    def apply(self, state: State, move: Any) -> State:
        """The position after the turn ``move``; raises IllegalMove saying what is wrong."""
        return rules_state.apply(state, move)

    def is_over(self, state: State) -> bool:
        return state.winner is not None

    def perft(self, state: State, depth: int) -> int:
        return rules_state.perft(state, depth)

    def to_json(self, state: State) -> dict:
        return codec.to_json(state)

    def from_json(self, obj: Any) -> State:
        """Parse and validate a position (schema in the README)."""
        return codec.from_json(obj)


GAME = ScavengerHunt()
