"""Every sentence the Caller says in Easy Slider, in the words of the rules text.

Pieces are called as the rules text calls them: a pawn by its colour ("Black"), a coin by
its value ("Ace", "2"), a tile by colour then value ("Blue 5", "Green Null"). Cells come in
0-based ``(row, col)`` (row 0 next to the coins) and are said 1-based as players count
("Row 2, column 3"); the setup spells its row numbers ("Row one") like the rules' example.

A state has ``board`` (a ``rules.grid.Grid`` of tiles, ``None`` for the hole; plain nested
lists work too), ``pawns`` and ``coins``; a tile has ``spoken`` and ``code``. What is wrong
with a change or a seen board comes from the rules as a ``rules.reasons.Reason`` (the codes
are in ``rules.easy_slider.reasons``) and is said from its code, cells and pieces.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

from rules.easy_slider import reasons
from voice.phrasebook.common import (
    capital,
    cell,
    cells,
    duration,
    join_and,
    number_word,
    plural,
    scores_line,
    standings_line,
    winner_line,
)
from voice.phrasebook.common import go as _go

#: More wrong or changed cells than this are summarised ("6 tiles are wrong, the first at ...")
#: instead of listed: a long list of cells is useless to hear.
LIST_AT_MOST = 3


def _rows(board: Any) -> list[list[Any]]:
    rows = getattr(board, "rows", board)
    return [list(r) for r in rows]


def _at(board: Any, c: Sequence[int]) -> Any:
    return _rows(board)[c[0]][c[1]]


def _name(piece: Any) -> str:
    """A tile/pawn/coin's spoken name; ``None`` is the hole."""
    if piece is None:
        return "the hole"
    return getattr(piece, "spoken", str(piece))


def _the(piece: Any) -> str:
    return "the hole" if piece is None else f"the {_name(piece)}"


# -- setup ---------------------------------------------------------------------------------------


def pawns_line(pawns: Iterable[Any]) -> str:
    """"Pawns: Black, Red, Blue, Green." (rows 1-4, top to bottom, in the order drawn)."""
    return f"Pawns: {', '.join(_name(p) for p in pawns)}."


def coins_line(coins: Iterable[Any]) -> str:
    """"Coins: 2, 4, 5, Ace, 3." (columns 1-5, left to right, in the order drawn)."""
    return f"Coins: {', '.join(_name(c) for c in coins)}."


def row_line(index: int, row: Sequence[Any]) -> str:
    """"Row one: Blue 5, Green Null, Green 2, Red Ace, Black 3." (``index`` 0-based).

    The hole is "the hole"; when it ends the row it is "..., and the hole" as a player
    would say it.
    """
    names = [_name(t) for t in row]
    if len(names) > 1 and row[-1] is None:
        names[-1] = "and the hole"
    return f"Row {number_word(index + 1)}: {', '.join(names)}."


def setup_lines(state: Any) -> list[str]:
    """The setup announcement in the order of the rules text: pawns, coins, then the tiles row by row."""
    return [pawns_line(state.pawns), coins_line(state.coins)] + [
        row_line(i, row) for i, row in enumerate(_rows(state.board))
    ]


def pieces_changed(what: str, was: Sequence[Any], now: Sequence[Any]) -> list[str]:
    """Pawns (``what`` "pawn") or coins ("coin") that differ from ``was`` (they must stay put during play)."""
    place = "of row" if what == "pawn" else "above column"
    return [f"The {what} {place} {i + 1} should be {_name(want)}, not {_name(got)}."
            for i, (want, got) in enumerate(zip(was, now)) if want != got]


def setup_difference_lines(setup: Any, seen: Any) -> list[str]:
    """What differs between the announced ``setup`` and the ``seen`` table, one sentence each.

    Pawns and coins first (as the setup is laid), then the tiles in reading order; more than
    ``LIST_AT_MOST`` wrong tiles are summarised by their count and the first one.
    Empty when the table matches.
    """
    lines = pieces_changed("pawn", setup.pawns, seen.pawns) + pieces_changed("coin", setup.coins, seen.coins)
    want_rows, got_rows = _rows(setup.board), _rows(seen.board)
    wrong = [(r, c) for r in range(len(want_rows)) for c in range(len(want_rows[r])) if want_rows[r][c] != got_rows[r][c]]
    if len(wrong) > LIST_AT_MOST:
        r, c = wrong[0]
        lines.append(
            f"{len(wrong)} tiles differ from the setup. First, {cell(wrong[0])}: "
            f"it should be {_the(want_rows[r][c])}, not {_the(got_rows[r][c])}."
        )
    else:
        for r, c in wrong:
            lines.append(f"{capital(cell((r, c)))} should be {_the(want_rows[r][c])}, not {_the(got_rows[r][c])}.")
    return lines


def setup_differences(setup: Any, seen: Any, wrong: Any = None, pawns_ok: Any = None, coins_ok: Any = None) -> str:
    """The setup check as one announcement: "Check the setup. Row 2, column 3 should be ...".

    ``wrong``, ``pawns_ok`` and ``coins_ok`` are accepted for callers that computed them;
    the sentences are worked out from ``setup`` and ``seen`` themselves.
    """
    lines = setup_difference_lines(setup, seen)
    if not lines:
        return "The setup is right."
    return " ".join(["Check the setup."] + lines)


def go() -> str:
    return _go()


# -- illegal changes -----------------------------------------------------------------------------


def lifted(c: Sequence[int], tile: Any) -> str:
    """"Row 2, column 3: the Red Ace was lifted." (tiles must be slid, never picked up)."""
    return f"{capital(cell(c))}: the {_name(tile)} was lifted."


def swapped(a: Sequence[int], tile_a: Any, b: Sequence[int], tile_b: Any) -> str:
    """"Row 1, column 1 and row 1, column 2: the Black 2 and the Red 3 changed places."."""
    return f"{capital(cell(a))} and {cell(b)}: the {_name(tile_a)} and the {_name(tile_b)} changed places."


def diagonal(src: Sequence[int], tile: Any, dst: Sequence[int]) -> str:
    """A tile moved corner to corner: "Row 2, column 3: the Red Ace moved diagonally to row 3, column 4."."""
    return f"{capital(cell(src))}: the {_name(tile)} moved diagonally to {cell(dst)}; slide along a row or a column."


def jumped(src: Sequence[int], tile: Any, dst: Sequence[int]) -> str:
    """A tile moved into the hole from further than next to it."""
    return f"{capital(cell(src))}: the {_name(tile)} jumped to {cell(dst)}; slide one tile one step into the hole."


def pushed_together(far: Sequence[int], far_tile: Any, near: Sequence[int], near_tile: Any) -> str:
    """Two tiles pushed at once along a line: "Row 3, column 1: the Blue 4 pushed the Red 2
    along into the hole; slide one tile at a time."."""
    return (f"{capital(cell(far))}: the {_name(far_tile)} pushed the {_name(near_tile)} along into the hole; "
            "slide one tile at a time.")


def doubled(tile: Any, where: Iterable[Sequence[int]]) -> str:
    """"The Red Ace is on the board twice: row 2, column 3 and row 4, column 1."."""
    where = list(where)
    times = {2: "twice", 3: "three times"}.get(len(where), f"{len(where)} times")
    return f"The {_name(tile)} is on the board {times}: {cells(where)}."


def not_in_set(c: Sequence[int]) -> str:
    """"Row 2, column 3: that tile is not in the set." (a piece this game does not use)."""
    return f"{capital(cell(c))}: that tile is not in the set."


def several_changed(changed: Sequence[Sequence[int]]) -> str:
    """Many cells changed and no slides lead there: "Several tiles changed at once: row 1, column 1, ... Slide one tile at a time."."""
    changed = list(changed)
    if len(changed) > LIST_AT_MOST:
        where = f"{len(changed)} cells, the first at {cell(changed[0])}"
    else:
        where = cells(changed)
    return f"Several tiles changed at once: {where}. Slide one tile at a time."


def illegal(why: Any) -> str:
    """The warning for an illegal change or a board that is no position, from the rules' verdict
    ``why`` (a ``rules.reasons.Reason`` with an Easy Slider code), in the players' words:
    "Row 2, column 3: the Red Ace was lifted." Tiles are named by colour and value, cells as
    players count them; None (no verdict to tell) is a plain sentence. The Caller puts
    "Illegal move." before it during play."""
    if why is None:
        return "The board changed in a way no slide explains."
    code, at, pieces = why.code, why.cells, why.pieces
    if code == reasons.PAWNS_CHANGED:
        return " ".join(pieces_changed("pawn", why.was, pieces))
    if code == reasons.COINS_CHANGED:
        return " ".join(pieces_changed("coin", why.was, pieces))
    if code == reasons.FOREIGN:
        return " ".join(not_in_set(c) for c in at)
    if code == reasons.DOUBLED:
        return " ".join(doubled(tile, where) for tile, where in reasons.groups(why))
    if code == reasons.LIFTED:
        return " ".join(lifted(c, tile) for c, tile in zip(at, pieces))
    if code == reasons.SWAPPED:
        return swapped(at[0], pieces[0], at[1], pieces[1])
    if code == reasons.DIAGONAL:
        return diagonal(at[0], pieces[0], at[1])
    if code == reasons.JUMPED:
        return jumped(at[0], pieces[0], at[1])
    if code in (reasons.NO_SLIDES, reasons.TOO_MANY):
        return several_changed(at)
    if code == reasons.PUSHED:
        return pushed_together(at[0], pieces[0], at[1], pieces[1])
    if code == reasons.HOLES:
        if not at:
            return "There is no hole on the board."
        return f"There are {number_word(len(at))} holes on the board: {cells(at)}."
    if code == reasons.MISSING:
        names = [f"the {_name(t)}" for t in pieces]
        return f"{capital(join_and(names))} {'is' if len(names) == 1 else 'are'} not on the board."
    if code == reasons.PAWNS_REPEAT:
        return f"The pawns repeat a colour: {', '.join(_name(p) for p in pieces)}."
    if code == reasons.COINS_REPEAT:
        return f"The coins repeat a value: {', '.join(_name(c) for c in pieces)}."
    raise ValueError(f"no words for the Easy Slider reason {code!r}")


def unreadable_start(why: Any) -> str:
    """The first position seen is not a proper Easy Slider board; ``why`` is the rules' verdict
    (``MalformedPosition.reason``), or None when they gave none."""
    if why is None:
        return "This is not a proper start position. Please check the board."
    return f"This is not a proper start position. {illegal(why)} Please check the board."


def restored() -> str:
    """The board is back to the last legal position after a warning."""
    return "Thank you: the board is back as it was."


def accepted() -> str:
    """The player said the changed board is right; play goes on from it."""
    return "Accepted: play on from this board."


# -- Done!, fumbles, scores ----------------------------------------------------------------------


def _wrong(wrong: Sequence[Sequence[int]]) -> str:
    wrong = list(wrong)
    if len(wrong) > LIST_AT_MOST:
        return f"{len(wrong)} tiles are wrong, the first at {cell(wrong[0])}"
    return f"{cells(wrong)} {'is' if len(wrong) == 1 else 'are'} wrong"


def done(correct: bool, elapsed_s: float | None = None, wrong: Sequence[Sequence[int]] = ()) -> str:
    """The verdict on a board: "Done! Correct, in 1 minute 27 seconds." / "Not done yet: row 3, column 2 is wrong."."""
    if correct:
        return "Done! Correct." if elapsed_s is None else f"Done! Correct, in {duration(elapsed_s)}."
    if not wrong:
        return "Not done yet."
    return f"Not done yet: {_wrong(wrong)}."


def fumble(wrong: Sequence[Sequence[int]], player: str | None = None) -> str:
    """A wrong "Done!" call (rules: a fumble scores zero): "Fumble! Row 3, column 2 is wrong: no points this round."."""
    who = f"{player}, fumble!" if player else "Fumble!"
    if not wrong:
        return f"{who} The board is not right: no points this round."
    return f"{who} {capital(_wrong(wrong))}: no points this round."


def round_scores(points: Mapping[str, int], round_no: int | None = None, fumbled: Iterable[str] = ()) -> str:
    """"Round 2: Ann 3 points, Bob 1 point, Cy 0 points (fumble)."."""
    title = "This round" if round_no is None else f"Round {round_no}"
    return scores_line(title, points, {name: "fumble" for name in fumbled})


def totals(points: Mapping[str, int]) -> str:
    """"Totals: Ann 7 points, Bob 4 points." (most points first)."""
    return standings_line(points)


def winner(points: Mapping[str, int]) -> str:
    """"Ann wins with 7 points." or the tie that calls for a playoff round."""
    return winner_line(points)


def remark(taken: int, needed: int | None) -> str:
    """After the round: "You took 87 slides; 61 would do." (``needed``: the length of the Caller's own
    solution from the setup; it is not proven shortest, so a player who did as well is told so
    without claiming "the shortest way")."""
    if needed is None:
        return f"You took {plural(taken, 'slide')}."
    if taken <= needed:
        return f"You took {plural(taken, 'slide')}: as good as my own solution of {needed}."
    return f"You took {plural(taken, 'slide')}; {needed} would do."
