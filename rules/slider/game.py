"""Slider for the registry (``rules.get("slider")``)."""

from __future__ import annotations

from typing import Any, Iterable, Sequence

from rules.grid import Cell
from rules.slider import codec
from rules.slider.state import DEFAULT_N, Move, Pass, Side, SliderState, perft, setup


class SliderGame:
    """The registry's face of Slider (``rules.get("slider")``)."""

    name = "slider"
    title = "Slider"

    def setup(
        self,
        seed: int | None = None,
        n: int = DEFAULT_N,
        blocked: Iterable[Cell] | None = None,
        blocks: int | None = None,
        first: Side | str | None = None,
        **options: Any,
    ) -> SliderState:
        """The start position on an ``n`` x ``n`` board (see ``rules.slider.state.setup``)."""
        return setup(seed, n, blocked, blocks, first, **options)

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
