"""``caller read IMAGE... --game easy-slider [--profile P] [--json] [--debug DIR]``: read boards from photos.

A game whose rules turn the read squares into a position of their own words (the record's
``observed`` part: Slider's H, V and blocks) is printed as that position; its options
(``--n``, ``--h-suit``, ``--v-suit``) go to the rules, which say what they accept."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from caller import config as config_mod
from caller import games
from caller.errors import CallerError
from caller.inputs import one_line
from caller.jsonio import dumps_line


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "read",
        help="read a game's board from camera images",
        description=(
            "Find the board in each image (any side of the table, up to 40 degrees of tilt), read every "
            "tile, pawn and coin, and print the position in the player's frame. Easy Slider: the pawns tell "
            "which side is left, the coins which is the top. Scavenger Hunt: the coins (value or suit side up) "
            "and pawns on the 8x12 squares, in whichever of the board's two half turns its coins read "
            "upright. Steppin' Stones: the coins and pawns on the 8x8 squares, turned so that each face-up home "
            "tile is its suit's ace where the game puts it, and the dice beside the board. Slider: the NxN board "
            "(H, V, B: coins of two suits suit side up, a die) in the camera's frame, row 0 the side farthest "
            "from the camera; N from the tiles seen (4, 6 or 8) unless --n says it (an odd N must be given). "
            "Slide: one player's 4x4 grid of cards, each slot a number 1-10, down (face down) or empty, row 0 "
            "the side the numerals' tops point to, whichever way round the camera sees it. What the reader is "
            "not sure of (a hand over it, glare) is listed as uncertain. An image "
            "that cannot be read gives one error line and the others are still read; the exit status is 1 "
            "when any image failed."
        ),
        epilog=(
            "examples:\n"
            "  caller read sample_images/easy-slider_setup_standard.jpg\n"
            "  caller read frames/*.jpg --json\n"
            "  caller read table.jpg --profile my-set --json --debug debug/\n"
            "  caller read sample_images/scavenger-hunt_a.jpg --game scavenger-hunt --json\n"
            "  caller read sample_images/steppin-stones_a.jpg --game steppin-stones --json\n"
            "  caller read sample_images/slider_a.jpg --game slider --n 5 --json\n"
            "  caller read sample_images/slide_a.jpg --game slide --json\n"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("images", nargs="+", metavar="IMAGE", help="image files (JPEG, PNG, ...)")
    p.add_argument("--game", default="easy-slider", choices=games.names(),
                   help="the game on the table (default: easy-slider; the camera reads "
                        + ", ".join(n for n in games.names() if games.entry(n).has("camera")) + " so far)")
    p.add_argument("--profile", metavar="P", default=None, help="piece-set profile from 'caller calibrate' (default: the standard set)")
    config_mod.add_argument(p)
    p.add_argument("--json", action="store_true", help="one JSON object per image, one per line")
    p.add_argument("--debug", metavar="DIR", default=None, help="write the found grid, rectified board and cell crops here")
    p.add_argument("--n", type=int, default=None, metavar="N",
                   help="Slider: the board's size (default: from the tiles seen, 4, 6 or 8; an odd N must be given)")
    p.add_argument("--h-suit", default=None, metavar="S", help="Slider: the suit of H's coins (default S)")
    p.add_argument("--v-suit", default=None, metavar="S", help="Slider: the suit of V's coins (default A)")
    p.set_defaults(func=run)


#: a photo is read as a board only when at least this many of its 25 cells are read sure:
#: a hand over a board leaves most cells sure, while another game's tiles on the table
#: (Slide's or Steppin' Stones' boards) give a lattice whose cells nearly all fit no tile
MIN_SURE_CELLS = 13


def _require_board(obs) -> None:
    """Raise BoardNotFound when too few cells are read sure to call the picture a board of this game."""
    from vision.errors import BoardNotFound

    cells = sum(len(row) for row in obs.board)
    sure = cells - len(obs.uncertain)
    if sure < MIN_SURE_CELLS:
        raise BoardNotFound(f"no board in view: tiles on a lattice, but only {sure} of {cells} cells look like "
                            f"tiles of the set (another game's board, the board mostly covered, or a set this profile "
                            f"does not know: learn it with 'caller calibrate')")


def run(args: argparse.Namespace) -> int:
    from vision.debug import write_debug, write_failure
    from vision.errors import VisionError
    from vision.reader import Reader, read_image_file
    from vision.table_reader import SquaresReader, table_reader, what_it_reads

    from rules.errors import MalformedPosition

    entry = games.entry(args.game)
    entry.require("camera", f"read --game {args.game}")  # before any file is touched
    observed = entry.record.part("observed")
    given = [flag for flag, value in (("--n", args.n), ("--h-suit", args.h_suit), ("--v-suit", args.v_suit))
             if value is not None]
    if observed is None and given:
        raise CallerError(f"read --game {args.game}: {', '.join(given)} not taken: {entry.title}'s board has one size and look")
    table, sizes = entry.table, None
    if observed is not None:
        try:
            table, sizes = observed.read_table(args.n, args.h_suit, args.v_suit)
        except MalformedPosition as exc:
            raise CallerError(f"read --game {args.game}: {exc}") from None
    kind = what_it_reads(table)
    squares = kind in ("squares", "cards")
    if squares and args.debug:
        raise CallerError(f"read --game {args.game}: --debug pictures are made for face-up boards only so far")
    if args.debug:
        from rules.outputs import check_folder

        check_folder(args.debug)  # before any image is read
    config = config_mod.load(args.config).section("vision")
    # a bad profile stops here, before any image
    if squares:
        squares_reader = (SquaresReader(table, args.profile, config, sizes=sizes) if kind == "squares"
                          else table_reader(table, args.profile, config))

        def look(image):
            return squares_reader.read(image), None
    else:
        reader = Reader(args.profile, config, game=args.game)

        def look(image):
            analysis = reader.examine(image)
            obs = reader.observe(analysis)
            _require_board(obs)
            return obs, analysis
    failed = 0
    for name in args.images:
        stem = Path(name).stem
        image = None
        try:
            image = read_image_file(name)
            obs, analysis = look(image)
            position = None if observed is None else observed.position_from_read(obs.coins, args.n, args.h_suit, args.v_suit)
        except (VisionError, MalformedPosition) as exc:
            failed += 1
            if args.json:  # the JSON stream keeps one object per image
                print(dumps_line({"image": name, "error": str(exc)}), flush=True)
            message = str(exc) if str(exc).startswith(f"{name}:") else f"{name}: {exc}"
            print(f"caller: error: {one_line(message)}", file=sys.stderr, flush=True)
            if args.debug and image is not None:
                write_failure(args.debug, stem, image, config, str(exc))
            continue
        layered = obs.layered()
        if position is not None:
            print(dumps_line(_position_json(layered, position, name, args.game)) if args.json
                  else _position_report(layered, position, name), flush=True)
        else:
            print(dumps_line(layered.to_json(image=name, game=args.game)) if args.json else layered.report(name), flush=True)
        if args.debug:
            write_debug(args.debug, stem, image, analysis, obs, config)
    if failed:
        print(f"caller: error: {failed} of {len(args.images)} images could not be read", file=sys.stderr)
        return 1
    return 0


def _position_json(layered, position: dict, image: str, game: str) -> dict:
    """The JSON of a read turned into the game's position (``observed``): the position's keys
    in place of the squares' layers; the uncertain squares those on the position's board."""
    read = layered.to_json(image=image, game=game)
    rows = len(position["board"])
    out = {"image": image, "game": game, **position, "confidence": read["confidence"],
           "uncertain": [cell for cell in read["uncertain"] if cell[0] < rows and cell[1] < rows]}
    return {**out, "board_corners": read["board_corners"]}


def _position_report(layered, position: dict, image: str) -> str:
    """The text of a read turned into the game's position: a line a row (``-`` empty), ``?``
    after an uncertain square."""
    doubt = {tuple(cell) for cell in layered.uncertain_cells()}
    board = position["board"]
    lines = [f"{image}: confidence {layered.confidence:.2f}, {len(board)}x{len(board[0])} board, "
             f"row 1 the side farthest from the camera"]
    for r, row in enumerate(board):
        lines.append("  " + " ".join((cell or "-") + ("?" if (r, c) in doubt else " ") for c, cell in enumerate(row)).rstrip())
    return "\n".join(lines)
