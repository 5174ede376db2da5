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
from vision.debug import draw_lattice, outlined_text, write_failure, write_png
from vision.locate import BOARD

YELLOW = (0, 220, 255)


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
    e = (1.0 - lat.face) / 2
    outer = np.array([[e, e], [BOARD - e, e], [BOARD - e, BOARD - e], [e, BOARD - e]])
    # the player's corner i is the lattice's corner i + k (TL, TR, BR, BL): the player's view is
    # the lattice frame turned k quarter turns, which keeps the corners' clockwise order
    corners = lat.to_image(outer[(np.arange(4) + analysis.k) % 4])
    grid = draw_lattice(image, lat, corners, [f"{i + 1} {word}" for i, word in enumerate(ORDER_WORDS)])
    how = (f"board given by its corners (face {lat.face:.3f} of a pitch)" if len(lat.tiles) == 0
           else f"board found: {len(lat.tiles)} tiles on the lattice")
    for y, line in ((24, how), (48, f"{len(lat.candidates)} tile-like quads found by the board finder")):
        outlined_text(grid, line, (10, y), YELLOW, 0.55)
    p = Path(folder) / f"{stem}-calibrate.png"
    write_png(p, grid)
    return p
