"""Scavenger Hunt rules engine: setup, shifts with wrap-around, the no-reverse rule, rook moves,
peeks, winning, perft and malformed positions."""

import copy
import json
from collections import Counter

import pytest

import rules
from rules.errors import IllegalMove, MalformedPosition
from rules.grid import Direction, Grid
from rules.scavenger_hunt.state import block_of, on_edge
from rules.pieces import Coin, Rank, Suit
from rules.scavenger_hunt.game import GAME
from rules.scavenger_hunt.state import CORNERS, SHIFTS, Shift, Turn, check_placement, placement_problem, rook_targets
from scavenger_hunt_positions import lone_coins, position

R, L, U, D = Direction.RIGHT, Direction.LEFT, Direction.UP, Direction.DOWN


# ---------------------------------------------------------------- setup


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_deals_one_coin_per_value_per_player_and_places_by_the_rules(players):
    state = GAME.setup(seed=11, players=players)
    suits = (Suit.SUNS, Suit.MOONS, Suit.CROWNS, Suit.ARMS)[:players]
    assert state.players == suits
    assert state.pawns == tuple(CORNERS[i] for i in {2: (0, 2), 3: (0, 1, 2), 4: (0, 1, 2, 3)}[players])
    coins = {cell: m for cell, m in state.coins.items() if m is not None}
    assert sorted(c.code for c in coins.values()) == sorted(s.code + r.code for s in suits for r in Rank)
    assert not any(on_edge(cell, (8, 12)) for cell in coins)
    assert len({block_of(cell, (2, 2)) for cell in coins}) == 6 * players  # one coin per tile
    assert state.collected == ((),) * players and state.last_shifts == (None,) * players
    assert (state.to_move, state.turn, state.mode, state.must_move) == (0, 0, "referee", True)


def test_setup_is_seeded_and_public_mode_forgets_the_suits():
    a, b, c = GAME.setup(seed=5), GAME.setup(seed=5), GAME.setup(seed=6)
    assert GAME.to_json(a) == GAME.to_json(b) and GAME.to_json(a) != GAME.to_json(c)
    public = GAME.setup(seed=5, mode="public")
    assert public.coins.rows == tuple(tuple(None if m is None else m.rank for m in row) for row in a.coins.rows)
    assert GAME.setup(seed=5, must_move=False).must_move is False


@pytest.mark.parametrize("players", [1, 5, True, "4"])
def test_setup_refuses_player_counts_outside_2_to_4(players):
    with pytest.raises(MalformedPosition, match="2 to 4 players"):
        GAME.setup(seed=1, players=players)


def test_placement_rules_one_coin_per_tile_never_on_the_outside_edge():
    empty = Grid.filled((8, 12))
    assert placement_problem(empty, (1, 1)) is None
    assert "outside-edge" in placement_problem(empty, (0, 5))
    assert "outside-edge" in placement_problem(empty, (4, 11))
    assert "off the board" in placement_problem(empty, (8, 3))
    one = empty.set((3, 4), Coin.parse("S2"))
    assert placement_problem(one, (2, 5)) == "the tile of square 3,6 already holds the coin on 4,5; one coin per tile"
    assert placement_problem(one, (3, 6)) is None  # the next tile
    check_placement(one.set((5, 5), Coin.parse("Ma")))
    with pytest.raises(MalformedPosition, match="outside-edge"):
        check_placement(one.set((7, 6), Coin.parse("Ma")))


def test_setup_with_a_given_placement_checks_it():
    coins = GAME.setup(seed=2, players=2).coins
    assert GAME.setup(seed=9, players=2, coins=coins).coins == coins
    cell = next(c for c, m in coins.items() if m is not None)
    moved = coins.set(cell, None).set((0, 2 * (cell[1] // 2)), coins[cell])
    with pytest.raises(MalformedPosition, match="outside-edge"):
        GAME.setup(seed=9, players=2, coins=moved)


# ---------------------------------------------------------------- shifts


def test_shift_values_and_notation():
    assert len(SHIFTS) == 20 and len(set(SHIFTS)) == 20
    assert str(Shift("row", 1, R)) == "R2>" and str(Shift("col", 5, U)) == "C6^"
    assert Shift("row", 0, L).reverse == Shift("row", 0, R)
    # the squares of the tile line a shift moves: tile-row 1 is square rows 2 and 3
    assert [r for r in range(8) if Shift("row", 1, R).carries((r, 5))] == [2, 3]
    assert [c for c in range(12) if Shift("col", 5, U).carries((0, c))] == [10, 11]
    with pytest.raises(rules.NotationError, match="row shifts left or right"):
        Shift("row", 0, U)
    with pytest.raises(rules.NotationError, match="0 to 5"):
        Shift("col", 6, U)


def test_row_shift_wraps_the_pushed_out_tile_with_its_coin_and_pawn():
    # Black's pawn and the Black Null ride on the last tile of tile-row 1 and come back in at the left
    state = position({(1, 10): "Mn", (5, 5): "Sn"}, [(7, 0), (0, 11)])
    coins, pawns = state.shifted(Shift("row", 0, R))
    assert coins[(1, 0)] == Coin.parse("Mn") and coins[(1, 10)] is None
    assert pawns == ((7, 0), (0, 1))
    coins, pawns = state.shifted(Shift("row", 0, L))
    assert coins[(1, 8)] == Coin.parse("Mn") and pawns == ((7, 0), (0, 9))
    # the other tile-rows do not move
    assert coins[(5, 5)] == Coin.parse("Sn")


def test_column_shift_wraps_and_keeps_each_piece_on_its_square_of_the_tile():
    state = position({(6, 1): "Mn", (2, 4): "Sn"}, [(7, 0), (0, 11)])
    coins, pawns = state.shifted(Shift("col", 0, D))
    # the bottom tile of column 1 wraps to the top; its pawn (bottom-left square) and coin
    # (top-right square) keep their places on the tile: no rotation
    assert pawns[0] == (1, 0) and coins[(0, 1)] == Coin.parse("Mn")
    coins, pawns = state.shifted(Shift("col", 0, U))
    assert pawns[0] == (5, 0) and coins[(4, 1)] == Coin.parse("Mn")
    assert coins[(2, 4)] == Coin.parse("Sn")


def test_apply_moves_pieces_with_the_shift_then_the_pawn():
    state = lone_coins(must_move=False)
    after = GAME.apply(state, Turn(Shift("row", 3, L), (7, 10)))  # stay where the wrap put the pawn
    assert after.pawns == ((7, 10), (0, 11))
    assert after.coins[(7, 2)] == Coin.parse("Sn") and after.coins[(7, 4)] is None
    assert (after.to_move, after.turn, after.last_shifts) == (1, 8, (Shift("row", 3, L), None))


# ---------------------------------------------------------------- no reverse


def test_no_player_may_reverse_a_shift_until_its_maker_has_played_again():
    state = GAME.setup(seed=3, players=3)
    r1 = Shift("row", 0, R)
    s1 = GAME.apply(state, next(m for m in GAME.legal_moves(state) if m.shift == r1))  # Red R1>
    assert r1.reverse not in GAME.legal_shifts(s1)
    assert r1 in GAME.legal_shifts(s1)  # the same line again, same direction, is allowed
    with pytest.raises(IllegalMove, match=r"R1< reverses Red's shift R1>; not allowed until Red has completed another turn"):
        GAME.apply(s1, Turn(r1.reverse, s1.pawns[1]))
    c2 = Shift("col", 1, U)
    s2 = GAME.apply(s1, next(m for m in GAME.legal_moves(s1) if m.shift == c2))  # Black C2^
    assert set(SHIFTS) - set(GAME.legal_shifts(s2)) == {r1.reverse, c2.reverse}
    s3 = GAME.apply(s2, next(m for m in GAME.legal_moves(s2) if m.shift == c2))  # Green C2^ too
    assert set(SHIFTS) - set(GAME.legal_shifts(s3)) == {r1.reverse, c2.reverse}  # Red, to move, still barred
    s4 = GAME.apply(s3, next(m for m in GAME.legal_moves(s3) if m.shift == c2))  # Red's next turn, C2^
    assert set(SHIFTS) - set(GAME.legal_shifts(s4)) == {c2.reverse}  # R1< is free again


# ---------------------------------------------------------------- rook moves


def test_rook_targets_stop_on_the_first_coin_and_before_a_pawn():
    state = position({(3, 4): "Sn", (6, 1): "Mn"}, [(3, 0), (5, 0)])
    assert rook_targets(state.coins, state.pawns, 0) == [
        (2, 0), (1, 0), (0, 0),  # up
        (4, 0),  # down: the Black pawn on (5,0) blocks
        (3, 1), (3, 2), (3, 3), (3, 4),  # right: stops on the coin
    ]


@pytest.mark.parametrize(
    "to, message",
    [
        ((3, 6), "the pawn stops on the first coin it passes: the coin on 4,5"),
        ((7, 0), "the pawn may not pass the Black pawn on 6,1"),
        ((5, 0), "square 6,1 holds the Black pawn"),
        ((4, 1), "in a straight line; 4,1 to 5,2 is diagonal"),
        ((9, 0), "square 10,1 is off the board"),
    ],
)
def test_illegal_pawn_moves_say_why(to, message):
    state = position({(3, 4): "Sn", (6, 1): "Mn"}, [(3, 0), (5, 0)])
    with pytest.raises(IllegalMove, match=message.replace("(", r"\(")):
        GAME.apply(state, Turn(Shift("row", 3, R), to))  # R4> moves neither pawn nor these coins


def test_a_pawn_that_can_move_must_move_unless_the_option_is_off():
    state = lone_coins()
    with pytest.raises(IllegalMove, match="the Red pawn on 8,1 can move .for example to 7,1., so it must move"):
        GAME.apply(state, Turn(Shift("row", 0, R), (7, 0)))
    relaxed = lone_coins(must_move=False)
    assert GAME.apply(relaxed, Turn(Shift("row", 0, R), (7, 0))).pawns[0] == (7, 0)
    assert len(GAME.legal_moves(relaxed)) == len(GAME.legal_moves(state)) + 20  # one stay per shift


def test_a_boxed_in_pawn_stays_even_when_it_must_move():
    # Red in the corner, a pawn on each neighbour (three players): after R2> nothing frees it
    state = position({(3, 3): "Sn", (4, 6): "Mn", (5, 9): "Cn"}, [(7, 0), (6, 0), (7, 1)], players="SMC")
    moves = [m for m in GAME.legal_moves(state) if m.shift == Shift("row", 1, R)]
    assert moves == [Turn(Shift("row", 1, R), (7, 0), False)]
    assert GAME.apply(state, moves[0]).pawns[0] == (7, 0)


# ---------------------------------------------------------------- peeks and winning


def test_referee_mode_collects_a_matching_coin_and_leaves_another():
    state = position({(7, 4): "Sn", (2, 9): "Mn", (4, 4): "S3"}, [(7, 0), (0, 11)])
    after = GAME.apply(state, Turn(Shift("row", 0, R), (7, 4)))
    assert after.collected[0] == tuple(Rank.parse(r) for r in "na245") and after.coins[(7, 4)] is None
    # Black ends on the Red 3 and leaves it
    black = position({(7, 4): "Sn", (2, 9): "Mn", (4, 4): "S3"}, [(7, 0), (4, 11)], to_move=1)
    after = GAME.apply(black, Turn(Shift("row", 0, R), (4, 4)))
    assert after.coins[(4, 4)] == Coin.parse("S3") and after.pawns[1] == (4, 4)
    assert after.collected == black.collected


def test_referee_mode_refuses_a_wrong_peek_outcome_and_a_collect_from_nowhere():
    state = position({(7, 4): "Sn", (2, 9): "Mn", (4, 4): "S3"}, [(7, 0), (0, 11)])
    with pytest.raises(IllegalMove, match="the coin on 8,5 is the Red Null: Red collects it"):
        GAME.apply(state, Turn(Shift("row", 0, R), (7, 4), False))
    with pytest.raises(IllegalMove, match="there is no coin to collect"):
        GAME.apply(state, Turn(Shift("row", 0, R), (7, 2), True))


def test_public_mode_needs_the_peek_outcome_and_lists_both():
    state = lone_coins(mode="public")
    to = (7, 4)
    with pytest.raises(IllegalMove, match=r"the pawn ends on the Null coin on 8,5: say whether it was collected \(\+\) or not \(-\)"):
        GAME.apply(state, Turn(Shift("row", 0, R), to))
    left = GAME.apply(state, Turn(Shift("row", 0, R), to, False))
    assert left.coins[to] == Rank.NULL and left.winner is None
    assert [m.collect for m in GAME.legal_moves(state) if m.to == to and m.shift == Shift("row", 0, R)] == [False, True]
    # Black already holds the Ace..5 of its suit, so ending on a 3 cannot be a collect
    black = position({(7, 4): "Sn", (2, 9): "Mn", (4, 4): "S3"}, [(7, 0), (4, 11)], to_move=1, mode="public")
    with pytest.raises(IllegalMove, match="Black already holds a 3"):
        GAME.apply(black, Turn(Shift("row", 0, R), (4, 4), True))


def test_collecting_the_sixth_coin_wins_and_ends_the_game():
    state = lone_coins()
    assert state.winner is None and not GAME.is_over(state)
    won = GAME.apply(state, Turn(Shift("row", 3, R), (7, 6)))  # R4> carries pawn and coin; right 4
    assert won.winner is Suit.SUNS and GAME.is_over(won)
    assert GAME.legal_moves(won) == [] and GAME.perft(won, 1) == 0
    with pytest.raises(IllegalMove, match="the game is over: Red has collected all six coins"):
        GAME.apply(won, Turn(Shift("row", 0, R), (0, 1)))


def test_a_foreign_move_is_illegal():
    with pytest.raises(IllegalMove, match="not a Scavenger Hunt turn"):
        GAME.apply(lone_coins(), "R1>")


# ---------------------------------------------------------------- perft


def test_perft_matches_the_hand_count():
    assert GAME.perft(lone_coins(), 0) == 1
    assert GAME.perft(lone_coins(), 1) == 255
    # public mode: the 16 turns that end on the Red Null each have two outcomes
    assert GAME.perft(lone_coins(mode="public"), 1) == 271
    # Black's last shift R4> bars R4<, whose 16 turns go
    barred = lone_coins(last_shifts=[None, {"line": "row", "index": 3, "direction": "right"}])
    assert GAME.perft(barred, 1) == 255 - 16


def test_perft_depth_2_agrees_with_playing_every_turn():
    state = GAME.setup(seed=4, players=2)
    by_hand = sum(len(GAME.legal_moves(GAME.apply(state, m))) for m in GAME.legal_moves(state))
    assert GAME.perft(state, 2) == by_hand
    assert rules.perft(GAME, state, 1) == len(GAME.legal_moves(state))


# ---------------------------------------------------------------- JSON


def test_json_round_trip_keeps_every_field():
    state = GAME.apply(lone_coins(mode="public", must_move=False), Turn(Shift("col", 2, U), (5, 0)))
    obj = json.loads(json.dumps(GAME.to_json(state)))
    assert obj["last_shifts"] == [{"line": "col", "index": 2, "direction": "up"}, None]
    assert obj["coins"][5][4] == "n" and obj["mode"] == "public" and obj["must_move"] is False
    assert GAME.from_json(obj) == state


def _start_json():
    return GAME.to_json(GAME.setup(seed=1, players=2))


def _mutate(path, value):
    obj = copy.deepcopy(_start_json())
    target = obj
    for key in path[:-1]:
        target = target[key]
    if value is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return obj


@pytest.mark.parametrize(
    "obj, message",
    [
        (_mutate(["game"], "slide"), "for game 'slide'"),
        (_mutate(["extra"], 1), r"unknown keys \['extra'\]"),
        (_mutate(["coins"], KeyError), r"lacks \['coins'\]"),
        (_mutate(["mode"], "secret"), "bad mode 'secret'"),
        (_mutate(["players"], ["S"]), "2 to 4 suit letters"),
        (_mutate(["players"], ["S", "S"]), "repeat a suit"),
        (_mutate(["players"], ["S", "X"]), "unknown suit 'X'"),
        (_mutate(["pawns"], [[7, 0]]), "pawns must be a list of 2"),
        (_mutate(["pawns", 1], [8, 0]), r"pawns\[1\] must be a square"),
        (_mutate(["pawns", 1], [7, 0]), "two pawns on one square"),
        (_mutate(["coins", 1], [None] * 11), "8 rows of 12 cells"),
        (_mutate(["coins", 3, 3], "X3"), r"coins cell \[3,3\]: bad coin 'X3'"),
        (_mutate(["coins", 1, 1], "C3"), r"wrong or missing: \['C3', '[SM]4'\]"),  # a Crowns coin, Sun/Moon 4 gone
        (_mutate(["to_move"], 2), "to_move must be a player index 0 to 1"),
        (_mutate(["turn"], -1), "turn must be a count"),
        (_mutate(["must_move"], "yes"), "must_move must be true or false"),
        (_mutate(["last_shifts", 1], {"line": "row", "index": 0, "direction": "left"}), "turn 0 is the start position"),
        (_mutate(["last_shifts", 0], {"line": "row", "index": 4, "direction": "left"}), "0 to 3"),
        (_mutate(["last_shifts", 0], {"line": "row", "index": 0, "direction": "up"}), "row shifts left or right"),
        (_mutate(["last_shifts", 0], "R1>"), "bad shift 'R1>'"),
        (_mutate(["pawns", 0], [3, 3]), "every pawn stands in a corner"),
    ],
)
def test_malformed_positions_are_refused_with_the_reason(obj, message):
    with pytest.raises(MalformedPosition, match=message):
        GAME.from_json(obj)


def test_positions_that_break_the_coin_invariants_are_refused():
    # two coins on one tile (a coin moved next to another, off its own tile)
    obj = _start_json()
    coins = obj["coins"]
    (r, c) = next((r, c) for r in range(8) for c in range(12) if coins[r][c])
    partner = (r ^ 1, c)  # the other row of the same tile
    coins[partner[0]][partner[1]], other = coins[r][c], None
    for rr in range(8):
        for cc in range(12):
            if (rr, cc) not in ((r, c), partner) and coins[rr][cc] and other is None:
                other = (rr, cc)
    coins[r][c], coins[other[0]][other[1]] = coins[other[0]][other[1]], None
    with pytest.raises(MalformedPosition, match="two coins on one tile"):
        GAME.from_json(obj)
    # a coin both on the board and collected
    with pytest.raises(MalformedPosition, match=r"wrong or missing: \['Sn'\]"):
        position({(7, 4): "Sn", (2, 9): "Mn"}, [(7, 0), (0, 11)], collected=[list("na2345"), list("a2345")])
    # public mode counts values: a 3 too many
    with pytest.raises(MalformedPosition, match=r"wrong for values \['3'\]"):
        position({(7, 4): "Sn", (2, 9): "Mn", (4, 4): "S3"}, [(7, 0), (0, 11)], mode="public",
                 collected=[list("a2345"), list("a2345")])
    # collected values are lower case, once each
    with pytest.raises(MalformedPosition, match=r"collected\[0\]: bad coin value 'A'"):
        position({(7, 4): "Sn", (2, 9): "Mn"}, [(7, 0), (0, 11)], collected=[list("A2345"), list("a2345")])
    with pytest.raises(MalformedPosition, match="repeats a value"):
        position({(7, 4): "Sn", (2, 9): "Mn"}, [(7, 0), (0, 11)], collected=[list("aa2345"), list("a2345")])


def test_the_same_counts_as_values_holds_for_every_setup():
    for seed in range(3):
        state = GAME.setup(seed=seed, mode="public")
        assert Counter(m for m in state.coins.values() if m is not None) == Counter({r: 4 for r in Rank})
