"""Builders for Steppin' Stones test positions, written the way the rules text talks (squares like c2).

Every position goes through ``GAME.from_json``, so each one is also checked as a legal position.
"""

from __future__ import annotations

from rules.pieces import SUITS, DieFace
from rules.steppin_stones import GAME, cell_name, face_steps, start_cell, start_coins
from rules.steppin_stones_notation import parse_cell


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
