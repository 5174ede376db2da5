"""The ``--preview`` window: the camera image with the Caller's overlay.

The overlay shows the found board (its outline and grid of cells or squares, as many as the
observation reads), each cell's label (uncertain ones in red, empty squares blank), the last
move and the current warning. Keys in the window: ``a`` accept the
new position after a warning, ``d`` call "Done!", ``q`` or Esc quit.

Headless stays headless: with no display (no ``DISPLAY``/``WAYLAND_DISPLAY`` on Linux) or
an OpenCV without GUI support, ``Preview.open`` returns None after one notice and the
Caller carries on without a window. ``draw_overlay`` works everywhere (tests, ``--debug``).
"""

from __future__ import annotations

import os
import sys
from typing import Callable

import cv2
import numpy as np

from caller.events import Event
from vision.debug import outlined_text

KEY_COMMANDS = {ord("a"): "accept", ord("d"): "done", ord("q"): "quit", 27: "quit"}


def display_available() -> bool:
    if sys.platform.startswith("linux"):
        return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return True


def _grid_points(corners, rows: int, cols: int) -> np.ndarray:
    """(rows + 1) x (cols + 1) grid points (x, y) of the board from its 4 outer corners (TL, TR, BR, BL)."""
    src = np.float32([[0, 0], [cols, 0], [cols, rows], [0, rows]])
    h = cv2.getPerspectiveTransform(src, np.float32(corners))
    xs, ys = np.meshgrid(np.arange(cols + 1, dtype=np.float32), np.arange(rows + 1, dtype=np.float32))
    pts = np.stack([xs, ys], axis=-1).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(pts, h).reshape(rows + 1, cols + 1, 2)


def draw_overlay(image: np.ndarray, observation=None, last_event: Event | None = None,
                 warning: str | None = None, status: str | None = None) -> np.ndarray:
    """A copy of ``image`` (HxWx3 BGR) with the overlay drawn on it."""
    out = image.copy()
    h, w = out.shape[:2]
    scale = max(0.4, w / 1600)
    if observation is not None:
        labels = observation.cell_labels()
        rows, cols = len(labels), len(labels[0])
        pts = _grid_points(observation.board_corners, rows, cols)
        for i in range(rows + 1):
            cv2.polylines(out, [pts[i, :, :].astype(np.int32)], False, (0, 220, 255), 2, cv2.LINE_AA)
        for i in range(cols + 1):
            cv2.polylines(out, [pts[:, i, :].astype(np.int32)], False, (0, 220, 255), 2, cv2.LINE_AA)
        uncertain = {tuple(c) for c in observation.uncertain}
        # the labels shrink with the cells (a board of 8 x 12 squares has small ones)
        size = scale * min(1.0, 5.0 / max(rows, cols) * 1.5)
        for r in range(rows):
            for c in range(cols):
                if not labels[r][c]:
                    continue  # an empty square
                centre = pts[r : r + 2, c : c + 2].reshape(-1, 2).mean(axis=0)
                colour = (0, 0, 255) if (r, c) in uncertain else (40, 160, 0)
                _text(out, labels[r][c], centre, colour, size)
    lines = []
    if status:
        lines.append((status, (255, 255, 255)))
    if last_event is not None and last_event.type in ("move", "reveal", "push"):
        d = last_event.data
        move = (f"{d['tile']} {d['from']} -> {d['to']}" if {"tile", "from", "to"} <= d.keys()
                else " ".join(f"{k} {v}" for k, v in d.items()))  # another game's move data
        kind = "move" if last_event.type == "move" else last_event.type  # a Slide card turned or pushed in
        lines.append((f"last {kind}: {move}", (255, 255, 255)))
    if warning:
        lines.append((warning, (0, 0, 255)))
    y = int(30 * scale) + 10
    for text, colour in lines:
        outlined_text(out, text, (12, y), colour, 0.8 * scale, 2)
        y += int(34 * scale) + 4
    return out


def _text(img, text, centre, colour, scale):
    size, _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, 0.7 * scale, 2)
    org = (int(centre[0] - size[0] / 2), int(centre[1] + size[1] / 2))
    outlined_text(img, text, org, colour, 0.7 * scale, 2, outline=(255, 255, 255), width=2)


class Preview:
    """A window that shows frames with the overlay and turns key presses into commands."""

    title = "table Caller (a: accept, d: Done!, q: quit)"

    def __init__(self):
        cv2.namedWindow(self.title, cv2.WINDOW_NORMAL)

    @classmethod
    def open(cls, notify: Callable[[str], None]) -> "Preview | None":
        if not display_available():
            notify("no display: running headless without a preview window")
            return None
        try:
            return cls()
        except cv2.error:
            notify("this OpenCV has no window support: running without a preview window")
            return None

    def show(self, image: np.ndarray) -> str | None:
        """Show a frame; returns a command ("accept", "done", "quit") if a key was pressed."""
        cv2.imshow(self.title, image)
        return KEY_COMMANDS.get(cv2.waitKey(1) & 0xFF)

    def close(self) -> None:
        try:
            cv2.destroyWindow(self.title)
        except cv2.error:
            pass
