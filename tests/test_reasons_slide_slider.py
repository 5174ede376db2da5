"""Slide and Slider illegal moves as data: each raises an IllegalMove whose ``reason`` holds the
exact code, cells and pieces, whose message is the old English (``reasons.text``), and whose
spoken line the phrasebook builds from the fields alone."""

import io

import pytest

from caller.referees import slide as slide_referee
from caller.referees import slider as slider_referee
from rules.errors import IllegalMove
from rules.grid import Direction
from rules.reasons import Reason
from rules.slide import reasons as slide_reasons
from rules.slide.state import Push, Reveal, SlideState, deal
from rules.slide.state import Side as Edge
from rules.slider import reasons as slider_reasons
from rules.slider.explain import move_between
from rules.slider.state import PASS, Move, Side, SliderState, setup
from voice.phrasebook import slide as slide_phrases
from voice.phrasebook import slider as slider_phrases

H, V = Side.H, Side.V
UP, DOWN, LEFT, RIGHT = Direction.UP, Direction.DOWN, Direction.LEFT, Direction.RIGHT


def caught(call) -> IllegalMove:
    with pytest.raises(IllegalMove) as info:
        call()
    return info.value


# ---------------------------------------------------------------- Slide


def _reveals():
    """Seed 1, player 1 first: both players have revealed (player 1 at row 1, column 2); the middle is 6 7."""
    return deal(1, 2, 0).apply(Reveal((0, 1))).apply(Reveal((2, 2)))


def _round_two():
    """Round 2, player 2 to reveal, with the 7 they pushed in face up at row 1, column 3."""
    state = _reveals()
    state = state.apply(Push(state.middle[0], Edge.LEFT))
    return state.apply(state.legal_moves()[0])


def _over():
    state = deal(1, 2, 0)
    while not state.is_over:
        state = state.apply(state.legal_moves()[0])
    return state


SLIDE_CASES = {
    "game-over": (
        lambda: _over().apply(Reveal((0, 0))),
        Reason(slide_reasons.GAME_OVER, pieces=(Reveal((0, 0)),)),
        "the game is over: no more moves (reveal 1 1)",
    ),
    "game-over-push": (
        lambda: _over().apply(Push(3, Edge.LEFT)),
        Reason(slide_reasons.GAME_OVER, pieces=(Push(3, Edge.LEFT),)),
        "the game is over: no more moves (push 3 left)",
    ),
    "must-push": (
        lambda: _reveals().apply(Reveal((1, 1))),
        Reason(slide_reasons.MUST_PUSH, pieces=(Reveal((1, 1)),), number=0),
        "player 1 must push a card from the middle, not reveal 2 2: everyone has revealed this round",
    ),
    "must-reveal": (
        lambda: deal(1, 2, 0).apply(Push(5, Edge.LEFT)),
        Reason(slide_reasons.MUST_REVEAL, pieces=(Push(5, Edge.LEFT),), number=0),
        "player 1 must first reveal a face-down card, not push 5 left",
    ),
    "off-grid": (
        lambda: deal(1, 2, 0).apply(Reveal((4, 0))),
        Reason(slide_reasons.OFF_GRID, ((4, 0),), number=0),
        "player 1 cannot reveal cell (4, 0): expected (row, col) with each 0..3",
    ),
    "off-grid-negative": (
        lambda: deal(1, 2, 1).apply(Reveal((-1, 0))),
        Reason(slide_reasons.OFF_GRID, ((-1, 0),), number=1),
        "player 2 cannot reveal cell (-1, 0): expected (row, col) with each 0..3",
    ),
    "already-face-up": (
        lambda: _round_two().apply(Reveal((0, 2))),
        Reason(slide_reasons.ALREADY_FACE_UP, ((0, 2),), (7,), number=1),
        "player 2 cannot reveal the 7 at row 1, column 3: it is already face up",
    ),
    "no-such-card": (
        lambda: _reveals().apply(Push(99, Edge.LEFT)),
        Reason(slide_reasons.NO_SUCH_CARD, pieces=(99,), was=(6, 7), number=0),
        "player 1 cannot take a 99: it is not in the middle (6, 7)",
    ),
    "hole-on-edge": (
        lambda: _reveals().apply(Push(6, Edge.TOP)),
        Reason(slide_reasons.HOLE_ON_EDGE, ((0, 1),), (Edge.TOP,), number=0),
        "player 1 cannot push from the top: the hole at row 1, column 2 is on that edge, "
        "and a card may not go straight into the hole",
    ),
}


@pytest.mark.parametrize("case", sorted(SLIDE_CASES))
def test_slide_illegal_moves_carry_their_reason(case):
    call, reason, message = SLIDE_CASES[case]
    exc = caught(call)
    assert exc.reason == reason
    assert (exc.reason.code, exc.reason.cells, exc.reason.pieces, exc.reason.was, exc.reason.number) == (
        reason.code, reason.cells, reason.pieces, reason.was, reason.number)
    assert str(exc) == message
    assert slide_reasons.text(exc.reason) == message
    # the referee's spoken line: the same words as before, built from the fields
    assert slide_phrases.illegal_line(exc.reason) == f"Illegal move: {message}."


@pytest.mark.parametrize(
    "state, move, message",
    [
        (deal(1, 2, 0), "reveal 1 1", "not a Slide move: 'reveal 1 1'; expected a Reveal or a Push"),
        (deal(1, 2, 0), Reveal([0, 0]), "player 1 cannot reveal cell [0, 0]: expected (row, col) with each 0..3"),
        (deal(1, 2, 0), Reveal((0, "a")), "player 1 cannot reveal cell (0, 'a'): expected (row, col) with each 0..3"),
        (_reveals(), Push(True, Edge.LEFT), "player 1 cannot take a True: it is not in the middle (6, 7)"),
        (_reveals(), Push("6", Edge.LEFT), "player 1 cannot take a '6': it is not in the middle (6, 7)"),
        (_reveals(), Push(6, "left"), "player 1 cannot push from 'left': expected top, bottom, left or right"),
    ],
)
def test_slide_programming_errors_have_no_reason(state, move, message):
    exc = caught(lambda: state.apply(move))
    assert exc.reason is None and str(exc) == message
    assert slide_phrases.illegal_line(None) == "Illegal move: that is not a Slide move."


# ---------------------------------------------------------------- Slider


def _start():
    """4x4, (2,2) blocked, Horizontal to move: H on (0,1) (0,2) (0,3), V on (1,0) (2,0) (3,0)."""
    return setup(n=4, blocked=[(2, 2)], first="H")


def _board(h, v, blocked=(), to_move=H, passes=0):
    return SliderState(4, frozenset(h), frozenset(v), frozenset(blocked), to_move, passes)


_WON = _board([], [(1, 0)], to_move=V)  # every H piece is off: Horizontal has won

# name: (the call, its Reason, the message, what the referee says after "Illegal move: ")
SLIDER_CASES = {
    "game-over": (
        lambda: _WON.apply(Move(1, 0, UP)),
        Reason(slider_reasons.GAME_OVER, pieces=(Move(1, 0, UP),)),
        "the game is over; no move (1,0): UP is possible",
        "the game is over; no move (1,0): UP is possible",
    ),
    "game-over-tie": (
        lambda: _board([(0, 1)], [(1, 0)], passes=2).apply(PASS),
        Reason(slider_reasons.GAME_OVER, pieces=(PASS,)),
        "the game is over; no move pass is possible",
        "the game is over; no move pass is possible",
    ),
    "must-move": (
        lambda: _start().apply(PASS),
        Reason(slider_reasons.MUST_MOVE, pieces=(H,)),
        "Horizontal may pass only when they have no legal move",
        "Horizontal may pass only when they have no legal move",
    ),
    "off-board": (
        lambda: _start().apply(Move(5, 5, RIGHT)),
        Reason(slider_reasons.OFF_BOARD, ((5, 5), (6, 5)), (H,), number=4),
        "illegal move (5,5): RIGHT: Horizontal has no piece on (5,5) (off the board)",
        "Horizontal has no piece on (5,5) (off the board)",
    ),
    "no-piece-empty": (
        lambda: _start().apply(Move(2, 3, RIGHT)),
        Reason(slider_reasons.NO_PIECE, ((2, 3), (3, 3)), (H, None)),
        "illegal move (2,3): RIGHT: Horizontal has no piece on (2,3) (empty)",
        "Horizontal has no piece on (2,3) (empty)",
    ),
    "no-piece-other-side": (
        lambda: _start().apply(Move(1, 0, RIGHT)),
        Reason(slider_reasons.NO_PIECE, ((1, 0), (2, 0)), (H, V)),
        "illegal move (1,0): RIGHT: Horizontal has no piece on (1,0) (holds V)",
        "Horizontal has no piece on (1,0) (holds V)",
    ),
    "no-piece-block": (
        lambda: _start().apply(Move(2, 2, RIGHT)),
        Reason(slider_reasons.NO_PIECE, ((2, 2), (3, 2)), (H, "B")),
        "illegal move (2,2): RIGHT: Horizontal has no piece on (2,2) (holds B)",
        "Horizontal has no piece on (2,2) (holds B)",
    ),
    "backwards": (
        lambda: _start().apply(Move(0, 1, LEFT)),
        Reason(slider_reasons.BACKWARDS, ((0, 1), (-1, 1)), (H,)),
        "illegal move (0,1): LEFT: Horizontal may not move left",
        "Horizontal may not move left",
    ),
    "backwards-vertical": (
        lambda: _board([(0, 2)], [(1, 1)], to_move=V).apply(Move(1, 1, DOWN)),
        Reason(slider_reasons.BACKWARDS, ((1, 1), (1, 0)), (V,)),
        "illegal move (1,1): DOWN: Vertical may not move down",
        "Vertical may not move down",
    ),
    "wrong-edge": (
        lambda: _start().apply(Move(0, 3, UP)),
        Reason(slider_reasons.WRONG_EDGE, ((0, 3), (0, 4)), (H,)),
        "illegal move (0,3): UP: Horizontal may leave the board only off the right edge",
        "Horizontal may leave the board only off the right edge",
    ),
    "wrong-edge-vertical": (
        lambda: _board([(0, 2)], [(3, 1)], to_move=V).apply(Move(3, 1, RIGHT)),
        Reason(slider_reasons.WRONG_EDGE, ((3, 1), (4, 1)), (V,)),
        "illegal move (3,1): RIGHT: Vertical may leave the board only off the top edge",
        "Vertical may leave the board only off the top edge",
    ),
    "occupied-block": (
        lambda: _board([(1, 2)], [(1, 1)], [(2, 2)]).apply(Move(1, 2, RIGHT)),
        Reason(slider_reasons.OCCUPIED, ((1, 2), (2, 2)), (H, "B")),
        "illegal move (1,2): RIGHT: square (2,2) is blocked",
        "square (2,2) is blocked",
    ),
    "occupied-other-side": (
        lambda: _board([(1, 2)], [(1, 1)], [(2, 2)]).apply(Move(1, 2, DOWN)),
        Reason(slider_reasons.OCCUPIED, ((1, 2), (1, 1)), (H, V)),
        "illegal move (1,2): DOWN: square (1,1) is taken by V",
        "square (1,1) is taken by V",
    ),
    "occupied-own-side": (
        lambda: _start().apply(Move(0, 1, UP)),
        Reason(slider_reasons.OCCUPIED, ((0, 1), (0, 2)), (H, H)),
        "illegal move (0,1): UP: square (0,2) is taken by H",
        "square (0,2) is taken by H",
    ),
}


@pytest.mark.parametrize("case", sorted(SLIDER_CASES))
def test_slider_illegal_moves_carry_their_reason(case):
    call, reason, message, spoken = SLIDER_CASES[case]
    exc = caught(call)
    assert exc.reason == reason
    assert (exc.reason.code, exc.reason.cells, exc.reason.pieces, exc.reason.number) == (
        reason.code, reason.cells, reason.pieces, reason.number)
    assert str(exc) == message
    assert slider_reasons.text(exc.reason) == message
    # the referee says what is wrong without the move the player has just typed, as before
    assert slider_phrases.illegal_line(exc.reason) == f"Illegal move: {spoken}."


def test_move_reason_is_apply_s_verdict_and_none_for_a_legal_move():
    state = _start()
    for move in (Move(0, 1, LEFT), Move(2, 3, RIGHT), Move(0, 3, UP), Move(0, 1, UP)):
        assert state.move_reason(H, move) == caught(lambda: state.apply(move)).reason
    assert state.move_reason(H, Move(0, 1, RIGHT)) is None
    assert state.move_reason(V, Move(3, 0, UP)) is None  # whoever is to move
    assert _board([(3, 1)], [(1, 0)]).move_reason(H, Move(3, 1, RIGHT)) is None  # off its own edge


@pytest.mark.parametrize(
    "state, move, message",
    [
        (_start(), "(0,1): RIGHT", "'(0,1): RIGHT' is not a Slider move: expected a Move or PASS"),
        (_WON, "(1,0): UP", "the game is over; no move (1,0): UP is possible"),
    ],
)
def test_slider_programming_errors_have_no_reason(state, move, message):
    exc = caught(lambda: state.apply(move))
    assert exc.reason is None and str(exc) == message
    assert slider_phrases.illegal_line(None) == "Illegal move: that is not a Slider move."


def test_an_illegal_change_seen_carries_the_explain_verdict():
    before = _start()
    after = _board([(0, 2), (0, 3)], [(1, 0), (2, 0), (3, 0)], [(2, 2)])  # the H on (0,1) left the board
    exc = caught(lambda: move_between(before, after))
    assert exc.reason == Reason(slider_reasons.LEFT_BOARD, ((0, 1),), (H,), number=3)
    assert str(exc) == slider_reasons.text(exc.reason)


# ---------------------------------------------------------------- every code has its text and its words


@pytest.mark.parametrize(
    "module, cases, phrases",
    [(slide_reasons, SLIDE_CASES, slide_phrases), (slider_reasons, SLIDER_CASES, slider_phrases)],
    ids=["slide", "slider"],
)
def test_every_move_code_is_listed_tested_written_and_spoken(module, cases, phrases):
    constants = {v for k, v in vars(module).items() if k.isupper() and isinstance(v, str)}
    assert constants == set(module.CODES) and len(module.CODES) == len(set(module.CODES))
    assert set(module.MOVE_CODES) <= set(module.CODES) and len(module.MOVE_CODES) == len(set(module.MOVE_CODES))
    tested = set()
    for case in cases.values():
        why = caught(case[0]).reason
        tested.add(why.code)
        assert module.text(why) and phrases.illegal(why)
    assert tested == set(module.MOVE_CODES)
    for code in module.CODES:
        assert f"``{code.upper().replace('-', '_')}``" in module.__doc__  # its fields are documented
    with pytest.raises(ValueError, match="not-a-code"):
        module.text(Reason("not-a-code"))
    with pytest.raises(ValueError, match="not-a-code"):
        phrases.illegal(Reason("not-a-code"))


# ---------------------------------------------------------------- the referees speak from the reason


def test_the_referees_say_the_reason_not_the_message(monkeypatch):
    def refusing(apply, kinds, why):
        def refuse(state, move):
            if isinstance(move, kinds):
                raise IllegalMove("an English message nobody should hear", why)
            return apply(state, move)

        return refuse

    why = Reason(slide_reasons.NO_SUCH_CARD, pieces=(5,), was=(1, 6), number=0)
    monkeypatch.setattr(SlideState, "apply", refusing(SlideState.apply, (Reveal, Push), why))
    out = io.StringIO()
    slide_referee.main(["--seed", "1", "--first", "1"], io.StringIO("1 3\nquit\n"), out)
    assert "Caller: Illegal move: player 1 cannot take a 5: it is not in the middle (1, 6)." in out.getvalue()
    assert "nobody should hear" not in out.getvalue()

    why = Reason(slider_reasons.BACKWARDS, ((0, 1), (-1, 1)), (H,))
    monkeypatch.setattr(SliderState, "apply", refusing(SliderState.apply, Move, why))
    out = io.StringIO()
    args = slider_referee.build_parser().parse_args(["--n", "4", "--blocked", "2,2", "--first", "H"])
    slider_referee.run(args, io.StringIO("(0,1): RIGHT\nquit\n"), out)
    assert "Caller: Illegal move: Horizontal may not move left." in out.getvalue()
    assert "nobody should hear" not in out.getvalue()
