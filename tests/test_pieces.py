import pytest

from rules.errors import NotationError
from rules.pieces import (
    Coin,
    DieFace,
    Pawn,
    Rank,
    Suit,
    Tile,
    all_coins,
    all_tiles,
    format_coin_side,
    parse_coin_side,
)


@pytest.mark.parametrize(
    "code,spoken",
    [("S5", "Red 5"), ("Cn", "Green Null"), ("Sa", "Red Ace"), ("A5", "Blue 5"), ("M2", "Black 2")],
)
def test_tile_round_trip_and_spoken(code, spoken):
    tile = Tile.parse(code)
    assert str(tile) == code
    assert tile.spoken == spoken


def test_tile_fields():
    assert Tile.parse("Mn") == Tile(Suit.MOONS, Rank.NULL)
    assert int(Tile.parse("C4").rank) == 4
    assert Tile.parse("SA") == Tile(Suit.SUNS, Rank.ACE)  # upper-case rank letters are accepted


@pytest.mark.parametrize("bad", ["", "S", "S6", "X5", "5S", "S55", None, 12, "s5"])
def test_bad_tile_quotes_input(bad):
    with pytest.raises(NotationError) as err:
        Tile.parse(bad)
    assert repr(bad) in str(err.value)


def test_coin_sides():
    assert parse_coin_side("3") is Rank.THREE
    assert parse_coin_side("a") is Rank.ACE
    assert parse_coin_side("A") is Suit.ARMS
    assert parse_coin_side("S") is Suit.SUNS
    assert format_coin_side(Rank.NULL) == "n"
    with pytest.raises(NotationError, match="'x'"):
        parse_coin_side("x")
    assert Coin.parse("A3").spoken == "Blue 3"


def test_pawn():
    assert Pawn.parse("M").spoken == "Black"
    assert str(Pawn(Suit.CROWNS)) == "C"
    with pytest.raises(NotationError, match="'K'"):
        Pawn.parse("K")


def test_die_faces():
    assert [str(f) for f in DieFace] == ["n", "s", "2", "3", "4", "5"]
    assert DieFace.parse("a") is DieFace.SUIT
    assert DieFace.parse("5").number == 5
    assert DieFace.parse("n").number == 0
    assert DieFace.SUIT.number is None
    assert DieFace.SUIT.spoken(Suit.CROWNS) == "Crowns"
    with pytest.raises(NotationError, match="'7'"):
        DieFace.parse("7")


def test_full_sets():
    tiles = all_tiles()
    assert len(tiles) == 24 and len(set(tiles)) == 24
    assert [str(t) for t in tiles[:6]] == ["Sn", "Sa", "S2", "S3", "S4", "S5"]
    assert len(set(all_coins())) == 24


def test_suit_words():
    assert [s.colour for s in Suit] == ["Red", "Black", "Green", "Blue"]
    assert [s.plural for s in Suit] == ["Suns", "Moons", "Crowns", "Arms"]
    assert Rank.from_number(1) is Rank.ACE
