"""``caller slider count|play|explain``: Slider's own tools (the course project's counter, play against the computer, explain a change)."""

from __future__ import annotations

import argparse
from pathlib import Path

from caller.jsonio import read_text
from caller.referees import slider as referee
from rules.slider.notation import parse_text
from rules.slider.state import Side, SliderState
from rules.slider.explain import explain_change


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "slider",
        help="Slider (Leckie & Erfani) tools: count legal moves, play the computer, explain a change",
        description="Tools for Slider (Leckie & Erfani); boards use the course project's text format "
        "(first line N, then N rows from the top of H, V, B, + separated by spaces).",
        epilog="examples:\n  caller slider count board.txt\n  caller slider play --ai V --n 5\n"
        "  caller slider explain before.txt after.txt --turn H",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.set_defaults(func=lambda args: (p.print_help(), 0)[1])  # the group alone: its help, like `caller` alone
    ss = p.add_subparsers(dest="slider_command", metavar="SUBCOMMAND")

    c = ss.add_parser(
        "count",
        help="print the number of legal moves of H, then of V",
        description="Print the number of legal moves for H on the first line and for V on the second "
        "(moves off the board edge count), for a board in the course project's text format.",
        epilog="example:\n  caller slider count tests/data/slider/input1.txt   # prints 9 and 8",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    c.add_argument("board", metavar="BOARD.txt")
    c.set_defaults(func=run_count)

    pl = ss.add_parser(
        "play",
        help="play against the computer in the terminal",
        description=referee.DESCRIPTION,
        epilog=referee.EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    referee.add_arguments(pl, ai_required=True)
    pl.set_defaults(func=referee.run)

    e = ss.add_parser(
        "explain",
        help="say which move turns one board into another, or why no legal move does",
        description="Compare two boards (text format) and print the move between them as '(i,j): DIR', "
        "'pass', 'no change', or 'illegal: REASON' (exit status 1 when illegal).",
        epilog="example:\n  caller slider explain before.txt after.txt --turn V",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    e.add_argument("before", metavar="BEFORE.txt")
    e.add_argument("after", metavar="AFTER.txt")
    e.add_argument("--turn", choices=["H", "V"], type=str.upper, default="H", help="who was to move on BEFORE (default H)")
    e.set_defaults(func=run_explain)


def read_board(path: str, to_move: str = "H") -> SliderState:
    """The board in a course-format text file, ``to_move`` to play; one-line CallerError when unreadable."""
    return parse_text(read_text(path), to_move=to_move, source=str(Path(path)))


def run_count(args: argparse.Namespace) -> int:
    h, v = read_board(args.board).count_moves()
    print(h)
    print(v)
    return 0


def run_explain(args: argparse.Namespace) -> int:
    before = read_board(args.before, Side.parse(args.turn).value)
    after = read_board(args.after)
    report = explain_change(before, after)
    print(report)
    return 0 if report.legal else 1
