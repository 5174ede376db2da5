"""Every registered game plays seeded random games through the shared interface."""

import json
import random

import pytest

import rules
from rules.errors import IllegalMove


@pytest.mark.parametrize("name", rules.names())
def test_random_games_follow_the_interface(name):
    game = rules.get(name)
    assert isinstance(game, rules.Game)
    assert game.name == name
    for seed in range(5):
        rng = random.Random(seed)
        state = game.setup(seed=seed)
        assert game.to_json(game.setup(seed=seed)) == game.to_json(state), "same seed, same setup"
        for _ in range(60):
            # the JSON form round-trips at every step
            as_json = json.loads(json.dumps(game.to_json(state)))
            assert game.to_json(game.from_json(as_json)) == game.to_json(state)
            if game.is_over(state):
                assert list(game.legal_moves(state)) == []
                break
            moves = list(game.legal_moves(state))
            assert moves, f"{name}: a game that is not over must offer a move (or a pass)"
            assert len(set(moves)) == len(moves), "moves are distinct values"
            state = game.apply(state, rng.choice(moves))


@pytest.mark.parametrize("name", rules.names())
def test_malformed_json_is_a_rules_error(name):
    game = rules.get(name)
    for bad in (None, [], "x", {"nonsense": 1}):
        with pytest.raises(rules.MalformedPosition):
            game.from_json(bad)


def test_unknown_game():
    with pytest.raises(rules.UnknownGame, match="'chess'"):
        rules.get("chess")


@pytest.mark.parametrize("name", rules.names())
def test_apply_of_a_foreign_move_raises_illegal(name):
    game = rules.get(name)
    state = game.setup(seed=1)
    with pytest.raises(IllegalMove):
        game.apply(state, object())
