"""The Caller's sentences, word for word (voice/phrasebook/common.py and easy_slider.py)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

import rules
from rules.easy_slider import reasons
from rules.easy_slider.codec import parse_observation
from rules.easy_slider.explain import explain
from rules.easy_slider.state import EasySliderState
from rules.errors import MalformedPosition
from rules.grid import Grid
from rules.pieces import Pawn, Rank, Tile
from rules.reasons import Reason
from voice.phrasebook import common
from voice.phrasebook import easy_slider as ph
from voice.phrasebook import setup_lines

GAME = rules.get("easy-slider")

SEED3 = [
    "Pawns: Blue, Red, Green, Black.",
    "Coins: 2, Ace, 5, 4, 3.",
    "Row one: Green Null, Blue Ace, Green 5, Blue 3, Red 2.",
    "Row two: Red Ace, Blue Null, Black 4, Red 4, Black 2.",
    "Row three: Black 3, Blue 5, Blue 4, Green Ace, Red Null.",
    "Row four: Black Ace, Red 5, Green 2, Green 3, Black Null.",
    "Row five: Green 4, Black 5, Blue 2, Red 3, and the hole.",
]

# the rules text's example board (pawns Black, Red, Blue, Green; coins 2, 4, 5, Ace, 3)
EXAMPLE = {
    "board": [
        ["A5", "Cn", "C2", "Sa", "M3"],
        ["S5", "Mn", "A2", "C3", "Ma"],
        ["Ca", "An", "M2", "A3", "S2"],
        ["C5", "Sn", "M4", "A4", "C4"],
        ["S3", "M5", "Aa", "S4", None],
    ],
    "pawns": ["M", "S", "A", "C"],
    "coins": ["2", "4", "5", "a", "3"],
}


def T(code: str) -> Tile:
    return Tile.parse(code)


def test_setup_of_seed_3_in_the_order_of_the_rules_text():
    assert setup_lines("easy-slider", GAME.setup(seed=3)) == SEED3


def test_setup_example_of_the_issue():
    state = GAME.from_json(EXAMPLE)
    lines = ph.setup_lines(state)
    assert lines[:3] == [
        "Pawns: Black, Red, Blue, Green.",
        "Coins: 2, 4, 5, Ace, 3.",
        "Row one: Blue 5, Green Null, Green 2, Red Ace, Black 3.",
    ]
    assert lines[-1] == "Row five: Red 3, Black 5, Blue Ace, Red 4, and the hole."
    assert len(lines) == 7


def test_setup_lines_duck_typed_and_hole_inside_a_row():
    state = SimpleNamespace(
        pawns=[Pawn.parse("C")], coins=[Rank.ACE], board=[[T("S5"), None, T("Mn")]]
    )
    assert ph.setup_lines(state) == ["Pawns: Green.", "Coins: Ace.", "Row one: Red 5, the hole, Black Null."]


@pytest.mark.parametrize(
    "seconds, said",
    [(87, "1 minute 27 seconds"), (87.6, "1 minute 28 seconds"), (45, "45 seconds"), (1, "1 second"),
     (120, "2 minutes"), (0.2, "0 seconds"), (3725, "1 hour 2 minutes 5 seconds"), (61, "1 minute 1 second")],
)
def test_duration(seconds, said):
    assert common.duration(seconds) == said


def test_common_pieces():
    assert common.cell((1, 2)) == "row 2, column 3"
    assert common.cells([(0, 0), (2, 1)]) == "row 1, column 1 and row 3, column 2"
    assert common.join_and(["a", "b", "c"]) == "a, b and c"
    assert common.plural(1, "point") == "1 point" and common.plural(0, "point") == "0 points"
    assert common.number_word(5) == "five" and common.number_word(27) == "27"
    assert common.go() == "Go!" and ph.go() == "Go!"


def test_done_verdicts():
    assert ph.done(True, 87) == "Done! Correct, in 1 minute 27 seconds."
    assert ph.done(True) == "Done! Correct."
    assert ph.done(False, 87, [(2, 1)]) == "Not done yet: row 3, column 2 is wrong."
    assert ph.done(False, None, [(2, 1), (4, 0)]) == "Not done yet: row 3, column 2 and row 5, column 1 are wrong."
    assert ph.done(False, None, [(0, 0), (0, 1), (1, 1), (3, 3), (4, 4)]) == (
        "Not done yet: 5 tiles are wrong, the first at row 1, column 1."
    )


def test_fumble():
    assert ph.fumble([(2, 1)]) == "Fumble! Row 3, column 2 is wrong: no points this round."
    assert ph.fumble([(2, 1)], player="Ann") == "Ann, fumble! Row 3, column 2 is wrong: no points this round."
    assert ph.fumble([]) == "Fumble! The board is not right: no points this round."


def test_scores_totals_winner_remark():
    assert ph.round_scores({"Ann": 2, "Bob": 1, "Cy": 0}, 2, fumbled=["Cy"]) == (
        "Round 2: Ann 2 points, Bob 1 point, Cy 0 points (fumble)."
    )
    assert ph.totals({"Ann": 4, "Bob": 7}) == "Totals: Bob 7 points, Ann 4 points."
    assert ph.winner({"Ann": 4, "Bob": 7}) == "Bob wins with 7 points."
    assert ph.winner({"Ann": 7, "Bob": 7, "Cy": 1}) == "Ann and Bob are tied on 7 points: a playoff round decides."
    assert ph.remark(87, 61) == "You took 87 slides; 61 would do."
    assert ph.remark(61, 61) == "You took 61 slides: as good as my own solution of 61."
    assert ph.remark(1, None) == "You took 1 slide."


def test_illegal_lifted_in_players_terms():
    state = GAME.from_json(EXAMPLE)
    after = state.board.set((1, 2), None)  # the Blue 2 ... and a second hole
    assert ph.illegal(explain(state, after).why) == "Row 2, column 3: the Blue 2 was lifted."
    two = after.set((0, 3), None)
    assert ph.illegal(explain(state, two).why) == (
        "Row 1, column 4: the Red Ace was lifted. Row 2, column 3: the Blue 2 was lifted."
    )


def test_illegal_swap_diagonal_jump_doubled_several():
    state = GAME.from_json(EXAMPLE)
    b = state.board
    assert ph.illegal(explain(b, b.swap((0, 0), (0, 1))).why) == (
        "Row 1, column 1 and row 1, column 2: the Blue 5 and the Green Null changed places."
    )
    diag = b.swap((3, 3), (4, 4))  # Blue 4 from row 4, column 4 into the hole at row 5, column 5
    assert ph.illegal(explain(b, diag).why) == (
        "Row 4, column 4: the Blue 4 moved diagonally to row 5, column 5; slide along a row or a column."
    )
    jump = b.swap((4, 2), (4, 4))
    assert ph.illegal(explain(b, jump).why) == (
        "Row 5, column 3: the Blue Ace jumped to row 5, column 5; slide one tile one step into the hole."
    )
    twice = Grid.of([list(r) for r in b.rows]).set((4, 4), T("Sa"))
    assert ph.illegal(explain(b, twice).why) == (
        "The Red Ace is on the board twice: row 1, column 4 and row 5, column 5."
    )
    rot = b.rotate_line("row", 0, 1)
    assert ph.illegal(explain(b, rot, max_slides=12).why) == (
        "Several tiles changed at once: 5 cells, the first at row 1, column 1. Slide one tile at a time."
    )
    three = b.set_many({(0, 0): b[(0, 1)], (0, 1): b[(0, 2)], (0, 2): b[(0, 0)]})
    assert ph.illegal(explain(b, three, max_slides=2).why) == (
        "Several tiles changed at once: row 1, column 1, row 1, column 2 and row 1, column 3. Slide one tile at a time."
    )
    odd = b.swap((0, 0), (0, 1)).swap((4, 3), (4, 4))  # a swap and a slide: no slides lead there
    assert explain(b, odd).why.code == reasons.NO_SLIDES
    assert ph.illegal(explain(b, odd).why) == (
        "Several tiles changed at once: 4 cells, the first at row 1, column 1. Slide one tile at a time."
    )
    assert explain(b, b).why is None


def test_every_reason_code_is_said():
    """Each code the rules give has its words, made from the reason's fields alone."""
    sa, a2, c3 = T("Sa"), T("A2"), T("C3")
    said = {
        Reason(reasons.PAWNS_CHANGED, pieces=(Pawn.parse("S"), Pawn.parse("M")), was=(Pawn.parse("M"), Pawn.parse("M"))):
            "The pawn of row 1 should be Black, not Red.",
        Reason(reasons.COINS_CHANGED, pieces=(Rank.ACE, Rank.TWO), was=(Rank.TWO, Rank.ACE)):
            "The coin above column 1 should be 2, not Ace. The coin above column 2 should be Ace, not 2.",
        Reason(reasons.FOREIGN, ((1, 2),), ("X9",)): "Row 2, column 3: that tile is not in the set.",
        Reason(reasons.DOUBLED, ((0, 0), (4, 4), (1, 1), (2, 2)), (sa, sa, a2, a2)):
            "The Red Ace is on the board twice: row 1, column 1 and row 5, column 5. "
            "The Blue 2 is on the board twice: row 2, column 2 and row 3, column 3.",
        Reason(reasons.LIFTED, ((0, 3),), (sa,), number=2): "Row 1, column 4: the Red Ace was lifted.",
        Reason(reasons.SWAPPED, ((0, 0), (0, 1)), (sa, a2)):
            "Row 1, column 1 and row 1, column 2: the Red Ace and the Blue 2 changed places.",
        Reason(reasons.DIAGONAL, ((3, 3), (4, 4)), (c3,)):
            "Row 4, column 4: the Green 3 moved diagonally to row 5, column 5; slide along a row or a column.",
        Reason(reasons.JUMPED, ((4, 2), (4, 4)), (c3,)):
            "Row 5, column 3: the Green 3 jumped to row 5, column 5; slide one tile one step into the hole.",
        Reason(reasons.NO_SLIDES, ((0, 0), (0, 1))):
            "Several tiles changed at once: row 1, column 1 and row 1, column 2. Slide one tile at a time.",
        Reason(reasons.TOO_MANY, ((0, 0), (0, 1), (0, 2), (0, 3)), number=12):
            "Several tiles changed at once: 4 cells, the first at row 1, column 1. Slide one tile at a time.",
        Reason(reasons.PUSHED, ((2, 0), (2, 1), (2, 2)), (sa, a2)):
            "Row 3, column 1: the Red Ace pushed the Blue 2 along into the hole; slide one tile at a time.",
        Reason(reasons.HOLES, ((0, 3), (4, 4))): "There are two holes on the board: row 1, column 4 and row 5, column 5.",
        Reason(reasons.HOLES): "There is no hole on the board.",
        Reason(reasons.MISSING, pieces=(sa, a2)): "The Red Ace and the Blue 2 are not on the board.",
        Reason(reasons.PAWNS_REPEAT, pieces=(Pawn.parse("S"), Pawn.parse("S"))): "The pawns repeat a colour: Red, Red.",
        Reason(reasons.COINS_REPEAT, pieces=(Rank.TWO, Rank.TWO)): "The coins repeat a value: 2, 2.",
    }
    assert {r.code for r in said} == set(reasons.CHANGE_CODES) | set(reasons.POSITION_CODES)
    for why, words in said.items():
        assert ph.illegal(why) == words
    assert ph.illegal(None) == "The board changed in a way no slide explains."
    with pytest.raises(ValueError, match="'shuffled'"):
        ph.illegal(Reason("shuffled"))


def test_a_board_that_is_no_position_is_said_from_the_rules_data():
    state = GAME.from_json(EXAMPLE)
    with pytest.raises(MalformedPosition) as holes:
        EasySliderState(state.board.set((0, 3), None), state.pawns, state.coins)
    assert holes.value.reason == Reason(reasons.HOLES, ((0, 3), (4, 4)))
    assert ph.unreadable_start(holes.value.reason) == (
        "This is not a proper start position. There are two holes on the board: row 1, column 4 and row 5, column 5. "
        "Please check the board."
    )
    seen = {**EXAMPLE, "board": [list(r) for r in EXAMPLE["board"]]}
    seen["board"][4][4] = "Sa"
    with pytest.raises(MalformedPosition) as twice:
        parse_observation(seen, "the table")
    assert twice.value.reason == Reason(reasons.DOUBLED, ((0, 3), (4, 4)), (T("Sa"), T("Sa")))
    with pytest.raises(MalformedPosition) as pawns:
        parse_observation({**EXAMPLE, "pawns": ["M", "S", "A", "M"]}, "the table")
    assert ph.unreadable_start(pawns.value.reason) == (
        "This is not a proper start position. The pawns repeat a colour: Black, Red, Blue, Black. Please check the board."
    )
    assert ph.unreadable_start(None) == "This is not a proper start position. Please check the board."


def test_setup_differences():
    setup = GAME.from_json(EXAMPLE)
    assert ph.setup_difference_lines(setup, setup) == []
    assert ph.setup_differences(setup, setup) == "The setup is right."
    seen = SimpleNamespace(
        pawns=(setup.pawns[0], setup.pawns[2], setup.pawns[1], setup.pawns[3]),
        coins=setup.coins,
        board=setup.board.swap((1, 2), (1, 3)),
    )
    assert ph.setup_difference_lines(setup, seen) == [
        "The pawn of row 2 should be Red, not Blue.",
        "The pawn of row 3 should be Blue, not Red.",
        "Row 2, column 3 should be the Blue 2, not the Green 3.",
        "Row 2, column 4 should be the Green 3, not the Blue 2.",
    ]
    coins = SimpleNamespace(pawns=setup.pawns, coins=(Rank.FOUR, Rank.TWO) + setup.coins[2:], board=setup.board)
    assert ph.setup_differences(setup, coins, [], True, False) == (
        "Check the setup. The coin above column 1 should be 2, not 4. The coin above column 2 should be 4, not 2."
    )
    many = SimpleNamespace(pawns=setup.pawns, coins=setup.coins, board=setup.board.rotate_line("row", 4, 1))
    assert ph.setup_difference_lines(setup, many) == [
        "5 tiles differ from the setup. First, row 5, column 1: it should be the Red 3, not the hole."
    ]


def test_restored_accepted_unreadable():
    assert ph.restored() == "Thank you: the board is back as it was."
    assert ph.accepted() == "Accepted: play on from this board."


def test_with_the_rules_explanations():
    state = GAME.from_json(EXAMPLE)
    b = state.board
    change = explain(state, b.set((0, 3), None))
    assert not change.legal
    assert change.reason == "Red Ace (Sa) from [0, 3] was lifted off the board: 2 holes"  # the written form
    assert ph.illegal(change.why) == "Row 1, column 4: the Red Ace was lifted."  # the spoken one
    foreign = b.set((4, 4), "X9")
    assert ph.illegal(explain(b, foreign).why) == "Row 5, column 5: that tile is not in the set."
    moved = GAME.from_json({**EXAMPLE, "pawns": ["S", "M", "A", "C"]})
    assert ph.illegal(explain(state, moved).why) == (
        "The pawn of row 1 should be Black, not Red. The pawn of row 2 should be Red, not Black."
    )
