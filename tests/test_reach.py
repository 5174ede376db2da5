"""A hand reaching in over a kept board (``vision.reach`` through ``SquaresReader(track=True)``):
three frames of a recorded Slider game (``simulator.slider_video``, game 115 of the live
benchmark, cropped): the board before a move, a hand holding the lifted coin over the board
with its fingers (the tiles' crosses still show: their grid alone does not tell the hand),
and the board after the coin was set down one square on."""

from pathlib import Path

import cv2
import pytest

from caller import games
from caller.commands.watch import watched_table
from vision.table_reader import table_reader

DATA = Path(__file__).parent / "data" / "reach"
UNDER_HAND = ((2, 0), (2, 1), (3, 0), (3, 1))
BEFORE = (("S", None, None, None), ("S", None, "die", None), ("S", None, None, "A"), (None, "A", "A", None))
AFTER = (("S", None, None, None), ("S", None, "die", None), (None, "S", None, "A"), (None, "A", "A", None))


@pytest.fixture()
def reader():
    table, sizes = watched_table(games.entry("slider"), {"n": 4})
    return table_reader(table, track=True, sizes=sizes)


def frame(name: str):
    return cv2.imread(str(DATA / f"{name}.jpg"))


def test_the_squares_under_a_hand_reaching_in_are_covered_and_the_board_is_kept(reader):
    for _ in range(2):  # the picture of the board is taken once it has held for a read
        obs = reader.read(frame("before"))
        assert obs.coins == BEFORE and obs.covered == () and obs.uncertain == ()
    corners = obs.board_corners
    obs = reader.read(frame("hand"))
    assert obs.covered == UNDER_HAND and obs.uncertain == UNDER_HAND
    assert obs.board_corners == corners  # not a board found anew round the hand
    assert [[v for c, v in enumerate(row) if (r, c) not in UNDER_HAND] for r, row in enumerate(obs.coins)] == \
        [[v for c, v in enumerate(row) if (r, c) not in UNDER_HAND] for r, row in enumerate(BEFORE)]
    # the hand gone: the coin set down one square on is no reach (and the tile, whose two coins
    # have hidden its cross since the board was found, shows too little of it to be judged by it)
    seen = [reader.read(frame("after")) for _ in range(4)]
    assert all(o.coins == AFTER for o in seen)
    assert [o.covered for o in seen] == [(), (), (), ()]


def test_what_stays_still_over_the_board_is_taken_into_its_picture_after_a_while(reader):
    for _ in range(2):
        reader.read(frame("before"))
    settle = reader.reach.config.settle_reads
    covered = [reader.read(frame("hand")).covered for _ in range(settle + 2)]
    assert covered == [UNDER_HAND] * settle + [(), ()]


def _lattice(off: float = 0.0):
    """A 2 x 2 board, 40 px a tile, at (80, 80) to (160, 160) of a 240 x 240 picture (fitted
    ``off`` of a tile to the left and up of it)."""
    import numpy as np

    from vision.locate import Lattice

    H = np.array([[1 / 40, 0, -2 + off], [0, 1 / 40, -2 + off], [0, 0, 1]], float)
    return Lattice(H=H, lam=0.0, centre=(0.0, 0.0), radius=1.0, tiles=frozenset(), face=0.9,
                   quads=np.zeros((0, 4, 2)), candidates=np.zeros((0, 4, 2)), shape=(2, 2))


def test_an_arm_close_to_the_table_s_colour_is_never_taken_into_the_picture():
    """An arm over the strip round the board whose colour differs from the table's by less
    than ``change`` (the fingers over the light tiles by much more) is not counted as reaching
    in, and is not taken into the picture either: once the arm shows clearly, the squares under
    the fingers are covered (taken in, the fingers would have been the board)."""
    import numpy as np

    from vision.reach import Reach

    table = np.full((240, 240, 3), (60, 110, 70), np.uint8)
    table[80:160, 80:160] = (210, 200, 190)  # the board
    arm = table.copy()
    arm[150:, 90:110] = (72, 122, 82)  # across the strip, a little lighter than the table
    arm[100:150, 90:110] = (40, 60, 150)  # the fingers over the board's lower left tile
    clear = arm.copy()
    clear[160:, 90:110] = (40, 60, 150)  # the same arm, now plain to see
    reach, lattice = Reach(), _lattice()

    def covered(image):
        return reach.covered(image, lattice, lambda u, v: (u, v), 2, 2, True)

    assert [covered(table) for _ in range(2)] == [[], []]
    assert [covered(arm) for _ in range(3)] == [[], [], []]  # nothing comes in from the edge ...
    assert covered(clear) == [(1, 0), (1, 1), (2, 0), (2, 1), (3, 0), (3, 1)]  # ... until it does


def test_what_lies_still_in_the_strip_is_taken_in_while_a_hand_moves_elsewhere():
    """Something larger than a tile set down against the board's right edge (a light patch
    from the strip's outer edge onto the board's right tiles: a box, a cup) lies still, while a
    hand goes on moving over the left of the board: after ``settle_reads`` reads it is the
    picture's, and only the hand's squares are covered. (Taken in only once the whole picture
    held still, it kept the squares beside it covered for as long as the hand moved.)"""
    import numpy as np

    from vision.reach import Reach

    table = np.full((240, 240, 3), (60, 110, 70), np.uint8)
    table[80:160, 80:160] = (210, 200, 190)  # the board
    box = table.copy()
    box[85:120, 150:240] = (235, 235, 240)  # from the edge onto the board, a tile and more
    reach, lattice = Reach(), _lattice()
    settle = reach.config.settle_reads

    def covered(image):
        return reach.covered(image, lattice, lambda u, v: (u, v), 2, 2, True)

    def hand(k: int):
        image = box.copy()
        image[95 + 20 * (k % 2):, 90:110] = (40, 60, 150)  # an arm from below, its fingers over the left tiles
        return image

    assert [covered(table) for _ in range(2)] == [[], []]
    assert covered(box) == [(0, 3), (1, 3)]
    seen = [covered(hand(k)) for k in range(settle + 2)]
    assert [(0, 3) in squares and (1, 3) in squares for squares in seen] == [True] * (settle - 1) + [False] * 3
    assert seen[-2:] == [[(1, 0), (1, 1), (2, 0), (2, 1), (3, 0), (3, 1)],
                         [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1), (3, 0), (3, 1)]]


def test_dice_rolled_against_the_board_s_edge_are_no_hand():
    """Two frames of a recorded Steppin' Stones game (the live benchmark's game 412,
    paper-print on wood): the board before a roll, and the four dice just rolled beside its far
    right edge, the Moons die against the square (3, 7). A change smaller than a tile lying
    mostly in the strip round the board is a die, not a hand with its arm behind it: the square
    by the die is never covered. (Taken for a hand until the picture had held still for 25
    reads, the die kept that square covered while the player's hand, back within seconds,
    moved a piece: no read was sure, and the roll was never taken.)"""
    import cv2

    from rules.steppin_stones.table import TABLE
    from vision.table_reader import SquaresReader

    data = Path(__file__).parent / "data" / "rolled_by_edge"
    before, rolled = (cv2.imread(str(data / f"{name}.jpg")) for name in ("before", "rolled"))
    reader = SquaresReader(TABLE, track=True)
    assert reader.reach.config.small_share == 1.0
    assert [reader.read(before).covered for _ in range(4)] == [()] * 4
    seen = [reader.read(rolled) for _ in range(3)]
    assert [o.covered for o in seen] == [()] * 3
    assert seen[-1].uncertain == ()
    assert seen[-1].dice == (("S", "3"), ("M", "3"), ("C", "2"), ("A", "3"))
    assert reader.searches == 1


def test_a_coin_set_on_a_tile_s_cross_is_no_hand_while_no_arm_crosses_the_strip():
    """Live Steppin' Stones game 447: the Red 4 set down on the upper right square of the
    Red pawn's tile, over its cross, hides most of the tile's grid, which shows less than half
    as clearly as it did: a kept board's test for a hand held still over it. Nothing crosses
    the strip round the board (a hand comes with its arm), so the tile is read, not covered.
    (Covered, it stayed so for two reads more; the player, quick, moved the coin on before
    the board was seen still, and the two moves were called one illegal move.)"""
    import cv2

    from rules.steppin_stones.table import TABLE
    from vision.table_reader import SquaresReader

    data = Path(__file__).parent / "data" / "coin_on_cross"
    before, moved = (cv2.imread(str(data / f"{name}.jpg")) for name in ("before", "moved"))
    reader = SquaresReader(TABLE, track=True)
    assert [reader.read(before).uncertain for _ in range(5)] == [()] * 5
    seen = reader.read(moved)
    assert (seen.covered, seen.uncertain, seen.coins[2][3], seen.coins[1][2]) == ((), (), "4", None)
    assert reader.searches == 1


def test_a_die_that_lay_still_a_moment_is_the_picture_s_when_a_hand_comes_beside_it():
    """A die against the board's right edge (a light patch from the strip onto the edge of the
    upper right square) is rolled while a hand moves over the left of the board; once it has
    lain still for ``settle_small_reads`` reads it is taken into the picture, so the arm that
    then comes in from the right, just below it, covers its own squares and not the die's.
    (Left out of the picture, the die joined the arm's change and the square beside it was
    covered as long as the arm stayed.)"""
    import numpy as np

    from vision.reach import Reach

    table = np.full((240, 240, 3), (60, 110, 70), np.uint8)
    table[80:160, 80:160] = (210, 200, 190)  # the board
    dice = table.copy()
    dice[84:104, 150:200] = (235, 235, 240)  # a die and its shadow against the upper right square
    reach, lattice = Reach(), _lattice()
    assert reach.config.settle_small_reads == 4

    def covered(image):
        return reach.covered(image, lattice, lambda u, v: (u, v), 2, 2, True)

    def left(k: int):
        image = dice.copy()
        image[95 + 20 * (k % 2):, 90:110] = (40, 60, 150)  # an arm from below over the left tiles
        return image

    def right(k: int):
        image = dice.copy()
        image[104 + 8 * (k % 2):150, 135:240] = (40, 60, 150)  # an arm from the right, below the die
        return image

    assert [covered(table) for _ in range(2)] == [[], []]
    assert covered(dice) == []  # a die is no hand
    assert [len(covered(left(k))) for k in range(5)] == [8, 6, 8, 6, 8]
    assert [covered(right(k)) for k in range(2)] == [[(1, 2), (1, 3), (2, 2), (2, 3), (3, 2), (3, 3)]] * 2


def test_a_board_fitted_anew_a_third_of_a_pitch_off_under_a_hand_keeps_its_picture():
    """A small board's grid, searched for again while a hand hides part of it, is fitted a
    third of a pitch from where it was: the picture of the board taken before the hand is kept,
    so that the hand is told as reaching in, and once it has gone nothing is covered (a new
    picture started under the hand would take it in, and cover its squares after it left)."""
    import numpy as np

    from vision.reach import Reach

    table = np.full((240, 240, 3), (60, 110, 70), np.uint8)
    table[80:160, 80:160] = (210, 200, 190)  # the board
    hand = table.copy()
    hand[100:, 90:110] = (40, 60, 150)  # an arm across the strip, its fingers over a tile
    reach, kept, found = Reach(), _lattice(), _lattice(0.3)

    def covered(image, lattice):
        return reach.covered(image, lattice, lambda u, v: (u, v), 2, 2, True)

    assert [covered(table, kept) for _ in range(2)] == [[], []]
    # (the squares in the board as now fitted: the fingers lie over its second column)
    assert [covered(hand, found) for _ in range(4)] == [[(1, 1), (1, 2), (2, 1), (2, 2), (3, 1), (3, 2)]] * 4
    assert [covered(table, found) for _ in range(2)] == [[], []]


@pytest.mark.parametrize("off, dropped, fits, kept",
                         [(0.35, 0, True, True), (0.6, 0, True, False), (0.6, 1, True, True), (0.6, 0, False, True)])
def test_a_board_found_round_a_hand_near_it_on_fewer_tiles_or_in_doubt_is_the_kept_board(reader, monkeypatch, off,
                                                                                         dropped, fits, kept):
    """When the kept board is searched for again while a hand reaches in over it (its grid
    shows too little to be kept unsearched: here made so by ``KEEP_SHARE`` and
    ``KEEP_REACHED``), a board found within half a pitch of it is the kept board, not a new
    one fitted round the hand (a 2 x 2 board's was found a fourth of a pitch smaller, and its
    coins read as dice on it); so is one found further off on fewer tiles than the kept board
    (a Steppin' Stones board found on ten tiles of sixteen under a hand was bent 45 px off at
    one corner, and its coins read a square off for the rest of the game), and one fitting its
    tiles too loosely to be trusted. One found further off on as many tiles, fitting them, is
    not."""
    import dataclasses

    import numpy as np

    import vision.table_reader as table_reader_module

    for _ in range(2):
        obs = reader.read(frame("before"))
    lattice = reader._kept[0]
    shift = np.array([[1, 0, off], [0, 1, 0], [0, 0, 1]], float)  # ``off`` of a tile along the lattice's x
    moved = dataclasses.replace(lattice, H=shift @ lattice.H)
    quads = moved.to_image(lattice.to_lattice(np.asarray(lattice.quads, float).reshape(-1, 2))).reshape(-1, 4, 2)
    quads = quads if fits else np.asarray(lattice.quads, float)  # its tiles where it puts them, or where they lay
    moved = dataclasses.replace(moved, quads=quads[dropped:], tiles=frozenset(sorted(lattice.tiles)[dropped:]))
    monkeypatch.setattr(table_reader_module, "KEEP_SHARE", 10.0)
    monkeypatch.setattr(table_reader_module, "KEEP_REACHED", 10.0)
    monkeypatch.setattr(table_reader_module, "locate_square_board", lambda *args: moved)
    searches = reader.searches
    seen = reader.read(frame("hand"))
    assert reader.searches == searches + 1
    assert (seen.board_corners == obs.board_corners) is kept


def test_patches_of_an_arm_close_to_the_table_s_colour_are_no_dice():
    """An arm across the strip whose colour differs from the table's by a little less than
    ``change``, with patches of it (a fold, a shadow) a little over it, lying still while its
    fingers move over the board: each patch alone is smaller than a tile and lies in the strip,
    as a die does, but it lies in the larger change of the arm round it, and is not taken into
    the picture. Once the arm has gone the strip is clear at once. (Taken in as dice, the
    patches stayed in the picture, and the strip was read as crossed for ``settle_reads`` reads
    after the arm had gone: live Scavenger Hunt game 148, where those patches, taken in read by
    read, joined into a change larger than a tile that covered the board's corner tile.)"""
    import numpy as np

    from vision.reach import Reach

    table = np.full((240, 240, 3), (60, 110, 70), np.uint8)
    table[80:160, 80:160] = (210, 200, 190)  # the board

    def arm(k: int):
        image = table.copy()
        image[150:, 100:140] = (72, 122, 82)  # the arm, 12 from the table in Lab
        image[162:174, 100:118] = image[186:, 100:118] = (82, 132, 92)  # patches of it 21 from it
        image[150:, 130:140] = (30, 50, 40)  # its shaded side, plain to see
        image[100 + 10 * (k % 2):150, 105:135] = (40, 60, 150)  # the fingers over the lower left tile
        return image

    reach, lattice = Reach(), _lattice()
    assert reach.config.settle_small_reads == 4 and reach.config.loose_share == 2.0

    def covered(image):
        return reach.covered(image, lattice, lambda u, v: (u, v), 2, 2, True)

    assert [covered(table) for _ in range(2)] == [[], []]
    assert [len(covered(arm(k))) for k in range(8)] == [8, 6] * 4
    assert [(covered(table), reach.clear(table, lattice)) for _ in range(2)] == [([], True)] * 2
