"""The live loop is the same for every game: a toy game's live referee, defined here, drives
the real ``LiveCaller`` and ``Watcher`` (moves, suspect then announce once, restored, blocked,
accept, "Done!", a fumble), and the loop's own modules name no game.

The toy game: one row of cells with one token ("T") on it. A move steps the token one cell
right; a token that went left, or a second token, is illegal; the goal is the last cell.
"""

import ast
from pathlib import Path
from types import SimpleNamespace

import numpy as np

from caller.live import LiveCaller
from caller.live_referee import LiveReferee, Verdict
from caller.tracker import Reading
from caller.watch import Watcher
from rules.reasons import Reason

ROOT = Path(__file__).resolve().parents[1]

PHRASES = SimpleNamespace(
    go=lambda: "Go!", restored=lambda: "Thank you.", accepted=lambda: "Accepted.",
    illegal=lambda why: f"The token went {why.code}.", unreadable_start=lambda why: "Two tokens?",
    done=lambda correct, elapsed_s: "Done!", fumble=lambda cells: "Not yet.")


class Row(LiveReferee):
    """The toy game's live referee."""

    phrases = PHRASES

    def reading(self, obs) -> Reading:
        return Reading((tuple(obs.cells),), (), (), frozenset(obs.doubtful))

    def reading_of(self, state) -> Reading:
        return Reading((state,), (), ())

    def parse(self, reading):
        row = reading.board[0]
        if row.count("T") != 1:
            return Verdict.illegal("not one token", Reason("tokens", tuple((0, i) for i, v in enumerate(row) if v)))
        return row

    def state(self, position):
        return position

    def judge(self, before, position, max_moves, motion=None):
        a, b = before.index("T"), position.index("T")
        if b < a:
            return Verdict.illegal("the token went back", Reason("back", ((0, a), (0, b))), [(0, a), (0, b)])
        if b - a > max_moves:
            return Verdict.illegal("too many moves", Reason("far", ((0, b),)), [(0, b)])
        return Verdict.moved({"from": i, "to": i + 1} for i in range(a, b))

    def done(self, state) -> bool:
        return state[-1] == "T"

    def goal_problems(self, state) -> list:
        return [] if self.done(state) else [(0, len(state) - 1)]

    def board(self, state) -> dict:
        return {"board": [list(state)]}

    def expected(self, state, reading) -> bool:
        return reading.board[0].index("T") == state.index("T") + 1 if reading.board[0].count("T") == 1 else False


def row(i, n=5, *, extra=None):
    cells = [None] * n
    cells[i] = "T"
    if extra is not None:
        cells[extra] = "T"
    return tuple(cells)


def at(i, **kw) -> Reading:
    return Reading((row(i, **kw),), (), ())


def types(events):
    return [e.type for e in events]


def test_a_toy_game_is_called_by_the_generic_caller():
    live = LiveCaller(Row())
    assert types(live.on_position(0.0, at(0))) == ["board", "go"]
    ev = live.on_position(1.0, at(2))
    assert types(ev) == ["move", "move"] and [e.data for e in ev] == [{"from": 0, "to": 1}, {"from": 1, "to": 2}]
    # an unexplained change: suspected (nothing said, a re-read asked), then announced once
    assert live.on_position(2.0, at(1)) == [] and live.needs_confirmation and live.suspecting
    ev = live.on_position(2.5, at(1))
    assert types(ev) == ["illegal"] and ev[0].say == "Illegal move. The token went back."
    assert ev[0].data == {"reason": "the token went back", "cells": [[0, 2], [0, 1]]}
    assert live.blocked and live.on_position(3.0, at(1)) == []
    # put back: restored; the game goes on
    assert types(live.on_position(4.0, at(2))) == ["restored"] and not live.blocked
    assert live.call_done(4.5)[0].type == "fumble"
    ev = live.on_position(5.0, at(4))
    assert types(ev) == ["move", "move", "done"] and ev[-1].data["slides"] == 4
    assert live.call_done(6.0) == []


def test_a_toy_game_s_malformed_reading_waits_and_an_accepted_change_stands():
    live = LiveCaller(Row())
    assert live.on_position(0.0, at(0, extra=3)) == []  # suspected first, even at the start
    assert types(live.on_position(0.5, at(0, extra=3))) == ["illegal"]
    # the start put right answers the warning: "Thank you.", then the start as always
    assert [(e.type, e.say) for e in live.on_position(1.0, at(1))][:2] == [("restored", "Thank you."),
                                                                           ("board", None)]
    live.on_position(2.0, at(0))
    assert types(live.on_position(2.5, at(0))) == ["illegal"]
    assert types(live.accept(3.0)) == ["accepted"] and live.current == row(0)
    assert live.follows(3.5, at(3)) and not live.follows(3.5, at(0, extra=2))
    assert live.expects(at(1)) and not live.expects(at(2))


def picture(cells, doubtful=()) -> np.ndarray:
    """A frame of the toy table: its brightness changes with the position (the motion gate
    sees a move); the first pixels of its top row say where the token is, and doubtful."""
    img = np.full((36, 64, 3), 40 * cells.index("T") + (20 if doubtful else 0) + 10, np.uint8)
    img[0, :, 1:] = 0
    img[0, : len(cells), 1] = [255 if v == "T" else 0 for v in cells]
    img[0, list(doubtful), 2] = 255
    return img


class PixelReader:
    """The toy game's reader: the position written in a frame by ``picture``."""

    def read(self, image):
        n = 5
        return SimpleNamespace(cells=tuple("T" if v else None for v in image[0, :n, 1]),
                               doubtful=[(0, i) for i in range(n) if image[0, i, 2]],
                               board_corners=((0, 0), (10, 0), (10, 10), (0, 10)))


def test_a_toy_game_is_watched_from_frames_by_the_generic_loop():
    watcher = Watcher(PixelReader(), LiveCaller(Row()))
    held = [(row(0), ()), (row(1), (1,)), (row(1), ()), (row(0), ()), (row(1), ()), (row(4), ())]
    frames = [picture(cells, doubtful) for cells, doubtful in held for _ in range(10)]
    events = [e for i, img in enumerate(frames) for e in watcher.process(img, i / 10)]
    assert types(events) == ["board", "go", "move", "illegal", "restored", "move", "move", "move", "done"]
    illegal = next(e for e in events if e.type == "illegal")
    assert illegal.data["cells"] == [[0, 1], [0, 0]]


def test_the_loop_s_modules_name_no_game():
    """What a game brings lives in its live referee: the loop imports no game's rules,
    phrasebook or referee."""
    for path in ("caller/live.py", "caller/watch.py", "caller/live_referee.py", "caller/tracker.py"):
        tree = ast.parse((ROOT / path).read_text())
        imported = [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
        imported += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
        games = [m for m in imported if m.startswith(("rules.", "caller.referees", "voice.phrasebook."))
                 and m not in ("rules.reasons", "voice.phrasebook.common")]
        assert games == [], f"{path} imports {games}"


def test_the_preview_writes_another_game_s_move():
    from caller.events import Event
    from caller.preview import draw_overlay

    image = np.zeros((90, 160, 3), np.uint8)
    out = draw_overlay(image, None, Event(1.0, "move", {"from": 0, "to": 1}, None), status="t=1.0s")
    assert out.shape == image.shape and out.any()
