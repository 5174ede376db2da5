"""The live referee of Easy Slider (``caller watch --game easy-slider``, ``caller race``).

What the live Caller (``caller.live``, ``caller.watch``) needs to know of Easy Slider: how
a read table becomes a position, which slides explain a change (``rules.easy_slider.explain``),
when two tiles were pushed together rather than slid one by one, the goal, the announced
setup, and what may be deduced of the doubtful items of a read. See
``caller.live_referee`` for the interface.

Deductions for doubtful items (the numbers are ``TrackerConfig``'s, ``[vision.tracker]``):

* Before the start position is accepted, a pawn or coin the reader is unsure of is taken as
  the reader's choice once that choice has held on every read for ``steady_s`` seconds of
  source time and at least ``steady_reads`` reads (a small or blurred coin is often never
  read sure, and without the coins the game cannot start); a choice that changes between
  reads resets it.
* A pawn or coin whose choice keeps changing between reads (a small blurred coin read 2, 3,
  5 in turn) would hold the start back for ever while the tiles are read sure. Once the
  tiles alone have held as the tracker asks of a position (``accept_s``, ``min_reads``; the
  coins do not take part in any slide), such a piece is taken *provisionally* as the
  reader's most frequent choice (a sure read counts ``sure_vote`` times an unsure one, the
  pieces kept distinct): the game starts and the slides are followed. Pawns and coins never
  move, so every later read keeps voting; when the vote moves, the piece is revised silently
  (never reported as a change) and "Done!" is checked against the revised goal.
* After the start, a pawn or coin the reader is unsure of is taken as the one already seen
  there (a confidently different one is still a change the Caller reports).
* After the start, a read with one doubtful cell, or two that are not the hole, read the
  same way on the last ``tile_steady_reads`` reads over ``tile_steady_s``, is taken as sure
  when the Caller would follow the position it makes (the same, or legal slides from the
  last one): a shaded row can stay just below the confidence threshold for a second after
  the hand has gone, and would hold "Done!" back. This deduces, it does not guess: the
  reader's 25 labels are distinct, so one doubtful cell can only hold the label the other 24
  leave, and two doubtful tiles read the wrong way round are two tiles swapped, which no
  slides can do (a swap changes the permutation's parity, a slide into the hole does not).
  A tile and the hole swapped is one slide, which is why the hole must be read sure. Before
  the start, one doubtful cell read the same way is taken too (the same deduction; there is
  no last position to follow): otherwise a blurred corner tile read just below the threshold
  holds the start back until after the first slide, and every slide is then registered one
  position late.

Two tiles pushed together along a line into the hole leave the same board as two quick
slides along that line. When a change is explained with such a pair, the referee asks the
loop's ``motion`` (a ``vision.pushes.MotionTrack`` over the frames since the last accepted
position) whether the two tiles were seen moving together; only then is it an illegal move,
and one seen happening (announced at once). Without ``motion``, or when the frames do not
show it (a hand over the tiles), it is two slides: a push the Caller did not see is never
held against the player.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from caller.live_referee import LiveReferee, LoopView, Motion, Verdict
from caller.tracker import Reading
from rules import exact_search
from rules.easy_slider import reasons
from rules.easy_slider.codec import parse_observation
from rules.easy_slider.explain import explain
from rules.easy_slider.state import EasySliderState, apply, goal_problems, is_done, legal_moves
from rules.errors import MalformedPosition
from rules.grid import Grid
from rules.reasons import Reason
from vision.assign import assign
from voice.phrasebook import easy_slider as phrases


class Seen(NamedTuple):
    """A table as read: the board (any tiles, holes), the pawns and the coins."""

    board: Grid
    pawns: tuple
    coins: tuple


class EasySliderLive(LiveReferee):
    """Easy Slider's live referee for one board (it keeps that board's recent reads)."""

    phrases = phrases

    def __init__(self) -> None:
        self._recent: list[_Read] = []  # the last reads, for steady_s, sure_vote and tile_steady_s
        self.provisional: dict[str, dict[int, dict[str, float]]] = {}  # kind -> slot -> votes, see sure_vote
        self._pushes: dict[tuple, tuple | None] = {}  # (before, seen) -> a push seen, asked once

    def warm_up(self) -> None:
        """The compiled slide search ``explain`` uses (about a second, once per process)."""
        exact_search.warm_up()

    # -- readings ------------------------------------------------------------------------------
    def reading(self, obs) -> Reading:
        """The tracker's view of a vision Observation: codes plus every cell/pawn/coin in doubt."""
        uncertain = set(map(tuple, obs.uncertain))
        pawns = tuple(None if i in obs.uncertain_pawns else p for i, p in enumerate(obs.pawns))
        coins = tuple(None if i in obs.uncertain_coins else c for i, c in enumerate(obs.coins))
        return Reading(tuple(tuple(r) for r in obs.board), pawns, coins, frozenset(uncertain))

    def reading_of(self, state: EasySliderState) -> Reading:
        return Reading(tuple(map(tuple, _codes(state))), tuple(p.code for p in state.pawns),
                       tuple(c.code for c in state.coins))

    def settle(self, t: float, obs, loop: LoopView) -> tuple[Reading | None, tuple[float, int] | None]:
        """The deductions of the module's docstring."""
        reading = self.reading(obs)
        config = loop.tracker.config
        self._recent = (self._recent + [_Read(t, reading, tuple(obs.pawns), tuple(obs.coins))])[-4 * config.steady_reads:]
        current = loop.caller.current
        if current is None:
            if None in reading.pawns or None in reading.coins:
                return self._steady(reading, t, config)
            self.provisional = {}
            return self._steady_tiles(reading, t, loop) if reading.uncertain else (reading, None)
        if self.provisional:
            reading = self._revise(reading, obs, t, loop)
        if None in reading.pawns or None in reading.coins:
            pawns = tuple(p.code if r is None else r for r, p in zip(reading.pawns, current.pawns))
            coins = tuple(c.code if r is None else r for r, c in zip(reading.coins, current.coins))
            reading = Reading(reading.board, pawns, coins, reading.uncertain)
        if reading.uncertain:
            return self._steady_tiles(reading, t, loop)
        return reading, None

    # -- positions -----------------------------------------------------------------------------
    def parse(self, reading: Reading) -> Seen | Verdict:
        obs = {"board": [list(r) for r in reading.board], "pawns": list(reading.pawns), "coins": list(reading.coins)}
        try:
            return Seen(*parse_observation(obs, "the table"))
        except MalformedPosition as exc:  # a tile seen twice, pawns or coins that repeat
            return Verdict.illegal(str(exc), exc.reason)

    def state(self, position: Seen) -> EasySliderState | Verdict:
        try:
            return EasySliderState(*position)
        except MalformedPosition as exc:  # a lifted tile (two holes)...
            return Verdict.illegal(str(exc), exc.reason)

    def judge(self, before: EasySliderState, position: Seen, max_moves: int, motion: Motion | None = None) -> Verdict:
        change = explain(before, position.board, max_slides=max_moves, pawns=position.pawns, coins=position.coins)
        if not change.legal:
            return Verdict.illegal(change.reason, change.why, change.cells)
        push = self._push(before, position, change.slides, motion)
        if push is not None:
            hole, near, far = push
            why = Reason(reasons.PUSHED, (far, near, hole), (before.board[far], before.board[near]))
            return Verdict.illegal(reasons.text(why), why, sorted([list(far), list(near), list(hole)]), seen=True)
        return Verdict.moved(slide.to_json() for slide in change.slides)

    def _push(self, before: EasySliderState, position: Seen, slides, motion: Motion | None) -> tuple | None:
        """(hole, near, far) of the first pair of the change's slides that could be one push of
        two tiles along a line, when ``motion`` saw those tiles move together; else None.
        Asked once for each change (the confirming re-read reuses the answer: by then the
        frames of the push are gone). Only pairs whose tiles are still where the last accepted
        position had them can be followed in the frames since it."""
        if motion is None or len(slides) < 2:
            return None
        memo = (before, position)
        if memo not in self._pushes:
            found, touched = None, set()
            for first, second in zip(slides, slides[1:]):
                hole, near, far = first.dst, first.src, second.src
                in_line = second.dst == near and (far[0] - near[0], far[1] - near[1]) == (near[0] - hole[0], near[1] - hole[1])
                if in_line and near not in touched and far not in touched and motion.pushed_together(hole, near, far):
                    found = (hole, near, far)
                    break
                touched |= {first.src, first.dst}
            self._pushes = {memo: found}
        return self._pushes[memo]

    def done(self, state: EasySliderState) -> bool:
        return is_done(state)

    def goal_problems(self, state: EasySliderState) -> list:
        return goal_problems(state)

    def board(self, state: EasySliderState) -> dict:
        return {"board": _codes(state), "pawns": [p.code for p in state.pawns], "coins": [c.code for c in state.coins]}

    def setup_differences(self, setup: EasySliderState, state: EasySliderState) -> tuple[dict, str] | None:
        """The cells that differ and whether the pawns and coins match."""
        wrong = setup.board.diff(state.board)
        pawns_ok = state.pawns == setup.pawns
        coins_ok = state.coins == setup.coins
        if not wrong and pawns_ok and coins_ok:
            return None
        data = {"cells": [list(c) for c in wrong], "pawns_ok": pawns_ok, "coins_ok": coins_ok}
        return data, phrases.setup_differences(setup, state, wrong, pawns_ok, coins_ok)

    def setup_mismatch(self, setup: EasySliderState, seen: EasySliderState) -> str:
        """What differs between the table read and the setup announced, with the first
        difference (why a game with an announced setup never started)."""
        from voice.phrasebook.common import cell, join_and
        from voice.phrasebook.easy_slider import setup_difference_lines

        what = []
        if seen.pawns != setup.pawns:
            what.append("the pawns")
        if seen.coins != setup.coins:
            what.append("the coins")
        wrong = setup.board.diff(seen.board)
        if wrong:
            what.append(f"{len(wrong)} tile{'s' if len(wrong) != 1 else ''}")
            (r, c), the = wrong[0], (lambda tile: "the hole" if tile is None else f"the {tile.spoken}")
            first = f"first, {cell((r, c))} should be {the(setup.board.rows[r][c])}, not {the(seen.board.rows[r][c])}"
        else:
            first = setup_difference_lines(setup, seen)[0].rstrip(".")
            first = first[0].lower() + first[1:]
        return f"{join_and(what)} differ; {first}"

    def hint(self, state: EasySliderState) -> tuple[dict, str]:
        """The first slide of a shortest solution found in time, and how many slides it takes."""
        from rules.easy_slider.solver import hint
        from voice.phrasebook import listening

        slide, length = hint(state)
        return ({"next": slide.to_json() if slide else None, "solution_length": length},
                listening.hint(slide, length))

    def expected(self, state: EasySliderState, reading: Reading) -> bool:
        """One legal slide made, pawns and coins as they were."""
        pieces = (tuple(p.code for p in state.pawns), tuple(c.code for c in state.coins))
        if (reading.pawns, reading.coins) != pieces:
            return False
        return any(tuple(map(tuple, _codes(apply(state, move)))) == reading.board for move in legal_moves(state))

    def revise_pieces(self, live, t: float, pawns: tuple[str, ...], coins: tuple[str, ...]) -> list:
        """The pawns and coins read anew (the game started on a provisional read of a piece and
        the reads now favour another): set on ``live``'s position silently, not a move (pawns
        and coins never move in Easy Slider); "Done!" if the board now meets the goal."""
        if live.current is None:
            return []
        try:
            board, p, c = parse_observation({"board": _codes(live.current), "pawns": list(pawns), "coins": list(coins)},
                                            "the table")
            new = EasySliderState(board, p, c)
        except MalformedPosition:
            return []
        observed = new if live.observed is not None and live.observed.board == new.board else None
        return live.revise(t, new, observed)

    # -- deductions ----------------------------------------------------------------------------
    def _steady_tiles(self, reading: Reading, t: float, loop: LoopView) -> tuple[Reading, tuple[float, int] | None]:
        """``reading`` taken as sure when its few doubtful cells have been read the same on the
        last reads (``tile_steady_s``) and the position it makes is one the Caller follows from its
        current one (the same, or legal slides); else ``reading`` as it is."""
        cfg = loop.tracker.config
        run = self._recent[-cfg.tile_steady_reads:]
        start = loop.caller.current is None
        if (len(run) < cfg.tile_steady_reads or t - run[0].t < cfg.tile_steady_s - 1e-9
                or any(v.reading.board != reading.board or not _deducible(reading.board, v.reading.uncertain, start)
                       for v in run)):
            return reading, None
        sure = Reading(reading.board, reading.pawns, reading.coins)
        if not sure.confident or not (start or loop.caller.follows(t, sure)):
            return reading, None
        return sure, (run[0].t, len(run))

    def _steady(self, reading: Reading, t: float, cfg) -> tuple[Reading, tuple[float, int] | None]:
        """``reading`` with each doubtful pawn or coin filled in by the reader's steady choice
        (``steady_s``), and (since, reads) when every read of that time saw the same board, pawns
        and coins as the filled-in reading: the position has then already held that long, and
        the tracker need not wait its own ``accept_s`` again (a player's first slide often
        follows the deal by two or three seconds, with hands over the board in between).
        Failing that, once the tiles alone have held, the doubtful pieces are filled in
        provisionally (``sure_vote``).
        """
        self.provisional = {}
        recent = [v for v in self._recent if v.t >= t - cfg.steady_s - 1e-9]
        filled = reading
        # the reads must also spread over most of that time, not come in one burst
        if len(recent) >= cfg.steady_reads and t - recent[0].t >= cfg.steady_spread * cfg.steady_s - 1e-9:
            def fill(doubtful, kind):
                out = []
                for i, r in enumerate(doubtful):
                    seen = {getattr(v, kind)[i] for v in recent}
                    out.append(r if r is not None or len(seen) != 1 else seen.pop())
                return tuple(out)

            filled = Reading(reading.board, fill(reading.pawns, "pawns"), fill(reading.coins, "coins"), reading.uncertain)
            if filled.confident:
                held = all((v.reading.board, v.pawns, v.coins) == filled.key for v in recent)
                return filled, (recent[0].t, len(recent)) if held else None
        # the reads since the tiles were last read otherwise (or in doubt)
        run = []
        for v in reversed(self._recent):
            if v.reading.uncertain or v.reading.board != reading.board:
                break
            run.insert(0, v)
        if reading.uncertain or len(run) < cfg.min_reads or t - run[0].t < cfg.accept_s - 1e-9:
            return filled, None
        pawns = self._provisional_fill("pawns", filled.pawns, [(v.reading.pawns, v.pawns) for v in run], cfg)
        coins = self._provisional_fill("coins", filled.coins, [(v.reading.coins, v.coins) for v in run], cfg)
        return Reading(reading.board, pawns, coins, reading.uncertain), (run[0].t, len(run))

    def _provisional_fill(self, kind: str, filled: tuple, reads: list[tuple[tuple, tuple]], cfg) -> tuple:
        """``filled`` with its doubtful slots set to the most voted choices (distinct from the
        others), recording those slots' votes in ``provisional``. ``reads``: (the reading's
        sure-or-None pieces, the reader's choices) of each read."""
        doubtful = [i for i, v in enumerate(filled) if v is None]
        if not doubtful:
            return filled
        slots = self.provisional.setdefault(kind, {})
        for i in doubtful:
            slots[i] = {}
            for sure, choice in reads:
                w = cfg.sure_vote if sure[i] is not None else 1.0
                slots[i][choice[i]] = slots[i].get(choice[i], 0.0) + w
        return _most_voted(filled, slots)

    def _revise(self, reading: Reading, obs, t: float, loop: LoopView) -> Reading:
        """After a provisional start: each provisional piece takes this read's vote and its
        most voted choice; a choice that moved is set on the Caller's position silently."""
        live, sure_vote = loop.caller, loop.tracker.config.sure_vote
        pieces = {"pawns": list(reading.pawns), "coins": list(reading.coins)}
        held = {"pawns": [p.code for p in live.current.pawns], "coins": [c.code for c in live.current.coins]}
        current = dict(held)
        for kind, slots in self.provisional.items():
            sure, choice = getattr(reading, kind), getattr(obs, kind)
            for i, votes in slots.items():
                votes[choice[i]] = votes.get(choice[i], 0.0) + (sure_vote if sure[i] is not None else 1.0)
            # the other slots keep what the Caller holds: only the provisional ones are re-voted
            voted = _most_voted(tuple(None if i in slots else v for i, v in enumerate(current[kind])), slots)
            pieces[kind] = [voted[i] if i in slots else v for i, v in enumerate(sure)]
            # a sure read of another slot that repeats a voted piece contradicts the set (its
            # pieces are all different): that slot is doubtful, and keeps what the Caller holds
            for i, v in enumerate(pieces[kind]):
                if i not in slots and v is not None and pieces[kind].count(v) > 1:
                    pieces[kind][i] = None
            current[kind] = list(voted)
        if current != held:
            loop.pending_events += self.revise_pieces(live, t, tuple(current["pawns"]), tuple(current["coins"]))
            accepted = loop.tracker.accepted
            if accepted is not None:
                loop.tracker.accepted = Reading(accepted.board, tuple(current["pawns"]), tuple(current["coins"]))
        return Reading(reading.board, tuple(pieces["pawns"]), tuple(pieces["coins"]), reading.uncertain)


class _Read(NamedTuple):
    """One read of a still frame: its reading (sure pieces, doubtful ones None) and the reader's choices."""

    t: float
    reading: Reading
    pawns: tuple
    coins: tuple


def _deducible(board: tuple, doubtful: frozenset, start: bool = False) -> bool:
    """Whether the doubtful cells of a board read with distinct labels are fixed by the rest
    and the rules (``tile_steady_s``): one cell, or two that are not the hole; before the
    ``start`` position only one cell (with no position before it, two tiles the wrong way
    round are just another deal)."""
    return len(doubtful) == 1 or (not start and len(doubtful) == 2 and all(board[r][c] is not None for r, c in doubtful))


def _most_voted(fixed: tuple, slots: dict[int, dict[str, float]]) -> tuple:
    """``fixed`` (pieces, None where open) with each open slot given a choice from its votes:
    the distinct choices with the most votes in all (the pieces of a set are all different)."""
    open_ = [i for i, v in enumerate(fixed) if v is None]
    taken = {v for v in fixed if v is not None}
    values = sorted({v for i in open_ for v in slots.get(i, {})} - taken)
    if not open_ or len(values) < len(open_):
        return fixed
    cost = np.array([[-slots.get(i, {}).get(v, 0.0) for v in values] for i in open_])
    out = list(fixed)
    for i, j in zip(open_, assign(cost)):
        out[i] = values[int(j)]
    return tuple(out)


def _codes(state: EasySliderState) -> list[list[str | None]]:
    return state.board.to_lists(lambda tile: tile.code)
