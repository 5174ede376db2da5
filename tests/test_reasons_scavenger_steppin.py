"""Scavenger Hunt and Steppin' Stones verdicts as data: each illegal move raises an IllegalMove
whose ``reason`` holds the exact code, squares and pieces, whose message is the old English
(``reasons.text``), and whose spoken line the phrasebook builds from the fields alone."""

import io

import pytest

from caller.referees import scavenger_hunt as sh_referee
from caller.referees import steppin_stones as ss_referee
from rules.errors import IllegalMove, MalformedPosition
from rules.grid import Direction, Grid
from rules.pieces import SUITS, Coin, DieFace, Rank, Suit
from rules.reasons import Reason
from rules.scavenger_hunt import reasons as sh_reasons
from rules.scavenger_hunt.explain import Observed, explain
from rules.scavenger_hunt.game import GAME as HUNT
from rules.scavenger_hunt.state import Shift, Turn, check_placement, placement_problem, placement_reason
from rules.steppin_stones import reasons as ss_reasons
from rules.steppin_stones.game import GAME as STONES
from rules.steppin_stones.state import EndTurn, Flip, Move, Stone, setup, with_roll
from scavenger_hunt_positions import lone_coins, position
from steppin_stones_helpers import endgame, sq, walled_in
from voice.phrasebook import scavenger_hunt as sh_phrases
from voice.phrasebook import steppin_stones as ss_phrases

R, L = Direction.RIGHT, Direction.LEFT
S, M, C, A = SUITS
FACE = {"0": DieFace.NULL, "*": DieFace.SUIT, "2": DieFace.TWO, "3": DieFace.THREE, "4": DieFace.FOUR, "5": DieFace.FIVE}


def faces(text):
    return [FACE[t] for t in text.split()]


def caught(call) -> IllegalMove:
    with pytest.raises(IllegalMove) as info:
        call()
    return info.value


# ---------------------------------------------------------------- Scavenger Hunt


def _rooks():
    """Red on 4,1 and Black on 6,1; a Red Null on 4,5 (R4> moves none of them)."""
    return position({(3, 4): "Sn", (6, 1): "Mn"}, [(3, 0), (5, 0)])


def _peeks(pawns=((7, 0), (0, 11)), **kw):
    """A Red Null on 8,5 and a Red 3 on 5,5; Red on 8,1, Black on 1,12 unless ``pawns`` says otherwise."""
    return position({(7, 4): "Sn", (2, 9): "Mn", (4, 4): "S3"}, list(pawns), **kw)


def _won():
    return HUNT.apply(lone_coins(), Turn(Shift("row", 3, R), (7, 6)))


def _reversing():
    return lone_coins(last_shifts=[None, {"line": "row", "index": 3, "direction": "right"}])


def _observed(state, pawns, moves=None):
    coins = state.coins
    for a, b in (moves or {}).items():
        coins = coins.set(a, None).set(b, coins[a])
    return Observed(tuple(pawns), coins)


HUNT_CASES = {
    "past-coin": (
        lambda: HUNT.apply(_rooks(), Turn(Shift("row", 3, R), (3, 6))),
        Reason(sh_reasons.PAST_COIN, ((3, 4),), (Coin(S, Rank.NULL),)),
        "the pawn stops on the first coin it passes: the coin on 4,5",
    ),
    "past-pawn": (
        lambda: HUNT.apply(_rooks(), Turn(Shift("row", 3, R), (7, 0))),
        Reason(sh_reasons.PAST_PAWN, ((5, 0),), (M,)),
        "the pawn may not pass the Black pawn on 6,1",
    ),
    "onto-pawn": (
        lambda: HUNT.apply(_rooks(), Turn(Shift("row", 3, R), (5, 0))),
        Reason(sh_reasons.ONTO_PAWN, ((5, 0),), (M,)),
        "square 6,1 holds the Black pawn",
    ),
    "diagonal": (
        lambda: HUNT.apply(_rooks(), Turn(Shift("row", 3, R), (4, 1))),
        Reason(sh_reasons.DIAGONAL, ((3, 0), (4, 1))),
        "the pawn moves like a rook, in a straight line; 4,1 to 5,2 is diagonal",
    ),
    "off-board": (
        lambda: HUNT.apply(_rooks(), Turn(Shift("row", 3, R), (9, 0))),
        Reason(sh_reasons.OFF_BOARD, ((9, 0),)),
        "square 10,1 is off the board (rows 1-8, columns 1-12)",
    ),
    "must-move": (
        lambda: HUNT.apply(lone_coins(), Turn(Shift("row", 0, R), (7, 0))),
        Reason(sh_reasons.MUST_MOVE, ((7, 0), (6, 0)), (S,)),
        "the Red pawn on 8,1 can move (for example to 7,1), so it must move",
    ),
    "wrong-peek": (
        lambda: HUNT.apply(_peeks(), Turn(Shift("row", 0, R), (7, 4), False)),
        Reason(sh_reasons.WRONG_PEEK, ((7, 4),), (Coin(S, Rank.NULL), S)),
        "the coin on 8,5 is the Red Null: Red collects it",
    ),
    "wrong-peek-other-suit": (
        lambda: HUNT.apply(_peeks([(7, 0), (4, 11)], to_move=1), Turn(Shift("row", 0, R), (4, 4), True)),
        Reason(sh_reasons.WRONG_PEEK, ((4, 4),), (Coin(S, Rank.THREE), M)),
        "the coin on 5,5 is the Red 3: Black cannot collect it",
    ),
    "no-coin": (
        lambda: HUNT.apply(_peeks(), Turn(Shift("row", 0, R), (7, 2), True)),
        Reason(sh_reasons.NO_COIN, ((7, 0), (7, 2))),
        "there is no coin to collect: the pawn ends on 8,3 without peeking",
    ),
    "no-coin-stays": (
        lambda: HUNT.apply(lone_coins(must_move=False), Turn(Shift("row", 0, R), (7, 0), True)),
        Reason(sh_reasons.NO_COIN, ((7, 0), (7, 0))),
        "there is no coin to collect: the pawn stays on 8,1 without peeking",
    ),
    "say-peek": (
        lambda: HUNT.apply(lone_coins(mode="public"), Turn(Shift("row", 0, R), (7, 4))),
        Reason(sh_reasons.SAY_PEEK, ((7, 4),), (Rank.NULL,)),
        "the pawn ends on the Null coin on 8,5: say whether it was collected (+) or not (-)",
    ),
    "already-held": (
        lambda: HUNT.apply(_peeks([(7, 0), (4, 11)], to_move=1, mode="public"), Turn(Shift("row", 0, R), (4, 4), True)),
        Reason(sh_reasons.ALREADY_HELD, ((4, 4),), (M, Rank.THREE)),
        "Black already holds a 3; a second one cannot match",
    ),
    "game-over": (
        lambda: HUNT.apply(_won(), Turn(Shift("row", 0, R), (0, 1))),
        Reason(sh_reasons.GAME_OVER, pieces=(S,)),
        "the game is over: Red has collected all six coins",
    ),
    "reversed": (
        lambda: HUNT.apply(_reversing(), Turn(Shift("row", 3, L), (7, 9))),
        Reason(sh_reasons.REVERSED, pieces=(Shift("row", 3, L), M)),
        "shift R4< reverses Black's shift R4>; not allowed until Black has completed another turn",
    ),
    "explain-reversed": (
        lambda: explain(_reversing(), _observed(_reversing(), [(7, 9), (0, 11)], {(7, 4): (7, 2)})),
        Reason(sh_reasons.REVERSED, pieces=(Shift("row", 3, L), M)),
        "shift R4< reverses Black's shift R4>; not allowed until Black has completed another turn",
    ),
    "explain-past-coin": (
        lambda: explain(lone_coins(), _observed(lone_coins(), [(7, 8), (0, 11)])),
        Reason(sh_reasons.PAST_COIN, ((7, 4),), (Coin(S, Rank.NULL),)),
        "the pawn stops on the first coin it passes: the coin on 8,5",
    ),
    "wrong-pawn": (
        lambda: explain(lone_coins(), _observed(lone_coins(), [(7, 0), (0, 10)])),
        Reason(sh_reasons.WRONG_PAWN, ((0, 11), (0, 10)), (S, M)),
        "it is Red's turn, but the Black pawn moved from 1,12 to 1,11",
    ),
    "no-shift": (
        lambda: explain(lone_coins(), _observed(lone_coins(), [(6, 0), (0, 11)], {(2, 9): (3, 3)})),
        Reason(sh_reasons.NO_SHIFT),
        "no shift of one row or column of tiles by one tile explains where the coins and pawns went",
    ),
    "explain-game-over": (
        lambda: explain(_won(), _won()),
        Reason(sh_reasons.GAME_OVER, pieces=(S,)),
        "the game is over: Red has collected all six coins",
    ),
}


@pytest.mark.parametrize("case", sorted(HUNT_CASES))
def test_scavenger_hunt_illegal_turns_carry_their_reason(case):
    call, reason, message = HUNT_CASES[case]
    exc = caught(call)
    assert exc.reason == reason
    assert (exc.reason.code, exc.reason.cells, exc.reason.pieces) == (reason.code, reason.cells, reason.pieces)
    assert str(exc) == message
    assert sh_reasons.text(exc.reason) == message
    # the referee's spoken line: the same words as before, built from the fields
    assert sh_phrases.illegal_line(exc.reason) == f"Illegal move: {message}."


EMPTY = Grid.filled((8, 12))


@pytest.mark.parametrize(
    "coins, cell, reason, message",
    [
        (EMPTY, (0, 5), Reason(sh_reasons.EDGE, ((0, 5),)),
         "square 1,6 is an outside-edge square; coins go on inner squares only"),
        (EMPTY, (8, 3), Reason(sh_reasons.OFF_BOARD, ((8, 3),)),
         "square 9,4 is off the board (rows 1-8, columns 1-12)"),
        (EMPTY.set((3, 4), Coin.parse("S2")), (2, 5), Reason(sh_reasons.TILE_TAKEN, ((2, 5), (3, 4)), (Coin(S, Rank.TWO),)),
         "the tile of square 3,6 already holds the coin on 4,5; one coin per tile"),
    ],
)
def test_placement_verdicts_are_reasons(coins, cell, reason, message):
    assert placement_reason(coins, cell) == reason
    assert placement_problem(coins, cell) == message
    assert sh_phrases.illegal(reason) == message
    assert placement_reason(EMPTY, (1, 1)) is None and placement_problem(EMPTY, (1, 1)) is None


def test_a_bad_placement_is_a_malformed_position_with_its_reason():
    with pytest.raises(MalformedPosition) as info:
        check_placement(EMPTY.set((7, 6), Coin.parse("Ma")))
    assert info.value.reason == Reason(sh_reasons.EDGE, ((7, 6),))
    assert str(info.value) == "coin placement: square 8,7 is an outside-edge square; coins go on inner squares only"


@pytest.mark.parametrize(
    "turn, message",
    [
        ("R1>", "not a Scavenger Hunt turn: 'R1>'; expected a Turn(shift, to, collect)"),
        (Turn("R1>", (0, 0)), "not a shift: 'R1>'"),
        (Turn(Shift("row", 0, R), [7, 1]), "bad destination [7, 1]: expected a (row, col) square"),
    ],
)
def test_scavenger_hunt_programming_errors_have_no_reason(turn, message):
    exc = caught(lambda: HUNT.apply(lone_coins(), turn))
    assert exc.reason is None and str(exc) == message
    assert sh_phrases.illegal_line(None) == "Illegal move: that is not a Scavenger Hunt turn."


# ---------------------------------------------------------------- Steppin' Stones


def _first_roll():
    return with_roll(setup(seed=0), faces("* 0 4 2"))


def _spent():
    """The endgame with the Red Null die spent on the stone d1 -> e1."""
    return STONES.apply(endgame("n", "c1"), Move(sq("d1"), sq("e1")))


def _aces():
    state = setup(seed=5, aces=4)
    cell = next(c for c, p in state.board.items() if isinstance(p, Coin) and p.rank is Rank.ACE and p.suit is S)
    return state, cell


def _ace_move():
    state, cell = _aces()
    return STONES.apply(state, Move(cell, (3, 0) if cell != (3, 0) else (3, 1)))


def _ace_flip():
    state, cell = _aces()
    return STONES.apply(with_roll(state, faces("* 0 0 0")), Flip(cell))


STONES_CASES = {
    "flip-owed": (
        lambda: STONES.apply(_first_roll(), EndTurn()),
        Reason(ss_reasons.FLIP_OWED, pieces=(S,)),
        "the Red die shows the Suns: flip a Red coin before ending the turn",
    ),
    "null-move": (
        lambda: STONES.apply(_first_roll(), Move(sq("c3"), sq("c4"))),
        Reason(ss_reasons.NULL_MOVE, (sq("c3"), sq("c4")), (Coin(S, Rank.NULL),)),
        "the Red Null on c3 may not move at all (a Null moves zero squares)",
    ),
    "coin-out-of-reach": (
        lambda: STONES.apply(_first_roll(), Move(sq("b3"), sq("b4"))),
        Reason(ss_reasons.COIN_OUT_OF_REACH, (sq("b3"), sq("b4")), (Coin(S, Rank.TWO),), number=2),
        "the Red 2 on b3 cannot reach b4 in exactly 2 squares: it must end on an empty square "
        "and may pass only over coins of lower value (a stepping stone counts 1)",
    ),
    "no-die": (
        lambda: STONES.apply(_first_roll(), Move(sq("c1"), sq("d5"))),
        Reason(ss_reasons.NO_DIE, (sq("c1"), sq("d5")), (Coin(S, Rank.FIVE),), number=5),
        "the Red 5 moves only when a phase-1 die shows 5, and none is left in this roll",
    ),
    "nothing-there": (
        lambda: STONES.apply(_first_roll(), Move(sq("a1"), sq("a2"))),
        Reason(ss_reasons.NOTHING_THERE, (sq("a1"), sq("a2"))),
        "there is nothing on a1 to move",
    ),
    "off-board": (
        lambda: STONES.apply(_first_roll(), Move((8, 0), (0, 0))),
        Reason(ss_reasons.OFF_BOARD, ((8, 0),), number=8),
        "square (8, 0) is not on the 8x8 board",
    ),
    "dice-count": (
        lambda: with_roll(setup(seed=0), [DieFace.NULL]),
        Reason(ss_reasons.DICE_COUNT, pieces=(S, M, C, A), number=1),
        "expected 4 die faces, one for each of S M C A, got 1",
    ),
    "flip-no-die": (
        lambda: STONES.apply(with_roll(setup(seed=0), faces("0 * 0 0")), Flip(sq("c1"))),
        Reason(ss_reasons.FLIP_NO_DIE, (sq("c1"),), (Coin(S, Rank.FIVE),)),
        "the Red 5 may be flipped only when the Red die shows the Suns",
    ),
    "no-coin": (
        lambda: STONES.apply(with_roll(setup(seed=0), faces("0 * 0 0")), Flip(sq("d1"))),
        Reason(ss_reasons.NO_COIN, (sq("d1"),)),
        "there is no coin on d1 to flip",
    ),
    "already-stone": (
        lambda: STONES.apply(STONES.apply(with_roll(setup(seed=0), faces("0 * 0 0")), Flip(sq("f3"))), Flip(sq("f3"))),
        Reason(ss_reasons.ALREADY_STONE, (sq("f3"),), (Stone(M),)),
        "the coin on f3 is already a stepping stone",
    ),
    "not-highest": (
        lambda: STONES.apply(with_roll(setup(seed=0, highest_first=True), faces("* 0 0 0")), Flip(sq("c3"))),
        Reason(ss_reasons.NOT_HIGHEST, (sq("c3"),), (Coin(S, Rank.NULL),)),
        "stepping stones go highest first: flip the highest Red coin, not the Red Null",
    ),
    "ace-flip": (
        _ace_flip,
        None,  # the ace's square depends on the seed: checked below
        "the Red Ace on {} may never be flipped",
    ),
    "ace-move": (
        _ace_move,
        None,
        "the Red Ace on {} never moves",
    ),
    "stone-too-early": (
        lambda: STONES.apply(STONES.apply(_first_roll(), Flip(sq("c1"))), Move(sq("c1"), sq("d1"))),
        Reason(ss_reasons.STONE_TOO_EARLY, (sq("c1"), sq("d1")), (Stone(S),)),
        "a Red stepping stone moves only with the Red die once all its coins are stepping stones",
    ),
    "stone-die-spent": (
        lambda: STONES.apply(_spent(), Move(sq("c2"), sq("c3"))),
        Reason(ss_reasons.STONE_DIE_SPENT, (sq("c2"), sq("c3")), (Stone(S),)),
        "a Red stepping stone moves only with the Red die once all its coins are stepping stones, "
        "and that die is spent",
    ),
    "stone-out-of-reach": (
        lambda: STONES.apply(endgame("n", "c1"), Move(sq("a5"), sq("a7"))),
        Reason(ss_reasons.STONE_OUT_OF_REACH, (sq("a5"), sq("a7")), (Stone(S),), number=1),
        "the Red stepping stone on a5 cannot reach a7 within 1 square(s): it ends on an empty square "
        "and passes over Null coins only",
    ),
    "pawn-too-early": (
        lambda: STONES.apply(with_roll(setup(seed=0), faces("5 5 5 5")), Move(sq("d4"), sq("d3"))),
        Reason(ss_reasons.PAWN_TOO_EARLY, (sq("d4"), sq("d3")), (S,)),
        "the Red pawn may move only once all the Red coins are stepping stones",
    ),
    "pawn-die-spent": (
        lambda: STONES.apply(_spent(), Move(sq("c1"), sq("c2"))),
        Reason(ss_reasons.PAWN_DIE_SPENT, (sq("c1"), sq("c2")), (S,)),
        "the Red die is spent for this turn",
    ),
    "pawn-out-of-reach": (
        lambda: STONES.apply(endgame("n", "c1"), Move(sq("c1"), sq("c3"))),
        Reason(ss_reasons.PAWN_OUT_OF_REACH, (sq("c1"), sq("c3")), (S,), number=1),
        "the Red pawn cannot reach c3 within 1 square(s): it steps only on Red stepping stones "
        "and ends on one or on the first square of its home tile it reaches",
    ),
    "pawn-home": (
        lambda: STONES.apply(endgame("n", "c1"), Move(sq("g1"), sq("g2"))),
        Reason(ss_reasons.PAWN_HOME, (sq("g1"), sq("g2")), (M,)),
        "the Black pawn is home and stays there",
    ),
    "won": (
        lambda: STONES.apply(STONES.apply(endgame("n", "c1"), Move(sq("c1"), sq("b1"))), EndTurn()),
        Reason(ss_reasons.WON),
        "the game is over: all four pawns are home",
    ),
    "lost": (
        lambda: STONES.apply(walled_in(), EndTurn()),
        Reason(ss_reasons.LOST),
        "the game is over: no legal move is left",
    ),
}


@pytest.mark.parametrize("case", sorted(STONES_CASES))
def test_steppin_stones_illegal_actions_carry_their_reason(case):
    call, reason, message = STONES_CASES[case]
    exc = caught(call)
    if reason is None:  # an ace: its square comes from the seeded setup
        _, cell = _aces()
        code = ss_reasons.ACE_FLIP if case == "ace-flip" else ss_reasons.ACE_MOVE
        cells = (cell,) if case == "ace-flip" else (cell, (3, 0) if cell != (3, 0) else (3, 1))
        reason = Reason(code, cells, (Coin(S, Rank.ACE),))
        message = message.format(ss_reasons.cell_name(cell))
    assert exc.reason == reason
    assert (exc.reason.code, exc.reason.cells, exc.reason.pieces, exc.reason.number) == (
        reason.code, reason.cells, reason.pieces, reason.number)
    assert str(exc) == message
    assert ss_reasons.text(exc.reason) == message
    assert ss_phrases.illegal_line(exc.reason) == f"Illegal move: {message}."


@pytest.mark.parametrize(
    "action, message",
    [
        ("end", "not a Steppin' Stones move: 'end' (expected Move, Flip or EndTurn)"),
        (Move([0, 0], (0, 1)), "square [0, 0] is not on the 8x8 board"),
    ],
)
def test_steppin_stones_programming_errors_have_no_reason(action, message):
    exc = caught(lambda: STONES.apply(_first_roll(), action))
    assert exc.reason is None and str(exc) == message
    assert ss_phrases.illegal_line(None) == "Illegal move: that is not a Steppin' Stones move."


# ---------------------------------------------------------------- every code has its text and its words


@pytest.mark.parametrize(
    "module, cases, phrases",
    [(sh_reasons, HUNT_CASES, sh_phrases), (ss_reasons, STONES_CASES, ss_phrases)],
    ids=["scavenger-hunt", "steppin-stones"],
)
def test_every_code_is_listed_tested_written_and_spoken(module, cases, phrases):
    constants = {v for k, v in vars(module).items() if k.isupper() and isinstance(v, str)}
    assert constants == set(module.CODES) and len(module.CODES) == len(set(module.CODES))
    tested = set()
    for call, _, _ in cases.values():
        why = caught(call).reason
        tested.add(why.code)
        assert module.text(why) and phrases.illegal(why) == module.text(why)
    placements = {sh_reasons.EDGE, sh_reasons.TILE_TAKEN} if module is sh_reasons else set()
    assert tested | placements == set(module.CODES)
    for code in module.CODES:
        assert f"``{code.upper().replace('-', '_')}``" in module.__doc__  # its fields are documented
    with pytest.raises(ValueError, match="not-a-code"):
        module.text(Reason("not-a-code"))
    with pytest.raises(ValueError, match="not-a-code"):
        phrases.illegal(Reason("not-a-code"))


# ---------------------------------------------------------------- the referees speak from the reason


def test_the_referees_say_the_reason_not_the_message(monkeypatch, capsys):
    why = Reason(sh_reasons.PAST_PAWN, ((5, 0),), (Suit.MOONS,))

    def refusing(apply):
        def refuse(state, move):
            if isinstance(move, (Turn, Move)):
                raise IllegalMove("an English message nobody should hear", why)
            return apply(state, move)

        return refuse

    monkeypatch.setattr(sh_referee.GAME, "apply", refusing(sh_referee.GAME.apply))
    monkeypatch.setattr("sys.stdin", io.StringIO("R4> up 1\nquit\n"))
    sh_referee.main(["--seed", "1", "--players", "2"])
    out = capsys.readouterr().out
    assert "Caller: Illegal move: the pawn may not pass the Black pawn on 6,1." in out
    assert "nobody should hear" not in out

    why = Reason(ss_reasons.PAWN_DIE_SPENT, (sq("d4"), sq("d3")), (Suit.SUNS,))
    monkeypatch.setattr(ss_referee.GAME, "apply", refusing(ss_referee.GAME.apply))
    monkeypatch.setattr("sys.stdin", io.StringIO("d4 d3\nquit\n"))
    ss_referee.main(["--seed", "4"])
    out = capsys.readouterr().out
    assert "Caller: Illegal move: the Red die is spent for this turn." in out
    assert "nobody should hear" not in out
