"""Every sentence the Caller says in Scavenger Hunt.

Pieces are named as in the rules texts ("Red 5", "Blue Ace"; pawns by colour). Squares are
said 1-based, "row 3, column 7", rows from the far side and columns from the left; tile
lines are "tile row 1-4" and "tile column 1-6" so they are never confused with squares.

What is wrong with a turn comes from the rules as a ``rules.reasons.Reason`` (the codes are in
``rules.scavenger_hunt.reasons``) and is said from its code, squares and pieces; its squares
are said as the referee's players type them ("3,7").
"""

from __future__ import annotations

from typing import Any, Sequence

from rules.grid import Cell
from rules.pieces import RANKS, Coin, Rank, Suit
from rules.scavenger_hunt import reasons
from rules.scavenger_hunt.state import SHAPE, State, Turn, coin_rank, square_name
from voice.phrasebook.common import cell as square
from voice.phrasebook.common import capital, join_and, number_word


def shift_words(shift) -> str:
    """ "tile row 2 right", "tile column 3 up"."""
    return f"tile {'row' if shift.axis == 'row' else 'column'} {shift.index + 1} {shift.direction.word}"


def value_words(rank: Rank) -> str:
    """ "a 3", "an Ace", "a Null": a coin seen by its value only."""
    return f"{'an' if rank is Rank.ACE else 'a'} {rank.spoken}"


def setup_lines(state: State) -> list[str]:
    """The setup announcement: board, pawns, the deal, each coin's square (row by row), first player."""
    lines = [
        f"Scavenger Hunt for {number_word(len(state.players))} players: {join_and(s.colour for s in state.players)}.",
        "Build a board of four rows of six tiles, grid side up.",
    ]
    for suit, cell in zip(state.players, state.pawns):
        lines.append(f"{suit.colour} pawn in the corner at {square(cell)}.")
    lines.append("Deal each player six coins, one of each value, suit side down.")
    for cell, mark in state.coins.items():
        if mark is not None:
            lines.append(f"Place {value_words(coin_rank(mark))} on {square(cell)}.")
    lines.append(f"{state.mover.colour} plays first.")
    return lines


def turn_lines(before: State, turn: Turn, after: State) -> list[str]:
    """What the Caller says after a legal turn: the shift, the pawn move, the peek, then who plays next or who won."""
    me = before.to_move
    who = before.mover.colour
    lines = [f"{who} shifts {shift_words(turn.shift)}."]
    _, pawns = before.shifted(turn.shift)
    if turn.to == pawns[me]:
        lines.append(f"{who} stays on {square(turn.to)}.")
    else:
        lines.append(f"{who} moves to {square(turn.to)}.")
        mark = before.shifted(turn.shift)[0][turn.to]
        got = after.collected[me]
        if mark is not None:
            if len(got) > len(before.collected[me]):
                lines.append(f"{who} collects the {Coin(before.mover, coin_rank(mark)).spoken}: {len(got)} of 6.")
            else:
                lines.append(f"{who} peeks at {value_words(coin_rank(mark))} and leaves it.")
    lines.extend(status_lines(after))
    return lines


def status_lines(state: State) -> list[str]:
    """Who won, or who plays next."""
    if state.winner is not None:
        return [f"{state.winner.colour} wins with all six {state.winner.colour} coins!"]
    return [f"{state.mover.colour} to play."]


def illegal(why: Any) -> str:
    """What is wrong with a turn, from the rules' verdict ``why`` (a ``rules.reasons.Reason`` with
    a Scavenger Hunt code): "the pawn may not pass the Red pawn on 3,4". None (something that
    is no turn at all) is a plain phrase."""
    if why is None:
        return "that is not a Scavenger Hunt turn"
    code, pieces = why.code, why.pieces
    at = [square_name(c) for c in why.cells]
    if code == reasons.GAME_OVER:
        return f"the game is over: {pieces[0].colour} has collected all six coins"
    if code == reasons.REVERSED:
        shift, owner = pieces
        return (f"shift {shift} reverses {owner.colour}'s shift {shift.reverse}; "
                f"not allowed until {owner.colour} has completed another turn")
    if code == reasons.OFF_BOARD:
        return f"square {at[0]} is off the board (rows 1-{SHAPE[0]}, columns 1-{SHAPE[1]})"
    if code == reasons.DIAGONAL:
        return f"the pawn moves like a rook, in a straight line; {at[0]} to {at[1]} is diagonal"
    if code == reasons.PAST_PAWN:
        return f"the pawn may not pass the {pieces[0].colour} pawn on {at[0]}"
    if code == reasons.PAST_COIN:
        return f"the pawn stops on the first coin it passes: the coin on {at[0]}"
    if code == reasons.ONTO_PAWN:
        return f"square {at[0]} holds the {pieces[0].colour} pawn"
    if code == reasons.MUST_MOVE:
        return f"the {pieces[0].colour} pawn on {at[0]} can move (for example to {at[1]}), so it must move"
    if code == reasons.NO_COIN:
        stays = why.cells[0] == why.cells[1]
        return f"there is no coin to collect: the pawn {'stays' if stays else 'ends'} on {at[1]} without peeking"
    if code == reasons.WRONG_PEEK:
        coin, mover = pieces
        verb = "collects" if coin.suit == mover else "cannot collect"
        return f"the coin on {at[0]} is the {coin.spoken}: {mover.colour} {verb} it"
    if code == reasons.SAY_PEEK:
        return f"the pawn ends on the {pieces[0].spoken} coin on {at[0]}: say whether it was collected (+) or not (-)"
    if code == reasons.ALREADY_HELD:
        return f"{pieces[0].colour} already holds a {pieces[1].spoken}; a second one cannot match"
    if code == reasons.WRONG_PAWN:
        mover, other = pieces
        return f"it is {mover.colour}'s turn, but the {other.colour} pawn moved from {at[0]} to {at[1]}"
    if code == reasons.NO_SHIFT:
        return "no shift of one row or column of tiles by one tile explains where the coins and pawns went"
    if code == reasons.EDGE:
        return f"square {at[0]} is an outside-edge square; coins go on inner squares only"
    if code == reasons.TILE_TAKEN:
        return f"the tile of square {at[0]} already holds the coin on {at[1]}; one coin per tile"
    raise ValueError(f"no words for the Scavenger Hunt reason {code!r}")


def illegal_line(why: Any) -> str:
    """"Illegal move: the pawn may not pass the Red pawn on 3,4." (``why`` as for ``illegal``)."""
    return f"Illegal move: {illegal(why)}."


def barred_lines(state: State) -> list[str]:
    """One line per shift nobody may make now."""
    return [
        f"No {shift_words(shift)} until {owner.colour} has played again."
        for shift, owner in state.barred_shifts().items()
    ]


def collected_line(state: State) -> str:
    return "Collected: " + ", ".join(f"{s.colour} {len(got)} of {len(RANKS)}" for s, got in zip(state.players, state.collected)) + "."


def placement_prompt(suit: Suit, hand: Sequence[Rank]) -> str:
    return f"{suit.colour}, place one of your coins: {', '.join(r.spoken for r in hand)}."


def placed_line(suit: Suit, rank: Rank, cell: Cell) -> str:
    return f"{suit.colour} places {value_words(rank)} on {square(cell)}."


# ---------------------------------------------------------------- the live Caller (caller watch)
#
# Spoken at the table, so squares are said in words ("row 3, column 7"), rows counted from the
# far side of the players' frame that the Caller fixed at the start. A coin on the board is
# named by its value only: its suit is hidden, and the Caller never guesses it.


def starts(suit: Suit) -> str:
    """ "Red starts." """
    return f"{suit.colour} starts."


def to_play(suit: Suit) -> str:
    """ "Black to play." """
    return f"{suit.colour} to play."


def shifted(suit: Suit, shift) -> str:
    """ "Red shifts tile row 4 right." """
    return f"{suit.colour} shifts {shift_words(shift)}."


def moved(suit: Suit, to: Cell, coin: Rank | None) -> str:
    """ "Red moves to row 7, column 3." / "... onto a 4." (a coin it may peek at)."""
    onto = "" if coin is None else f", onto {value_words(coin)}"
    return f"{suit.colour} moves to {square(to)}{onto}."


def stays(suit: Suit, at: Cell) -> str:
    """A pawn with nowhere to go after the shift: "Red cannot move and stays on row 7, column 3." """
    return f"{suit.colour} cannot move and stays on {square(at)}."


def collected(suit: Suit, rank: Rank, count: int) -> str:
    """ "Red collected a 3: 2 of 6." (by value: its suit was the player's to see)."""
    return f"{suit.colour} collected {value_words(rank)}: {count} of {len(RANKS)}."


def put_back(suit: Suit, rank: Rank, count: int) -> str:
    """ "Red put the 3 back: 1 of 6." (a coin taken as collected, seen put back)."""
    return f"{suit.colour} put the {rank.spoken} back: {count} of {len(RANKS)}."


def won(suit: Suit) -> str:
    """ "Blue has collected all six coins: Blue wins." """
    return f"{suit.colour} has collected all six coins: {suit.colour} wins."


def no_win(state: State) -> str:
    """A claim to have won that the board does not bear out: "Not a win yet: Red has collected
    4 coins, Black 5." """
    counts = join_and(f"{s.colour} {len(got)}" for s, got in zip(state.players, state.collected))
    return f"Not a win yet: collected so far, {counts}."


def restored() -> str:
    return "Thank you."


def accepted() -> str:
    return "Accepted: play on from this board."


def problem(why: Any) -> str:
    """One thing wrong on the table, as a sentence in the players' terms, from a verdict of
    ``rules.scavenger_hunt.sightings`` or ``reasons`` (``why``)."""
    from rules.scavenger_hunt import sightings

    code, cells, pieces = why.code, why.cells, why.pieces
    if code == reasons.EDGE:
        return f"{capital(square(cells[0]))} is an edge square: move that coin inward."
    if code == reasons.TILE_TAKEN:
        return f"{capital(square(cells[0]))} and {square(cells[1])} are on one tile: one coin per tile."
    if code == sightings.NOT_CORNER:
        return f"The {pieces[0].colour} pawn on {square(cells[0])} starts in a corner."
    if code == sightings.PAWN_MISSING:
        return f"The {pieces[0].colour} pawn is not on the board."
    if code == sightings.STRAY_PAWN:
        return f"The {pieces[0].colour} pawn on {square(cells[0])} is not in this game: take it off the board."
    if code == sightings.PLAYER_COUNT:
        return "Scavenger Hunt needs two to four pawns in the corners."
    if code == sightings.SUIT_UP:
        return f"The coin on {square(cells[0])} shows its suit: turn it value side up."
    if code == sightings.VALUE_COUNT:
        rank, need = pieces
        have = why.number
        return (f"There {'is' if have == 1 else 'are'} {number_word(have)} {rank.spoken}{'' if have == 1 else 's'} "
                f"on the board; {number_word(need)} players need {number_word(need)}.")
    if code == sightings.FOREIGN_COIN:
        player, suit = pieces
        back = f"under the {player.colour} pawn on {square(cells[0])}" if cells else "on the board"
        return (f"{player.colour} has laid a {suit.colour} coin with their collected coins: {player.colour} collects "
                f"only {player.colour} coins. Put it back {back}, value side up.")
    return capital(spoken(why)) + "."


def spoken(why: Any) -> str:
    """What is wrong with a turn the camera saw, from the rules' verdict ``why``, with its
    squares in words: "the pawn stops on the first coin it passes: the 3 on row 6, column 3"."""
    if why is None:
        return "no Scavenger Hunt turn explains the board"
    code, cells, pieces = why.code, why.cells, why.pieces
    if code == reasons.REVERSED:
        shift, owner = pieces
        return (f"{shift_words(shift)} undoes {owner.colour}'s shift; "
                f"not allowed until {owner.colour} has played again")
    if code == reasons.DIAGONAL:
        return f"the pawn moves in a straight line; {square(cells[0])} to {square(cells[1])} is not one"
    if code == reasons.PAST_PAWN:
        return f"the pawn may not pass the {pieces[0].colour} pawn on {square(cells[0])}"
    if code == reasons.PAST_COIN:
        return (f"the pawn stops on the first coin it passes: the {coin_rank(pieces[0]).spoken} "
                f"on {square(cells[0])}")
    if code == reasons.ONTO_PAWN:
        return f"{square(cells[0])} holds the {pieces[0].colour} pawn"
    if code == reasons.MUST_MOVE:
        return f"the {pieces[0].colour} pawn can move, for example to {square(cells[1])}, so it must move"
    if code == reasons.ALREADY_HELD:
        return f"{pieces[0].colour} already holds {value_words(pieces[1])}, so that coin is not {pieces[0].colour}'s"
    if code == reasons.WRONG_PAWN:
        mover, other = pieces
        return f"it is {mover.colour}'s turn, but the {other.colour} pawn moved to {square(cells[1])}"
    if code == reasons.NO_SHIFT:
        where = f": look at {join_and(square(c) for c in cells)}" if cells else ""
        return f"no shift of one tile row or column explains the board{where}"
    if code == reasons.GAME_OVER:
        return f"the game is over: {pieces[0].colour} has won"
    return illegal(why)


def live_illegal(why: Any) -> str:
    """An illegal change announced at the table: "Illegal move. The pawn may not pass ..." for a
    turn or a coin of another suit collected, the plain sentence for something that is no turn
    (a coin turned over), a request for a pawn long missing from the board (in a hand, mostly)."""
    from rules.scavenger_hunt import sightings

    if why is not None and why.code == sightings.PAWN_MISSING:
        # mid-game a pawn long off the board is most often still in a hand: a request, not a verdict
        return f"The {why.pieces[0].colour} pawn is not on the board: please put it on its square."
    if why is not None and why.code == sightings.FOREIGN_COIN:
        return f"Illegal move. {problem(why)}"
    if why is not None and why.code in sightings.CODES:
        return problem(why)
    return f"Illegal move. {capital(spoken(why))}."


def unreadable_start(why: Any, more: Sequence[Any] = ()) -> str:
    """A first position that is no start: each problem said, at most ``START_PROBLEMS_SAID``."""
    whys = [w for w in (why, *more) if w is not None]
    said = [problem(w) for w in whys[:START_PROBLEMS_SAID]]
    rest = len(whys) - len(said)
    if rest:
        said.append(f"And {number_word(rest)} more {'problem' if rest == 1 else 'problems'}.")
    return " ".join(["This is not a start position yet.", *said])


#: how many of a start's problems are said at once (the rest are counted; fixing the first
#: ones makes the Caller say the next)
START_PROBLEMS_SAID = 3
