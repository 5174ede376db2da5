"""Slide (Gigamic) rules engine: deal, reveals and pushes, scoring, tie-breaks, tournament, JSON, text grids."""

import json
import random

import pytest

import rules
from rules.errors import IllegalMove, MalformedPosition, NotationError, RulesError
from rules.grid import Grid
from rules.slide.codec import from_json, to_json
from rules.slide.notation import parse_grid_text, parse_move
from rules.slide.state import Card, Phase, Push, Reveal, Score, Side, Tournament, deal, score_grid, standings, winners

GAME = rules.get("slide")

# The rules text's example: the 8s, 10s, 1s and the two touching 4s cancel; 5 + 5 + 3 + 4 + 7 = 24 is left.
EXAMPLE = [
    [8, 8, 5, 10],
    [5, 8, 10, 10],
    [1, 4, 4, 7],
    [1, 1, 3, 4],
]

FULL_A = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 1, 2], [3, 4, 5, 6]]
FULL_B = [[7, 8, 9, 10], [1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 1, 2]]


def last_round(grid_a, grid_b, middle, to_act=0, first=0):
    """A round-16 push-phase position (every card face up) from two grids with one hole each."""
    return from_json(
        {
            "game": "slide",
            "players": 2,
            "round": 16,
            "phase": "place",
            "first": first,
            "to_act": to_act,
            "middle": middle,
            "grids": [grid_a, grid_b],
        }
    )


def with_hole(grid, cell):
    rows = [list(r) for r in grid]
    rows[cell[0]][cell[1]] = None
    return rows


def numbers(state, player):
    return [list(r) for r in state.numbers(player).rows]


# -- scoring -------------------------------------------------------------------------------------


def test_rules_text_example_scores_24_points_with_5_cards():
    score = score_grid(Grid.of(EXAMPLE))
    assert score.to_json() == {"points": 24, "cards": 5}
    assert score.left == (5, 5, 7, 3, 4)
    assert score.cancelled == (
        (0, 0), (0, 1), (0, 3), (1, 1), (1, 2), (1, 3), (2, 0), (2, 1), (2, 2), (3, 0), (3, 1),
    )


def test_cancelling_is_simultaneous_and_orthogonal_only():
    grid = Grid.of([[2, 3, 2, 3], [3, 2, 3, 2], [2, 3, 2, 3], [3, 2, 3, 2]])  # equal numbers only diagonally
    assert score_grid(grid).to_json() == {"points": 40, "cards": 16}
    grid = Grid.of([[6, 6, 6, 6]] * 2 + [[1, 2, 1, 2], [2, 1, 2, 1]])
    assert score_grid(grid).to_json() == {"points": 12, "cards": 8}
    assert score_grid(Grid.of([[5] * 4] * 2 + [[4] * 4] * 2)).to_json() == {"points": 0, "cards": 0}


def test_score_of_face_up_cards_in_a_state_matches_plain_numbers():
    cards = Grid.of([[Card(v, True) for v in row] for row in EXAMPLE])
    assert score_grid(cards) == score_grid(Grid.of(EXAMPLE))


def test_tie_breaks_points_then_cards_then_shared():
    s = lambda p, c: Score(p, c, (), ())  # noqa: E731
    assert winners([s(30, 6), s(24, 5)]) == [1]
    assert winners([s(24, 4), s(24, 5)]) == [0]  # tied on points: fewer cards wins
    assert winners([s(24, 5), s(24, 5), s(30, 2)]) == [0, 1]  # still tied: shared win
    assert standings([s(24, 5), s(24, 5), s(30, 2), s(24, 6)]) == [1, 1, 4, 3]


def test_tournament_ends_at_100_and_the_fewest_points_win():
    s = lambda p: Score(p, 5, (), ())  # noqa: E731
    t = Tournament.start(3, first=2)
    t = t.record([s(40), s(30), s(50)])
    assert (t.totals, t.games, t.first, t.is_over) == ((40, 30, 50), 1, 0, False)
    t = t.record([s(60), s(60), s(49)])
    assert (t.totals, t.first, t.is_over) == ((100, 90, 99), 1, True)
    assert t.winners() == [1]
    with pytest.raises(RulesError, match="over"):
        t.record([s(1), s(1), s(1)])
    tied = Tournament.start(2).record([s(50), s(50)]).record([s(50), s(50)])
    assert tied.is_over and tied.winners() == [0, 1]


# -- the deal ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_deal_gives_16_face_down_cards_each_from_the_100(players):
    state = deal(11, players)
    assert state.players == players and state.round == 1 and state.phase is Phase.REVEAL
    assert state.to_act == state.first and state.middle == ()
    every = [v for g in state.grids for v in g.values()]
    assert len(every) == 16 * players and all(not c.face_up for c in every)
    counts = {n: sum(c.number == n for c in every) for n in range(1, 11)}
    assert max(counts.values()) <= 10 and sum(counts.values()) == 16 * players
    assert to_json(deal(11, players)) == to_json(state)


def test_deal_differs_by_seed_and_honours_first():
    assert to_json(deal(1))["grids"] != to_json(deal(2))["grids"]
    assert deal(1, 4, first=3).first == 3 and deal(1, 4, first=3).to_act == 3
    with pytest.raises(MalformedPosition, match="2 to 6 players"):
        deal(1, 7)
    with pytest.raises(MalformedPosition, match="first player"):
        deal(1, 3, first=3)
    with pytest.raises(MalformedPosition, match="unknown Slide setup options"):
        GAME.setup(seed=1, colour="red")


# -- a round ----------------------------------------------------------------------------------------


def test_a_round_reveals_in_turn_order_then_pushes_and_passes_the_counter():
    state = deal(5, 3, first=1)
    assert state.order == [1, 2, 0]
    down = {p: state.grids[p][(0, 0)].number for p in range(3)}
    for p in (1, 2, 0):
        assert state.to_act == p and state.phase is Phase.REVEAL
        state = state.apply(Reveal((0, 0)))
    assert state.phase is Phase.PLACE and state.to_act == 1
    assert state.middle == tuple(sorted(down.values()))
    assert all(state.hole(p) == (0, 0) for p in range(3))
    assert state.push_sides(1) == [Side.BOTTOM, Side.RIGHT]  # corner hole: two ways in
    for p in (1, 2):
        state = state.apply(Push(state.middle[0], Side.RIGHT))
        assert state.hole(p) is None
    assert state.to_act == 0 and len(state.middle) == 1
    last = state.middle[0]
    assert state.legal_moves() == [Push(last, Side.BOTTOM), Push(last, Side.RIGHT)]  # the last card, no choice
    state = state.apply(Push(last, Side.BOTTOM))
    assert (state.round, state.first, state.to_act, state.phase) == (2, 2, 2, Phase.REVEAL)
    assert state.middle == ()
    assert all(len(state.face_down(p)) == 15 for p in range(3))


def test_push_in_every_direction_with_the_hole_in_the_middle():
    hole = (1, 2)
    start = last_round(with_hole(FULL_A, hole), with_hole(FULL_B, (0, 0)), [3, 9])
    assert start.push_sides(0) == [Side.TOP, Side.BOTTOM, Side.LEFT, Side.RIGHT]
    expected = {
        Side.LEFT: [[1, 2, 3, 4], [9, 5, 6, 8], [9, 10, 1, 2], [3, 4, 5, 6]],
        Side.RIGHT: [[1, 2, 3, 4], [5, 6, 8, 9], [9, 10, 1, 2], [3, 4, 5, 6]],
        Side.TOP: [[1, 2, 9, 4], [5, 6, 3, 8], [9, 10, 1, 2], [3, 4, 5, 6]],
        Side.BOTTOM: [[1, 2, 3, 4], [5, 6, 1, 8], [9, 10, 5, 2], [3, 4, 9, 6]],
    }
    entry = {Side.LEFT: (1, 0), Side.RIGHT: (1, 3), Side.TOP: (0, 2), Side.BOTTOM: (3, 2)}
    for side, rows in expected.items():
        after = start.apply(Push(9, side))
        assert numbers(after, 0) == rows, side
        assert after.grids[0][entry[side]] == Card(9, True)  # the pushed card lies face up on the edge
        assert after.middle == (3,) and after.to_act == 1
    assert numbers(start, 0) == with_hole(FULL_A, hole)  # the state is a value: unchanged


def test_hole_in_a_corner_allows_only_the_two_far_edges():
    start = last_round(with_hole(FULL_A, (3, 3)), with_hole(FULL_B, (0, 0)), [3, 9])
    assert start.push_sides(0) == [Side.TOP, Side.LEFT]
    assert numbers(start.apply(Push(3, Side.TOP)), 0) == [[1, 2, 3, 3], [5, 6, 7, 4], [9, 10, 1, 8], [3, 4, 5, 2]]
    assert numbers(start.apply(Push(3, Side.LEFT)), 0) == [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 1, 2], [3, 3, 4, 5]]
    for side in (Side.BOTTOM, Side.RIGHT):
        with pytest.raises(IllegalMove, match="straight into the hole"):
            start.apply(Push(3, side))


def test_hole_on_an_edge_allows_three_sides():
    start = last_round(with_hole(FULL_A, (0, 1)), with_hole(FULL_B, (0, 0)), [3, 9])
    assert start.push_sides(0) == [Side.BOTTOM, Side.LEFT, Side.RIGHT]
    assert [m for m in start.legal_moves()] == [Push(n, s) for n in (3, 9) for s in (Side.BOTTOM, Side.LEFT, Side.RIGHT)]


def test_the_last_push_of_round_16_ends_the_game():
    state = last_round(with_hole(FULL_A, (1, 2)), with_hole(FULL_B, (0, 0)), [3, 9])
    state = state.apply(Push(3, Side.LEFT)).apply(Push(9, Side.BOTTOM))
    assert state.is_over and GAME.is_over(state) and state.to_act is None and state.legal_moves() == []
    assert state.first == 1
    assert [s.to_json() for s in state.scores()] == [
        {"points": 72, "cards": 16},  # rows 1 2 3 4 / 3 5 6 8 / 9 10 1 2 / 3 4 5 6: nothing touches its twin
        {"points": 76, "cards": 14},  # column 1 becomes 1 5 9 9: the two 9s cancel
    ]
    with pytest.raises(IllegalMove, match="game is over"):
        state.apply(Push(3, Side.LEFT))


def test_scores_before_the_end_is_an_error():
    with pytest.raises(RulesError, match="not over: round 1, reveal phase"):
        deal(1).scores()


def test_illegal_moves_say_why():
    state = deal(2)
    p = state.to_act + 1
    with pytest.raises(IllegalMove, match=f"player {p} must first reveal"):
        state.apply(Push(3, Side.LEFT))
    with pytest.raises(IllegalMove, match="cannot reveal cell"):
        state.apply(Reveal((4, 0)))
    with pytest.raises(IllegalMove, match="not a Slide move"):
        state.apply("2 3")
    placing = last_round(with_hole(FULL_A, (1, 2)), with_hole(FULL_B, (0, 0)), [1, 9])
    with pytest.raises(IllegalMove, match=r"cannot take a 5: it is not in the middle \(1, 9\)"):
        placing.apply(Push(5, Side.LEFT))
    with pytest.raises(IllegalMove, match="cannot take a True"):
        placing.apply(Push(True, Side.LEFT))  # True == 1 in Python, but it is not a card
    with pytest.raises(IllegalMove, match="cannot push from 'up'"):
        placing.apply(Push(9, "up"))
    with pytest.raises(IllegalMove, match="must push a card"):
        placing.apply(Reveal((0, 0)))
    revealed = deal(2, first=0).apply(Reveal((0, 0))).apply(Reveal((1, 1)))
    turned_up = revealed.apply(Push(revealed.middle[0], Side.BOTTOM))
    # cards pushed in are face up, and a face-up card may not be revealed again
    assert turned_up.grids[0][(3, 0)].face_up
    round2 = turned_up.apply(Push(turned_up.middle[0], Side.TOP))
    assert round2.to_act == 1 and round2.grids[1][(0, 1)].face_up
    with pytest.raises(IllegalMove, match="player 2 cannot reveal the .* at row 1, column 2: it is already face up"):
        round2.apply(Reveal((0, 1)))


@pytest.mark.parametrize("players", [2, 6])
def test_random_games_run_16_rounds_and_end_with_every_card_face_up(players):
    rng = random.Random(players)
    state = GAME.setup(seed=players, players=players)
    moves = 0
    while not GAME.is_over(state):
        state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
        moves += 1
    assert moves == 16 * 2 * players
    assert all(v.face_up for g in state.grids for v in g.values())
    assert GAME.from_json(json.loads(json.dumps(GAME.to_json(state)))) == state


# -- JSON -------------------------------------------------------------------------------------------


def test_json_schema_of_a_position():
    state = deal(3, 2, first=1).apply(Reveal((2, 1)))
    obj = to_json(state)
    assert sorted(obj) == ["first", "game", "grids", "middle", "phase", "players", "round", "to_act"]
    assert (obj["game"], obj["players"], obj["round"], obj["phase"], obj["first"], obj["to_act"]) == (
        "slide", 2, 1, "reveal", 1, 0,
    )
    assert obj["grids"][1][2][1] is None
    assert obj["middle"] == [deal(3, 2, first=1).grids[1][(2, 1)].number]
    assert obj["grids"][0][0][0] == {"down": state.grids[0][(0, 0)].number}
    assert from_json(obj) == state


def _valid():
    return to_json(last_round(with_hole(FULL_A, (1, 2)), with_hole(FULL_B, (0, 0)), [3, 9]))


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda o: o.pop("round"), "missing"),
        (lambda o: o.update(extra=1), "unexpected"),
        (lambda o: o.update(game="slider"), "expected 'slide'"),
        (lambda o: o.update(players=1), "2 to 6 players"),
        (lambda o: o.update(phase="push"), "phase 'push'"),
        (lambda o: o.update(round=17), "round 17"),
        (lambda o: o.update(first=2), "first 2"),
        (lambda o: o.update(to_act=True), "to_act True"),
        (lambda o: o.update(middle=[3, 11]), "11 is not a card"),
        (lambda o: o.update(middle=[3]), "the middle holds 1 cards; expected 2"),
        (lambda o: o["grids"][0][0].__setitem__(0, "1"), "'1' is not a card"),
        (lambda o: o["grids"][0][0].__setitem__(0, {"up": 1}), "face-down card is written"),
        (lambda o: o["grids"][0][0].__setitem__(0, None), "2 holes; expected 1"),
        (lambda o: o["grids"][0][0].__setitem__(0, {"down": 1}), "1 face-down cards; expected 0"),
        (lambda o: o["grids"][1].pop(), "4 rows of 4 cells"),
        (lambda o: o.update(grids=o["grids"][:1]), "list of 2 grids"),
        (lambda o: [o["grids"][p].__setitem__(r, [10] * 4) for p, r in ((0, 0), (0, 3), (1, 1))], "more than 10 cards numbered 10"),
        (lambda o: o.update(phase="over", to_act=None), "a finished game|holes"),
    ],
)
def test_malformed_positions_say_what_is_wrong(change, message):
    obj = _valid()
    from_json(obj)
    change(obj)
    with pytest.raises(MalformedPosition, match=message):
        from_json(obj)


# -- text notation ----------------------------------------------------------------------------------


def test_parse_move():
    assert parse_move("2 3") == Reveal((1, 2)) == parse_move("reveal 2,3")
    assert parse_move("7 left") == Push(7, Side.LEFT) == parse_move("push 7 l")
    assert parse_move("10 B") == Push(10, Side.BOTTOM)
    assert str(Reveal((1, 2))) == "reveal 2 3" and str(Push(7, Side.TOP)) == "push 7 top"
    for bad, message in [("5 0", "1 to 4"), ("left 7", "cannot read"), ("7 up", "unknown side 'up'"), ("push 2 3", "cannot read"), ("", "cannot read")]:
        with pytest.raises(NotationError, match=message):
            parse_move(bad)


def test_parse_grid_text_reads_rows_of_numbers():
    text = "# the rules text's example\n8 8 5 10\n5 8 10 10\n\n1 4 4 7   # third row\n1 1 3 4\n"
    assert parse_grid_text(text) == Grid.of(EXAMPLE)


@pytest.mark.parametrize(
    "text, message",
    [
        ("8 8 5\n5 8 10 10\n1 4 4 7\n1 1 3 4\n", "line 1: 3 numbers, expected 4"),
        ("8 8 5 10\n5 8 10 10\n1 4 4 7\n", "3 rows of numbers, expected 4"),
        ("8 8 5 10\n5 8 10 10\n1 4 4 7\n1 1 3 4\n1 1 1 1\n", "5 rows"),
        ("8 8 5 10\n5 8 x 10\n1 4 4 7\n1 1 3 4\n", "line 2: 'x' is not a card"),
        ("8 8 5 10\n5 8 0 10\n1 4 4 7\n1 1 3 4\n", "'0' is not a card"),
        ("8 8 5 10\n5 8 11 10\n1 4 4 7\n1 1 3 4\n", "'11' is not a card"),
        ("8 8 5 10\n5 8 -1 10\n1 4 4 7\n1 1 3 4\n", "'-1' is not a card"),
        ("8 8 5 10\n5 8 . 10\n1 4 4 7\n1 1 3 4\n", "'.' is not a card"),
        ("3 3 3 3\n3 3 3 3\n3 3 3 1\n1 1 1 1\n", "11 cards numbered 3"),
        ("", "0 rows"),
    ],
)
def test_malformed_grid_text(text, message):
    with pytest.raises(MalformedPosition, match=message):
        parse_grid_text(text)


def test_perft_counts_reveals_then_pushes():
    state = deal(1, 2, first=0)
    cells = [(r, c) for r in range(4) for c in range(4)]

    def ways_in(cell):  # edges of the hole's row and column that the hole is not on
        return (cell[0] != 0) + (cell[0] != 3) + (cell[1] != 0) + (cell[1] != 3)

    # player 1 pushes after both reveals: a distinct card number times a way in
    by_hand = sum(
        ways_in(c1) * len({state.grids[0][c1].number, state.grids[1][c2].number}) for c1 in cells for c2 in cells
    )
    assert [rules.perft(GAME, state, d) for d in (1, 2)] == [16, 256]
    assert rules.perft(GAME, state, 3) == by_hand
