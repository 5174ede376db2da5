"""Pure game logic, one package per game; the vocabulary everyone shares. Never imports OpenCV."""

from rules.errors import IllegalMove, MalformedPosition, NotationError, RulesError, UnknownGame
from rules.pieces import Coin, DieFace, Pawn, Rank, Suit, Tile
from rules.registry import Game, get, names, perft, record

__all__ = [
    "RulesError",
    "NotationError",
    "MalformedPosition",
    "IllegalMove",
    "UnknownGame",
    "Suit",
    "Rank",
    "Tile",
    "Coin",
    "Pawn",
    "DieFace",
    "Game",
    "get",
    "names",
    "perft",
    "record",
]
