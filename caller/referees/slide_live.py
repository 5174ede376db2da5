"""The live referee of Slide (Gigamic) (``caller watch --game slide``): one player's grid of cards.

What the live Caller (``caller.live``, ``caller.watch``) needs to know of Slide seen through a
camera pointed at one player's 4x4 grid. See ``caller.live_referee`` for the interface; the
choices below are written for players in docs/games/slide.md.

**What the camera sees.** Each slot of the grid: a face-up card's number, a face-down card
(``rules.slide.explain.DOWN``) or the hole. The cards in the middle of the table are not read,
so a push is checked for its shape only (a face-up card in from the edge of the hole's row or
column, the cards between moved one place along), not for the card being one of the middle's.

**Doubtful backs.** Slide is dealt face down, so a slot the reader guesses, unsure, as a
number is taken for a back before the start (a camera started at the deal sees sixteen
backs, some of which a printing's striped backs can make look a little like a 5), and later
wherever no reveal or push could have put a face-up card, unless the hole is read filled with
no push to explain it (the doubtful number may be where the hole went). A camera started in
mid-game may so take a face-up card in doubt for a back; the first sure read of it puts the
grid right without a word, so long as no reveal or push has moved that card. A face-down
card whose slot reads doubtful but still looks as it did when last read sure as a back
(``SAME_LOOK``) is that back: glare can hold a back half read as a gap for as long as it lasts.

**The player's frame.** The reader turns each read so that row 0 is where the face-up
numerals' tops point, and with no numeral in view (or none read sure) the side farther from
the camera. Early in
a game, with few cards face up, that choice can flip from one read to the next; the start
fixes the frame once (its grid's corners in the picture) and every later read is turned
back into it by its corners. Cells are said 1-based from the top left: "row 2, column 3".

**Turns.** A grid with no hole may only have one face-down card turned face up (``reveal``:
the hole it leaves); a grid with a hole only a card pushed in (``push``: ``card``, ``line``,
``index``, ``from_side``). Other players' turns do not change this grid, so the Caller waits
through them. When the camera had no still view between a reveal and the next push (or a push
and the next round's reveal), the two are taken together. Anything else is an illegal change,
said once with what to do (two cards revealed, a card put straight into the hole, a card slid
inside the grid, a line changed otherwise than by one push); the Caller then waits until the
grid is put back (or the player accepts it).

**The end.** When no card is face down and no hole is left, the grid is counted: equal
orthogonal neighbours cancel, the rest are its points (``score``: ``points``, ``cards``,
``left``, ``cancelled``). One camera sees one grid, so the winner among the players is for
them to compare (or for ``caller slide score-photo`` on each grid).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from caller.live_referee import Happening, LiveReferee, Motion, Verdict, steady_run
from caller.tracker import Reading
from rules.grid import Cell, Grid
from rules.reasons import Reason
from rules.slide import reasons
from rules.slide.explain import DOWN, explain, observe
from rules.slide.state import SHAPE, SIDES, SIZE, Push, Reveal, SlideState, edge_cell, push_in, score_grid
from vision.cards import look_distance
from voice.phrasebook import slide as phrases

#: the reader's word for a face-down card (``caller read --game slide``)
READ_DOWN = "down"
#: face-up cards read as another number where they lie, in one change, taken for the reader's
#: slip rather than the player's doing (``SlideLive._slipped``); two would let a swap of two
#: cards pass unsaid
MAX_SLIPS = 1
#: still reads in which a face-down slot read doubtful before it counts as a hole the reader
#: could not tell from a back (a hand passing over a card is in one or two)
DOUBT_READS = 3

Corners = tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class CardsReading(Reading):
    """A read of one player's grid: ``board`` the slots in the player's frame (a number,
    ``"down"`` or None), ``corners`` the grid's corners in the picture (TL, TR, BR, BL of that
    frame); ``pawns`` and ``coins`` unused; ``looks`` what each slot looked like
    (``vision.cards.slot_looks``, in the same frame; None when not known)."""

    corners: Corners = field(default=(), compare=False)
    looks: Any = field(default=None, compare=False, repr=False)


def as_grid(board) -> Grid:
    """A read's slots as the observed grid ``rules.slide.explain`` compares (``DOWN`` for a face-down card)."""
    return Grid(tuple(tuple(DOWN if v == READ_DOWN else v for v in row) for row in board))


def as_read(grid: Grid) -> tuple[tuple, ...]:
    """An observed grid as the reader writes it."""
    return tuple(tuple(READ_DOWN if v == DOWN else v for v in row) for row in grid.rows)


def half_turned(board, cells=(), corners: Corners = (), looks=None) -> tuple:
    """A read turned half round: its slots, its uncertain cells, its corners and its slots'
    looks (each turned too; None stays None)."""
    n = len(board)
    slots = tuple(tuple(reversed(row)) for row in reversed(board))
    return (slots, frozenset((n - 1 - r, len(board[0]) - 1 - c) for r, c in cells),
            tuple(corners[(i + 2) % 4] for i in range(len(corners))),
            None if looks is None else np.asarray(looks)[::-1, ::-1, ::-1, ::-1])


def _distance(a: Corners, b: Corners) -> float:
    return sum(((x1 - x2) ** 2 + (y1 - y2) ** 2) ** 0.5 for (x1, y1), (x2, y2) in zip(a, b))


def _shows(seen: Grid, grid: Grid) -> bool:
    """Whether a read's best guesses ``seen`` show ``grid``, a number guessed where ``grid`` has
    a back counting as that back (a slot guessed as a gap is never one of its backs)."""
    return all(v == grid[cell] or (grid[cell] == DOWN and isinstance(v, int)) for cell, v in seen.items())


def holes(grid: Grid) -> list[Cell]:
    return list(grid.find(None))


def face_down(grid: Grid) -> list[Cell]:
    return list(grid.find(DOWN))


def finished(grid: Grid) -> bool:
    """No card face down and no hole: the grid is counted."""
    return not holes(grid) and not face_down(grid)


#: s: a face-down card whose slot reads, unsure, as a gap is taken for one only once the reads
#: have shown it so this long: a second card turned stands until the Caller has spoken, while
#: a plain back on a table of its border's colour can read so for a second and a half
GAP_DOUBT_S = 2.0
#: Lab units (``vision.cards.look_distance``) within which a face-down card's slot read doubtful
#: still looks as it did when it was last read sure as a back there, and so is taken for that
#: back: a back under glare that the reader half takes for a gap or a hand. Backs read sure
#: again differ from their last sure look by under 3.5 in 95 reads of 100; the table bared by
#: a card taken away, by 12 or more
SAME_LOOK = 5.0
#: reads kept for ``settle``'s steady runs (at the loop's 0.25 s between doubtful reads, enough
#: for ``GAP_DOUBT_S``; a read per frame while a change is pending fills it faster)
RECENT_READS = 48


class SlideLive(LiveReferee):
    """Slide's live referee for one player's grid (see the module's docstring)."""

    phrases = phrases
    clock = False
    opening_event = "turn"
    checks_setup = False
    board_event = "grid"
    options = ()

    def __init__(self) -> None:
        self.frame: Corners | None = None  # the start's corners in the picture: the player's frame
        self._recent: list[tuple[float, CardsReading]] = []  # the last reads, for ``settle``
        #: face-down slots of the current position read doubtful, and how many times, since it
        #: was taken (``_doubt_since``): where a card may have been turned unseen
        self._doubts: dict[Cell, int] = {}
        self._doubt_since: Grid | None = None
        self._taken: dict[Grid, Grid] = {}  # the last legal step: the grid after it -> the grid before
        #: slots of the start taken for backs while the reader doubted a number there
        #: (``_doubted_backs``): until a step moves them, a number read sure there puts it right
        self._start_doubts: frozenset[Cell] = frozenset()
        #: each slot's look the last time it was read sure as a back (``_still_backs``)
        self._backs: dict[Cell, np.ndarray] = {}

    # -- readings ------------------------------------------------------------------------------
    def reading(self, obs) -> CardsReading:
        """A ``vision.observation.CardsObservation`` as a reading, turned into the player's frame
        fixed at the start when its corners say the reader chose the other half turn."""
        board = tuple(tuple(row) for row in obs.grid)
        uncertain = frozenset(tuple(c) for c in obs.uncertain)
        corners = tuple(tuple(map(float, p)) for p in obs.board_corners)
        looks = getattr(obs, "looks", None)
        if self.frame is not None and len(corners) == 4:
            turned = half_turned(board, uncertain, corners, looks)
            if _distance(turned[2], self.frame) < _distance(corners, self.frame):
                board, uncertain, corners, looks = turned
        return CardsReading(board, (), (), uncertain, corners=corners, looks=looks)

    def settle(self, t: float, obs, loop) -> tuple[Reading | None, tuple[float, int] | None]:
        """A read with doubtful slots (a hand or glare over them) made sure when exactly one of
        the grids the table may show next (the current one, a reveal, a push of the card read
        sure at its edge) agrees with every slot read sure, unless a doubtful slot could hide a
        second hole (then the read as it is, never a position, until it is read sure or the
        reads have shown that grid, guesses and all, for a steady while); when
        none or several do, or the hole is read as a doubtful card, or a face-down card as a
        doubtful hole, or before the start, the read as it is once it has held (``_steady``)."""
        state = loop.caller.current
        reading = self._still_backs(state, self.reading(obs))
        backs = self._doubted_backs(state, reading)
        if state is None:
            self._start_doubts = frozenset(backs)
        if backs:
            seen = as_grid(reading.board).set_many({cell: DOWN for cell in backs})
            reading = CardsReading(as_read(seen), (), (), reading.uncertain, corners=reading.corners)
        self._recent = (self._recent + [(t, reading)])[-RECENT_READS:]
        if state is not self._doubt_since:  # a new position: what was doubtful before it is forgotten
            self._doubt_since, self._doubts = state, {}
        if state is not None:
            for cell in reading.uncertain:
                if state[cell] == DOWN:
                    self._doubts[cell] = self._doubts.get(cell, 0) + 1
        if state is None and reading.uncertain:
            return self._steady(reading, t, loop.tracker.config, start=True)
        if not reading.uncertain or state is None:
            return reading, None
        sure = [(r, c) for r in range(SIZE) for c in range(SIZE) if (r, c) not in reading.uncertain]
        seen = as_grid(reading.board)
        # (a push is deduced only of a card read sure at its edge: the number of one read
        # doubtful is a guess, which a sure read a moment later may contradict)
        fits = {g for g in self._steps(state, seen, reading.uncertain) if all(g[cell] == seen[cell] for cell in sure)}
        if len(fits) == 1:
            grid = fits.pop()
            if any(grid[cell] == DOWN and seen[cell] is None for cell in reading.uncertain):
                # a card face down in the step deduced whose slot reads, unsure, as a hole (a
                # gap over a patterned cloth under glare, that the reader half takes for a
                # hand): a card may have been turned there, so the read as it is, once it has
                # held for ``GAP_DOUBT_S`` (a second reveal is then said, a legal one followed)
                return self._steady(reading, t, replace(loop.tracker.config, tile_steady_s=GAP_DOUBT_S))
            if grid != state and any(grid[cell] == DOWN for cell in reading.uncertain):
                # a doubtful slot that is a card face down in the step deduced may be a hole
                # too (a card revealed there, glare over the bare table): two reveals, or the
                # hole elsewhere; wait for it to be read sure, or for the reads to have shown
                # the step over ``tile_steady_s``, best guesses and all, a back of the step
                # guessed as a number counting as a back (backs of a design the reader is never
                # quite sure of must not hold the step back; a gap is guessed as a gap, and a
                # second hole read sure later is still a change to judge)
                run = steady_run(self._recent, reading, t, loop.tracker.config,
                                 holds=lambda seen: _shows(as_grid(seen.board), grid))
                if run is None:
                    return reading, None
                return CardsReading(as_read(grid), (), (), corners=reading.corners), (run[0], len(run))
            if any(grid[cell] is None and seen[cell] is not None for cell in reading.uncertain):
                # the hole read, unsure, as a card: a card put straight into it (a 9 read upside
                # down as a doubtful 6 or 5) must not be taken for the hole still empty
                return self._steady(reading, t, loop.tracker.config)
            return CardsReading(as_read(grid), (), (), corners=reading.corners), None
        # no step explains the sure slots (an illegal change, or a misread, that stands), or
        # several do (a hole the reader is unsure of): the read as it is, once it has held
        return self._steady(reading, t, loop.tracker.config)

    def _still_backs(self, state: Grid | None, reading: CardsReading) -> CardsReading:
        """``reading`` with each doubtful slot where ``state`` has a card face down that still
        looks as it did when last read sure as a back (within ``SAME_LOOK``) read sure as that
        back: glare over a back can make the reader half take it for a gap or a hand, for as
        long as the light stays, and a gap there would be a second card turned. A card taken
        away bares the table and a hand covers the slot: neither looks like the back. The
        looks of the slots read sure as backs are kept for the next reads."""
        looks = reading.looks
        if looks is None:
            return reading
        backs = {cell for cell in reading.uncertain if state is not None and state[cell] == DOWN
                 and cell in self._backs and look_distance(looks[cell], self._backs[cell]) <= SAME_LOOK}
        for r, row in enumerate(reading.board):
            for c, v in enumerate(row):
                if v == READ_DOWN and (r, c) not in reading.uncertain:
                    self._backs[(r, c)] = looks[r, c]
        if not backs:
            return reading
        board = as_read(as_grid(reading.board).set_many({cell: DOWN for cell in backs}))
        return replace(reading, board=board, uncertain=reading.uncertain - backs)

    def _doubted_backs(self, state: Grid | None, reading: CardsReading) -> list[Cell]:
        """The doubtful slots of a read guessed as a number that may be taken for the backs
        they are (a striped back seen steeply can pass for a 5): before the start, every one
        (Slide is dealt face down; see the module's docstring); later, those where ``state``
        has a card face down and no step from it could put a number. Such a card is never
        taken for one turned up where it lies until that is read sure (then it is a change to
        judge). When ``state``'s hole is read filled, no slot is read as a gap and no push
        explains the slots read sure, a doubtful number may be where the hole went (a card
        slid into it, the new gap under glare): then the read stays as it is."""
        seen = as_grid(reading.board)
        doubted = [cell for cell in sorted(reading.uncertain) if isinstance(seen[cell], int)]
        if state is None or not doubted:
            return doubted
        steps = list(self._steps(state, seen))
        if holes(state) and not holes(seen):
            sure = [cell for cell, _ in seen.items() if cell not in reading.uncertain]
            if not any(step != state and all(step[c] == seen[c] for c in sure) for step in steps):
                return []
        could_show = {cell for step in steps for cell, v in step.items() if isinstance(v, int)}
        return [cell for cell in doubted if state[cell] == DOWN and cell not in could_show]

    def _steady(self, reading: CardsReading, t: float, cfg, start: bool = False) -> tuple[Reading, tuple[float, int] | None]:
        """A read with doubtful slots taken as read (their best guesses) when every read over
        ``tile_steady_s`` (``tile_steady_reads`` at least) saw the same: before the start (a card
        the reader is never quite sure of must not keep the game from starting; ``start``: only
        a grid that can be one), or where no step explains the slots read sure (an illegal
        change must be called while a card beside it stays doubtful). A guess that was wrong is
        put right by a later sure read (``_slipped``); a wrong change is still confirmed by a
        fresh read before it is said (``caller.live``)."""
        run = steady_run(self._recent, reading, t, cfg)
        if run is None or (start and isinstance(self.state(as_grid(reading.board)), Verdict)):
            return reading, None
        return CardsReading(reading.board, (), (), corners=reading.corners), (run[0], len(run))

    def _steps(self, grid: Grid, seen: Grid, unsure: frozenset[Cell] = frozenset()):
        """``grid`` and the grids one step from it: each reveal, or each push of the card ``seen``
        shows at the edge it would go in from (none from an edge slot in ``unsure``)."""
        yield grid
        hole = holes(grid)
        if not hole:
            for cell in face_down(grid):
                yield grid.set(cell, None)
            return
        for side in SIDES:
            edge = edge_cell(hole[0], side.direction, SHAPE)
            card = seen[edge]
            if edge != hole[0] and isinstance(card, int) and edge not in unsure:
                yield push_in(grid, hole[0], side.direction, card)

    def reading_of(self, state: Grid | SlideState) -> CardsReading:
        """A grid (or a rules state, a deal: its first player's grid) as a sure read of it."""
        grid = observe(state.grids[0]) if isinstance(state, SlideState) else state
        return CardsReading(as_read(grid), (), (), corners=self.frame or ())

    # -- positions -----------------------------------------------------------------------------
    def parse(self, reading: Reading) -> Grid:
        return as_grid(reading.board)

    def state(self, position: Grid) -> Grid:
        """A grid with more than one hole is no position of a game."""
        found = holes(position)
        if len(found) > 1:
            why = Reason(reasons.HOLES, tuple(found), number=2)
            return Verdict.illegal(reasons.text(why), why, found)
        return position

    def board(self, state: Grid) -> dict:
        """The ``grid`` event: the slots as ``caller read --game slide`` writes them."""
        return {"grid": [list(row) for row in as_read(state)]}

    def accepted(self, state: Grid) -> dict:
        return self.board(state)

    def start(self, new: Grid, reading: Reading) -> Grid:
        """The first grid (``state`` has refused one with two holes) fixes the player's frame: as
        read when a numeral shows, else the camera's side (row 0 the edge higher in the picture,
        farther from the camera), whatever half turn the backs' pattern led the reader to."""
        corners = getattr(reading, "corners", ()) or ()
        if len(corners) == 4 and not any(isinstance(v, int) for _, v in new.items()):
            far, near = (corners[0][1] + corners[1][1]) / 2, (corners[2][1] + corners[3][1]) / 2
            if far > near:
                board, self._start_doubts, corners = half_turned(as_read(new), self._start_doubts, corners)
                new = as_grid(board)
        self.frame = corners or None
        return new

    def starting(self, state: Grid) -> tuple[Happening, ...]:
        if finished(state):
            return ()
        down, hole = face_down(state), holes(state)
        return (Happening("turn", {"face_down": len(down), "hole": list(hole[0]) if hole else None},
                          phrases.live_start(len(down), hole[0] if hole else None)),)

    def say_illegal(self, verdict: Verdict, start: bool) -> str:
        if start:
            return phrases.unreadable_start(verdict.why)
        return phrases.live_illegal(verdict.why)

    # -- turns ---------------------------------------------------------------------------------
    def judge(self, before: Grid, position: Grid, max_moves: int, motion: Motion | None = None) -> Verdict:
        """The reveal or push that explains ``position`` (or, quick hands, a reveal and the next
        push, or a push and the next round's reveal), or why none does."""
        if self._taken.get(before) == position:  # the last step put back as it was
            return Verdict.moved([Happening("undone", {"grid": self.board(position)["grid"]})])
        report = explain(before, position)
        if report.ok:
            return self._moved(before, position, [self._happening(before, report.move)])
        if self._put_right(before, position):
            return Verdict.moved([])
        if max_moves >= 2:
            two = self._two_steps(before, position)
            if two is not None:
                return self._moved(before, position, two)
        slipped = self._slipped(before, position)
        if slipped is not None:
            return self._moved(before, position, slipped)
        unseen = self.unseen_hole(before)
        if len(unseen) == 1 and not holes(position):  # what was done at the hole the reader doubted
            turned = explain(before.set(unseen[0], None), position)
            if turned.why is not None and turned.why.code != reasons.NOTHING:
                report = turned
        return Verdict.illegal(report.reason, report.why, report.cells)

    def _moved(self, before: Grid, after: Grid, steps: list[Happening]) -> Verdict:
        """A legal change; the grid before it is kept, so that the change put back exactly
        (a card put straight into the hole and taken out again, when the same card stood at the
        line's end: the picture of a legal push) is followed as taken back, not as a card taken
        from the grid."""
        if steps:
            moved = set()
            for step in steps:
                if step.type == "reveal":
                    moved.add(tuple(step.data["cell"]))
                elif step.type == "push":
                    k = step.data["index"]
                    moved |= {(k, j) if step.data["line"] == "row" else (j, k) for j in range(SIZE)}
            self._taken, self._start_doubts = {after: before}, self._start_doubts - moved
        return Verdict.moved(steps)

    def _put_right(self, before: Grid, after: Grid) -> bool:
        """Whether ``after`` is ``before`` with only cards the start took for backs in doubt
        (``_start_doubts``) read sure as numbers: the camera's slip at the start put right, not
        the player's doing, however many steps ago, so long as no step has moved them (a
        step's own explanation, a push and then a reveal of the very card pushed along, is
        not looked for first)."""
        diff = [cell for cell, v in after.items() if before[cell] != v]
        return bool(diff) and all(self._start_slip(c, before, after) for c in diff)

    def _start_slip(self, cell: Cell, grid: Grid, after: Grid) -> bool:
        """Whether ``after`` reads a number at ``cell`` where ``grid`` has the back the start
        took there in doubt (``_start_doubts``): the reader's slip at the start, put right."""
        return cell in self._start_doubts and grid[cell] == DOWN and isinstance(after[cell], int)

    def _slipped(self, before: Grid, after: Grid) -> list[Happening] | None:
        """The step (or no step) that explains ``after`` but for ``MAX_SLIPS`` face-up cards that
        the step leaves where they lie, read as other numbers: a card never changes its number,
        so such a change is the reader's (one read of a 7 as a 1, put right by the next), not
        the player's. (A card put straight into the hole is no slip: the hole is no card.) So is
        a number read sure where the start took a doubtful number for a back and no step has
        moved that card since (``_start_doubts``), whatever their count. The one step that
        needs the fewest; None when none does, or two need as few."""
        best: list[tuple[int, Grid]] = []
        for step in self._steps(before, after):
            diff = [cell for cell, v in after.items() if step[cell] != v]
            start = [c for c in diff if step[c] == before[c] and self._start_slip(c, before, after)]
            slips = [c for c in diff if c not in start]
            if len(slips) > MAX_SLIPS or not all(isinstance(step[c], int) and isinstance(after[c], int)
                                                 and step[c] == before[c] for c in slips):
                continue  # a slip is a card lying still read otherwise: never one the step moved
            best.append((len(slips), step))
        best.sort(key=lambda b: b[0])
        if not best or (len(best) > 1 and best[1][0] == best[0][0]):
            return None
        step = best[0][1]
        if step == before:
            return []
        move = explain(before, step).move
        return [self._happening(before, move)]

    def unseen_hole(self, before: Grid) -> list[Cell]:
        """The face-down slots of ``before`` read doubtful in ``DOUBT_READS`` still reads or more
        since it was taken: where a card may have been turned while the reader could not tell
        the hole from a back."""
        if before is not self._doubt_since:
            return []
        return sorted(c for c, n in self._doubts.items() if n >= DOUBT_READS and before[c] == DOWN)

    def _two_steps(self, before: Grid, after: Grid) -> list[Happening] | None:
        hole = holes(before)
        if not hole:  # a reveal, then the push into its hole (a hole the reader doubted first)
            for cell in self.unseen_hole(before) or face_down(before):
                mid = before.set(cell, None)
                second = explain(mid, after)
                if second.ok and isinstance(second.move, Push):
                    return [self._happening(before, Reveal(cell)), self._happening(mid, second.move)]
            return None
        for side in SIDES:  # a push, then the next round's reveal
            edge = edge_cell(hole[0], side.direction, SHAPE)
            card = after[edge]
            if edge == hole[0] or not isinstance(card, int):
                continue
            mid = push_in(before, hole[0], side.direction, card)
            second = explain(mid, after)
            if second.ok and isinstance(second.move, Reveal):
                return [self._happening(before, Push(card, side)), self._happening(mid, second.move)]
        return None

    def _happening(self, before: Grid, move: Reveal | Push) -> Happening:
        if isinstance(move, Reveal):
            return Happening("reveal", {"cell": list(move.cell)})
        hole = holes(before)[0]
        line = "row" if move.side.axis == "row" else "column"
        return Happening("push", {"card": move.card, "line": line, "index": hole[0] if line == "row" else hole[1],
                                  "from_side": move.side.value},
                         phrases.live_push(move.card, move.side, hole))

    def expected(self, state: Grid, reading: Reading) -> bool:
        """Whether ``reading`` is ``state`` with one reveal or push made."""
        return explain(state, as_grid(reading.board)).ok

    def take(self, state: Grid, new: Grid) -> Grid | None:
        """A grid accepted after a warning: any grid with at most one hole."""
        return new if len(holes(new)) <= 1 else None

    def winner(self, state: Grid) -> tuple[dict, str, str] | None:
        """The grid finished: its count (the ``score`` event)."""
        if not finished(state):
            return None
        score = score_grid(state)
        return ({"points": score.points, "cards": score.cards, "left": list(score.left),
                 "cancelled": [list(c) for c in score.cancelled], "grid": self.board(state)["grid"]},
                phrases.live_score(score), "score")

    def summary(self, events) -> str:
        """"9 reveals and pushes, 1 illegal, the grid scored 23 at 61.2 s"."""
        turns = sum(1 for e in events if e.type in ("reveal", "push"))
        illegal = sum(1 for e in events if e.type == "illegal")
        end = next((e for e in events if e.type == "score"), None)
        last = "not finished" if end is None else f"the grid scored {end.data['points']} at {end.t:.1f} s"
        return f"{turns} reveals and pushes, {illegal} illegal, {last}"
