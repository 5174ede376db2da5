"""Easy Slider positions and observed layouts as JSON.

The schema (what ``caller read`` writes)::

    {"game": "easy-slider",
     "board": [["S5","Mn","C2","A3","Sa"], ..., ["An","Cn","Mn","Sn",null]],
     "pawns": ["M","S","C","A"], "coins": ["2","4","5","a","3"]}

Keys other than board, pawns and coins ("image", "confidence", "uncertain") are ignored on
input; a "game" key, when present, must be "easy-slider".
"""

from __future__ import annotations

from typing import Any

from rules.easy_slider import reasons
from rules.easy_slider.state import COIN_RANKS, SHAPE, SIZE, EasySliderState
from rules.errors import MalformedPosition, NotationError
from rules.grid import Cell, Grid
from rules.pieces import Pawn, Rank, Suit, Tile, parse_coin_side
from rules.reasons import Reason

NAME = "easy-slider"


def to_json(state: EasySliderState) -> dict:
    """The position as the JSON object above."""
    return {
        "game": NAME,
        "board": state.board.to_lists(lambda t: t.code),
        "pawns": [p.code for p in state.pawns],
        "coins": [c.code for c in state.coins],
    }


def from_json(obj: Any) -> EasySliderState:
    """Parse and validate a position; raises MalformedPosition quoting what is wrong."""
    if not isinstance(obj, dict):
        raise MalformedPosition(
            f"an easy-slider position must be a JSON object with board, pawns and coins, got {obj!r:.80}"
        )
    _check_game(obj, "easy-slider position")
    missing = [k for k in ("board", "pawns", "coins") if k not in obj]
    if missing:
        raise MalformedPosition(f"easy-slider position lacks {', '.join(repr(k) for k in missing)}")
    board = parse_board(obj["board"])
    return EasySliderState(board, parse_pawns(obj["pawns"]), parse_coins(obj["coins"]))


def _check_game(obj: dict, what: str) -> None:
    """A layout that names its game must name this one: another game's file is not read as Easy Slider."""
    game = obj.get("game", NAME)
    if game != NAME:
        shown = repr(game) if len(repr(game)) <= 40 else repr(game)[:40] + "..."
        raise MalformedPosition(f"{what} is for game {shown}, expected {NAME!r}")


def parse_board(obj: Any, what: str = "board") -> Grid:
    """A 5x5 JSON board (tile codes or null) as a Grid; checks shape and codes only, not consistency."""
    return Grid.parse(obj, parse_tile, shape=SHAPE, what=what)


def parse_tile(value: Any) -> Tile:
    if not isinstance(value, str):
        raise NotationError(f"bad tile {value!r}: expected a code such as 'S5' or null for the hole")
    return Tile.parse(value)


def parse_pawns(obj: Any) -> tuple[Pawn, ...]:
    if not isinstance(obj, list) or len(obj) != 4:
        raise MalformedPosition(f"pawns must be a list of 4 suit letters (rows 1-4), got {obj!r:.80}")
    try:
        return tuple(Pawn.parse(p) for p in obj)
    except NotationError as exc:
        raise MalformedPosition(f"pawns: {exc}") from None


def parse_coins(obj: Any) -> tuple[Rank, ...]:
    if not isinstance(obj, list) or len(obj) != SIZE:
        raise MalformedPosition(f"coins must be a list of 5 coin values (columns 1-5), got {obj!r:.80}")
    out = []
    for value in obj:
        try:
            side = parse_coin_side(value)
        except NotationError as exc:
            raise MalformedPosition(f"coins: {exc}") from None
        if isinstance(side, Suit):
            raise MalformedPosition(f"coins: {value!r} is a suit side; expected the value side (a, 2, 3, 4, 5)")
        if side is Rank.NULL:
            raise MalformedPosition("coins: 'n' is the null coin, which is not used; expected a, 2, 3, 4, 5")
        out.append(side)
    return tuple(out)



def parse_observation(
    obj: Any, what: str = "layout"
) -> tuple[Grid, tuple[Pawn, ...] | None, tuple[Rank, ...] | None]:
    """A layout JSON object as ``(board, pawns, coins)`` without requiring a full position.

    Raises MalformedPosition for what cannot be an observation of one piecepack: not an
    object, no board, a board that is not 5x5, unknown tile codes, a tile twice, no hole,
    bad pawns or coins (when present). Missing tiles (extra holes) are allowed: they are
    what a lifted tile looks like, and ``check_layout``/``explain`` report them.
    ``pawns``/``coins`` are None when absent.
    """
    if not isinstance(obj, dict):
        raise MalformedPosition(f"{what} must be a JSON object with board, pawns and coins, got {obj!r:.80}")
    _check_game(obj, what)
    if "board" not in obj:
        raise MalformedPosition(f"{what} lacks 'board'")
    board = parse_board(obj["board"], what=f"{what} board")
    seen: dict[Tile, Cell] = {}
    for cell, tile in board.items():
        if tile is None:
            continue
        if tile in seen:
            raise MalformedPosition(
                f"{what}: tile {tile.code} is on the board twice, at {list(seen[tile])} and {list(cell)}",
                Reason(reasons.DOUBLED, (seen[tile], cell), (tile, tile)),
            )
        seen[tile] = cell
    try:
        pawns = parse_pawns(obj["pawns"]) if "pawns" in obj else None
        coins = parse_coins(obj["coins"]) if "coins" in obj else None
    except MalformedPosition as exc:
        raise MalformedPosition(f"{what}: {exc}") from None
    if pawns is not None and len({p.suit for p in pawns}) != 4:
        raise MalformedPosition(
            f"{what}: pawns {[p.code for p in pawns]} repeat a colour: expected each of S, M, C, A once",
            Reason(reasons.PAWNS_REPEAT, pieces=pawns),
        )
    if coins is not None and set(coins) != set(COIN_RANKS):
        raise MalformedPosition(
            f"{what}: coins {[c.code for c in coins]} must be a, 2, 3, 4, 5 once each", Reason(reasons.COINS_REPEAT, pieces=coins)
        )
    return board, pawns, coins

