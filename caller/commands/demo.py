"""``caller demo``: play the bundled sample game through the whole pipeline and summarise it."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from caller import config as config_mod
from caller.errors import CallerError

#: each game's bundled recording (sample_images/) and what it shows
SAMPLES = {
    "easy-slider": ("easy-slider_game.mp4", "a player solving an Easy Slider board"),
    "scavenger-hunt": ("scavenger-hunt_game.mp4", "four players starting a game of Scavenger Hunt"),
    "slider": ("slider_game.mp4", "the Caller playing Vertical against a player on a 3x3 Slider board"),
    "slide": ("slide_game.mp4", "the last two rounds of a Slide game at one player's grid, and its count"),
    "steppin-stones": ("steppin-stones_game.mp4", "the first turns of a Steppin' Stones solitaire, the dice rolled "
                                                  "beside the board"),
}


def sample_dir() -> Path:
    """sample_images/ of this checkout (beside the packages), else of the current folder."""
    here = Path(__file__).resolve().parents[2] / "sample_images"
    return here if here.is_dir() else Path.cwd() / "sample_images"


def recording_options(video: Path, truth) -> dict:
    """A recording's options for the live Caller: a Slider board's size, and the side and level
    the Caller plays when the recording's computer played one; who rolled a Steppin' Stones
    game's dice (and the Caller's seed when it did)."""
    from caller.jsonio import load_json

    board = next((e for e in truth or () if e["type"] == "board"), None)
    if board is None:
        return {}
    whole = load_json(video.with_suffix(".json"))
    options = {}
    if "n" in board:
        options["n"] = str(board["n"])
        if whole.get("ai") is not None:
            options.update(ai=whole["ai"], level=str(whole.get("level")))
    if whole.get("dice") is not None:
        options["dice"] = whole["dice"]
        if whole["dice"] == "caller":
            options["seed"] = str(whole["start"]["seed"])
    return options


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "demo",
        help="play the bundled sample game end to end",
        description=(
            "Play a bundled recording through the whole pipeline: read every still frame, register each "
            "move, speak the Caller's announcements and check the game. Easy Slider (the default): a "
            "player solves a board (sample_images/easy-slider_game.mp4) and the Caller verifies "
            "\"Done!\". Scavenger Hunt: four players' first turns (sample_images/scavenger-hunt_game.mp4), "
            "each shift and pawn move called, whose turn it is said. Slider: the Caller plays Vertical itself "
            "(sample_images/slider_game.mp4), says its moves for the player to make and calls every move and "
            "the winner. Slide: one player's grid through the last two rounds (sample_images/slide_game.mp4), "
            "each card turned and pushed in followed, a card put straight into the hole called, and the "
            "finished grid counted. Steppin' Stones: a solitaire's first turns "
            "(sample_images/steppin-stones_game.mp4), the dice read as they are rolled beside the board, each move "
            "and flip called and an illegal move warned about. Speech goes to the speaker when "
            "there is one, and always to a WAV file (default caller-demo.wav), so a headless machine "
            "hears it later. Ends with a summary checked against the recording's truth file."
        ),
        epilog=("examples:\n  caller demo\n  caller demo --game scavenger-hunt\n  caller demo --game slide\n"
                "  caller demo --preview\n"
                "  caller demo --no-voice --voice-out /tmp/demo.wav"),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--game", default="easy-slider", choices=tuple(SAMPLES),
                   help="the game whose recording to play (default: easy-slider)")
    p.add_argument("--video", default=None, help="the recording to play (default: the game's in sample_images/)")
    p.add_argument("--voice-out", metavar="WAV", default="caller-demo.wav", help="WAV file of the announcements")
    p.add_argument("--no-voice", action="store_true", help="do not use the speaker")
    p.add_argument("--preview", action="store_true", help="show the overlay window (needs a display)")
    config_mod.add_argument(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from caller.commands.watch import watch
    from caller.session import load_truth, truth_summary

    name, what = SAMPLES[args.game]
    video = Path(args.video) if args.video else sample_dir() / name
    if not video.is_file():
        raise CallerError(f"{video}: sample recording not found (run from the repository, or give --video)")
    truth = load_truth(video.with_suffix(".json"))  # a malformed truth file stops here, before the run
    print(f"The Caller watches {video.name}: {what}.", flush=True)
    # a game of turns is told its players in turn order, as the recording deals them
    board = next((e for e in truth or () if e["type"] == "board" and "players" in e), None)
    players = ",".join(board["players"]) if board is not None and args.game != "easy-slider" else None
    ns = argparse.Namespace(source=str(video), game=args.game, profile=None, events=None,
                            voice_out=args.voice_out, no_voice=args.no_voice, preview=args.preview,
                            setup_seed=None, camera=None, commands=None, fps=None, width=None, height=None,
                            config=args.config, players=players, **recording_options(video, truth))
    result = watch(ns, summary_stream=sys.stdout)
    for ev in result.events:
        if ev.type == "move" and "tile" in ev.data:
            d = ev.data
            print(f"  {ev.t:6.2f} s  slide {d['tile']} from {d['from']} to {d['to']}")
        elif ev.type == "reveal":  # said by nobody: the camera sees the hole, not the card
            r, c = ev.data["cell"]
            print(f"  {ev.t:6.2f} s  reveal: the card at row {r + 1}, column {c + 1} turned face up")
        elif ev.type not in ("go", "board", "grid"):
            print(f"  {ev.t:6.2f} s  {ev.type}" + (f": {ev.say}" if ev.say else ""))
    summary = truth_summary(result.events, truth)
    ok = True
    if summary is not None:
        ok = summary["moves_match"] and summary["rolls_match"] and summary["done_called"] == summary["done_expected"] \
            and summary["illegal_announced"] == summary["illegal_expected"]
        moves = {"easy-slider": "slides", "slider": "coin moves", "slide": "reveals and pushes",
                 "steppin-stones": "moves and flips"}.get(args.game, "pawn moves")
        finish = {"slide": "the count", "steppin-stones": "the end"}.get(args.game, "the winner")
        end = ("Done! " + ("verified" if summary["done_called"] else "NOT called")) if args.game == "easy-slider" else \
            (f"{finish} " + ("called" if summary["done_called"] else "NOT called") if summary["done_expected"]
             else ("the game goes on" if args.game == "steppin-stones" else "no winner yet") + ", as in the recording")
        print(f"Summary: {summary['moves_registered']} of {summary['moves_expected']} {moves} registered "
              f"{'in order' if summary['moves_match'] else '(MISMATCH)'}, "
              f"{summary['illegal_announced']} illegal-move warnings (expected {summary['illegal_expected']}), "
              f"{end}.")
        if summary["rolls_expected"]:  # Steppin' Stones: the dice read as they were rolled
            print(f"Rolls: {'every one read as rolled' if summary['rolls_match'] else 'MISMATCH'} "
                  f"({summary['rolls_expected']} in the recording).")
        counted = next((e["scores"][0]["points"] for e in truth if e["type"] == "scores"), None)
        if counted is not None:  # Slide: the filmed grid's points as the rules count them
            said = next((e.data["points"] for e in result.events if e.type == "score"), None)
            ok = ok and said == counted
            print(f"The grid's count: {said} points said, {counted} in the recording"
                  f"{', the same' if said == counted else ' (MISMATCH)'}.")
        calls = [(e["from"], e["to"]) for e in truth if e["type"] == "call"]
        if calls:  # the Caller played a side: its moves said as the recording's computer chose them
            said = [(e.data["from"], e.data["to"]) for e in result.events if e.type == "call"]
            ok = ok and said == calls
            print(f"The Caller's own moves: {len(said)} said, {len(calls)} in the recording"
                  f"{', the same' if said == calls else ' (MISMATCH)'}.")
    if args.voice_out:
        print(f"The Caller's announcements are in {args.voice_out}.")
    return 0 if ok else 1
