"""Hands moving pieces on film: what every recorded game (``simulator.video``,
``simulator.scavenger_hunt_video``) shares.

A ``Film`` is the plan of a video, built action by action before anything is drawn: rests
(the table still; one background, only noise changes) and animated segments (a hand comes in
from outside the frame along its arm, its fingertip visits a list of key points, pieces it
carries follow, then it lifts and leaves). ``write_film`` then draws the plan: each segment's
background (the table and every piece that does not move) once, and per frame only the moving
pieces and the hand, so a frame costs a fraction of a still.

Pieces are kept in ``Film.pieces``, a dict from a key (a cell, a piece's name) to its
``simulator.scene`` piece at rest; the game's code updates it after each action. Heights are
millimetres above the table (see simulator.camera for the frame); a carried piece's ``lift``
is measured from where it rests.

Times in the truth are ``frame / fps`` rounded to the millisecond (``Film.t``), so they do not
depend on the machine that renders.
"""

from __future__ import annotations

import math
import random
from dataclasses import replace
from pathlib import Path
from typing import Callable, Iterable, NamedTuple

import cv2
import numpy as np

from simulator import scene as S
from simulator.camera import CameraSpec
from simulator.errors import SimulatorError
from simulator.render import SKIN_TONES, SLEEVES, Hand, Renderer, camera_for, sample_conditions

REST_HEIGHT = 75.0  # mm: fingertip height while travelling over the board
ENTER_MM, LEAVE_MM = 520.0, 560.0  # how far out along the arm the hand starts and ends (outside the frame)
CODECS = {".mp4": "mp4v", ".avi": "MJPG"}


class HandStyle(NamedTuple):
    """Who moves: the arm's direction (degrees, 0 = from the player's side, as ``Hand.arm_deg``),
    skin and sleeve colours (BGR; no sleeve: a bare forearm) and which hand."""

    arm: float
    tone: tuple[int, int, int]
    sleeve: tuple[int, int, int] | None
    left: bool


def ease(u: float) -> float:
    """Smoothstep on [0, 1]: a hand speeds up and slows down instead of jerking."""
    u = min(max(u, 0.0), 1.0)
    return u * u * (3 - 2 * u)


def random_hand_style(rng: random.Random, arm: float = 0.0, spread: float = 30.0, reverse: float = 0.1) -> HandStyle:
    """A hand of any skin tone, with a sleeve six times in ten, a left hand one time in five;
    the arm comes from ``arm`` degrees give or take ``spread`` (and from across the table one
    time in ``1 / reverse``)."""
    a = rng.gauss(arm, spread) + (180.0 if rng.random() < reverse else 0.0)
    tone = SKIN_TONES[rng.randrange(len(SKIN_TONES))]
    sleeve = SLEEVES[rng.randrange(len(SLEEVES))] if rng.random() < 0.6 else None
    return HandStyle(a, tone, sleeve, rng.random() < 0.2)


def lifted(piece, xy, lift: float, turn: float = 0.0):
    """``piece`` moved to ``xy`` (world mm), raised ``lift`` mm above where it rests and turned
    ``turn`` degrees (a flat piece or a die; a pawn keeps its angle); a raised flat piece casts
    its shadow on the table."""
    angle = {} if turn == 0 else {"angle": piece.angle + turn}
    if isinstance(piece, S.Flat):
        return replace(piece, x=float(xy[0]), y=float(xy[1]), base=piece.base + lift, thickness=piece.thickness + lift,
                       ground=0.0 if lift > 0 else None, **angle)
    if isinstance(piece, S.Pawn):
        return replace(piece, x=float(xy[0]), y=float(xy[1]), base=piece.base + lift)
    if isinstance(piece, S.Die):  # a die in the hand: raised (its shadow falls below it) and turned
        return replace(piece, x=float(xy[0]), y=float(xy[1]), base=piece.base + lift, **angle)
    raise SimulatorError(f"cannot carry {piece!r:.60}")


def action_type(idx: int, act, types: tuple[str, ...]) -> str:
    """The ``type`` of action number ``idx``, one of ``types``; a SimulatorError otherwise."""
    if not isinstance(act, dict) or act.get("type") not in types:
        raise SimulatorError(f"action {idx} {act!r:.80}: expected a dict with type {', '.join(types)}")
    return act["type"]


def check_fps(fps) -> int:
    if not (isinstance(fps, int) and 1 <= fps <= 120):
        raise SimulatorError(f"fps {fps!r}: expected an integer 1 to 120")
    return fps


def video_codec(path: str | Path) -> tuple[Path, str]:
    """``(path, fourcc)``: .mp4 files are written with mp4v, .avi files with MJPG."""
    path = Path(path)
    fourcc = CODECS.get(path.suffix.lower())
    if fourcc is None:
        raise SimulatorError(f"video path {str(path)!r}: expected a .mp4 or .avi file name")
    return path, fourcc


class Film:
    """The plan of a video at ``fps``: segments ``(frames, per_frame, static pieces)``.

    ``per_frame(i)`` gives ``(hand, moving pieces)`` for the segment's frame ``i``; None marks
    a rest. ``rng`` draws every duration, so one seed gives one film.
    """

    def __init__(self, fps: int, rng: random.Random, pieces: dict,
                 reach: Callable[[np.ndarray, np.ndarray], float] | None = None):
        self.fps, self.rng, self.pieces = fps, rng, pieces
        #: how far (mm) along its arm from a key point a hand starts or ends, given (point, unit
        #: vector along the arm); by default ENTER_MM and LEAVE_MM, outside the frame of a camera
        #: that frames an Easy Slider board
        self.reach = reach
        self.plan: list[tuple[int, Callable[[int], tuple[Hand, list]] | None, list]] = []
        self.frame = 0

    def t(self, frame: int) -> float:
        """Seconds of video time of ``frame``, as the truth writes them."""
        return round(frame / self.fps, 3)

    def rest(self, seconds: float) -> None:
        """Nothing moves for ``seconds`` (at least one frame)."""
        n = max(1, int(round(seconds * self.fps)))
        self.plan.append((n, None, [self.pieces[k] for k in sorted(self.pieces)]))
        self.frame += n

    def pause(self, idx: int, act: dict) -> dict:
        """A ``{"type": "pause", "seconds": s}`` action (number ``idx``): the table rests ``s``
        seconds (0 to 60; a SimulatorError otherwise); returns the action as the truth lists it."""
        secs = act.get("seconds")
        if not isinstance(secs, (int, float)) or isinstance(secs, bool) or not 0 <= secs <= 60:
            raise SimulatorError(f"action {idx}: pause seconds {secs!r}: expected 0 to 60")
        self.rest(float(secs))
        return {"type": "pause", "seconds": float(secs)}

    def animate(self, steps: list[dict], style: HandStyle, also: Iterable = ()) -> tuple[int, int]:
        """Add one hand's visit: it comes in along its arm, visits each step, lifts and leaves.

        A step is ``{"to": (x, y) mm, "h": fingertip height mm, "secs": duration, "carry":
        [(key, (xy, lift)) or (key, (xy, lift, turn))], "become": {key: piece}}``: the fingertip
        moves to ``to`` while each carried piece moves to ``xy``, ``lift`` mm above where it
        rested, turned ``turn`` degrees; ``become`` swaps a piece's look (a coin turned over)
        as the step starts. ``also``: keys of pieces that do not move but are drawn over the
        moving ones (pawns standing beside a sliding tile). The moved pieces stay where the
        last step left them until the game's code updates ``pieces``.

        Returns (frame when the last carried piece comes to rest, frame when the hand is gone).
        """
        rng, fps, at = self.rng, self.fps, self.pieces
        a = math.radians(style.arm)
        away = np.array([math.sin(a), math.cos(a)])
        first = np.asarray(steps[0]["to"], float)
        enter = ENTER_MM if self.reach is None else self.reach(first, away)
        keys = [(first + away * enter, REST_HEIGHT + 60, 0.0, [], {})]
        for st in steps:
            keys.append((np.asarray(st["to"], float), st["h"], st["secs"], st.get("carry", []), st.get("become", {})))
        last = keys[-1][0]
        keys.append((last, REST_HEIGHT, 0.25, [], {}))
        leave = LEAVE_MM if self.reach is None else self.reach(last, away) + (LEAVE_MM - ENTER_MM)
        keys.append((last + away * leave, REST_HEIGHT + 60, rng.uniform(0.5, 0.9), [], {}))
        moving_keys = {c[0] for st in steps for c in st.get("carry", [])} | set(also)
        static = [p for key, p in sorted(at.items()) if key not in moving_keys]
        # where each moving piece is: (xy, lift above its rest, turn)
        pos = {key: (np.array([at[key].x, at[key].y]), 0.0, 0.0) for key in moving_keys}
        per_frame = []
        rest_frame = self.frame
        for k in range(1, len(keys)):
            p0, h0 = keys[k - 1][0], keys[k - 1][1]
            p1, h1, secs, carry, become = keys[k]
            at.update(become)
            n = max(1, int(round(secs * fps)))
            starts = {c[0]: pos[c[0]] for c in carry}
            for i in range(1, n + 1):
                u = ease(i / n)
                tip = p0 + (p1 - p0) * u
                h = h0 + (h1 - h0) * u
                for key, goal in carry:
                    s0, l0, a0 = starts[key]
                    target = np.asarray(goal[0], float)
                    turn = goal[2] if len(goal) > 2 else 0.0
                    pos[key] = (s0 + (target - s0) * u, l0 + (goal[1] - l0) * u, a0 + (turn - a0) * u)
                pieces = [lifted(at[key], pos[key][0], pos[key][1], pos[key][2]) for key in sorted(moving_keys)]
                hand = Hand(float(tip[0]), float(tip[1]), float(h), style.arm, style.tone, style.sleeve, style.left)
                per_frame.append((hand, pieces))
            if carry:
                rest_frame = self.frame + len(per_frame)
        self.plan.append((len(per_frame), lambda i, pf=per_frame: pf[i], static))
        end = self.frame + len(per_frame)
        self.frame = end
        return rest_frame, end


def set_down(film: "Film", key, xy, base: float, grip_mm: float, style: HandStyle,
             hop: float = 8.0, become=None) -> tuple[int, int, int]:
    """A hand takes the piece ``key`` of ``film.pieces``, gripping it ``grip_mm`` above its base,
    lifts it ``hop`` mm (more when it climbs onto something higher), carries it in a straight
    line to ``xy`` (mm) and sets it down resting at height ``base`` (mm above the table: a tile's
    top, or the table itself beside the board); ``film.pieces`` is updated. ``become``: the
    piece's new look (a card turned over), taken on as it is lifted. Returns (frame the hand
    starts coming in, frame the piece comes to rest, frame the hand is gone)."""
    rng, p = film.rng, film.pieces[key]
    here, xy = np.array([p.x, p.y]), np.asarray(xy, float)
    dz = base - p.base
    top = p.base + grip_mm
    hop = hop + max(dz, 0.0)
    steps = [
        {"to": here, "h": REST_HEIGHT, "secs": rng.uniform(0.6, 1.0)},
        {"to": here, "h": top, "secs": 0.25},
        {"to": here, "h": top + hop, "secs": 0.2, "carry": [(key, (here, hop))],
         **({} if become is None else {"become": {key: become}})},
        {"to": xy, "h": top + hop, "secs": 0.35 + float(np.linalg.norm(xy - here)) / 400.0, "carry": [(key, (xy, hop))]},
        {"to": xy, "h": top + dz, "secs": 0.2, "carry": [(key, (xy, dz))]},
    ]
    hand_in = film.frame
    rest, end = film.animate(steps, style)
    p = p if become is None else become
    taller = {"thickness": p.thickness + dz} if isinstance(p, S.Flat) else {}
    film.pieces[key] = replace(p, x=float(xy[0]), y=float(xy[1]), base=base, **taller)
    return hand_in, rest, end


def layered(pieces: list) -> list[list]:
    """Tiles, then coins (lowest first), then everything standing (pawns, dice): a coin on a
    carried tile, a coin on a coin and a pawn on a coin are drawn on top, whatever their
    distances to the camera (``write_film``'s ``layers``)."""
    tiles = [p for p in pieces if isinstance(p, S.Flat) and not p.kind.startswith("coin")]
    coins = [p for p in pieces if isinstance(p, S.Flat) and p.kind.startswith("coin")]
    standing = [p for p in pieces if not isinstance(p, S.Flat)]
    heights = sorted({p.base for p in coins})  # a coin set on another is drawn over it
    return [tiles, *([p for p in coins if p.base == h] for h in heights), standing]


def hand_times(film: "Film", frames) -> dict:
    """The truth's times of a hand's action from (frame the hand comes in, frame the pieces rest,
    frame the hand is gone): ``t`` (at rest), ``t_clear`` (the hand gone: the earliest moment a
    camera sees the settled board) and ``t_hand``."""
    hand_in, rest, end = frames[:3]
    return {"t": film.t(rest), "t_clear": film.t(end), "t_hand": film.t(hand_in)}


def square_px(camera: CameraSpec, board, shape: tuple[int, int]) -> float:
    """The shortest side (px) of the board's ``shape`` (rows, cols) squares in ``camera``'s picture (``board``: the
    tile area's outer corners in mm, (4, 3), far-left first, clockwise; lens distortion included)."""
    fl, fr, nr, nl = (np.asarray(p, np.float64) for p in board)
    rows, cols = shape
    j = np.linspace(0.0, 1.0, cols + 1)[None, :, None]
    i = np.linspace(0.0, 1.0, rows + 1)[:, None, None]
    far, near = fl + (fr - fl) * j, nl + (nr - nl) * j
    p = camera.project((far + (near - far) * i).reshape(-1, 3)).reshape(rows + 1, cols + 1, 2)
    return float(min(np.linalg.norm(np.diff(p, axis=1), axis=2).min(), np.linalg.norm(np.diff(p, axis=0), axis=2).min()))


def framed(camera: CameraSpec, board, min_px: float | None, shape: tuple[int, int]) -> CameraSpec:
    """``camera`` moved in along its line of sight (no other change) until the board's squares
    are at least ``min_px`` px at 1280x720 (in proportion at other sizes), or as it is when they
    are already (None: always as it is). Moving in keeps the framed box in view, since the
    random camera stands at or beyond the closest distance that frames it."""
    if min_px is None:
        return camera
    need = min_px * min(camera.width / 1280.0, camera.height / 720.0)
    have = square_px(camera, board, shape)
    if have >= need:
        return camera
    distance = camera.distance_mm * have / need  # the squares shrink about as 1 / distance
    while square_px(replace(camera, distance_mm=float(distance)), board, shape) < need:
        distance -= 5.0
    return replace(camera, distance_mm=round(float(distance), 3))


def outside_frame(rend: Renderer, xy: np.ndarray, away: np.ndarray) -> float:
    """How far (mm) from ``xy`` along the arm's direction ``away`` a hand at travelling height
    draws nothing in the picture, nor its shadow (the board of these videos may fill only part
    of a wide view, so no fixed distance will do)."""
    w, h = rend.size
    a = float(np.degrees(np.arctan2(away[0], away[1])))
    for d in range(400, 4000, 50):
        tip = xy + away * d
        skin, arm, shadow = rend.hand_polys(Hand(float(tip[0]), float(tip[1]), REST_HEIGHT + 60, a, (0, 0, 0)))
        pts = [p for p in skin + arm + shadow if len(p)]
        if all(p[:, 0].max() < 0 or p[:, 0].min() > w or p[:, 1].max() < 0 or p[:, 1].min() > h for p in pts):
            return float(d)
    return 4000.0


def squares_film(fps: int, rng: random.Random, pieces: dict, look, *, seed: int, size: tuple[int, int], extent,
                 board, shape: tuple[int, int], camera: CameraSpec | None, conditions: dict | None,
                 min_square_px: float | None, tilt_range: tuple[float, float],
                 rotation_range: tuple[float, float] | None = None) -> "tuple[Film, Renderer, CameraSpec, dict]":
    """What a recorded game on a board of squares films with: ``camera`` (or, without one, a
    random camera from ``seed`` framing ``extent``, tilted within ``tilt_range`` and standing
    within ``rotation_range`` around the board, moved in until the board's ``shape`` squares are
    ``min_square_px``: ``framed``), the lighting ``conditions`` drawn from ``seed``, a renderer
    (no JPEG pass per frame: the codec compresses) and a ``Film`` whose hands come in and leave
    from outside the picture. Returns (film, renderer, camera, conditions)."""
    drawn = camera is None
    camera = camera_for(camera, seed, size, extent, tilt_range=tilt_range, rotation_range=rotation_range)
    if drawn:
        camera = framed(camera, board, min_square_px, shape)
    cond = sample_conditions(seed, conditions)
    rend = Renderer(camera, look, dict(cond, jpeg=None), seed)
    film = Film(fps, rng, pieces, reach=lambda xy, away: outside_frame(rend, xy, away))
    return film, rend, camera, cond


def exposure_drift(seed: int, stream: int, total: int, flicker: float) -> np.ndarray:
    """Per-frame exposure gain: a smoothed random walk, at most about 1.5% off at full flicker."""
    walk = np.cumsum(np.random.default_rng([seed, stream]).normal(0.0, 1.0, total + 30))
    walk = np.convolve(walk - np.convolve(walk, np.ones(30) / 30, "same"), np.ones(5) / 5, "same")[:total]
    scale = np.abs(walk).max() if total else 1.0
    return 1.0 + float(flicker) * 0.015 * walk / max(scale, 1e-9)


def write_film(
    film: Film,
    path: Path,
    fourcc: str,
    rend: Renderer,
    *,
    seed: int,
    stream: int,
    flicker: float,
    board_px: np.ndarray,
    fixed: list | None = None,
    layers: Callable[[list], list[list]] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> int:
    """Draw ``film`` into the video file ``path``; returns the number of frames written.

    ``fixed``: pieces that never move (drawn into every background). ``layers`` splits a list
    of pieces into lists drawn one after the other (a coin on a carried tile must be drawn
    after the tile, whatever their distances to the camera); by default one list.
    ``stream`` seeds the exposure drift; the noise of frame ``k`` is seeded ``seed * 7919 +
    100 + k``.
    """
    layers = layers or (lambda pieces: [pieces])
    fixed = list(fixed or [])
    path.parent.mkdir(parents=True, exist_ok=True)
    cam = rend.cam
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*fourcc), float(film.fps), (cam.width, cam.height))
    if not writer.isOpened():
        raise SimulatorError(f"cannot open a {fourcc} video writer for {str(path)!r}")
    total = sum(n for n, _, _ in film.plan)
    done = 0
    drift = exposure_drift(seed, stream, total, flicker)
    table = rend.table()
    try:
        for n, per_frame, static in film.plan:
            background = table.copy()
            for layer in layers(fixed + static):
                rend.draw_scene(background, layer)
            rend.glare(background, board_px)
            still = None
            for i in range(n):
                exposure = float(drift[done])
                if per_frame is None:
                    if still is None:
                        still = rend.finish(background, 0, noise=False)
                    img = rend.add_noise(cv2.convertScaleAbs(still, alpha=exposure) if exposure != 1.0 else still,
                                         seed * 7919 + 100 + done)
                else:
                    hand, pieces = per_frame(i)
                    canvas = background.copy()
                    for layer in layers(pieces):
                        rend.draw_scene(canvas, layer)
                    rend.draw_hands(canvas, [hand])
                    img = rend.finish(canvas, seed * 7919 + 100 + done, exposure=exposure)
                writer.write(img)
                done += 1
                if progress is not None:
                    progress(done, total)
    finally:
        writer.release()
    return total


def video_truth(game: str, film: Film, camera: CameraSpec, look_name: str, cond: dict, seed: int, **game_keys) -> dict:
    """The truth every recorded game has: ``game``, ``fps``, ``size``, ``frames``,
    ``duration``, then the game's own keys (start, end, events, timeline, actions), then
    ``camera``, ``look``, ``conditions``, ``seed``."""
    total = sum(n for n, _, _ in film.plan)
    return {
        "game": game,
        "fps": film.fps,
        "size": [camera.width, camera.height],
        "frames": total,
        "duration": round(total / film.fps, 3),
        **game_keys,
        "camera": camera.to_json(),
        "look": look_name,
        "conditions": {k: (round(v, 4) if isinstance(v, float) else v) for k, v in cond.items()},
        "seed": seed,
    }
