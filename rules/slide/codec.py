"""Slide positions as JSON: writing them, and reading them back with every invariant checked."""

from __future__ import annotations

from collections import Counter
from typing import Any

from rules.errors import MalformedPosition
from rules.grid import Grid
from rules.slide.state import COPIES, NUMBERS, ROUNDS, SHAPE, Card, Phase, SlideState, card_number, check_players


def _cell_to_json(card: Card | None) -> Any:
    if card is None:
        return None
    return card.number if card.face_up else {"down": card.number}


def number_from_json(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value not in NUMBERS:
        raise MalformedPosition(f"{where}: {value!r} is not a card: expected a number 1 to 10")
    return value


def _cell_from_json(value: Any, where: str) -> Card | None:
    if value is None:
        return None
    if isinstance(value, dict):
        if set(value) != {"down"}:
            raise MalformedPosition(f"{where}: {value!r}: a face-down card is written {{\"down\": N}}")
        return Card(number_from_json(value["down"], where), False)
    return Card(number_from_json(value, where), True)


def to_json(state: SlideState) -> dict:
    """The documented position schema (the README)."""
    return {
        "game": "slide",
        "players": state.players,
        "round": state.round,
        "phase": state.phase.value,
        "first": state.first,
        "to_act": state.to_act,
        "middle": list(state.middle),
        "grids": [[[_cell_to_json(v) for v in row] for row in g.rows] for g in state.grids],
    }


_KEYS = ("game", "players", "round", "phase", "first", "to_act", "middle", "grids")


def from_json(obj: Any) -> SlideState:
    """Parse and validate a position; raises MalformedPosition quoting what is wrong."""
    if not isinstance(obj, dict):
        raise MalformedPosition(f"a Slide position must be a JSON object, got {obj!r:.80}")
    missing = [k for k in _KEYS if k not in obj]
    extra = sorted(set(obj) - set(_KEYS))
    if missing or extra:
        raise MalformedPosition(
            f"Slide position keys: missing {missing or 'none'}, unexpected {extra or 'none'}; expected {list(_KEYS)}"
        )
    if obj["game"] != "slide":
        raise MalformedPosition(f"game is {obj['game']!r}, expected 'slide'")
    players = check_players(obj["players"])
    try:
        phase = Phase(obj["phase"])
    except (ValueError, TypeError):
        raise MalformedPosition(f"phase {obj['phase']!r}: expected 'reveal', 'place' or 'over'") from None
    rnd, first, to_act = obj["round"], obj["first"], obj["to_act"]
    if isinstance(rnd, bool) or not isinstance(rnd, int) or not 1 <= rnd <= ROUNDS:
        raise MalformedPosition(f"round {rnd!r}: expected 1 to {ROUNDS}")
    if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < players:
        raise MalformedPosition(f"first {first!r}: expected a player index 0 to {players - 1}")
    if phase is Phase.OVER:
        if to_act is not None:
            raise MalformedPosition(f"to_act {to_act!r}: expected null once the game is over")
    elif isinstance(to_act, bool) or not isinstance(to_act, int) or not 0 <= to_act < players:
        raise MalformedPosition(f"to_act {to_act!r}: expected a player index 0 to {players - 1}")
    middle = obj["middle"]
    if not isinstance(middle, list):
        raise MalformedPosition(f"middle {middle!r:.80}: expected a list of card numbers")
    middle_cards = tuple(sorted(number_from_json(v, "middle") for v in middle))
    grids_in = obj["grids"]
    if not isinstance(grids_in, list) or len(grids_in) != players:
        raise MalformedPosition(f"grids: expected a list of {players} grids (one per player), got {grids_in!r:.80}")
    grids = []
    for p, rows in enumerate(grids_in):
        what = f"grid of player {p + 1}"
        grids.append(Grid.parse(rows, lambda v, w=what: _cell_from_json(v, w), SHAPE, what))
    grids_t = tuple(grids)
    if phase is Phase.OVER and rnd != ROUNDS:
        raise MalformedPosition(f"round {rnd}: a finished game ends in round {ROUNDS}")
    state = SlideState(grids_t, middle_cards, rnd, first, phase, to_act)
    _check_invariants(state)
    return state


def _check_invariants(state: SlideState) -> None:
    """Holes, face-down cards and the middle must agree with the round, the phase and whose turn it is."""
    counts = Counter(card_number(v) for g in state.grids for v in g.values() if v is not None) + Counter(state.middle)
    over = sorted(n for n, c in counts.items() if c > COPIES)
    if over:
        raise MalformedPosition(f"more than {COPIES} cards numbered {over[0]} ({counts[over[0]]}); there are {COPIES} of each")
    order = state.order
    if state.phase is Phase.OVER:
        done = order
    else:
        done = order[: order.index(state.to_act)]
    if state.phase is Phase.REVEAL:
        with_hole = set(done)
        down_before = ROUNDS - state.round + 1
        expected_down = {p: down_before - (p in with_hole) for p in range(state.players)}
    elif state.phase is Phase.PLACE:
        with_hole = set(order) - set(done)
        expected_down = {p: ROUNDS - state.round for p in range(state.players)}
    else:
        with_hole = set()
        expected_down = {p: 0 for p in range(state.players)}
    for p, grid in enumerate(state.grids):
        holes = grid.find(None)
        want = 1 if p in with_hole else 0
        if len(holes) != want:
            raise MalformedPosition(
                f"player {p + 1}'s grid has {len(holes)} holes; expected {want} in round {state.round}, "
                f"{state.phase.value} phase, player {_who(state.to_act)} to act"
            )
        down = len(state.face_down(p))
        if down != expected_down[p]:
            raise MalformedPosition(
                f"player {p + 1}'s grid has {down} face-down cards; expected {expected_down[p]} in round {state.round}, "
                f"{state.phase.value} phase"
            )
    if len(state.middle) != len(with_hole):
        raise MalformedPosition(
            f"the middle holds {len(state.middle)} cards; expected {len(with_hole)} (one per hole) in the {state.phase.value} phase"
        )


def _who(player: int | None) -> str:
    return "none" if player is None else str(player + 1)
