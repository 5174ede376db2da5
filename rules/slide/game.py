"""Slide for the registry (``rules.get("slide")``)."""

from __future__ import annotations

from typing import Any

from rules.errors import MalformedPosition
from rules.slide.codec import from_json, to_json
from rules.slide.state import Move, SlideState, deal


class SlideGame:
    """The registry's ``Game`` for Slide; every method delegates to the frozen ``SlideState``."""

    name = "slide"
    title = "Slide"

    def setup(self, seed: int | None = None, players: int = 2, first: int | None = None, **options: Any) -> SlideState:
        if options:
            raise MalformedPosition(f"unknown Slide setup options {sorted(options)}: expected players, first")
        return deal(seed, players, first)

    def legal_moves(self, state: SlideState) -> list[Move]:
        return state.legal_moves()

    def apply(self, state: SlideState, move: Any) -> SlideState:
        return state.apply(move)

    def is_over(self, state: SlideState) -> bool:
        return state.is_over

    def to_json(self, state: SlideState) -> dict:
        return to_json(state)

    def from_json(self, obj: Any) -> SlideState:
        return from_json(obj)


GAME = SlideGame()
