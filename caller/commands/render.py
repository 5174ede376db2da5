"""``caller render``: draw what a webcam would see of a table (a still or a recorded game), with truth JSON.

Users render a board to check their setup or to try the Caller without pieces; the tests,
benchmarks and sample_images/ use the same renderer.
"""

from __future__ import annotations

import argparse
import random
from functools import partial
from pathlib import Path

from caller.errors import CallerError
from caller.progress import FrameBar
from caller import games, inputs
from caller.jsonio import load_json

STILL_SUFFIXES = (".jpg", ".jpeg", ".png")
VIDEO_SUFFIXES = (".mp4", ".avi")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "render",
        help="render a synthetic webcam photo or video of a table, with its truth JSON",
        description=(
            "Render what a webcam sees of a piecepack table: a layout JSON file, or a game and a seed. "
            "A still (.jpg/.png) or, with --video, a recorded game (.mp4/.avi): Easy Slider, a hand sliding "
            "tiles; Scavenger Hunt, players' hands shifting tile lines, moving pawns and peeking at coins. The truth (layout, projected cells, camera, events) is written beside the output "
            "with the same base name and .json. The same seed always gives the same picture."
        ),
        epilog=(
            "examples:\n"
            "  caller render --game easy-slider --seed 7 -o table.jpg\n"
            "  caller render --seed 7 --kind solved --look wood-classic --size 1920x1080 -o solved.png\n"
            "  caller render --seed 3 --hands 2 -o busy.jpg\n"
            "  caller render --seed 3 --edition 41 -o edition41.jpg\n"
            "  caller render my_layout.json -o mine.jpg\n"
            "  caller render --seed 5 --video --moves 6 --illegal 1 -o game.mp4\n"
            "  caller render --game scavenger-hunt --seed 5 --video --moves 20 --illegal 2 -o hunt.mp4\n"
            "  caller render --game slide --seed 2 -o slide.jpg"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("layout", nargs="?", default=None,
                   help="layout JSON file (caller read schema for Easy Slider; for a Scavenger Hunt video, "
                        "the start position, as 'caller setup scavenger-hunt --json' writes it)")
    p.add_argument("-o", "--output", required=True, metavar="FILE", help="output image (.jpg/.png) or video (.mp4/.avi)")
    p.add_argument("--game", choices=games.names(), default=None, help="game (default: the layout's 'game', else easy-slider)")
    p.add_argument("--seed", type=inputs.seed, default=None, help="seed for the deal, camera, light and noise")
    p.add_argument("--kind", choices=("setup", "midgame", "solved"), default="setup",
                   help="Easy Slider layout to deal when no layout file is given (default: setup)")
    p.add_argument("--look", default=None, help="piece-set look (default: standard); see the README")
    p.add_argument("--edition", type=int, default=None, metavar="SEED",
                   help="a procedural edition instead of a look: a whole set, table and light from SEED (stills; docs/editions.md)")
    p.add_argument("--size", default="1280x720", help="WIDTHxHEIGHT in pixels (default: 1280x720)")
    p.add_argument("--hands", type=int, default=0, help="hands reaching over the board in a still (0-4)")
    p.add_argument("--clean", action="store_true", help="no noise, blur, glare or JPEG artefacts, neutral light")
    p.add_argument("--video", action="store_true",
                   help="render a recorded game instead of a still (Easy Slider or Scavenger Hunt)")
    p.add_argument("--moves", type=int, default=6,
                   help="legal slides in the video; Scavenger Hunt: turns, fewer when someone wins (default: 6)")
    p.add_argument("--illegal", type=int, default=0, help="illegal actions mixed into the video (default: 0)")
    p.add_argument("--finish", action="store_true", help="video: start a few slides from solved and solve it (ends in 'done')")
    p.add_argument("--players", type=inputs.int_range(2, 4, "players"), default=None,
                   help="players in a Scavenger Hunt video dealt from --seed, 2 to 4 (default: 4)")
    p.add_argument("--fps", type=inputs.int_range(1, 240, "frames per second"), default=30,
                   help="video frames per second, 1 to 240 (default: 30)")
    p.set_defaults(func=run)


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise CallerError(f"--size {text!r}: expected WIDTHxHEIGHT such as 1280x720") from None
    if not (16 <= w <= 7680 and 16 <= h <= 4320):
        raise CallerError(f"--size {text!r}: expected 16x16 to 7680x4320")
    return w, h


def run(args: argparse.Namespace) -> int:
    from caller.outputs import check
    from rules.outputs import write_with_json
    from simulator.render import CLEAN

    out = Path(args.output)
    suffix = out.suffix.lower()
    size = _size(args.size)
    if args.video and suffix not in VIDEO_SUFFIXES:
        raise CallerError(f"-o {args.output!r}: a video needs a .mp4 or .avi file name")
    if not args.video and suffix not in STILL_SUFFIXES:
        hint = " (add --video for a video)" if suffix in VIDEO_SUFFIXES else ""
        raise CallerError(f"-o {args.output!r}: a still needs a .jpg or .png file name{hint}")
    if not 0 <= args.hands <= 4:
        raise CallerError(f"--hands {args.hands}: expected 0 to 4")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    if args.edition is not None and (args.look is not None or args.video or args.edition < 0):
        raise CallerError("--edition SEED (an integer >= 0) draws its own set: not with --look or --video")

    if args.layout is not None:
        layout = load_json(args.layout)
        if not isinstance(layout, dict):
            raise CallerError(f"{args.layout}: expected a JSON object with the layout, got {type(layout).__name__}")
        game = args.game or layout.get("game") or "easy-slider"
        if game not in games.names():
            raise CallerError(f"{args.layout}: unknown game {inputs.clip(game)}: expected one of {', '.join(games.names())}")
        if game == "easy-slider":  # a tile twice, an unknown code: refused, not drawn
            from rules.easy_slider.codec import parse_observation

            parse_observation(layout, what=args.layout)
    else:
        game = args.game or "easy-slider"
        layout = None
    conditions = dict(CLEAN) if args.clean else None
    truth_path = out.with_suffix(".json")
    check([out, truth_path], [args.layout])
    # the picture and its truth appear together or not at all
    write_with_json(out, truth_path, lambda path: _render(args, path, game, layout, seed, size, conditions))
    print(f"wrote {out} and {truth_path} (game {game}, seed {seed})")
    return 0


def _render(args: argparse.Namespace, path: str, game: str, layout, seed: int, size, conditions) -> dict:
    """Render the still or the video into ``path`` (a temporary file); returns the truth."""
    import cv2

    from simulator.errors import SimulatorError
    from simulator.games import layout_for
    from simulator.render import render_table

    out = Path(args.output)
    suffix = out.suffix.lower()
    if args.players is not None and not (args.video and game == "scavenger-hunt" and layout is None):
        raise CallerError("--players is for a Scavenger Hunt video dealt from --seed (a start position file names its players)")
    if args.video and game == "scavenger-hunt":
        from simulator.scavenger_hunt_video import random_game, render_scavenger_hunt_video

        if args.finish:
            raise CallerError("--finish is for Easy Slider videos; a Scavenger Hunt video plays --moves turns")
        if not (0 <= args.moves <= 200 and 0 <= args.illegal <= min(20, args.moves)):
            raise CallerError("--moves must be 0 to 200 and --illegal 0 to 20, at most one per turn")
        start, actions = random_game(seed, args.moves, players=args.players or 4, illegal=args.illegal, start=layout)
        render_video = partial(render_scavenger_hunt_video, start, actions)
    elif args.video:
        from simulator.video import finishing_game, random_actions, render_game_video

        if game != "easy-slider":
            raise CallerError(f"--video renders Easy Slider and Scavenger Hunt games, not {game}")
        if not (0 <= args.moves <= 200 and 0 <= args.illegal <= 20):
            raise CallerError("--moves must be 0 to 200 and --illegal 0 to 20")
        if args.finish:
            if layout is not None:
                raise CallerError("--finish deals its own start position: leave out the layout file")
            layout, actions = finishing_game(seed, max(1, args.moves))
        else:
            layout = layout if layout is not None else layout_for(game, seed, args.kind)
            actions = random_actions(layout, args.moves, seed=seed, illegal=args.illegal)
        render_video = partial(render_game_video, layout, actions)
    if args.video:
        try:
            truth = render_video(seed=seed, fps=args.fps, size=size, path=Path(path), look=args.look, conditions=conditions,
                                 progress=FrameBar(out.name, always=True))
        except SimulatorError as exc:  # name the user's file, not the temporary one
            raise SimulatorError(str(exc).replace(path, str(out))) from None
        cap = cv2.VideoCapture(path)
        ok = cap.isOpened() and cap.read()[0]
        cap.release()
        if not ok:
            raise SimulatorError(f"{out}: the video was written but cannot be read back (disk full? codec missing?)")
    else:
        layout = layout if layout is not None else layout_for(game, seed, args.kind)
        r = render_table(layout, seed=seed, game=game, look=args.look, size=size, hands=args.hands, conditions=conditions,
                         edition=args.edition)
        params = [cv2.IMWRITE_JPEG_QUALITY, 92] if suffix in (".jpg", ".jpeg") else []
        from vision import imagefile

        try:
            imagefile.write(path, r.image, params, like=out)
        except ValueError:
            raise CallerError(f"{out}: cannot write the image") from None
        truth = r.truth
    return truth
