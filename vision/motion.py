"""Motion gating: is the scene moving (a hand, a sliding tile) or has it settled?

Cheap enough to run on every frame (a 160 px wide grey thumbnail and one absdiff), so the
expensive board reader runs only on still frames. Units: ``t`` in seconds of source time.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.config import MotionConfig

__all__ = ["MotionConfig", "MotionGate", "MotionState"]


@dataclass(frozen=True)
class MotionState:
    moving: bool  # this frame differs from the previous one
    still: bool  # no motion for at least ``MotionConfig.settle_s``
    still_since: float | None  # source time at which the current still period began
    changed_fraction: float  # fraction of thumbnail pixels that changed since the previous frame


class MotionGate:
    """Feed frames in order with ``update(image, t)``; read ``MotionState``.

    ``changed_since_mark()`` tells whether the scene differs from the frame at the last
    ``mark()``: the live Caller marks a frame when it reads it and skips reading identical
    still frames afterwards.
    """

    def __init__(self, config: MotionConfig | None = None):
        self.config = config or MotionConfig()
        self._prev: np.ndarray | None = None
        self._mark: np.ndarray | None = None
        self._last_motion_t: float | None = None
        self._still_since: float | None = None
        self._moved_since_mark = True

    def _thumb(self, image: np.ndarray) -> np.ndarray:
        if image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
            raise ValueError(f"expected an HxWx3 uint8 image, got {image.shape} {image.dtype}")
        h, w = image.shape[:2]
        tw = self.config.thumb_width
        th = max(1, round(h * tw / w))
        small = cv2.resize(image, (tw, th), interpolation=cv2.INTER_AREA)
        grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
        return cv2.GaussianBlur(grey, (3, 3), 0)

    def _fraction(self, a: np.ndarray, b: np.ndarray) -> float:
        diff = cv2.absdiff(a, b)
        return float(np.count_nonzero(diff > self.config.pixel_threshold)) / diff.size

    def update(self, image: np.ndarray, t: float) -> MotionState:
        thumb = self._thumb(image)
        frac = 0.0 if self._prev is None else self._fraction(thumb, self._prev)
        self._prev = thumb
        moving = frac > self.config.moving_fraction
        if moving:
            self._moved_since_mark = True
        if moving or self._last_motion_t is None:
            self._last_motion_t = t
            self._still_since = None
        still = (t - self._last_motion_t) >= self.config.settle_s - 1e-9 and not moving
        if still and self._still_since is None:
            self._still_since = t
        if not still:
            self._still_since = None
        return MotionState(moving, still, self._still_since, frac)

    def mark(self) -> None:
        """Remember the current frame as the last one that was read."""
        self._mark = self._prev
        self._moved_since_mark = False

    def changed_since_mark(self) -> bool:
        """Whether the scene may differ from the frame at the last ``mark()``: it moved since
        (a hand came and went: one tile slid on a small, distant board changes too few
        thumbnail pixels to tell by comparing the two frames alone), or it differs from it."""
        if self._mark is None or self._prev is None or self._moved_since_mark:
            return True
        return self._fraction(self._prev, self._mark) > self.config.moving_fraction
