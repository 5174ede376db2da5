"""``caller slide score GRID.txt [--json]`` and ``caller slide explain BEFORE.txt AFTER.txt``: Slide's checks from files."""

from __future__ import annotations

import argparse

from caller.errors import CallerError
from caller.inputs import clip
from caller.jsonio import dumps_line, read_text


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "slide",
        help="Slide (Gigamic): score a finished grid, explain a grid change",
        description="Checks for Slide (Gigamic) from text files. 'caller play slide' is the text referee.",
        epilog=(
            "examples:\n"
            "  caller slide score grid.txt            24 points from 5 + 5 + 3 + 4 + 7 (5 cards left)\n"
            "  caller slide score grid.txt --json     {\"points\": 24, \"cards\": 5}\n"
            "  caller slide explain before.txt after.txt --middle 3,7"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.set_defaults(func=lambda args: (p.print_help(), 0)[1])  # the group alone: its help, like `caller` alone
    slide_sub = p.add_subparsers(dest="slide_command", metavar="SUBCOMMAND")

    s = slide_sub.add_parser(
        "score",
        help="score a finished 4x4 grid",
        description=(
            "Score a finished Slide grid: every card with an orthogonal neighbour of the same number is "
            "removed, and the score is the sum of the rest (lower is better). GRID.txt is 4 lines of 4 "
            "numbers 1 to 10 separated by spaces; blank lines and text after '#' are ignored."
        ),
        epilog="example:\n  caller slide score grid.txt --json      prints {\"points\": 24, \"cards\": 5}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    s.add_argument("grid", metavar="GRID.txt")
    s.add_argument("--json", action="store_true", help='print {"points": P, "cards": C} on one line')
    s.set_defaults(func=run_score)

    e = slide_sub.add_parser(
        "explain",
        help="say which reveal or push turned one observed grid into the next, or why none did",
        description=(
            "Compare two observed grids of one player and name the reveal or the push that explains the "
            "change, or say why no legal step does. Each file is 4 lines of 4 tokens: a number 1 to 10 "
            "(face up), '#' or '?' (face down), '.' (the hole). Exit status 0 when explained, 1 when not."
        ),
        epilog="example:\n  caller slide explain before.txt after.txt --middle 3,7 --json",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    e.add_argument("before", metavar="BEFORE.txt")
    e.add_argument("after", metavar="AFTER.txt")
    e.add_argument("--middle", default=None, help="the face-up cards in the middle before a push, e.g. 3,7,7")
    e.add_argument("--json", action="store_true", help="print the explanation as one JSON object")
    e.set_defaults(func=run_explain)


def run_score(args: argparse.Namespace) -> int:
    from rules.grid import Grid
    from rules.slide.notation import parse_grid_text, render_grid
    from rules.slide.state import Card, score_grid

    grid = parse_grid_text(read_text(args.grid), what=args.grid)
    score = score_grid(grid)
    if args.json:
        print(dumps_line(score.to_json()))
        return 0
    cards = Grid(tuple(tuple(Card(v, True) for v in row) for row in grid.rows))
    print(render_grid(cards, cancelled=score.cancelled))
    sum_text = " + ".join(map(str, score.left)) if score.left else "no cards"
    print(f"{score.points} points from {sum_text} ({score.cards} cards left, {len(score.cancelled)} cancelled)")
    return 0


def _parse_middle(text: str | None) -> list[int] | None:
    if text is None:
        return None
    from rules.slide.notation import number
    from rules.slide.state import NUMBERS

    cards = [number(w) for w in text.replace(",", " ").split()]
    if not all(c in NUMBERS for c in cards):
        raise CallerError(f"--middle {clip(text)}: expected card numbers 1 to 10 separated by commas, e.g. 3,7,7")
    return cards


def run_explain(args: argparse.Namespace) -> int:
    from rules.slide.explain import explain, parse_observed_text

    before = parse_observed_text(read_text(args.before), what=args.before)
    after = parse_observed_text(read_text(args.after), what=args.after)
    result = explain(before, after, _parse_middle(args.middle))
    if args.json:
        print(dumps_line(result.to_json()))
    else:
        print(("Legal: " if result.ok else "Not a legal step: ") + result.reason + ".")
    return 0 if result.ok else 1
