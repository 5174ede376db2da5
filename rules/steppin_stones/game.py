"""Steppin' Stones for the registry (``rules.get("steppin-stones")``)."""

from __future__ import annotations

from typing import Any

from rules.steppin_stones.codec import from_json, to_json
from rules.steppin_stones.state import NAME, TITLE, Action, State, apply, legal_moves, perft, setup


class SteppinStones:
    """The registry's ``Game`` for Steppin' Stones (``rules.get("steppin-stones")``)."""

    name = NAME
    title = TITLE

    def setup(self, seed: int | None = None, **options: Any) -> State:
        return setup(seed, **options)

    def legal_moves(self, state: State) -> list[Action]:
        return legal_moves(state)

    def apply(self, state: State, move: Any) -> State:
        return apply(state, move)

    def is_over(self, state: State) -> bool:
        return state.won or state.lost

    def to_json(self, state: State) -> dict:
        return to_json(state)

    def from_json(self, obj: Any) -> State:
        return from_json(obj)

    def perft(self, state: State, depth: int) -> int:
        return perft(state, depth)


GAME = SteppinStones()
