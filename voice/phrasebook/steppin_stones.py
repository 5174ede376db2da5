"""Every sentence the Caller says for Steppin' Stones, in the words of the rules text.

Coins are spoken colour then value ("Red 5", "Black Null"); a coin on its suit side is a
"Red stepping stone"; a pawn is "the Red pawn"; squares are a column letter and a row
number from the far side ("c 2" is written c2). Die faces are "Null", "2".."5", or the
suit's name ("Suns").

What is wrong with an action comes from the rules as a ``rules.reasons.Reason`` (the codes are
in ``rules.steppin_stones.reasons``) and is said from its code, squares, pieces and number.
"""

from __future__ import annotations

from typing import Any

from rules.pieces import SUITS, Coin, DieFace, Rank
from rules.steppin_stones import reasons, sightings
from rules.steppin_stones.state import CORNER_WORDS, EndTurn, Flip, Move, State, Stone, cell_name, face_steps, home_cells, start_coins
from voice.phrasebook.common import join_and as _and
from voice.phrasebook.common import plural


def setup_lines(state: State) -> list[str]:
    """The setup announcement: the layout (``layout_lines``), then the first roll."""
    return layout_lines(state) + roll_lines(state)


def layout_lines(state: State) -> list[str]:
    """Tiles, the coins around each home tile, pawns and variants, in the order of the rules text."""
    o = state.options
    size = state.size
    if o.large:
        tiles = (
            "Lay all twenty-four tiles in a five by five square with the middle left empty: "
            "the four ace tiles face up in the corners, the other twenty face down."
        )
    else:
        tiles = (
            "Lay sixteen tiles in a four by four square: the four ace tiles face up in the corners, "
            "the other twelve face down."
        )
    lines = [f"Steppin' Stones, a solitaire. {tiles}"]
    lines.append(
        "Home tiles: "
        + _and([f"{s.colour} {s.plural} {CORNER_WORDS[s]}" for s in SUITS])
        + "."
    )
    for suit in SUITS:
        placed = [
            f"{state.board[cell].spoken} on {cell_name(cell)}"
            for cell, _ in start_coins(suit, size)
            if state.board[cell] is not None
        ]
        lines.append(f"Around the {suit.colour} tile: {_and(placed)}.")
    lines.append(
        "Pawns in the middle squares: "
        + _and([f"{s.colour} on {cell_name(state.pawn(s))}" for s in SUITS])
        + "."
    )
    aces = [(cell, p) for cell, p in state.board.items() if isinstance(p, Coin) and p.rank is Rank.ACE]
    if aces:
        lines.append(
            "Aces: " + _and([f"{p.spoken} on {cell_name(cell)}" for cell, p in aces]) + ". They never move, "
            "are never flipped and cannot be jumped"
            + (", and any pawn may step on them." if o.ace_stones else ".")
        )
    else:
        lines.append("The ace coins stay in the box.")
    if o.highest_first:
        lines.append("Stepping stones must be revealed from the highest value down.")
    return lines


def roll_lines(state: State) -> list[str]:
    """The roll of this turn, phase 1 dice first, then phase 2 dice with the squares they give."""
    one = [d for d in state.dice if d.phase == 1]
    two = [d for d in state.dice if d.phase == 2]
    lines = []
    head = f"Turn {state.turn}."
    if one:
        head += " Phase one: " + _and([f"{d.suit.colour} {d.face.spoken(d.suit)}" for d in one]) + "."
    if two:
        head += " Phase two: " + _and(
            [f"{d.suit.colour} {d.face.spoken(d.suit)}, {plural(face_steps(d.face), 'square')}" for d in two]
        ) + "."
    lines.append(head)
    for d in one:
        if d.face is DieFace.SUIT:
            lines.append(f"You must flip a {d.suit.colour} coin: it becomes a stepping stone.")
    return lines


def action_line(before: State, action) -> str:
    """What the Caller says when ``action`` is accepted in ``before``."""
    if isinstance(action, EndTurn):
        return "End of turn. Roll the dice."
    if isinstance(action, Flip):
        piece = before.board[action.at]
        return f"{piece.spoken} on {cell_name(action.at)} is now a stepping stone."
    assert isinstance(action, Move)
    pawn = before.pawn_on(action.frm)
    if pawn is not None:
        where = cell_name(action.to)
        if action.to in home_cells(pawn, before.size):
            return f"The {pawn.colour} pawn is home on {where}! Its die leaves play."
        return f"The {pawn.colour} pawn steps to {where}."
    piece = before.board[action.frm]
    name = piece.spoken if isinstance(piece, (Coin, Stone)) else str(piece)
    return f"{name} from {cell_name(action.frm)} to {cell_name(action.to)}."


def dice_left_line(state: State) -> str | None:
    """What is left of the roll, or None when nothing is."""
    parts = []
    for d in state.dice:
        if d.left and d.phase == 1:
            parts.append(f"{d.suit.colour} {d.face.spoken(d.suit)}")
        elif d.left:
            parts.append(f"{d.suit.colour} {plural(d.left, 'square')}")
    return ("Still to use: " + _and(parts) + ".") if parts else None


def illegal(why: Any) -> str:
    """What is wrong with an action, from the rules' verdict ``why`` (a ``rules.reasons.Reason``
    with a Steppin' Stones code): "the Red Null on c3 may not move at all (a Null moves zero
    squares)". None (something that is no action at all) is a plain phrase."""
    if why is None:
        return "that is not a Steppin' Stones move"
    code, pieces, n = why.code, why.pieces, why.number
    at = [cell_name(c) for c in why.cells]
    piece = pieces[0] if pieces else None
    if code == reasons.WON:
        return "the game is over: all four pawns are home"
    if code == reasons.LOST:
        return "the game is over: no legal move is left"
    if code == reasons.FLIP_OWED:
        return f"the {piece.colour} die shows the {piece.plural}: flip a {piece.colour} coin before ending the turn"
    if code == reasons.DICE_COUNT:
        return f"expected {len(pieces)} die faces, one for each of {' '.join(s.value for s in pieces)}, got {n}"
    if code == reasons.OFF_BOARD:
        return f"square {why.cells[0]!r} is not on the {n}x{n} board"
    if code == reasons.ALREADY_STONE:
        return f"the coin on {at[0]} is already a stepping stone"
    if code == reasons.NO_COIN:
        return f"there is no coin on {at[0]} to flip"
    if code == reasons.ACE_FLIP:
        return f"the {piece.spoken} on {at[0]} may never be flipped"
    if code == reasons.FLIP_NO_DIE:
        return f"the {piece.spoken} may be flipped only when the {piece.suit.colour} die shows the {piece.suit.plural}"
    if code == reasons.NOT_HIGHEST:
        return f"stepping stones go highest first: flip the highest {piece.suit.colour} coin, not the {piece.spoken}"
    if code == reasons.NOTHING_THERE:
        return f"there is nothing on {at[0]} to move"
    if code in (reasons.STONE_TOO_EARLY, reasons.STONE_DIE_SPENT):
        spent = ", and that die is spent" if code == reasons.STONE_DIE_SPENT else ""
        return f"a {piece.spoken} moves only with the {piece.suit.colour} die once all its coins are stepping stones{spent}"
    if code == reasons.STONE_OUT_OF_REACH:
        return (f"the {piece.spoken} on {at[0]} cannot reach {at[1]} within {n} square(s): "
                "it ends on an empty square and passes over Null coins only")
    if code == reasons.ACE_MOVE:
        return f"the {piece.spoken} on {at[0]} never moves"
    if code == reasons.NULL_MOVE:
        return f"the {piece.spoken} on {at[0]} may not move at all (a Null moves zero squares)"
    if code == reasons.NO_DIE:
        return f"the {piece.spoken} moves only when a phase-1 die shows {n}, and none is left in this roll"
    if code == reasons.COIN_OUT_OF_REACH:
        return (f"the {piece.spoken} on {at[0]} cannot reach {at[1]} in exactly {n} squares: it must end on an "
                "empty square and may pass only over coins of lower value (a stepping stone counts 1)")
    if code == reasons.PAWN_HOME:
        return f"the {piece.colour} pawn is home and stays there"
    if code == reasons.PAWN_TOO_EARLY:
        return f"the {piece.colour} pawn may move only once all the {piece.colour} coins are stepping stones"
    if code == reasons.PAWN_DIE_SPENT:
        return f"the {piece.colour} die is spent for this turn"
    if code == reasons.PAWN_OUT_OF_REACH:
        return (f"the {piece.colour} pawn cannot reach {at[1]} within {n} square(s): it steps only on "
                f"{piece.colour} stepping stones and ends on one or on the first square of its home tile it reaches")
    raise ValueError(f"no words for the Steppin' Stones reason {code!r}")


def illegal_line(why: Any) -> str:
    """"Illegal move: the Red die is spent for this turn." (``why`` as for ``illegal``)."""
    return f"Illegal move: {illegal(why)}."


def nothing_to_do_line() -> str:
    return "Nothing more can move with these dice."


def end_lines(state: State) -> list[str]:
    if state.won:
        return ["All four pawns are home. You win!"]
    if state.lost:
        return ["No legal move is left for any roll of the dice. The game is lost."]
    return []


# -- the live Caller (caller.referees.steppin_stones_live) -------------------------------------


def live_roll_please() -> str:
    return "Roll the dice."


def live_reread(die) -> str:
    """A die of the roll in force the live Caller read in doubt, read again from the move that
    showed its face (the roll is said again after this)."""
    return f"I misread the {die.suit.colour} die."


def live_phase(suit) -> str:
    """A suit's last coin became a stepping stone: its die now moves the stones and the pawn."""
    return f"{suit.plural} are in phase 2."


def live_won() -> str:
    return "All four pawns are home: you win."


def live_lost() -> str:
    return "No legal moves: the game is lost."


def live_illegal(why: Any) -> str:
    """A change the live Caller will not follow: the rules' verdict on the action it shows, or
    what the camera saw that no action makes (``rules.steppin_stones.sightings``)."""
    if why is not None and why.code in sightings.CODES:
        where = _and([cell_name(c) for c in why.cells])
        if why.code == sightings.NOT_A_START:
            return (f"This is not the setup: look at {where}. Each suit's coins go around its home tile, "
                    "and the pawns on the four middle squares.")
        if why.code == sightings.NO_ROLL:
            return f"Roll the dice beside the board before you move. Look at {where}."
        return f"Illegal move: no action of this roll leaves that board. Look at {where}."
    return illegal_line(why)


def restored() -> str:
    return "Thank you."


def accepted() -> str:
    return "Accepted: play on from this board."


def unreadable_start(why: Any) -> str:
    """A first board that is not the setup."""
    return live_illegal(why)
