"""A square board of tiles grid side up whose size the picture must tell: 2, 3 or 4 tiles a side.

Some tables come in sizes (a ``TileLattice`` of k x k tiles for an NxN board of squares). The board's
lattice is looked for as boards of a few sizes (``locate_square_board``); on each lattice
found, the board is the k x k window whose cells hold tiles (a tile found there by the
search, or a cell not the table's colour) all but fewer than k, for the largest k that fits
(``board_window``): a window larger than the board takes in cells of bare table, a smaller
one lies inside the board and fits too, so the largest that fits is the board.

The search's settings are set for boards of 16 to 24 tiles (a board needs ``grid.min_tiles``
tiles found, and the board's outline is searched when fewer than ``grid.search_again_below``
stood out): ``config_for_tiles`` scales them down for a board with fewer tiles than that,
and the reader's trust in a lattice (``grid.sure_tiles``) with them.
"""

from __future__ import annotations

import math
from dataclasses import replace

import cv2
import numpy as np

from vision.config import VisionConfig
from vision.errors import BoardNotFound
from vision.grid_locate import Measure, edge_gridness, gridness, locate_grid, middle_lines, off_table
from vision.locate import Lattice

#: a smaller board's search needs this share of its tiles found (rounded up) where the
#: settings ask for more tiles than it has
SMALL_BOARD_SHARE = 0.75
#: the fewest tiles of a board the search's settings are set for
LARGE_BOARD = 16
#: a board of k x k tiles in view has tiles up to this share of the frame's short side over k
#: (a player frames a small board close: a 2x2-tile board's tiles reach 0.4 of it, beyond the
#: search's ``locate.max_tile_frac`` set for larger boards)
FRAME_SHARE = 0.9
#: a window's cell holds a tile when the search found one there or when more than this share
#: of it is not the table's colour (``grid_locate.off_table``: a tile's cross may hide under
#: coins and dice, and a patterned cloth shows crosses of its own, so gridness does not tell)
OFF_TABLE = 0.6
#: a window is the board's only when the search found at least this share of its tiles (a
#: lattice of half the pitch, on a small board's squares, finds next to none)
FOUND_SHARE = 0.5
#: a window's cell also holds a tile when a cross shows this clearly (``MEASURE``) in it or a
#: little off it (``CROSS_SHIFTS`` pitches each way): tiles laid loosely, a gap here and none
#: there, lie off a lattice fitted to a few of them, and one of the table's colour (dark
#: plastic on a dark cloth) is not told by colour; a cloth's checks score about 0
CROSS_SHOWN = 1.0
CROSS_SHIFTS = (-0.15, 0.0, 0.15)
#: ... or when at least ``GAP_SIDES`` of its four sides show the gap to a tile beside it: a
#: line standing ``GAP_LINE`` grey levels from both sides (``grid_locate.middle_lines``). A
#: tile crowded with coins, its cross hidden, still has its gaps; a cell of table beside the
#: board shares one side with a tile at most (that tile's edge, with its shadow)
GAP_LINE = 8.0
GAP_SIDES = 3


def config_for_tiles(cfg: VisionConfig, tiles: int) -> VisionConfig:
    """``cfg`` with its lattice search's tile counts no larger than a board of ``tiles`` tiles
    allows (``SMALL_BOARD_SHARE`` of them for ``grid.min_tiles``, ``grid.search_again_below``
    and ``grid.sure_tiles``) and its largest tile as large as such a board's can be in view
    (``FRAME_SHARE``); ``cfg`` itself, as it is set, for a board of ``LARGE_BOARD`` tiles or
    more."""
    if tiles >= LARGE_BOARD:
        return cfg
    g = cfg.grid
    share = math.ceil(SMALL_BOARD_SHARE * tiles)
    small = dict(min_tiles=min(g.min_tiles, share), search_again_below=min(g.search_again_below, share),
                 sure_tiles=min(g.sure_tiles, share))
    frac = max(cfg.locate.max_tile_frac, min(1.0, FRAME_SHARE / math.sqrt(tiles)))
    if all(getattr(g, k) == v for k, v in small.items()) and frac == cfg.locate.max_tile_frac:
        return cfg
    return replace(cfg, grid=replace(g, **small), locate=replace(cfg.locate, max_tile_frac=frac))


def cell_quads(lattice: Lattice) -> np.ndarray:
    """(rows cols) x 4 x 2: the image px corners of the tile faces of ``lattice``'s window."""
    rows, cols = lattice.shape
    f = lattice.face / 2
    ys, xs = np.mgrid[0:rows, 0:cols]
    mid = np.stack([xs.ravel() + 0.5, ys.ravel() + 0.5], 1)
    corners = mid[:, None, :] + np.array([[-f, -f], [f, -f], [f, f], [-f, f]])[None]
    return lattice.to_image(corners.reshape(-1, 2)).reshape(-1, 4, 2)


def tile_gridness(image: np.ndarray, lattice: Lattice, measure: Measure = gridness) -> np.ndarray:
    """rows x cols (``lattice.shape``): how clearly each cell of ``lattice``'s board window
    shows a grid side's cross of lines in ``image`` (``measure``, ``grid_locate.gridness`` or
    ``edge_gridness``: a coin on a square costs its cell little; a pawn on the cross, a hand
    over it, or a board moved, much)."""
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    return measure(gray, cell_quads(lattice)).reshape(lattice.shape)


#: the tiles a side of the board a square board's lattice is first looked for as
SEED = 2
#: how the search scores a tile's cross: against the line's own edges (``edge_gridness``),
#: which tells a tile from a square (its quarters show no lines) and sees a thin line between
#: coins crowding a small board's squares; ``gridness``, against the squares, takes the
#: squares of a small board (or blocks of its tiles) for tiles and finds boards too large
MEASURE = edge_gridness
#: a tile-like quad the search found is a tile of the lattice when its centre lies this close
#: (pitches) to the middle of a node ...
TIGHT = 0.2
#: ... and its sides are at least this share of a tile's (a square of a tile is half as large)
TILE_SIDE = 0.75


def with_window(lattice: Lattice, x0: int, y0: int, shape: tuple[int, int], tiles: frozenset) -> Lattice:
    """``lattice`` with its window moved to start at node (x0, y0) (of its present window) and
    ``shape`` (rows, cols) large, ``tiles`` (nodes of the present window) the tiles found in it."""
    moved = replace(lattice.shifted(x0, y0), shape=shape)
    rows, cols = shape
    inside = frozenset((r - y0, c - x0) for r, c in tiles if 0 <= r - y0 < rows and 0 <= c - x0 < cols)
    return replace(moved, tiles=inside)


def found_tiles(lattice: Lattice) -> frozenset:
    """The nodes (row, col of ``lattice``'s window frame, anywhere on the lattice) where the
    search found a tile: its quad's centre within ``TIGHT`` of the node's middle, its sides a
    tile's (``TILE_SIDE``)."""
    quads = np.asarray(lattice.candidates, np.float64)
    if len(quads) == 0:
        return frozenset(lattice.tiles)
    corners = lattice.to_lattice(quads.reshape(-1, 2)).reshape(-1, 4, 2)
    centres = corners.mean(1)
    sides = np.linalg.norm(corners - np.roll(corners, -1, axis=1), axis=-1).mean(1)
    tight = (np.hypot(*(centres - np.floor(centres) - 0.5).T) <= TIGHT) & (sides >= TILE_SIDE * lattice.face)
    nodes = {(int(np.floor(y)), int(np.floor(x))) for x, y in centres[tight]}
    return frozenset(nodes) | frozenset(lattice.tiles)


def crosses_near(gray: np.ndarray, lattice: Lattice) -> np.ndarray:
    """rows x cols (``lattice.shape``): the clearest cross (``MEASURE``) each cell of
    ``lattice``'s window shows in the grey frame ``gray`` where it is and shifted by
    ``CROSS_SHIFTS`` pitches each way."""
    cells = lattice.to_lattice(cell_quads(lattice).reshape(-1, 2))
    moved = [cells + (dx, dy) for dy in CROSS_SHIFTS for dx in CROSS_SHIFTS]
    quads = lattice.to_image(np.concatenate(moved)).reshape(len(moved), -1, 4, 2)
    return MEASURE(gray, quads.reshape(-1, 4, 2)).reshape(len(moved), -1).max(0).reshape(lattice.shape)


def gap_sides(gray: np.ndarray, lattice: Lattice) -> np.ndarray:
    """rows x cols (``lattice.shape``): how many of the four sides of each cell of
    ``lattice``'s window show a gap line (``GAP_LINE``) in the grey frame ``gray`` between it
    and the cell beside it."""
    rows, cols = lattice.shape
    ys, xs = np.mgrid[0:rows, 0:cols].astype(np.float64)
    # a quad astride each side: the side is its middle line (along y for the right side of a
    # cell, along x for its lower side)
    right = np.stack([xs + 0.5, ys, xs + 1.5, ys + 1], -1).reshape(-1, 4)
    lower = np.stack([xs, ys + 0.5, xs + 1, ys + 1.5], -1).reshape(-1, 4)
    boxes = np.concatenate([right, lower])
    x0, y0, x1, y1 = boxes.T
    corners = np.stack([np.stack([x0, y0], -1), np.stack([x1, y0], -1), np.stack([x1, y1], -1), np.stack([x0, y1], -1)], 1)
    quads = lattice.to_image(corners.reshape(-1, 2)).reshape(-1, 4, 2)
    lines = middle_lines(gray, quads)
    gap_right = (lines[: rows * cols, 0] > GAP_LINE).reshape(rows, cols)
    gap_lower = (lines[rows * cols:, 1] > GAP_LINE).reshape(rows, cols)
    sides = gap_right.astype(int) + gap_lower
    sides[:, 1:] += gap_right[:, :-1]
    sides[1:, :] += gap_lower[:-1, :]
    return sides


def board_window(image: np.ndarray, lattice: Lattice, cfg: VisionConfig,
                 sizes: tuple[int, ...]) -> tuple[Lattice, int] | None:
    """The k x k window (k one of ``sizes``, the largest that fits) of ``lattice`` that holds
    the board: within ``max(sizes) - 1`` tiles of its present window, the placement with the
    most cells holding a tile (found by the search, or not the table's colour), kept when all
    but fewer than k do and the search found ``FOUND_SHARE`` of its tiles (a window a tile too
    large for the board takes in 2k - 1 cells of table at least), with the number of its
    tiles found. A cell holds a tile when the search found one there, when it is not the
    table's colour, when a cross shows in it or a little off it (``crosses_near``), or when
    ``GAP_SIDES`` of its sides show a gap (``gap_sides``). None when no size fits."""
    span = max(sizes) - 1
    rows, cols = lattice.shape
    h, w = image.shape[:2]
    tiles = found_tiles(lattice)
    shape = (rows + 2 * span, cols + 2 * span)
    big = with_window(lattice, -span, -span, shape, tiles)
    quads = cell_quads(big)
    seen = np.all((quads >= 0) & (quads <= [w - 1, h - 1]), axis=(1, 2)).reshape(shape)
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    board = ((off_table(image, quads, cfg.grid).reshape(shape) > OFF_TABLE) | (crosses_near(gray, big) > CROSS_SHOWN)
             | (gap_sides(gray, big) >= GAP_SIDES)) & seen
    found = np.zeros(shape, bool)
    for r, c in big.tiles:
        found[r, c] = True
    board |= found
    for k in sorted(sizes, reverse=True):
        best = None
        for y in range(shape[0] - k + 1):
            for x in range(shape[1] - k + 1):
                score = (int(board[y:y + k, x:x + k].sum()), int(found[y:y + k, x:x + k].sum()))
                if best is None or score > best[0]:
                    best = (score, x, y)
        (cells, hits), x, y = best
        if k * k - cells < k and hits >= math.ceil(FOUND_SHARE * k * k):
            return with_window(lattice, x - span, y - span, (k, k), tiles), hits
    return None


def locate_square_board(image: np.ndarray, cfg: VisionConfig, sizes: tuple[int, ...]) -> Lattice:
    """The board of k x k tiles, k one of ``sizes``, in ``image``. The lattice is looked for
    as a board of ``SEED`` tiles a side (a few tiles found fit it, where a search for a larger
    board than the tiles seen may fit its lattice to the squares) and as a board of each
    size, largest first; each lattice's board is its window that holds one
    (``board_window``), and the largest board found is kept (of two alike, the one with more
    tiles found), the search stopping at one of the largest size. Where no window holds a
    board whole (tiles hidden, a table of the tiles' colour), the search's own window of the
    size whose lattice saw the most tiles is kept. Raises BoardNotFound when no lattice of
    these sizes is found."""
    best: tuple[int, int, Lattice] | None = None
    direct: list[tuple[int, Lattice]] = []  # each size's own window, where found
    error: BoardNotFound | None = None
    for k in dict.fromkeys((SEED,) + tuple(sorted(sizes, reverse=True))):
        try:
            lattice = locate_grid(image, config_for_tiles(cfg, k * k), (k, k), MEASURE, whole_blobs=k == SEED)
        except BoardNotFound as exc:
            error = error or exc
            continue
        if k in sizes:
            direct.append((len(lattice.tiles), lattice))
        found = board_window(image, lattice, cfg, sizes)
        if found is not None and (best is None or (found[0].shape[0], found[1]) > best[:2]):
            best = (found[0].shape[0], found[1], found[0])
            if best[0] == max(sizes):
                break
    if best is not None:
        return best[2]
    if direct:
        return max(direct, key=lambda kv: kv[0])[1]
    raise error or BoardNotFound(f"no board in view: no board of {' or '.join(f'{k}x{k}' for k in sizes)} "
                                 f"grid-side tiles found")
