"""The Slider computer players: bitboard move generation, evaluation tables, and deterministic (depth/node-limited) search."""

import random

import pytest

from rules.grid import Direction
from rules.slider.game import GAME
from rules.slider.notation import parse_text
from rules.slider.state import PASS, Move, Side
from rules.slider.ai import WIN, AlphaBetaPlayer, BitBoard, GreedyPlayer, RandomPlayer

UP, DOWN, LEFT, RIGHT = Direction.UP, Direction.DOWN, Direction.LEFT, Direction.RIGHT


def board(text, to_move="H"):
    return parse_text(text.strip() + "\n", to_move=to_move)


def test_bitboard_moves_match_the_rules_engine_on_random_positions():
    rng = random.Random(7)
    checked = 0
    for game in range(24):
        state = GAME.setup(seed=game, n=3 + game % 6)
        bb = BitBoard(state.n, state.blocked)
        for _ in range(30):
            if state.is_over:
                break
            h, v = bb.to_bits(state.h), bb.to_bits(state.v)
            for side, gen in ((Side.H, bb.h_moves), (Side.V, bb.v_moves)):
                mine = sorted(str(bb.to_move(side, f, t)) for f, t in gen(h, v))
                assert mine == sorted(str(m) for m in state.piece_moves(side))
                checked += 1
            assert bb.mobility(h, v) == state.count_moves()
            state = state.apply(rng.choice(state.legal_moves()))
    assert checked > 600


def test_exit_distances_go_round_blocks():
    bb = BitBoard(4, frozenset({(2, 1), (1, 3)}))
    n = 4

    def d(table, i, j):
        return table[j * n + i]

    assert d(bb.dist_h, 3, 0) == 1  # one step off the right edge
    assert d(bb.dist_h, 0, 0) == 4
    assert d(bb.dist_h, 1, 1) == 4  # block at (2,1): one step up or down first
    assert d(bb.dist_v, 0, 3) == 1
    assert d(bb.dist_v, 1, 2) == 3  # block at (1,3) above: one step aside first
    walled = BitBoard(3, frozenset({(1, 2), (0, 1)}))
    assert walled.dist_h[2 * 3 + 0] == 9  # H on (0,2): up is the edge, right and down blocked: 3N


def test_takes_the_winning_move():
    s = board("4\n+ + + +\n+ + + H\n+ + + +\n+ V + V")
    ai = AlphaBetaPlayer(time_s=None, max_depth=3)
    r = ai.search(s)
    assert r.move == Move(3, 2, RIGHT)
    assert r.score == WIN - 1


def test_sees_a_forced_win_in_a_race():
    # H needs 3 moves, V needs 4: H to move wins the race whatever V does
    s = board("4\n+ + + +\n+ H + +\n+ + + +\n+ + + V")
    r = AlphaBetaPlayer(time_s=None, max_depth=9).search(s)
    assert r.score == WIN - 5  # H's third move is the fifth ply
    assert r.move.direction is RIGHT


def test_races_when_ahead():
    # V needs 2 moves, H needs 4 and cannot get in the way: V goes straight up
    s = board("4\n+ + + +\n+ V + +\nH + + +\n+ + + +", "V")
    r = AlphaBetaPlayer(time_s=None, max_depth=7).search(s)
    assert r.move == Move(1, 2, UP)
    assert r.score == WIN - 3


def test_passes_when_it_must():
    s = parse_text(open_fixture("input3.txt"), to_move="V")
    r = AlphaBetaPlayer(time_s=None, max_depth=4).search(s)
    assert r.move is PASS and r.depth == 0


def open_fixture(name):
    from pathlib import Path

    return (Path(__file__).parent / "data" / "slider" / name).read_text()


def test_limited_search_is_deterministic():
    s = GAME.setup(seed=5, n=6)
    a = AlphaBetaPlayer(time_s=None, max_nodes=3000).search(s)
    b = AlphaBetaPlayer(time_s=None, max_nodes=3000).search(s)
    assert a == b
    assert a.nodes == 3001 and a.move in s.legal_moves()
    c = AlphaBetaPlayer(time_s=None, max_depth=3).search(s)
    assert c.depth == 3 and c.move in s.legal_moves()


def test_needs_a_limit_and_refuses_finished_games():
    with pytest.raises(ValueError, match="at least one limit"):
        AlphaBetaPlayer(time_s=None)
    s = board("3\n+ + +\n+ + H\n+ V +").apply(Move(2, 1, RIGHT))
    with pytest.raises(ValueError, match="game is over"):
        AlphaBetaPlayer(time_s=None, max_depth=2).search(s)


def _play(ai_side, opponent, n, seed, depth=4, max_plies=300):
    state = GAME.setup(seed=seed, n=n)
    ai = AlphaBetaPlayer(time_s=None, max_depth=depth)
    plies = 0
    while not state.is_over and plies < max_plies:
        player = ai if state.to_move is ai_side else opponent
        state = state.apply(player.choose(state))
        plies += 1
    return state.winner


def test_beats_random_and_greedy_players_on_small_boards():
    results = []
    for seed in range(6):
        side = Side.H if seed % 2 else Side.V
        results.append(_play(side, RandomPlayer(seed), 4, seed) is side)
        results.append(_play(side, GreedyPlayer(seed), 4, seed) is side)
    assert results == [True] * 12


def test_greedy_player_prefers_leaving_then_forward():
    s = board("4\n+ + + +\n+ + + H\nH + + +\n+ V + +")
    assert GreedyPlayer(0).choose(s) == Move(3, 2, RIGHT)
    s = board("4\n+ + + +\n+ + + +\nH + + +\n+ V + +")
    assert GreedyPlayer(0).choose(s) == Move(0, 1, RIGHT)
