"""The live Caller's decisions, driven with exact accepted positions (no images)."""

import rules
from caller.live import LiveCaller
from caller.referees.easy_slider_live import EasySliderLive
from caller.tracker import Reading
from rules.easy_slider.solver import solve
from rules.easy_slider.state import EasySliderState

GAME = rules.get("easy-slider")


def reading_of(state: EasySliderState) -> Reading:
    board = tuple(tuple(None if v is None else v.code for v in row) for row in state.board.rows)
    return Reading(board, tuple(p.code for p in state.pawns), tuple(c.code for c in state.coins))


def with_board(reading: Reading, changes: dict) -> Reading:
    rows = [list(r) for r in reading.board]
    for (r, c), v in changes.items():
        rows[r][c] = v
    return Reading(tuple(tuple(r) for r in rows), reading.pawns, reading.coins)


def types(events):
    return [e.type for e in events]


def started_with_swap():
    """A Caller that accepted seed 5's deal, that deal, and the deal with its first two tiles swapped."""
    live = LiveCaller(EasySliderLive())
    base = reading_of(GAME.setup(seed=5))
    live.on_position(0.0, base)
    return live, base, with_board(base, {(0, 0): base.board[0][1], (0, 1): base.board[0][0]})


def test_start_then_single_and_multiple_slides():
    state = GAME.setup(seed=3)
    live = LiveCaller(EasySliderLive())
    ev = live.on_position(1.0, reading_of(state))
    assert types(ev) == ["board", "go"]
    assert ev[0].to_json()["board"] == GAME.to_json(state)["board"]
    moves = GAME.legal_moves(state)
    one = GAME.apply(state, moves[0])
    ev = live.on_position(2.0, reading_of(one))
    assert types(ev) == ["move"]
    assert ev[0].to_json() == {"t": 2.0, "type": "move", **moves[0].to_json(), "say": None}
    # three slides between two still frames: explained in order
    s = one
    played = []
    for _ in range(3):
        m = [m for m in GAME.legal_moves(s) if not played or m.src != played[-1].dst][0]
        played.append(m)
        s = GAME.apply(s, m)
    ev = live.on_position(3.0, reading_of(s))
    assert types(ev) == ["move", "move", "move"]
    assert [e.data["to"] for e in ev] == [list(m.dst) for m in played]
    assert live.slides == 4


def test_swap_is_confirmed_once_then_announced_once_then_restored():
    live, base, swapped = started_with_swap()
    assert live.on_position(1.0, swapped) == []  # suspected: re-read first
    assert live.needs_confirmation
    ev = live.on_position(1.4, swapped)
    assert types(ev) == ["illegal"]
    assert ev[0].data["cells"] == [[0, 0], [0, 1]]
    assert ev[0].warning and "changed places" in ev[0].data["reason"]
    assert ev[0].say.startswith("Illegal move.")
    assert live.on_position(2.0, swapped) == []  # not repeated while nothing changed
    ev = live.on_position(3.0, base)
    assert types(ev) == ["restored"]
    assert not live.blocked


def test_flicker_suspect_is_dropped_when_the_reread_differs():
    state = GAME.setup(seed=5)
    live = LiveCaller(EasySliderLive())
    live.on_position(0.0, reading_of(state))
    base = reading_of(state)
    misread = with_board(base, {(2, 2): base.board[1][1], (1, 1): base.board[2][2]})
    assert live.on_position(1.0, misread) == []
    assert live.on_position(1.3, base) == []  # the re-read shows the real board: nothing said
    assert not live.blocked


def test_lifted_tile_then_accept():
    state = GAME.setup(seed=8)
    live = LiveCaller(EasySliderLive())
    live.on_position(0.0, reading_of(state))
    base = reading_of(state)
    lifted = with_board(base, {(1, 2): None})
    live.on_position(1.0, lifted)
    ev = live.on_position(1.5, lifted)
    assert types(ev) == ["illegal"] and ev[0].data["cells"] == [[1, 2]]
    assert "lifted" in ev[0].data["reason"]
    assert live.accept(2.0) == []  # a board with two holes cannot be accepted
    swapped = with_board(base, {(0, 0): base.board[4][0], (4, 0): base.board[0][0]})
    live.on_position(3.0, swapped)
    assert types(live.on_position(3.5, swapped)) == ["illegal"]
    ev = live.accept(4.0)
    assert types(ev) == ["accepted"]
    assert live.current.board[(0, 0)].code == base.board[4][0]


def test_done_once_with_elapsed_time_and_fumble():
    state = GAME.setup(seed=11)
    path = solve(state)
    near = state
    for m in path[:-1]:
        near = GAME.apply(near, m)
    live = LiveCaller(EasySliderLive())
    assert types(live.on_position(10.0, reading_of(near))) == ["board", "go"]
    fumble = live.call_done(12.0)
    assert types(fumble) == ["fumble"] and fumble[0].data["correct"] is False
    assert fumble[0].data["cells"]
    final = GAME.apply(near, path[-1])
    ev = live.on_position(41.7, reading_of(final))
    assert types(ev) == ["move", "done"]
    assert ev[1].to_json() == {"t": 41.7, "type": "done", "correct": True, "elapsed": 31.7, "slides": 1,
                               "say": "Done! Correct, in 32 seconds."}
    assert live.call_done(42.0) == []
    assert live.on_position(43.0, reading_of(final)) == []


def test_setup_check_names_cells_until_the_table_matches():
    setup = GAME.setup(seed=2)
    live = LiveCaller(EasySliderLive(), setup=setup)
    good = reading_of(setup)
    bad = with_board(good, {(3, 3): good.board[3][4], (3, 4): good.board[3][3]})
    ev = live.on_position(0.5, bad)
    assert types(ev) == ["setup"] and ev[0].data["cells"] == [[3, 3], [3, 4]]
    assert live.on_position(0.9, bad) == []  # said once
    ev = live.on_position(2.0, good)
    assert types(ev) == ["board", "go"]


def test_playing_on_after_a_warning_is_followed_silently():
    live, base, swapped = started_with_swap()
    live.on_position(1.0, swapped)
    assert types(live.on_position(1.4, swapped)) == ["illegal"]
    # a legal slide on the swapped board: no new warning
    rows = [list(r) for r in swapped.board]
    hole = next((r, c) for r in range(5) for c in range(5) if rows[r][c] is None)
    src = (hole[0] - 1, hole[1])
    rows[hole[0]][hole[1]], rows[src[0]][src[1]] = rows[src[0]][src[1]], None
    played_on = Reading(tuple(tuple(r) for r in rows), base.pawns, base.coins)
    assert live.on_position(2.0, played_on) == []
    assert live.on_position(2.5, played_on) == []
    assert live.blocked
    # a second, different illegal change is warned about (after its re-read)
    again = with_board(played_on, {(2, 0): played_on.board[2][1], (2, 1): played_on.board[2][0]})
    assert live.on_position(3.0, again) == []
    assert types(live.on_position(3.4, again)) == ["illegal"]
    # accepting takes the board as it now is
    assert types(live.accept(4.0)) == ["accepted"]
    assert live.current.board.to_lists(lambda t: t.code) == [list(r) for r in again.board]


class ScriptedMotion:
    """Stands in for ``vision.pushes.MotionTrack``: answers as told and records each question."""

    def __init__(self, answer: bool):
        self.answer = answer
        self.asked = []

    def pushed_together(self, hole, near, far):
        self.asked.append((hole, near, far))
        return self.answer


def pushed_along_bottom_row(base: Reading) -> Reading:
    """Seed 5's deal (hole at row 5, column 5) after the tiles in columns 3 and 4 moved one right."""
    b = base.board
    return with_board(base, {(4, 4): b[4][3], (4, 3): b[4][2], (4, 2): None})


def test_a_push_of_two_tiles_seen_in_motion_is_announced_at_once_and_once():
    live = LiveCaller(EasySliderLive())
    base = reading_of(GAME.setup(seed=5))
    live.on_position(0.0, base)
    live.motion = ScriptedMotion(True)
    pushed = pushed_along_bottom_row(base)
    # seen happening, on a position read surely: no re-read is waited for (a player who
    # slides on at once would otherwise lose the warning)
    ev = live.on_position(2.0, pushed)
    assert not live.needs_confirmation and not live.suspecting
    assert live.motion.asked == [((4, 4), (4, 3), (4, 2))]
    assert types(ev) == ["illegal"]
    assert ev[0].data == {"reason": "two tiles moved at once", "cells": [[4, 2], [4, 3], [4, 4]]}
    far, near = GAME.setup(seed=5).board[(4, 2)], GAME.setup(seed=5).board[(4, 3)]
    assert ev[0].say == (f"Illegal move. Row 5, column 3: the {far.spoken} pushed the {near.spoken} "
                         "along into the hole; slide one tile at a time.")
    assert live.on_position(2.5, pushed) == []  # read again: not said again
    assert live.motion.asked == [((4, 4), (4, 3), (4, 2))]  # ... nor asked again
    assert live.blocked and live.slides == 0
    ev = live.accept(3.0)  # the player says the new position stands
    assert types(ev) == ["accepted"]
    assert live.current.board[(4, 2)] is None


def test_two_slides_along_a_line_not_seen_pushed_are_two_moves():
    live = LiveCaller(EasySliderLive())
    base = reading_of(GAME.setup(seed=5))
    live.on_position(0.0, base)
    live.motion = ScriptedMotion(False)
    ev = live.on_position(2.0, pushed_along_bottom_row(base))
    assert [(e.type, e.data["from"], e.data["to"]) for e in ev] == [("move", [4, 3], [4, 4]), ("move", [4, 2], [4, 3])]
    assert live.motion.asked == [((4, 4), (4, 3), (4, 2))]


def test_each_pair_of_slides_in_line_is_questioned_with_the_hole_it_had():
    live = LiveCaller(EasySliderLive())
    base = reading_of(GAME.setup(seed=5))
    live.on_position(0.0, base)
    live.motion = ScriptedMotion(True)
    b = base.board
    # around a corner: (4,3) into the hole, then (3,3) into (4,3): not one line, never a push
    corner = with_board(base, {(4, 4): b[4][3], (4, 3): b[3][3], (3, 3): None})
    ev = live.on_position(2.0, corner)
    assert types(ev) == ["move", "move"] and live.motion.asked == []
    # three slides along row 4, (3,2), (3,1), (3,0) each into the hole: two pairs in line
    b = corner.board
    three = with_board(corner, {(3, 3): b[3][2], (3, 2): b[3][1], (3, 1): b[3][0], (3, 0): None})
    live.motion = ScriptedMotion(False)
    ev = live.on_position(4.0, three)
    assert [(e.data["from"], e.data["to"]) for e in ev] == [([3, 2], [3, 3]), ([3, 1], [3, 2]), ([3, 0], [3, 1])]
    assert live.motion.asked == [((3, 3), (3, 2), (3, 1)), ((3, 2), (3, 1), (3, 0))]


def test_what_is_said_comes_from_the_rules_verdict_and_the_event_keeps_its_words():
    live, base, swapped = started_with_swap()
    live.on_position(1.0, swapped)
    ev = live.on_position(1.4, swapped)
    a, b = (GAME.setup(seed=5).board[c] for c in ((0, 0), (0, 1)))
    assert ev[0].data == {"reason": f"{a.spoken} and {b.spoken} changed places: tiles must slide into the hole, "
                                    "not swap", "cells": [[0, 0], [0, 1]]}
    assert ev[0].say == (f"Illegal move. Row 1, column 1 and row 1, column 2: the {a.spoken} and the {b.spoken} "
                         "changed places.")
    # a tile read twice during play: the rules' MalformedPosition carries the verdict
    twice = with_board(base, {(4, 4): base.board[0][0]})
    live.on_position(2.0, twice)
    ev = live.on_position(2.4, twice)
    assert ev[0].data == {"reason": f"the table: tile {a.code} is on the board twice, at [0, 0] and [4, 4]",
                          "cells": []}
    assert ev[0].say == f"Illegal move. The {a.spoken} is on the board twice: row 1, column 1 and row 5, column 5."


def test_a_start_with_two_holes_is_said_from_the_rules_verdict():
    live = LiveCaller(EasySliderLive())
    base = reading_of(GAME.setup(seed=5))
    lifted = with_board(base, {(2, 2): None})
    assert live.on_position(0.0, lifted) == []
    ev = live.on_position(0.4, lifted)
    assert ev[0].data["reason"] == "the board has 2 holes ([2, 2], [4, 4]): expected exactly one"
    assert ev[0].say == ("This is not a proper start position. There are two holes on the board: "
                         "row 3, column 3 and row 5, column 5. Please check the board.")
