"""Race scoring of Easy Slider rounds, as the rules text gives it.

A round: every player solves the same board. Players call "Done!" one after another;
each call is checked: a correct board scores one point per player still solving at that
moment (the players it beat: four for the first finisher of a five-player game, three for
the second ...), a wrong board is a "fumble" and scores zero. Either way the caller goes
out of the round. The round ends when one player is still solving; that player scores
zero. Then every player who did not fumble, the one who did not finish included, gets
one bonus point per fumbler ("all other players are considered to have beat every player
who fumbled"). Rounds add up; a tie for the most points at the end goes to a playoff
round among the tied players.

Where the text is silent: a fumbler is out of the round like a finisher (the text says
players "go out" until one is left, and a fumble's board is not re-checked), and a
round may also record the last player's own "Done!" (it beat nobody, so it changes
nothing but a fumble there still gives the others their bonus).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

from rules.errors import RulesError


class ScoringError(RulesError):
    """A round or a set of totals that does not make sense (unknown player, a player twice ...)."""


@dataclass(frozen=True)
class Finish:
    """One "Done!" call: who called it and whether the board was right (False: a fumble)."""

    player: str
    correct: bool


@dataclass(frozen=True)
class RoundResult:
    """A finished round: the players, and the "Done!" calls in the order they were made.

    ``finishes`` holds every player but at most one (the one still solving when the round
    ended).
    """

    players: tuple[str, ...]
    finishes: tuple[Finish, ...]

    def __post_init__(self) -> None:
        if len(set(self.players)) != len(self.players) or not self.players:
            raise ScoringError(f"a round needs distinct players, got {list(self.players)}")
        called = [f.player for f in self.finishes]
        unknown = [p for p in called if p not in self.players]
        if unknown:
            raise ScoringError(f"{unknown[0]!r} called Done! but is not a player of this round {list(self.players)}")
        if len(set(called)) != len(called):
            twice = next(p for p in called if called.count(p) > 1)
            raise ScoringError(f"{twice!r} called Done! twice in one round: a player goes out after calling")
        if len(called) < len(self.players) - 1:
            raise ScoringError(
                f"the round is not over: {len(self.players) - len(called)} players are still solving, "
                "it ends when one is left"
            )

    @property
    def unfinished(self) -> str | None:
        """The player still solving when the round ended (None if every player called Done!)."""
        rest = [p for p in self.players if p not in {f.player for f in self.finishes}]
        return rest[0] if rest else None

    @property
    def fumblers(self) -> tuple[str, ...]:
        return tuple(f.player for f in self.finishes if not f.correct)

    def points(self) -> dict[str, int]:
        """Points of every player for this round (finish points plus fumble bonuses)."""
        return score_round(self.players, self.finishes)


def score_round(players: Iterable[str], finishes: Iterable[Finish],
                times: Sequence[float] | None = None) -> dict[str, int]:
    """Points per player for one round, in the order of ``players``.

    A correct finisher scores the number of players still solving when it called (those
    who had not called yet, itself excluded); a fumble scores 0; the player left solving
    scores 0; then every non-fumbler gets one bonus point per fumbler. With ``times`` (one
    per finish, in order), finishes at the same moment tie: none of them was still solving
    when the others called, so each scores what the last of them would.
    """
    players = tuple(players)
    finishes = tuple(finishes)
    RoundResult(players, finishes)  # validates
    if times is not None and len(times) != len(finishes):
        raise ScoringError(f"{len(times)} finish times for {len(finishes)} finishes")
    n = len(players)
    points = {p: 0 for p in players}
    for i, finish in enumerate(finishes):
        if finish.correct:
            last = i
            while times is not None and last + 1 < len(finishes) and times[last + 1] == times[i]:
                last += 1
            points[finish.player] = n - (last + 1)
    fumblers = {f.player for f in finishes if not f.correct}
    for p in players:
        if p not in fumblers:
            points[p] += len(fumblers)
    return points


def totals(rounds: Iterable[Mapping[str, int]]) -> dict[str, int]:
    """Points added up over rounds (players in order of first appearance)."""
    out: dict[str, int] = {}
    for points in rounds:
        for player, value in points.items():
            out[player] = out.get(player, 0) + value
    return out


def leaders(scores: Mapping[str, int]) -> tuple[str, ...]:
    """The players with the most points, in the order of ``scores``."""
    if not scores:
        raise ScoringError("no scores: a game needs at least one player")
    best = max(scores.values())
    return tuple(p for p, v in scores.items() if v == best)


def winner(scores: Mapping[str, int]) -> str | None:
    """The single player with the most points, or None when several tie (a playoff decides)."""
    top = leaders(scores)
    return top[0] if len(top) == 1 else None


def playoff(scores: Mapping[str, int]) -> tuple[str, ...]:
    """The players who go to a playoff round: those tied for the most points (empty when one leads)."""
    top = leaders(scores)
    return top if len(top) > 1 else ()
