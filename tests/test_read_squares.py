"""Reading a board of squares (tiles grid side up, coins and pawns on them): Scavenger Hunt stills.

The reader is driven by the game's table description (``rules.scavenger_hunt.table``); these
tests read the bundled sample photos through ``caller read --game scavenger-hunt --json`` and
check the reading against the render's truth, square by square. The finder of coins on
their squares and the cap on each coin value are checked on drawn windows and cost tables.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from caller.cli import main
from rules.scavenger_hunt.table import TABLE
from rules.table import TableDescription, TileLattice, TileSide
from vision.assign import assign_capped
from vision.errors import BoardNotFound, ProfileError
from vision.squares import find_round
from vision.table_reader import SquaresReader, table_reader, what_it_reads

SAMPLES = Path(__file__).resolve().parents[1] / "sample_images"
DATA = Path(__file__).resolve().parent / "data"


def _read(name: str, capsys) -> dict:
    assert main(["read", str(SAMPLES / name), "--game", "scavenger-hunt", "--json"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    return json.loads(out)


@pytest.mark.parametrize("stem", ["scavenger-hunt_a", "scavenger-hunt_b"])
def test_pawns_coins_and_suits_read_from_a_sample(stem, capsys):
    got = _read(f"{stem}.jpg", capsys)
    truth = json.loads((SAMPLES / f"{stem}.json").read_text())
    assert sorted(got) == ["board_corners", "coins", "collected", "confidence", "game", "image", "pawns",
                           "uncertain", "uncertain_collected"]
    assert got["game"] == "scavenger-hunt"
    # the samples are read in the truth's own frame (their coins upright), every square right:
    # where each pawn stands, each coin's value (value side up) or suit (suit side up)
    assert got["pawns"] == truth["pawns"]
    assert got["coins"] == [[None if code is None else code[-1] for code in row] for row in truth["coins"]]
    # the collected coins, suit side up by their owners' corners (Moons top left, Crowns top
    # right, Arms bottom right, Suns bottom left in the truth's frame), each corner's suits
    assert got["collected"] == [[code[0] for code in truth["collected"][s]] for s in "MCAS"]
    assert got["uncertain_collected"] == []
    corners = np.array(got["board_corners"])
    assert np.abs(np.sort(corners, 0) - np.sort(np.array(truth["board_corners"]), 0)).max() < 25


@pytest.mark.parametrize("name, kind", [("easy-slider", "faces"), ("scavenger-hunt", "squares"),
                                        ("steppin-stones", "squares"), ("slider", "squares"), ("slide", "cards")])
def test_each_game_s_table_is_read_by_the_reader_its_description_calls_for(name, kind):
    # Steppin' Stones: grid-side tiles with its home tiles face up (their faces tell the
    # board's turn) and dice beside the board. Slider: a square board with nothing to tell
    # its turn but the camera, dice on squares and, on odd boards, unused squares. Slide:
    # cards, not read yet.
    import rules

    assert what_it_reads(rules.record(name).table) == kind


def test_the_reader_follows_the_description_not_the_game():
    assert what_it_reads(TABLE) == "squares"
    assert isinstance(table_reader(TABLE), SquaresReader)
    cards = TableDescription(board=TileLattice(4, 4, TileSide.FACE_UP, squares=(2, 2)))
    assert what_it_reads(cards) is None
    with pytest.raises(ProfileError, match="the camera cannot read this table yet"):
        table_reader(cards)


def test_a_photo_without_a_board_is_one_clear_error(capsys):
    image = np.full((480, 640, 3), 90, np.uint8)
    with pytest.raises(BoardNotFound, match=r"^no board in view: found 0 grid-side tiles on a lattice, expected at least 5 of the 24$"):
        SquaresReader(TABLE).read(image)


def test_coins_off_their_squares_middles_are_found_beside_the_grid_s_lines():
    # four coin windows (one pitch wide, 128 px, from renders of the simulator) in which a ring
    # correlated with the edges (the face-up reader's coin finder) lands 10 to 17 px off the
    # coin, on the grid's lines around the square; the truth's coin centres are in the JSON
    strip = cv2.imread(str(DATA / "coin_windows.png"))
    truth = json.loads((DATA / "coin_windows.json").read_text())
    windows = np.stack([strip[:, 128 * i:128 * (i + 1)] for i in range(len(truth))])
    centres, _ = find_round(windows, 0.18)
    assert np.hypot(*(centres - [t["centre"] for t in truth]).T).max() <= 2.5


def test_no_coin_value_is_read_more_often_than_a_piecepack_has_suits():
    # five coins look most like a 2; the one that looks next most like a 3 is read a 3
    cost = np.array([[0.0, 5.0], [0.0, 6.0], [0.0, 0.4], [0.0, 7.0], [0.0, 8.0], [9.0, 0.0]])
    assert assign_capped(cost, 4).tolist() == [0, 0, 1, 0, 0, 1]
    # within the cap every row keeps its own best
    assert assign_capped(cost[:4], 4).tolist() == [0, 0, 0, 0]
    with pytest.raises(ValueError):
        assign_capped(np.zeros((9, 2)), 4)


def test_a_pawn_goes_where_it_fits_not_where_everything_else_fits_worse():
    reader = SquaresReader(TABLE)
    classes = reader.model.classes
    cost = np.full((96, len(classes)), 20.0)
    cost[:, classes.index("")] = 1.0  # empty squares
    # square 5 fits nothing well (a pawn's shadow): the blue pawn fits it loosely, the rest worse
    cost[5] = 80.0
    cost[5, classes.index("pA")] = 21.0
    # the blue pawn stands on square 50; the red pawn fits nowhere: off the board
    cost[50, classes.index("")] = 30.0
    cost[50, classes.index("pA")] = 5.0
    cost[:, classes.index("pS")] = 1.5 * reader.model.outlier + 1.0
    # the black pawn on corner square 0 fits no better than an empty square, but that fits
    # poorly too (more than half the outlier threshold): the pawn is read there, unsure
    cost[0] = 0.6 * reader.model.outlier
    cost[0, [classes.index(p) for p in ("pS", "pC", "pA")]] = 0.6 * reader.model.outlier + 8.0
    cost[0, classes.index("pM")] = 0.6 * reader.model.outlier + 2.0
    coins, pawns, conf = reader._label(cost, 8, 12)
    assert pawns == {"A": (4, 2), "M": (0, 0)}
    assert conf[0, 0] < 0.5 < conf[4, 2]
    # square 5 keeps its best other reading, a tie between all of them: confidence one half
    assert coins[0][5] is None and conf[0, 5] == 0.5


def test_the_grid_side_squares_are_the_ones_not_on_a_face_up_tile():
    from vision.squares import grid_side

    assert grid_side(2, 3, ()) is None
    got = grid_side(2, 3, [(0, 0), (1, 2)]).reshape(4, 6)
    want = np.ones((4, 6), bool)
    want[0:2, 0:2] = False
    want[2:4, 4:6] = False
    assert (got == want).all()


def test_squares_are_measured_against_the_ground_s_level_not_the_batch_s():
    """Forty light windows and twenty-four dark ones: against the batch, the typical window is
    a light one and a dark square reads at 0.4 of it; against the dark ones alone (the ground),
    a dark square reads at 1, and a light one at 2.5 (the first features are the tile
    features; the relative colour of the middle disc follows them)."""
    from vision import features as F
    from vision.squares import half_turned, remeasure

    px = 64
    light = np.full((40, px, px, 3), 200, np.uint8)
    dark = np.full((24, px, px, 3), 80, np.uint8)
    wide = np.concatenate([light, dark])
    coins = np.concatenate([np.full((40, 48, 48, 3), 200, np.uint8), np.full((24, 48, 48, 3), 80, np.uint8)])
    centres = np.full((64, 2), 23.5)
    rims = np.zeros(64)
    ground = np.arange(64) >= 40
    disc = F.tile_features(wide[:1])[0].shape[1]  # the relative colour of the middle disc follows
    plain = remeasure(wide, coins, centres, rims)
    against = remeasure(wide, coins, centres, rims, ground=ground)
    assert np.allclose(plain.features[-1, disc:disc + 3], 0.4)
    assert np.allclose(against.features[-1, disc:disc + 3], 1.0)
    assert np.allclose(against.features[0, disc:disc + 3], 2.5)
    assert (against.ground == ground).all()
    turned = half_turned(against)
    assert (turned.ground == ground[::-1]).all()
    assert np.allclose(turned.features[0, disc:disc + 3], 1.0)


def test_the_other_frame_s_squares_are_this_frame_s_turned_half_round():
    from vision.config import VisionConfig
    from vision.grid_locate import locate_grid
    from vision.squares import frames, half_turned, measure_squares

    image = cv2.imread(str(SAMPLES / "scavenger-hunt_a.jpg"))
    lattice = locate_grid(image, VisionConfig(), (4, 6))
    first, turned = frames(lattice, 4, 6)
    got = half_turned(measure_squares(image, lattice, first, 4, 6))
    want = measure_squares(image, lattice, turned, 4, 6)
    # the same image points, sampled in the other order: equal to a grey level's rounding
    assert np.abs(got.wide_windows.astype(int) - want.wide_windows).max() <= 1
    assert np.abs(got.coin_windows.astype(int) - want.coin_windows).max() <= 1
    truth = json.loads((SAMPLES / "scavenger-hunt_a.json").read_text())
    coins = [r * 12 + c for r, row in enumerate(truth["coins"]) for c, code in enumerate(row) if code]
    # the coins' squares in the turned frame (the truth's frame is the one whose first corner
    # lies on the truth's): on an empty square the coin search finds no coin, and its best
    # place may differ either way round
    corner = lattice.to_lattice(np.array(truth["board_corners"], float)[:1])[0]
    if np.hypot(*(corner - np.array(first(0.0, 0.0)))) < np.hypot(*(corner - np.array(turned(0.0, 0.0)))):
        coins = [8 * 12 - 1 - k for k in coins]
    assert len(coins) == 20
    assert np.abs(got.coin_centres[coins] - want.coin_centres[coins]).max() <= 1
    assert got.features.shape == want.features.shape and got.coin_columns == want.coin_columns


def _tile_cells(lattice, truth: dict) -> set[tuple[int, int]]:
    """The lattice cells (x, y) the centres of a render's 24 tiles fall in."""
    squares = np.array(truth["cells"], float)  # 8 x 12 squares x 4 corners x 2
    tiles = squares.reshape(4, 2, 6, 2, 4, 2).transpose(0, 2, 1, 3, 4, 5).reshape(24, -1, 2).mean(1)
    return {(int(x), int(y)) for x, y in np.floor(lattice.to_lattice(tiles))}


def _render(seed: int):
    from benchmarks.scenes import render_square_scene, square_scene_spec, training_looks

    return render_square_scene(seed, square_scene_spec(seed, training_looks()))


def test_a_lattice_that_took_a_row_of_tiles_too_few_is_refitted_on_the_tiles_that_fit_it_tightly():
    import dataclasses

    from vision.config import VisionConfig
    from vision.grid_locate import locate_grid

    # a board turned 45 degrees: the lattice grown from a seed at one end snaps the far two rows
    # of tiles onto one row of nodes (18 tiles found, the lens fit at the end of its range)
    r = _render(956110)
    cfg = VisionConfig()
    no_refit = dataclasses.replace(cfg, grid=dataclasses.replace(cfg.grid, tight_centre=0.001))
    squeezed = locate_grid(r.image, no_refit, (4, 6))
    assert len(_tile_cells(squeezed, r.truth)) == 20
    lattice = locate_grid(r.image, cfg, (4, 6))
    rows, cols = lattice.shape
    assert _tile_cells(lattice, r.truth) == {(x, y) for x in range(cols) for y in range(rows)}


def test_the_board_s_window_goes_where_the_cells_are_not_the_table_s_colour():
    import dataclasses

    from vision.config import VisionConfig
    from vision.grid_locate import locate_grid

    # dark plastic tiles on a check cloth, five of them found: their crosses show faintly, and
    # the row of checks beside the board scores about as much, but the tiles are not the colour
    # of any of the cloth's checks
    r = _render(954016)
    cfg = VisionConfig()
    cfg = dataclasses.replace(cfg, grid=dataclasses.replace(cfg.grid, search_again_below=0))  # (five tiles only)
    grey = dataclasses.replace(cfg, grid=dataclasses.replace(cfg.grid, window_table_weight=0.0))
    lattice = locate_grid(r.image, grey, (4, 6))
    rows, cols = lattice.shape
    window = {(x, y) for x in range(cols) for y in range(rows)}
    assert len(_tile_cells(lattice, r.truth) - window) == 4
    lattice = locate_grid(r.image, cfg, (4, 6))
    rows, cols = lattice.shape
    assert _tile_cells(lattice, r.truth) == {(x, y) for x in range(cols) for y in range(rows)}


def test_a_board_whose_lattice_rests_on_few_tiles_is_read_but_all_uncertain():
    import dataclasses

    from vision.config import VisionConfig
    from vision.grid_locate import lattice_fit, locate_grid

    image = cv2.imread(str(SAMPLES / "scavenger-hunt_a.jpg"))
    cfg = VisionConfig()
    seen, off = lattice_fit(locate_grid(image, cfg, (4, 6)))
    assert 10 <= seen <= 24 and 0.0 < off < 0.09
    sure = SquaresReader(TABLE, config=cfg).read(image)
    assert sure.uncertain == ()
    # more tiles asked for than the search found: the same reading, not one square of it sure
    strict = dataclasses.replace(cfg, grid=dataclasses.replace(cfg.grid, sure_tiles=seen + 1, search_again_below=0))
    unsure = SquaresReader(TABLE, config=strict).read(image)
    assert unsure.coins == sure.coins and unsure.pawns == sure.pawns
    assert len(unsure.uncertain) == 96 and unsure.confidence <= 0.5


def test_collected_coins_are_read_only_where_the_description_lays_them_by_the_corners():
    from dataclasses import replace

    assert SquaresReader(TABLE).read_file(SAMPLES / "scavenger-hunt_b.jpg").collected == (("M",), ("C", "C"), (), ("S",))
    bare = SquaresReader(replace(TABLE, off_board=())).read_file(SAMPLES / "scavenger-hunt_b.jpg")
    assert bare.collected is None and "collected" not in bare.to_json()


def test_band_points_lie_outside_the_board_and_go_to_the_nearest_corner():
    from vision.offboard import BAND, band_points, nearest_corner

    pts = band_points(4, 6)
    inside = (pts[:, 0] > 0) & (pts[:, 0] < 6) & (pts[:, 1] > 0) & (pts[:, 1] < 4)
    assert not inside.any()
    out = np.maximum.reduce([-pts[:, 0], pts[:, 0] - 6, -pts[:, 1], pts[:, 1] - 4])
    assert out.min() >= BAND[0] - 1e-9 and out.max() <= BAND[1] + 1e-9
    assert nearest_corner(np.array([[0.5, -0.3], [5.8, -0.3], [6.2, 3.5], [1.0, 4.3], [2.9, 4.3]]), 4, 6).tolist() == \
        [0, 1, 2, 3, 3]


def test_a_coin_s_rim_gathers_its_votes_where_a_patterned_table_does_not():
    from vision.squares import find_round

    rng = np.random.default_rng(5)
    felt = np.clip(rng.normal(120, 25, (64, 64, 3)), 0, 255).astype(np.uint8)  # a rough cloth
    felt = cv2.GaussianBlur(felt, (3, 3), 0)
    coin = felt.copy()
    cv2.circle(coin, (32, 32), 11, (235, 235, 230), -1, cv2.LINE_AA)  # a light coin, radius 0.168 pitch
    _, rims, focus = find_round(np.stack([felt, coin]), 0.13, with_focus=True)
    assert focus[1] > 2.0 > 1.5 > focus[0]


def test_a_tracking_reader_reads_the_kept_board_again_until_it_moves():
    image = cv2.imread(str(SAMPLES / "scavenger-hunt_a.jpg"))
    reader = SquaresReader(TABLE, track=True)
    first = reader.read(image)
    assert reader.read(image) == first and reader.searches == 1  # the same frame: no search
    moved = np.roll(image, 60, axis=1)  # the board 60 px to the right: the kept lattice no longer fits
    again = reader.read(moved)
    assert reader.searches == 2
    assert np.allclose(np.array(again.board_corners) - np.array(first.board_corners), [60, 0], atol=6)  # (the lens fit moves a little)
    assert again.coins == first.coins and again.pawns == first.pawns
    assert reader.read(moved) == again and reader.searches == 2
    still = SquaresReader(TABLE)  # without tracking every frame is searched
    still.read(image), still.read(image)
    assert still.searches == 2


def test_a_tracking_reader_calls_the_tiles_under_a_still_hand_covered():
    image = cv2.imread(str(SAMPLES / "scavenger-hunt_b.jpg"))
    reader = SquaresReader(TABLE, track=True)
    first = reader.read(image)
    assert first.covered == ()
    # a light, flat blob (a palm) over the tile of squares (2, 4)-(3, 5): its grid no longer shows
    tl, tr, br, bl = (np.array(p) for p in first.board_corners)
    u, v = 2.5 / 6, 1.5 / 4  # the middle of tile (1, 2) in board units
    centre = (1 - v) * ((1 - u) * tl + u * tr) + v * ((1 - u) * bl + u * br)
    hand = image.copy()
    # (two thirds of the tile wide: a palm is wider than a tile, but a disc any wider would
    # reach onto the next tiles; at 22 px the cross showed just under half as clearly, the
    # edge of ``COVER_SHARE``)
    cv2.circle(hand, tuple(int(x) for x in centre), 26, (170, 190, 220), -1, cv2.LINE_AA)
    covered = reader.read(hand)
    assert covered.covered == ((2, 4), (2, 5), (3, 4), (3, 5))
    assert set(covered.covered) <= set(covered.uncertain)
    assert reader.read(image).covered == ()  # the hand gone
    # a tile whose cross a pawn hides from the start never showed its grid: it is not covered
    pawns = SquaresReader(TABLE, track=True)
    assert pawns.read(cv2.imread(str(SAMPLES / "scavenger-hunt_a.jpg"))).covered == ()


def _kept_sample():
    """A tracking reader that has kept the board of a sample photo: (the reader, its lattice,
    the player frame, and ``cell(i, j)``: the lattice cell of the player's tile (i, j))."""
    from vision.squares import frames

    reader = SquaresReader(TABLE, track=True)
    reader.read(cv2.imread(str(SAMPLES / "scavenger-hunt_b.jpg")))
    lattice = reader._kept[0]
    frame = frames(lattice, 4, 6)[0]

    def cell(i, j):
        x, y = frame(j + 0.5, i + 0.5)
        return int(np.floor(y)), int(np.floor(x))

    return reader, lattice, frame, cell


def test_a_tile_whose_pieces_seem_to_hide_its_cross_is_covered_while_a_covered_tile_lies_beside_it():
    reader, lattice, frame, cell = _kept_sample()
    shown = 4.0  # a tile's cross in plain view (its gridness)
    reader._clear, reader._held = np.full(lattice.shape, shown), {}
    coins = [[None] * 12 for _ in range(8)]
    coins[0][0] = "S"  # a sleeve over tile (0, 0) read as the Suns coin, the same and sure read after read
    sure = np.ones((8, 12), bool)
    tile = lambda i, j: [(2 * i + a, 2 * j + b) for a in (0, 1) for b in (0, 1)]  # noqa: E731
    now = np.full(lattice.shape, shown)
    now[cell(0, 0)] = 0.2 * shown  # the sleeve hides the tile's cross
    now[cell(0, 1)] = 0.1 * shown  # the hand at its end hides the next one's
    for _ in range(4):
        got = reader._covered(lattice, now.copy(), frame, 4, 6, coins, {}, sure)
    # held for 4 reads, but beside the hand: covered (and not settling: told by now)
    assert got == (tile(0, 0) + tile(0, 1), [])
    now[cell(0, 1)] = shown  # the hand gone from the next tile: the pieces alone hide the cross
    assert reader._covered(lattice, now.copy(), frame, 4, 6, coins, {}, sure) == ([], [])


def test_a_tile_that_shows_too_little_of_its_cross_is_not_judged_by_it():
    """A tile whose pieces leave less of its cross in view than a candidate tile must show
    (``grid.min_gridness``; values of a recorded Steppin' Stones game, 343) shows it half as
    clearly at one frame as at the next with nothing over it; judged by it, such tiles were
    covered at one read and not the next, and the Caller heard four illegal moves. A hand over
    such a tile is the reach watch's to tell. A tile showing its cross plainly is still covered
    when a hand hides it."""
    reader, lattice, frame, cell = _kept_sample()
    shown = 4.0  # a tile's cross in plain view (its gridness)
    reader._clear, reader._held = np.full(lattice.shape, shown), {}
    reader._clear[cell(1, 1)] = 0.29
    now = np.full(lattice.shape, shown)
    now[cell(1, 1)] = 0.12  # the crowded tile, nothing over it
    now[cell(2, 4)] = 0.1 * shown  # a hand over a plain tile
    coins = [[None] * 12 for _ in range(8)]
    got = reader._covered(lattice, now, frame, 4, 6, coins, {}, np.ones((8, 12), bool))
    assert got == ([(4, 8), (4, 9), (5, 8), (5, 9)], [])


def test_a_tile_whose_coin_is_read_in_doubt_is_forgiven_only_while_its_grid_still_shows():
    reader, lattice, frame, cell_of = _kept_sample()
    cell = cell_of(1, 2)
    coins = [[None] * 12 for _ in range(8)]
    coins[2][5] = "4"  # a coin moved onto the tile's cross, read in doubt, the same each read
    sure = np.ones((8, 12), bool)
    sure[2, 5] = False
    tile = [(2, 4), (2, 5), (3, 4), (3, 5)]
    # covered, and settling (the pieces read the same, not yet for long enough) on each read
    for share, heard in ((0.3, [(tile, tile), (tile, tile), ([], [])]), (0.05, [(tile, [])] * 3)):
        reader._clear, reader._held = np.ones(lattice.shape), {}
        now = np.ones(lattice.shape)
        now[cell] = share  # a fifth of the cross and more still shows; a hand's: none of it
        assert [reader._covered(lattice, now.copy(), frame, 4, 6, coins, {}, sure) for _ in range(3)] == heard


def test_a_pawn_read_in_doubt_makes_the_empty_square_in_front_of_it_as_doubtful():
    from types import SimpleNamespace

    from vision.table_reader import _doubt_in_front

    # a camera on the near side: the picture's y grows with the row, tilted a little
    lattice = SimpleNamespace(to_image=lambda p: np.asarray(p) @ np.array([[100.0, 8.0], [-10.0, 60.0]]))
    frame = lambda u, v: (u, v)  # noqa: E731
    coins = [[None] * 12 for _ in range(8)]
    coins[4][9] = "3"
    conf = np.ones((8, 12))
    conf[3, 4] = conf[3, 9] = conf[7, 2] = 0.4  # three pawns in doubt; one sure
    pawns = {"S": (3, 4), "M": (3, 9), "C": (7, 2), "A": (5, 5)}
    _doubt_in_front(pawns, coins, conf, lattice, frame, 0.9)
    # in front of Suns: (4, 4), empty, as doubtful; in front of Moons a coin, read for itself;
    # Crowns on the near edge has nothing in front; Arms is sure
    assert [tuple(x) for x in np.argwhere(conf < 1)] == [(3, 4), (3, 9), (4, 4), (7, 2)] and conf[4, 4] == 0.4


def _square_middle(obs, r: int, c: int) -> tuple[int, int]:
    """Image px near the middle of square (r, c) of a reading (bilinear in its board corners)."""
    tl, tr, br, bl = (np.array(p) for p in obs.board_corners)
    u, v = (c + 0.5) / 12, (r + 0.5) / 8
    x, y = (1 - v) * ((1 - u) * tl + u * tr) + v * ((1 - u) * bl + u * br)
    return int(x), int(y)


def test_a_tracking_reader_looks_for_coins_again_only_where_the_frame_changed():
    image = cv2.imread(str(SAMPLES / "scavenger-hunt_b.jpg"))
    reader = SquaresReader(TABLE, track=True)
    first = reader.read(image)
    memory = reader.memory
    # the first frame: every square's coin window, the band's 400 points beside the board and
    # the 4 rims picked there (the collected coins) are looked in
    assert (memory.looked, memory.kept) == (96 + 400 + 4, 0)
    # the same frame again: only the window of the square read in doubt is looked in again
    # (``vision.squares.look_again``), and the reading is the same
    assert first.uncertain == ((7, 0),)
    assert reader.read(image) == first and (memory.looked, memory.kept) == (501, 499)
    # a dark round thing put down on square (3, 5): only the windows that reach it (a coin's
    # window is a pitch wide: the square and its neighbours) and the two doubtful squares' are
    # looked in again, and the reading is the one a reader without memory makes of the new frame
    # (but for the confidences, in the fourth decimal: a window the thing reaches a little keeps
    # its faces read turned, ``vision.squares.turned_coin_features``)
    changed = image.copy()
    cv2.circle(changed, _square_middle(first, 3, 5), 9, (60, 50, 40), -1, cv2.LINE_AA)
    again = reader.read(changed)
    fresh = SquaresReader(TABLE, track=True).read(changed)
    assert 1 + 1 <= memory.looked - 501 <= 9 + 1
    assert (again.coins, again.pawns, again.uncertain) == (fresh.coins, fresh.pawns, fresh.uncertain)
    assert np.allclose(again.square_confidence, fresh.square_confidence, atol=1e-4)
    assert SquaresReader(TABLE).memory is None  # stills are read without


def test_the_frame_memory_keeps_the_batches_last_looked_in_and_no_more():
    from vision.squares import FrameMemory, find_round_again

    memory = FrameMemory()
    windows = np.full((2, 24, 24, 3), 200, np.uint8)
    for k in range(FrameMemory.MOST_ROUNDS + 8):  # a board found again and again, a pile growing
        find_round_again(windows, 0.1, memory, ("batch", k))
        find_round_again(windows, 0.1, memory, ("batch", 0))  # one looked in every time
    assert len(memory.rounds) == FrameMemory.MOST_ROUNDS
    assert ("batch", 0) in memory.rounds and ("batch", FrameMemory.MOST_ROUNDS + 7) in memory.rounds
    assert ("batch", 1) not in memory.rounds


def test_a_board_whose_tiles_do_not_stand_out_one_by_one_is_cut_from_its_outline():
    import dataclasses

    from vision.config import VisionConfig
    from vision.grid_locate import lattice_fit, locate_grid

    # light wooden tiles edge to edge on a light laminate table, blurred: the search finds 3
    # tiles on their own (too few for a board); the board as a whole stands out from the table
    r = _render(958171)
    cfg = VisionConfig()
    cfg = dataclasses.replace(cfg, grid=dataclasses.replace(cfg.grid, faint_contrast=cfg.grid.line_contrast))  # outline only
    lattice = locate_grid(r.image, cfg, (4, 6))
    rows, cols = lattice.shape
    assert _tile_cells(lattice, r.truth) == {(x, y) for x in range(cols) for y in range(rows)}
    # tiles cut from the outline fit the lattice they were cut by: they do not count as found,
    # so the board is read with every square in doubt
    assert lattice_fit(lattice)[0] == 3
    obs = SquaresReader(TABLE, config=cfg).read(r.image)
    assert len(obs.uncertain) == 96
    with pytest.raises(BoardNotFound):
        locate_grid(r.image, dataclasses.replace(cfg, grid=dataclasses.replace(cfg.grid, search_again_below=0)), (4, 6))


def test_a_board_whose_lines_are_faint_is_found_by_looking_for_them_again_at_lower_contrast():
    import dataclasses

    from vision.config import VisionConfig
    from vision.grid_locate import lattice_fit, locate_grid

    # white tiles with light grey lines on a light table, blurred and noisy, squares of 19 px:
    # at the usual contrasts the search finds 3 tiles; down to 3 grey levels, enough to trust
    r = _render(961095)
    cfg = VisionConfig()
    lattice = locate_grid(r.image, cfg, (4, 6))
    rows, cols = lattice.shape
    assert _tile_cells(lattice, r.truth) == {(x, y) for x in range(cols) for y in range(rows)}
    assert lattice_fit(lattice)[0] >= cfg.grid.sure_tiles
    usual = dataclasses.replace(cfg, grid=dataclasses.replace(cfg.grid, search_again_below=0))
    with pytest.raises(BoardNotFound):
        locate_grid(r.image, usual, (4, 6))


def test_coins_lying_at_any_turn_are_read_by_their_faces_turned_upright():
    # a Scavenger Hunt table as players lay it, every coin at a random turn (the squares model
    # learnt them turned up to 20 degrees): read as they lie, 17 of its squares were read
    # wrong (an upturned 2 as a 5, a null as an empty square...); each coin's value face is
    # read turned round in steps too, and every square is read right
    from benchmarks.scenes import square_truth_labels
    from simulator.games import layout_for
    from simulator.render import render_table

    layout = {**layout_for("scavenger-hunt", 3), "coin_turn": 180}
    r = render_table(layout, seed=3, game="scavenger-hunt", look="standard", size=(1280, 720))
    truth = square_truth_labels(r.truth)
    obs = SquaresReader(TABLE).read(r.image)
    pawns = {cell: "p" + suit for suit, cell in obs.pawns}
    read = [[pawns.get((i, j), obs.coins[i][j] or "") for j in range(12)] for i in range(8)]
    # (a still does not tell the board's two half turns apart: the truth in either)
    assert read in (truth, [row[::-1] for row in truth[::-1]])
    assert sum(v not in ("", "pS", "pM", "pC", "pA") for row in truth for v in row) == 20


def test_a_tracking_reader_reads_a_window_turned_again_only_when_it_changed(monkeypatch):
    from vision import features

    computed = []
    plain = features.coin_features

    def counting(windows, centres, turn=0.0):
        if np.ndim(turn):  # the faces read turned (``vision.squares.turned_coin_features``)
            computed.append(len(windows))
        return plain(windows, centres, turn)

    monkeypatch.setattr(features, "coin_features", counting)
    image = cv2.imread(str(SAMPLES / "scavenger-hunt_b.jpg"))
    reader = SquaresReader(TABLE, track=True)
    first = reader.read(image)
    # every square not read as a pawn is read turned, once
    (kept,) = reader.memory.turned.values()
    assert sum(computed) == int(kept["valid"].sum()) == 96 - len(first.pawns)
    # the same frame again: nothing is read turned anew, and the reading is the same
    computed.clear()
    assert reader.read(image) == first and computed == []
    # a dark round thing put down on square (3, 5): only the windows it changes (the square and
    # its neighbours) are read turned anew, and the reading is a fresh tracking reader's (a
    # window the thing reaches a little keeps its turned features, and its confidence may
    # differ from a fresh read's in the fourth decimal)
    changed = image.copy()
    cv2.circle(changed, _square_middle(first, 3, 5), 9, (60, 50, 40), -1, cv2.LINE_AA)
    computed.clear()
    again = reader.read(changed)
    assert 1 <= sum(computed) <= 9
    fresh = SquaresReader(TABLE, track=True).read(changed)
    assert (again.coins, again.pawns, again.uncertain) == (fresh.coins, fresh.pawns, fresh.uncertain)
    assert np.allclose(again.square_confidence, fresh.square_confidence, atol=1e-4)


def test_a_model_s_costs_with_some_columns_replaced_are_its_costs_of_the_replaced_features():
    from vision.profile import load_profile
    from vision.table_reader import SQUARES_MODEL

    model = load_profile(SQUARES_MODEL, game="squares", kinds=("squares",)).models["squares"]
    rng = np.random.default_rng(3)
    features = rng.random((5, model.dim)).astype(np.float32)
    variants = rng.random((3, 5, 40)).astype(np.float32)
    whole = np.repeat(features[None], 3, 0)
    whole[:, :, 100:140] = variants
    expected = model.costs(whole.reshape(15, -1)).reshape(3, 5, -1)
    got = model.costs_varied(features, 100, variants)
    assert got.shape == expected.shape and np.allclose(got, expected, rtol=1e-4, atol=1e-3)


def test_a_coin_the_two_models_read_as_different_values_is_in_doubt():
    # a Scavenger Hunt table whose coins lie at any turn (a development seed of the read
    # benchmark): the upturned 2 at row 7, column 8 fits the squares model best as a 2 and the
    # ranks model as a 3, each sure of its own; the ranks model's value is read, in doubt
    from benchmarks.scenes import render_square_scene, square_scene_spec, square_truth_labels, training_looks

    spec = {**square_scene_spec(771005, training_looks()), "coin_turn": 180}
    r = render_square_scene(771005, spec)
    truth = square_truth_labels(r.truth)
    obs = SquaresReader(TABLE).read(r.image)
    wrong = [(i, j) for i in range(8) for j in range(12)
             if truth[i][j] in ("n", "a", "2", "3", "4", "5") and obs.coins[i][j] != truth[i][j]]
    assert wrong == [(6, 7)] and (truth[6][7], obs.coins[6][7]) == ("2", "3")
    assert (6, 7) in obs.uncertain


def test_the_turned_features_kept_for_one_frame_are_not_another_frame_s(monkeypatch):
    # the same windows cut in two frames (the oblong board's two half turns): a square's
    # turned features are kept for its frame alone, and each frame's are kept while the
    # other's are read
    from vision import features
    from vision.squares import FrameMemory, turned_coin_features

    computed = []
    plain = features.coin_features
    monkeypatch.setattr(features, "coin_features", lambda w, c, t=0.0: computed.append(len(w)) or plain(w, c, t))
    rng = np.random.default_rng(6)
    windows = rng.integers(0, 256, (6, 128, 128, 3), dtype=np.uint8)
    centres = np.full((6, 2), 63.5)
    turns = np.arange(1, 12) * 30.0
    memory = FrameMemory()
    first = turned_coin_features(windows, centres, np.arange(6), turns, memory, "first")
    assert computed == [6] and first.shape[:2] == (11, 6)
    assert np.array_equal(turned_coin_features(windows, centres, np.arange(6), turns, memory, "first"), first)
    assert computed == [6]
    turned_coin_features(windows, centres, np.arange(6), turns, memory, "turned")
    turned_coin_features(windows, centres, np.arange(6), turns, memory, "first")
    assert computed == [6, 6]


def _board_read(obs, truth) -> tuple[list, bool]:
    """The reading as truth labels (a pawn as "p" and its suit), and whether it fits the truth
    the other way round (a still does not tell the board's two half turns apart)."""
    pawns = {cell: "p" + suit for suit, cell in obs.pawns}
    read = [[pawns.get((i, j), obs.coins[i][j] or "") for j in range(12)] for i in range(8)]
    wrong = sum(read[i][j] != truth[i][j] for i in range(8) for j in range(12))
    flipped = sum(read[7 - i][11 - j] != truth[i][j] for i in range(8) for j in range(12))
    return read, flipped < wrong


def test_a_null_and_an_empty_square_are_told_apart_by_the_coin_s_rim():
    # a Scavenger Hunt table whose coins lie at any turn (a development seed of the read
    # benchmark): turned away from upright, a null's face (blank but for its dot) fits an empty
    # square about as well as a null, and an empty square may fit a null; read by the models
    # alone two nulls are read empty and an empty square as a null. The coins' rims, on the
    # board's own scale, tell them: every null is read, sure, and the empty square is empty
    import dataclasses

    from benchmarks.scenes import render_square_scene, square_scene_spec, square_truth_labels, training_looks
    from vision.config import VisionConfig

    spec = {**square_scene_spec(771011, training_looks()), "coin_turn": 180}
    r = render_square_scene(771011, spec)
    truth = square_truth_labels(r.truth)
    cfg = VisionConfig()
    models_alone = dataclasses.replace(cfg, grid=dataclasses.replace(cfg.grid, rim_among=0))
    found = {}
    for name, config in (("rims", cfg), ("models", models_alone)):
        obs = SquaresReader(TABLE, config=config).read(r.image)
        read, flip = _board_read(obs, truth)
        at = (lambda i, j: (7 - i, 11 - j)) if flip else (lambda i, j: (i, j))
        wrong = {(i, j): (truth[i][j], read[at(i, j)[0]][at(i, j)[1]]) for i in range(8) for j in range(12)
                 if read[at(i, j)[0]][at(i, j)[1]] != truth[i][j]}
        nulls_in_doubt = [(i, j) for i in range(8) for j in range(12) if truth[i][j] == "n" and at(i, j) in obs.uncertain]
        found[name] = (wrong, nulls_in_doubt)
    # (two coins read wrong either way, a 2 as an Ace and a Moons coin as a 3, each in doubt)
    both = {(1, 10): ("2", "a"), (2, 3): ("M", "3")}
    assert found["models"][0] == {**both, (1, 0): ("", "n"), (1, 1): ("n", ""), (4, 10): ("n", "")}
    assert found["rims"] == (both, [])


def _rim_board(rims_empty: float, rims_coin: float):
    """A cost table of 96 squares as the squares model would give it: 70 sure empty squares, 20
    sure 3s, a square read empty (sure) and one read as a null (in doubt); and their rims."""
    reader = SquaresReader(TABLE)
    labels = reader.model.classes
    cost = np.full((96, len(labels)), 30.0)
    empty, null, three = labels.index(""), labels.index("n"), labels.index("3")
    cost[:70, empty] = 0.5
    cost[70:90, three] = 0.5
    cost[90:, empty] = 1.0  # square 90: empty by far, but for its rim
    cost[90, null] = 6.0
    cost[91, null] = 0.8  # square 91: a null against an empty square, one nat between
    cost[91, empty] = 1.8
    cost[90:, three] = 12.0
    rims = np.concatenate([np.full(70, rims_empty), np.full(20, rims_coin), np.zeros(6)])
    return reader, cost, rims


def test_a_square_read_empty_with_a_coin_s_rim_is_read_as_its_best_coin_and_a_rimless_null_as_empty():
    reader, cost, rims = _rim_board(0.10, 0.25)
    rims[90], rims[91] = 0.26, 0.09
    coins, pawns, conf = reader._label(cost, 8, 12, rims)
    assert pawns == {}
    assert (coins[7][6], coins[7][7]) == ("n", None)
    # the null beats the next coin reading (the 3) by 6 nats; the empty square beat the rest by far
    assert conf[7, 6] == pytest.approx(1 / (1 + np.exp(-6.0)))
    # an empty square's rim between the two scales' middle and the coins' is in doubt, the
    # reading kept; a null's rim a little faint leaves it as the models read it
    rims[90], rims[91] = 0.2, 0.15
    coins, _, conf = reader._label(cost, 8, 12, rims)
    assert (coins[7][6], coins[7][7]) == (None, "n") and conf[7, 6] == 0.5 and conf[7, 7] < 0.9
    # a null whose rim shows as the coins' do is sure: no empty square has such a rim
    rims[91] = 0.25
    coins, _, conf = reader._label(cost, 8, 12, rims)
    assert coins[7][7] == "n" and conf[7, 7] == pytest.approx(1 / (1 + np.exp(-11.2)))


@pytest.mark.parametrize("rims_coin, sure_coins", [(0.11, 20), (0.25, 3)])
def test_rims_decide_nothing_on_a_board_that_shows_no_scale_of_them(rims_coin, sure_coins):
    # coins' rims no stronger than the empty squares' (a blurred frame), or too few coins read
    # sure to set the scale: the models' reading stands, as without the rims
    import dataclasses

    reader, cost, rims = _rim_board(0.10, rims_coin)
    cost[70 + sure_coins:90, reader.model.classes.index("")] = 0.8  # a 3 or an empty square, in doubt
    rims[90], rims[91] = 0.3, 0.0
    cfg = reader.config
    alone = SquaresReader(TABLE, config=dataclasses.replace(cfg, grid=dataclasses.replace(cfg.grid, rim_among=0)))
    coins, _, conf = reader._label(cost, 8, 12, rims)
    assert (coins[7][6], coins[7][7]) == (None, "n")
    assert sum(v == "3" and c >= 0.9 for v, c in zip(sum(coins, []), conf.ravel())) == sure_coins
    assert (coins, conf.tolist()) == (lambda r: (r[0], r[2].tolist()))(alone._label(cost, 8, 12, rims))
