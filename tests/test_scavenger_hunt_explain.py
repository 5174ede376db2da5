"""Scavenger Hunt: typed turns, and explaining an observed change (or why no turn explains it)."""

import pytest

from rules.errors import IllegalMove, MalformedPosition, NotationError
from rules.grid import Direction
from rules.pieces import Rank
from rules.scavenger_hunt.game import GAME
from rules.scavenger_hunt.state import Shift, Turn
from rules.scavenger_hunt.explain import Observed, explain, explain_json
from rules.scavenger_hunt.notation import parse_placement, parse_turn
from scavenger_hunt_positions import lone_coins, position

R4_RIGHT = Shift("row", 3, Direction.RIGHT)
R4_LEFT = Shift("row", 3, Direction.LEFT)


# ---------------------------------------------------------------- notation


@pytest.mark.parametrize(
    "text, turn",
    [
        ("R4> 8,7", Turn(R4_RIGHT, (7, 6))),
        ("r4 right 8,7", Turn(R4_RIGHT, (7, 6))),
        ("row 4 > right 4", Turn(R4_RIGHT, (7, 6))),  # from (7,2), where the shift left the pawn
        ("R4>, >4 +", Turn(R4_RIGHT, (7, 6), True)),
        ("R4< ^3", Turn(R4_LEFT, (4, 10))),
        ("c1 up stay", Turn(Shift("col", 0, Direction.UP), (5, 0))),
        ("C1V", Turn(Shift("col", 0, Direction.DOWN), (1, 0))),
        ("column 6 down 2,1 -", Turn(Shift("col", 5, Direction.DOWN), (1, 0), False)),
    ],
)
def test_typed_turns(text, turn):
    assert parse_turn(text, lone_coins()) == turn


@pytest.mark.parametrize(
    "text, message",
    [
        ("foo", "cannot read the turn 'foo'"),
        ("R5> 1,1", "tile-row index 4: expected 0 to 3"),
        ("R2^ 1,1", "row shifts left or right"),
        ("C2^ up 0", "a pawn move is at least 1 square"),
        ("R2> 3,7 ++", "cannot read the turn"),
    ],
)
def test_unreadable_turns_say_what_was_expected(text, message):
    with pytest.raises(NotationError, match=message):
        parse_turn(text, lone_coins())


def test_typed_placements():
    assert parse_placement("3 4,5") == (Rank.THREE, (3, 4))
    assert parse_placement(" A at 2,7") == (Rank.ACE, (1, 6))
    assert parse_placement("n on 7,11") == (Rank.NULL, (6, 10))
    with pytest.raises(NotationError, match="cannot read the placement '6 1,1'"):
        parse_placement("6 1,1")


def test_turn_text_round_trips():
    state = lone_coins()
    for move in GAME.legal_moves(state)[::17]:
        assert parse_turn(str(move), state) == Turn(move.shift, move.to, True if move.collect else None)


# ---------------------------------------------------------------- explaining


def test_every_legal_turn_is_among_its_own_explanations():
    state = GAME.setup(seed=8, players=3)
    for move in GAME.legal_moves(state)[::7]:
        after = GAME.apply(state, move)
        explanation = explain(state, after)
        assert move in explanation.turns
        for other in explanation.turns:  # any other turn gives the same board
            again = GAME.apply(state, other)
            assert (again.coins, again.pawns) == (after.coins, after.pawns)


def test_a_collect_is_explained_by_the_vanished_coin():
    state = lone_coins()
    after = GAME.apply(state, Turn(R4_RIGHT, (7, 6)))
    assert explain(state, after).turns == (Turn(R4_RIGHT, (7, 6), True),)


def test_an_invisible_shift_is_ambiguous():
    # tile-row 3 and tile-columns 2 and 4 carry neither coin nor pawn; C1^ and C1v carry the
    # Red pawn along column 1, from where it can still reach (6,0)
    state = lone_coins()
    after = GAME.apply(state, Turn(Shift("row", 2, Direction.LEFT), (6, 0)))
    explanation = explain(state, after)
    assert explanation.ambiguous
    assert {str(t.shift) for t in explanation.turns} == {"R3<", "R3>", "C1^", "C1v", "C2^", "C2v", "C4^", "C4v"}
    assert {t.to for t in explanation.turns} == {(6, 0)}


def _observed(state, pawns=None, moves=None):
    """The board of ``state`` with pawns replaced and coins moved ({from: to}), as a camera reads it."""
    coins = state.coins
    for a, b in (moves or {}).items():
        coins = coins.set(a, None).set(b, coins[a])
    return Observed(tuple(pawns or state.pawns), coins)


def test_a_reversed_shift_is_named():
    before = lone_coins(last_shifts=[None, {"line": "row", "index": 3, "direction": "right"}])
    after = _observed(before, pawns=[(7, 9), (0, 11)], moves={(7, 4): (7, 2)})  # R4<, then left 1
    with pytest.raises(IllegalMove, match="shift R4< reverses Black's shift R4>"):
        explain(before, after)


@pytest.mark.parametrize(
    "pawns, message",
    [
        ([(7, 8), (0, 11)], "the pawn stops on the first coin it passes: the coin on 8,5"),
        ([(6, 1), (0, 11)], "is diagonal"),
        ([(7, 0), (0, 10)], "it is Red's turn, but the Black pawn moved from 1,12 to 1,11"),
    ],
)
def test_impossible_pawn_moves_are_named(pawns, message):
    with pytest.raises(IllegalMove, match=message):
        explain(lone_coins(), _observed(lone_coins(), pawns=pawns))


def test_passing_a_pawn_is_named():
    before = position({(7, 4): "Sn", (2, 9): "Mn"}, [(7, 0), (4, 0)])
    with pytest.raises(IllegalMove, match="may not pass the Black pawn on 5,1"):
        explain(before, _observed(before, pawns=[(2, 0), (4, 0)]))


def test_coins_that_no_shift_explains():
    state = lone_coins()
    with pytest.raises(IllegalMove, match="no shift of one row or column of tiles by one tile explains"):
        explain(state, _observed(state, pawns=[(6, 0), (0, 11)], moves={(2, 9): (3, 3)}))


def test_explain_from_json_takes_a_camera_board():
    before = lone_coins()
    camera = {"pawns": [[7, 6], [0, 11]], "coins": [[None] * 12 for _ in range(8)]}
    camera["coins"][2][9] = "n"
    explanation = explain_json(GAME.to_json(before), camera)
    assert explanation.turns == (Turn(R4_RIGHT, (7, 6), True),)
    with pytest.raises(MalformedPosition, match="pawns must list 2 squares"):
        explain_json(GAME.to_json(before), {"pawns": [[7, 6]], "coins": camera["coins"]})
