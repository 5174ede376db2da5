"""A second, independent model of one Steppin' Stones roll, written from the rules text and the
game page's choices, on the position JSON alone (no engine code): every action the dice allow,
what each does, and perft, so that the engine's counts are checked against something that is
not the engine.

It walks every simple path square by square (no breadth-first search, no shared helpers); a
phase-2 move costs the fewest squares of any path found. Actions are written as people type
them: ``"c2-a4"`` and ``"flip c4"``.

The rules it follows:

* Phase 1: a die showing a value v moves one coin of value v (any suit, the dice colour-blind)
  exactly v squares, orthogonally, turning allowed, never twice on a square; it may pass over
  coins of lower value (a stepping stone counts 1, a null 0, a fixed ace can never be passed),
  never over a pawn or a square with no tile, and ends on an empty square. A die showing the
  suit flips one coin of its suit that still shows a value (the highest with ``highest_first``).
* Phase 2: the die's squares are shared among its suit's stones and pawn. A stone (with no pawn
  on it) moves as a coin of value 1 would, to any square within the squares left. The pawn
  steps only onto its own stones (and aces with ``ace_stones``), never onto a pawn, and ends on
  one of them or on an empty square of its home tile; the moment it reaches its home tile it is
  home, its move ends there and its die leaves play.
"""

from __future__ import annotations

import copy

SUIT_ORDER = "SMCA"
PASS = {"n": 0, "2": 2, "3": 3, "4": 4, "5": 5}  # what a coin showing a value counts for being passed


def name(cell) -> str:
    return f"{chr(ord('a') + cell[1])}{cell[0] + 1}"


def home(suit: str, size: int) -> set:
    rows = (0, 1) if suit in "SM" else (size - 2, size - 1)
    cols = (0, 1) if suit in "SA" else (size - 2, size - 1)
    return {(r, c) for r in rows for c in cols}


def no_tile(pos: dict) -> set:
    if not pos["options"].get("large"):
        return set()
    return {(4, 4), (4, 5), (5, 4), (5, 5)}


def _around(cell, size: int):
    r, c = cell
    for n in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
        if 0 <= n[0] < size and 0 <= n[1] < size:
            yield n


def _pawn_squares(pos: dict) -> set:
    return {tuple(at) for at in pos["pawns"].values()}


def _passable(code, value: int) -> bool:
    """May a coin worth ``value`` pass over a square holding ``code``?"""
    if code is None:
        return True
    if len(code) == 1:
        return 1 < value
    if code[1] == "a":
        return False
    return PASS[code[1]] < value


def _coin_ends(pos: dict, frm, value: int, exact: bool) -> dict:
    """{end: fewest squares} of a coin worth ``value`` (a stone: 1) on ``frm`` moving ``value``
    squares (``exact``, phase 1) or 1..``value`` squares (phase 2)."""
    board, size = pos["board"], len(pos["board"])
    blocked = no_tile(pos) | _pawn_squares(pos)
    worth = 1 if not exact else value
    ends: dict = {}

    def walk(cell, used: int, seen: set) -> None:
        for n in _around(cell, size):
            if n in seen or n in blocked:
                continue
            code = board[n[0]][n[1]]
            if code is None and (used + 1 == value or not exact):
                ends[n] = min(ends.get(n, used + 1), used + 1)
            if used + 1 < value and _passable(code, worth):
                walk(n, used + 1, seen | {n})

    walk(frm, 0, {frm})
    return ends


def pawn_ends(pos: dict, suit: str, budget: int) -> dict:
    """{end: fewest squares} of the pawn of ``suit`` (a letter) with ``budget`` squares."""
    board, size = pos["board"], len(pos["board"])
    own_home = home(suit, size)
    others = _pawn_squares(pos) - {tuple(pos["pawns"][suit])}
    ace_ok = pos["options"].get("ace_stones", False)
    ends: dict = {}

    def own(code) -> bool:
        return code == suit or (ace_ok and code is not None and len(code) == 2 and code[1] == "a")

    def walk(cell, used: int, seen: set) -> None:
        for n in _around(cell, size):
            if n in seen or n in others:
                continue
            code = board[n[0]][n[1]]
            if own(code) or (n in own_home and code is None):
                ends[n] = min(ends.get(n, used + 1), used + 1)
            if own(code) and n not in own_home and used + 1 < budget:  # on the home tile the move is over
                walk(n, used + 1, seen | {n})

    walk(tuple(pos["pawns"][suit]), 0, {tuple(pos["pawns"][suit])})
    return ends


def actions(pos: dict) -> dict:
    """{typed action: (kind, details)} of everything the roll still allows."""
    out: dict = {}
    board, size = pos["board"], len(pos["board"])
    pawns = _pawn_squares(pos)
    live = [d for d in pos["roll"] if d["left"] > 0]
    for d in live:
        if d["phase"] == 1 and d["face"] == "s":
            mine = [(r, c) for r in range(size) for c in range(size)
                    if (board[r][c] or "")[:1] == d["suit"] and len(board[r][c]) == 2 and board[r][c][1] != "a"]
            if pos["options"].get("highest_first") and mine:
                top = max(PASS[board[r][c][1]] for r, c in mine)
                mine = [(r, c) for r, c in mine if PASS[board[r][c][1]] == top]
            for cell in mine:
                out[f"flip {name(cell)}"] = ("flip", cell)
    values = {d["face"] for d in live if d["phase"] == 1 and d["face"] in "2345"}
    for r in range(size):
        for c in range(size):
            code = board[r][c]
            if code and len(code) == 2 and code[1] in values:
                for end in _coin_ends(pos, (r, c), PASS[code[1]], exact=True):
                    out[f"{name((r, c))}-{name(end)}"] = ("coin", (r, c), end, code[1])
    for d in live:
        if d["phase"] != 2:
            continue
        suit = d["suit"]
        for r in range(size):
            for c in range(size):
                if board[r][c] == suit and (r, c) not in pawns:
                    for end, cost in _coin_ends(pos, (r, c), d["left"], exact=False).items():
                        out[f"{name((r, c))}-{name(end)}"] = ("stone", (r, c), end, suit, cost)
        at = tuple(pos["pawns"][suit])
        for end, cost in pawn_ends(pos, suit, d["left"]).items():
            out[f"{name(at)}-{name(end)}"] = ("pawn", at, end, suit, cost)
    return out


def apply(pos: dict, action: tuple) -> dict:
    after = copy.deepcopy(pos)
    board, roll = after["board"], after["roll"]
    kind = action[0]
    if kind == "flip":
        (r, c) = action[1]
        suit = board[r][c][0]
        board[r][c] = suit
        next(d for d in roll if d["suit"] == suit and d["phase"] == 1 and d["face"] == "s")["left"] = 0
        return after
    (fr, fc), (tr, tc) = action[1], action[2]
    if kind == "coin":  # the first die in suit order that shows the value pays
        die = min((d for d in roll if d["phase"] == 1 and d["left"] and d["face"] == action[3]),
                  key=lambda d: SUIT_ORDER.index(d["suit"]))
        die["left"] = 0
        board[tr][tc], board[fr][fc] = board[fr][fc], None
        return after
    suit, cost = action[3], action[4]
    die = next(d for d in roll if d["suit"] == suit)
    die["left"] -= cost
    if kind == "stone":
        board[tr][tc], board[fr][fc] = board[fr][fc], None
        return after
    after["pawns"][suit] = [tr, tc]
    if (tr, tc) in home(suit, len(board)):
        after["roll"] = [d for d in roll if d["suit"] != suit]
    return after


def perft(pos: dict, depth: int) -> int:
    if depth == 0:
        return 1
    acts = actions(pos)
    if depth == 1:
        return len(acts)
    return sum(perft(apply(pos, a), depth - 1) for a in acts.values())
