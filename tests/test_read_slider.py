"""Reading a Slider board with the camera: ``caller read --game slider`` and the squares reader
on a square board of tiles grid side up with coins and dice on its squares.

The samples (``sample_images/slider_*.jpg``) are rendered with the camera on the players'
near side, so their truth's frame is the camera's: the read must give the truth's board
exactly. The quarter turn is the camera's: row 0 is the board's edge highest in the picture.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from caller.cli import main
from rules.slider.observed import position_from_read, read_table, turned
from vision.camera_side import CameraSide
from vision.faces_up import quarter_frames
from vision.table_reader import SquaresReader

SAMPLES = Path(__file__).resolve().parents[1] / "sample_images"


def _truth(stem: str) -> dict:
    return json.loads((SAMPLES / f"{stem}.json").read_text())


def _one_error(err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("caller: error: "), err
    return lines[0]


@pytest.mark.parametrize("stem", ["slider_a", "slider_b"])
def test_the_samples_read_as_their_truth_with_n_given(stem, capsys):
    truth = _truth(stem)
    assert truth["n"] == 5  # an odd board: its size is given
    image = str(SAMPLES / f"{stem}.jpg")
    assert main(["read", image, "--game", "slider", "--n", "5", "--json"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    got = json.loads(out)
    assert list(got) == ["image", "game", "n", "board", "confidence", "uncertain", "board_corners"]
    assert (got["image"], got["game"], got["n"]) == (image, "slider", 5)
    assert got["board"] == truth["board"]
    assert got["uncertain"] == [] and got["confidence"] >= 0.5
    corners = np.array(got["board_corners"])
    assert corners.shape == (4, 2)
    # row 0's corners lie on the edge farthest from the camera: the highest in the picture
    assert corners[:2, 1].mean() < corners[2:, 1].mean()


def test_without_n_the_size_comes_from_the_tiles_seen(capsys):
    # slider_a is a 5x5 board on 3x3 tiles: without --n it reads as the 6x6 board of those
    # tiles, its last row and column empty
    truth = _truth("slider_a")
    assert main(["read", str(SAMPLES / "slider_a.jpg"), "--game", "slider", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["n"] == 6
    assert got["board"] == [row + [None] for row in truth["board"]] + [[None] * 6]


def test_the_text_report_prints_the_board(capsys):
    image = str(SAMPLES / "slider_b.jpg")
    assert main(["read", image, "--game", "slider", "--n", "5"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"{image}: confidence ") and out[0].endswith("5x5 board, row 1 the side farthest from the camera")
    assert [line.split() for line in out[1:]] == [[c or "-" for c in row] for row in _truth("slider_b")["board"]]


def test_the_quarter_turn_is_the_camera_s_whichever_way_the_picture_is_turned():
    # the same photo turned a quarter turn clockwise: the board's old left edge is now the
    # highest in the picture, so the read is the truth turned a quarter turn clockwise; and
    # so on. (The coins are compared: a die seen from beyond the board's far side, as no
    # player's camera sees it, is not what the blocks model learnt.)
    truth = _truth("slider_a")
    image = cv2.imread(str(SAMPLES / "slider_a.jpg"))
    table, _ = read_table(5)
    reader = SquaresReader(table)
    for code, turns in ((cv2.ROTATE_90_CLOCKWISE, 1), (cv2.ROTATE_180, 2), (cv2.ROTATE_90_COUNTERCLOCKWISE, 3)):
        obs = reader.read(cv2.rotate(image, code))
        # the whole lattice's 6x6 squares, the 5x5 board's unused row and column turned with it
        full = [row + [None] for row in truth["board"]] + [[None] * 6]
        got = position_from_read(obs.coins, 6)["board"]
        want = turned(full, turns)
        assert [[c if c != "B" else None for c in row] for row in got] == \
            [[c if c != "B" else None for c in row] for row in want], turns


class _TurnedLattice:
    """A stand-in lattice of 2 x 2 tiles: lattice units to image px, turned ``degrees``
    about the board's middle (image y grows downwards)."""

    shape = (2, 2)

    def __init__(self, degrees: float):
        a = np.radians(degrees)
        self.rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])

    def to_image(self, pts: np.ndarray) -> np.ndarray:
        return (np.asarray(pts, float) - 1.0) @ self.rot.T * 100 + 300


def test_a_fixed_camera_keeps_the_turn_it_chose_first():
    # a board turned 40 degrees: its lattice's top edge (turn 0) is the highest in the picture
    first = _TurnedLattice(40)
    assert CameraSide().choose(first, quarter_frames(first, 2), 2) == 0
    # turned 50 degrees, a still reads another edge as the far one (the board lies near the
    # diagonal: the two edges are about as high)...
    later = _TurnedLattice(50)
    assert CameraSide().choose(later, quarter_frames(later, 2), 2) == 1
    # ... but one fixed camera keeps the edge it chose first, the one pointing the same way
    side = CameraSide(keep=True)
    assert side.choose(first, quarter_frames(first, 2), 2) == 0
    assert side.choose(later, quarter_frames(later, 2), 2) == 0


def test_an_odd_board_is_read_with_n_given(tmp_path, capsys):
    from simulator.games import slider_layout
    from simulator.render import render_table
    from simulator.render import CLEAN

    layout = dict(slider_layout(7, 7), h_suit="C", v_suit="M")
    r = render_table(layout, seed=7, game="slider", conditions=CLEAN)
    path = tmp_path / "seven.png"
    cv2.imwrite(str(path), r.image)
    assert main(["read", str(path), "--game", "slider", "--n", "7", "--h-suit", "C", "--v-suit", "M", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert (got["n"], got["board"]) == (7, r.truth["board"])


def test_a_coin_of_a_third_suit_is_one_error_line(capsys):
    # slider_b's H coins are Suns: read as if H were Moons, the Suns are a third suit
    image = str(SAMPLES / "slider_b.jpg")
    assert main(["read", image, "--game", "slider", "--n", "5", "--h-suit", "M"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    first, total = err.splitlines()
    assert first == (f"caller: error: {image}: row 1, column 2 holds a coin of suit S: Slider uses coins of M (H) "
                     f"and A (V) suit side up and dice for blocks")
    assert total == "caller: error: 1 of 1 images could not be read"


def test_a_board_not_in_view_is_one_error_line(tmp_path, capsys):
    blank = tmp_path / "table.png"
    cv2.imwrite(str(blank), np.full((480, 640, 3), 90, np.uint8))
    assert main(["read", str(blank), "--game", "slider", "--n", "6"]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith(f"caller: error: {blank}: no board in view") and len(err) == 2


@pytest.mark.parametrize("argv, message", [
    (["--n", "9"], "read --game slider: board size 9 is out of range: expected 3 to 8"),
    (["--h-suit", "A"], "read --game slider: H suit 'A' and V suit 'A': expected two different suit letters of S, M, C, A"),
])
def test_bad_options_are_one_error_line(argv, message, capsys):
    assert main(["read", str(SAMPLES / "slider_a.jpg"), "--game", "slider", *argv]) == 2
    assert _one_error(capsys.readouterr().err) == f"caller: error: {message}"


def test_only_a_game_of_sizes_takes_n(capsys):
    assert main(["read", str(SAMPLES / "scavenger-hunt_a.jpg"), "--game", "scavenger-hunt", "--n", "6"]) == 2
    assert _one_error(capsys.readouterr().err) == ("caller: error: read --game scavenger-hunt: --n not taken: "
                                                   "Scavenger Hunt's board has one size and look")


def _tiles_picture(tiles: int, pitch: int = 100, line: int = 2) -> np.ndarray:
    """A grey picture of ``tiles`` x ``tiles`` light tiles (``pitch`` px, a 4 px gap of dark
    table between them), each with a thin dark cross ``line`` px wide through its middle."""
    size = tiles * pitch + 40
    img = np.full((size, size), 60, np.uint8)
    for r in range(tiles):
        for c in range(tiles):
            x0, y0 = 20 + c * pitch + 2, 20 + r * pitch + 2
            img[y0:y0 + pitch - 4, x0:x0 + pitch - 4] = 200
            mid = pitch // 2 - 2
            img[y0:y0 + pitch - 4, x0 + mid:x0 + mid + line] = 40
            img[y0 + mid:y0 + mid + line, x0:x0 + pitch - 4] = 40
    return img


def _quad(x0: float, y0: float, side: float) -> np.ndarray:
    return np.array([[[x0, y0], [x0 + side, y0], [x0 + side, y0 + side], [x0, y0 + side]]], np.float32)


def test_a_thin_cross_between_the_squares_samples_is_seen_against_its_own_edges():
    from vision.grid_locate import edge_gridness, gridness

    img = _tiles_picture(1)
    tile = _quad(22, 22, 96)
    # the cross, 2 px of a 96 px tile, lies between gridness's middle samples (0.475 and 0.525)
    assert gridness(img, tile)[0] < 0.5
    assert edge_gridness(img, tile)[0] > 10


def test_a_block_of_tiles_is_no_tile_by_its_edges_but_each_of_its_tiles_is():
    from vision.grid_locate import edge_gridness

    img = _tiles_picture(2, line=4)
    tiles = np.concatenate([_quad(22 + 100 * c, 22 + 100 * r, 96) for r in (0, 1) for c in (0, 1)])
    assert (edge_gridness(img, tiles) > 10).all()
    block = _quad(22, 22, 196)  # its middle lines are the table's gaps, its quarters' the tiles' crosses
    assert edge_gridness(img, block)[0] < 0.5
    check = np.full((200, 200), 200, np.uint8)  # a cloth's check: two light squares and two dark
    check[:100, :100] = check[100:, 100:] = 60
    assert edge_gridness(check, _quad(0, 0, 200))[0] < 0.5



def _on_table(gray: np.ndarray, margin: int) -> np.ndarray:
    """``gray`` as a BGR frame with ``margin`` px more of the dark table all round."""
    return cv2.cvtColor(cv2.copyMakeBorder(gray, margin, margin, margin, margin, cv2.BORDER_CONSTANT, value=60),
                        cv2.COLOR_GRAY2BGR)


def test_a_small_board_framed_close_is_found_though_its_tiles_fill_much_of_the_frame():
    from vision.board_size import locate_square_board
    from vision.config import VisionConfig

    frame = _on_table(_tiles_picture(2, pitch=200), 0)  # each tile 45 % of the frame's side
    lattice = locate_square_board(frame, VisionConfig(), (2, 3, 4))
    assert lattice.shape == (2, 2)
    assert sorted(lattice.tiles) == [(0, 0), (0, 1), (1, 0), (1, 1)]


def test_a_board_of_four_tiles_is_found_from_the_three_whose_cross_shows():
    from vision.board_size import locate_square_board
    from vision.config import VisionConfig

    gray = _tiles_picture(2)
    gray[122:218, 122:218] = 200  # the lower right tile's cross hidden (a hand, coins and dice)
    lattice = locate_square_board(_on_table(gray, 200), VisionConfig(), (2, 3, 4))
    assert lattice.shape == (2, 2)
    assert sorted(lattice.tiles) == [(0, 0), (0, 1), (1, 0)]


def test_a_tile_laid_loosely_off_the_lattice_still_shows_its_cross_to_the_board_window():
    from vision.board_size import CROSS_SHOWN, MEASURE, crosses_near, tile_gridness
    from vision.locate import Lattice

    gray = np.pad(_tiles_picture(3), ((0, 40), (0, 40)), constant_values=60)
    tile = gray[120:220, 220:320].copy()  # tile (1, 2) and its gaps, pushed 15 px down and right
    gray[120:220, 220:320] = 60
    gray[135:235, 235:335] = tile
    # the lattice of the other tiles: pitch 100 px, the first tile's corner at (20, 20)
    lattice = Lattice(H=np.array([[0.01, 0, -0.2], [0, 0.01, -0.2], [0, 0, 1.0]]), lam=0.0, centre=(0.0, 0.0),
                      radius=1.0, tiles=frozenset(), face=0.96, quads=np.zeros((0, 4, 2)),
                      candidates=np.zeros((0, 4, 2)), shape=(3, 3))
    in_place = tile_gridness(cv2.cvtColor(gray, cv2.COLOR_GRAY2BGR), lattice, MEASURE)
    near = crosses_near(gray, lattice)
    assert in_place[1, 2] < CROSS_SHOWN < near[1, 2]
    assert (np.delete(in_place.ravel(), 5) > CROSS_SHOWN).all() and (near > CROSS_SHOWN).all()


def test_a_small_board_whose_tiles_lie_apart_crowded_with_coins_is_found_whole():
    from benchmarks.scenes import training_looks
    from benchmarks.slider_scenes import render_slider, slider_spec

    # seed 581129: a 2x2-tile board, dark blue tiles laid apart on a dark red cloth, six coins
    # and two dice on three of its tiles: their crosses, in part hidden, do not stand out as
    # lines, but each tile stands out from the cloth whole
    spec = slider_spec(581129, training_looks())
    assert (spec["n"], spec["look"]) == (4, "plastic-bold")
    r = render_slider(581129, spec)
    table, sizes = read_table(None)
    obs = SquaresReader(table, sizes=sizes).read(r.image)
    pos = position_from_read(obs.coins, None, spec["h_suit"], spec["v_suit"])
    assert pos["n"] == 4
    assert pos["board"] == r.truth["board"]


def test_a_small_board_whose_two_clear_tiles_set_the_size_of_the_others_is_found():
    from benchmarks.scenes import training_looks
    from benchmarks.slider_scenes import render_slider, slider_spec

    # seed 580019: a 2x2-tile board of blue tiles laid apart on an orange wood table, framed
    # from afar; the two tiles on the right show their crosses, the two on the left, under
    # three coins, a die and two coins, do not (their quads score too little), and two tiles
    # are too few for a lattice. The quads the size of the two clear tiles, whatever their
    # cross, are the board's others: no board was found
    spec = slider_spec(580019, training_looks())
    assert (spec["n"], spec["look"], spec["h_suit"], spec["v_suit"]) == (4, "plastic-bold", "M", "A")
    r = render_slider(580019, spec)
    table, sizes = read_table(None)
    obs = SquaresReader(table, sizes=sizes).read(r.image)
    pos = position_from_read(obs.coins, None, "M", "A")
    assert pos["board"] == [["H", None, None, None], ["H", "B", None, None], ["H", "V", "V", None],
                            [None, None, None, "V"]]
    assert pos["board"] == r.truth["board"]
    assert obs.uncertain == ()


def test_tiles_of_the_table_s_colour_whose_crosses_are_hidden_are_told_by_the_gaps_between_them():
    from vision.board_size import gap_sides
    from vision.locate import Lattice

    gray = np.full((540, 540), 200, np.uint8)  # a light table, 3x3 blank light tiles from (120, 120) ...
    for k in (1, 2):  # ... told apart only by the dark 4 px gaps between them
        gray[120:420, 120 + 100 * k - 2:120 + 100 * k + 2] = 70
        gray[120 + 100 * k - 2:120 + 100 * k + 2, 120:420] = 70
    # a 5x5 window of the lattice, a cell of table all round the board
    lattice = Lattice(H=np.array([[0.01, 0, -0.2], [0, 0.01, -0.2], [0, 0, 1.0]]), lam=0.0, centre=(0.0, 0.0),
                      radius=1.0, tiles=frozenset(), face=0.96, quads=np.zeros((0, 4, 2)),
                      candidates=np.zeros((0, 4, 2)), shape=(5, 5))
    sides = gap_sides(gray, lattice)
    assert sides.tolist() == [[0, 0, 0, 0, 0], [0, 2, 3, 2, 0], [0, 3, 4, 3, 0], [0, 2, 3, 2, 0], [0, 0, 0, 0, 0]]


def _slider_still(extra: dict, seed: int = 11) -> np.ndarray:
    """A rendered 6x6 Slider board (3x3 tiles), the camera's frame the truth's: H on squares
    (0, 0), (2, 0) and (4, 0), V on (5, 1), (5, 3) and (5, 5), and ``extra`` {square: code}."""
    from simulator.render import CLEAN, render_table

    board = [["H"] + [None] * 5, [None] * 6, ["H"] + [None] * 5, [None] * 6, ["H"] + [None] * 5,
             [None, "V", None, "V", None, "V"]]
    for (r, c), code in extra.items():
        board[r][c] = code
    return render_table({"game": "slider", "n": 6, "board": board}, seed=seed, game="slider", conditions=CLEAN).image


def test_a_small_board_whose_coins_hide_half_its_tiles_crosses_is_kept():
    """A 2 x 2 board (recorded game 152 of the live benchmark, cropped) after Blue's first
    move: two coins on each of two tiles hide both tiles' crosses, and a search of the frame
    finds the two other tiles by their crosses, and these two only by their size. The board
    kept from the start is read on without a search: the other two tiles show their grid as
    clearly as ever (a board that had moved would show next to none where it lay)."""
    data = Path(__file__).parent / "data" / "kept"
    start, moved = (cv2.imread(str(data / f"{name}.jpg")) for name in ("start", "moved"))
    table, _ = read_table(4)
    assert SquaresReader(table).read(moved).coins == (
        ("S", None, None, None), ("S", None, None, "die"), ("S", None, None, None), ("A", None, "A", "A"))
    reader = SquaresReader(table, track=True)
    assert [reader.read(start).coins for _ in range(2)] == [
        (("S", None, None, None), ("S", None, None, "die"), ("S", None, None, None), (None, "A", "A", "A"))] * 2
    reads = [reader.read(moved) for _ in range(4)]
    assert all(r.coins == (("S", None, None, None), ("S", None, None, "die"), ("S", None, None, None), ("A", None, "A", "A"))
               for r in reads)
    # the tile the Arms coin was just set down on showed little of its cross (its two coins hid
    # most of it), and now none: too little to tell a hand by, so it is not covered
    assert [r.covered for r in reads] == [(), (), (), ()]
    assert reader.searches == 1


def test_a_tile_whose_cross_two_coins_hide_is_not_covered_once_they_read_the_same():
    one, two = _slider_still({}), _slider_still({(0, 1): "H"})  # a second coin beside the first on tile (0, 0)
    table, _ = read_table(6)
    reader = SquaresReader(table, track=True)
    assert [reader.read(one).covered for _ in range(2)] == [(), ()]
    # the two coins side by side on tile (0, 0) hide most of the tile's cross: it shows far less than half as
    # clearly as it did, as under a hand; but nothing crosses the strip round the board (a hand
    # comes with its arm), and the coins on it read sure: they hide it, from the first read
    reads = [reader.read(two) for _ in range(5)]
    assert [r.covered for r in reads] == [(), (), (), (), ()]
    assert reads[0].uncertain == ()
    assert reads[-1].coins[:2] == (("S", "S", None, None, None, None), (None,) * 6)
    # a still hand over the empty middle tile is covered read after read: no piece is read there
    tl, tr, br, bl = (np.array(p) for p in reads[-1].board_corners)
    centre = (tl + tr + br + bl) / 4
    hand = two.copy()
    cv2.circle(hand, tuple(int(x) for x in centre), int(np.linalg.norm(tr - tl) / 9), (170, 190, 220), -1, cv2.LINE_AA)
    assert [reader.read(hand).covered for _ in range(5)] == [((2, 2), (2, 3), (3, 2), (3, 3))] * 5
    assert reader.read(two).covered == ()  # the hand gone
