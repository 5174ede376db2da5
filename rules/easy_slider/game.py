"""Easy Slider for the registry (``rules.get("easy-slider")``)."""

from __future__ import annotations

import random
from typing import Any

from rules.easy_slider import codec
from rules.easy_slider.state import EasySliderState, Slide, apply, deal, is_done, legal_moves
from rules.errors import MalformedPosition


class EasySliderGame:
    """The Easy Slider rules for the registry (``rules.get("easy-slider")``)."""

    name = codec.NAME
    title = "Easy Slider"

    def setup(self, seed: int | None = None, **options: Any) -> EasySliderState:
        """The Caller's deal: same seed, same setup; ``seed=None`` uses system randomness.

        ``players`` (optional, >= 1) is accepted and changes nothing: every player sets up
        the same board. Any other option raises MalformedPosition.
        """
        players = options.pop("players", 1)
        if options:
            raise MalformedPosition(f"easy-slider setup takes no options but players, got {sorted(options)}")
        if not isinstance(players, int) or players < 1:
            raise MalformedPosition(f"players must be a whole number of at least 1, got {players!r}")
        rng: random.Random = random.Random(seed) if seed is not None else random.SystemRandom()
        return deal(rng)

    def legal_moves(self, state: EasySliderState) -> list[Slide]:
        """The slides into the hole, from above, below, left, right (empty once the board is done)."""
        return legal_moves(state)

    def apply(self, state: EasySliderState, move: Any) -> EasySliderState:
        """The position after ``move`` (a Slide); raises IllegalMove saying why it is not a legal slide."""
        return apply(state, move)

    def is_over(self, state: EasySliderState) -> bool:
        return is_done(state)

    def to_json(self, state: EasySliderState) -> dict:
        return codec.to_json(state)

    def from_json(self, obj: Any) -> EasySliderState:
        """Parse and validate a position; raises MalformedPosition quoting what is wrong."""
        return codec.from_json(obj)


GAME = EasySliderGame()
