"""Pictures encoded in memory and written with Python's own file calls.

``cv2.imwrite`` writes through libpng/libjpeg, which print their own complaint on stderr
when the disk fills and leave a broken file behind. Encoding first and writing the bytes
makes a full disk an ordinary ``OSError``, which the safe-writing outputs report in one
line and clean up.
"""

from __future__ import annotations

from os import PathLike
from pathlib import Path
from typing import Sequence

import cv2
import numpy as np


def encode(path: str | PathLike, image: np.ndarray, params: Sequence[int] = ()) -> bytes:
    """``image`` encoded in the format the suffix of ``path`` names (.png, .jpg ...).
    Raises ValueError for a suffix OpenCV cannot encode."""
    suffix = Path(path).suffix.lower()
    try:
        ok, buf = cv2.imencode(suffix, image, list(params))
    except cv2.error:
        ok, buf = False, None
    if not ok:
        raise ValueError(f"cannot encode a picture as {suffix or 'a file without a suffix'}")
    return buf.tobytes()


def write(path: str | PathLike, image: np.ndarray, params: Sequence[int] = (), *, like: str | PathLike | None = None) -> None:
    """Write ``image`` to ``path`` in the format of ``like``'s suffix (default: ``path``'s own;
    a temporary file's name rarely has the right one)."""
    data = encode(like if like is not None else path, image, params)
    with open(path, "wb") as f:
        f.write(data)
