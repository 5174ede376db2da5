"""Steppin' Stones rules: the text's two worked examples move by move, every movement rule, win and loss."""

from dataclasses import replace

import pytest

import rules
from rules.errors import IllegalMove
from rules.pieces import SUITS, Coin, DieFace, Rank
from rules.steppin_stones.game import GAME
from rules.steppin_stones.state import BadOptions, EndTurn, Flip, Move, Stone, cell_name, coin_ends_exact, holes, home_cells, perft, roll_faces, setup, with_roll
from steppin_stones_helpers import die, endgame, position, sq, walled_in

S, M, C, A = SUITS
FACE = {"0": DieFace.NULL, "*": DieFace.SUIT, "2": DieFace.TWO, "3": DieFace.THREE, "4": DieFace.FOUR, "5": DieFace.FIVE}


def faces(text):
    return [FACE[t] for t in text.split()]


def codes(state):
    """{square name: code} of every coin on the board."""
    return {cell_name(cell): p.code for cell, p in state.board.items() if p is not None}


# ---------------------------------------------------------------------------- setup and dice


def test_registered_under_its_name():
    assert rules.get("steppin-stones") is GAME
    assert GAME.title == "Steppin' Stones"


def test_start_layout_coins_around_their_tiles_pawns_in_the_middle():
    state = setup(seed=0)
    assert GAME.to_json(state)["board"] == [
        [None, None, "S5", None, None, "M5", None, None],
        [None, None, "S4", None, None, "M4", None, None],
        ["S3", "S2", "Sn", None, None, "Mn", "M2", "M3"],
        [None] * 8,
        [None] * 8,
        ["A3", "A2", "An", None, None, "Cn", "C2", "C3"],
        [None, None, "A4", None, None, "C4", None, None],
        [None, None, "A5", None, None, "C5", None, None],
    ]
    assert state.pawns == ((3, 3), (3, 4), (4, 4), (4, 3))
    assert home_cells(S, 8) == {(0, 0), (0, 1), (1, 0), (1, 1)}
    assert home_cells(C, 8) == {(6, 6), (6, 7), (7, 6), (7, 7)}
    # every coin touches its home tile (side or corner): "Coins go around the tile of the same suit"
    for cell, coin in state.board.items():
        if coin is not None:
            home = home_cells(coin.suit, 8)
            assert min(max(abs(cell[0] - h[0]), abs(cell[1] - h[1])) for h in home) == 1
    assert not any(isinstance(p, Coin) and p.rank is Rank.ACE for p in state.board.values())
    assert [d.phase for d in state.dice] == [1, 1, 1, 1] and [d.suit for d in state.dice] == list(SUITS)
    assert state.turn == 1 and state.status == "playing"


def test_the_caller_rolls_from_the_seed_and_turn_so_games_replay():
    a, b = setup(seed=11), setup(seed=11)
    assert a == b
    assert [d.face for d in a.dice] == roll_faces(11, 1, SUITS)
    assert [d.face for d in GAME.apply(a, EndTurn()).dice] == roll_faces(11, 2, SUITS)
    # every face turns up over a few rolls, and rolls differ between turns
    seen = {f for t in range(1, 40) for f in roll_faces(3, t, SUITS)}
    assert seen == set(DieFace)
    assert len({tuple(roll_faces(3, t, SUITS)) for t in range(1, 40)}) > 30


def test_players_own_dice_replace_the_roll():
    state = with_roll(setup(seed=1), faces("* 0 4 2"))
    assert [(d.suit, d.face, d.phase, d.left) for d in state.dice] == [
        (S, DieFace.SUIT, 1, 1),
        (M, DieFace.NULL, 1, 1),
        (C, DieFace.FOUR, 1, 1),
        (A, DieFace.TWO, 1, 1),
    ]
    with pytest.raises(IllegalMove, match="expected 4 die faces"):
        with_roll(state, faces("* 0 4"))


def test_bad_options():
    with pytest.raises(BadOptions, match="aces must be 0, 2 or 4"):
        setup(seed=1, aces=3)
    with pytest.raises(BadOptions, match="larger board uses them all"):
        setup(seed=1, aces=2, large=True)
    with pytest.raises(BadOptions, match="needs aces"):
        setup(seed=1, ace_stones=True)
    with pytest.raises(BadOptions, match="unknown option"):
        setup(seed=1, players=2)


# ---------------------------------------------------------------------------- the worked examples


def test_first_example_0_4_2_star_move_by_move():
    """'0 4 2 *' on the first roll: the 2 down one and right one, the 4 down two (over the null
    and the two) and left two, then the 2 turned over as the Suns stepping stone."""
    state = with_roll(setup(seed=0), faces("* 0 4 2"))  # Suns die shows the suit; 0, 4, 2 on the others
    # the roll forces a Suns flip: ending the turn now is not allowed
    assert EndTurn() not in GAME.legal_moves(state)
    with pytest.raises(IllegalMove, match="flip a Red coin"):
        GAME.apply(state, EndTurn())
    # "He may not move a Null (well he can - just zero spaces)"
    with pytest.raises(IllegalMove, match="may not move at all"):
        GAME.apply(state, Move(sq("c3"), sq("c4")))

    state = GAME.apply(state, Move(sq("b3"), sq("c4")))  # Red 2: down one, right one
    assert state.board[sq("c4")] == Coin(S, Rank.TWO) and state.board[sq("b3")] is None
    # the 4 now has the null and the two straight below it, and passes over both
    assert state.board[sq("c3")] == Coin(S, Rank.NULL)
    state = GAME.apply(state, Move(sq("c2"), sq("a4")))  # Red 4: down two, left two
    assert state.board[sq("a4")] == Coin(S, Rank.FOUR)
    state = GAME.apply(state, Flip(sq("c4")))  # "turns the 2 over making it his stepping stone"
    assert state.board[sq("c4")] == Stone(S)

    assert codes(state) == {
        "c1": "S5", "a3": "S3", "c3": "Sn", "a4": "S4", "c4": "S",
        "f1": "M5", "f2": "M4", "f3": "Mn", "g3": "M2", "h3": "M3",
        "a6": "A3", "b6": "A2", "c6": "An", "c7": "A4", "c8": "A5",
        "f6": "Cn", "g6": "C2", "h6": "C3", "f7": "C4", "f8": "C5",
    }  # fmt: skip
    assert [d.left for d in state.dice] == [0, 1, 0, 0]  # only the null is unused, and it can do nothing
    assert GAME.legal_moves(state) == [EndTurn()]
    # "On his next turn he begins by rolling all the dice again."
    after = GAME.apply(state, EndTurn())
    assert after.turn == 2 and [d.left for d in after.dice] == [1, 1, 1, 1]


def _second_example():
    """Suns and Moons all stepping stones; Crowns 3 and 5 and Arms 2 still show values.
    Dice: Arms 4 and Crowns 3 (phase 1), Suns 2 and Moons 5 (phase 2)."""
    return position(
        {
            # Suns: five stepping stones
            "c1": "S", "c2": "S", "c3": "S", "c4": "S", "a3": "S",
            # Moons: five stepping stones
            "f1": "M", "f2": "M", "f3": "M", "g3": "M", "h3": "M",
            # Crowns: the 3 and 5 show values, null, 2 and 4 are stones
            "h6": "C3", "f7": "C5", "f6": "C", "g6": "C", "f8": "C",
            # Arms: the 2 shows its value, the rest are stones
            "b6": "A2", "a6": "A", "c6": "A", "c7": "A", "c8": "A",
        },
        start=False,
        roll=[die("S", "2", 2), die("M", "5", 2), die("C", "3", 1), die("A", "4", 1)],
    )  # fmt: skip


def test_second_example_phase_two_move_by_move():
    state = _second_example()
    assert [d.phase for d in state.dice] == [2, 2, 1, 1]
    assert [d.left for d in state.dice] == [2, 5, 1, 1]
    # the Black pawn cannot move yet: there is no Black stepping stone beside it
    with pytest.raises(IllegalMove, match="steps only on Black stepping stones"):
        GAME.apply(state, Move(sq("e4"), sq("f4")))

    # "He moves the 3 of crowns three spaces": over two Green stones (each counts 1)
    state = GAME.apply(state, Move(sq("h6"), sq("e6")))
    assert state.board[sq("e6")] == Coin(C, Rank.THREE)
    # "... and can do nothing with the 4 of Arms": no coin shows a 4
    assert not [m for m in GAME.legal_moves(state) if isinstance(m, Move) and isinstance(state.board[m.frm], Coin)]
    # "He decides to move one Sun Stepping stone two space."
    state = GAME.apply(state, Move(sq("a3"), sq("a5")))
    assert state.die(S).left == 0
    # "He moves a moon stepping stone 3 spaces (bringing it beside his pawn)"
    state = GAME.apply(state, Move(sq("h3"), sq("f4")))
    assert state.die(M).left == 2
    # "and then moves his pawn onto this stone"
    state = GAME.apply(state, Move(sq("e4"), sq("f4")))
    assert state.pawn(M) == sq("f4") and state.board[sq("f4")] == Stone(M)
    assert state.die(M).left == 1
    # "With the final point remaining he moves a second moon coin."
    state = GAME.apply(state, Move(sq("g3"), sq("g4")))
    assert state.die(M).left == 0
    assert GAME.legal_moves(state) == [EndTurn()]
    assert codes(state)["a5"] == "S" and codes(state)["g4"] == "M" and "h3" not in codes(state)


# ---------------------------------------------------------------------------- phase 1 movement


def test_phase_one_value_moves_exactly_its_value_over_lower_coins_only():
    state = with_roll(setup(seed=0), faces("* 0 4 2"))
    # Blue 2 on b6: the Blue 3 beside it is not lower (blocks), the Blue Null is (passed over),
    # the Blue 4 below the null blocks the end square; b7 is an empty home square.
    assert coin_ends_exact(state, sq("b6"), 2) == {sq(n) for n in ("b4", "a5", "c5", "b8", "a7", "d6")}
    # Red 2 on b3: the Red 3 on a3 cannot be passed, the Red 4 cannot be landed on
    assert coin_ends_exact(state, sq("b3"), 2) == {sq(n) for n in ("b1", "a2", "b5", "a4", "c4", "d3")}
    moves_from_b6 = sorted(m.to for m in GAME.legal_moves(state) if isinstance(m, Move) and m.frm == sq("b6"))
    assert moves_from_b6 == sorted(sq(n) for n in ("b4", "a5", "c5", "b8", "a7", "d6"))
    # exactly the value: the 2 may not stop after one square
    with pytest.raises(IllegalMove, match="exactly 2 squares"):
        GAME.apply(state, Move(sq("b6"), sq("b5")))
    # a coin never ends on another coin (here the Red Null right below the Red 4)
    with pytest.raises(IllegalMove, match="exactly 4"):
        GAME.apply(state, Move(sq("c2"), sq("c3")))
    # no die shows 5: the 5s stay put
    with pytest.raises(IllegalMove, match="shows 5"):
        GAME.apply(state, Move(sq("c1"), sq("d5")))


def test_phase_one_dice_are_colour_blind_and_each_moves_one_coin():
    state = with_roll(setup(seed=0), faces("2 3 4 2"))
    # the Red die's 2 may move a Blue 2, the Blue die's 2 a Red 2
    state = GAME.apply(state, Move(sq("b6"), sq("a5")))
    state = GAME.apply(state, Move(sq("b3"), sq("b5")))
    assert [d.left for d in state.dice] == [0, 1, 1, 0]
    # both 2s spent: a third 2 may not move
    with pytest.raises(IllegalMove, match="shows 2"):
        GAME.apply(state, Move(sq("g3"), sq("g5")))


def test_coins_never_pass_over_or_land_on_pawns():
    state = position({"c4": "S3", "a3": None}, roll=[die("S", "3", 1), die("M", "n", 1), die("C", "n", 1), die("A", "n", 1)])
    # Red 3 on c4, the Red pawn on d4 right beside it: e4 holds the Black pawn
    ends = coin_ends_exact(state, sq("c4"), 3)
    assert sq("e4") not in ends and sq("d4") not in ends
    assert sq("f4") not in ends  # would need to pass both pawns in a line
    with pytest.raises(IllegalMove):
        GAME.apply(state, Move(sq("c4"), sq("f4")))


def test_stepping_stone_counts_one_for_passing():
    # the Red Null on c3 is a stepping stone now, the Red 2 stands on c4 below it
    state = position(
        {"b3": None, "c4": "S2", "c3": "S"},
        roll=[die("S", "2", 1), die("M", "n", 1), die("C", "n", 1), die("A", "n", 1)],
    )
    ends = coin_ends_exact(state, sq("c4"), 2)
    assert sq("b3") in ends and sq("d3") in ends  # up over the stone (1 < 2), then left or right
    assert sq("d4") not in ends and sq("c2") not in ends  # a pawn's square, the Red 4's square


# ---------------------------------------------------------------------------- flips


def test_suit_roll_forces_a_flip_of_that_suit_player_chooses_which():
    state = with_roll(setup(seed=0), faces("0 * 0 0"))
    flips = [m for m in GAME.legal_moves(state) if isinstance(m, Flip)]
    assert flips == [Flip(sq(n)) for n in ("f1", "f2", "f3", "g3", "h3")]
    assert GAME.legal_moves(state)[-1] != EndTurn()
    with pytest.raises(IllegalMove, match="only when the Red die shows the Suns"):
        GAME.apply(state, Flip(sq("c1")))
    with pytest.raises(IllegalMove, match="no coin on d1"):
        GAME.apply(state, Flip(sq("d1")))
    after = GAME.apply(state, Flip(sq("f3")))  # the Black Null, by choice
    assert after.board[sq("f3")] == Stone(M)
    assert GAME.legal_moves(after) == [EndTurn()]
    with pytest.raises(IllegalMove, match="already a stepping stone"):
        GAME.apply(after, Flip(sq("f3")))


def test_highest_first_variant_flips_from_the_top_down():
    state = with_roll(setup(seed=0, highest_first=True), faces("* 0 0 0"))
    assert [m for m in GAME.legal_moves(state) if isinstance(m, Flip)] == [Flip(sq("c1"))]  # the Red 5
    with pytest.raises(IllegalMove, match="highest first"):
        GAME.apply(state, Flip(sq("c3")))
    state = GAME.apply(state, Flip(sq("c1")))
    state = with_roll(GAME.apply(state, EndTurn()), faces("* 0 0 0"))
    assert [m for m in GAME.legal_moves(state) if isinstance(m, Flip)] == [Flip(sq("c2"))]  # then the Red 4


def test_last_flip_puts_the_suit_in_phase_two_from_the_next_roll():
    state = position(
        {"c1": "S", "c2": "S", "b3": "S", "a3": "S"},
        roll=[die("S", "s", 1), die("M", "n", 1), die("C", "n", 1), die("A", "n", 1)],
    )
    state = GAME.apply(state, Flip(sq("c3")))  # the Red Null, last Red value
    assert state.in_phase_two(S) and state.die(S).phase == 1  # this roll's die keeps its phase
    state = with_roll(GAME.apply(state, EndTurn()), faces("* 0 0 0"))
    assert state.die(S).phase == 2 and state.die(S).left == 6  # "the suit counts for 6 moves"
    assert state.die(M).phase == 1


# ---------------------------------------------------------------------------- phase 2


def _all_red_stones(roll_face, pawns=None, extra=None):
    pieces = {"c1": "S", "c2": "S", "c3": "S", "b3": "S", "a3": "S"}
    pieces.update(extra or {})
    return position(
        pieces,
        pawns=pawns,
        roll=[die("S", roll_face, 2), die("M", "n", 1), die("C", "n", 1), die("A", "n", 1)],
    )


def test_phase_two_null_gives_one_square_suit_six_shared_among_coins_and_pawn():
    state = _all_red_stones("n")
    assert state.die(S).left == 1
    # one square, orthogonal: c3 -> d3 yes, the diagonal d2 never
    assert GAME.apply(state, Move(sq("c3"), sq("d3"))).die(S).left == 0
    with pytest.raises(IllegalMove, match="within 1 square"):
        GAME.apply(state, Move(sq("c3"), sq("d2")))

    state = _all_red_stones("s")
    assert state.die(S).left == 6
    # c3 -> d6: down c4, c5, over the Blue Null on c6, then d6 (d4 and d5 hold pawns)
    state = GAME.apply(state, Move(sq("c3"), sq("d6")))
    assert state.die(S).left == 2
    state = GAME.apply(state, Move(sq("c1"), sq("e1")))  # 2 more, another coin
    assert state.die(S).left == 0
    with pytest.raises(IllegalMove, match="spent"):
        GAME.apply(state, Move(sq("a3"), sq("a4")))


def test_phase_two_stone_passes_no_stone_and_pays_for_the_detour():
    # Red stones on a3 and a4 (b3 moved down): a3 -> a5 cannot go over a4, so b3 b4 b5 a5
    state = _all_red_stones("5", extra={"b3": None, "a4": "S"})
    after = GAME.apply(state, Move(sq("a3"), sq("a5")))
    assert after.die(S).left == 1
    with pytest.raises(IllegalMove, match="within 1 square"):
        GAME.apply(after, Move(sq("a4"), sq("a6")))
    # the Blue home tile is walled by the Blue 3, 2, 4 and 5 (all above 1): no stone gets in
    walled = _all_red_stones("s")
    assert not [m for m in GAME.legal_moves(walled) if isinstance(m, Move) and m.to in home_cells(A, 8)]
    with pytest.raises(IllegalMove, match="passes over Null coins only"):
        GAME.apply(walled, Move(sq("a3"), sq("a7")))
    # coins showing values may not use a phase-2 die
    with pytest.raises(IllegalMove, match="shows 3"):
        GAME.apply(walled, Move(sq("h3"), sq("h4")))


def test_pawn_waits_for_phase_two_then_steps_only_on_its_own_stones():
    state = with_roll(setup(seed=0), faces("5 5 5 5"))
    with pytest.raises(IllegalMove, match="only once all the Red coins are stepping stones"):
        GAME.apply(state, Move(sq("d4"), sq("d3")))
    # phase 2, a Red stone on c4 beside the Red pawn on d4
    state = _all_red_stones("s", extra={"c3": None, "c4": "S"})
    with pytest.raises(IllegalMove, match="steps only on Red stepping stones"):
        GAME.apply(state, Move(sq("d4"), sq("d3")))  # an empty square that is not home
    with pytest.raises(IllegalMove, match="steps only on Red stepping stones"):
        GAME.apply(state, Move(sq("d4"), sq("e4")))  # the Black pawn's square
    after = GAME.apply(state, Move(sq("d4"), sq("c4")))
    assert after.pawn(S) == sq("c4") and after.die(S).left == 5
    # naming the square moves the pawn, not the stone under it; no Red stone is next to c4
    with pytest.raises(IllegalMove, match="steps only on Red"):
        GAME.apply(after, Move(sq("c4"), sq("c5")))
    assert [m for m in GAME.legal_moves(after) if isinstance(m, Move) and m.frm == sq("c4")] == []


def test_pawn_home_takes_its_die_out_and_stays():
    state = _all_red_stones("s", pawns={"S": "c3"})
    # Red pawn on its stone on c3; Red stones on c2, c1, b3, a3; home tile a1 b1 a2 b2
    ends = {m.to for m in GAME.legal_moves(state) if isinstance(m, Move) and m.frm == sq("c3")}
    assert ends == {sq(n) for n in ("c2", "c1", "b3", "a3", "b2", "b1", "a2")}  # a1 touches no Red stone
    state = GAME.apply(state, Move(sq("c3"), sq("a2")))  # over b3 and a3, then home: 3 squares
    assert state.is_home(S)
    assert state.die(S) is None and [d.suit for d in state.dice] == [M, C, A]
    assert [d.suit for d in GAME.apply(state, EndTurn()).dice] == [M, C, A]
    with pytest.raises(IllegalMove, match="home and stays"):
        GAME.apply(state, Move(sq("a2"), sq("a3")))


# ---------------------------------------------------------------------------- end of the game


def test_win_when_the_last_pawn_gets_home():
    state = endgame("n", "c1")
    assert not GAME.is_over(state)
    state = GAME.apply(state, Move(sq("c1"), sq("b1")))
    assert state.won and state.status == "won" and GAME.is_over(state)
    assert GAME.legal_moves(state) == [] and state.dice == ()
    with pytest.raises(IllegalMove, match="all four pawns are home"):
        GAME.apply(state, EndTurn())


def test_perft_counts_the_actions_of_this_roll_by_hand():
    # Red Null (1 square): pawn c1 -> b1 (home), d1, c2 (stones): 3; stone d1 -> e1, d2: 2;
    # stone c2 -> b2, d2, c3: 3; stone a5 -> a4: 1; stone b5 -> b4, c5: 2. Total 11, and
    # after any of them the die is spent.
    state = endgame("n", "c1")
    assert perft(state, 0) == 1
    assert perft(state, 1) == 11
    assert perft(state, 2) == 0
    assert rules.perft(GAME, state, 1) == 11  # the generic command uses the game's own count


def test_loss_when_no_roll_can_ever_move_anything():
    state = walled_in()
    assert state.lost and state.status == "lost" and GAME.is_over(state)
    assert GAME.legal_moves(state) == []
    with pytest.raises(IllegalMove, match="no legal move is left"):
        GAME.apply(state, EndTurn())
    # open one wall (the Black stone on a3 moved away): the Red stone on a2 can step out
    opened = walled_in({"a3": None, "e2": "M"})
    assert not opened.lost and Move(sq("a2"), sq("a3")) in GAME.legal_moves(opened)


def test_a_roll_with_nothing_to_do_is_not_a_loss():
    # all Red stones walled except that the Red pawn is far away; only a 1-square roll is in hand
    state = walled_in({"a3": None, "e2": "M"})
    spent = replace(state, dice=(replace(state.dice[0], left=0),))
    assert GAME.legal_moves(spent) == [EndTurn()] and not GAME.is_over(spent)


# ---------------------------------------------------------------------------- variants


def test_aces_variant_fixed_aces_never_move_flip_or_get_jumped():
    state = setup(seed=5, aces=4)
    aces = {p.suit: cell for cell, p in state.board.items() if isinstance(p, Coin) and p.rank is Rank.ACE}
    assert sorted(aces, key=SUITS.index) == list(SUITS)
    for suit, cell in aces.items():
        assert cell not in home_cells(suit, 8) and cell not in state.pawns
        assert 1 <= min(abs(cell[0] - h[0]) + abs(cell[1] - h[1]) for h in home_cells(suit, 8)) <= 5
    two = setup(seed=5, aces=2)
    assert sum(isinstance(p, Coin) and p.rank is Rank.ACE for p in two.board.values()) == 2
    assert not state.in_phase_two(S)  # an ace is not a value still to flip
    cell = aces[S]
    with pytest.raises(IllegalMove, match="never moves"):
        GAME.apply(state, Move(cell, (3, 0) if cell != (3, 0) else (3, 1)))
    state_flip = with_roll(state, faces("* 0 0 0"))
    with pytest.raises(IllegalMove, match="never be flipped"):
        GAME.apply(state_flip, Flip(cell))


def test_an_ace_cannot_be_jumped_even_by_a_5_and_ace_stones_carry_any_pawn():
    opts = {"aces": 4, "ace_stones": True}
    aces = {"d3": "Sa", "e3": "Ma", "e6": "Ca", "d6": "Aa"}
    roll = [die("S", "5", 1), die("M", "n", 1), die("C", "n", 1), die("A", "n", 1)]
    state = position({**aces, "c1": None, "d2": "S5"}, roll=roll, options=opts)
    # Red 5 on d2: d3 below is an ace, so it cannot go straight down through it
    assert sq("d7") not in coin_ends_exact(state, sq("d2"), 5)
    # the Red pawn on d4 (Red coins not all stones) may not use the ace yet; a phase-2 pawn may
    red_done = position(
        {**aces, "c1": "S", "c2": "S", "c3": "S", "b3": "S", "a3": "S"},
        roll=[die("S", "2", 2), die("M", "n", 1), die("C", "n", 1), die("A", "n", 1)],
        options=opts,
    )
    after = GAME.apply(red_done, Move(sq("d4"), sq("d3")))  # onto the Red Ace
    assert after.pawn(S) == sq("d3")
    after = GAME.apply(after, Move(sq("d3"), sq("c3")))  # then its own stone
    assert after.pawn(S) == sq("c3")
    hard = position(
        {**aces, "c1": "S", "c2": "S", "c3": "S", "b3": "S", "a3": "S"},
        roll=[die("S", "2", 2), die("M", "n", 1), die("C", "n", 1), die("A", "n", 1)],
        options={"aces": 4},
    )
    with pytest.raises(IllegalMove, match="steps only on Red"):
        GAME.apply(hard, Move(sq("d4"), sq("d3")))


def test_larger_board_has_an_empty_middle_that_nothing_enters():
    state = setup(seed=2, large=True)
    assert state.size == 10 and state.board.shape == (10, 10)
    assert holes(state.options) == {(4, 4), (4, 5), (5, 4), (5, 5)}
    assert set(state.pawns) == holes(state.options)  # the pawns start on the missing tile's squares
    assert home_cells(C, 10) == {(8, 8), (8, 9), (9, 8), (9, 9)}
    for move in GAME.legal_moves(state):
        if isinstance(move, Move):
            assert move.to not in holes(state.options)


def test_random_seeded_games_keep_invariants():
    """Seeded random play: every state round-trips through JSON and each die is spent at most its worth."""
    import random

    for seed in range(6):
        rng = random.Random(seed)
        state = setup(seed=seed, highest_first=seed % 2 == 1)
        for _ in range(120):
            assert GAME.from_json(GAME.to_json(state)) == state
            moves = GAME.legal_moves(state)
            if not moves:
                assert GAME.is_over(state)
                break
            state = GAME.apply(state, rng.choice(moves))
            assert all(0 <= d.left <= d.budget for d in state.dice)

