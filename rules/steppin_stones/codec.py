"""Steppin' Stones positions as JSON: writing them, and reading them back with every invariant checked.

Schema (the README has it with an example)::

    {"game": "steppin-stones",                       optional on input
     "options": {"highest_first": false, "aces": 0,  optional on input (all off)
                 "ace_stones": false, "large": false},
     "board": [[null, null, "S5", ...], ...],        size x size (8, or 10 with "large"), row 0 far side;
                                                     "S5" a coin value side up (n, 2-5), "S" a stepping stone,
                                                     "Sa" a fixed ace (aces variant only), null empty
     "pawns": {"S": [3, 3], "M": [3, 4], "C": [4, 4], "A": [4, 3]},   0-based [row, col]
     "roll": [{"suit": "S", "face": "s", "phase": 1, "left": 1}, ...], one die per suit not home, S M C A order
     "turn": 1,                                      optional on input (1)
     "seed": 7}                                      optional on input (0); the next roll comes from it
"""

from __future__ import annotations

from typing import Any

from rules.errors import MalformedPosition, NotationError
from rules.grid import Cell, Grid, in_bounds
from rules.pieces import SUITS, Coin, DieFace, Rank, Suit
from rules.steppin_stones.state import (
    COIN_RANKS,
    NAME,
    BadOptions,
    Die,
    Options,
    Piece,
    State,
    Stone,
    active_suits,
    cell_name,
    holes,
    home_cells,
    start_cell,
)

_KEYS = {"game", "options", "board", "pawns", "roll", "turn", "seed"}
_REQUIRED = {"board", "pawns", "roll"}
_OPTION_KEYS = {"highest_first", "aces", "ace_stones", "large"}


def piece_code(piece: Piece) -> str:
    return piece.code


def parse_piece(text: Any) -> Piece:
    """``"S5"`` a coin value side up, ``"S"`` a stepping stone, ``"Sa"`` an ace; raises NotationError otherwise."""
    if isinstance(text, str) and len(text) == 1:
        return Stone(Suit.parse(text))
    if isinstance(text, str) and len(text) == 2:
        return Coin.parse(text)
    raise NotationError(
        f"bad square {text!r}: expected a coin value side up ('S5', 'Mn'), a stepping stone ('S'), an ace ('Sa') or null"
    )


def to_json(state: State) -> dict:
    o = state.options
    return {
        "game": NAME,
        "options": {"highest_first": o.highest_first, "aces": o.aces, "ace_stones": o.ace_stones, "large": o.large},
        "board": state.board.to_lists(piece_code),
        "pawns": {s.value: list(state.pawn(s)) for s in SUITS},
        "roll": [{"suit": d.suit.value, "face": d.face.value, "phase": d.phase, "left": d.left} for d in state.dice],
        "turn": state.turn,
        "seed": state.seed,
    }


def _int(value: Any, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise MalformedPosition(f"{what} must be an integer, got {value!r:.40}")
    return value


def _options(obj: Any) -> Options:
    if obj is None:
        return Options()
    if not isinstance(obj, dict) or set(obj) - _OPTION_KEYS:
        raise MalformedPosition(f"bad options {obj!r:.80}: expected an object with keys among {sorted(_OPTION_KEYS)}")
    for key in ("highest_first", "ace_stones", "large"):
        if key in obj and not isinstance(obj[key], bool):
            raise MalformedPosition(f"option {key} must be true or false, got {obj[key]!r:.40}")
    try:
        return Options(**obj)
    except BadOptions as exc:
        raise MalformedPosition(f"bad options: {exc}") from None


def _cell(value: Any, what: str, size: int) -> Cell:
    ok = (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(x, int) and not isinstance(x, bool) for x in value)
        and in_bounds(tuple(value), (size, size))
    )
    if not ok:
        raise MalformedPosition(f"{what} must be [row, col] on the {size}x{size} board (0-based), got {value!r:.40}")
    return (value[0], value[1])


def _check_coins(board: Grid, opts: Options) -> None:
    blocked = holes(opts)
    aces = 0
    for suit in SUITS:
        ranks = []
        stones = 0
        for cell, piece in board.items():
            if piece is None or piece.suit is not suit:
                continue
            if cell in blocked:
                raise MalformedPosition(f"square {cell_name(cell)} {list(cell)} has no tile under it: it must be empty")
            if isinstance(piece, Stone):
                stones += 1
            elif piece.rank is Rank.ACE:
                aces += 1
                if not opts.aces:
                    raise MalformedPosition(f"the {piece.spoken} is on the board but the aces variant is off")
            else:
                ranks.append(piece.rank)
        if len(set(ranks)) != len(ranks):
            dup = sorted({r.value for r in ranks if ranks.count(r) > 1})
            raise MalformedPosition(f"the {suit.plural} have two coins of value {', '.join(dup)} showing")
        if len(ranks) + stones != len(COIN_RANKS):
            raise MalformedPosition(
                f"the {suit.plural} have {len(ranks)} coin(s) showing a value and {stones} stepping stone(s): "
                f"expected {len(COIN_RANKS)} coins in all (null, 2, 3, 4, 5)"
            )
    if aces != opts.aces:
        raise MalformedPosition(f"options say {opts.aces} aces but the board has {aces}")


def _value_coins(suit: Suit) -> set[Coin]:
    return {Coin(suit, r) for r in COIN_RANKS}


def _pawns(obj: Any, board: Grid, opts: Options) -> tuple[Cell, ...]:
    size = opts.size
    if not isinstance(obj, dict) or set(obj) != {s.value for s in SUITS}:
        raise MalformedPosition(f"pawns must be an object with keys S, M, C, A, got {obj!r:.80}")
    pawns = tuple(_cell(obj[s.value], f"the {s.value} pawn", size) for s in SUITS)
    if len(set(pawns)) != len(pawns):
        raise MalformedPosition(f"two pawns on one square: {[list(p) for p in pawns]}")
    for suit, at in zip(SUITS, pawns):
        piece = board[at]
        where = f"the {suit.colour} pawn on {cell_name(at)}"
        on_own_stone = piece == Stone(suit)
        on_ace = opts.ace_stones and isinstance(piece, Coin) and piece.rank is Rank.ACE
        if piece is not None and not on_own_stone and not on_ace:
            raise MalformedPosition(
                f"{where} stands on a {piece.spoken}: a pawn stands on an empty square, its own stepping stone "
                "or its home tile"
            )
        moved = at != start_cell(suit, size)
        if moved and any(p in _value_coins(suit) for p in board.values()):
            raise MalformedPosition(f"{where} has left its start square while a {suit.colour} coin still shows a value")
        if moved and piece is None and at not in home_cells(suit, size):
            raise MalformedPosition(f"{where} is on an empty square that is neither its start square nor its home tile")
    return pawns


def _roll(obj: Any, state: State) -> tuple[Die, ...]:
    if not isinstance(obj, list):
        raise MalformedPosition(f"roll must be a list of dice, got {obj!r:.80}")
    suits = active_suits(state)
    if [d.get("suit") if isinstance(d, dict) else None for d in obj] != [s.value for s in suits]:
        raise MalformedPosition(
            f"roll must have one die for each suit whose pawn is not home, in order {[s.value for s in suits]}, "
            f"got {obj!r:.120}"
        )
    dice = []
    for d in obj:
        if set(d) != {"suit", "face", "phase", "left"}:
            raise MalformedPosition(f"bad die {d!r:.80}: expected keys suit, face, phase, left")
        suit = Suit.parse(d["suit"])
        face = next((f for f in DieFace if f.value == d["face"]), None)
        if face is None:
            raise MalformedPosition(f"bad die {d!r:.80}: face must be one of n, s, 2, 3, 4, 5")
        phase = _int(d["phase"], "a die's phase")
        left = _int(d["left"], "a die's left")
        if phase not in (1, 2):
            raise MalformedPosition(f"bad die {d!r:.80}: phase must be 1 or 2")
        die = Die(suit, face, phase, left)
        if not 0 <= left <= die.budget:
            raise MalformedPosition(f"bad die {d!r:.80}: left must be 0 to {die.budget}")
        has_values = bool(state.value_coins(suit))
        if phase == 2 and has_values:
            raise MalformedPosition(f"the {suit.colour} die is in phase 2 but a {suit.colour} coin still shows a value")
        if phase == 1 and left and not has_values:
            raise MalformedPosition(
                f"the {suit.colour} die is an unused phase-1 die but every {suit.colour} coin is a stepping stone"
            )
        dice.append(die)
    return tuple(dice)


def from_json(obj: Any) -> State:
    """Parse and validate a position; raises MalformedPosition quoting what is wrong."""
    if not isinstance(obj, dict):
        raise MalformedPosition(f"a Steppin' Stones position is a JSON object, got {obj!r:.80}")
    unknown = set(obj) - _KEYS
    missing = _REQUIRED - set(obj)
    if unknown or missing:
        raise MalformedPosition(
            f"bad position keys: unknown {sorted(unknown)}, missing {sorted(missing)}; expected {sorted(_KEYS)}"
        )
    if obj.get("game", NAME) != NAME:
        raise MalformedPosition(f"this is a position of {obj['game']!r}, not {NAME!r}")
    opts = _options(obj.get("options"))
    size = opts.size
    try:
        board: Grid = Grid.parse(obj["board"], parse_piece, (size, size))
    except NotationError as exc:
        raise MalformedPosition(str(exc)) from None
    _check_coins(board, opts)
    pawns = _pawns(obj["pawns"], board, opts)
    turn = _int(obj.get("turn", 1), "turn")
    if turn < 1:
        raise MalformedPosition(f"turn must be 1 or more, got {turn}")
    seed = _int(obj.get("seed", 0), "seed")
    state = State(board, pawns, (), turn, seed, opts)
    return State(board, pawns, _roll(obj["roll"], state), turn, seed, opts)
