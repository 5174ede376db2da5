"""Click the board's corners: ``caller calibrate`` when the board finder misses the board.

A window shows the photo; the person clicks the board's four outer corners, far-left first
and clockwise (far-left, far-right, near-right, near-left as the player sees the board).
Each click is drawn as it is made, with the outline so far and the name of the next corner.
After the fourth, Enter (or Space) accepts the corners; a right click or Backspace takes the
last one back; Esc (or q) cancels: :class:`calibration.guided.CalibrationCancelled`, nothing
is written. Corners that cannot be a board's (``calibration.corners.check_corners``) are
refused in the window, and the clicks start again.

:class:`CornerClicker` is the state machine, fed mouse events and keys and drawing the
picture; :func:`click_corners` runs it in an OpenCV window. Tests drive the state machine
with synthetic events (no window). Whether a window may open is decided as the watch
preview does (``caller.preview.display_available``) and by ``[calibration] preview``.
"""

from __future__ import annotations

import cv2
import numpy as np

from calibration.corners import ORDER_WORDS, BadCorners, check_corners
from calibration.guided import CalibrationCancelled

TITLE = "table Caller: click the board's corners (Enter: accept, right click: undo, Esc: cancel)"
_YELLOW, _GREEN, _RED = (0, 220, 255), (40, 200, 40), (40, 40, 230)
ENTER_KEYS = (10, 13, 32)
UNDO_KEYS = (8, 127, ord("u"))
CANCEL_KEYS = (27, ord("q"))


class CornerClicker:
    """The corners clicked so far on an image, and what the window shows.

    ``mouse(event, x, y, flags, param)`` is an OpenCV mouse callback; ``key(code)`` takes a key
    code of ``cv2.waitKey``. ``state`` is "clicking", "done" or "cancelled"; ``corners`` the
    accepted 4 x 2 corners once done; ``message`` the line shown (a refusal, or what to do next).
    """

    def __init__(self, image: np.ndarray, scale: float = 1.0):
        self.image = image
        self.scale = scale  # window px per image px
        self.points: list[tuple[float, float]] = []
        self.state = "clicking"
        self.corners: np.ndarray | None = None
        self.message = self._prompt()

    def _prompt(self) -> str:
        if len(self.points) < 4:
            return f"click the {ORDER_WORDS[len(self.points)]} corner ({len(self.points) + 1} of 4)"
        return "Enter: accept these corners; right click or Backspace: undo; Esc: cancel"

    def mouse(self, event: int, x: int, y: int, flags: int = 0, param=None) -> None:
        if self.state != "clicking":
            return
        if event == cv2.EVENT_LBUTTONDOWN and len(self.points) < 4:
            self.points.append((x / self.scale, y / self.scale))
            self.message = self._prompt()
        elif event == cv2.EVENT_RBUTTONDOWN:
            self.undo()

    def undo(self) -> None:
        if self.points:
            self.points.pop()
        self.message = self._prompt()

    def key(self, code: int) -> None:
        """One key press (``cv2.waitKey`` code, -1 for none)."""
        if code < 0 or self.state != "clicking":
            return
        code &= 0xFF
        if code in CANCEL_KEYS:
            self.state = "cancelled"
        elif code in UNDO_KEYS:
            self.undo()
        elif code in ENTER_KEYS and len(self.points) == 4:
            try:
                self.corners = check_corners(np.array(self.points), self.image.shape, "the corners clicked")
            except BadCorners as exc:
                self.points = []
                self.message = f"{exc}; click again"
                return
            self.state = "done"

    def picture(self) -> np.ndarray:
        """The image (scaled to the window) with the corners clicked, their outline and the message."""
        s = self.scale
        out = cv2.resize(self.image, None, fx=s, fy=s, interpolation=cv2.INTER_AREA) if s != 1.0 else self.image.copy()
        pts = [(int(round(x * s)), int(round(y * s))) for x, y in self.points]
        for a, b in zip(pts, pts[1:] + (pts[:1] if len(pts) == 4 else [])):
            cv2.line(out, a, b, _GREEN, 2, cv2.LINE_AA)
        for i, p in enumerate(pts):
            cv2.circle(out, p, 6, _YELLOW, -1, cv2.LINE_AA)
            cv2.putText(out, f"{i + 1} {ORDER_WORDS[i]}", (p[0] + 8, p[1] - 8), cv2.FONT_HERSHEY_SIMPLEX, 0.6, _YELLOW, 2,
                        cv2.LINE_AA)
        colour = _RED if "click again" in self.message else _YELLOW
        cv2.putText(out, self.message[:120], (12, 28), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (0, 0, 0), 4, cv2.LINE_AA)
        cv2.putText(out, self.message[:120], (12, 28), cv2.FONT_HERSHEY_SIMPLEX, 0.6, colour, 2, cv2.LINE_AA)
        return out


def window_scale(shape: tuple[int, ...], longest: int = 1400) -> float:
    """Window px per image px: a large photo is shown at most ``longest`` px wide or high."""
    return min(1.0, longest / max(shape[:2]))


def click_corners(image: np.ndarray, source: str = "the photo") -> np.ndarray:
    """Open a window on ``image`` and return the 4 x 2 corners the person clicks (image px);
    raises CalibrationCancelled on Esc or when the window is closed."""
    clicker = CornerClicker(image, window_scale(image.shape))
    title = TITLE
    cv2.namedWindow(title, cv2.WINDOW_AUTOSIZE)
    cv2.setMouseCallback(title, clicker.mouse)
    try:
        while clicker.state == "clicking":
            cv2.imshow(title, clicker.picture())
            clicker.key(cv2.waitKey(30))
            if clicker.state == "clicking" and cv2.getWindowProperty(title, cv2.WND_PROP_VISIBLE) < 1:
                clicker.state = "cancelled"
    finally:
        try:
            cv2.destroyWindow(title)
        except cv2.error:
            pass
    if clicker.state != "done":
        raise CalibrationCancelled(f"calibration cancelled: no corners clicked for {source}, nothing written")
    return clicker.corners
