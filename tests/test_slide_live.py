"""The live Caller calling Slide at one player's grid: ``LiveCaller`` with ``SlideLive``, driven by
exact reader observations (``CardsObservation``), and end to end on the bundled recording."""

import json

import numpy as np
import pytest

from caller.cli import main
from caller.live import LiveCaller
from caller.referees.slide_live import SlideLive
from vision.observation import CardsObservation

CORNERS = ((100.0, 50.0), (500.0, 50.0), (520.0, 440.0), (80.0, 440.0))
D = "down"

START = ((D, D, D, D), (D, D, D, D), (D, D, D, D), (D, D, D, D))


def observe(grid, uncertain=(), turned=False, looks=None) -> CardsObservation:
    """What the reader reports of ``grid`` (rows of a number, "down" or None); ``turned``: the
    reader chose the other half turn (the grid and its corners turned half round); ``looks``
    the slots' looks (``vision.cards.slot_looks``), in the player's frame."""
    rows = tuple(tuple(r) for r in grid)
    corners = CORNERS
    if turned:
        rows = tuple(tuple(reversed(r)) for r in reversed(rows))
        uncertain = tuple((3 - r, 3 - c) for r, c in uncertain)
        corners = CORNERS[2:] + CORNERS[:2]
        looks = None if looks is None else looks[::-1, ::-1, ::-1, ::-1]
    conf = tuple(tuple(0.3 if (r, c) in uncertain else 1.0 for c in range(4)) for r in range(4))
    return CardsObservation(grid=rows, slot_confidence=conf, uncertain=tuple(uncertain), board_corners=corners,
                            looks=looks)


def put(grid, **cells):
    """``grid`` with cells set: ``put(g, c0_1=None)`` sets row 0, column 1."""
    rows = [list(r) for r in grid]
    for key, v in cells.items():
        r, c = int(key[1]), int(key[3])
        rows[r][c] = v
    return tuple(map(tuple, rows))


def play(live, grid, t, **kw):
    return live.on_position(t, live.referee.reading(observe(grid, **kw)))


def confirmed(live, grid, t, **kw):
    """An illegal-looking grid: suspected on the first accepted read, said on the second."""
    assert play(live, grid, t, **kw) == [] and live.suspecting
    return play(live, grid, t + 0.5, **kw)


def said(events):
    return [(e.type, e.say) for e in events]


def test_the_start_a_reveal_and_a_push_are_followed_with_their_events():
    live = LiveCaller(SlideLive())
    ev = play(live, START, 0.0)
    assert [e.to_json() for e in ev] == [
        {"t": 0.0, "type": "grid", "grid": [[D] * 4] * 4, "say": None},
        {"t": 0.0, "type": "turn", "face_down": 16, "hole": None,
         "say": "I see your grid: 16 cards face down. Turn one face-down card face up into the middle."}]
    hole = put(START, c1_2=None)
    assert [e.to_json() for e in play(live, hole, 3.0)] == [{"t": 3.0, "type": "reveal", "cell": [1, 2], "say": None}]
    pushed = put(START, c1_0=7, c1_1=D, c1_2=D)  # the 7 in from the left of row 2, two backs moved right
    assert [e.to_json() for e in play(live, pushed, 8.0)] == [
        {"t": 8.0, "type": "push", "card": 7, "line": "row", "index": 1, "from_side": "left",
         "say": "The 7, in from the left of row 2."}]
    from_below = put(pushed, c0_3=None)
    play(live, from_below, 12.0)
    ev = play(live, put(pushed, c0_3=D, c1_3=D, c2_3=D, c3_3=4), 15.0)  # the 4 in from the bottom of column 4
    assert [(e.type, e.data) for e in ev] == [
        ("push", {"card": 4, "line": "column", "index": 3, "from_side": "bottom"})]


@pytest.mark.parametrize("change, reason, say", [
    (dict(c0_1=None, c2_2=None), "the second grid has 2 holes (row 1, column 2; row 3, column 3); a Slide grid has "
     "at most one", "Illegal: two cards are out of your grid, at row 1, column 2 and row 3, column 3. Turn only one "
     "card face up each round: put the other back face down."),
    (dict(c0_1=8), "a card was put straight into the hole at row 1, column 2; it must be pushed in from the edge of "
     "its row or column", "Illegal: a card was put straight into the hole at row 1, column 2. Take it out again and "
     "push it in from the edge of the row or column."),
    (dict(c0_1=5, c1_2=None), "the hole moved from row 1, column 2 to row 2, column 3: cards may not slide inside "
     "the grid; a card from the middle must be pushed in from the edge", "Illegal: a card was slid inside the grid "
     "into the hole at row 1, column 2. Put it back, and push a card from the middle in from the edge."),
])
def test_each_illegal_change_is_said_once_with_what_to_do_and_the_put_back_thanked(change, reason, say):
    live = LiveCaller(SlideLive())
    grid = put(START, c1_2=5, c2_0=3)
    play(live, grid, 0.0)
    hole = put(grid, c0_1=None)
    assert [e.type for e in play(live, hole, 2.0)] == ["reveal"]
    wrong = put(hole, **change)
    ev = confirmed(live, wrong, 5.0)
    assert [(e.type, e.data["reason"], e.say) for e in ev] == [("illegal", reason, say)]
    assert play(live, wrong, 6.0) == []  # said once
    assert said(play(live, hole, 8.0)) == [("restored", "Thank you.")]


def test_a_read_turned_half_round_by_the_reader_is_turned_back_into_the_start_s_frame():
    live = LiveCaller(SlideLive())
    play(live, START, 0.0)
    hole = put(START, c0_0=None)  # the reader, seeing no numeral, may take either side as row 0
    assert [(e.type, e.data) for e in play(live, hole, 2.0, turned=True)] == [("reveal", {"cell": [0, 0]})]
    ev = play(live, put(START, c0_3=9), 4.0, turned=True)  # the 9 in from the right of row 1
    assert [(e.type, e.data) for e in ev] == [("push", {"card": 9, "line": "row", "index": 0, "from_side": "right"})]


def test_a_reveal_and_the_next_push_between_two_still_reads_are_both_taken():
    live = LiveCaller(SlideLive())
    grid = ((1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 1, 2), (D, 4, 5, D))
    play(live, grid, 0.0)
    ev = play(live, ((1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 1, 2), (4, 5, D, 6)), 9.0)  # row 4: the first back
    assert [(e.type, e.data) for e in ev] == [  # turned, then the 6 in from the right
        ("reveal", {"cell": [3, 0]}), ("push", {"card": 6, "line": "row", "index": 3, "from_side": "right"})]


def test_a_face_up_card_read_as_another_number_where_it_lies_is_the_reader_s_slip_not_an_illegal_move():
    live = LiveCaller(SlideLive())
    grid = put(START, c1_1=7, c2_2=3)
    play(live, grid, 0.0)
    assert play(live, put(grid, c1_1=1), 2.0) == [] and not live.suspecting  # the 7 read as a 1: no event
    assert live.current == live.referee.parse(live.referee.reading(observe(put(grid, c1_1=1))))
    assert [e.type for e in play(live, put(grid, c1_1=7, c0_0=None), 4.0)] == ["reveal"]  # put right, with a reveal
    # two cards changing where they lie is no slip: a swap
    assert play(live, put(grid, c1_1=3, c2_2=7, c0_0=None), 6.0) == [] and live.suspecting


GRID = put(START, c0_0=2, c2_0=5)


def _revealed_row_2():
    """A Caller that has seen ``GRID`` and then the card at row 2, column 1 revealed: (its
    referee, the Caller, a loop for ``settle``, the grid with that hole)."""
    ref = SlideLive()
    live = LiveCaller(ref)
    play(live, GRID, 0.0)
    hole = put(GRID, c2_1=None)
    play(live, hole, 1.0)
    return ref, live, _Loop(live), hole


def test_a_doubtful_slot_is_deduced_from_the_one_step_that_fits_and_a_doubtful_back_waits():
    # a push whose card moved along is under glare: the one push of the card read at the edge that fits
    ref, live, loop, hole = _revealed_row_2()
    grid = GRID
    pushed = put(hole, c2_0=8, c2_1=5)
    reading, held = ref.settle(2.0, observe(pushed, uncertain=[(2, 1)]), loop)
    assert reading.board == pushed and not reading.uncertain and held is None
    # a reveal read sure beside a doubtful back: that back may be a second hole, so nothing is taken
    revealed = put(grid, c3_3=None)
    reading, _ = ref.settle(3.0, observe(revealed, uncertain=[(1, 1)]), loop)
    assert reading.uncertain == frozenset({(1, 1)})
    # ... until the reads have shown that reveal, the back's best guess included, for a steady while
    live = LiveCaller(ref := SlideLive())
    play(live, grid, 0.0)
    loop = _Loop(live)
    held = [ref.settle(3.0 + 0.25 * k, observe(revealed, uncertain=[(1, 1)]), loop) for k in range(3)]
    assert [h[1] for h in held] == [None, None, (3.0, 3)]
    assert held[2][0].board == revealed and not held[2][0].uncertain


def test_a_push_is_not_deduced_from_the_number_guessed_on_a_doubtful_card_at_the_edge():
    ref, live, loop, hole = _revealed_row_2()
    # the card pushed in at the row's edge is read, unsure, as a 9: that number is a guess,
    # so no push is deduced from it (the read stays doubtful, never a position)...
    guessed = put(hole, c2_0=9, c2_1=5)
    reading, held = ref.settle(2.0, observe(guessed, uncertain=[(2, 0)]), loop)
    assert reading.board == guessed and reading.uncertain == frozenset({(2, 0)}) and held is None
    # ...and the sure read a moment later is the push of the 2 it was
    pushed = put(hole, c2_0=2, c2_1=5)
    reading, held = ref.settle(2.4, observe(pushed), loop)
    assert reading.board == pushed and not reading.uncertain
    assert [(e.type, e.data) for e in live.on_position(2.4, reading)] == [
        ("push", {"card": 2, "line": "row", "index": 2, "from_side": "left"})]


def test_a_back_read_unsure_as_a_hole_is_taken_as_read_once_it_has_held_two_seconds():
    """A second card turned while one hole is open, its gap over a patterned cloth read unsure
    (half a hand, half the table): filled in as the back it was, the illegal reveal would pass
    unsaid; read as it is for two seconds (``GAP_DOUBT_S``), it is said."""
    ref = SlideLive()
    live = LiveCaller(ref)
    hole = put(START, c0_3=None)
    play(live, hole, 0.0)
    loop = _Loop(live)
    second = put(hole, c2_1=None)
    got = [ref.settle(1.0 + 0.25 * k, observe(second, uncertain=[(2, 1)]), loop) for k in range(9)]
    assert [held for _, held in got] == [None] * 8 + [(1.0, 9)] and got[0][0].uncertain == frozenset({(2, 1)})
    assert got[-1][0].board == second and not got[-1][0].uncertain
    assert live.on_position(3.0, got[-1][0]) == [] and live.suspecting
    ev = live.on_position(3.5, got[-1][0])
    assert [(e.type, e.data["reason"]) for e in ev] == [
        ("illegal", "the second grid has 2 holes (row 1, column 4; row 3, column 2); a Slide grid has at most one")]


def _looks(**cells):
    """Slot looks (4 x 4 x 11 x 8 x 3 Lab): every slot a back's (L 30, a 0, b -20, its top
    left cell a little lighter, so that a look turned half round is another look), and the
    slots named (``c2_1=(dL, da, db)``) shifted by that much."""
    looks = np.zeros((4, 4, 11, 8, 3), np.float32)
    looks[...] = (30.0, 0.0, -20.0)
    looks[:, :, :3, :3, 0] += 10.0
    for key, shift in cells.items():
        looks[int(key[1]), int(key[3])] += np.array(shift, np.float32)
    return looks


@pytest.mark.parametrize("turned", [False, True])
def test_a_back_read_unsure_as_a_hole_that_still_looks_as_it_did_stays_a_back(turned):
    """Glare over a back that the reader half takes for a gap, for as long as the light stays:
    the slot looks as it did when last read sure as a back (glare a few Lab units), so it is
    that back, read sure, and no second hole is taken however long it lasts."""
    ref = SlideLive()
    live = LiveCaller(ref)
    hole = put(START, c0_3=None)
    play(live, hole, 0.0)
    loop = _Loop(live)
    ref.settle(0.5, observe(hole, looks=_looks(), turned=turned), loop)
    doubted = put(hole, c2_1=None)
    glare = _looks(c2_1=(4.0, 0.0, 2.0))
    got = [ref.settle(1.0 + 0.25 * k, observe(doubted, uncertain=[(2, 1)], looks=glare, turned=turned), loop)
           for k in range(20)]
    assert all(r.board == hole and not r.uncertain and held is None for r, held in got)
    assert all(live.on_position(1.0 + 0.25 * k, r) == [] for k, (r, _) in enumerate(got))
    assert not live.suspecting


def test_a_hole_read_unsure_where_the_table_now_shows_is_still_a_second_reveal_once_it_has_held():
    # the same doubtful gap, but the slot no longer looks like the back read sure there (a
    # card taken away bares the table): read as it is for two seconds, then said
    ref = SlideLive()
    live = LiveCaller(ref)
    hole = put(START, c0_3=None)
    play(live, hole, 0.0)
    loop = _Loop(live)
    ref.settle(0.5, observe(hole, looks=_looks()), loop)
    second = put(hole, c2_1=None)
    table = _looks(c2_1=(30.0, 5.0, 25.0))
    got = [ref.settle(1.0 + 0.25 * k, observe(second, uncertain=[(2, 1)], looks=table), loop) for k in range(9)]
    assert [held for _, held in got] == [None] * 8 + [(1.0, 9)] and got[-1][0].board == second
    assert live.on_position(3.0, got[-1][0]) == [] and live.suspecting
    assert [e.type for e in live.on_position(3.5, got[-1][0])] == ["illegal"]


def test_a_plain_back_read_unsure_as_a_hole_for_a_second_and_a_half_is_no_second_reveal():
    # the classic design's plain blue backs on a cream table: just after the round's reveal, a
    # back beside it read, unsure, as a gap for 1.5 s, then as the back again; the reveal is
    # followed and nothing is said about a second hole
    ref = SlideLive()
    live = LiveCaller(ref)
    play(live, START, 0.0)
    loop = _Loop(live)
    revealed = put(START, c1_3=None)
    doubted = put(revealed, c0_2=None)
    got = [ref.settle(1.0 + 0.25 * k, observe(doubted, uncertain=[(0, 2)]), loop) for k in range(7)]
    assert [held for _, held in got] == [None] * 7 and all(r.uncertain == frozenset({(0, 2)}) for r, _ in got)
    reading, held = ref.settle(2.75, observe(revealed), loop)
    assert reading.board == revealed and held is None
    assert [(e.type, e.data) for e in live.on_position(2.75, reading)] == [("reveal", {"cell": [1, 3]})]


def test_a_back_read_unsure_as_a_number_where_it_lies_is_a_doubt_never_a_card_turned_up():
    """Striped backs seen steeply can read, unsure, as a 5 or a 9 where they lie; no step could
    put a face-up card there, so the read keeps the back (and a steady run of such reads is no
    illegal change); the same number read sure is a change to judge, and so is a doubtful
    number where the hole may have gone (a card slid into it, the new gap under glare)."""
    ref = SlideLive()
    live = LiveCaller(ref)
    play(live, START, 0.0)
    loop = _Loop(live)
    five = put(START, c1_3=5)
    got = [ref.settle(1.0 + 0.25 * k, observe(five, uncertain=[(1, 3), (2, 2)]), loop) for k in range(4)]
    assert all(reading.board == START for reading, _ in got)
    assert got[-1][1] == (1.0, 4) and live.on_position(2.0, got[-1][0]) == []
    # the hole at row 1, column 1 read filled (a card slid in), a doubtful 5 where it may have gone
    play(live, put(START, c0_0=None), 2.5)
    got = [ref.settle(3.0 + 0.25 * k, observe(five, uncertain=[(1, 3)]), loop) for k in range(3)]
    assert got[-1][0].board == five and got[-1][1] == (3.0, 3)
    # ... but filled by a push that the slots read sure show, the doubtful 5 is a back again
    pushed = put(START, c0_3=8)  # the 8 in from the right of row 1
    got = [ref.settle(4.0 + 0.25 * k, observe(put(pushed, c1_3=5), uncertain=[(1, 3)]), loop) for k in range(3)]
    assert [held for _, held in got] == [None, None, (4.0, 3)] and got[-1][0].board == pushed
    # a push whose back, moved into the old hole, is read as a doubtful 5 there: the push once steady
    play(live, pushed, 5.0)
    play(live, put(pushed, c3_3=None), 6.0)  # the next round's reveal
    after = put(pushed, c3_3=D, c3_0=9, c3_1=D)  # the 9 in from the left of row 4
    seen = put(after, c3_3=5)
    got = [ref.settle(7.0 + 0.25 * k, observe(seen, uncertain=[(3, 3)]), loop) for k in range(3)]
    assert [held for _, held in got] == [None, None, (7.0, 3)] and got[-1][0].board == after
    # in a push the card read unsure at the line's end is the card pushed in: kept as read
    hole = put(START, c1_1=None)
    play(live, hole, 3.0)
    pushed = put(START, c1_0=5)
    reading, held = ref.settle(4.0, observe(pushed, uncertain=[(1, 0)]), loop)
    assert reading.board == pushed and held is None
    # read sure, a card turned up where it lies is judged
    play(live, pushed, 4.0)
    assert confirmed(live, put(pushed, c2_2=7), 6.0)[0].type == "illegal"


def test_the_deal_s_backs_read_unsure_as_numbers_start_as_backs_and_a_number_read_sure_there_puts_it_right():
    """Before the start a doubtful number whose next guess is a back is taken for the back
    (Slide is dealt face down); a camera started in mid-game that took a face-up card so has it
    put right, silently, by the first sure read of it."""
    ref = SlideLive()
    live = LiveCaller(ref)
    loop = _Loop(live)
    fives = put(START, c2_2=5, c3_1=5, c3_3=3)
    got = [ref.settle(0.25 * k, observe(fives, uncertain=[(2, 2), (3, 1), (3, 3)]), loop) for k in range(3)]
    assert got[-1][0].board == START and got[-1][1] == (0.0, 3)
    ev = live.on_position(0.5, got[-1][0])
    assert [(e.type, e.data) for e in ev] == [("grid", {"grid": [[D] * 4] * 4}),
                                              ("turn", {"face_down": 16, "hole": None})]
    # the 5 at row 3, column 3 was a card face up after all: read sure, it is followed silently
    assert play(live, put(START, c2_2=5), 1.0) == [] and not live.suspecting
    assert live.current == live.referee.parse(live.referee.reading(observe(put(START, c2_2=5))))
    # after the first step a number read sure over a back is a change to judge
    play(live, put(START, c2_2=5, c0_0=None), 2.0)
    assert confirmed(live, put(START, c2_2=5, c0_0=None, c1_1=7), 3.0)[0].type == "illegal"


def test_a_card_the_start_took_for_a_back_is_put_right_steps_later_until_a_push_moves_it():
    """A camera started in mid-game took a 3 it doubted for a back. Read sure after the
    round's reveal, it is put right silently: not a push up its column and then a reveal of
    the very card pushed into the hole, which gives the same picture. Once a push has moved
    the cards of its column, a number read sure there is a change to judge."""
    ref = SlideLive()
    live = LiveCaller(ref)
    loop = _Loop(live)
    grid = ((4, 6, 9, 5), (D, 1, 9, 5), (D, 8, 2, 6), (3, D, 8, 7))
    got = [ref.settle(0.25 * k, observe(grid, uncertain=[(3, 0)]), loop) for k in range(3)]
    assert got[-1][0].board == put(grid, c3_0=D)
    assert [e.type for e in live.on_position(0.5, got[-1][0])] == ["grid", "turn"]
    assert [(e.type, e.data) for e in play(live, put(grid, c3_0=D, c1_0=None), 1.0)] == [("reveal", {"cell": [1, 0]})]
    assert play(live, put(grid, c1_0=None), 2.0) == [] and not live.suspecting
    assert live.current == ref.parse(ref.reading(observe(put(grid, c1_0=None))))
    # the same doubt, then a push up column 0 from the bottom: the 3 pushed along is judged
    ref = SlideLive()
    live = LiveCaller(ref)
    loop = _Loop(live)
    got = [ref.settle(0.25 * k, observe(grid, uncertain=[(3, 0)]), loop) for k in range(3)]
    live.on_position(0.5, got[-1][0])
    play(live, put(grid, c3_0=D, c1_0=None), 1.0)
    pushed = ((4, 6, 9, 5), (D, 1, 9, 5), (D, 8, 2, 6), (2, D, 8, 7))
    assert [e.type for e in play(live, pushed, 2.0)] == ["push"]
    assert confirmed(live, put(pushed, c2_0=3), 3.0)[0].type == "illegal"


def test_the_finished_grid_is_counted_with_its_cancelled_cards():
    live = LiveCaller(SlideLive())
    last = ((1, 1, 5, 6), (2, 3, 5, 7), (9, 4, 4, None), (8, 10, 10, 2))
    play(live, last, 0.0)
    ev = play(live, ((1, 1, 5, 6), (2, 3, 5, 7), (3, 9, 4, 4), (8, 10, 10, 2)), 4.0)  # the 3 from the left
    assert [e.type for e in ev] == ["push", "score"]
    assert ev[1].to_json() == {
        "t": 4.0, "type": "score", "points": 6 + 2 + 3 + 7 + 3 + 9 + 8 + 2, "cards": 8,
        "left": [6, 2, 3, 7, 3, 9, 8, 2],
        "cancelled": [[0, 0], [0, 1], [0, 2], [1, 2], [2, 2], [2, 3], [3, 1], [3, 2]],
        "grid": [[1, 1, 5, 6], [2, 3, 5, 7], [3, 9, 4, 4], [8, 10, 10, 2]],
        "say": "Count the scores. All orthogonally adjacent cards with the same number cancel each other out. "
               "Your grid scores 40 points (6 + 2 + 3 + 7 + 3 + 9 + 8 + 2) with 8 cards left."}
    assert play(live, put(last, c0_0=4), 9.0) == []  # nothing is judged after the count


def test_a_first_grid_with_two_holes_is_no_start():
    live = LiveCaller(SlideLive())
    ev = confirmed(live, put(START, c0_0=None, c3_3=None), 0.0)
    assert said(ev) == [("illegal", "Your grid has 2 holes, at row 1, column 1 and row 4, column 4: a grid has at "
                                    "most one.")]


class _Loop:
    """What ``settle`` uses of the frame loop."""

    def __init__(self, caller):
        from caller.tracker import PositionTracker
        from vision.config import VisionConfig

        self.caller = caller
        self.tracker = PositionTracker(VisionConfig().tracker)
        self.pending_events = []


def test_the_demo_recording_is_followed_and_counted_by_the_camera(tmp_path, capsys):
    """The bundled recording (``python -m simulator.samples --slide-game``) through ``caller watch``."""
    events = tmp_path / "events.jsonl"
    assert main(["watch", "sample_images/slide_game.mp4", "--game", "slide", "--events", str(events),
                 "--no-voice"]) == 0
    got = [json.loads(line) for line in events.read_text().splitlines()]
    steps = [(e["type"], e.get("cell") or (e["card"], e["line"], e["index"], e["from_side"]))
             for e in got if e["type"] in ("reveal", "push")]
    assert steps == [("reveal", [0, 1]), ("push", (4, "row", 0, "left")), ("reveal", [1, 1]),
                     ("push", (8, "column", 1, "top"))]
    assert [e["reason"] for e in got if e["type"] == "illegal"] == [
        "a card was put straight into the hole at row 2, column 2; it must be pushed in from the edge of its row or "
        "column"]
    assert [(e["points"], e["cards"]) for e in got if e["type"] == "score"] == [(75, 11)]
    assert "4 reveals and pushes, 1 illegal, the grid scored 75" in capsys.readouterr().err


def test_the_preview_draws_the_grid_its_labels_and_the_last_push():
    import numpy as np

    from caller.events import Event
    from caller.preview import draw_overlay

    obs = observe(put(START, c0_0=7, c1_1=None))
    assert obs.cell_labels()[0] == ("7", "down", "down", "down") and obs.cell_labels()[1][1] == ""
    blank = np.zeros((480, 640, 3), np.uint8)
    out = draw_overlay(blank, obs, Event(3.0, "push", {"card": 7, "line": "row", "index": 0, "from_side": "left"}))
    assert tuple(out[50, 300]) == (0, 220, 255)  # the grid's top edge, from (100, 50) to (500, 50)
    assert (out[10:60, :300] == 255).any()  # the status line in white: "last push: card 7 ..."


def test_a_back_the_reader_kept_doubting_is_taken_for_the_unseen_hole_of_the_next_change():
    """A hole the reader could not tell from a back (read doubtful three times): a card later
    read there was put straight into it (illegal); a push along its column took it (legal)."""
    ref = SlideLive()
    live = LiveCaller(ref)
    grid = put(START, c3_3=1)
    play(live, grid, 0.0)
    loop = _Loop(live)
    for k in range(3):
        ref.settle(1.0 + 0.3 * k, observe(grid, uncertain=[(3, 2)]), loop)
    assert ref.unseen_hole(live.current) == [(3, 2)]
    ev = confirmed(live, put(grid, c3_2=8), 5.0)
    assert [(e.type, e.data["reason"]) for e in ev] == [
        ("illegal", "a card was put straight into the hole at row 4, column 3; it must be pushed in from the edge "
                    "of its row or column")]
    live = LiveCaller(SlideLive())
    ref = live.referee
    play(live, grid, 0.0)
    loop = _Loop(live)
    for k in range(3):
        ref.settle(1.0 + 0.3 * k, observe(grid, uncertain=[(3, 2)]), loop)
    ev = play(live, put(grid, c0_2=8), 5.0)  # the 8 in from the top of column 3: the backs moved down
    assert [(e.type, e.data) for e in ev] == [
        ("reveal", {"cell": [3, 2]}), ("push", {"card": 8, "line": "column", "index": 2, "from_side": "top"})]


def test_a_step_put_back_exactly_is_followed_as_taken_back():
    """A card put straight into the hole with the same number at the line's end looks like a
    legal push; taking it out again is a take-back, not a face-up card taken from the grid."""
    live = LiveCaller(SlideLive())
    grid = put(START, c0_2=8, c2_2=None, c3_2=8)
    play(live, grid, 0.0)
    placed = put(grid, c2_2=8)  # the 8 pushed in from the bottom of column 3, or put straight in
    assert [(e.type, e.data["from_side"]) for e in play(live, placed, 3.0)] == [("push", "bottom")]
    ev = play(live, grid, 6.0)
    assert [(e.type, e.data) for e in ev] == [("undone", {"grid": [list(r) for r in grid]})] and not live.suspecting
    ev = play(live, put(grid, c0_2=3, c1_2=8, c2_2=D), 9.0)  # then the 3 from the top
    assert [(e.type, e.data["card"], e.data["from_side"]) for e in ev] == [("push", 3, "top")]


@pytest.mark.parametrize("argv, message", [
    (["--players", "S,M"], "--players: the live Caller of Slide takes no players"),
    (["--n", "6"], "--n: the live Caller of Slide takes no such option"),
])
def test_options_slide_s_live_caller_does_not_take_are_refused_in_one_line(argv, message, capsys, tmp_path):
    events = tmp_path / "events.jsonl"
    assert main(["watch", "sample_images/slide_game.mp4", "--game", "slide", "--no-voice", "--events", str(events),
                 *argv]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("caller: error: " + message) and not events.exists()
