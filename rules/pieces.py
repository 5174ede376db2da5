"""The piecepack vocabulary: suits, ranks, tiles, coins, pawns and die faces.

Notation (docs/architecture.md): suits ``S`` Suns (red), ``M`` Moons (black), ``C`` Crowns (green),
``A`` Arms (blue); ranks ``n`` null, ``a`` ace, ``2``..``5``. A tile face or a coin is
suit+rank (``S5``, ``Mn``, ``Ca``); a coin seen on its value side is its rank alone
(``"3"``), on its suit side its suit (``"S"``); a pawn is its suit letter; a die face is a
rank or ``s`` for the suit symbol (on piecepack dice the ace face shows the suit).

Spoken names follow the rules texts: colour then value ("Blue 5", "Green Null", "Red Ace").
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from rules.errors import NotationError


class Suit(Enum):
    """The four piecepack suits, in the traditional order Suns, Moons, Crowns, Arms."""

    SUNS = "S"
    MOONS = "M"
    CROWNS = "C"
    ARMS = "A"

    @property
    def code(self) -> str:
        return self.value

    @property
    def colour(self) -> str:
        """The colour word the Caller says for this suit ("Red" for Suns)."""
        return _COLOURS[self]

    @property
    def plural(self) -> str:
        """The suit's own name ("Suns")."""
        return self.name.capitalize()

    @classmethod
    def parse(cls, text: str) -> "Suit":
        """``"S"`` -> ``Suit.SUNS``; raises NotationError quoting anything else."""
        if isinstance(text, str) and text in _SUIT_BY_CODE:
            return _SUIT_BY_CODE[text]
        raise NotationError(f"unknown suit {text!r}: expected one of S, M, C, A")

    def __str__(self) -> str:
        return self.value


_COLOURS = {Suit.SUNS: "Red", Suit.MOONS: "Black", Suit.CROWNS: "Green", Suit.ARMS: "Blue"}
_SUIT_BY_CODE = {s.value: s for s in Suit}
SUITS: tuple[Suit, ...] = tuple(Suit)


class Rank(Enum):
    """Piecepack ranks. ``int(rank)`` is its number (null 0, ace 1, then 2..5)."""

    NULL = "n"
    ACE = "a"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"

    @property
    def code(self) -> str:
        return self.value

    @property
    def number(self) -> int:
        return _NUMBERS[self]

    def __int__(self) -> int:
        return _NUMBERS[self]

    @property
    def spoken(self) -> str:
        """"Null", "Ace", "2" ... as the Caller says it."""
        return {Rank.NULL: "Null", Rank.ACE: "Ace"}.get(self, self.value)

    @classmethod
    def parse(cls, text: str) -> "Rank":
        """``"n"``/``"a"``/``"2"``..``"5"`` (``N``/``A`` accepted too); raises NotationError otherwise."""
        if isinstance(text, str) and text.lower() in _RANK_BY_CODE:
            return _RANK_BY_CODE[text.lower()]
        raise NotationError(f"unknown rank {text!r}: expected one of n, a, 2, 3, 4, 5")

    @classmethod
    def from_number(cls, number: int) -> "Rank":
        for rank, value in _NUMBERS.items():
            if value == number:
                return rank
        raise NotationError(f"no rank has the number {number!r}: expected 0 to 5")

    def __str__(self) -> str:
        return self.value


_NUMBERS = {Rank.NULL: 0, Rank.ACE: 1, Rank.TWO: 2, Rank.THREE: 3, Rank.FOUR: 4, Rank.FIVE: 5}
_RANK_BY_CODE = {r.value: r for r in Rank}
RANKS: tuple[Rank, ...] = tuple(Rank)


def _parse_suit_rank(text: str, what: str) -> tuple[Suit, Rank]:
    if not isinstance(text, str) or len(text) != 2:
        raise NotationError(f"bad {what} {text!r}: expected suit+rank such as 'S5', 'Mn', 'Ca'")
    try:
        return Suit.parse(text[0]), Rank.parse(text[1])
    except NotationError:
        raise NotationError(f"bad {what} {text!r}: expected suit+rank such as 'S5', 'Mn', 'Ca'") from None


@dataclass(frozen=True)
class _SuitRank:
    """A piece known by suit and rank, written suit+rank (``"S5"``) and spoken colour then value."""

    suit: Suit
    rank: Rank

    _what = "piece"

    @classmethod
    def parse(cls, text: str):
        return cls(*_parse_suit_rank(text, cls._what))

    @property
    def code(self) -> str:
        return self.suit.value + self.rank.value

    @property
    def spoken(self) -> str:
        """"Blue 5", "Green Null", "Red Ace"."""
        return f"{self.suit.colour} {self.rank.spoken}"

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code})"


@dataclass(frozen=True, repr=False)
class Tile(_SuitRank):
    """A tile face: suit and rank. ``Tile.parse("S5")``; ``str(tile) == "S5"``."""

    _what = "tile"


@dataclass(frozen=True, repr=False)
class Coin(_SuitRank):
    """A coin with both its sides known: suit and rank, written like a tile (``"A3"``).

    A Coin never equals a Tile of the same code: they are different pieces.
    """

    _what = "coin"


def parse_coin_side(text: str) -> Rank | Suit:
    """What one visible side of a coin shows: ``"3"`` -> Rank.THREE (value side), ``"S"`` -> Suit.SUNS (suit side).

    Lower-case ``n``/``a`` are ranks, upper-case ``S``/``M``/``C``/``A`` suits, so ``"a"`` (ace)
    and ``"A"`` (Arms) are different.
    """
    if isinstance(text, str) and text in _SUIT_BY_CODE:
        return _SUIT_BY_CODE[text]
    if isinstance(text, str) and text in _RANK_BY_CODE:
        return _RANK_BY_CODE[text]
    raise NotationError(f"bad coin side {text!r}: expected a rank (n, a, 2-5) or a suit (S, M, C, A)")


def format_coin_side(side: Rank | Suit) -> str:
    return side.value


@dataclass(frozen=True)
class Pawn:
    """A pawn, written as its suit letter."""

    suit: Suit

    @classmethod
    def parse(cls, text: str) -> "Pawn":
        try:
            return cls(Suit.parse(text))
        except NotationError:
            raise NotationError(f"bad pawn {text!r}: expected a suit letter S, M, C or A") from None

    @property
    def code(self) -> str:
        return self.suit.value

    @property
    def spoken(self) -> str:
        """A pawn is called by its colour: "Black"."""
        return self.suit.colour

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Pawn({self.code})"


class DieFace(Enum):
    """A piecepack die face: a rank, or ``s`` for the suit symbol (the ace face of a piecepack die)."""

    NULL = "n"
    SUIT = "s"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"

    @classmethod
    def parse(cls, text: str) -> "DieFace":
        """``n s 2 3 4 5``; ``a`` (ace) is read as ``s`` because the ace face shows the suit."""
        if isinstance(text, str):
            key = text.lower()
            if key == "a":
                key = "s"
            for face in cls:
                if face.value == key:
                    return face
        raise NotationError(f"bad die face {text!r}: expected one of n, s, 2, 3, 4, 5")

    @property
    def code(self) -> str:
        return self.value

    @property
    def number(self) -> int | None:
        """The face's number (null 0, 2..5); None for the suit face, whose meaning depends on the game."""
        return {"n": 0, "s": None}.get(self.value, int(self.value) if self.value.isdigit() else None)

    def spoken(self, suit: Suit | None = None) -> str:
        if self is DieFace.SUIT:
            return suit.plural if suit is not None else "Suit"
        if self is DieFace.NULL:
            return "Null"
        return self.value

    def __str__(self) -> str:
        return self.value


DIE_FACES: tuple[DieFace, ...] = tuple(DieFace)


def all_tiles() -> tuple[Tile, ...]:
    """The 24 tiles of one piecepack, suit by suit, null to 5."""
    return tuple(Tile(s, r) for s in SUITS for r in RANKS)


def all_coins() -> tuple[Coin, ...]:
    """The 24 coins of one piecepack."""
    return tuple(Coin(s, r) for s in SUITS for r in RANKS)
