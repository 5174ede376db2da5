"""Steppin' Stones move generation checked against a second model written from the rules text
(``steppin_stones_reference``): a pawn's move ends on the first square of its home tile it
reaches, exact move lists and perft counts, and the two models side by side over random games."""

import json
import random
from pathlib import Path

import pytest

import steppin_stones_reference as reference
from rules.errors import IllegalMove
from rules.pieces import SUITS
from rules.steppin_stones import reasons
from rules.steppin_stones.game import GAME
from rules.steppin_stones.notation import format_action
from rules.steppin_stones.state import EndTurn, Move, actions, pawn_reach, perft, setup
from steppin_stones_helpers import across_home, sq

S = SUITS[0]

# Every action of the roll in ``across_home()``. The Red pawn on b3 goes onto its stone on a3,
# home onto the stone on b2, or home on a2 over a3; a walk on over b2 (to b1, or off the home
# tile to c2) is no move, so 22 actions, not 24.
ACROSS_HOME_MOVES = [
    "c1-a1", "c1-b1", "c1-d1", "c1-e1", "c1-d2", "b2-a1", "b2-b1", "b2-a2",
    "c2-d1", "c2-d2", "c2-e2", "c2-c3", "c2-d3", "c2-c4",
    "a3-a1", "a3-a2", "a3-a4", "a3-b4", "a3-a5", "b3-a2", "b3-b2", "b3-a3",
]  # fmt: skip
# The same with a Black ace on b2 (ace stones): the pawn may stop on the ace, home, but not walk
# on over it; the Red stone that lay on b2 is on h5.
ACROSS_HOME_ACE_MOVES = [
    "c1-a1", "c1-b1", "c1-d1", "c1-e1", "c1-d2", "c2-d1", "c2-d2", "c2-e2", "c2-c3", "c2-d3", "c2-c4",
    "a3-a1", "a3-a2", "a3-a4", "a3-b4", "a3-a5", "b3-a2", "b3-b2", "b3-a3", "h5-g4", "h5-h4", "h5-f5", "h5-g5",
]  # fmt: skip


def _engine_moves(state) -> list[str]:
    return [format_action(a) for a in actions(state)]


@pytest.mark.parametrize(
    ("ace_stones", "moves", "counts"),
    [(False, ACROSS_HOME_MOVES, [22, 98, 0]), (True, ACROSS_HOME_ACE_MOVES, [23, 99, 0])],
    ids=["stone", "ace"],
)
def test_a_pawn_s_move_ends_on_the_first_square_of_its_home_tile(ace_stones, moves, counts):
    obj = across_home(ace_stones)
    state = GAME.from_json(obj)
    assert _engine_moves(state) == moves
    assert sorted(reference.actions(obj)) == sorted(moves)
    assert [perft(state, d) for d in (1, 2, 3)] == counts == [reference.perft(obj, d) for d in (1, 2, 3)]
    for past in ("b1", "c2"):  # over b2 and on: the pawn was home on b2
        with pytest.raises(IllegalMove) as err:
            GAME.apply(state, Move(sq("b3"), sq(past)))
        assert err.value.reason.code == reasons.PAWN_OUT_OF_REACH
    home = GAME.apply(state, Move(sq("b3"), sq("b2")))
    assert home.is_home(S) and home.die(S) is None
    assert [d.suit.value for d in home.dice] == ["M", "C", "A"]


def _perft_positions() -> list:
    return json.loads((Path(__file__).parent / "data" / "steppin_stones_perft.json").read_text())


@pytest.mark.parametrize("item", _perft_positions(), ids=lambda item: item["name"])
def test_perft_of_mid_game_positions_in_both_phases(item):
    # mid-game positions of seeded random games, in phase 1 and in phase 2 (the later ones with
    # a pawn beside its home tile, a stone or an ace lying on that tile, in each variant). The
    # counts are exact; the reference model, written from the rules text alone, gives them too
    obj = item["position"]
    state = GAME.from_json(obj)
    depths = range(1, len(item["perft"]) + 1)
    assert sorted(_engine_moves(state)) == sorted(reference.actions(obj))
    assert [perft(state, d) for d in depths] == item["perft"]
    assert [reference.perft(obj, d) for d in depths] == item["perft"]


def test_pawn_reach_agrees_with_every_path_walked_by_the_rules_text():
    compared = moving = 0
    for seed in range(12):
        rng = random.Random(seed)
        state = setup(seed=seed, ace_stones=seed % 3 == 0, aces=4 if seed % 3 == 0 else 0)
        for _ in range(400):
            obj = GAME.to_json(state)
            for suit in SUITS:
                if not state.is_home(suit):
                    for budget in (1, 3, 6):
                        want = reference.pawn_ends(obj, suit.value, budget)
                        assert pawn_reach(state, suit, budget) == want, (seed, suit, budget, obj)
                        compared += 1
                        moving += bool(want)
            moves = GAME.legal_moves(state)
            if not moves:
                break
            state = GAME.apply(state, rng.choice(moves))
    assert compared > 1000 and moving > 200  # positions where a pawn can move at all are many among them


def test_the_engine_and_the_reference_play_the_same_random_games():
    # the same actions offered and the same position after each, in every variant; the reference
    # does not roll, so after each end of turn it takes the engine's position
    positions = homes = 0
    for seed in range(8):
        options = [{}, {"aces": 4, "ace_stones": True}, {"large": True}, {"highest_first": True, "aces": 2}][seed % 4]
        rng = random.Random(seed)
        state = setup(seed=seed, **options)
        obj = GAME.to_json(state)
        for _ in range(300):
            offered = reference.actions(obj)
            assert sorted(_engine_moves(state)) == sorted(offered), (seed, obj)
            positions += 1
            moves = GAME.legal_moves(state)
            if not moves:
                break
            pawn_moves = [m for m in moves if isinstance(m, Move) and state.pawn_on(m.frm) is not None]
            move = rng.choice(pawn_moves if pawn_moves and rng.random() < 0.7 else moves)
            before = sum(state.is_home(s) for s in SUITS)
            state = GAME.apply(state, move)
            homes += sum(state.is_home(s) for s in SUITS) - before
            if isinstance(move, EndTurn):
                obj = GAME.to_json(state)
                continue
            obj = reference.apply(obj, offered[format_action(move)])
            assert obj == GAME.to_json(state), (seed, format_action(move))
    assert positions > 1500 and homes >= 4  # pawns get home in these games
