"""Reading a Steppin' Stones table: its 8x8 squares, its pawns and the dice beside the board.

The reader is the squares reader driven by the game's table description
(``rules.steppin_stones.table``): the four home tiles lie face up among grid-side tiles, and
their faces (the suits' aces) tell the board's quarter turn; dice lie beside the board. These
tests read the bundled sample photos through ``caller read --game steppin-stones --json`` and
a fresh render, and check the reading against the truth, square by square and die by die.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from caller.cli import main
from rules.steppin_stones.table import TABLE
from rules.table import OnSquares, PlayerSide, TableDescription, TileLattice, TileSide
from vision.dice import to_player
from vision.faces_up import quarter_frames
from vision.observation import Layer
from vision.table_reader import SquaresReader, what_it_reads

SAMPLES = Path(__file__).resolve().parents[1] / "sample_images"
#: the setup's coins as the reader reads them (player frame) and its pawns
_LINE = ("3", "2", "n", None, None, "n", "2", "3")
_ARM = [(None, None, v, None, None, v, None, None) for v in ("5", "4")]
SETUP_COINS = tuple(_ARM + [_LINE, (None,) * 8, (None,) * 8, _LINE] + _ARM[::-1])
SETUP_PAWNS = (("S", (3, 3)), ("M", (3, 4)), ("C", (4, 4)), ("A", (4, 3)))


def _read(name: str, capsys) -> dict:
    assert main(["read", str(SAMPLES / name), "--game", "steppin-stones", "--json"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    return json.loads(out)


def test_the_table_names_its_home_tiles_and_its_dice():
    board = TABLE.board
    assert board.faces == (((0, 0), "Sa"), ((0, 3), "Ma"), ((3, 3), "Ca"), ((3, 0), "Aa"))
    assert board.face_up == frozenset({(0, 0), (0, 3), (3, 3), (3, 0)})
    assert TABLE.on_squares.name == "board"
    assert what_it_reads(TABLE) == "squares"
    # a square board of grid-side tiles with nothing on it to tell its quarter turn is read
    # only where the players' side is the camera's (the camera tells the turn)
    plain = TableDescription(board=TileLattice(4, 4, TileSide.GRID_UP, squares=(2, 2)),
                             on_squares=OnSquares(pawns=True), player_side=PlayerSide.CAMERA)
    assert what_it_reads(plain) == "squares"
    assert what_it_reads(replace(plain, player_side=PlayerSide.FROM_PIECES)) is None


@pytest.mark.parametrize("stem", ["steppin-stones_a", "steppin-stones_b"])
def test_board_pawns_and_dice_read_from_a_sample(stem, capsys):
    got = _read(f"{stem}.jpg", capsys)
    truth = json.loads((SAMPLES / f"{stem}.json").read_text())
    assert sorted(got) == ["board", "board_corners", "confidence", "dice", "game", "image", "pawns", "uncertain",
                           "uncertain_dice"]
    assert got["game"] == "steppin-stones"
    # read in the player's frame whichever way the camera looks (a quarter turn for a, a half
    # turn for b): the home tiles tell it; their printed suit symbols are not coins
    assert got["board"] == truth["board"]
    assert got["pawns"] == truth["pawns"]
    assert got["dice"] == truth["dice"]
    corners = np.array(got["board_corners"])
    assert np.abs(corners - np.array(truth["board_corners"])).max() < 25  # in the same order: the same frame


def test_sample_a_values_exactly(capsys):
    got = _read("steppin-stones_a.jpg", capsys)
    assert got["board"][1][1] == "S" and got["board"][7][7] == "M"  # stones on home tiles
    assert got["board"][0][0] is None and got["board"][6][6] is None  # the Suns' and Crowns' printed symbols
    assert got["pawns"] == {"S": [0, 3], "M": [2, 4], "C": [4, 4], "A": [5, 3]}
    assert got["dice"] == [{"suit": "S", "face": "3"}, {"suit": "M", "face": "3"}, {"suit": "C", "face": "2"},
                           {"suit": "A", "face": "3"}]
    assert got["uncertain_dice"] == []


def test_a_render_turned_every_way_reads_the_same():
    from simulator.games import layout_for
    from simulator.render import render_table
    from simulator.camera import CameraSpec

    layout = layout_for("steppin-stones", 570_001)
    reader = SquaresReader(TABLE)
    want = None
    for rotation in (0.0, 90.0, 180.0, 270.0):
        cam = CameraSpec(1280, 720, 900.0, 900.0, 640.0, 360.0, (0.0,) * 5, 12.0, rotation + 7.0, 520.0, 0.0, (0.0, 0.0))
        r = render_table(layout, seed=570_001, game="steppin-stones", camera=cam)
        got = reader.read(r.image).to_json()
        assert got["board"] == [[None if c is None else c[-1] for c in row] for row in r.truth["board"]]
        assert got["pawns"] == r.truth["pawns"]
        assert got["dice"] == r.truth["dice"]
        want = want or got["board"]
        assert got["board"] == want


def test_quarter_frames_turn_the_board_and_back():
    class L:
        shape = (4, 4)

    frames = quarter_frames(L(), 4)
    # each frame puts the player's top-left corner at another corner of the lattice's window
    assert [tuple(f(0.0, 0.0)) for f in frames] == [(0.0, 0.0), (0.0, 4.0), (4.0, 4.0), (4.0, 0.0)]
    for f in frames:
        pts = np.array([[0.5, 1.5], [3.2, 0.1]])
        lattice = np.array([f(u, v) for u, v in pts])
        assert np.allclose(to_player(f, lattice), pts)


def test_dice_are_written_as_objects_in_suit_order():
    layer = Layer("dice", "beside the board", (("S", "4"), ("A", "s")), (0.99, 0.5), (1,), fields=("suit", "face"))
    assert layer.json_labels() == [{"suit": "S", "face": "4"}, {"suit": "A", "face": "s"}]


def test_a_board_found_tile_by_tile_is_not_traded_for_one_tile_cut_as_if_it_were_the_board():
    """A frame of the setup (plastic-bold look, webcam 25 degrees tilted) where only seven
    tiles show their cross as lines. The search then looks for the board's outline, and the
    outline of one tile, cut into the board's 4x4, gave sixteen small quads on a lattice of
    their own: more than seven, so the board was taken to be that one tile. A second look
    adds tiles of the size already found, it never trades them for others: here the candidates
    of the tiles' size that lie on the lattice, whatever their cross (the four face-up home
    tiles too), which put all sixteen on it."""
    import cv2

    from vision.board_size import config_for_tiles
    from vision.config import VisionConfig
    from vision.grid_locate import locate_grid

    frame = cv2.imread(str(Path(__file__).parent / "data" / "stones_setup_few_crosses.jpg"))
    lattice = locate_grid(frame, config_for_tiles(VisionConfig(), 16), (4, 4))
    assert lattice.shape == (4, 4)
    assert sorted(lattice.tiles) == [(r, c) for r in range(4) for c in range(4)]
    # the board's outer corners as the simulator placed them, within an eighth of a tile (114
    # px; fitted to the nine tiles whose cross shows, none in the top row's middle, the lattice
    # was 23 px off at the top right, and the reader flagged its read as doubtful)
    truth = np.array([[372.6, 127.7], [827.9, 121.5], [852.6, 592.7], [356.8, 599.9]])
    corners = lattice.to_image(np.array([[0.0, 0.0], [4.0, 0.0], [4.0, 4.0], [0.0, 4.0]]))
    assert np.abs(corners - truth).max() < 114 / 8


def test_the_lattice_is_fitted_on_the_tiles_that_sit_on_it_tightly():
    """A still render of the read benchmark's tuning range (seed 570013, standard look). Of
    the ten quads the search put on the lattice one is a square's size, not a tile's (a coin's
    outline where the coins hide the tile's cross), its middle a tenth of a pitch off its
    node's; fitted with the others it bent the lattice, and the far corner's square lay 0.39
    of a square off the simulator's. Refitted on the tiles that sit on it tightly (the same
    tiles on the same nodes), every square's middle lies within a quarter of a square of the
    simulator's."""
    import cv2

    from vision.board_size import config_for_tiles
    from vision.config import VisionConfig
    from vision.faces_up import face_costs
    from vision.grid_locate import locate_grid

    data = Path(__file__).parent / "data" / "lattice_fit"
    image = cv2.imread(str(data / "stones570013.jpg"))
    truth = np.array(json.loads((data / "stones570013_square_centres.json").read_text()))
    lattice = locate_grid(image, config_for_tiles(VisionConfig(), 16), (4, 4))
    turns = quarter_frames(lattice, 4)
    frame = turns[int(np.argmin(face_costs(image, lattice, turns, TABLE.board.faces)))]
    got = lattice.to_image(np.array([[frame((c + 0.5) / 2, (r + 0.5) / 2) for c in range(8)] for r in range(8)], float))
    pitch = float(np.median(np.linalg.norm(np.diff(truth, axis=1), axis=2)))
    assert len(lattice.tiles) == 10
    assert np.linalg.norm(got - truth, axis=2).max() / pitch < 0.25


def test_tiles_whose_crosses_two_coins_hide_are_found_by_their_size_on_the_lattice(capsys):
    """The start of a recorded game (the live benchmark's game 326, plastic-bold on laminate,
    cropped): two coins on each of eight tiles, as light as the tiles' lines, hide their
    crosses, and the search found eight grid-side tiles of the twelve, too few for the board
    to be trusted (every square read uncertain). The candidates the size of the tiles found
    that lie on the lattice's nodes are taken as tiles too: eleven are found, and the coins,
    pawns and dice read right (the Arms pawn on its dark blue square too: see
    ``test_a_board_with_face_up_tiles_is_measured_against_its_grid_side_squares``)."""
    assert main(["read", str(Path(__file__).parent / "data" / "crowded" / "stones.jpg"), "--game", "steppin-stones",
                 "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["board"] == [list(row) for row in SETUP_COINS]
    assert got["pawns"] == {suit: list(cell) for suit, cell in SETUP_PAWNS}
    assert got["uncertain"] == []
    assert got["dice"] == [{"suit": "S", "face": "s"}, {"suit": "M", "face": "3"}, {"suit": "C", "face": "4"},
                           {"suit": "A", "face": "5"}]


def test_a_board_with_face_up_tiles_is_measured_against_its_grid_side_squares():
    """The start of a recorded game (the live benchmark's game 386: plastic-bold, dark blue
    backs, on a light laminate, blurred, the light dim at the edges). A square's colours are
    measured against the board's background, the typical square's bright level. With the four
    home tiles face up (white) and twenty white coins, most of the 64 squares were light, the
    background a light one, and every empty blue square then read as dark and blue as the Arms
    pawn, which was read, sure, on an empty square two squares off its own: the setup was never
    accepted and the game registered nothing. Measured against the grid-side squares' level
    (their 30th percentile, below the coins'), the empty squares read empty and the pawn
    stands on (4, 3)."""
    import cv2

    image = cv2.imread(str(Path(__file__).parent / "data" / "ground" / "stones_dark_back.jpg"))
    got = SquaresReader(TABLE).read(image)
    assert got.pawns == SETUP_PAWNS
    assert got.coins == SETUP_COINS
    assert got.uncertain == ((1, 5),)


def test_a_die_lying_still_is_read_from_the_mean_of_its_reads():
    """Five frames of a recorded game (the live benchmark's game 384, plastic-bold, 1280x720,
    squares of 28 px; cropped), nothing moving: the Moons die shows 2. Its numeral is a blob a
    few pixels across, and read frame by frame it is 2, 2, 2, 3, 3, each in doubt (a whole
    turn of the game read 2 and 3 by turns, and the roll was never taken). Read with the
    memory of the dice lying still, each read is the mean of the die's reads so far: 2 every
    time. The board is placed from the recording's corners."""
    import cv2

    from vision.dice import DICE_MODEL, DiceMemory, read_dice
    from vision.locate import Lattice
    from vision.profile import load_profile

    frames = [cv2.imread(str(Path(__file__).parent / "data" / "still_die" / f"frame{i}.jpg")) for i in range(5)]
    h, w = frames[0].shape[:2]
    centre, radius = ((w - 1) / 2, (h - 1) / 2), float(np.hypot(w, h) / 2)
    corners = (np.array([[30.16, 99.18], [322.82, 24.38], [446.69, 278.65], [72.61, 387.51]]) - centre) / radius
    H = cv2.getPerspectiveTransform(np.float32(corners), np.float32([[0, 0], [4, 0], [4, 4], [0, 4]])).astype(float)
    lattice = Lattice(H, 0.0, centre, radius, frozenset(), 0.9, np.zeros((0, 4, 2)), np.zeros((0, 4, 2)), shape=(4, 4))
    models = load_profile(DICE_MODEL, game="dice", kinds=("faces", "suits"))

    def reads(memory):
        out = []
        for image in frames:
            got = read_dice(image, lattice, lambda u, v: (u, v), 4, 4, models.model("faces"), models.model("suits"),
                            ranks_model=models.models.get("ranks"), memory=memory)
            out.append((got.dice, got.confidence[1] < 0.9))
        return out

    def roll(moons: str):
        return (("S", "n"), ("M", moons), ("C", "4"), ("A", "2"))

    assert reads(None) == [(roll("2"), True)] * 3 + [(roll("3"), True)] * 2
    assert reads(DiceMemory()) == [(roll("2"), True)] * 5


def test_the_dice_memory_keeps_a_die_s_reads_while_it_lies_where_it_lay():
    """``DiceMemory.blend``: a die found within ``STILL_REACH`` of where one lay is read from the
    mean of its reads; one found further off, or read beyond doubt as another face
    (``ROLLED_MARGIN``: rolled onto the same place), starts again; the dice not found are
    forgotten."""
    from vision.dice import ROLLED_MARGIN, STILL_REACH, DiceMemory

    def row(best: int, by: float) -> np.ndarray:
        r = np.full(4, 10.0)
        r[best] = 10.0 - by
        return r

    suits = np.zeros((1, 4))
    memory = DiceMemory()
    here = np.array([[4.4, 1.0]])
    for best, by in ((1, 1.0), (1, 1.0), (2, 1.5)):  # 2 reads of face 1, then one of face 2, less sure
        faces, _, _ = memory.blend(here, row(best, by)[None], None, suits)
    assert np.allclose(faces[0], [10.0, 28.0 / 3.0, 28.5 / 3.0, 10.0])  # face 1 still, by 1/6 nat
    assert len(memory.reads[0]) == 3
    # moved off: a die of its own
    faces, _, _ = memory.blend(here + [STILL_REACH * 1.5, 0.0], row(2, 1.5)[None], None, suits)
    assert np.allclose(faces[0], row(2, 1.5)) and len(memory.reads[0]) == 1
    # read beyond doubt as another face where it lay: rolled, a die of its own
    memory.blend(here, row(1, 1.0)[None], None, suits)
    memory.blend(here, row(1, 1.0)[None], None, suits)
    faces, _, _ = memory.blend(here, row(3, ROLLED_MARGIN + 1.5)[None], None, suits)
    assert np.allclose(faces[0], row(3, ROLLED_MARGIN + 1.5)) and len(memory.reads[0]) == 1
    # none found: forgotten
    memory.blend(np.zeros((0, 2)), np.zeros((0, 4)), None, np.zeros((0, 4)))
    assert memory.places == [] and memory.reads == []


def test_a_face_up_tile_s_noise_round_no_cross_is_not_a_hand():
    """The start of a recorded game (the live benchmark's game 341, paper-print on laminate,
    a flickering light, cropped), read by the tracking reader frame after frame with nothing
    moving. The four home tiles lie face up and show no cross (their gridness is near nought
    and wanders round it from frame to frame); judged against the next to nothing they showed
    when the board was found, the Suns, Moons and Arms home tiles were taken as covered by a
    hand at one frame in two, so that no read was ever sure and the game never started. A tile the
    table lays face up has no cross for a hand to hide: only the reach watch covers it."""
    import cv2

    data = Path(__file__).parent / "data" / "face_up"
    found, later, latest = (cv2.imread(str(data / f"{name}.jpg")) for name in ("found", "later", "latest"))
    reader = SquaresReader(TABLE, track=True)
    reads = [reader.read(image) for image in (found, found, later, latest, later)]
    assert [r.covered for r in reads] == [()] * 5
    assert [r.uncertain for r in reads] == [()] * 5
    assert reads[-1].coins == SETUP_COINS
    assert reads[-1].pawns == SETUP_PAWNS
    assert reader.searches == 1


def test_a_crowded_board_whose_crosses_its_coins_hide_is_kept_while_it_lies_still():
    """Three frames of a recorded game's start (the live benchmark's game 491, plastic-bold on
    a gingham cloth, 1280x720, nothing moving between them): four home tiles face up and two
    coins on most of the others, so half the tiles show their cross at 0.04 or less. Judged
    by that half, the kept board's next frames showed less than they had by noise alone, the
    frame was searched, and a lattice of squares and coins (a doubtful one, every square
    uncertain) took the board's place; the game never started. Judged by the quarter that
    shows its cross best, the board is kept and read as it lies."""
    import cv2

    data = Path(__file__).parent / "data" / "crowded_board"
    reader = SquaresReader(TABLE, track=True)
    reads = [reader.read(cv2.imread(str(data / f"{name}.jpg"))) for name in ("found", "next", "later")]
    assert [r.uncertain for r in reads] == [((5, 6),)] * 3
    assert [r.covered for r in reads] == [()] * 3
    assert [r.pawns for r in reads] == [SETUP_PAWNS] * 3
    assert reads[-1].coins == SETUP_COINS
    assert reader.searches == 1


def test_a_cross_taken_whole_is_not_a_tile_turned_by_an_eighth():
    """A frame of a recorded game's start (the live benchmark's game 524, paper-print on a
    yellow wood, 1280x720): two coins on most tiles dim their crosses. The outline of a cross
    drawn without its tile's frame is the diamond through its arm ends; eight such diamonds,
    each scored by the tile's lines where its squares should be, built a lattice turned by an
    eighth with a pitch of 1/sqrt(2), on every other tile, and the board was read in doubt
    (every square uncertain) on every frame of the game. The cross is taken from its arms."""
    import cv2

    image = cv2.imread(str(Path(__file__).parent / "data" / "coins_dim_crosses" / "frame.jpg"))
    seen = SquaresReader(TABLE).read(image)
    assert seen.pawns == SETUP_PAWNS
    assert seen.coins == SETUP_COINS
    assert seen.uncertain == ((2, 1),)


def test_a_board_in_doubt_gives_way_only_to_one_whose_cells_show_a_cross():
    """Three frames of a recorded game (the live benchmark's game 526, 1280x720): a hand over
    the board, the hand still there, and the board once it has gone. The first frame's board
    is found on seven tiles, in doubt. Under the hand the search then finds a lattice of another
    pitch (96 px, the board's 74) on eleven tiles whose cells show no cross at all; on more tiles than a
    board in doubt, it took the kept board's place and was read, the hand gone, with 21 squares
    in doubt and every pawn elsewhere (in the game: 1.4 s until it was searched again, the
    illegal flip said 1.2 s after the board settled). A board in doubt gives way only to one a
    quarter of whose cells show a cross as a tile found must."""
    import cv2

    data = Path(__file__).parent / "data" / "lattice_no_cross"
    reader = SquaresReader(TABLE, track=True)
    reads = [reader.read(cv2.imread(str(data / f"{name}.jpg"))) for name in ("doubt", "under", "gone")]
    assert len(reads[0].uncertain) == 64  # the board found in doubt: nothing on it to act on
    assert reads[-1].uncertain == ()
    assert reads[-1].pawns == SETUP_PAWNS
    assert reader.searches == 3


def test_a_face_up_tile_is_never_covered_by_its_grid_even_after_fingers_showed_one():
    """A hand's fingers over a home tile can show a cross where the tile has none (gridness
    2.44 on the Moons home tile of game 341, a tenth of a second before the hand left); judged
    by its grid, that tile stayed covered for two seconds after. A tile the table lays face up
    is the reach watch's alone."""
    import cv2

    from vision.squares import frames

    reader = SquaresReader(TABLE, track=True)
    reader.read(cv2.imread(str(Path(__file__).parent / "data" / "face_up" / "found.jpg")))
    lattice = reader._kept[0]
    frame = frames(lattice, 4, 4)[0]  # (either way round, the corner tiles are the home tiles)
    x, y = frame(3.5, 0.5)  # a corner tile
    cell = int(np.floor(y)), int(np.floor(x))
    reader._clear, reader._held = np.full(lattice.shape, 4.0), {}
    reader._clear[cell] = 2.44
    now = np.full(lattice.shape, 4.0)
    now[cell] = 0.0
    coins = [[None] * 8 for _ in range(8)]
    assert reader._covered(lattice, now, frame, 4, 4, coins, {}, np.ones((8, 8), bool)) == ([], [])


def test_a_coin_on_a_square_at_the_board_s_edge_is_never_read_as_a_die(capsys):
    """A frame of a recorded game (the live benchmark's game 420, wood-classic on a laminate,
    1280x720): the dice lie beside the board's right edge (Suns showing its suit, Moons 5,
    Crowns 3, Arms blank), and a 3 coin lies on the edge square (5, 0) across the board. The
    tries about a place found by the board's left edge reached over that square, and its 3 was
    read as the Moons die; the true Moons die then took the Arms and the blank Arms die was
    left out, all sure. A die lies beside the board: its middle is never on it."""
    path = Path(__file__).parent / "data" / "die_beside_coin" / "frame.jpg"
    assert main(["read", str(path), "--game", "steppin-stones", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["dice"] == [{"suit": "S", "face": "s"}, {"suit": "M", "face": "5"}, {"suit": "C", "face": "3"},
                           {"suit": "A", "face": "n"}]
    assert out["uncertain_dice"] == []
