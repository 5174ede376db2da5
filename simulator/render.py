"""Photographic renders of a piecepack table with exact truth.

``render_table(layout, seed=...)`` is the entry point. The pipeline, chosen for speed:

1. the table texture (wood, felt, cloth, laminate) is made in table-plane millimetres and
   warped into an ideal pinhole canvas with the table-plane homography;
2. soft shadows (low-frequency masks, blurred) darken the table;
3. flat pieces (tiles, coins, cards) get their visible side faces as projected polygons and
   their top faces as look sprites warped by a per-piece homography into a small ROI;
   pawns and dice are projected solids; hands and forearms come last;
4. light: a low-frequency gain field (direction, unevenness, vignette), white balance, glare;
5. lens distortion by one cached ``cv2.remap`` from the ideal canvas to the final frame;
6. defocus blur, sensor noise, JPEG.

Everything random comes from ``seed`` through independent streams (camera, scene jitter,
conditions, hands, noise), so fixing one of them (e.g. passing ``camera=``) leaves the others
unchanged. The same seed and arguments give identical bytes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from simulator import looks as L
from simulator import scene as S
from simulator import tables as T
from simulator.camera import CameraSpec, plane_homography, random_camera, undistort_source_map
from simulator.errors import SimulatorError

TABLES = ("wood", "felt", "cloth", "laminate")  # the surfaces sample_conditions draws from
ALL_TABLES = TABLES + T.EDITION_TABLES  # what a "table" condition may name
COVER_FRACTION = 0.10  # a cell is "covered" when a hand hides more than this share of its tile top
SKIN_TONES: tuple[tuple[int, int, int], ...] = (
    (189, 214, 244), (150, 185, 226), (118, 160, 205), (88, 128, 176), (60, 92, 139), (42, 62, 96),
)
SLEEVES: tuple[tuple[int, int, int], ...] = ((70, 50, 40), (160, 160, 160), (40, 40, 120), (110, 80, 30), (35, 35, 35))

# stream ids for np.random.default_rng([seed, STREAM]) (SCENE_STREAM: the recorded games draw their scenes too)
_CAMERA, SCENE_STREAM, _COND, _HANDS, _NOISE, _TABLE = 1, 2, 3, 4, 5, 6


@dataclass(frozen=True)
class Render:
    """One rendered still: ``image`` HxWx3 uint8 BGR, ``truth`` a JSON-ready dict."""

    image: np.ndarray
    truth: dict


CONDITION_KEYS = ("table", "table_colour", "light_azimuth", "light_elevation", "shadow", "exposure", "uneven",
                  "vignette", "white_balance", "glare", "blur", "noise", "jpeg", "flicker")

#: conditions that sample_conditions never draws (procedural editions set them): spot 0..1
#: (a lamp's pool of light on the board, dark around it), window 0..1 (daylight through a
#: window: a bright patch crossed by the shadows of its bars), shadow_soft (mm: how blurred
#: the pieces' shadows are; 1.2 unless given, 0.3 is a hard point light)
EXTRA_CONDITION_KEYS = ("spot", "window", "shadow_soft")

CLEAN = {"shadow": 0.35, "exposure": 1.0, "uneven": 0.0, "vignette": 0.0, "white_balance": 0.0, "glare": 0.0,
         "blur": 0.0, "noise": 0.0, "jpeg": None, "flicker": 0.0}


def sample_conditions(seed: int, overrides: dict | None = None) -> dict:
    """The seed's lighting and capture conditions, with ``overrides`` taking precedence.

    table: wood|felt|cloth|laminate; light_azimuth (deg, where the light comes from, in the
    player's frame: 0 = from the far side) and light_elevation (deg above the table);
    shadow 0..1 (darkness of shadows); exposure (gain, 1 = nominal); uneven 0..1 (light falls
    off across the scene); vignette 0..1; white_balance -1 (warm lamp) .. +1 (cold window);
    glare 0..1; blur (defocus sigma, px of the final image); noise (sensor sigma, 8-bit
    units); jpeg (quality 1-100 or None for no compression); flicker 0..1 (videos only: the
    exposure drifts by up to about 1.5% from frame to frame, as webcam auto-exposure and mains
    lighting do).
    """
    overrides = dict(overrides or {})
    allowed = CONDITION_KEYS + EXTRA_CONDITION_KEYS
    unknown = set(overrides) - set(allowed)
    if unknown:
        raise SimulatorError(f"unknown condition(s) {sorted(unknown)}: expected some of {', '.join(allowed)}")
    rng = np.random.default_rng([seed, _COND])
    c = {
        "table": TABLES[int(rng.integers(len(TABLES)))],
        "table_colour": int(rng.integers(1 << 16)),
        "light_azimuth": float(rng.uniform(0, 360)),
        "light_elevation": float(rng.uniform(35, 75)),
        "shadow": float(rng.uniform(0.25, 0.6)),
        "exposure": float(rng.uniform(0.8, 1.12)),
        "uneven": float(rng.uniform(0.0, 0.45)),
        "vignette": float(rng.uniform(0.0, 0.35)),
        "white_balance": float(rng.uniform(-1.0, 1.0)),
        "glare": float(rng.uniform(0.0, 1.0)) if rng.random() < 0.5 else 0.0,
        "blur": float(rng.uniform(0.0, 1.3)),
        "noise": float(rng.uniform(0.5, 5.0)),
        "jpeg": int(rng.integers(65, 96)),
        "flicker": float(rng.uniform(0.0, 1.0)),
    }
    c.update(overrides)
    if c["table"] not in ALL_TABLES:
        raise SimulatorError(f"unknown table {c['table']!r}: expected one of {', '.join(ALL_TABLES)}")
    return c


# ---------------------------------------------------------------------------------------------
# hands


@dataclass(frozen=True)
class Hand:
    """A hand reaching over the table: the index fingertip at (x, y, tip_height) world mm;
    the forearm runs away from the tip along ``arm_deg`` (0 = towards the player, +y)."""

    x: float
    y: float
    tip_height: float
    arm_deg: float
    skin: tuple[int, int, int]
    sleeve: tuple[int, int, int] | None = None
    left: bool = False


def _capsule(p0, p1, r, n=10) -> np.ndarray:
    p0, p1 = np.asarray(p0, float), np.asarray(p1, float)
    d = p1 - p0
    a = math.atan2(d[1], d[0])
    t0 = np.linspace(a + math.pi / 2, a + 3 * math.pi / 2, n)
    t1 = np.linspace(a - math.pi / 2, a + math.pi / 2, n)
    return np.vstack([p0 + r * np.column_stack([np.cos(t0), np.sin(t0)]), p1 + r * np.column_stack([np.cos(t1), np.sin(t1)])])


def _hand_parts() -> list[tuple[str, np.ndarray]]:
    """Hand outline parts in local mm: u across the hand, v from the fingertip towards the elbow."""
    parts = [
        ("skin", _capsule((0, 0), (2, 62), 8.5)),
        ("skin", _capsule((17, 40), (18, 72), 9.0)),
        ("skin", _capsule((32, 48), (34, 78), 8.5)),
        ("skin", _capsule((45, 60), (46, 86), 7.5)),
        ("skin", _capsule((-24, 70), (-14, 108), 9.5)),
        ("skin", np.array([[-12, 58], [52, 66], [54, 130], [22, 148], [-18, 140], [-22, 95]], float)),
        ("skin", np.array([[-16, 128], [52, 124], [56, 220], [-18, 226]], float)),
        ("arm", np.array([[-18, 215], [56, 210], [66, 900], [-26, 905]], float)),
    ]
    return parts


def random_hand(rng: np.random.Generator, target: tuple[float, float], *, touching: bool, base_height: float) -> Hand:
    arm = float(rng.normal(0, 35)) + (180.0 if rng.random() < 0.15 else 0.0)
    tone = SKIN_TONES[int(rng.integers(len(SKIN_TONES)))]
    tone = tuple(int(np.clip(v * rng.uniform(0.94, 1.06), 0, 255)) for v in tone)
    sleeve = SLEEVES[int(rng.integers(len(SLEEVES)))] if rng.random() < 0.6 else None
    h = base_height + (1.5 if touching else float(rng.uniform(18, 70)))
    return Hand(float(target[0] + rng.normal(0, 4)), float(target[1] + rng.normal(0, 4)), h, arm, tone, sleeve,
                bool(rng.random() < 0.2))


# ---------------------------------------------------------------------------------------------
# table textures


_smooth = T.smooth


def table_texture(kind: str, colour_seed: int, rng: np.random.Generator, shape: tuple[int, int], px_per_mm: float) -> np.ndarray:
    """A uint8 BGR texture (rows, cols) of a table surface at ``px_per_mm``."""
    h, w = shape
    crng = np.random.default_rng(colour_seed)
    if kind == "wood":
        base = np.array([crng.uniform(40, 95), crng.uniform(80, 140), crng.uniform(125, 190)], np.float32)
        img = T.wood(base, crng, rng, shape, px_per_mm)
    elif kind == "felt":
        palette = [(60, 110, 40), (110, 70, 30), (80, 80, 85), (40, 40, 110), (50, 90, 70)]
        base = np.array(palette[int(crng.integers(len(palette)))], np.float32) * crng.uniform(0.8, 1.2)
        fine = cv2.GaussianBlur(rng.standard_normal(shape).astype(np.float32), (0, 0), 0.8) * 0.06
        img = base[None, None, :] * (1.0 + fine + 0.04 * _smooth(rng, shape, 8))[..., None]
    elif kind == "cloth":
        c1 = np.array([crng.uniform(150, 240), crng.uniform(150, 240), crng.uniform(150, 240)], np.float32)
        c2 = c1 * crng.uniform(0.45, 0.75)
        y = (np.arange(h, dtype=np.float32)[:, None]) / px_per_mm
        x = (np.arange(w, dtype=np.float32)[None, :]) / px_per_mm
        check = float(crng.uniform(15, 40))
        bx = ((x // check) % 2).astype(np.float32)
        by = ((y // check) % 2).astype(np.float32)
        mix = (bx + by) / 2.0
        weave = 0.04 * float(np.clip((1.2 * px_per_mm - 2.5) / 3.0, 0, 1)) * np.sin(x * 2 * np.pi / 1.2) * np.sin(y * 2 * np.pi / 1.2)
        img = (c1[None, None, :] * (1 - mix[..., None]) + c2[None, None, :] * mix[..., None]) * (1 + weave[..., None])
        img *= (1.0 + 0.03 * _smooth(rng, shape, 8))[..., None]
    elif kind == "laminate":
        v = crng.uniform(225, 245)
        base = np.array([v * crng.uniform(0.97, 1.0), v, v * crng.uniform(0.98, 1.01)], np.float32)
        speck = (rng.random(shape, dtype=np.float32) < 0.004).astype(np.float32) * -40
        img = base[None, None, :] * (1.0 + 0.02 * _smooth(rng, shape, 5))[..., None] + speck[..., None]
    elif kind in T.EDITION_TABLES:
        img = T.texture(kind, colour_seed, rng, shape, px_per_mm)
    else:
        raise SimulatorError(f"unknown table {kind!r}: expected one of {', '.join(ALL_TABLES)}")
    return np.clip(img, 0, 255).astype(np.uint8)


# ---------------------------------------------------------------------------------------------
# the renderer


_AA = cv2.LINE_AA
_SH = 4


def _soft(img: np.ndarray, sigma: float) -> np.ndarray:
    """Gaussian blur; wide ones run on a downscaled copy (same look, a fraction of the cost)."""
    if sigma <= 3.0:
        return cv2.GaussianBlur(img, (0, 0), sigma)
    h, w = img.shape[:2]
    f = int(min(8, sigma // 1.5))
    small = cv2.resize(img, (max(1, w // f), max(1, h // f)), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), sigma / f)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def _ipts(p: np.ndarray) -> np.ndarray:
    return np.round(np.asarray(p) * (1 << _SH)).astype(np.int32).reshape(-1, 1, 2)


class Renderer:
    """Draws scenes for one camera, look and set of conditions; reusable across video frames."""

    def __init__(self, camera: CameraSpec, look: L.Look, cond: dict, seed: int):
        self.cam, self.look, self.cond, self.seed = camera, look, cond, seed
        self.map_x, self.map_y, (ox, oy, W, H) = undistort_source_map(camera)
        self.maps = cv2.convertMaps(self.map_x, self.map_y, cv2.CV_16SC2)
        self.size = (W, H)
        self.distorted = any(camera.dist)
        R, t, C = camera.pose()
        self.R, self.t, self.C = R, t, C
        K = camera.K.copy()
        K[0, 2] -= ox
        K[1, 2] -= oy
        self.Kr = K
        self.P = K @ np.column_stack([R, t])
        az, el = math.radians(cond["light_azimuth"]), math.radians(cond["light_elevation"])
        # light comes FROM direction (sin az, -cos az) in the player's frame (0 = far side)
        self.light_h = np.array([math.sin(az), -math.cos(az)])
        self.shadow_len = 1.0 / math.tan(el)
        self._gain = None

    # geometry ----------------------------------------------------------------------------
    def proj(self, pts: np.ndarray) -> np.ndarray:
        """World points (N, 3) -> ideal canvas pixels (N, 2)."""
        p = np.asarray(pts, np.float64).reshape(-1, 3)
        q = p @ self.P[:, :3].T + self.P[:, 3]
        z = np.maximum(q[:, 2:3], 1e-3)
        return q[:, :2] / z

    def depth(self, pts: np.ndarray) -> np.ndarray:
        p = np.asarray(pts, np.float64).reshape(-1, 3)
        return p @ self.R[2] + self.t[2]

    def H(self, height: float) -> np.ndarray:
        return plane_homography(self.Kr, self.R, self.t, height)

    def px_per_mm(self, pts3: np.ndarray, mm: float) -> float:
        p = self.proj(pts3)
        d = np.linalg.norm(np.roll(p, -1, 0) - p, axis=1)
        return float(d.max() / mm)

    def shadow_offset(self, height: float) -> np.ndarray:
        return -self.light_h * height * self.shadow_len

    # layers --------------------------------------------------------------------------------
    def table(self) -> np.ndarray:
        W, H = self.size
        tx, ty = self.cam.target
        # texels about as fine as the image near the board; a tilted wide lens can see to near the
        # horizon, so the texture covers a square around the board and repeats (mirrored) beyond it
        scale = self.px_per_mm(np.array([[tx, ty, 0], [tx + 10, ty, 0], [tx + 10, ty + 10, 0], [tx, ty + 10, 0]]), 10.0)
        res = float(np.clip(0.8 * scale, 0.35, 2.0))
        half = min(2500.0, 1100.0 / (2 * res))
        x0, y0 = tx - half, ty - half
        tw = th = int(math.ceil(2 * half * res)) + 2
        rng = np.random.default_rng([self.seed, _TABLE])
        tex = table_texture(self.cond["table"], self.cond["table_colour"], rng, (th, tw), res)
        A = np.array([[1 / res, 0, x0], [0, 1 / res, y0], [0, 0, 1]])
        M = self.H(0.0) @ A
        # warp in 8 bits (several times faster than float), then work in float
        return cv2.warpPerspective(tex, M, (W, H), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT).astype(np.float32)

    def shadow_polys(self, piece) -> list[np.ndarray]:
        """Canvas polygons of the shadow ``piece`` casts on the surface it stands on."""
        out = []
        if isinstance(piece, S.Flat):
            ground = piece.base if piece.ground is None else piece.ground
            low = piece.outline(piece.base, 16) + np.r_[self.shadow_offset(piece.base - ground), 0.0]
            high = piece.outline(piece.thickness, 16) + np.r_[self.shadow_offset(piece.thickness - ground), 0.0]
            pts = np.vstack([low, high])
            pts[:, 2] = -ground
            out.append(cv2.convexHull(self.proj(pts).astype(np.float32)).reshape(-1, 2))
        elif isinstance(piece, S.Pawn):
            for h, r in piece.profile()[::2]:
                t = np.linspace(0, 2 * np.pi, 16, endpoint=False)
                off = self.shadow_offset(h)
                pts = np.column_stack([piece.x + off[0] + r * np.cos(t), piece.y + off[1] + r * np.sin(t), np.full(16, -piece.base)])
                out.append(self.proj(pts))
            out = [cv2.convexHull(np.vstack(out).astype(np.float32)).reshape(-1, 2)]
        elif isinstance(piece, S.Die):
            f = S.Flat("die", "", piece.x, piece.y, piece.angle, L.DIE_MM, L.DIE_MM, piece.base + L.DIE_MM, base=piece.base)
            return self.shadow_polys(f)
        return out

    def apply_shadows(self, canvas: np.ndarray, pieces: list, sigma_mm: float, strength: float) -> None:
        if not pieces:
            return
        W, H = self.size
        mask = np.zeros((H, W), np.uint8)
        for piece in pieces:
            for p in self.shadow_polys(piece):
                # one call per polygon: a multi-polygon fillPoly XORs where they overlap
                cv2.fillPoly(mask, [_ipts(p)], 255, _AA, _SH)
        self._darken(canvas, mask, sigma_mm, strength)

    def _darken(self, canvas, mask, sigma_mm, strength) -> None:
        bx, by, bw, bh = cv2.boundingRect(mask)
        if bw == 0 or bh == 0:
            return
        scale = self.px_per_mm(np.array([[0, 0, 0], [10, 0, 0], [10, 10, 0], [0, 10, 0]], float) + [*self.cam.target, 0], 10.0)
        sig = max(0.6, sigma_mm * scale)
        pad = int(3 * sig) + 2
        H, W = mask.shape
        x0, x1 = max(0, bx - pad), min(W, bx + bw + pad)
        y0, y1 = max(0, by - pad), min(H, by + bh + pad)
        roi = _soft(mask[y0:y1, x0:x1].astype(np.float32) * (strength / 255.0), sig)
        canvas[y0:y1, x0:x1] *= (1.0 - roi)[..., None]

    # pieces --------------------------------------------------------------------------------
    def _blit(self, canvas: np.ndarray, spr: np.ndarray, M: np.ndarray, tint: float = 1.0) -> None:
        """Composite a premultiplied BGRA sprite through homography M (sprite px -> canvas px)."""
        h, w = spr.shape[:2]
        c = np.array([[-0.5, -0.5, 1], [w - 0.5, -0.5, 1], [w - 0.5, h - 0.5, 1], [-0.5, h - 0.5, 1]]) @ M.T
        c = c[:, :2] / c[:, 2:3]
        W, H = self.size
        x0, y0 = max(0, int(math.floor(c[:, 0].min())) - 1), max(0, int(math.floor(c[:, 1].min())) - 1)
        x1, y1 = min(W, int(math.ceil(c[:, 0].max())) + 2), min(H, int(math.ceil(c[:, 1].max())) + 2)
        if x1 <= x0 or y1 <= y0:
            return
        T = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], float)
        warped = cv2.warpPerspective(spr, T @ M, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                                     borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0)).astype(np.float32)
        a = warped[..., 3:4] * (1.0 / 255.0)
        roi = canvas[y0:y1, x0:x1]
        roi *= 1.0 - a
        roi += warped[..., :3] * tint

    def _fill(self, canvas: np.ndarray, poly: np.ndarray, colour) -> None:
        W, H = self.size
        p = np.asarray(poly)
        x0, y0 = max(0, int(p[:, 0].min()) - 1), max(0, int(p[:, 1].min()) - 1)
        x1, y1 = min(W, int(p[:, 0].max()) + 2), min(H, int(p[:, 1].max()) + 2)
        if x1 <= x0 or y1 <= y0:
            return
        m = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillPoly(m, [_ipts(p - [x0, y0])], 255, _AA, _SH)
        a = m.astype(np.float32)[..., None] * (1.0 / 255.0)
        roi = canvas[y0:y1, x0:x1]
        roi *= 1.0 - a
        roi += a * np.asarray(colour, np.float32)

    def _side_shade(self, normal_xy: np.ndarray) -> float:
        return 0.55 + 0.4 * max(0.0, float(normal_xy @ self.light_h))

    def draw_flat(self, canvas: np.ndarray, f: S.Flat) -> None:
        low, high = f.outline(f.base), f.outline(f.thickness)
        side = np.asarray(f.side, np.float32)
        if f.disc:
            hull = cv2.convexHull(self.proj(np.vstack([low, high])).astype(np.float32)).reshape(-1, 2)
            self._fill(canvas, hull, side * 0.72)
        else:
            centre = np.array([f.x, f.y])
            for i in range(4):
                j = (i + 1) % 4
                mid = (high[i, :2] + high[j, :2]) / 2
                n = (mid - centre) / max(np.linalg.norm(mid - centre), 1e-9)
                to_cam = self.C[:2] - mid
                # visible when the camera is on the outward side of the face
                if n @ to_cam <= 0:
                    continue
                quad = self.proj(np.array([high[i], high[j], low[j], low[i]]))
                self._fill(canvas, quad, side * self._side_shade(n))
        top = f.corners()
        scale = self.px_per_mm(top, max(f.w, f.h)) * (max(f.w, f.h) / min(f.w, f.h))
        if f.kind == "die":
            spr, _ = L.sprite(self.look, "die", f.code, scale)
        else:
            spr, _ = L.sprite(self.look, f.kind, f.code, scale)
        sh, sw = spr.shape[:2]
        sx, sy = sw / f.w, sh / f.h
        A = np.array([[1 / sx, 0, 0.5 / sx - f.w / 2], [0, 1 / sy, 0.5 / sy - f.h / 2], [0, 0, 1]])
        a = math.radians(f.angle)
        Rt = np.array([[math.cos(a), -math.sin(a), f.x], [math.sin(a), math.cos(a), f.y], [0, 0, 1]])
        self._blit(canvas, spr, self.H(f.thickness) @ Rt @ A, f.shade)

    def draw_pawn(self, canvas: np.ndarray, p: S.Pawn) -> None:
        colour = np.asarray(self.look.pawn_ink(p.suit), np.float32)
        # black pawns need some albedo or they read as holes
        colour = np.maximum(colour, 28.0)
        prof = p.profile()
        t = np.linspace(0, 2 * np.pi, 24, endpoint=False)
        ct, st = np.cos(t), np.sin(t)
        top = prof[-1][0]
        for k, (h, r) in enumerate(prof):
            pts = np.column_stack([p.x + r * ct, p.y + r * st, np.full(24, -(p.base + h))])
            self._fill(canvas, self.proj(pts), colour * (0.55 + 0.2 * h / top))
            if r > 1.0 and k % 2 == 1:
                off = self.light_h * r * 0.35
                pts = np.column_stack([p.x + off[0] + 0.55 * r * ct, p.y + off[1] + 0.55 * r * st, np.full(24, -(p.base + h))])
                self._fill(canvas, self.proj(pts), np.minimum(colour * (0.85 + 0.25 * h / top) + 12, 255))
        h = prof[-1][0] + p.base
        off = self.light_h * 1.8
        pts = np.column_stack([p.x + off[0] + 1.2 * ct, p.y + off[1] + 1.2 * st, np.full(24, -h)])
        self._fill(canvas, self.proj(pts), np.minimum(colour * 0.5 + 130, 255))

    def draw_die(self, canvas: np.ndarray, d: S.Die) -> None:
        f = S.Flat("die", d.suit + d.face, d.x, d.y, d.angle, L.DIE_MM, L.DIE_MM, d.base + L.DIE_MM,
                   side=tuple(int(v * 0.9) for v in self.look.die_face), base=d.base)
        self.draw_flat(canvas, f)

    def draw(self, canvas: np.ndarray, piece) -> None:
        if isinstance(piece, S.Flat):
            self.draw_flat(canvas, piece)
        elif isinstance(piece, S.Pawn):
            self.draw_pawn(canvas, piece)
        elif isinstance(piece, S.Die):
            self.draw_die(canvas, piece)
        else:
            raise SimulatorError(f"cannot draw {piece!r}")

    def order(self, pieces: list) -> list:
        """Far pieces first, so nearer ones overlap them."""
        cx, cy = self.C[0], self.C[1]
        return sorted(pieces, key=lambda p: -((p.x - cx) ** 2 + (p.y - cy) ** 2))

    def draw_scene(self, canvas: np.ndarray, pieces: list) -> None:
        """Shadows and pieces: ground-level flats, then what stands on them or on the table."""
        shadow = self.cond["shadow"]
        soft = float(self.cond.get("shadow_soft", 1.2))
        ground = [p for p in pieces if isinstance(p, S.Flat) and p.base == 0]
        upper = [p for p in pieces if p not in ground]
        self.apply_shadows(canvas, [p for p in pieces if p.base == 0], soft, shadow)
        for p in self.order(ground):
            self.draw(canvas, p)
        self.apply_shadows(canvas, [p for p in upper if p.base > 0], soft, shadow)
        for p in self.order(upper):
            self.draw(canvas, p)

    # hands ---------------------------------------------------------------------------------
    def hand_polys(self, hand: Hand) -> tuple[list[np.ndarray], list[np.ndarray], list[np.ndarray]]:
        """(skin polygons, sleeve-or-arm polygons, shadow polygons) in canvas pixels."""
        a = math.radians(hand.arm_deg)
        ev = np.array([math.sin(a), math.cos(a)])  # from the tip towards the elbow
        eu = np.array([ev[1], -ev[0]]) * (-1 if hand.left else 1)
        cam_h = -self.C[2]
        skin, arm, shadow = [], [], []
        for what, poly in _hand_parts():
            u, v = poly[:, 0], poly[:, 1]
            height = hand.tip_height + np.where(v < 130, v * 0.25, 32.5 + (v - 130) * 0.3)
            height = np.minimum(height, cam_h * 0.55)
            xy = np.array([hand.x, hand.y]) + u[:, None] * eu + v[:, None] * ev
            pts = np.column_stack([xy, -height])
            if (self.depth(pts) < 30).any():
                keep = self.depth(pts) >= 30
                pts = pts[keep]
                if len(pts) < 3:
                    continue
            img = self.proj(pts)
            (skin if what == "skin" or hand.sleeve is None else arm).append(img)
            ground = pts.copy()
            off = self.shadow_offset(1.0)
            ground[:, 0] += off[0] * (-pts[:, 2])
            ground[:, 1] += off[1] * (-pts[:, 2])
            ground[:, 2] = -self.look.tile_thickness_mm
            shadow.append(self.proj(ground))
        return skin, arm, shadow

    def draw_hands(self, canvas: np.ndarray, hands: list[Hand]) -> np.ndarray:
        """Draw hands (shadows first) and return their coverage mask (uint8, canvas size)."""
        W, H = self.size
        cover = np.zeros((H, W), np.uint8)
        if not hands:
            return cover
        shadow_mask = np.zeros((H, W), np.uint8)
        drawn = []
        for hand in hands:
            skin, arm, shadow = self.hand_polys(hand)
            for p in shadow:
                cv2.fillPoly(shadow_mask, [_ipts(p)], 255, _AA, _SH)
            drawn.append((hand, skin, arm))
        self._darken(canvas, shadow_mask, 9.0, min(0.6, self.cond["shadow"] + 0.1))
        for hand, skin, arm in drawn:
            if not skin + arm:  # all of it nearer the lens than anything is drawn: a forearm under the camera
                continue
            allp = np.vstack(skin + arm)
            x0, y0 = max(0, int(allp[:, 0].min()) - 2), max(0, int(allp[:, 1].min()) - 2)
            x1, y1 = min(W, int(allp[:, 0].max()) + 3), min(H, int(allp[:, 1].max()) + 3)
            if x1 <= x0 or y1 <= y0:
                continue
            # masks only over the hand's bounding box: a forearm can span half the frame, the rest is free
            m = np.zeros((y1 - y0, x1 - x0), np.uint8)
            for p in skin:
                cv2.fillPoly(m, [_ipts(p - [x0, y0])], 255, _AA, _SH)
            ma = np.zeros_like(m)
            if arm:
                for p in arm:
                    cv2.fillPoly(ma, [_ipts(p - [x0, y0])], 255, _AA, _SH)
                cv2.min(ma, 255 - m, dst=ma)
            for mask, colour in ((m, hand.skin), (ma, hand.sleeve)):
                bx, by, bw, bh = cv2.boundingRect(mask)
                if bw == 0 or bh == 0:
                    continue
                a = mask[by : by + bh, bx : bx + bw].astype(np.float32) * (1.0 / 255.0)
                # rounder look: darker towards the silhouette's edges
                body = _soft(a, max(1.5, 0.012 * max(W, H)))
                shade = (0.62 + 0.45 * body)[..., None] * np.asarray(colour, np.float32)
                roi = canvas[y0 + by : y0 + by + bh, x0 + bx : x0 + bx + bw]
                roi *= (1.0 - a)[..., None]
                roi += a[..., None] * shade
            # creases between the fingers and round the thumb: a mitten without them
            crease = tuple(float(v) * 0.72 for v in hand.skin)
            for p in skin[:5]:
                cv2.polylines(canvas, [_ipts(p)], True, crease, 1, _AA, _SH)
            sub = cover[y0:y1, x0:x1]
            cv2.max(sub, cv2.max(m, ma), dst=sub)
        return cover

    # light and camera ----------------------------------------------------------------------
    def gain(self) -> np.ndarray:
        """Per-pixel BGR gain (H, W, 3) float32: exposure, uneven light, vignette, white balance."""
        if self._gain is not None:
            return self._gain
        W, H = self.size
        c = self.cond
        rng = np.random.default_rng([self.seed, _COND, 99])
        gw, gh = 48, 27
        X, Y = np.meshgrid(np.linspace(-1, 1, gw), np.linspace(-1, 1, gh))
        ang = rng.uniform(0, 2 * np.pi)
        g = 1.0 + c["uneven"] * 0.5 * (np.cos(ang) * X + np.sin(ang) * Y)
        for _ in range(2):
            bx, by, bs = rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(0.3, 0.8)
            g *= 1.0 + c["uneven"] * rng.uniform(-0.25, 0.25) * np.exp(-((X - bx) ** 2 + (Y - by) ** 2) / (2 * bs**2))
        g *= 1.0 - c["vignette"] * 0.5 * (X**2 + Y**2)
        g *= c["exposure"]
        wb = float(c["white_balance"])
        warm, cold = np.array([0.70, 0.92, 1.06]), np.array([1.10, 1.0, 0.86])  # B, G, R
        wbg = 1.0 + (warm - 1.0) * max(0.0, -wb) + (cold - 1.0) * max(0.0, wb)
        small = (g[..., None] * wbg[None, None, :]).astype(np.float32)
        self._gain = cv2.resize(small, (W, H), interpolation=cv2.INTER_LINEAR)
        if c.get("spot", 0.0) or c.get("window", 0.0):
            self._gain *= self._pools()[..., None]
        return self._gain

    def _pools(self) -> np.ndarray:
        """(H, W) float32 gain of a spot lamp's pool and a window's light (conditions spot, window)."""
        W, H = self.size
        c = self.cond
        rng = np.random.default_rng([self.seed, _COND, 98])
        sw, sh = W // 4, H // 4
        X, Y = np.meshgrid(np.linspace(-1, 1, sw, dtype=np.float32), np.linspace(-H / W, H / W, sh, dtype=np.float32))
        g = np.ones((sh, sw), np.float32)
        spot = float(c.get("spot", 0.0))
        if spot:
            bx, by, rad = rng.uniform(-0.25, 0.25), rng.uniform(-0.15, 0.15), rng.uniform(0.45, 0.8)
            d2 = ((X - bx) ** 2 + (Y - by) ** 2) / rad**2
            g *= (1.0 - 0.75 * spot) + 0.75 * spot * np.exp(-d2 * 1.5) + 0.2 * spot * np.exp(-d2 * 4)
        window = float(c.get("window", 0.0))
        if window:
            # a skewed rectangle of daylight, its glazing bars casting soft dark lines
            a = rng.uniform(0, np.pi)
            u = np.cos(a) * X + np.sin(a) * Y - rng.uniform(-0.3, 0.3)
            v = -np.sin(a) * X + np.cos(a) * Y - rng.uniform(-0.2, 0.2)
            half_u, half_v = rng.uniform(0.5, 0.9), rng.uniform(0.35, 0.7)
            inside = np.clip((half_u - np.abs(u)) * 12, 0, 1) * np.clip((half_v - np.abs(v)) * 12, 0, 1)
            pane = rng.uniform(0.25, 0.45)
            # distance to the nearest bar (bars every ``pane`` from the window's edge)
            dist = np.minimum(np.abs(np.mod(u + half_u + pane / 2, pane) - pane / 2),
                              np.abs(np.mod(v + half_v + pane / 2, pane) - pane / 2))
            bar = np.clip(1.0 - dist / 0.02, 0, 1)
            g *= (1.0 - 0.3 * window) + 0.6 * window * inside * (1.0 - 0.6 * bar)
        g = cv2.GaussianBlur(g, (0, 0), 1.0)
        return cv2.resize(g, (W, H), interpolation=cv2.INTER_LINEAR)

    def glare(self, canvas: np.ndarray, board_px: np.ndarray) -> None:
        amount = float(self.cond["glare"]) * (0.35 + self.look.gloss)
        if amount <= 0.0:
            return
        rng = np.random.default_rng([self.seed, _COND, 7])
        centre = board_px.mean(0) + rng.normal(0, 1, 2) * board_px.std(0) * 0.6
        spread = float(np.ptp(board_px[:, 0]) + np.ptp(board_px[:, 1])) / 2
        sx, sy = spread * rng.uniform(0.05, 0.18), spread * rng.uniform(0.03, 0.1)
        W, H = self.size
        x0, x1 = int(max(0, centre[0] - 3 * sx)), int(min(W, centre[0] + 3 * sx))
        y0, y1 = int(max(0, centre[1] - 3 * sy)), int(min(H, centre[1] + 3 * sy))
        if x1 <= x0 or y1 <= y0:
            return
        X, Y = np.meshgrid(np.arange(x0, x1, dtype=np.float32) - centre[0], np.arange(y0, y1, dtype=np.float32) - centre[1])
        blob = np.exp(-(X**2 / (2 * sx**2) + Y**2 / (2 * sy**2))) * (170.0 * amount)
        canvas[y0:y1, x0:x1] += blob[..., None]

    def finish(self, canvas: np.ndarray, noise_seed: int, noise: bool = True, exposure: float = 1.0) -> np.ndarray:
        """Light, lens, blur, noise and JPEG: the ideal canvas -> the final uint8 BGR frame."""
        # light in float, then 8 bits: the lens remap and blur are several times faster on uint8
        img = cv2.convertScaleAbs(cv2.multiply(canvas, self.gain(), scale=exposure))
        if self.distorted or self.size != (self.cam.width, self.cam.height):
            img = cv2.remap(img, self.maps[0], self.maps[1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        c = self.cond
        if c["blur"] and c["blur"] > 0.05:
            img = cv2.GaussianBlur(img, (0, 0), float(c["blur"]))
        return self.add_noise(img, noise_seed) if noise else img

    def _noise_bank(self) -> np.ndarray:
        return _noise_bank(self.cam.width, self.cam.height)

    def add_noise(self, img: np.ndarray, noise_seed: int) -> np.ndarray:
        """Sensor noise and JPEG on a finished uint8 frame -> uint8 BGR.

        The noise is a seed-chosen window (and flip) of one fixed unit-noise field per frame size:
        stills and video frames get different noise without paying for a full-frame draw each time.
        """
        c = self.cond
        if c["noise"] and c["noise"] > 0:
            bank = self._noise_bank()
            h, w = img.shape[:2]
            k = (int(noise_seed) * 2654435761) & 0xFFFFFFFF
            dy, dx = k % _BANK_PAD, (k >> 8) % _BANK_PAD
            n = bank[dy : dy + h, dx : dx + w]
            if (k >> 16) & 1:
                n = n[::-1, ::-1]
            f = img.astype(np.float32)
            # shot noise grows with brightness, read noise does not
            fac = f * (float(c["noise"]) * 0.8 / 255.0)
            fac += float(c["noise"]) * 0.6
            fac *= n
            f += fac
            img = cv2.convertScaleAbs(np.maximum(f, 0.0, out=f))
        if c["jpeg"]:
            ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(c["jpeg"])])
            img = cv2.imdecode(buf, cv2.IMREAD_COLOR)
        return img


_BANK_PAD = 128


@lru_cache(maxsize=4)
def _noise_bank(w: int, h: int) -> np.ndarray:
    bank = np.empty((h + _BANK_PAD, w + _BANK_PAD, 3), np.float32)
    cv2.setRNGSeed(20261125)
    cv2.randn(bank, 0.0, 1.0)
    bank.setflags(write=False)
    return bank


# ---------------------------------------------------------------------------------------------
# truth


def _r(v: float) -> float:
    return round(float(v), 2)


def _pts_json(px: np.ndarray) -> list:
    return [[_r(x), _r(y)] for x, y in px]


def covered_cells(renderer: Renderer, scene: S.Scene, cover: np.ndarray) -> list[list[int]]:
    """Cells whose tile-top square is more than COVER_FRACTION hidden by a hand (canvas mask)."""
    out = []
    if not cover.any():
        return out
    H, W = cover.shape
    for (r, c), corners in sorted(scene.cells.items()):
        p = renderer.proj(corners)
        x0, y0 = max(0, int(p[:, 0].min())), max(0, int(p[:, 1].min()))
        x1, y1 = min(W, int(p[:, 0].max()) + 2), min(H, int(p[:, 1].max()) + 2)
        if x1 <= x0 or y1 <= y0:
            continue
        m = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillPoly(m, [_ipts(p - [x0, y0])], 1, cv2.LINE_8, _SH)
        area = int(m.sum())
        if area == 0:
            continue
        hidden = int(((cover[y0:y1, x0:x1] > 127) & (m > 0)).sum())
        if hidden > COVER_FRACTION * area:
            out.append([r, c])
    return out


def geometry_truth(camera: CameraSpec, scene: S.Scene) -> dict:
    rows, cols = scene.grid_shape
    cells = []
    for r in range(rows):
        cells.append([_pts_json(camera.project(scene.cells[(r, c)])) for c in range(cols)])
    out = {"cells": cells, "board_corners": _pts_json(camera.project(scene.board_corners))}
    for name, pts in scene.points.items():
        out[name] = _pts_json(camera.project(np.array(pts))) if len(pts) else []
    return out


# ---------------------------------------------------------------------------------------------
# entry point


def build_scene(game: str, layout: dict, look: L.Look, rng: np.random.Generator) -> tuple[S.Scene, dict]:
    """(scene, normalised layout) for ``game``; raises SimulatorError for a malformed layout."""
    if game == "easy-slider":
        from simulator.layouts import validate_easy_slider

        norm = validate_easy_slider(layout)
        return S.easy_slider_scene(norm, look, rng), norm
    from simulator import games

    return games.build(game, layout, look, rng)


def camera_for(camera: CameraSpec | None, seed: int, size: tuple[int, int], extent,
               tilt_range: tuple[float, float] | None = None,
               rotation_range: tuple[float, float] | None = None) -> CameraSpec:
    """``camera`` at ``size`` (pixels), or without one a camera drawn from ``seed`` that frames
    ``extent`` (tilted within ``tilt_range`` degrees, default ``random_camera``'s 0-40; turned
    round the board within ``rotation_range`` degrees, default any way: a scene's
    ``camera_rotation``)."""
    if camera is None:
        more = {} if tilt_range is None else {"tilt_range": tilt_range}
        if rotation_range is not None:
            more["rotation_range"] = rotation_range
        return random_camera(np.random.default_rng([seed, _CAMERA]), size, extent, **more)
    return camera.for_size(size)


def render_table(
    layout: dict,
    *,
    seed: int,
    game: str = "easy-slider",
    look: str | None = None,
    camera: CameraSpec | None = None,
    size: tuple[int, int] = (1280, 720),
    hands: int = 0,
    conditions: dict | None = None,
    edition: int | None = None,
) -> Render:
    """Render one photograph of ``layout`` with its truth.

    layout: for easy-slider the caller-read schema; other games: see simulator.games.
    seed: every random choice (camera, light, table, jitter, hands, noise) comes from it unless
    given. look: a name in simulator.looks.LOOKS (None = "standard"). camera: a CameraSpec
    (scaled to ``size`` if it was made for another size). size: (width, height) px.
    hands: how many hands reach over the board. conditions: overrides of
    ``sample_conditions`` keys (e.g. ``CLEAN`` for tests). edition: draw a procedural edition
    (simulator.editions) instead of a named look: its set, on its table, in its kind of light
    (``conditions`` still override); the truth then has an ``edition`` entry with its families.
    """
    if not (isinstance(size, (tuple, list)) and len(size) == 2 and all(isinstance(v, int) and v >= 16 for v in size)):
        raise SimulatorError(f"size {size!r}: expected (width, height) in pixels")
    size = (int(size[0]), int(size[1]))
    ed = None
    if edition is not None:
        from simulator.editions import edition as make_edition, edition_conditions

        if look is not None:
            raise SimulatorError("give a look or an edition, not both")
        ed = make_edition(edition)
        the_look = ed.look
        conditions = {**edition_conditions(ed, seed), **(conditions or {})}
    else:
        the_look = L.get_look(look)
    scene, norm = build_scene(game, layout, the_look, np.random.default_rng([seed, SCENE_STREAM]))
    camera = camera_for(camera, seed, size, scene.extent, rotation_range=scene.camera_rotation)
    cond = sample_conditions(seed, conditions)
    r = Renderer(camera, the_look, cond, seed)
    canvas = r.table()
    r.draw_scene(canvas, scene.pieces)
    hand_list = make_hands(seed, hands, scene, the_look)
    cover = r.draw_hands(canvas, hand_list)
    r.glare(canvas, r.proj(scene.board_corners))
    image = r.finish(canvas, seed * 7919 + _NOISE)
    truth = dict(norm)
    truth["game"] = game
    truth.update(geometry_truth(camera, scene))
    truth["covered"] = covered_cells(r, scene, cover)
    truth["look"] = the_look.name
    truth["camera"] = camera.to_json()
    truth["size"] = [size[0], size[1]]
    truth["conditions"] = {k: (round(v, 4) if isinstance(v, float) else v) for k, v in cond.items()}
    truth["hands"] = [{"tip_mm": [_r(h.x), _r(h.y)], "tip_height_mm": _r(h.tip_height), "arm_deg": _r(h.arm_deg)} for h in hand_list]
    truth["seed"] = seed
    if ed is not None:
        truth["edition"] = ed.summary()
    return Render(image=image, truth=truth)


def make_hands(seed: int, n: int, scene: S.Scene, look: L.Look) -> list[Hand]:
    if n < 0 or n > 4:
        raise SimulatorError(f"hands {n!r}: expected 0 to 4")
    rng = np.random.default_rng([seed, _HANDS])
    cells = sorted(scene.cells)
    out = []
    for _ in range(n):
        r, c = cells[int(rng.integers(len(cells)))] if cells else (0, 0)
        centre = scene.cells[(r, c)][:, :2].mean(0) if cells else np.zeros(2)
        out.append(random_hand(rng, tuple(centre), touching=bool(rng.random() < 0.5), base_height=look.tile_thickness_mm))
    return out
