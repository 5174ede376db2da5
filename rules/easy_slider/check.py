"""The ``caller check`` report: is an observed Easy Slider layout legal, and is it done?"""

from __future__ import annotations

from typing import Any

from rules.easy_slider.codec import parse_observation
from rules.easy_slider.reasons import cell_text
from rules.easy_slider.state import TILES, EasySliderState, goal_problems
from rules.errors import MalformedPosition


def check_layout(obj: Any, what: str = "layout") -> dict:
    """The ``caller check`` report of a layout JSON object.

    ``{"legal": bool, "done": bool, "problems": [{"cells": [[r, c], ...], "message": str,
    ...}]}``. Not legal: tiles are missing (a lifted tile shows as a second hole); the one
    problem lists the holes and ``"missing"`` tile codes. Legal but not done: one problem
    per wrong cell, with ``"has"`` (tile code or null for the hole) and ``"wants"`` (tile
    code, or "null" in the sponge row, where any null or the hole will do). Raises
    MalformedPosition as ``parse_observation``, and when pawns or coins are absent
    (they define the goal).
    """
    board, pawns, coins = parse_observation(obj, what)
    absent = [k for k, v in (("'pawns'", pawns), ("'coins'", coins)) if v is None]
    if absent:
        raise MalformedPosition(f"{what} lacks " + " and ".join(absent))
    holes = board.find(None)
    if len(holes) > 1:
        present = set(board.values())
        missing = sorted((t for t in TILES if t not in present), key=lambda t: t.code)
        names = ", ".join(f"{t.spoken} ({t.code})" for t in missing)
        return {
            "legal": False,
            "done": False,
            "problems": [
                {
                    "cells": [list(h) for h in holes],
                    "missing": [t.code for t in missing],
                    "message": f"{names} missing from the board: {len(holes)} holes, expected one",
                }
            ],
        }
    state = EasySliderState(board, pawns, coins)
    problems = []
    for cell in goal_problems(state):
        has = state.board[cell]
        wants = state.goal_tile(cell)
        has_text = f"{has.spoken} ({has.code})" if has is not None else "the hole"
        want_text = f"{wants.spoken} ({wants.code})" if wants is not None else "a null or the hole"
        problems.append(
            {
                "cells": [list(cell)],
                "has": has.code if has is not None else None,
                "wants": wants.code if wants is not None else "null",
                "message": f"{cell_text(cell)} has {has_text}, wants {want_text}",
            }
        )
    return {"legal": True, "done": not problems, "problems": problems}
