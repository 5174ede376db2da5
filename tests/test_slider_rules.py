"""Slider (Leckie & Erfani) rules: setup, every movement rule, passes, ties, wins, notation, text and JSON forms."""

from pathlib import Path

import pytest

from rules.errors import IllegalMove, MalformedPosition, NotationError
from rules.grid import Direction
from rules.slider.game import GAME
from rules.slider.notation import parse_move, parse_squares, parse_text
from rules.slider.state import PASS, Move, Side, SliderState

UP, DOWN, LEFT, RIGHT = Direction.UP, Direction.DOWN, Direction.LEFT, Direction.RIGHT
HERE = Path(__file__).parent
# boards in the course project's text format with their move counts (H on line 1, V on line 2),
# written for these tests and counted by hand
FIXTURES = HERE / "data" / "slider"


def board(text: str, to_move: str = "H") -> SliderState:
    return parse_text(text.strip() + "\n", to_move=to_move)


def targets(state: SliderState, side: Side) -> set:
    return {m.target() for m in state.piece_moves(side)}


# --- setup -----------------------------------------------------------------------------


def test_start_position_and_blocks():
    s = GAME.setup(seed=1, n=6, blocked=[(2, 3), (4, 1)], first="V")
    assert s.h == {(0, j) for j in range(1, 6)}
    assert s.v == {(i, 0) for i in range(1, 6)}
    assert s.blocked == {(2, 3), (4, 1)}
    assert s.to_move is Side.V and s.passes == 0
    assert s.to_text() == "6\nH + + + + +\nH + + + + +\nH + B + + +\nH + + + + +\nH + + + B +\n+ V V V V V\n"


def test_seeded_setup_is_repeatable_and_blocks_avoid_start_squares():
    for seed in range(30):
        a, b = GAME.setup(seed=seed, n=5), GAME.setup(seed=seed, n=5)
        assert a == b
        assert not a.blocked & (a.h | a.v)
        assert 0 <= len(a.blocked) <= 2
    assert GAME.setup(seed=3, n=4, blocks=0).blocked == frozenset()
    assert len(GAME.setup(seed=3, n=7, blocks=5).blocked) == 5


@pytest.mark.parametrize("n", [2, 9, 0, -1])
def test_board_size_out_of_range(n):
    with pytest.raises(MalformedPosition, match=f"board size {n} is out of range: expected 3 to 8"):
        GAME.setup(seed=0, n=n)


def test_setup_rejects_bad_blocks_and_options():
    with pytest.raises(MalformedPosition, match=r"\(0,2\) is a starting square"):
        GAME.setup(n=4, blocked=[(0, 2)])
    with pytest.raises(MalformedPosition, match=r"\(4,4\) is not on a 4x4 board"):
        GAME.setup(n=4, blocked=[(4, 4)])
    with pytest.raises(MalformedPosition, match="unknown Slider option"):
        GAME.setup(seed=1, players=3)


# --- movement --------------------------------------------------------------------------

FIGURE_3 = """
6
+ + + + + +
+ + H + + +
+ + + V + +
+ + + + + +
+ + + + + +
+ + + + + +
"""


def test_figure_3_moves():
    # the rules text's Figure 3: H on (2,4), V on (3,3) of a 6x6 board
    s = board(FIGURE_3)
    assert s.h == {(2, 4)} and s.v == {(3, 3)}
    # x: up and right; the rules also let H move down, to (2,3), which the figure leaves unmarked
    assert targets(s, Side.H) == {(2, 5), (3, 4), (2, 3)}
    # y: up and right; V may also move left to (2,3)
    assert targets(s, Side.V) == {(3, 4), (4, 3), (2, 3)}


def test_figure_3_race_lengths():
    # "V can win if they have the next move and ... move their final piece up for their next 3 moves"
    s = board(FIGURE_3, "V")
    s = s.apply(Move(3, 3, UP)).apply(Move(2, 4, DOWN)).apply(Move(3, 4, UP)).apply(Move(2, 3, DOWN))
    assert s.winner is None
    s = s.apply(Move(3, 5, UP))
    assert s.winner is Side.V
    # "If Player H has the next move, H can win by moving their final piece right for their next 4 moves"
    s = board(FIGURE_3, "H")
    s = s.apply(Move(2, 4, RIGHT)).apply(Move(3, 3, RIGHT)).apply(Move(3, 4, RIGHT)).apply(Move(4, 3, RIGHT))
    s = s.apply(Move(4, 4, RIGHT)).apply(Move(5, 3, LEFT))
    assert s.winner is None
    s = s.apply(Move(5, 4, RIGHT))
    assert s.winner is Side.H


def test_h_moves_up_down_right_never_left():
    s = board("4\n+ + + +\n+ H + +\n+ + + +\n+ + V +")
    assert {m.direction for m in s.piece_moves(Side.H)} == {UP, DOWN, RIGHT}
    with pytest.raises(IllegalMove, match="Horizontal may not move left"):
        s.apply(Move(1, 2, LEFT))


def test_v_moves_left_right_up_never_down():
    s = board("4\n+ + + +\n+ + V +\n+ + + +\n+ H + +", "V")
    assert {m.direction for m in s.piece_moves(Side.V)} == {UP, LEFT, RIGHT}
    with pytest.raises(IllegalMove, match="Vertical may not move down"):
        s.apply(Move(2, 2, DOWN))


def test_moves_only_into_empty_unblocked_squares():
    s = board("4\n+ + + +\nH B + +\nH V + +\n+ + + +")
    # H on (0,2): right is blocked, down holds an H; only up remains
    assert [str(m) for m in s.piece_moves(Side.H)] == ["(0,1): DOWN", "(0,2): UP"]
    with pytest.raises(IllegalMove, match=r"square \(1,2\) is blocked"):
        s.apply(Move(0, 2, RIGHT))
    with pytest.raises(IllegalMove, match=r"square \(1,1\) is taken by V"):
        s.apply(Move(0, 1, RIGHT))
    with pytest.raises(IllegalMove, match=r"square \(0,1\) is taken by H"):
        s.apply(Move(0, 2, DOWN))


def test_pieces_leave_only_off_their_far_edge():
    s = board("3\nH + V\n+ + H\nV + +")
    h_moves = {str(m) for m in s.piece_moves(Side.H)}
    assert "(2,1): RIGHT" in h_moves  # H leaves off the right edge
    assert "(0,2): UP" not in h_moves  # but never off the top
    after = s.apply(Move(2, 1, RIGHT))
    assert after.h == {(0, 2)} and after.to_move is Side.V
    with pytest.raises(IllegalMove, match="Horizontal may leave the board only off the right edge"):
        s.apply(Move(0, 2, UP))
    v = board("3\nH + V\n+ + H\nV + +", "V")
    assert "(2,2): UP" in {str(m) for m in v.piece_moves(Side.V)}  # V leaves off the top edge
    assert "(2,2): RIGHT" not in {str(m) for m in v.piece_moves(Side.V)}  # not off the right
    assert "(0,0): LEFT" not in {str(m) for m in v.piece_moves(Side.V)}
    with pytest.raises(IllegalMove, match="Vertical may leave the board only off the top edge"):
        v.apply(Move(2, 2, RIGHT))
    h_bottom = board("3\n+ + +\n+ + +\nH + V")
    with pytest.raises(IllegalMove, match="only off the right edge"):
        h_bottom.apply(Move(0, 0, DOWN))


def test_moving_a_piece_that_is_not_yours_or_not_there():
    s = board("3\nH + +\n+ + +\n+ V +")
    with pytest.raises(IllegalMove, match=r"Horizontal has no piece on \(1,0\) \(holds V\)"):
        s.apply(Move(1, 0, UP))
    with pytest.raises(IllegalMove, match=r"no piece on \(2,2\) \(empty\)"):
        s.apply(Move(2, 2, RIGHT))
    with pytest.raises(IllegalMove, match="not a Slider move"):
        s.apply("(0,2): RIGHT")


def test_turns_alternate():
    s = GAME.setup(n=4, blocked=[], first="H")
    s = s.apply(Move(0, 1, RIGHT))
    assert s.to_move is Side.V
    with pytest.raises(IllegalMove, match=r"Vertical has no piece on \(0,2\)"):
        s.apply(Move(0, 2, RIGHT))


# --- passes, ties and wins -------------------------------------------------------------

STUCK_BOTH = "3\nH B +\nV B +\n+ + +"


def test_pass_only_when_no_legal_move_and_two_passes_tie():
    s = board(STUCK_BOTH)
    assert s.legal_moves() == [PASS]
    s = s.apply(PASS)
    assert (s.to_move, s.passes, s.is_over) == (Side.V, 1, False)
    assert s.legal_moves() == [PASS]
    s = s.apply(PASS)
    assert s.is_over and s.is_tie and s.winner is None and s.legal_moves() == []
    with pytest.raises(IllegalMove, match="the game is over"):
        s.apply(PASS)
    free = GAME.setup(n=4, blocked=[], first="H")
    with pytest.raises(IllegalMove, match="Horizontal may pass only when they have no legal move"):
        free.apply(PASS)


def test_a_move_after_a_pass_resets_the_count():
    # board 3: V is walled in by H, H and a block; H has two moves, either frees V
    s = parse_text((FIXTURES / "input3.txt").read_text(), to_move="V")
    assert s.legal_moves() == [PASS]
    s = s.apply(PASS).apply(Move(1, 1, UP))
    assert s.passes == 0 and s.to_move is Side.V
    assert s.legal_moves() != [PASS]  # H moved away from above V


def test_first_player_with_all_pieces_off_wins():
    s = board("3\n+ + +\n+ + H\n+ V +")
    assert s.winner is None
    s = s.apply(Move(2, 1, RIGHT))
    assert s.winner is Side.H and s.is_over and s.legal_moves() == []
    with pytest.raises(IllegalMove, match="the game is over"):
        s.apply(Move(1, 0, UP))


def test_neither_side_empty_and_piece_limits():
    with pytest.raises(MalformedPosition, match="neither player has a piece"):
        board("3\n+ + +\n+ B +\n+ + +")
    with pytest.raises(MalformedPosition, match="3 H pieces on a 3x3 board: each player has at most 2"):
        board("3\nH + +\nH + +\nH V +")


# --- notation --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, expected",
    [
        ("(1,2): UP", Move(1, 2, UP)),
        ("(1, 2): down", Move(1, 2, DOWN)),
        ("1,2 right", Move(1, 2, RIGHT)),
        ("(0,3) -> Left", Move(0, 3, LEFT)),
        (" pass ", PASS),
    ],
)
def test_parse_move(text, expected):
    assert parse_move(text) == expected


@pytest.mark.parametrize("text", ["(1,2): north", "xyz", "(1): UP", ""])
def test_bad_move_notation(text):
    with pytest.raises(NotationError, match="bad"):
        parse_move(text)


def test_move_prints_in_course_notation_and_squares_parse():
    assert str(Move(3, 0, LEFT)) == "(3,0): LEFT"
    assert str(PASS) == "pass"
    assert parse_squares("1,2 (3,0)") == {(1, 2), (3, 0)}
    with pytest.raises(NotationError, match="'1-2'"):
        parse_squares("1-2")


# --- the course project's text format: boards with known counts and malformed text ----


def _boards(folder: Path):
    return [(folder / f"input{k}.txt", folder / f"output{k}.txt") for k in range(1, 5)]


@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_boards_count_as_counted_by_hand(k):
    inp, out = _boards(FIXTURES)[k - 1]
    s = parse_text(inp.read_text())
    assert s.count_moves() == tuple(int(x) for x in out.read_text().split())
    assert s.to_text() == inp.read_text()


def _count_by_the_rules_text(text: str) -> tuple[int, int]:
    """Moves of H and of V read straight off the text, without the engine: H steps up, down or
    right (off the right edge too), V left, right or up (off the top edge too), into an empty
    square. Rows of the text run from the top."""
    lines = text.split("\n")
    n = int(lines[0])
    rows = [line.split() for line in lines[1 : n + 1]]

    def cell(r, c):
        return rows[r][c] if 0 <= r < n and 0 <= c < n else None

    counts = {"H": 0, "V": 0}
    steps = {"H": [(-1, 0), (1, 0), (0, 1)], "V": [(0, -1), (0, 1), (-1, 0)]}
    exits = {"H": (0, 1), "V": (-1, 0)}  # the one step that may leave the board
    for r in range(n):
        for c in range(n):
            who = rows[r][c]
            for dr, dc in steps.get(who, []):
                target = cell(r + dr, c + dc)
                off = not (0 <= r + dr < n and 0 <= c + dc < n)
                counts[who] += target == "+" or (off and (dr, dc) == exits[who])
    return counts["H"], counts["V"]


@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_boards_count_as_an_independent_reading_of_the_rules(k):
    inp, out = _boards(FIXTURES)[k - 1]
    expected = tuple(int(x) for x in out.read_text().split())
    assert _count_by_the_rules_text(inp.read_text()) == expected
    assert parse_text(inp.read_text()).count_moves() == expected


def test_counts_include_moves_off_the_edge():
    # board 2: H (3,0) may leave off the right edge, V (1,3) off the top
    s = parse_text((FIXTURES / "input2.txt").read_text())
    assert Move(3, 0, RIGHT) in s.piece_moves(Side.H)
    assert Move(1, 3, UP) in s.piece_moves(Side.V)
    assert Move(3, 2, RIGHT) not in s.piece_moves(Side.V)  # V never leaves off the right edge
    assert s.count_moves() == (7, 7)


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "empty; expected the board size N"),
        ("x\n", r"line 1: 'x' is not a board size: expected a number 3 to 8"),
        ("2\nH +\n+ V\n", "board size 2 is out of range: expected 3 to 8"),
        ("9\n", "board size 9 is out of range: expected 3 to 8"),
        ("3\nH + +\n+ V\n+ + +\n", r"line 3: 2 cells in '\+ V', expected 3 \(ragged rows\)"),
        ("3\nH + +\n+ V + +\n+ + +\n", r"line 3: 4 cells in '\+ V \+ \+', expected 3 \(ragged rows\)"),
        ("3\nH + X\n+ V +\n+ + +\n", r"line 2 cell 3: unknown character 'X': expected H, V, B or \+"),
        ("3\nH + .\n+ V +\n+ + +\n", r"unknown character '\.'"),
        ("3\nH + +\n+ V +\n", "2 board rows after the size line, expected 3"),
        ("3\nH + +\n+ V +\n+ + +\n+ + +\n", "4 board rows after the size line, expected 3"),
    ],
)
def test_malformed_text(text, message):
    with pytest.raises(MalformedPosition, match=message):
        parse_text(text, source="b.txt")


def test_text_tolerates_trailing_blank_lines_and_extra_spaces():
    s = parse_text("3\n H  +  + \n+ V +\n+ + +\n\n\n")
    assert s.h == {(0, 2)} and s.v == {(1, 1)}


# --- JSON ------------------------------------------------------------------------------


def test_json_schema_and_round_trip():
    s = board("3\nH + B\n+ V +\n+ + +", "V")
    obj = GAME.to_json(s)
    assert obj == {
        "game": "slider",
        "n": 3,
        "board": [["H", None, "B"], [None, "V", None], [None, None, None]],
        "to_move": "V",
        "passes": 0,
    }
    assert GAME.from_json(obj) == s
    tied = board(STUCK_BOTH).apply(PASS).apply(PASS)
    assert GAME.from_json(GAME.to_json(tied)) == tied


@pytest.mark.parametrize(
    "obj, message",
    [
        ({"n": 3, "board": [], "to_move": "H"}, "board must be 3 rows of 3 cells"),
        ({"n": 10, "board": [], "to_move": "H"}, "board size 10 is out of range"),
        ({"n": "3", "board": [], "to_move": "H"}, "board size '3' is not a whole number"),
        ({"n": 3, "board": [["H", None, None], [None, "X", None], [None] * 3], "to_move": "H"}, "unknown board value 'X'"),
        ({"n": 3, "board": [["H", None, None], [None, "V", None], [None] * 3], "to_move": "Q"}, "to_move: bad player 'Q'"),
        ({"n": 3, "board": [["H", None, None], [None, "V", None], [None] * 3], "to_move": "H", "passes": 3}, "passes must be 0, 1 or 2"),
        ({"n": 3, "board": [["H", None, None]]}, "lacks 'to_move'"),
        ({"game": "slide", "n": 3, "board": [], "to_move": "H"}, "for game 'slide'"),
    ],
)
def test_malformed_json(obj, message):
    with pytest.raises(MalformedPosition, match=message):
        GAME.from_json(obj)


def test_perft_from_the_start():
    s = GAME.setup(n=4, blocked=[], first="H")
    # H: three pieces right, and (0,1) down into the empty corner
    assert GAME.perft(s, 1) == 4
    # V has three up moves and (1,0) left; H on (0,0) takes away the left move, H on (1,1) the up move of (1,0)
    assert [str(m) for m in s.legal_moves()] == ["(0,1): RIGHT", "(0,1): DOWN", "(0,2): RIGHT", "(0,3): RIGHT"]
    assert [len(s.apply(m).legal_moves()) for m in s.legal_moves()] == [3, 3, 4, 4]
    assert GAME.perft(s, 2) == 14
