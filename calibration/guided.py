"""The guided calibration flow: the Caller deals and announces a setup, the player lays it out,
confirms, and the camera takes the photo; the announced layout is the truth.

The flow is written against small callables (``announce``, ``ask``) and a frame source so
that it runs the same on a terminal with a webcam and in a test with scripted input and a
recorded image standing in for the camera.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

import rules
from calibration.errors import CalibrationError
from calibration.truth import GAME, Truth, truth_from_json

CONFIRM_PROMPT = "Lay the pieces out as announced, then press Enter to take the photo (q to quit): "
WARMUP_FRAMES = 15  # a webcam's first frames are dark or mid auto-exposure; keep the newest after these


class CalibrationCancelled(CalibrationError):
    """The player quit the guided flow before the photo was taken."""

    exit_status = 1


@dataclass(frozen=True)
class GuidedShot:
    """The photo (H x W x 3 uint8 BGR), the announced layout as its truth, and the lines spoken."""

    image: np.ndarray
    truth: Truth
    lines: tuple[str, ...]
    seed: int


def setup_announcement(seed: int) -> tuple[Truth, list[str]]:
    """The Caller's deal for ``seed`` as a Truth, and its announcement (the phrasebook's setup lines)."""
    game = rules.get(GAME)
    state = game.setup(seed=seed)
    truth = truth_from_json(game.to_json(state), source=f"setup seed {seed}")
    from voice.phrasebook import setup_lines

    return truth, list(setup_lines(GAME, state))


def take_photo(source, warmup: int = WARMUP_FRAMES) -> np.ndarray:
    """One frame from an open ``caller.sources`` FrameSource: the newest after ``warmup`` frames
    for a live camera, the first frame of a file or folder."""
    image = None
    for i, frame in enumerate(source):
        image = frame.image
        if not source.live or i >= warmup:
            break
    if image is None:
        raise CalibrationError(f"{source.description or 'the source'} gave no frame: is the camera connected?")
    return image


def guided_shot(
    seed: int,
    open_source: Callable[[], object],
    *,
    announce: Callable[[list[str]], None],
    ask: Callable[[str], str],
    warmup: int = WARMUP_FRAMES,
) -> GuidedShot:
    """Announce the setup of ``seed``, wait for the player's Enter, take the photo.

    ``open_source()`` opens the camera (a FrameSource, closed here) only once the player has
    confirmed, so the newest frame shows the finished layout. ``ask(prompt)`` returns the
    player's answer; "q" or end of input cancels (CalibrationCancelled); "r" repeats the
    announcement.
    """
    truth, lines = setup_announcement(seed)
    announce(lines)
    while True:
        try:
            answer = ask(CONFIRM_PROMPT)
        except EOFError:
            raise CalibrationCancelled("calibration cancelled: no confirmation that the pieces are laid out") from None
        answer = (answer or "").strip().lower()
        if answer in ("q", "quit", "exit"):
            raise CalibrationCancelled("calibration cancelled by the player")
        if answer in ("r", "repeat"):
            announce(lines)
            continue
        break
    source = open_source()
    try:
        image = take_photo(source, warmup)
    finally:
        source.close()
    return GuidedShot(image=image, truth=truth, lines=tuple(lines), seed=seed)
