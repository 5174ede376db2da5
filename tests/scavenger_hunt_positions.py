"""Hand-built Scavenger Hunt positions shared by the tests (not a test module itself)."""

from __future__ import annotations

from rules.pieces import RANKS
from rules.scavenger_hunt.game import GAME
from rules.scavenger_hunt.state import State


def position(
    coins: dict,
    pawns: list,
    players: str = "SM",
    mode: str = "referee",
    collected: list | None = None,
    last_shifts: list | None = None,
    to_move: int = 0,
    turn: int = 7,
    must_move: bool = True,
) -> State:
    """A position through ``GAME.from_json``. ``coins`` maps (row, col) to a coin such as "Sn";
    every coin of the suits in play that is not on the board counts as collected by its owner,
    unless ``collected`` says otherwise. Public mode writes the coins by value."""
    grid = [[None] * 12 for _ in range(8)]
    for (r, c), code in coins.items():
        grid[r][c] = code if mode == "referee" else code[1]
    if collected is None:
        on_board = set(coins.values())
        collected = [[r.code for r in RANKS if s + r.code not in on_board] for s in players]
    obj = {
        "game": "scavenger-hunt",
        "mode": mode,
        "players": list(players),
        "to_move": to_move,
        "turn": turn,
        "must_move": must_move,
        "pawns": [list(p) for p in pawns],
        "coins": grid,
        "collected": collected,
        "last_shifts": last_shifts or [None] * len(players),
    }
    return GAME.from_json(obj)


def lone_coins(**kw) -> State:
    """Red (Suns) at the bottom-left corner, Black (Moons) at the top-right; only the Red Null
    on (7,4) and the Black Null on (2,9) are left on the board, the rest collected.

    Counted by hand: 255 legal Red turns (14 shifts that leave row 7 and column 0 alone give
    up 7 + right 4 up to the coin; C1^, C1v, C3^, C3v give 18 each on open lines; R4< puts the
    pawn on (7,10) and the coin on (7,2): 7 + 8 + 1 = 16; R4> puts them on (7,2) and (7,6):
    7 + 2 + 4 = 13)."""
    return position({(7, 4): "Sn", (2, 9): "Mn"}, [(7, 0), (0, 11)], **kw)
