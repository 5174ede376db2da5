"""Builders for Steppin' Stones test positions, written the way the rules text talks (squares like c2).

Every position goes through ``GAME.from_json``, so each one is also checked as a legal position.
"""

from __future__ import annotations

from rules.pieces import SUITS, DieFace
from rules.steppin_stones.game import GAME
from rules.steppin_stones.state import cell_name, face_steps, start_cell, start_coins
from rules.steppin_stones.notation import parse_cell


def start_pieces(size: int = 8) -> dict[str, str]:
    """The start layout as {square: code}."""
    return {cell_name(cell): coin.code for s in SUITS for cell, coin in start_coins(s, size)}


def die(suit: str, face: str, phase: int, left: int | None = None) -> dict:
    """One die of a roll; ``left`` defaults to the die's full worth."""
    full = 1 if phase == 1 else face_steps(DieFace(face))
    return {"suit": suit, "face": face, "phase": phase, "left": full if left is None else left}


def position(
    pieces: dict[str, str | None] | None = None,
    pawns: dict[str, str] | None = None,
    roll: list[dict] | None = None,
    *,
    start: bool = True,
    options: dict | None = None,
    turn: int = 1,
    seed: int = 0,
):
    """A position: the start layout (unless ``start=False``) changed by ``pieces`` ({"c2": "S4",
    "c3": None, "d4": "S"}), pawns at their start squares unless named ({"M": "f4"}), and ``roll``."""
    opts = options or {}
    size = 10 if opts.get("large") else 8
    layout: dict[str, str | None] = dict(start_pieces(size)) if start else {}
    layout.update(pieces or {})
    board: list[list[str | None]] = [[None] * size for _ in range(size)]
    for name, code in layout.items():
        if code is not None:
            r, c = parse_cell(name, size)
            board[r][c] = code
    where = {s.code: list(start_cell(s, size)) for s in SUITS}
    for suit, name in (pawns or {}).items():
        where[suit] = list(parse_cell(name, size))
    obj = {
        "options": opts,
        "board": board,
        "pawns": where,
        "roll": roll if roll is not None else [],
        "turn": turn,
        "seed": seed,
    }
    return GAME.from_json(obj)


def sq(name: str, size: int = 8) -> tuple[int, int]:
    return parse_cell(name, size)


# Moons, Crowns and Arms home (their pawns on a home square each), every coin a stepping stone.
_MOONS_DONE = {"f1": "M", "f2": "M", "f3": "M", "g3": "M", "h3": "M"}
_CROWNS_ARMS_DONE = {
    "f6": "C", "g6": "C", "h6": "C", "f7": "C", "f8": "C",
    "a6": "A", "b6": "A", "c6": "A", "c7": "A", "c8": "A",
}  # fmt: skip
_OTHERS_HOME = {"M": "g1", "C": "h8", "A": "a8"}


def endgame(red_face: str | None, red_pawn: str, extra: dict[str, str | None] | None = None):
    """Only the Red pawn is out, Red stones on c1 d1 c2 a5 b5; the Red die (phase 2) shows ``red_face``."""
    pieces = {"c1": "S", "d1": "S", "c2": "S", "a5": "S", "b5": "S", **_MOONS_DONE, **_CROWNS_ARMS_DONE, **(extra or {})}
    roll = [] if red_face is None else [die("S", red_face, 2)]
    return position(pieces, start=False, pawns={"S": red_pawn, **_OTHERS_HOME}, roll=roll)


def walled_in(extra: dict[str, str | None] | None = None):
    """A lost game: Red stones packed on and beside the Red home tile behind Black stones, the Red pawn on d4."""
    pieces = {
        "a1": "S", "b1": "S", "c1": "S", "a2": "S", "b2": "S",
        "d1": "M", "c2": "M", "b3": "M", "a3": "M", "e1": "M",
        **_CROWNS_ARMS_DONE,
    }  # fmt: skip
    pieces.update(extra or {})
    return position(pieces, start=False, pawns={"S": "d4", **_OTHERS_HOME}, roll=[die("S", "s", 2)])


def across_home(ace_stones: bool = False) -> dict:
    """Red has a 2 in phase 2 and its pawn on b3, beside its home tile (a1 b1 a2 b2), with Red
    stones on a3, a2, b2, c2 and c1: a walk of two squares over b2 would reach b1 or c2. With
    ``ace_stones`` a Black ace lies on b2 instead of the stone (that stone is on h5) and a Green
    ace on g7. The position JSON."""
    board = [[None, None, "S", None, None, "M5", None, None], [None, "S", "S", None, None, "M4", None, None],
             ["S", "S", None, None, None, "Mn", "M2", "M3"], [None] * 8, [None] * 8,
             ["A3", "A2", "An", None, None, "Cn", "C2", "C3"], [None, None, "A4", None, None, "C4", None, None],
             [None, None, "A5", None, None, "C5", None, None]]
    if ace_stones:
        board[1][1], board[4][7], board[6][6] = "Ma", "S", "Ca"
    return {
        "game": "steppin-stones",
        "options": {"highest_first": False, "aces": 2 if ace_stones else 0, "ace_stones": ace_stones, "large": False},
        "board": board,
        "pawns": {"S": [2, 1], "M": [3, 4], "C": [4, 4], "A": [4, 3]},
        "roll": [die("S", "2", 2), die("M", "n", 1), die("C", "n", 1), die("A", "n", 1)],
        "turn": 1, "seed": 0}
