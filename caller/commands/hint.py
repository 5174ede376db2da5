"""``caller hint LAYOUT.json [--json]``: the next slide towards a done Easy Slider board."""

from __future__ import annotations

import argparse

from caller.jsonio import dumps_line, load_position
from rules.easy_slider.game import GAME
from rules.easy_slider.solver import hint


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "hint",
        help="suggest the next slide of an Easy Slider solution and how long that solution is",
        description=(
            "Solve the layout (a full, legal Easy Slider position) and print the first slide of the "
            "solution and its length. The solver is quick (well under a second) and its solutions are "
            "legal and reasonably short, not the shortest possible."
        ),
        epilog=(
            "examples:\n  caller setup --seed 7 --json > start.json && caller hint start.json\n"
            "  caller hint start.json --json\n"
            "JSON: {\"next\": {\"tile\": \"S5\", \"from\": [r, c], \"to\": [r, c]} or null, \"solution_length\": N}"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("layout", metavar="LAYOUT.json")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    state = load_position(GAME, args.layout)
    slide, length = hint(state)
    if args.json:
        print(dumps_line({"next": slide.to_json() if slide else None, "solution_length": length}))
        return 0
    if slide is None:
        print("Done already: nothing to slide.")
        return 0
    word = slide.direction.word if slide.direction else "?"
    print(
        f"Slide {slide.tile.spoken} ({slide.tile.code}) {word}, from {list(slide.src)} to {list(slide.dst)}. "
        f"A solution from here takes {length} slides."
    )
    return 0
