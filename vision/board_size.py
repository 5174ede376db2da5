"""A square board of tiles grid side up whose size the picture must tell: 2, 3 or 4 tiles a side.

Slider-like tables come in sizes (``TileLattice`` of k x k tiles for an NxN board); where a
read is not told the size, the board is looked for as each size, largest first, and the
first whose window holds a board of that size (``holds_board``) is kept (``locate_square_board``): a window
larger than the board takes in cells of bare table, a smaller one lies inside the board and
fits too, so the largest that fits is the board.

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
from vision.grid_locate import gridness, locate_grid, off_table
from vision.locate import Lattice

#: a smaller board's search needs this share of its tiles found (rounded up) where the
#: settings ask for more tiles than it has
SMALL_BOARD_SHARE = 0.75
#: the fewest tiles of a board the search's settings are set for
LARGE_BOARD = 16
#: a window's cell holds a tile when the search found one there or when more than this share
#: of it is not the table's colour (``grid_locate.off_table``: a tile's cross may hide under
#: coins and dice, and a patterned cloth shows crosses of its own, so gridness does not tell)
OFF_TABLE = 0.6
#: a window is the board's only when the search found at least this share of its tiles (a
#: lattice of half the pitch, on a small board's squares, finds next to none)
FOUND_SHARE = 0.5


def config_for_tiles(cfg: VisionConfig, tiles: int) -> VisionConfig:
    """``cfg`` with its lattice search's tile counts no larger than a board of ``tiles`` tiles
    allows (every tile for ``grid.min_tiles``, ``SMALL_BOARD_SHARE`` of them for
    ``grid.search_again_below`` and ``grid.sure_tiles``); ``cfg`` itself, as it is set, for a
    board of ``LARGE_BOARD`` tiles or more."""
    if tiles >= LARGE_BOARD:
        return cfg
    g = cfg.grid
    share = math.ceil(SMALL_BOARD_SHARE * tiles)
    small = dict(min_tiles=min(g.min_tiles, tiles), search_again_below=min(g.search_again_below, share),
                 sure_tiles=min(g.sure_tiles, share))
    if all(getattr(g, k) == v for k, v in small.items()):
        return cfg
    return replace(cfg, grid=replace(g, **small))


def cell_quads(lattice: Lattice) -> np.ndarray:
    """(rows cols) x 4 x 2: the image px corners of the tile faces of ``lattice``'s window."""
    rows, cols = lattice.shape
    f = lattice.face / 2
    ys, xs = np.mgrid[0:rows, 0:cols]
    mid = np.stack([xs.ravel() + 0.5, ys.ravel() + 0.5], 1)
    corners = mid[:, None, :] + np.array([[-f, -f], [f, -f], [f, f], [-f, f]])[None]
    return lattice.to_image(corners.reshape(-1, 2)).reshape(-1, 4, 2)


def tile_gridness(image: np.ndarray, lattice: Lattice) -> np.ndarray:
    """rows x cols (``lattice.shape``): how clearly each cell of ``lattice``'s board window
    shows a grid side's cross of lines in ``image`` (``grid_locate.gridness``: a coin on a
    square costs its cell little; a pawn on the cross, a hand over it, or a board moved, much)."""
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    return gridness(gray, cell_quads(lattice)).reshape(lattice.shape)


def holds_board(image: np.ndarray, lattice: Lattice, cfg: VisionConfig) -> bool:
    """Whether ``lattice``'s k x k window is a board of k x k tiles: the search found at least
    ``FOUND_SHARE`` of its tiles, and all but fewer than k of its cells hold a tile (found, or
    not the table's colour, ``OFF_TABLE``). A window a tile too large for the board takes in
    2k - 1 cells of table at least."""
    k = lattice.shape[0]
    if len(lattice.tiles) < math.ceil(FOUND_SHARE * k * k):
        return False
    board = off_table(image, cell_quads(lattice), cfg.grid).reshape(lattice.shape) > OFF_TABLE
    for r, c in lattice.tiles:
        board[r, c] = True
    return int((~board).sum()) < k


def locate_square_board(image: np.ndarray, cfg: VisionConfig, sizes: tuple[int, ...]) -> Lattice:
    """The board of k x k tiles, k one of ``sizes``, in ``image``: the largest size whose
    window is found with every cell showing its grid; where none shows every cell, the size
    whose lattice saw the most tiles. Raises BoardNotFound when no size is found at all."""
    found: list[tuple[int, Lattice]] = []
    error = None
    for k in sorted(sizes, reverse=True):
        try:
            lattice = locate_grid(image, config_for_tiles(cfg, k * k), (k, k))
        except BoardNotFound as exc:
            error = error or exc
            continue
        if holds_board(image, lattice, cfg):
            return lattice
        found.append((len(lattice.tiles), lattice))
    if not found:
        raise error or BoardNotFound("no board in view")
    return max(found, key=lambda kv: kv[0])[1]
