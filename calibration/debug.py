"""``caller calibrate --debug DIR``: what the calibration tried on each photo.

For each photo ``STEM``: ``STEM-calibrate.png``, the photo with every tile-like quad the board
finder saw (red), the tiles it put on its lattice (green), the lattice used (blue, a line per
pitch), the board's outer corners (yellow, numbered from the player's far-left, clockwise)
and a line saying whether the board was found or given by its corners. A photo whose board
was not found gets ``STEM-grid.png`` as ``caller read --debug`` writes it (the candidates and
the error), then, once its corners are clicked, its ``STEM-calibrate.png`` as well.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from calibration.corners import ORDER_WORDS
from vision.config import VisionConfig
from vision.features import _player_to_lattice
from vision.debug import _YELLOW, _poly, _text, _write_png, draw_lattice, write_failure
from vision.locate import BOARD


def stem_of(source: str) -> str:
    """A file stem for a photo's pictures (its file name's, or the source's words joined)."""
    name = Path(source).stem if Path(source).suffix else source
    return "".join(ch if ch.isalnum() or ch in "-_." else "-" for ch in name) or "photo"


def write_calibration_debug(folder: str | Path, source: str, image: np.ndarray, analysis, error: str | None,
                            cfg: VisionConfig) -> Path:
    """Write the picture of one photo (``analysis`` None with the finder's ``error``); returns its path."""
    stem = stem_of(source)
    if analysis is None:
        return write_failure(folder, stem, image, cfg, error or "no board found")
    Path(folder).mkdir(parents=True, exist_ok=True)
    lat = analysis.lattice
    grid = draw_lattice(image, lat)
    e = (1.0 - lat.face) / 2
    player = np.array([[e, e], [BOARD - e, e], [BOARD - e, BOARD - e], [e, BOARD - e]])
    corners = lat.to_image(_player_to_lattice(player, analysis.k))
    _poly(grid, corners, _YELLOW, 2)
    for i, (x, y) in enumerate(corners):
        _text(grid, f"{i + 1} {ORDER_WORDS[i]}", (int(x) + 8, int(y) - 8), _YELLOW, 0.5)
    given = len(lat.tiles) == 0
    how = (f"board given by its corners (face {lat.face:.3f} of a pitch)" if given
           else f"board found: {len(lat.tiles)} tiles on the lattice")
    _text(grid, how, (10, 24), _YELLOW, 0.55)
    _text(grid, f"{len(lat.candidates)} tile-like quads found by the board finder", (10, 48), _YELLOW, 0.55)
    p = Path(folder) / f"{stem}-calibrate.png"
    _write_png(p, grid)
    return p
