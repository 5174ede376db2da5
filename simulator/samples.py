"""Regenerate sample_images/: ``python -m simulator.samples [--out DIR]``.

For each game, stills from different cameras, lights and tables with their truth JSON beside
them (same base name), the short videos the demos play (Easy Slider; Slider, the Caller playing
one side: ``--slider-game`` writes that one alone; Slide's last rounds: ``--slide-game``; a short
Steppin' Stones game, dice rolled on the table: ``--stones-game``). Everything is
seeded, so running it again reproduces the same files (same OpenCV build, same bytes).
The held-out look is never used here, so nothing in sample_images/ leaks it to vision.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2

from rules.outputs import write_with_json
from simulator.errors import SimulatorError
from simulator.games import layout_for
from simulator.render import render_table
from simulator.layouts import easy_slider_layout
from simulator.slide_video import ROUNDS, random_round_game, render_slide_video
from simulator.slider_video import ai_game, render_slider_video
from simulator.steppin_stones_video import random_game as stones_game, render_stones_video
from simulator.video import finishing_game, random_actions, render_game_video

JPEG_QUALITY = 85

# (file stem, game, layout seed, layout kind, render seed, look, hands, size)
STILLS = [
    ("easy-slider_setup_standard", "easy-slider", 7, "setup", 101, "standard", 0, (1280, 720)),
    ("easy-slider_midgame_wood", "easy-slider", 8, "midgame", 102, "wood-classic", 0, (1280, 720)),
    ("easy-slider_solved_paper", "easy-slider", 9, "solved", 103, "paper-print", 0, (1280, 720)),
    ("easy-slider_midgame_hand_standard", "easy-slider", 10, "midgame", 104, "standard", 1, (1280, 720)),
    ("easy-slider_setup_plastic_1080p", "easy-slider", 11, "setup", 105, "plastic-bold", 0, (1920, 1080)),
    ("scavenger-hunt_a", "scavenger-hunt", 1, "setup", 201, "standard", 0, (1280, 720)),
    ("scavenger-hunt_b", "scavenger-hunt", 2, "setup", 202, "wood-classic", 0, (1280, 720)),
    ("steppin-stones_a", "steppin-stones", 1, "setup", 301, "standard", 0, (1280, 720)),
    ("steppin-stones_b", "steppin-stones", 2, "setup", 302, "paper-print", 0, (1280, 720)),
    ("slider_a", "slider", 1, "setup", 401, "standard", 0, (1280, 720)),
    ("slider_b", "slider", 2, "setup", 402, "plastic-bold", 0, (1280, 720)),
    ("slide_a", "slide", 1, "setup", 501, "standard", 0, (1280, 720)),
    ("slide_b", "slide", 2, "setup", 502, "standard", 0, (1280, 720)),
]

# A finished Slide grid (every card face up) in the Gigamic-like design, for 'caller slide
# score-photo': layout seed, render seed, look, deck.
SLIDE_FINISHED = {"stem": "slide_finished", "seed": 3, "render_seed": 503, "look": "wood-classic", "deck": "gigamic"}

# The demo's recording: a player finishing a board (felt table, 14 degrees of tilt, 1280x720).
VIDEO = {"stem": "easy-slider_game", "seed": 17, "moves": 5, "size": (1280, 720), "fps": 30}
# A recording with an illegal action (two tiles lifted and swapped), for the live Caller's tests.
ILLEGAL_VIDEO = {"stem": "easy-slider_illegal", "seed": 21, "moves": 3, "illegal": 1, "size": (1280, 720), "fps": 30}
# Slider's demo: the Caller plays Vertical (level 3) against a scripted Horizontal on a 3x3 board
# (2x2 tiles, the last row and column unused), one illegal move put back, to Vertical's win.
# Small (640x360, 10 fps, a quiet sensor on a felt table: noise and wood grain compress badly),
# the camera close enough for squares of about 29 px.
# The illegal move is one a viewer sees at a glance (no coin set on another).
# Slide's demo: the last two rounds of a two-player game filmed at player 1's grid, one card
# put straight into the hole and taken out again, to the grid's count (800x450, 10 fps, a quiet
# sensor on a felt table, which compress well).
SLIDE_VIDEO = {"stem": "slide_game", "seed": 61, "rounds": 2, "players": 2, "illegal": 1, "kinds": ("straight",),
               "deck": "gigamic", "look": "wood-classic", "size": (800, 450), "fps": 10,
               "conditions": {"noise": 0.5, "flicker": 0.0, "table": "felt"}}
SLIDER_VIDEO = {"stem": "slider_game", "seed": 47, "moves": 30, "n": 3, "ai": "V", "level": 3, "illegal": 1,
                "kinds": ("backwards", "two", "other-side"),
                "size": (640, 360), "fps": 10, "conditions": {"noise": 0.5, "flicker": 0.0, "table": "felt"}}
# Steppin' Stones' demo: three turns of a seeded game, the dice rolled on the table beside the
# board, one illegal action put back (800x450, 10 fps, a quiet sensor on a felt table).
STONES_VIDEO = {"stem": "steppin-stones_game", "seed": 6, "turns": 3, "illegal": 1, "dice": "table",
                "size": (800, 450), "fps": 10, "conditions": {"noise": 0.5, "flicker": 0.0, "table": "felt"},
                "min_square_px": 40.0}


def _jpeg(image, truth: dict):
    """A writer for ``write_with_json``: ``image`` as a JPEG into the file it is given, ``truth`` beside it."""
    def write(path: str) -> dict:
        if not cv2.imwrite(path, image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY]):
            raise SimulatorError(f"cannot write {path!r}")
        return truth
    return write


def generate(out: Path, *, video: bool = True, log=print) -> list[Path]:
    """Write the samples into ``out``; returns the written paths."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for stem, game, lseed, kind, rseed, look, hands, size in STILLS:
        layout = layout_for(game, lseed, kind)
        r = render_table(layout, seed=rseed, game=game, look=look, hands=hands, size=size)
        img_path = out / f"{stem}.jpg"
        write_with_json(img_path, out / f"{stem}.json", _jpeg(r.image, r.truth))
        written += [img_path, out / f"{stem}.json"]
        log(f"wrote {img_path}")
    written += slide_finished(out, log)
    if video:
        layout, actions = finishing_game(VIDEO["seed"], VIDEO["moves"])
        written += _video(out, VIDEO["stem"], lambda path: render_game_video(
            layout, actions, seed=VIDEO["seed"], fps=VIDEO["fps"], size=VIDEO["size"], path=path), log)
        v = ILLEGAL_VIDEO
        wrong = easy_slider_layout(v["seed"], kind="midgame")
        steps = random_actions(wrong, v["moves"], seed=v["seed"], illegal=v["illegal"])
        written += _video(out, v["stem"], lambda path: render_game_video(
            wrong, steps, seed=v["seed"], fps=v["fps"], size=v["size"], path=path), log)
        written += slider_game(out, log)
        written += slide_game(out, log)
        written += stones_video(out, log)
    return written


def slide_finished(out: Path, log=print) -> list[Path]:
    """Write the finished Slide grid (``SLIDE_FINISHED``) and its truth into ``out``."""
    v = SLIDE_FINISHED
    layout = layout_for("slide", v["seed"])
    grid = [[card["down"] if isinstance(card, dict) else card for card in row] for row in layout["grid"]]
    r = render_table({**layout, "grid": grid, "deck": v["deck"]}, seed=v["render_seed"], game="slide", look=v["look"])
    path = out / f"{v['stem']}.jpg"
    write_with_json(path, out / f"{v['stem']}.json", _jpeg(r.image, r.truth))
    log(f"wrote {path}")
    return [path, out / f"{v['stem']}.json"]


def _video(out: Path, stem: str, render, log) -> list[Path]:
    """Write a recording ``stem``.mp4 made by ``render(path) -> truth`` and its truth beside it
    into ``out`` (safely: ``rules.outputs.write_with_json``); returns the two paths."""
    path = out / f"{stem}.mp4"
    truth = write_with_json(path, out / f"{stem}.json", lambda tmp: render(Path(tmp)))
    log(f"wrote {path} ({truth['duration']} s, {len(truth['events'])} events)")
    return [path, out / f"{stem}.json"]


def slider_game(out: Path, log=print) -> list[Path]:
    """Write Slider's demo recording (``SLIDER_VIDEO``) and its truth into ``out``."""
    v = SLIDER_VIDEO
    start, actions = ai_game(v["seed"], v["moves"], ai=v["ai"], level=v["level"], n=v["n"], illegal=v["illegal"],
                             kinds=v["kinds"])
    return _video(out, v["stem"], lambda path: render_slider_video(
        start, actions, seed=v["seed"], fps=v["fps"], size=v["size"], path=path, ai=v["ai"], level=v["level"],
        conditions=v["conditions"]), log)


def slide_game(out: Path, log=print) -> list[Path]:
    """Write Slide's demo recording (``SLIDE_VIDEO``) and its truth into ``out``."""
    v = SLIDE_VIDEO
    start, actions = random_round_game(v["seed"], v["rounds"], players=v["players"], illegal=v["illegal"],
                                       kinds=v["kinds"], played=ROUNDS - v["rounds"])
    return _video(out, v["stem"], lambda path: render_slide_video(
        start, actions, seed=v["seed"], fps=v["fps"], size=v["size"], path=path, deck=v["deck"], look=v["look"],
        conditions=v["conditions"]), log)


def stones_video(out: Path, log=print) -> list[Path]:
    """Write Steppin' Stones' demo recording (``STONES_VIDEO``) and its truth into ``out``."""
    v = STONES_VIDEO
    start, actions = stones_game(v["seed"], v["turns"], illegal=v["illegal"], dice=v["dice"])
    return _video(out, v["stem"], lambda path: render_stones_video(
        start, actions, seed=v["seed"], fps=v["fps"], size=v["size"], path=path, dice=v["dice"],
        conditions=v["conditions"], min_square_px=v["min_square_px"]), log)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m simulator.samples", description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="sample_images", help="output folder (default: sample_images)")
    parser.add_argument("--no-video", action="store_true", help="stills only")
    parser.add_argument("--slider-game", action="store_true", help="Slider's demo recording only")
    parser.add_argument("--slide-game", action="store_true", help="Slide's demo recording only")
    parser.add_argument("--stones-game", action="store_true", help="Steppin' Stones' demo recording only")
    args = parser.parse_args(argv)
    if args.slider_game or args.slide_game or args.stones_game:
        Path(args.out).mkdir(parents=True, exist_ok=True)
        paths = (slider_game(Path(args.out)) if args.slider_game else []) + \
            (slide_game(Path(args.out)) if args.slide_game else []) + \
            (stones_video(Path(args.out)) if args.stones_game else [])
    else:
        paths = generate(Path(args.out), video=not args.no_video)
    total = sum(p.stat().st_size for p in paths)
    print(f"{len(paths)} files, {total / 1e6:.2f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
