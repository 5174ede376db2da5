"""Scavenger Hunt positions as JSON: writing them, and reading them back with every invariant checked."""

from __future__ import annotations

from typing import Any

from rules.errors import MalformedPosition, NotationError
from rules.grid import Cell, Grid, in_bounds
from rules.pieces import Coin, Rank, Suit
from rules.scavenger_hunt.state import MAX_PLAYERS, MIN_PLAYERS, MODES, NAME, SHAPE, CoinMark, Shift, State, validate


def to_json(state: State) -> dict:
    return {
        "game": NAME,
        "mode": state.mode,
        "players": [s.code for s in state.players],
        "to_move": state.to_move,
        "turn": state.turn,
        "must_move": state.must_move,
        "pawns": [list(p) for p in state.pawns],
        "coins": state.coins.to_lists(lambda v: v.code),
        "collected": [[r.code for r in got] for got in state.collected],
        "last_shifts": [None if s is None else s.to_json() for s in state.last_shifts],
    }

def from_json(obj: Any) -> State:
    """Parse and validate a position (schema in the README)."""
    if not isinstance(obj, dict):
        raise MalformedPosition(f"a Scavenger Hunt position is a JSON object, got {obj!r:.80}")
    known = {"game", "mode", "players", "to_move", "turn", "must_move", "pawns", "coins", "collected", "last_shifts"}
    extra = sorted(set(obj) - known)
    if extra:
        raise MalformedPosition(f"unknown keys {extra}: expected only {sorted(known)}")
    missing = sorted({"players", "pawns", "coins"} - set(obj))
    if missing:
        raise MalformedPosition(f"position lacks {missing}: expected at least players, pawns and coins")
    if obj.get("game", NAME) != NAME:
        raise MalformedPosition(f"position is for game {obj['game']!r}, expected {NAME!r}")
    mode = obj.get("mode", "referee")
    if mode not in MODES:
        raise MalformedPosition(f"bad mode {mode!r}: expected 'referee' or 'public'")
    raw_players = obj["players"]
    if not isinstance(raw_players, list) or not MIN_PLAYERS <= len(raw_players) <= MAX_PLAYERS:
        raise MalformedPosition(f"players must be a list of 2 to 4 suit letters, got {raw_players!r:.80}")
    try:
        players = tuple(Suit.parse(p) for p in raw_players)
    except NotationError as exc:
        raise MalformedPosition(f"players: {exc}") from None
    if len(set(players)) != len(players):
        raise MalformedPosition(f"players repeat a suit: {raw_players!r}")
    n = len(players)
    pawns = tuple(parse_square(p, f"pawns[{i}]") for i, p in enumerate(list_of(obj["pawns"], n, "pawns")))

    def parse_mark(text: Any) -> CoinMark:
        if mode == "referee":
            return Coin.parse(text)
        return parse_value(text)

    coins = Grid.parse(obj["coins"], parse_mark, shape=SHAPE, what="coins")
    collected = []
    for i, got in enumerate(list_of(obj.get("collected", [[] for _ in players]), n, "collected")):
        if not isinstance(got, list):
            raise MalformedPosition(f"collected[{i}] must be a list of values, got {got!r:.80}")
        try:
            ranks = [parse_value(r) for r in got]
        except NotationError as exc:
            raise MalformedPosition(f"collected[{i}]: {exc}") from None
        if len(set(ranks)) != len(ranks):
            raise MalformedPosition(f"collected[{i}] repeats a value: {got!r}")
        collected.append(tuple(sorted(ranks, key=int)))
    last = tuple(
        None if s is None else Shift.from_json(s)
        for s in list_of(obj.get("last_shifts", [None] * n), n, "last_shifts")
    )
    to_move, turn = obj.get("to_move", 0), obj.get("turn", 0)
    if isinstance(to_move, bool) or not isinstance(to_move, int) or not 0 <= to_move < n:
        raise MalformedPosition(f"to_move must be a player index 0 to {n - 1}, got {to_move!r}")
    if isinstance(turn, bool) or not isinstance(turn, int) or turn < 0:
        raise MalformedPosition(f"turn must be a count of turns played (>= 0), got {turn!r}")
    must_move = obj.get("must_move", True)
    if not isinstance(must_move, bool):
        raise MalformedPosition(f"must_move must be true or false, got {must_move!r}")
    state = State(players, pawns, coins, tuple(collected), last, to_move, turn, mode, must_move)
    validate(state)
    return state


def parse_value(text: Any) -> Rank:
    """A coin value as written in JSON: ``n a 2 3 4 5`` (lower case, so ``A`` (Arms) is refused)."""
    if isinstance(text, str) and len(text) == 1 and text.lower() == text:
        return Rank.parse(text)
    raise NotationError(f"bad coin value {text!r}: expected one of n, a, 2, 3, 4, 5")


def list_of(value: Any, n: int, what: str) -> list:
    if not isinstance(value, list) or len(value) != n:
        raise MalformedPosition(f"{what} must be a list of {n} entries, one per player, got {value!r:.80}")
    return value


def parse_square(value: Any, what: str) -> Cell:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(x, int) and not isinstance(x, bool) for x in value)
        or not in_bounds(tuple(value), SHAPE)
    ):
        raise MalformedPosition(f"{what} must be a square [row, col] with row 0-7 and col 0-11, got {value!r:.40}")
    return (value[0], value[1])
