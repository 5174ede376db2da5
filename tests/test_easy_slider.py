"""Easy Slider: setup, JSON, slides and the goal."""

import json
import random

import pytest

import rules
from rules.easy_slider.game import GAME
from rules.easy_slider.state import EasySliderState, Slide, board_problems, goal_problems, is_done
from rules.errors import IllegalMove, MalformedPosition
from rules.grid import Grid
from rules.pieces import Pawn, Rank, Tile

T = Tile.parse


def solved_json(pawns="MSCA", coins="245a3", sponge=("An", "Cn", "Mn", "Sn", None)):
    """A done position for the given pawns and coins, with the sponge row as given."""
    board = [[p + c for c in coins] for p in pawns] + [list(sponge)]
    return {"board": board, "pawns": list(pawns), "coins": list(coins)}


def test_registry_finds_the_game():
    game = rules.get("easy-slider")
    assert game is GAME
    assert (game.name, game.title) == ("easy-slider", "Easy Slider")


def test_same_seed_same_setup_and_different_seeds_differ():
    a, b = GAME.setup(seed=7), GAME.setup(seed=7)
    assert a == b
    assert GAME.to_json(a) == GAME.to_json(b)
    assert len({json.dumps(GAME.to_json(GAME.setup(seed=s))) for s in range(20)}) == 20


def test_setup_shape_follows_the_rules_text():
    for seed in range(30):
        state = GAME.setup(seed=seed)
        assert state.hole == (4, 4), "the hole is in the lower right-hand corner"
        assert set(state.board.values()) - {None} == set(rules.easy_slider.state.TILES)
        assert sorted(p.code for p in state.pawns) == ["A", "C", "M", "S"]
        assert sorted(c.code for c in state.coins) == ["2", "3", "4", "5", "a"]


def test_setup_seed_7_exact():
    # pins the dealing order (pawns, coins, tiles): a change here changes every announced game
    state = GAME.setup(seed=7)
    assert [p.code for p in state.pawns] == ["A", "M", "S", "C"]
    assert [c.code for c in state.coins] == ["2", "4", "3", "5", "a"]
    assert [t.code for t in state.board.rows[0]] == ["C3", "Sn", "Mn", "C5", "Aa"]


def test_setup_without_seed_uses_system_randomness():
    deals = {json.dumps(GAME.to_json(GAME.setup())) for _ in range(5)}
    assert len(deals) == 5


def test_setup_options():
    # every player sets up the same board, so the number of players changes nothing
    assert GAME.setup(seed=1, players=3) == GAME.setup(seed=1)
    with pytest.raises(MalformedPosition, match="at least 1"):
        GAME.setup(seed=1, players=0)
    with pytest.raises(MalformedPosition, match="'size'"):
        GAME.setup(seed=1, size=4)


def test_json_round_trip_and_extra_keys_ignored():
    state = GAME.setup(seed=3)
    obj = GAME.to_json(state)
    assert obj["game"] == "easy-slider"
    assert GAME.from_json(obj) == state
    noisy = dict(obj, image="x.jpg", confidence=0.97, uncertain=[[2, 3]])
    assert GAME.from_json(noisy) == state


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda o: o.pop("board"), "lacks 'board'"),
        (lambda o: o.__setitem__("board", o["board"][:4]), "5 rows of 5"),
        (lambda o: o["board"][0].append("S5"), "5 rows of 5"),
        (lambda o: o["board"][0].__setitem__(0, "X9"), "'X9'"),
        (lambda o: o["board"][0].__setitem__(0, 5), "5"),
        (lambda o: o["board"][0].__setitem__(0, o["board"][0][1]), "twice"),
        (lambda o: o["board"][0].__setitem__(0, None), "2 holes"),
        (lambda o: o.__setitem__("pawns", ["M", "S", "C"]), "4 suit letters"),
        (lambda o: o.__setitem__("pawns", ["M", "S", "C", "M"]), "repeat"),
        (lambda o: o.__setitem__("pawns", ["M", "S", "C", "X"]), "'X'"),
        (lambda o: o.__setitem__("coins", ["2", "4", "5", "a"]), "5 coin values"),
        (lambda o: o.__setitem__("coins", ["2", "4", "5", "a", "a"]), "once each"),
        (lambda o: o.__setitem__("coins", ["2", "4", "5", "a", "n"]), "null coin"),
        (lambda o: o.__setitem__("coins", ["2", "4", "5", "a", "S"]), "suit side"),
    ],
)
def test_malformed_positions_are_rejected_with_a_reason(mutate, message):
    obj = GAME.to_json(GAME.setup(seed=1))
    mutate(obj)
    with pytest.raises(MalformedPosition, match=message):
        GAME.from_json(obj)


def test_legal_moves_are_the_slides_into_the_hole():
    state = GAME.setup(seed=7)
    assert GAME.legal_moves(state) == [
        Slide(T("C2"), (3, 4), (4, 4)),
        Slide(T("Cn"), (4, 3), (4, 4)),
    ]
    after = GAME.apply(state, Slide(T("C2"), (3, 4), (4, 4)))
    assert after.hole == (3, 4)
    assert after.board[(4, 4)] == T("C2")
    assert [m.src for m in GAME.legal_moves(after)] == [(2, 4), (4, 4), (3, 3)]
    assert state.slide((4, 3)).board[(4, 4)] == T("Cn")


@pytest.mark.parametrize(
    "move, message",
    [
        (Slide(T("C2"), (3, 3), (4, 4)), "cannot slide C2 from \\[3, 3\\]: that cell holds S5"),
        (Slide(T("S5"), (3, 3), (4, 4)), "diagonal"),
        (Slide(T("S2"), (4, 2), (4, 4)), "not next to the hole"),
        (Slide(T("C2"), (4, 4), (3, 4)), "not the hole"),
        (Slide(T("C2"), (3, 5), (4, 4)), "off the 5x5 board"),
        ("up", "not a slide"),
    ],
)
def test_illegal_slides_say_why(move, message):
    state = GAME.setup(seed=7)
    with pytest.raises(IllegalMove, match=message):
        GAME.apply(state, move)


def test_slide_from_the_hole_is_illegal():
    with pytest.raises(IllegalMove, match="is the hole"):
        GAME.setup(seed=7).slide((4, 4))


@pytest.mark.parametrize(
    "sponge",
    [
        ("An", "Cn", "Mn", "Sn", None),
        (None, "An", "Cn", "Mn", "Sn"),
        ("Sn", "Mn", None, "Cn", "An"),
        ("Cn", None, "Sn", "An", "Mn"),
        ("Mn", "Sn", "An", None, "Cn"),
    ],
)
def test_every_goal_variant_is_done(sponge):
    state = GAME.from_json(solved_json(sponge=sponge))
    assert goal_problems(state) == []
    assert is_done(state) and GAME.is_over(state)
    assert GAME.legal_moves(state) == []


def test_goal_follows_pawns_and_coins():
    state = GAME.from_json(solved_json(pawns="ACMS", coins="5a234"))
    assert state.goal_tile((0, 0)) == T("A5")
    assert state.goal_tile((3, 1)) == T("Sa")
    assert state.goal_tile((4, 2)) is None
    assert is_done(state)
    # the same board under other coins is not done: every cell of rows 1-4 is then wrong
    other = EasySliderState(state.board, state.pawns, tuple(Rank.parse(c) for c in "a2345"))
    assert len(goal_problems(other)) == 20


def test_goal_problems_name_the_wrong_cells():
    obj = solved_json()
    board = obj["board"]
    board[0][0], board[0][1] = board[0][1], board[0][0]  # two tiles of row 1 exchanged
    board[3][4], board[4][4] = None, board[3][4]  # S3 down in the sponge row, hole up
    state = GAME.from_json(obj)
    assert goal_problems(state) == [(0, 0), (0, 1), (3, 4), (4, 4)]
    assert not is_done(state)
    # a null above the sponge row is wrong even though the nulls are interchangeable
    obj = solved_json()
    obj["board"][4][0], obj["board"][3][0] = obj["board"][3][0], obj["board"][4][0]
    assert goal_problems(GAME.from_json(obj)) == [(3, 0), (4, 0)]


def test_board_problems_of_observed_boards():
    good = GAME.setup(seed=2).board
    assert board_problems(good) == []
    lifted = good.set((0, 0), None)
    assert board_problems(lifted) == [
        "the board has 2 holes ([0, 0], [4, 4]): expected exactly one",
        f"tile(s) {good[(0, 0)].code} missing from the board",
    ]
    doubled = good.set((4, 4), good[(0, 0)])
    assert board_problems(doubled) == [
        f"tile {good[(0, 0)].code} is on the board twice, at [0, 0] and [4, 4]",
        "the board has 0 holes (none): expected exactly one",
    ]
    assert board_problems(Grid.filled((4, 5))) == ["board must be a 5x5 grid, got (4, 5)"]


def test_random_play_keeps_the_invariants():
    rng = random.Random(5)
    state = GAME.setup(seed=5)
    for _ in range(200):
        state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
        assert board_problems(state.board) == []
    assert state.pawns == GAME.setup(seed=5).pawns


def test_pawn_values():
    state = GAME.setup(seed=7)
    assert state.pawns[0] == Pawn.parse("A")
