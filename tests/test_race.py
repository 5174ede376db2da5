"""Race scoring: the rules text's numbers, fumbles, bonuses, totals and playoffs."""

import pytest

from rules.errors import RulesError
from rules.easy_slider.race import Finish, RoundResult, ScoringError, leaders, playoff, score_round, totals, winner

FIVE = ("Ann", "Bob", "Cat", "Dan", "Eve")


def ok(p):
    return Finish(p, True)


def fumble(p):
    return Finish(p, False)


def test_five_players_no_fumble_the_texts_numbers():
    # "four points in a five-player game" for the first, "three points" for the second;
    # the last one still solving "receives zero points"
    points = score_round(FIVE, [ok("Cat"), ok("Ann"), ok("Eve"), ok("Bob")])
    assert points == {"Ann": 3, "Bob": 1, "Cat": 4, "Dan": 0, "Eve": 2}


def test_a_fumble_scores_zero_and_every_non_fumbler_gets_a_bonus():
    points = score_round(FIVE, [fumble("Cat"), ok("Ann"), ok("Eve"), ok("Bob")])
    # Ann beat the 3 still solving, +1 bonus for Cat's fumble; Dan never finished: 0 + 1
    assert points == {"Ann": 4, "Bob": 2, "Cat": 0, "Dan": 1, "Eve": 3}
    assert sum(points.values()) == 10  # as if everyone beat the fumbler


def test_two_fumbles_give_two_bonus_points():
    points = score_round(FIVE, [ok("Bob"), fumble("Dan"), ok("Eve"), fumble("Ann")])
    assert points == {"Ann": 0, "Bob": 4 + 2, "Cat": 0 + 2, "Dan": 0, "Eve": 2 + 2}


def test_everybody_fumbles_but_the_one_left():
    points = score_round(("A", "B", "C"), [fumble("A"), fumble("B")])
    assert points == {"A": 0, "B": 0, "C": 2}


def test_the_last_player_may_also_call_done():
    assert score_round(("A", "B"), [ok("A"), ok("B")]) == {"A": 1, "B": 0}
    assert score_round(("A", "B", "C"), [ok("A"), ok("B"), fumble("C")]) == {"A": 3, "B": 2, "C": 0}


def test_solitaire_round():
    assert score_round(("Solo",), []) == {"Solo": 0}


def test_round_result_value():
    result = RoundResult(FIVE, (fumble("Cat"), ok("Ann"), ok("Eve"), ok("Bob")))
    assert result.unfinished == "Dan"
    assert result.fumblers == ("Cat",)
    assert result.points()["Ann"] == 4
    assert RoundResult(("A", "B"), (ok("A"), ok("B"))).unfinished is None


@pytest.mark.parametrize(
    "players, finishes, message",
    [
        (FIVE, [ok("Zed"), ok("Ann"), ok("Bob"), ok("Cat")], "'Zed' called Done! but is not a player"),
        (FIVE, [ok("Ann"), ok("Ann"), ok("Bob"), ok("Cat")], "'Ann' called Done! twice"),
        (FIVE, [ok("Ann"), ok("Bob")], "3 players are still solving"),
        (("A", "A"), [ok("A")], "distinct players"),
        ((), [], "distinct players"),
    ],
)
def test_bad_rounds_are_refused(players, finishes, message):
    with pytest.raises(ScoringError, match=message):
        score_round(players, finishes)
    assert issubclass(ScoringError, RulesError)


def test_rounds_add_up_and_a_clear_winner():
    r1 = score_round(FIVE, [ok("Cat"), ok("Ann"), ok("Eve"), ok("Bob")])
    r2 = score_round(FIVE, [ok("Ann"), fumble("Bob"), ok("Dan"), ok("Cat")])
    assert r2 == {"Ann": 5, "Bob": 0, "Cat": 2, "Dan": 3, "Eve": 1}
    total = totals([r1, r2])
    assert total == {"Ann": 8, "Bob": 1, "Cat": 6, "Dan": 3, "Eve": 3}
    assert leaders(total) == ("Ann",)
    assert winner(total) == "Ann"
    assert playoff(total) == ()


def test_a_tie_at_the_top_goes_to_a_playoff_and_the_playoff_decides():
    r1 = score_round(("A", "B", "C"), [ok("A"), ok("B")])  # A 2, B 1, C 0
    r2 = score_round(("A", "B", "C"), [ok("B"), ok("C")])  # B 2, C 1, A 0
    total = totals([r1, r2])
    assert total == {"A": 2, "B": 3, "C": 1}
    r3 = score_round(("A", "B", "C"), [ok("A"), ok("C")])  # A 2, C 1, B 0
    total = totals([r1, r2, r3])
    assert total == {"A": 4, "B": 3, "C": 2}
    r4 = score_round(("A", "B", "C"), [ok("B"), ok("A")])  # B 2, A 1
    total = totals([r1, r2, r3, r4])
    assert total == {"A": 5, "B": 5, "C": 2}
    assert winner(total) is None
    assert playoff(total) == ("A", "B")
    # the playoff round is played by the tied players only
    final = score_round(playoff(total), [ok("B")])
    assert final == {"A": 0, "B": 1}
    assert winner(final) == "B"


def test_a_tie_below_the_top_needs_no_playoff():
    assert playoff({"A": 5, "B": 3, "C": 3}) == ()


def test_no_scores():
    with pytest.raises(ScoringError):
        leaders({})
