"""Every sentence the Caller says for Slider (Leckie & Erfani).

Players are named as in the rules text, "Horizontal" and "Vertical". Squares are
spoken as "column i, row j" (column from the left, row from the bottom, both from 0),
the order of the move notation ``(i,j): DIR``. On a table the two players' pieces are
piecepack coins of two suits: Horizontal plays the Suns (Red) and Vertical the Arms
(Blue), the suits the simulator draws by default.

What is wrong with a move comes from the rules as a ``rules.reasons.Reason`` (the move codes
are ``rules.slider.reasons.MOVE_CODES``) and is said from its code, squares and pieces; its
squares are said as the players type them, "(2,3)".
"""

from __future__ import annotations

from typing import Any

from rules.pieces import Suit
from rules.slider import reasons, sightings
from rules.slider.board import direction_between, format_square
from rules.slider.state import Move, Pass, Side, SliderState
from voice.phrasebook.common import capital

COIN_SUITS = {Side.H: Suit.SUNS, Side.V: Suit.ARMS}  # as the simulator draws them


def square(sq: tuple[int, int]) -> str:
    """(2, 3) -> "column 2, row 3"."""
    return f"column {sq[0]}, row {sq[1]}"


def _squares(squares) -> str:
    items = [square(s) for s in sorted(squares)]
    if len(items) <= 1:
        return "".join(items)
    return "; ".join(items[:-1]) + "; and " + items[-1]


def setup_lines(state: SliderState) -> list[str]:
    """The setup announcement: board size, coins, where the pieces stand, the blocks, who moves first."""
    n = state.n
    lines = [f"Slider on a {n} by {n} board."]
    h_suit, v_suit = COIN_SUITS[Side.H], COIN_SUITS[Side.V]
    lines.append(f"Horizontal plays the {h_suit.colour} coins, Vertical the {v_suit.colour} coins.")
    if state.is_start():
        lines.append(f"Horizontal's {n - 1} pieces go in column 0, rows 1 to {n - 1}.")
        lines.append(f"Vertical's {n - 1} pieces go in row 0, columns 1 to {n - 1}.")
    else:
        for side in Side:
            pieces = state.pieces(side)
            if pieces:
                lines.append(f"{side.word}'s pieces: {_squares(pieces)}.")
            else:
                lines.append(f"{side.word} has no piece on the board.")
    if state.blocked:
        k = len(state.blocked)
        lines.append(f"Block {'this square' if k == 1 else f'these {k} squares'}: {_squares(state.blocked)}.")
    else:
        lines.append("No square is blocked.")
    lines.append(f"{state.to_move.word} moves first.")
    return lines


def move_line(side: Side, move: Move | Pass, n: int) -> str:
    """What the Caller says after ``side`` plays ``move`` on an ``n`` x ``n`` board."""
    if isinstance(move, Pass):
        return pass_line(side)
    dest = move.target()
    if not (0 <= dest[0] < n and 0 <= dest[1] < n):
        return f"{side.word} moves the piece on {square(move.square)} off the board."
    return f"{side.word} moves {move.direction.word} from {square(move.square)} to {square(dest)}."


def pass_line(side: Side) -> str:
    return f"{side.word} has no legal move and passes."


def computer_plays_line(side: Side) -> str:
    return f"The computer plays {side.word}."


def turn_line(side: Side) -> str:
    return f"{side.word} to move."


def win_line(side: Side) -> str:
    return f"{side.word} wins: every {side.word} piece is off the board."


def tie_line() -> str:
    return "Both players had to pass in a row: the game is a tie."


def illegal(why: Any) -> str:
    """What is wrong with a move or a pass, from the rules' verdict ``why`` (a ``rules.reasons.Reason``
    with a Slider move code): "Horizontal may not move left", without the move itself, which
    the player has just typed. None (something that is no move at all) is a plain phrase."""
    if why is None:
        return "that is not a Slider move"
    code, pieces = why.code, why.pieces
    side = pieces[0] if pieces else None
    at = [format_square(s) for s in why.cells]
    if code == reasons.GAME_OVER:
        return f"the game is over; no move {pieces[0]!s} is possible" if pieces else "the game is already over"
    if code == reasons.MUST_MOVE:
        return f"{side.word} may pass only when they have no legal move"
    if code == reasons.OFF_BOARD:
        return f"{side.word} has no piece on {at[0]} (off the board)"
    if code == reasons.NO_PIECE:
        return f"{side.word} has no piece on {at[0]} ({'empty' if pieces[1] is None else f'holds {pieces[1]}'})"
    if code == reasons.BACKWARDS:
        return f"{side.word} may not move {direction_between(*why.cells).word}"
    if code == reasons.WRONG_EDGE:
        return f"{side.word} may leave the board only off the {'right' if side is Side.H else 'top'} edge"
    if code == reasons.OCCUPIED:
        return f"square {at[1]} is {'blocked' if pieces[1] == 'B' else f'taken by {pieces[1]}'}"
    raise ValueError(f"no words for the Slider reason {code!r}")


def illegal_line(why: Any) -> str:
    """"Illegal move: Horizontal may not move left." (``why`` as for ``illegal``)."""
    return f"Illegal move: {illegal(why)}."


def result_lines(state: SliderState) -> list[str]:
    """The end of the game, or nothing while it goes on."""
    if state.winner is not None:
        return [win_line(state.winner)]
    if state.is_tie:
        return [tie_line()]
    return []


# -- the live Caller at a table (``caller watch --game slider``) ---------------------------------
# Players are named by their coins' colour ("Red", "Blue": ``colours`` maps each Side to it), as
# they see their own pieces; squares are said as the move notation, "column 2, row 3".


def _dir(move: Move, n: int) -> str:
    dest = move.target()
    return "leaves the board" if not (0 <= dest[0] < n and 0 <= dest[1] < n) else f"moves {move.direction.word}"


def live_start(colours: dict, first: Side | None, ai: Side | None) -> str:
    """Who plays what, and who starts (``first`` None: either player may, the first coin moved decides)."""
    h, v = colours[Side.H], colours[Side.V]
    said = f"{h} is Horizontal and moves right; {v} is Vertical and moves up."
    if ai is not None:
        said += f" I play {colours[ai]}."
    if first is None:
        return said + " Either player may start."
    return said + f" {colours[first]} starts."


def live_moved(colour: str, move: Move, n: int) -> str:
    """"Red: the coin on column 0, row 2 moves right." (or "... leaves the board.")."""
    return f"{colour}: the coin on {square(move.square)} {_dir(move, n)}."


def live_turn(colour: str) -> str:
    return f"{colour} to move."


def live_pass(colour: str) -> str:
    return f"{colour} has no legal move and passes."


def ai_call(colour: str, move: Move, n: int) -> str:
    """The Caller's own move, for the player to make for it."""
    return f"My move. {colour}: the coin on {square(move.square)} {_dir(move, n)}."


def ai_different(colour: str, called: Move, n: int) -> str:
    """The Caller's side moved otherwise than it called (the move made stands when it is legal)."""
    return (f"That is not the move I called: I said the {colour} coin on {square(called.square)} "
            f"{_dir(called, n)}. I play on from the board as it is.")


def live_won(colour: str) -> str:
    return f"{colour} wins: every {colour} coin is off the board."


def live_tie() -> str:
    return tie_line()


def restored() -> str:
    return "Thank you."


def accepted() -> str:
    return "Accepted: play on from this board."


def _side_name(side: Any, colours: dict) -> str:
    return colours.get(side, str(side)) if isinstance(side, Side) else str(side)


def live_problem(why: Any, colours: dict) -> str:
    """An illegal change or read at the table, in the players' colours and squares."""
    if why is None:
        return "I cannot tell what changed on the board."
    code, pieces = why.code, why.pieces
    who = _side_name(pieces[0], colours) if pieces else ""
    at = [square(s) for s in why.cells]
    if code == reasons.WRONG_DIRECTION or code == reasons.BACKWARDS:
        return f"{who} may not move {direction_between(*why.cells).word}: put the coin back on {at[0]}."
    if code == reasons.WRONG_TURN:
        return f"It is {_side_name(why.was[0], colours)}'s turn: put the {who} coin back on {at[0]}."
    if code == reasons.LEFT_BOARD:
        edge = "right" if pieces[0] is Side.H else "top"
        return f"{who} leaves the board only off the {edge} edge: put the coin back on {at[0]}."
    if code == reasons.DIAGONAL:
        return f"a coin moves straight, not diagonally: put the {who} coin back on {at[0]}."
    if code == reasons.JUMPED:
        return f"a coin moves one square at a time: put the {who} coin back on {at[0]}."
    if code == reasons.MANY_MOVED:
        return f"{len(pieces)} coins moved; a turn moves one. Put them back on {_squares(why.cells)}."
    if code == reasons.APPEARED:
        return f"a {who} coin appeared on {at[0]}; a coin that left the board stays off it."
    if code == reasons.BLOCKS_CHANGED:
        return f"the dice stay where they are for the whole game: look at {_squares(why.cells)}."
    if code == reasons.SIZE_CHANGED:
        return f"the board changed size from {why.was[0]} to {why.number}."
    if code == reasons.GAME_OVER:
        return "the game is over."
    if code == reasons.OCCUPIED:
        what = "a die" if pieces[1] == "B" else f"a {_side_name(pieces[1], colours)} coin"
        return f"{at[1]} holds {what}: put the {who} coin back on {at[0]}."
    if code == sightings.STRAY:
        if pieces[0] == "outside":
            return "a piece lies on the unused row or column of the tiles: take it away."
        return f"{at[0]} holds a piece that is not in the game: take it away."
    if code == sightings.NOT_A_START:
        return live_start_problem(why, colours)
    return capital(illegal(why)) + "."


def live_start_problem(why: Any, colours: dict) -> str:
    n = why.number
    h, v = colours[Side.H], colours[Side.V]
    return (f"This is not a start position yet. {h} coins go up the left column, rows 1 to {n - 1}; "
            f"{v} coins along the bottom row, columns 1 to {n - 1}. Look at {_squares(why.cells)}.")


def live_illegal(why: Any, colours: dict) -> str:
    """"Illegal move. Red may not move left: put the coin back on column 1, row 2." (a read that
    is no board, or no start, is said without "Illegal move.")."""
    said = capital(live_problem(why, colours))
    return "Illegal move. " + said if why is None or why.code not in sightings.CODES else said


def unreadable_start(why: Any, colours: dict | None = None) -> str:
    """A first read that is no start (``colours`` default: the simulator's suits)."""
    return capital(live_problem(why, colours or {side: suit.colour for side, suit in COIN_SUITS.items()}))
