"""Every sentence the Caller says for Slide (Gigamic), in the words of the rules text.

Players are spoken 1-based ("Player 1"); cards are plain numbers ("the 7"); rows and
columns are counted 1..4 from the top and from the left of the player's grid.

What is wrong with a move comes from the rules as a ``rules.reasons.Reason`` (the move codes
are ``rules.slide.reasons.MOVE_CODES``) and is said from its code, cells, pieces and player.
"""

from __future__ import annotations

from typing import Any, Sequence

from rules.slide import reasons
from rules.slide.state import COPIES, NUMBERS, ROUNDS, SIZE, Push, Score, SlideState, Tournament, standings, winners
from voice.phrasebook.common import join_and as _and
from voice.phrasebook.common import cell as cell_said
from voice.phrasebook.common import cells as cells_said
from voice.phrasebook.common import number_word, plural


def player(p: int) -> str:
    return f"Player {p + 1}"


def setup_lines(state: SlideState) -> list[str]:
    """The setup announcement, in the order of the rules text; the dealt cards stay secret."""
    n = state.players
    box = len(NUMBERS) * COPIES - ROUNDS * n
    return [
        f"Slide for {number_word(n)} players.",
        "Shuffle the hundred cards and deal sixteen cards, face down, to each player.",
        "Arrange your cards into a four by four square: this is your grid.",
        f"Return the remaining {box} cards to the box.",
        f"{player(state.first)} plays first and takes the First Player counter.",
    ]


def round_lines(state: SlideState) -> list[str]:
    """Said at the start of a round (reveal phase, nobody has revealed yet)."""
    return [
        f"Round {state.round} of {ROUNDS}. {player(state.first)} has the First Player counter.",
        "Everyone, turn one face-down card of your grid face up into the middle, at the same time.",
    ]


def middle_line(middle: Sequence[int]) -> str:
    return f"In the middle: {_and([str(n) for n in middle])}."


def push_prompt(p: int, middle: Sequence[int]) -> str:
    if len(middle) == 1:
        return f"{player(p)}, you take the last card, the {middle[0]}: push it into your grid."
    return f"{player(p)}, take a card from the middle and push it into your grid."


def push_line(p: int, push: Push, hole: tuple[int, int]) -> str:
    """``hole`` is the 0-based (row, col) the push filled."""
    return f"{player(p)} pushes the {push.card} in from the {push.side.value} of {_line(hole, push.side.axis)}."


def illegal(why: Any) -> str:
    """What is wrong with a move, from the rules' verdict ``why`` (a ``rules.reasons.Reason`` with
    a Slide move code): "player 2 cannot take a 6: it is not in the middle (1)". None (something
    that is no move at all) is a plain phrase."""
    if why is None:
        return "that is not a Slide move"
    code, pieces = why.code, why.pieces
    who = f"player {why.number + 1}" if why.number is not None else None
    cell = why.cells[0] if why.cells else None
    at = f"row {cell[0] + 1}, column {cell[1] + 1}" if cell else None
    if code == reasons.GAME_OVER:
        return f"the game is over: no more moves ({pieces[0]})"
    if code == reasons.MUST_PUSH:
        return f"{who} must push a card from the middle, not {pieces[0]}: everyone has revealed this round"
    if code == reasons.MUST_REVEAL:
        return f"{who} must first reveal a face-down card, not {pieces[0]}"
    if code == reasons.OFF_GRID:
        return f"{who} cannot reveal cell {cell!r}: expected (row, col) with each 0..{SIZE - 1}"
    if code == reasons.ALREADY_FACE_UP:
        return f"{who} cannot reveal the {pieces[0]} at {at}: it is already face up"
    if code == reasons.NO_SUCH_CARD:
        return f"{who} cannot take a {pieces[0]}: it is not in the middle ({', '.join(map(str, why.was))})"
    if code == reasons.HOLE_ON_EDGE:
        return (f"{who} cannot push from the {pieces[0].value}: the hole at {at} is on that edge, "
                "and a card may not go straight into the hole")
    raise ValueError(f"no words for the Slide reason {code!r}")


def illegal_line(why: Any) -> str:
    """"Illegal move: player 1 cannot take a 5: it is not in the middle (1, 6)." (``why`` as for ``illegal``)."""
    return f"Illegal move: {illegal(why)}."


def counter_line(state: SlideState) -> str:
    """Said after the last push of a round (the counter has already passed in ``state``)."""
    return f"The First Player counter passes to {player(state.first)}."


def score_lines(scores: Sequence[Score]) -> list[str]:
    """The end of a game: cancelling, each player's points, then the winner or the shared win."""
    lines = ["All orthogonally adjacent cards with the same number cancel each other out."]
    for p, s in enumerate(scores):
        if s.left:
            lines.append(f"{player(p)} scores {s.points} points ({' + '.join(map(str, s.left))}) with {plural(s.cards, 'card')} left.")
        else:
            lines.append(f"{player(p)} scores 0 points: every card cancelled.")
    lines.append(winner_line(scores))
    return lines


def winner_line(scores: Sequence[Score]) -> str:
    best = winners(scores)
    if len(best) == 1:
        return f"{player(best[0])} wins with {scores[best[0]].points} points."
    names = _and([player(p) for p in best])
    s = scores[best[0]]
    return f"{names} tie with {s.points} points and {s.cards} cards each, and share the victory."


def tiebreak_line(scores: Sequence[Score]) -> str | None:
    """Said when players tied on points are split by their cards left, else None."""
    best = winners(scores)
    low = min(s.points for s in scores)
    tied = [p for p, s in enumerate(scores) if s.points == low]
    if len(tied) > 1 and len(best) < len(tied):
        return f"{_and([player(p) for p in tied])} tie on {low} points; fewer cards left breaks the tie."
    return None


def tournament_lines(t: Tournament) -> list[str]:
    totals = ", ".join(f"{player(p)} {pts}" for p, pts in enumerate(t.totals))
    lines = [f"After game {t.games}: {totals} points."]
    if t.is_over:
        best = t.winners()
        if len(best) == 1:
            lines.append(f"{player(best[0])} wins the tournament with {t.totals[best[0]]} points.")
        else:
            lines.append(f"{_and([player(p) for p in best])} share the tournament win with {t.totals[best[0]]} points.")
    else:
        lines.append(f"Nobody has reached {t.target} points. {player(t.first)} plays first in the next game.")
    return lines


def places_line(scores: Sequence[Score]) -> str:
    """One line of places, e.g. "Places: Player 2 first, Player 1 second."."""
    ordinals = ["first", "second", "third", "fourth", "fifth", "sixth"]
    places = standings(scores)
    ranked = sorted(range(len(scores)), key=lambda p: (places[p], p))
    return "Places: " + ", ".join(f"{player(p)} {ordinals[places[p] - 1]}" for p in ranked) + "."


# -- the live Caller (``caller watch --game slide``): one player's grid seen by the camera ----------
def _line(hole: Sequence[int], axis: str) -> str:
    return f"row {hole[0] + 1}" if axis == "row" else f"column {hole[1] + 1}"


def live_start(face_down: int, hole: Sequence[int] | None) -> str:
    """Said once the grid is accepted as the start: what the Caller sees and what it waits for."""
    if face_down == 0 and hole is None:
        return "I see a finished grid."
    seen = f"I see your grid: {plural(face_down, 'card')} face down"
    if hole is not None:
        return seen + f" and the hole at {cell_said(hole)}. Push a card from the middle into it."
    return seen + ". Turn one face-down card face up into the middle."


def live_push(card: int, side: Any, hole: Sequence[int]) -> str:
    """A push seen: "The 7, in from the top of column 4." (``side`` a ``Side``; ``hole`` the cell it filled)."""
    return f"The {card}, in from the {side.value} of {_line(hole, side.axis)}."


def live_illegal(why: Any) -> str:
    """An observed change of the grid that is no reveal or push (a ``rules.slide.reasons`` code of
    an observed step), said to the player with what to do: put it back."""
    if why is None:
        return "I cannot tell what changed in your grid. Please put it back."
    code, cells = why.code, why.cells
    hole = cells[0] if cells else None
    if code == reasons.HOLES:
        return (f"Illegal: two cards are out of your grid, at {cells_said(cells)}. "
                "Turn only one card face up each round: put the other back face down.")
    if code == reasons.HOLE_MOVED:
        return (f"Illegal: a card was slid inside the grid into the hole at {cell_said(cells[0])}. "
                "Put it back, and push a card from the middle in from the edge.")
    if code == reasons.PUT_IN_HOLE:
        return (f"Illegal: a card was put straight into the hole at {cell_said(hole)}. "
                "Take it out again and push it in from the edge of the row or column.")
    if code == reasons.FACE_DOWN_PUSHED:
        return f"Illegal: the card pushed in at {cell_said(hole)} is face down. Cards from the middle go in face up."
    if code == reasons.FACE_UP_TAKEN:
        return f"Illegal: the {why.pieces[0]} at {cell_said(hole)} was already face up. Turn a face-down card instead."
    if code in (reasons.OUTSIDE, reasons.ROW_AND_COLUMN, reasons.NOT_ONE_PUSH, reasons.HOLE_STAYED,
                reasons.REVEAL_AND_MORE, reasons.NO_HOLE):
        return (f"Illegal: that is not one card pushed in from the edge of the hole's row or column "
                f"({reasons.text(why)}). Please put the grid back.")
    return f"Illegal: {reasons.text(why)}. Please put the grid back."


def unreadable_start(why: Any) -> str:
    """The first grid seen is no position of a game (two holes)."""
    if why is not None and why.code == reasons.HOLES:
        return f"Your grid has {len(why.cells)} holes, at {cells_said(why.cells)}: a grid has at most one."
    return "I cannot read your grid as a Slide grid."


def live_score(score: Score) -> str:
    """The end of the game for the grid in view: what cancels and its points."""
    lines = ["Count the scores. All orthogonally adjacent cards with the same number cancel each other out."]
    if score.left:
        lines.append(f"Your grid scores {score.points} points ({' + '.join(map(str, score.left))}) "
                     f"with {plural(score.cards, 'card')} left.")
    else:
        lines.append("Your grid scores 0 points: every card cancelled.")
    return " ".join(lines)


def restored() -> str:
    return "Thank you."


def accepted() -> str:
    return "Accepted: play on from this grid."
