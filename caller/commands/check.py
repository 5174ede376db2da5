"""``caller check LAYOUT.json [--json]``: is an Easy Slider layout legal, and is it done?"""

from __future__ import annotations

import argparse

from caller.jsonio import dumps_line, load_json
from rules.easy_slider.check import check_layout


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "check",
        help="check an Easy Slider layout: legal? done? which cells are wrong?",
        description=(
            "Read an Easy Slider layout (the 'caller read' JSON: board, pawns, coins; other keys are "
            "ignored) and say whether it is a legal position (all 24 tiles and one hole) and whether "
            "it is done: rows 1-4 hold the pawns' suits in the coins' values, the four nulls and the "
            "hole fill the bottom row in any order. Lists the wrong cells when it is not done. Exit "
            "status 0 when the check ran (the verdict is in the output), 2 for malformed input."
        ),
        epilog=(
            "examples:\n  caller setup --seed 7 --json > start.json && caller check start.json\n"
            "  caller check start.json --json\n"
            "JSON: {\"legal\": bool, \"done\": bool, \"problems\": [{\"cells\": [[r, c]], \"has\": ..., "
            "\"wants\": ..., \"message\": ...}]}"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("layout", metavar="LAYOUT.json")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    report = check_layout(load_json(args.layout), what=args.layout)
    if args.json:
        print(dumps_line(report))
        return 0
    if not report["legal"]:
        print("Not a legal position: " + "; ".join(p["message"] for p in report["problems"]) + ".")
    elif report["done"]:
        print("Done! The board matches the pawns and coins.")
    else:
        n = len(report["problems"])
        print(f"Not done: {n} cell{'s are' if n != 1 else ' is'} wrong.")
        for problem in report["problems"]:
            print("  " + problem["message"])
    return 0
