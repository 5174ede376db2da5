"""Intermediate pictures of a read, for a user to see why a read failed (``caller read --debug DIR``).

For each image ``STEM``: ``STEM-grid.png`` (the frame with every tile-like quad in red, the
tiles on the lattice in green, the fitted lattice in blue and the player's top-left corner),
``STEM-board.png`` (the rectified board in the player's frame with each label; red where
uncertain) and ``STEM-cells.png`` (each cell's crop as the classifier saw it, with its label
and confidence). A failed read still writes ``STEM-grid.png`` with the candidates found.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from rules.outputs import OutputError, OutputFiles
from vision import imagefile
from vision.config import VisionConfig
from vision.locate import BOARD, tile_candidates

_GREEN, _RED, _BLUE, _YELLOW = (40, 200, 40), (40, 40, 230), (230, 120, 30), (0, 220, 255)


def outlined_text(img, s, org, colour, scale=0.4, thick=1, outline=(0, 0, 0), width=1):
    """``s`` at ``org`` in ``colour``, outlined ``width`` px in ``outline`` so it reads on any
    background. The outline is the text at the same thickness shifted around it: OpenCV 5
    widens each glyph's advance with the stroke, so a thicker copy under the text drifts
    further right letter by letter."""
    x, y = org
    for dx in range(-width, width + 1):
        for dy in range(-width, width + 1):
            if dx or dy:
                cv2.putText(img, s, (x + dx, y + dy), cv2.FONT_HERSHEY_SIMPLEX, scale, outline, thick, cv2.LINE_AA)
    cv2.putText(img, s, org, cv2.FONT_HERSHEY_SIMPLEX, scale, colour, thick, cv2.LINE_AA)


def _text(img, s, org, colour, scale=0.4, thick=1):
    outlined_text(img, s, org, colour, scale, thick)


def _poly(img, pts, colour, thick=1):
    cv2.polylines(img, [np.round(pts).astype(np.int32).reshape(-1, 1, 2)], True, colour, thick, cv2.LINE_AA)


def draw_lattice(image: np.ndarray, lat, corners: np.ndarray | None = None, labels=()) -> np.ndarray:
    """A copy of the frame with the lattice's tile-like candidates (red), its tiles (green) and its
    lines (blue, one per pitch); ``corners`` (image px) outlined in yellow, each with its label."""
    grid = image.copy()
    for q in lat.candidates:
        _poly(grid, q, _RED, 1)
    for q in lat.quads:
        _poly(grid, q, _GREEN, 2)
    t = np.linspace(0, BOARD, 26)
    for i in range(BOARD + 1):
        _poly(grid, lat.to_image(np.stack([t, np.full_like(t, i)], 1)), _BLUE, 1)
        _poly(grid, lat.to_image(np.stack([np.full_like(t, i), t], 1)), _BLUE, 1)
    if corners is not None:
        _poly(grid, corners, _YELLOW, 2)
        for (x, y), label in zip(corners, labels):
            _text(grid, label, (int(x) + 8, int(y) - 8), _YELLOW, 0.5)
    return grid


def write_debug(folder: str | Path, stem: str, image: np.ndarray, analysis, obs, cfg: VisionConfig) -> list[Path]:
    """Write the three pictures of a successful read; returns their paths."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    grid = draw_lattice(image, analysis.lattice)
    corners = np.array(obs.board_corners)
    _poly(grid, corners, _YELLOW, 2)
    cv2.circle(grid, tuple(int(v) for v in corners[0]), 7, _YELLOW, -1, cv2.LINE_AA)
    _text(grid, "player's top-left", (int(corners[0][0]) + 8, int(corners[0][1]) - 8), _YELLOW, 0.5)

    view = cv2.resize(analysis.view, None, fx=2, fy=2, interpolation=cv2.INTER_LINEAR)
    cp, m = cfg.rectify.cell_px * 2, cfg.rectify.margin_pitches * cfg.rectify.cell_px * 2
    unc = set(obs.uncertain)
    for r in range(BOARD):
        for c in range(BOARD):
            code = obs.board[r][c] or "hole"
            colour = _RED if (r, c) in unc else _GREEN
            x, y = int(m + c * cp + 4), int(m + (r + 1) * cp - 6)
            _text(view, f"{code} {obs.cell_confidence[r][c]:.2f}", (x, y), colour, 0.45)
    for i, p in enumerate(obs.pawns):
        colour = _RED if i in obs.uncertain_pawns else _GREEN
        _text(view, p, (int(m - 0.9 * cp), int(m + (i + 0.9) * cp)), colour, 0.6)
    for i, c in enumerate(obs.coins):
        colour = _RED if i in obs.uncertain_coins else _GREEN
        _text(view, c, (int(m + (i + 0.1) * cp), int(m - 0.1 * cp)), colour, 0.6)

    cells = analysis.cell_images
    s = cells.shape[1] * 3
    mosaic = np.zeros((BOARD * (s + 14), BOARD * s, 3), np.uint8)
    for i, crop in enumerate(cells):
        r, c = divmod(i, BOARD)
        big = cv2.resize(crop, (s, s), interpolation=cv2.INTER_NEAREST)
        mosaic[r * (s + 14) : r * (s + 14) + s, c * s : (c + 1) * s] = big
        code = obs.board[r][c] or "hole"
        colour = _RED if (r, c) in unc else _GREEN
        _text(mosaic, f"{code} {obs.cell_confidence[r][c]:.2f}", (c * s + 3, r * (s + 14) + s + 11), colour, 0.4)
    paths = []
    for name, img in (("grid", grid), ("board", view), ("cells", mosaic)):
        p = out / f"{stem}-{name}.png"
        write_png(p, img)
        paths.append(p)
    return paths


def write_failure(folder: str | Path, stem: str, image: np.ndarray, cfg: VisionConfig, message: str) -> Path:
    """The frame with the tile-like quads found (red) and the error, when no board was read."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    h, w = image.shape[:2]
    scale = min(1.0, cfg.locate.detect_fine_long_side / max(h, w))
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    small = cv2.resize(gray, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA) if scale < 1 else gray
    quads, _ = tile_candidates(small, cfg, thorough=True)
    grid = image.copy()
    for q in quads:
        _poly(grid, q / scale, _RED, 2)
    _text(grid, message[:110], (10, 24), _YELLOW, 0.55)
    _text(grid, f"{len(quads)} tile-like quads found", (10, 48), _YELLOW, 0.55)
    p = out / f"{stem}-grid.png"
    write_png(p, grid)
    return p


def write_png(path: Path, image: np.ndarray) -> None:
    """``image`` as ``path``, whole or not at all (a full disk is an OutputError, not a broken PNG)."""
    with OutputFiles(path) as files:
        try:
            imagefile.write(files.path(path), image, like=path)
        except ValueError:
            raise OutputError(str(path), "cannot write the image") from None
