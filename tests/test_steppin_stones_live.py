"""The live Caller calling Steppin' Stones: ``LiveCaller`` with ``SteppinStonesLive``, driven by
exact reader observations made from rules states (``observe``), and through the frame loop
(``Watcher``) with a reader that plays them back."""

from dataclasses import replace

import pytest

from caller.cli import main
from caller.live import LiveCaller
from caller.referees.steppin_stones_live import SteppinStonesLive, Stones, differ, view
from caller.watch import Watcher
from rules.pieces import DieFace as F
from rules.reasons import Reason
from rules.steppin_stones import sightings
from rules.steppin_stones.codec import from_json
from rules.steppin_stones.state import EndTurn, Flip, Move, apply, legal_moves, setup, with_roll
from vision.observation import SquaresObservation
from tests.test_scavenger_hunt_live import PlayBack, frames

CORNERS = ((100.0, 50.0), (500.0, 50.0), (520.0, 440.0), (80.0, 440.0))


def observe(game, dice=None, put=None, uncertain=(), drop_pawn=None, uncertain_dice=()) -> SquaresObservation:
    """What the reader reports of ``game``: its squares and pawns, and the dice of its roll
    (``dice``: ``(suit, face)`` pairs instead); ``put``: {(row, col): code} read instead."""
    board, pawns = view(game)
    grid = [list(row) for row in board]
    for (r, c), code in (put or {}).items():
        grid[r][c] = code
    faces = tuple((d.suit.value, d.face.code) for d in game.dice) if dice is None else tuple(dice)
    conf = tuple(tuple(0.4 if (r, c) in uncertain else 1.0 for c in range(8)) for r in range(8))
    return SquaresObservation(coins=tuple(map(tuple, grid)), pawns=tuple((s, list(c)) for s, c in pawns if s != drop_pawn),
                              square_confidence=conf, uncertain=tuple(uncertain), board_corners=CORNERS, dice=faces,
                              uncertain_dice=tuple(uncertain_dice))


def play(live, game, t, **kw):
    return live.on_position(t, live.referee.reading(observe(game, **kw)))


def said(events):
    return [(e.type, e.say) for e in events]


def moved(game, frm, to):
    """``game``'s board with the piece on ``frm`` set on ``to``, whatever the rules say."""
    return replace(game, board=game.board.set(frm, None).set(to, game.board[frm]))


START = with_roll(setup(seed=0), [F.SUIT, F.TWO, F.THREE, F.NULL])


def test_the_setup_and_the_dice_beside_it_start_the_game_then_each_action_is_said():
    live = LiveCaller(SteppinStonesLive())
    ev = play(live, START, 0.0)
    assert [e.to_json() for e in ev] == [
        {"t": 0.0, "type": "board", "board": [
            [None, None, "S5", None, None, "M5", None, None], [None, None, "S4", None, None, "M4", None, None],
            ["S3", "S2", "Sn", None, None, "Mn", "M2", "M3"], [None] * 8, [None] * 8,
            ["A3", "A2", "An", None, None, "Cn", "C2", "C3"], [None, None, "A4", None, None, "C4", None, None],
            [None, None, "A5", None, None, "C5", None, None]],
         "pawns": {"S": [3, 3], "M": [3, 4], "C": [4, 4], "A": [4, 3]}, "say": None},
        {"t": 0.0, "type": "roll", "turn": 1, "dice": [{"suit": "S", "face": "s"}, {"suit": "M", "face": "2"},
                                                        {"suit": "C", "face": "3"}, {"suit": "A", "face": "n"}],
         "by": "table", "say": "Turn 1. Phase one: Red Suns, Black 2, Green 3 and Blue Null. You must flip a Red "
                              "coin: it becomes a stepping stone."}]
    flipped = apply(START, Flip((0, 2)))
    assert [e.to_json() for e in play(live, flipped, 1.0)] == [
        {"t": 1.0, "type": "flip", "at": [0, 2], "suit": "S", "say": "Red 5 on c1 is now a stepping stone."}]
    # two actions between still moments: the Black 2 die moves the Red 2, the Green 3 the Blue 3
    two = apply(apply(flipped, Move((2, 1), (3, 0))), Move((5, 0), (3, 1)))
    ev = play(live, two, 2.0)
    assert [(e.type, e.data.get("piece"), e.data.get("from"), e.data.get("to")) for e in ev] == [
        ("move", "S2", [2, 1], [3, 0]), ("move", "A3", [5, 0], [3, 1]), ("nothing", None, None, None)]
    assert ev[2].say == "Nothing more can move with these dice. Roll the dice."  # the Blue Null moves nothing


def test_an_illegal_move_is_the_rules_verdict_said_once_after_a_re_read_then_the_board_put_back():
    live = LiveCaller(SteppinStonesLive())
    play(live, START, 0.0)
    flipped = apply(START, Flip((0, 2)))
    play(live, flipped, 1.0)
    bad = moved(flipped, (5, 0), (7, 0))  # the Blue 3 two squares down
    assert play(live, bad, 2.0) == [] and live.suspecting
    assert [e.to_json() for e in play(live, bad, 2.5)] == [
        {"t": 2.5, "type": "illegal", "reason": "the Blue 3 on a6 cannot reach a8 in exactly 3 squares: it must end "
         "on an empty square and may pass only over coins of lower value (a stepping stone counts 1)",
         "cells": [[5, 0], [7, 0]],
         "say": "Illegal move: the Blue 3 on a6 cannot reach a8 in exactly 3 squares: it must end on an empty "
                "square and may pass only over coins of lower value (a stepping stone counts 1)."}]
    assert play(live, bad, 3.0) == []
    assert said(play(live, flipped, 4.0)) == [("restored", "Thank you.")]


def test_a_coin_moved_in_one_go_where_two_moves_of_it_would_take_it_is_judged_as_one_move():
    """With two dice showing 3, the Red 3 could go from a3 to d3 and then on to e3; moved from
    a3 to e3 between two still boards, it is one move of four squares, illegal, and put back it
    is no move of its own (taken as two moves, the move back was said to be illegal)."""
    start = with_roll(setup(seed=0), [F.THREE, F.THREE, F.TWO, F.NULL])
    live = LiveCaller(SteppinStonesLive())
    play(live, start, 0.0)
    bad = moved(start, (2, 0), (2, 4))
    assert play(live, bad, 1.0) == [] and live.suspecting
    assert [(e.type, e.data["cells"], e.data["reason"]) for e in play(live, bad, 1.5)] == [
        ("illegal", [[2, 0], [2, 4]], "the Red 3 on a3 cannot reach e3 in exactly 3 squares: it must end on an empty "
         "square and may pass only over coins of lower value (a stepping stone counts 1)")]
    assert said(play(live, start, 2.5)) == [("restored", "Thank you.")]
    # two moves of it, each seen: both said
    there = apply(start, Move((2, 0), (2, 3)))
    assert [(e.type, e.data["to"]) for e in play(live, there, 3.0)] == [("move", [2, 3])]
    assert [(e.type, e.data["to"]) for e in play(live, apply(there, Move((2, 3), (2, 4))), 4.0)] == [("move", [2, 4])]


def test_a_roll_on_the_table_ends_the_turn_but_not_while_a_flip_is_owed():
    live = LiveCaller(SteppinStonesLive())
    play(live, START, 0.0)
    rolled = [("S", "4"), ("M", "5"), ("C", "s"), ("A", "2")]
    assert play(live, START, 1.0, dice=rolled) == []
    assert said(play(live, START, 1.5, dice=rolled)) == [
        ("illegal", "Illegal move: the Red die shows the Suns: flip a Red coin before ending the turn.")]
    flipped = apply(START, Flip((1, 2)))
    play(live, flipped, 2.0)
    ev = play(live, flipped, 3.0, dice=rolled)
    assert [e.to_json() for e in ev] == [
        {"t": 3.0, "type": "roll", "turn": 2, "dice": [{"suit": "S", "face": "4"}, {"suit": "M", "face": "5"},
                                                        {"suit": "C", "face": "s"}, {"suit": "A", "face": "2"}],
         "by": "table", "say": "Turn 2. Phase one: Red 4, Black 5, Green Crowns and Blue 2. You must flip a Green "
                              "coin: it becomes a stepping stone."}]
    assert live.current.game.turn == 2 and live.current.game.dice[2].pending_flip


def test_a_roll_that_lands_on_the_same_faces_is_seen_once_the_last_roll_is_spent():
    game = with_roll(setup(seed=0), [F.NULL, F.NULL, F.NULL, F.TWO])
    live = LiveCaller(SteppinStonesLive())
    play(live, game, 0.0)
    one = apply(game, Move((2, 1), (3, 0)))  # the 2 spent; the Nulls move nothing
    assert [e.type for e in play(live, one, 1.0)] == ["move", "nothing"]
    # the same faces again, and another 2 moves: the roll is taken as made
    two = apply(with_roll(apply(one, EndTurn()), [F.NULL, F.NULL, F.NULL, F.TWO]), Move((5, 1), (4, 0)))
    assert [(e.type, e.data.get("turn"), e.data.get("to")) for e in play(live, two, 2.0)] == [
        ("roll", 2, None), ("move", None, [4, 0]), ("nothing", None, None)]


def test_with_caller_dice_the_caller_rolls_from_its_seed_once_the_roll_is_spent():
    ref = SteppinStonesLive(dice="caller", seed=5)
    live = LiveCaller(ref)
    game = setup(seed=5)
    ev = play(live, game, 0.0, dice=[("S", "2")])  # dice on the table are not looked at
    assert said(ev)[1:] == [("roll", "Turn 1. Phase one: Red 3, Black 5, Green Crowns and Blue 3. You must flip a "
                                     "Green coin: it becomes a stepping stone.")]
    actions = (Move((0, 2), (0, 1)), Move((2, 0), (3, 0)), Flip((5, 5)), Move((5, 0), (4, 0)))
    state = game
    for action in actions[:3]:
        state = apply(state, action)
    # three actions between two still moments (the reader could not follow) are followed, in
    # an order the roll allows (moves before a flip that could have come either way)
    assert said(play(live, state, 1.0)) == [("move", "Red 5 from c1 to b1."), ("move", "Red 3 from a3 to a4."),
                                            ("flip", "Green Null on f6 is now a stepping stone.")]
    state = apply(state, actions[3])
    ev = play(live, state, 5.0)
    assert said(ev) == [("move", "Blue 3 from a6 to a5."), ("roll", "Turn 2. Phase one: Red 2, Black Moons, Green 4 and "
                                                                  "Blue 4. You must flip a Black coin: it becomes a "
                                                                  "stepping stone.")]
    assert live.current.game == apply(state, EndTurn())


def test_a_suit_whose_last_coin_is_flipped_is_in_phase_2_and_the_pawn_home_wins():
    stones = {"M": [(3, 4), (3, 5), (3, 6), (3, 7), (4, 7)], "C": [(5, 4), (5, 5), (5, 6), (5, 7), (6, 7)],
              "A": [(5, 0), (5, 1), (5, 2), (5, 3), (6, 0)], "S": [(2, 3), (1, 3), (1, 2), (0, 4)]}
    board = [[None] * 8 for _ in range(8)]
    for suit, cells in stones.items():
        for r, c in cells:
            board[r][c] = suit
    board[2][1] = "S2"
    game = from_json({"board": board, "pawns": {"S": [3, 3], "M": [0, 7], "C": [7, 7], "A": [7, 0]},
                      "roll": [{"suit": "S", "face": "s", "phase": 1, "left": 1}]})
    live = LiveCaller(SteppinStonesLive())
    live.current = Stones(game)
    flipped = apply(game, Flip((2, 1)))
    assert said(play(live, flipped, 1.0)) == [("flip", "Red 2 on b3 is now a stepping stone."),
                                             ("phase", "Suns are in phase 2.")]
    rolled = with_roll(apply(flipped, EndTurn()), [F.FOUR])
    home = apply(rolled, Move((3, 3), (1, 1)))
    ev = play(live, home, 2.0, dice=[("S", "4"), ("M", "2")])  # a die out of play is not looked at
    assert said(ev) == [("roll", "Turn 2. Phase two: Red 4, 4 squares."),
                        ("move", "The Red pawn is home on b2! Its die leaves play."),
                        ("won", "All four pawns are home: you win.")]
    assert ev[1].data == {"piece": "@S", "from": [3, 3], "to": [1, 1], "home": True}


def test_a_table_that_is_not_the_setup_is_said_with_its_squares():
    live = LiveCaller(SteppinStonesLive())
    wrong = moved(START, (0, 2), (0, 1))
    assert play(live, wrong, 0.0) == [] and live.suspecting
    assert said(play(live, wrong, 0.5)) == [("illegal", "This is not the setup: look at b1 and c1. Each suit's "
                                                        "coins go around its home tile, and the pawns on the four "
                                                        "middle squares.")]


def test_the_loop_deduces_a_doubtful_square_and_never_judges_a_pawn_in_the_hand():
    flipped = apply(START, Flip((0, 2)))
    after = apply(flipped, Move((5, 0), (3, 1)))
    obs = [observe(START), observe(flipped, uncertain=[(2, 7)], put={(2, 7): "5"}),
           observe(flipped, drop_pawn="M"), observe(after, uncertain=[(3, 1)], put={(3, 1): "2"}),
           observe(after, uncertain_dice=[0, 1, 2, 3])]
    watcher = Watcher(PlayBack(obs), LiveCaller(SteppinStonesLive()))
    held = [(0, 12), (1, 10), (2, 40), (3, 10), (4, 10)]
    events = [e for k, img in enumerate(frames(held)) for e in watcher.process(img, k / 10)]
    assert [(e.type, e.data.get("at") or e.data.get("to")) for e in events] == [
        ("board", None), ("roll", None), ("flip", [0, 2]), ("move", [3, 1])]


@pytest.mark.parametrize("argv, message", [
    (["--game", "steppin-stones", "--dice", "cup"], "--dice 'cup': expected table"),
    (["--game", "steppin-stones", "--seed", "4"], "--seed: the seed of the Caller's own rolls, so it needs --dice caller"),
    (["--game", "steppin-stones", "--seed", "x", "--dice", "caller"], "--seed 'x': expected a whole number"),
    (["--game", "slider", "--dice", "caller"], "--dice: the live Caller of Slider takes no such option"),
])
def test_caller_watch_refuses_bad_dice_options_in_one_line(argv, message, capsys, tmp_path):
    status = main(["watch", str(tmp_path / "none.mp4"), *argv, "--no-voice"])
    out, err = capsys.readouterr()
    assert status == 2 and out == "" and len(err.splitlines()) == 1
    assert err.startswith("caller: error: " + message)


def test_every_sighting_is_written_and_said():
    from voice.phrasebook import steppin_stones as phrases

    cases = {
        sightings.NOT_A_START: ("not the setup: each suit's coins around its home tile (5, 4, Null, 2, 3) and the "
                                "pawns on the four middle squares; look at a1",
                                "This is not the setup: look at a1. Each suit's coins go around its home tile, and "
                                "the pawns on the four middle squares."),
        sightings.UNEXPLAINED: ("no action of the roll leaves the board seen; look at a1",
                                "Illegal move: no action of this roll leaves that board. Look at a1."),
        sightings.NO_ROLL: ("a piece moved before the dice were rolled beside the board; look at a1",
                            "Roll the dice beside the board before you move. Look at a1."),
    }
    assert set(cases) == set(sightings.CODES)
    for code, (text, words) in cases.items():
        why = Reason(code, ((0, 0),))
        assert sightings.text(why) == text
        assert phrases.live_illegal(why) == words



def test_blank_nulls_and_one_coin_read_as_empty_squares_are_still_the_board():
    """The reader often misses a blank Null (which never moves), and now and then another coin
    or takes one for another value: the setup still starts once read the same way for a while,
    and moves are followed."""
    nulls = {(2, 2): None, (2, 5): None, (5, 2): None, (5, 5): None}
    after = apply(START, Flip((1, 2)))
    obs = [observe(START, put={**nulls, (7, 2): None}), observe(after, put=nulls),
           observe(after, put={**nulls, (0, 5): "3"})]
    watcher = Watcher(PlayBack(obs), LiveCaller(SteppinStonesLive()))
    held = [(0, 12), (1, 10), (2, 10)]
    events = [e for k, img in enumerate(frames(held)) for e in watcher.process(img, k / 10)]
    # the M5 read as a 3 where it lay: the reader's slip, not a change
    assert [(e.type, e.data.get("at")) for e in events] == [("board", None), ("roll", None), ("flip", [1, 2])]


def test_an_illegal_pawn_move_is_judged_though_the_null_behind_it_reads_as_a_doubtful_empty_square():
    """The Black pawn moved before its coins are stones, onto the square in front of the Black
    Null: the pawn half hides the Null, which reads as a doubtful empty square. A reading that
    lacks a coin is never judged (it may be in the hand), but a Null never moves: the reading
    is taken once it holds, and the move is said to be illegal."""
    bad = replace(START, pawns=(START.pawns[0], (3, 5)) + START.pawns[2:])
    obs = [observe(START), observe(bad, uncertain=[(2, 5)], put={(2, 5): None})]
    watcher = Watcher(PlayBack(obs), LiveCaller(SteppinStonesLive()))
    events = [e for k, img in enumerate(frames([(0, 12), (1, 30)])) for e in watcher.process(img, k / 10)]
    assert [(e.type, e.data.get("reason")) for e in events] == [
        ("board", None), ("roll", None),
        ("illegal", "the Black pawn may move only once all the Black coins are stepping stones")]


def test_an_illegal_move_is_judged_while_a_die_and_a_square_beside_it_read_doubtfully_but_steadily():
    """The Blue 3 moved two squares down (the Green die's 3 cannot take it there), while the Black
    die reads doubtfully on every read (taken as read: it has read 2 all along) and the Black 2
    beside it is a doubtful square (dice against the board's edge shade both). The reads hold:
    the board is taken as read and the move said to be illegal. (The reads were compared with
    the die as the reader gave it and the current one as steadied, so that none agreed with the
    last and the illegal move was never judged.)"""
    bad = moved(START, (5, 0), (7, 0))
    obs = [observe(START), observe(bad, uncertain=[(2, 6)], uncertain_dice=[1])]
    watcher = Watcher(PlayBack(obs), LiveCaller(SteppinStonesLive()))
    events = [e for k, img in enumerate(frames([(0, 12), (1, 30)])) for e in watcher.process(img, k / 10)]
    assert [(e.type, e.data.get("reason"), e.data.get("cells")) for e in events] == [
        ("board", None, None), ("roll", None, None),
        ("illegal", "the Blue 3 on a6 cannot reach a8 in exactly 3 squares: it must end on an empty square and "
                    "may pass only over coins of lower value (a stepping stone counts 1)", [[5, 0], [7, 0]])]


def test_of_the_boards_a_doubtful_read_agrees_with_the_one_that_needs_fewest_slips_is_taken():
    """The Sun 3 moved from a3 read plainly while the Sun 2 beside it is doubtful: the board
    could also be the 2 moved there with the 3 missed and the 2 misread (two slips), but the
    move read plainly (no slip) is the one said."""
    after = apply(START, Move((2, 0), (2, 3)))
    obs = [observe(START), observe(after, uncertain=[(2, 1)])]
    watcher = Watcher(PlayBack(obs), LiveCaller(SteppinStonesLive()))
    events = [e for k, img in enumerate(frames([(0, 12), (1, 12)])) for e in watcher.process(img, k / 10)]
    assert [(e.type, e.data.get("piece"), e.data.get("from"), e.data.get("to")) for e in events] == [
        ("board", None, None, None), ("roll", None, None, None), ("move", "S3", [2, 0], [2, 3])]


def test_the_setup_starts_though_a_doubtful_square_reads_differently_from_one_read_to_the_next():
    """A doubtful square whose reading flickers (the Moon 2 read as a 3, then as nothing) does
    not keep the setup from starting: every read agrees with it on what it is sure of."""
    flicker = [observe(START, uncertain=[(2, 6)], put={(2, 6): code}) for code in ("3", None)]
    watcher = Watcher(PlayBack(flicker * 4), LiveCaller(SteppinStonesLive()))
    events = [e for k, img in enumerate(frames([(i, 3) for i in range(8)])) for e in watcher.process(img, k / 10)]
    assert [e.type for e in events] == ["board", "roll"]
    assert events[0].data["board"][2][6] == "M2"


def test_a_whole_turn_played_while_the_reader_could_not_follow_is_followed_but_five_actions_are_not():
    """Up to four actions (a turn's four dice) explain one change; a fifth does not, and the
    change is said to be illegal after the re-read."""
    ref = SteppinStonesLive(dice="caller", seed=5)
    live = LiveCaller(ref)
    game = setup(seed=5)
    play(live, game, 0.0)
    turn = (Move((0, 2), (0, 1)), Move((2, 0), (3, 0)), Flip((5, 5)), Move((5, 0), (4, 0)))
    state = game
    for action in turn:
        state = apply(state, action)
    after = apply(state, EndTurn())  # the Caller's next roll
    fifth = next(a for a in legal_moves(after) if not isinstance(a, EndTurn))
    assert play(live, apply(after, fifth), 1.0) == [] and live.suspecting
    events = play(live, state, 2.0)
    assert [e.type for e in events] == ["move", "move", "move", "flip", "roll"]
    assert live.current.game == after


def test_a_coin_read_missing_while_its_value_is_read_doubtfully_elsewhere_has_moved():
    """A flip and the Sun 2 moved twice (b3 to d3 to d1), the Sun 2's new square doubtful: the
    board is not the flip alone with the 2 missed where it lay (the 2 is seen, doubtfully, where
    nothing was), and once the read has held, the three actions are followed."""
    start = with_roll(setup(seed=0), [F.TWO, F.TWO, F.SUIT, F.THREE])
    after = start
    for action in (Flip((5, 5)), Move((2, 1), (2, 3)), Move((2, 3), (0, 3))):
        after = apply(after, action)
    obs = [observe(start), observe(after, uncertain=[(0, 3)])]
    watcher = Watcher(PlayBack(obs), LiveCaller(SteppinStonesLive()))
    events = [e for k, img in enumerate(frames([(0, 12), (1, 12)])) for e in watcher.process(img, k / 10)]
    assert [(e.type, e.data.get("at") or e.data.get("to")) for e in events] == [
        ("board", None), ("roll", None), ("move", [2, 3]), ("move", [0, 3]), ("flip", [5, 5])]


def test_a_home_tile_s_printed_suit_read_as_a_stepping_stone_is_no_change():
    """The Moons tile lies face up; the reader takes its printed moon on g2 for a Moons stepping
    stone: the setup still starts and a move is followed (a Moons stone on a square of another
    suit's tile would be a change)."""
    moon = {(1, 6): "M"}
    after = apply(START, Move((2, 0), (2, 3)))
    obs = [observe(START, put=moon), observe(after, put=moon)]
    watcher = Watcher(PlayBack(obs), LiveCaller(SteppinStonesLive()))
    events = [e for k, img in enumerate(frames([(0, 12), (1, 12)])) for e in watcher.process(img, k / 10)]
    assert [(e.type, e.data.get("to")) for e in events] == [("board", None), ("roll", None), ("move", [2, 3])]
    assert differ(view(START)[0], observe(START, put={(1, 6): "S"}).coins) == [(1, 6)]


def test_the_setup_starts_though_the_dice_beside_it_read_differently_from_one_read_to_the_next():
    """The dice read one way, then another, while the setup lies still (a hand's shadow coming
    in, a small die misread now and then): the setup is still accepted, on its squares and
    pawns, and the roll is taken once the dice hold, with the first action made meanwhile
    (here read with a doubtful square: the roll and one action of it are among the boards a
    doubtful read may be)."""
    misread = [("S", "s"), ("M", "3"), ("C", "5"), ("A", "n")]
    flicker = [observe(START), observe(START, dice=misread)]
    flipped = apply(START, Flip((0, 2)))
    doubtful = observe(flipped, uncertain=[(2, 7)], put={(2, 7): "5"})
    watcher = Watcher(PlayBack(flicker * 4 + [doubtful]), LiveCaller(SteppinStonesLive()))
    held = [(i, 3) for i in range(8)] + [(8, 12)]
    events = [e for k, img in enumerate(frames(held)) for e in watcher.process(img, k / 10)]
    assert [(e.type, e.data.get("at")) for e in events] == [
        ("board", None), ("wait", None), ("roll", None), ("flip", [0, 2])]
    assert events[1].say is None  # the dice are in view: no need to ask for a roll
    assert [d["face"] for d in events[2].data["dice"]] == ["s", "2", "3", "n"]


def test_a_pawn_read_as_a_stepping_stone_of_its_suit_on_its_square_still_stands_there():
    """Seen from above, the Suns pawn (a ball of the suit's colour) now and then reads as a Suns
    stepping stone on its own square, and no Suns pawn: the setup still starts, and a move
    beside it is followed. A Suns stone read on another square is not the pawn."""
    pawn_as_stone = {"drop_pawn": "S", "put": {(3, 3): "S"}}
    after = apply(START, Move((2, 0), (2, 3)))
    obs = [observe(START, **pawn_as_stone), observe(after, **pawn_as_stone)]
    watcher = Watcher(PlayBack(obs), LiveCaller(SteppinStonesLive()))
    events = [e for k, img in enumerate(frames([(0, 12), (1, 12)])) for e in watcher.process(img, k / 10)]
    assert [(e.type, e.data.get("to")) for e in events] == [("board", None), ("roll", None), ("move", [2, 3])]
    elsewhere = SteppinStonesLive().reading(observe(START, drop_pawn="S", put={(3, 2): "S"}))
    assert SteppinStonesLive._pawns_read_as_stones(elsewhere, view(START)[1]) == elsewhere


def test_the_warning_about_the_setup_is_said_once_and_answered_when_the_setup_is_right():
    """A board that is not the setup is said once; further boards that are not the setup
    either (a game played on while the camera could not read the setup, or a reader's slips)
    are not said again: the warning stands until the setup is seen, which is thanked for and
    started. The first action after it is said alone."""
    live = LiveCaller(SteppinStonesLive())
    wrong = moved(START, (0, 2), (0, 1))
    assert play(live, wrong, 0.0) == []
    assert [e.type for e in play(live, wrong, 0.5)] == ["illegal"]
    other = moved(START, (0, 5), (0, 6))
    assert play(live, other, 1.0) == [] and play(live, other, 1.5) == []
    assert [e.type for e in play(live, START, 2.0)] == ["restored", "board", "roll"]
    assert said(play(live, apply(START, Flip((0, 2))), 3.0)) == [("flip", "Red 5 on c1 is now a stepping stone.")]


def _misread_game():
    """A turn spent (the Red 2 moved: nothing left), the next roll Red 4, Black Null, Green 2
    and Blue 5, and the Black 5 moved by the Blue 5: the states and the move."""
    first = with_roll(setup(seed=0), [F.TWO, F.NULL, F.NULL, F.NULL])
    spent = apply(first, Move((2, 1), (3, 0)))
    rolled = with_roll(apply(spent, EndTurn()), [F.FOUR, F.NULL, F.TWO, F.FIVE])
    return first, spent, rolled, apply(rolled, Move((0, 5), (3, 7)))


#: the roll as the reader reads it: the Blue 5 read blank
MISREAD = [("S", "4"), ("M", "n"), ("C", "2"), ("A", "n")]


def _watched(observations, held):
    watcher = Watcher(PlayBack(observations), LiveCaller(SteppinStonesLive()))
    events = [e for k, img in enumerate(frames(held)) for e in watcher.process(img, k / 10)]
    return watcher, events


def test_a_stepping_stone_read_as_an_empty_square_is_a_slip_and_the_move_beside_it_is_taken():
    """The Red 5 flipped into a stepping stone, then the Red 2 moved by the Black 2 while the
    stone reads, sure, as an empty square (read after read): a coin the reader missed, as a
    coin value side up would be, and the move is said. (It was no slip, and the read, one
    piece short, was never judged: the move and every action after it went unsaid.) Read as
    a value, the stone is no slip: no action of the roll leaves that board."""
    flipped = apply(START, Flip((0, 2)))
    after = apply(flipped, Move((2, 1), (3, 0)))
    obs = [observe(START), observe(flipped), observe(after, put={(0, 2): None})]
    _, events = _watched(obs, [(0, 12), (1, 12), (2, 20)])
    assert [(e.type, e.data.get("at"), e.data.get("piece")) for e in events] == [
        ("board", None, None), ("roll", None, None), ("flip", [0, 2], None), ("move", None, "S2")]
    obs = [observe(START), observe(flipped), observe(after, put={(0, 2): "5"})]
    _, events = _watched(obs, [(0, 12), (1, 12), (2, 20)])
    assert [(e.type, e.data.get("at"), e.data.get("cells")) for e in events] == [
        ("board", None, None), ("roll", None, None), ("flip", [0, 2], None), ("illegal", None, [[0, 2], [2, 1], [3, 0]])]


def test_a_die_read_in_doubt_is_read_again_from_the_move_its_true_face_allows():
    """The Blue die, a 5, reads blank in doubt on every read; steadied, the roll is taken with
    a blank Blue die. The Black 5 then moved is a move of the Blue 5 misread: the roll is said
    again with the Blue 5 and the move said, never an illegal move. The reader still reads the
    Blue die blank while it lies there: that is the 5 the move showed, no new roll."""
    first, spent, rolled, played = _misread_game()
    obs = [observe(first), observe(spent), observe(spent, dice=MISREAD, uncertain_dice=[3]),
           observe(played, dice=MISREAD, uncertain_dice=[3]), observe(played, dice=MISREAD)]
    watcher, events = _watched(obs, [(0, 12), (1, 12), (2, 20), (3, 20), (4, 20)])
    assert [(e.type, e.data.get("turn"), [d["face"] for d in e.data.get("dice", [])], e.data.get("reread"),
             e.data.get("piece")) for e in events] == [
        ("board", None, [], None, None), ("roll", 1, ["2", "n", "n", "n"], None, None),
        ("move", None, [], None, "S2"), ("nothing", None, [], None, None),
        ("roll", 2, ["4", "n", "2", "n"], None, None),
        ("roll", 2, ["4", "n", "2", "5"], True, None), ("move", None, [], None, "M5")]
    assert events[5].say == "I misread the Blue die. Turn 2. Phase one: Red 4, Black Null, Green 2 and Blue 5."
    now = watcher.caller.current
    assert (view(now.game), now.game.dice) == (view(played), played.dice) and now.reread == (("A", "n", "5"),)


def test_a_roll_and_a_move_seen_at_once_take_the_die_in_doubt_as_the_move_shows_it():
    """The same roll and move seen in one change (the roll was never still alone before the
    camera): the roll is said as the move shows it, the Blue 5."""
    first, spent, _, played = _misread_game()
    obs = [observe(first), observe(spent), observe(played, dice=MISREAD, uncertain_dice=[3])]
    watcher, events = _watched(obs, [(0, 12), (1, 12), (2, 20)])
    assert [(e.type, e.data.get("turn"), [d["face"] for d in e.data.get("dice", [])], e.data.get("piece"))
            for e in events[4:]] == [("roll", 2, ["4", "n", "2", "5"], None), ("move", None, [], "M5")]
    assert (view(watcher.caller.current.game), watcher.caller.current.game.dice) == (view(played), played.dice)


def test_a_die_read_sure_is_never_doubted_the_move_its_face_forbids_is_illegal():
    """The Blue die read sure as blank: the Black 5 moved has no die of its value, and it is
    said to be illegal."""
    first, spent, _, played = _misread_game()
    obs = [observe(first), observe(spent), observe(spent, dice=MISREAD), observe(played, dice=MISREAD)]
    _, events = _watched(obs, [(0, 12), (1, 12), (2, 20), (3, 20)])
    assert [(e.type, e.data.get("reason")) for e in events[4:]] == [
        ("roll", None),
        ("illegal", "the Black 5 moves only when a phase-1 die shows 5, and none is left in this roll")]


def test_a_die_read_sure_when_rolled_that_now_reads_otherwise_is_read_again_from_the_move_it_allows():
    """The Blue die, a 5, read sure as blank when the roll was taken (its first reads after it
    landed), reads 5 when the Black 5 has moved, in doubt, the other dice as they lay: the
    roll is said again with the Blue 5 and the move said, never an illegal move. Read now as a
    4, a face that does not allow the move either, the move is illegal."""
    first, spent, rolled, played = _misread_game()
    true = [("S", "4"), ("M", "n"), ("C", "2"), ("A", "5")]
    obs = [observe(first), observe(spent), observe(spent, dice=MISREAD), observe(played, dice=true, uncertain_dice=[3])]
    watcher, events = _watched(obs, [(0, 12), (1, 12), (2, 20), (3, 20)])
    assert [(e.type, e.data.get("turn"), [d["face"] for d in e.data.get("dice", [])], e.data.get("reread"),
             e.data.get("piece")) for e in events[4:]] == [
        ("roll", 2, ["4", "n", "2", "n"], None, None), ("roll", 2, ["4", "n", "2", "5"], True, None),
        ("move", None, [], None, "M5")]
    now = watcher.caller.current
    assert (view(now.game), now.game.dice) == (view(played), played.dice) and now.reread == (("A", "n", "5"),)
    four = [("S", "4"), ("M", "n"), ("C", "2"), ("A", "4")]
    obs = [observe(first), observe(spent), observe(spent, dice=MISREAD), observe(played, dice=four)]
    _, events = _watched(obs, [(0, 12), (1, 12), (2, 20), (3, 20)])
    assert [(e.type, e.data.get("reason")) for e in events[4:]] == [
        ("roll", None),
        ("illegal", "the Black 5 moves only when a phase-1 die shows 5, and none is left in this roll")]


def test_a_die_read_in_doubt_when_rolled_and_read_sure_otherwise_later_is_no_new_roll():
    """The Green die, read in doubt as 2 when the roll was taken, reads sure as blank a while
    later while the other dice read the same: the reader read it another way, no roll was
    made (a new turn then would have ended the one being played)."""
    first, spent, rolled, _ = _misread_game()
    green_blank = [("S", "4"), ("M", "n"), ("C", "n"), ("A", "5")]
    obs = [observe(first), observe(spent), observe(rolled, uncertain_dice=[2]), observe(rolled, dice=green_blank)]
    watcher, events = _watched(obs, [(0, 12), (1, 12), (2, 20), (3, 20)])
    assert [(e.type, e.data.get("turn")) for e in events[4:]] == [("roll", 2)]
    assert (view(watcher.caller.current.game), watcher.caller.current.game.dice) == (view(rolled), rolled.dice)


def test_a_die_never_seen_is_a_blank_die_in_doubt_and_the_move_it_allows_corrects_it():
    """The Blue die is never seen (a blank die shows no numeral and no colour, and the reader
    misses it) while the other three read sure: the roll is taken with a Blue Null in doubt.
    The Black 5 then moved shows the Blue die is a 5. (Never seen, the roll was never taken,
    and the moves made with it were called illegal.)"""
    first, spent, rolled, played = _misread_game()
    three = MISREAD[:3]
    obs = [observe(first), observe(spent), observe(spent, dice=three), observe(played, dice=three)]
    watcher, events = _watched(obs, [(0, 12), (1, 12), (2, 20), (3, 20)])
    assert [(e.type, e.data.get("turn"), [d["face"] for d in e.data.get("dice", [])], e.data.get("piece"))
            for e in events[4:]] == [("roll", 2, ["4", "n", "2", "n"], None), ("roll", 2, ["4", "n", "2", "5"], None),
                                     ("move", None, [], "M5")]
    assert (view(watcher.caller.current.game), watcher.caller.current.game.dice) == (view(played), played.dice)


def test_an_illegal_move_is_judged_while_a_die_of_the_roll_reads_now_as_it_lies_now_in_doubt():
    """The Blue 3 moved two squares down, its new square read in doubt, while the Blue die (a
    Null) reads as it lies at one read and in doubt as a 4 at the next, on and on: no roll was
    made (the other dice read as they lay), so the die is taken as the roll has it and the
    move is said to be illegal. (No two reads agreed, and the move went unsaid.)"""
    import numpy as np

    bad = moved(START, (5, 0), (7, 0))
    obs = [observe(START), observe(bad, uncertain=[(7, 0)]),
           observe(bad, uncertain=[(7, 0)], dice=[("S", "s"), ("M", "2"), ("C", "3"), ("A", "4")], uncertain_dice=[3])]
    images = []
    for k in [0] * 12 + [1, 2] * 15:
        img = np.full((36, 64, 3), 30 if k == 0 else 80, np.uint8)
        img[0, 0, 0] = k
        images.append(img)
    watcher = Watcher(PlayBack(obs), LiveCaller(SteppinStonesLive()))
    events = [e for k, img in enumerate(images) for e in watcher.process(img, k / 10)]
    assert [(e.type, e.data.get("cells")) for e in events] == [
        ("board", None), ("roll", None), ("illegal", [[5, 0], [7, 0]])]


def test_two_dice_turned_up_otherwise_are_a_roll_though_each_was_read_in_doubt_before():
    """The Red and Blue dice were read in doubt when the roll was taken; the next roll turns
    both up otherwise, read sure, while the other two land as they lay. Two dice changed: it
    is a roll (one die in doubt alone would be that die read another way)."""
    first, spent, _, _ = _misread_game()
    again = [("S", "2"), ("M", "n"), ("C", "2"), ("A", "5")]
    obs = [observe(first), observe(spent), observe(spent, dice=MISREAD, uncertain_dice=[0, 3]),
           observe(spent, dice=again)]
    _, events = _watched(obs, [(0, 12), (1, 12), (2, 20), (3, 20)])
    assert [(e.type, e.data.get("turn"), [d["face"] for d in e.data.get("dice", [])]) for e in events[4:]] == [
        ("roll", 2, ["4", "n", "2", "n"]), ("roll", 3, ["2", "n", "2", "5"])]
