"""``caller explain BEFORE.json AFTER.json [--json]``: which slides lead from one Easy Slider board to another?"""

from __future__ import annotations

import argparse

from caller.errors import CallerError
from caller.jsonio import dumps_line, load_json, load_position
from rules.easy_slider.codec import parse_observation
from rules.easy_slider.explain import explain
from rules.easy_slider.game import GAME


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "explain",
        help="explain a change between two Easy Slider boards as slides, or say why it is illegal",
        description=(
            "BEFORE is the last accepted position (a full, legal layout); AFTER is a newly observed "
            "layout. Prints the shortest sequence of legal slides that turns BEFORE into AFTER (a fast "
            "player makes several between two looks), or why no sequence exists: two tiles swapped, a "
            "tile lifted off the board, a diagonal move, a tile that jumped, pawns or coins moved. "
            "Exit status 0 when the explanation ran (the verdict is in the output), 2 for malformed "
            "input (including a tile twice in either file)."
        ),
        epilog=(
            "examples:\n  caller explain before.json after.json\n  caller explain before.json after.json --json\n"
            "JSON: {\"legal\": true, \"slides\": [{\"tile\": \"S5\", \"from\": [r, c], \"to\": [r, c]}, ...], "
            "\"shortest\": true}\n  or {\"legal\": false, \"reason\": \"...\", \"cells\": [[r, c], ...]}"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("before", metavar="BEFORE.json")
    p.add_argument("after", metavar="AFTER.json")
    p.add_argument(
        "--max-slides", type=int, default=None, metavar="N",
        help="call a change that needs more than N slides illegal (default: no limit)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.max_slides is not None and args.max_slides < 0:
        raise CallerError(f"--max-slides must be 0 or more, got {args.max_slides}")
    before = load_position(GAME, args.before)
    board, pawns, coins = parse_observation(load_json(args.after), what=args.after)
    result = explain(before, board, max_slides=args.max_slides, pawns=pawns, coins=coins)
    if args.json:
        print(dumps_line(result.to_json()))
        return 0
    if not result.legal:
        cells = ", ".join(f"[{r}, {c}]" for r, c in result.cells)
        print(f"Illegal: {result.reason}." + (f" Cells: {cells}." if cells else ""))
        return 0
    if not result.slides:
        print("No change.")
        return 0
    n = len(result.slides)
    kind = "" if result.shortest else " (a legal sequence; the search for the shortest gave up)"
    print(f"{n} slide{'s' if n != 1 else ''}{kind}:")
    for i, slide in enumerate(result.slides, 1):
        word = slide.direction.word if slide.direction else "?"
        print(f"  {i}. {slide.tile.spoken} ({slide.tile.code}) {word} from {list(slide.src)} to {list(slide.dst)}")
    return 0
