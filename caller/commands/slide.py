"""``caller slide score GRID.txt [--json]``, ``caller slide score-photo IMAGE... [--json]`` and
``caller slide explain BEFORE.txt AFTER.txt``: Slide's checks from files and photos."""

from __future__ import annotations

import argparse
import sys

from caller.errors import CallerError
from caller.inputs import clip, one_line
from caller.jsonio import dumps_line, read_text


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "slide",
        help="Slide (Gigamic): score a finished grid (typed or photographed), explain a grid change",
        description="Checks for Slide (Gigamic) from text files and photos. 'caller play slide' is the text referee.",
        epilog=(
            "examples:\n"
            "  caller slide score grid.txt            24 points from 5 + 5 + 3 + 4 + 7 (5 cards left)\n"
            "  caller slide score grid.txt --json     {\"points\": 24, \"cards\": 5}\n"
            "  caller slide score-photo grid.jpg      the same from a photo of the finished grid\n"
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

    ph = slide_sub.add_parser(
        "score-photo",
        help="score a finished 4x4 grid from a photo of it",
        description=(
            "Read a photo of one player's finished grid (all 16 cards face up; the camera any way round it, "
            "up to 35 degrees of tilt) and score it as 'caller slide score' does: every card with an "
            "orthogonal neighbour of the same number is removed, and the score is the sum of the rest. "
            "With one photo per player (in seating order from Player 1) it then says each player's points "
            "and the winner, fewer cards left breaking a tie on points, as the rules do. "
            "A photo the reader cannot read whole and sure (no grid in view, a card face down or missing, "
            "a card covered or in glare) is one error line naming the slots, exit status 1: take another."
        ),
        epilog=("examples:\n  caller slide score-photo grid.jpg\n"
                "  caller slide score-photo grid.jpg --json     "
                "prints {\"image\": ..., \"points\": 24, \"cards\": 5, \"grid\": [...], \"cancelled\": [...]}\n"
                "  caller slide score-photo ann.jpg bob.jpg     each player's points and the winner\n"
                "  caller slide score-photo ann.jpg bob.jpg --json   "
                "prints {\"players\": [one object each], \"places\": [1, 2], \"winners\": [0]}"),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ph.add_argument("images", metavar="IMAGE", nargs="+",
                    help="a photo of a finished grid (JPEG, PNG, ...); several: one per player, in seating order "
                         "from Player 1, and the winner is named")
    ph.add_argument("--profile", metavar="P", default=None,
                    help="your deck, learnt with 'caller calibrate --game slide' (default: the bundled cards model)")
    ph.add_argument("--json", action="store_true",
                    help="print the image, points, cards, the grid read and the cancelled slots as one JSON object")
    ph.set_defaults(func=run_score_photo)

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


def run_score_photo(args: argparse.Namespace) -> int:
    import rules
    from rules.grid import Grid
    from rules.slide.notation import render_grid
    from rules.slide.state import Card, score_grid
    from vision.errors import VisionError
    from vision.table_reader import table_reader
    from voice.phrasebook import slide as phrases

    reader = table_reader(rules.record("slide").table, args.profile)  # a bad profile: exit 2 before any image
    grids, unscored = [], []
    for image in args.images:
        try:
            obs = reader.read_file(image)
        except VisionError as exc:
            unscored.append((image, str(exc)))
            continue
        problems = _unfinished(obs)
        if problems:
            unscored.append((image, f"cannot score it: {problems}"))
        grids.append((image, obs))
    if unscored:  # one line: the first photo that gives no score, and how many more
        image, why = unscored[0]
        more = len(unscored) - 1
        return _unscored(image, why + (f" (and {more} more of the photos cannot be scored)" if more else ""))
    scores = [score_grid(Grid(tuple(tuple(row) for row in obs.grid))) for _, obs in grids]
    several = len(grids) > 1
    if args.json:
        photos = [{"image": image, **score.to_json(), "grid": [list(row) for row in obs.grid],
                   "cancelled": [list(cell) for cell in score.cancelled], "confidence": round(obs.confidence, 4)}
                  for (image, obs), score in zip(grids, scores)]
        if not several:
            print(dumps_line(photos[0]))
        else:
            from rules.slide.state import standings, winners

            print(dumps_line({"players": photos, "places": standings(scores), "winners": winners(scores)}))
        return 0
    for p, ((image, obs), score) in enumerate(zip(grids, scores)):
        cards = Grid(tuple(tuple(Card(v, True) for v in row) for row in obs.grid))
        who = f"{phrases.player(p)}, " if several else ""
        print(f"{who}{image}: row 1 the side the numerals' tops point to")
        print(render_grid(cards, cancelled=score.cancelled))
        sum_text = " + ".join(map(str, score.left)) if score.left else "no cards"
        print(f"{score.points} points from {sum_text} ({score.cards} cards left, {len(score.cancelled)} cancelled)")
    if several:  # the count as the Caller says it at the end of a game, with the rules' tie-break
        tiebreak = phrases.tiebreak_line(scores)
        print("\n".join(phrases.score_lines(scores)[1:-1] + ([tiebreak] if tiebreak else [])
                        + [phrases.winner_line(scores)]))
    return 0


def _unscored(image: str, why: str) -> int:
    """A photo that gives no score: one line on stderr, exit status 1 (as 'caller read' does)."""
    message = why if why.startswith(f"{image}:") else f"{image}: {why}"
    print(f"caller: error: {one_line(message)}", file=sys.stderr, flush=True)
    return 1


def _unfinished(obs) -> str:
    """Why a read grid cannot be scored, in words ('' when it can): slots not read sure, face
    down or empty, as [row, column] counted from 1 in the player's frame."""
    def slots(cells) -> str:
        return ", ".join(f"[{r + 1}, {c + 1}]" for r, c in cells)

    parts = []
    if obs.uncertain:
        parts.append(f"slots {slots(obs.uncertain)} are not read sure (covered, in glare or blurred)")
    doubt = set(obs.uncertain)
    down = [(r, c) for r, row in enumerate(obs.grid) for c, v in enumerate(row) if v == "down" and (r, c) not in doubt]
    empty = [(r, c) for r, row in enumerate(obs.grid) for c, v in enumerate(row) if v is None and (r, c) not in doubt]
    if down:
        parts.append(f"slots {slots(down)} hold a card face down")
    if empty:
        parts.append(f"slots {slots(empty)} are empty")
    return "; ".join(parts) + ("" if not parts else ": a finished grid has 16 cards face up")


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
