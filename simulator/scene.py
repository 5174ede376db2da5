"""Scene pieces in world millimetres (see simulator.camera for the frame) and the scene builders.

A scene is a list of pieces lying on the table plane (z = 0, heights h >= 0 upward):

- ``Flat``: a box or disc whose top face is a look sprite (tiles, tile backs, coins, cards).
- ``Pawn``: a solid of revolution in a suit colour.
- ``Die``: a cube whose top face is a look sprite.

Builders turn a game layout into pieces plus the truth geometry (cell squares at tile-top
height) for the game; ``simulator.render`` projects both through the camera.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from simulator import looks as L
from simulator.errors import SimulatorError


@dataclass(frozen=True)
class Flat:
    """A flat piece. (x, y) is its centre, angle in degrees (clockwise in the player's view)."""

    kind: str  # sprite kind: tile, back, coin-value, coin-suit, card, grid
    code: str
    x: float
    y: float
    angle: float
    w: float  # mm along the piece's own x
    h: float  # mm along its own y
    thickness: float
    disc: bool = False
    side: tuple[int, int, int] = (180, 180, 180)
    tag: str = ""  # who it is for the truth ("cell:2:3", "coin:1", ...)
    base: float = 0.0  # height of the bottom face (a coin on a tile); ``thickness`` is the top's height
    ground: float | None = None  # height of the surface its shadow falls on (None: ``base``, it rests there)
    shade: float = 1.0  # brightness of its top face: pieces are never perfectly flat or evenly lit

    def corners(self, height: float | None = None) -> np.ndarray:
        """The 4 top-face corners (4, 3) world mm, order top-left, top-right, bottom-right, bottom-left."""
        hz = self.thickness if height is None else height
        a = np.radians(self.angle)
        ca, sa = np.cos(a), np.sin(a)
        local = np.array([[-self.w / 2, -self.h / 2], [self.w / 2, -self.h / 2], [self.w / 2, self.h / 2], [-self.w / 2, self.h / 2]])
        xy = local @ np.array([[ca, sa], [-sa, ca]]) + [self.x, self.y]
        return np.column_stack([xy, np.full(4, -hz)])

    def outline(self, height: float, n: int = 32) -> np.ndarray:
        """Outline points (n or 4, 3) at ``height`` above the table."""
        if not self.disc:
            return self.corners(height)
        t = np.linspace(0, 2 * np.pi, n, endpoint=False)
        return np.column_stack([self.x + self.w / 2 * np.cos(t), self.y + self.w / 2 * np.sin(t), np.full(n, -height)])


@dataclass(frozen=True)
class Pawn:
    x: float
    y: float
    suit: str
    shape: str = "pawn"
    tag: str = ""
    base: float = 0.0

    def profile(self) -> list[tuple[float, float]]:
        """(height mm, radius mm) slices from the base to the top."""
        R, H = L.PAWN_DIAMETER_MM / 2, L.PAWN_HEIGHT_MM
        if self.shape == "cylinder":
            return [(h, R * 0.92) for h in np.linspace(0, H * 0.8, 8)]
        hs = np.linspace(0, H, 12)
        out = []
        head_r = R * 0.68
        head_c = H - head_r
        for h in hs:
            if self.shape == "cone":
                r = R - (R - 2.2) * min(1.0, h / (H * 0.8)) if h < head_c else np.sqrt(max(head_r**2 * 0.6 - (h - head_c) ** 2, 0.25))
            elif h < 2.0:
                r = R
            elif h < head_c - head_r * 0.6:
                r = R - (R - 3.0) * (h - 2.0) / (head_c - head_r * 0.6 - 2.0)
            else:
                r = np.sqrt(max(head_r**2 - (h - head_c) ** 2, 0.3))
            out.append((float(h), float(r)))
        return out


@dataclass(frozen=True)
class Die:
    x: float
    y: float
    angle: float
    suit: str
    face: str  # n, s, 2..5
    tag: str = ""
    base: float = 0.0


@dataclass
class Scene:
    """Pieces plus the truth geometry: named cell squares (world mm, at tile-top height)."""

    pieces: list = field(default_factory=list)
    cells: dict = field(default_factory=dict)  # (r, c) -> (4, 3) corners
    grid_shape: tuple[int, int] = (0, 0)
    board_corners: np.ndarray | None = None  # (4, 3)
    points: dict = field(default_factory=dict)  # name -> list of (3,) world points
    extent: tuple[float, float, float, float] = (0, 0, 0, 0)
    #: the rotations (degrees, ``simulator.camera.random_camera``) a drawn camera takes round
    #: the board: None, any; a game whose player's side is the camera's (Slider) keeps it on
    #: the near side, by the board's last row, as a player's webcam is
    camera_rotation: tuple[float, float] | None = None


def _jitter(rng: np.random.Generator, pos_mm: float, ang_deg: float) -> tuple[float, float, float]:
    return (float(np.clip(rng.normal(0, pos_mm), -2.5 * pos_mm, 2.5 * pos_mm)),
            float(np.clip(rng.normal(0, pos_mm), -2.5 * pos_mm, 2.5 * pos_mm)),
            float(np.clip(rng.normal(0, ang_deg), -2.5 * ang_deg, 2.5 * ang_deg)))


def _extent(pieces, margin: float = 6.0) -> tuple[float, float, float, float]:
    xs, ys = [], []
    for p in pieces:
        r = max(getattr(p, "w", L.PAWN_DIAMETER_MM), getattr(p, "h", L.PAWN_DIAMETER_MM)) / 2 * 1.42 if isinstance(p, Flat) else 8.0
        xs += [p.x - r, p.x + r]
        ys += [p.y - r, p.y + r]
    return (min(xs) - margin, min(ys) - margin, max(xs) + margin, max(ys) + margin)


def tile_grid(
    rng: np.random.Generator, look: L.Look, rows: int, cols: int, codes: dict, *, gap: float | None = None,
    jitter: float = 0.8, turn: float = 1.0, kind_of=None,
) -> tuple[list, dict, np.ndarray, float]:
    """Tiles on a rows x cols grid centred on the origin.

    codes: (r, c) -> code (cells missing from it are holes); kind_of(code) -> sprite kind
    (default "tile"). Returns (pieces, cells, board_corners, pitch).
    """
    gap = float(rng.uniform(4.5, 8.0)) if gap is None else gap
    pitch = L.TILE_MM + gap
    x0 = -(cols - 1) / 2 * pitch
    y0 = -(rows - 1) / 2 * pitch
    pieces, cells = [], {}
    t = look.tile_thickness_mm
    for r in range(rows):
        for c in range(cols):
            cx, cy = x0 + c * pitch, y0 + r * pitch
            code = codes.get((r, c))
            if code is None:
                nominal = Flat("tile", "", cx, cy, 0.0, L.TILE_MM, L.TILE_MM, t)
                cells[(r, c)] = nominal.corners()
                continue
            dx, dy, da = _jitter(rng, jitter, turn)
            kind = kind_of(code) if kind_of else "tile"
            f = Flat(kind, code if kind != "back" else "", cx + dx, cy + dy, da, L.TILE_MM, L.TILE_MM, t,
                     side=look.side, tag=f"cell:{r}:{c}", shade=float(np.clip(rng.normal(1.0, 0.025), 0.93, 1.07)))
            pieces.append(f)
            cells[(r, c)] = f.corners()
    half_w = (cols - 1) / 2 * pitch + L.TILE_MM / 2
    half_h = (rows - 1) / 2 * pitch + L.TILE_MM / 2
    board = np.array([[-half_w, -half_h, -t], [half_w, -half_h, -t], [half_w, half_h, -t], [-half_w, half_h, -t]])
    return pieces, cells, board, pitch


def coin(look: L.Look, x: float, y: float, side: str, angle: float, tag: str = "", base: float = 0.0) -> Flat:
    """A coin showing ``side``: a rank code (value side) or a suit letter (suit side)."""
    kind = "coin-suit" if side in ("S", "M", "C", "A") else "coin-value"
    return Flat(kind, side, x, y, angle, L.COIN_MM, L.COIN_MM, look.coin_thickness_mm + base, disc=True,
                side=look.coin_edge, tag=tag, base=base)


def easy_slider_scene(layout: dict, look: L.Look, rng: np.random.Generator) -> Scene:
    """Tiles, pawns left of rows 1-4, coins above columns 1-5 (caller-read layout)."""
    board = layout["board"]
    codes = {(r, c): board[r][c] for r in range(5) for c in range(5) if board[r][c] is not None}
    pieces, cells, corners, pitch = tile_grid(rng, look, 5, 5, codes)
    scene = Scene(pieces=pieces, cells=cells, grid_shape=(5, 5), board_corners=corners)
    half = 2 * pitch
    coin_y = -half - L.TILE_MM / 2 - float(rng.uniform(8, 16)) - L.COIN_MM / 2
    coin_pts = []
    for c, value in enumerate(layout.get("coins", [])):
        dx, dy, _ = _jitter(rng, 1.5, 0)
        p = coin(look, -half + c * pitch + dx, coin_y + dy, value, float(rng.normal(0, 8)), tag=f"coin:{c}")
        pieces.append(p)
        coin_pts.append(np.array([p.x, p.y, -p.thickness]))
    pawn_x = -half - L.TILE_MM / 2 - float(rng.uniform(8, 16)) - L.PAWN_DIAMETER_MM / 2
    pawn_pts = []
    for r, suit in enumerate(layout.get("pawns", [])):
        dx, dy, _ = _jitter(rng, 1.5, 0)
        p = Pawn(pawn_x + dx, -half + r * pitch + dy, suit, look.pawn_shape, tag=f"pawn:{r}")
        pieces.append(p)
        pawn_pts.append(np.array([p.x, p.y, -L.PAWN_HEIGHT_MM / 2]))
    scene.points = {"pawn_points": pawn_pts, "coin_points": coin_pts}
    scene.extent = _extent(pieces)
    return scene


def check_cell(obj, shape: tuple[int, int], what: str) -> tuple[int, int]:
    if not (isinstance(obj, (list, tuple)) and len(obj) == 2 and all(isinstance(v, int) for v in obj)):
        raise SimulatorError(f"{what} {obj!r}: expected [row, col]")
    r, c = obj
    if not (0 <= r < shape[0] and 0 <= c < shape[1]):
        raise SimulatorError(f"{what} {obj!r}: outside the {shape[0]}x{shape[1]} board")
    return r, c
