"""Layouts (what lies on the table, as JSON-ready dicts) for the five games.

Easy Slider layouts use the ``caller read`` schema (docs/architecture.md)::

    {"game": "easy-slider", "board": 5 rows of 5 tile codes or null (the hole),
     "pawns": [4 suit letters, rows 1-4 top to bottom], "coins": [5 coin values, columns 1-5]}

They come from ``rules.get("easy-slider")`` when that module exists, so the simulator deals
exactly what the Caller deals; otherwise from an equivalent local deal (same rules text).
The other games' schemas are documented on their functions (and in the README).
"""

from __future__ import annotations

import random
from typing import Any

from rules.pieces import RANKS, SUITS
from simulator.errors import SimulatorError

GAMES = ("easy-slider", "scavenger-hunt", "steppin-stones", "slider", "slide")
_SUIT_CODES = [s.value for s in SUITS]
_RANK_CODES = [r.value for r in RANKS]
_COIN_VALUES = ["a", "2", "3", "4", "5"]


def _rules_game():
    try:
        import rules

        return rules.get("easy-slider")
    except Exception:  # noqa: BLE001 - a missing or half-written rules module falls back to the local deal
        return None


def _from_rules(obj: Any) -> dict | None:
    """The rules module's JSON turned into the caller-read schema, or None if it does not fit."""
    if not isinstance(obj, dict):
        return None
    board, pawns, coins = obj.get("board"), obj.get("pawns"), obj.get("coins")
    if not (isinstance(board, list) and len(board) == 5 and isinstance(pawns, list) and isinstance(coins, list)):
        return None
    return {"game": "easy-slider", "board": [list(row) for row in board], "pawns": list(pawns), "coins": list(coins)}


def easy_slider_goal(pawns: list[str], coins: list[str], hole_col: int = 4) -> list[list[str | None]]:
    """The solved board: row r (0-3) holds pawn r's suit with coin c's value; row 5 the nulls and the hole."""
    board = [[pawns[r] + coins[c] for c in range(5)] for r in range(4)]
    nulls = [s + "n" for s in _SUIT_CODES]
    last: list[str | None] = []
    for c in range(5):
        last.append(None if c == hole_col else nulls.pop(0))
    board.append(last)
    return board


def _local_setup(seed: int) -> dict:
    rng = random.Random(seed)
    tiles = [s + r for s in _SUIT_CODES for r in _RANK_CODES]
    rng.shuffle(tiles)
    pawns = list(_SUIT_CODES)
    rng.shuffle(pawns)
    coins = list(_COIN_VALUES)
    rng.shuffle(coins)
    board = [tiles[r * 5 : r * 5 + 5] for r in range(4)] + [tiles[20:24] + [None]]
    return {"game": "easy-slider", "board": board, "pawns": pawns, "coins": coins}


def hole_of(board: list[list[str | None]]) -> tuple[int, int]:
    holes = [(r, c) for r in range(len(board)) for c in range(len(board[r])) if board[r][c] is None]
    if len(holes) != 1:
        raise SimulatorError(f"an Easy Slider board has exactly one hole, found {len(holes)}")
    return holes[0]


def random_slides(layout: dict, n: int, rng: random.Random) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """``n`` legal single-tile slides (from, to) from ``layout``, never undoing the previous one."""
    board = [list(row) for row in layout["board"]]
    hole = hole_of(board)
    moves = []
    prev = None
    for _ in range(n):
        options = [(hole[0] + dr, hole[1] + dc) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))]
        options = [p for p in options if 0 <= p[0] < 5 and 0 <= p[1] < 5 and p != prev]
        src = rng.choice(options)
        moves.append((src, hole))
        board[hole[0]][hole[1]], board[src[0]][src[1]] = board[src[0]][src[1]], None
        prev, hole = hole, src
    return moves


def apply_slide(layout: dict, src: tuple[int, int], dst: tuple[int, int]) -> dict:
    board = [list(row) for row in layout["board"]]
    if board[dst[0]][dst[1]] is not None or board[src[0]][src[1]] is None:
        raise SimulatorError(f"cannot slide {list(src)} -> {list(dst)}: the destination must be the hole")
    board[dst[0]][dst[1]], board[src[0]][src[1]] = board[src[0]][src[1]], None
    return {**layout, "board": board}


def easy_slider_layout(seed: int, kind: str = "setup") -> dict:
    """An Easy Slider layout in the caller-read schema.

    kind: "setup" (a Caller's deal: shuffled tiles, hole bottom right), "midgame" (the solved
    board scrambled by 6-20 slides from the hole, so it is on the way to the goal), "solved"
    (the goal for the dealt pawns and coins, nulls in the bottom row, hole anywhere in it).
    """
    if kind not in ("setup", "midgame", "solved"):
        raise SimulatorError(f"unknown layout kind {kind!r}: expected setup, midgame or solved")
    game = _rules_game()
    layout = None
    if game is not None:
        try:
            layout = _from_rules(game.to_json(game.setup(seed=seed)))
        except Exception:  # noqa: BLE001 - a half-written rules module must not break rendering
            layout = None
    if layout is None:
        layout = _local_setup(seed)
    if kind == "setup":
        return layout
    rng = random.Random(seed * 7919 + 17)
    nulls_order = rng.sample(_SUIT_CODES, 4)
    solved = easy_slider_goal(layout["pawns"], layout["coins"], hole_col=rng.randrange(5))
    bottom = iter(nulls_order)
    solved[4] = [None if t is None else next(bottom) + "n" for t in solved[4]]
    solved_layout = {"game": "easy-slider", "board": solved, "pawns": layout["pawns"], "coins": layout["coins"]}
    if kind == "solved":
        return solved_layout
    out = solved_layout
    for src, dst in random_slides(solved_layout, rng.randint(6, 20), rng):
        out = apply_slide(out, src, dst)
    return out


def validate_easy_slider(layout: Any) -> dict:
    """Check a caller-read layout; raises SimulatorError quoting the first thing wrong."""
    if not isinstance(layout, dict):
        raise SimulatorError(f"layout must be a JSON object, got {type(layout).__name__}")
    board = layout.get("board")
    if not (isinstance(board, list) and len(board) == 5 and all(isinstance(r, list) and len(r) == 5 for r in board)):
        raise SimulatorError(f"layout 'board' must be 5 rows of 5 tile codes or null, got {board!r:.80}")
    valid = {s + r for s in _SUIT_CODES for r in _RANK_CODES}
    for r, row in enumerate(board):
        for c, code in enumerate(row):
            if code is not None and code not in valid:
                raise SimulatorError(f"layout board[{r}][{c}] is {code!r}: expected a tile code such as 'S5' or null")
    pawns = layout.get("pawns", [])
    if not (isinstance(pawns, list) and len(pawns) <= 4 and all(p in _SUIT_CODES for p in pawns)):
        raise SimulatorError(f"layout 'pawns' is {pawns!r}: expected up to 4 suit letters S, M, C, A")
    coins = layout.get("coins", [])
    if not (isinstance(coins, list) and len(coins) <= 5 and all(c in _RANK_CODES for c in coins)):
        raise SimulatorError(f"layout 'coins' is {coins!r}: expected up to 5 coin values n, a, 2-5")
    return {"game": "easy-slider", "board": [list(r) for r in board], "pawns": list(pawns), "coins": list(coins)}
