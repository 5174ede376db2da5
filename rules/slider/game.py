"""Slider for the registry (``rules.get("slider")``)."""

from __future__ import annotations

from typing import Any, Sequence

from rules.slider import codec
from rules.slider.state import Move, Pass, SliderState, perft, setup


class SliderGame:
    """The registry's face of Slider (``rules.get("slider")``)."""

    name = "slider"
    title = "Slider"

    def setup(self, seed: int | None = None, **options: Any) -> SliderState:
        """The start position (n, blocked, blocks, first: see ``rules.slider.state.setup``)."""
        return setup(seed, **options)

    def legal_moves(self, state: SliderState) -> Sequence[Move | Pass]:
        return state.legal_moves()

    def apply(self, state: SliderState, move: Any) -> SliderState:
        return state.apply(move)

    def is_over(self, state: SliderState) -> bool:
        return state.is_over

    def to_json(self, state: SliderState) -> dict:
        return codec.to_json(state)

    def from_json(self, obj: Any) -> SliderState:
        return codec.from_json(obj)

    def perft(self, state: SliderState, depth: int) -> int:
        return perft(state, depth)


GAME = SliderGame()
