"""Slider positions as JSON::

    {"game": "slider", "n": N, "board": [[...] x N] (rows from the top; "H"/"V"/"B"/null),
     "to_move": "H"|"V", "passes": 0|1|2}
"""

from __future__ import annotations

from typing import Any

from rules.errors import MalformedPosition, NotationError
from rules.grid import Grid
from rules.slider.state import Side, SliderState, board_from_grid, check_n


def to_json(state: SliderState) -> dict:
    """``{"game": "slider", "n": N, "board": [[...] x N] (rows from the top; "H"/"V"/"B"/null), "to_move": "H"|"V", "passes": 0|1|2}``."""
    return {
        "game": "slider",
        "n": state.n,
        "board": state.grid().to_lists(),
        "to_move": state.to_move.value,
        "passes": state.passes,
    }


def from_json(obj: Any) -> SliderState:
    if not isinstance(obj, dict):
        raise MalformedPosition(f"a Slider position must be a JSON object, got {obj!r:.80}")
    missing = [k for k in ("n", "board", "to_move") if k not in obj]
    if missing:
        raise MalformedPosition(f"Slider position lacks {', '.join(repr(k) for k in missing)}: expected n, board, to_move")
    if obj.get("game", "slider") != "slider":
        raise MalformedPosition(f"position is for game {obj['game']!r}, expected 'slider'")
    n = check_n(obj["n"])

    def cell(value: Any) -> str:
        if value not in ("H", "V", "B"):
            raise MalformedPosition(f"unknown board value {value!r}: expected 'H', 'V', 'B' or null")
        return value

    grid = Grid.parse(obj["board"], cell, shape=(n, n))
    try:
        side = Side.parse(obj["to_move"])
    except NotationError as exc:
        raise MalformedPosition(f"to_move: {exc}") from None
    passes = obj.get("passes", 0)
    if isinstance(passes, bool) or passes not in (0, 1, 2):
        raise MalformedPosition(f"passes must be 0, 1 or 2, got {passes!r}")
    return board_from_grid(grid, side, passes)
