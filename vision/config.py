"""Every tunable number of the reader, in one typed, frozen config.

Defaults are what the benchmarks were run with. A TOML file may override any of them in a
``[vision]`` table (unknown keys are an error, so a typo never passes silently)::

    [vision]
    confidence_threshold = 0.95
    detect_long_side = 800
"""

from __future__ import annotations

import dataclasses
import tomllib
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from vision.errors import ConfigError


@dataclass(frozen=True)
class VisionConfig:
    # --- localisation (detection runs on a downscaled copy of the frame) ---
    detect_long_side: int = 640
    """Long side (px) of the low-resolution copy searched last, only when the fine copy shows no
    board (faces so large that the fine masks break them up). It used to be searched first: at
    720p and 1080p the gaps between tiles are under a pixel there and the tiles run together, so
    on most frames it found nothing and only cost time (development frames: the board search's
    median 32 -> 24 ms at 720p, 45 -> 33 ms at 1080p without it first, the same reads)."""
    detect_fine_long_side: int = 1280
    """Long side (px) of the copy the board is searched in (small or touching tiles need it)."""
    gap_line_contrast: int = 6
    """Thin lines (gaps between touching tiles) at least this many grey levels darker or lighter
    than their surroundings split the face masks of the fine search; 0 turns that off."""
    gap_line_px: int = 3
    """Widest such line (px in the fine copy, odd): the kernel of the black-hat cut from the bright
    mask; the dark mask's black-hat / top-hat takes 2 px more (a tile's shadow line is wider)."""
    outline_line_contrast: int = 3
    """When the three searches find few tiles, a last one takes faces as the regions between thin
    dark lines (outlines, gaps) at least this many grey levels darker than their surroundings
    (and twice that, and one more with a line 2 px wider than ``gap_line_px``); 0 turns it off.
    Its lattice replaces theirs only with more tiles."""
    outline_search_tiles: int = 18
    """That last search runs when the three found fewer than this many tiles on a lattice
    (``min_tiles`` runs it only when they found no board: faster on hard frames, fewer boards fixed)."""
    outline_min_face: float = 0.7
    """That last search's lattice is taken only when a tile's side is at least this fraction of a
    pitch (tiles nearly touch: about 0.85; a lattice of glyph-sized fragments has less)."""
    min_tile_px: float = 16.0
    """Smallest tile side (px, in the detection copy) taken as a tile candidate."""
    max_tile_frac: float = 0.25
    """Largest tile side as a fraction of the detection copy's short side."""
    quad_fill: float = 0.80
    """A candidate blob must fill at least this fraction of its fitted quadrilateral."""
    lattice_tol: float = 0.22
    """A candidate is on the lattice when its centre lies within this many pitches of a node."""
    outline_tol: float = 0.2
    """A lattice tile's corners feed the lens fit only when each lies within this many pitches of
    its node's face corner (else only its centre does: a face half under a hand, or merged with a shadow)."""
    min_tiles: int = 7
    """Fewest lattice tiles accepted as a board (24 are on a full board; hands hide some, and a
    check tablecloth of the tiles' size with blur can hide most: held-out seed 905445, 40 px
    tiles touching on light checks, 7 found and every cell then read right). Seven inked,
    tile-sized quads on one lattice are no accident of a table."""
    single_erosion_tiles: int = 20
    """The fine copy's bright mask is searched eroded once; only when that finds fewer than this
    many tiles on a lattice are the quads of the mask eroded twice (touching tiles part after
    two px) added. Development frames: the board search's median 23.0 -> 15.7 ms at 720p
    (best of three, interleaved); on 450 development renders 443 boards read right against
    444 eroding twice always, and 10 cells wrong against 8 (the two on one board flagged
    uncertain either way)."""
    min_quick_tiles: int = 18
    """The fine copy's bright-mask search that finds this many tiles on a lattice ends the
    search, else the thorough masks are added."""
    second_board_tiles: int = 14
    """A second lattice with at least this many tiles means two boards are in view."""

    # --- rectification ---
    cell_px: int = 48
    """Pixels per lattice pitch (tile plus gap) in the rectified top view."""
    margin_pitches: float = 1.75
    """Rectified margin around the board (pitches) that holds the pawn column and coin row."""

    # --- classification ---
    confidence_threshold: float = 0.90
    """Cells, pawns and coins whose confidence is below this are listed as uncertain."""
    covered_excess_ink: float = 0.03
    """A cell is covered (uncertain whatever it looks like) when its face is darker than every known face by this much on average."""

    def replace(self, **changes: Any) -> "VisionConfig":
        return dataclasses.replace(self, **changes)


def load_config(path: str | Path | None) -> VisionConfig:
    """The default config, overridden by the ``[vision]`` table of the TOML file ``path`` (if given)."""
    if path is None:
        return VisionConfig()
    p = Path(path)
    try:
        with p.open("rb") as fh:
            data = tomllib.load(fh)
    except FileNotFoundError:
        raise ConfigError(f"{p}: no such config file") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{p}: not valid TOML ({exc})") from None
    table = data.get("vision", {})
    if not isinstance(table, dict):
        raise ConfigError(f"{p}: [vision] must be a table of settings")
    return config_from_dict(table, source=str(p))


def config_from_dict(table: dict, source: str = "config") -> VisionConfig:
    """A config with the given overrides; raises ConfigError naming an unknown key or a wrong type."""
    known = {f.name: f for f in fields(VisionConfig)}
    base = VisionConfig()
    changes: dict[str, Any] = {}
    for key, value in table.items():
        if key not in known:
            raise ConfigError(f"{source}: unknown vision setting {key!r}: expected one of {', '.join(sorted(known))}")
        want = type(getattr(base, key))
        if want is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if not isinstance(value, want) or isinstance(value, bool) != (want is bool):
            raise ConfigError(f"{source}: vision setting {key} = {value!r}: expected a {want.__name__}")
        changes[key] = value
    return dataclasses.replace(base, **changes)
