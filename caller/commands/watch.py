"""``caller watch SOURCE --game G``: call a game live from a camera, a video or frames."""

from __future__ import annotations

import argparse
import sys

from caller import config as config_mod
from caller import games, inputs, listening
from caller.errors import CallerError
from caller.progress import end_line


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "watch",
        help="watch a game through the camera and call it",
        description=(
            "Watch a table and call the game: every legal slide is registered, an illegal change is "
            "announced once with its cells, and \"Done!\" is verified the moment the board matches the "
            "goal. In a game of turns (Scavenger Hunt, Slider) the Caller checks the start, says who starts, "
            "follows every move (a Slider coin's step, a forced pass), says whose turn it is and calls the winner "
            "or the tie; with --ai H|V it plays one side of Slider itself, saying its moves for a player to make. "
            "In Slide the camera watches one player's grid: each card turned face up and each card pushed in "
            "is followed, an illegal change said once, and the finished grid counted. "
            "In Steppin' Stones (a solitaire) the Caller checks the setup, reads the dice you roll beside the board "
            "(or rolls them itself with --dice caller), follows every move and flip, says when a suit reaches phase 2 "
            "and announces the win or the loss. "
            "SOURCE is a camera index (0), a video file, a folder or glob of frames, or a stream "
            "URL. Events are JSON lines (schema in the README). Times are source time: frame index / "
            "fps for files, so a recording gives the same events on any machine.\n\n"
            "Player commands: in the preview window press a (accept the new position after a warning), "
            "d (call Done!), q (quit); on an interactive terminal type accept, done or quit; for a "
            "recording give --commands FILE with lines 'SECONDS accept|done'."
        ),
        epilog=(
            "examples:\n"
            "  caller watch 0 --game easy-slider --preview\n"
            "  caller watch sample_images/easy-slider_game.mp4 --events - --no-voice\n"
            "  caller setup --seed 7 && caller watch 0 --setup-seed 7\n"
            "  caller watch frames/ --fps 10 --events game.jsonl --voice-out game.wav\n"
            "  caller watch 0 --game scavenger-hunt --players S,M,C --preview\n"
            "  caller watch 0 --game slider --ai V --level 3 --preview\n"
            "  caller watch 0 --game slide --preview\n"
            "  caller watch 0 --game steppin-stones --dice caller --preview"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("source", metavar="SOURCE", help="camera index, video file, folder/glob of frames, or stream URL")
    p.add_argument("--game", default="easy-slider", choices=games.names(),
                   help="the game on the table (camera play exists for "
                        + ", ".join(n for n in games.names() if games.entry(n).has("live")) + " so far)")
    p.add_argument("--profile", default=None, help="piece-set profile from 'caller calibrate' (a deck from 'caller calibrate --game slide'; "
                        "default: the standard look, or the bundled cards model)")
    p.add_argument("--camera", default=None, metavar="CAMERA.json",
                   help="camera profile from 'caller calibrate-camera': frames are undistorted before reading")
    p.add_argument("--events", metavar="FILE|-", default=None, help="write the events as JSON lines to FILE, or - for stdout")
    p.add_argument("--voice-out", metavar="WAV", default=None, help="also write every announcement to this WAV file")
    p.add_argument("--no-voice", action="store_true", help="do not speak (text and --voice-out still work)")
    p.add_argument("--preview", action="store_true", help="show a window with the overlay (needs a display)")
    p.add_argument("--setup-seed", type=inputs.seed, default=None,
                   help="verify the table against the setup 'caller setup --seed N' announced")
    p.add_argument("--players", metavar="S,M,C,A", default=None,
                   help="a game of turns: the players' pawns in turn order, 2-4 suit letters (default: the "
                        "pawns in the corners at the start, the near-left one first, then clockwise)")
    p.add_argument("--h-suit", dest="h_suit", metavar="S", default=None,
                   help="Slider: the suit of Horizontal's coins, lying suit side up (default S)")
    p.add_argument("--v-suit", dest="v_suit", metavar="A", default=None,
                   help="Slider: the suit of Vertical's coins (default A)")
    p.add_argument("--n", metavar="N", default=None,
                   help="Slider: the board size, 3-8 (default: the start's, on the squares of the tiles read, 2 a "
                        "tile, or one less for an odd board whose last row and column stay empty)")
    p.add_argument("--ai", metavar="H|V", default=None,
                   help="Slider: the Caller plays this side itself: it says its move and a player makes it on "
                        "the table for it")
    p.add_argument("--level", metavar="N", default=None,
                   help="Slider with --ai: how far the Caller looks ahead, 1-5 (default 3; the same board always "
                        "gets the same move)")
    p.add_argument("--dice", metavar="table|caller", default=None,
                   help="Steppin' Stones: table (default): you roll the dice beside the board and the Caller reads "
                        "them; caller: the Caller rolls and says the dice")
    p.add_argument("--seed", metavar="N", default=None,
                   help="Steppin' Stones with --dice caller: the Caller's rolls come from this seed (default: random)")
    p.add_argument("--commands", metavar="FILE", default=None, help="timed player commands for a recording")
    p.add_argument("--fps", type=inputs.positive_float, default=None, help="frames per second of a frame folder (default 30)")
    p.add_argument("--width", type=inputs.int_range(16, 7680, "a width in pixels"), default=None,
                   help="camera capture width (default: the camera's)")
    p.add_argument("--height", type=inputs.int_range(16, 4320, "a height in pixels"), default=None,
                   help="camera capture height")
    p.add_argument("--reconnect", action=argparse.BooleanOptionalAction, default=True,
                   help="a camera or stream that stops sending pictures is reported and reopened until it "
                        "comes back, and the same game goes on (default); --no-reconnect ends the session there")
    listening.add_arguments(p)
    config_mod.add_argument(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    result = watch(args)
    return 0 if result is not None and not result.source_problems else 1


def watch(args: argparse.Namespace, summary_stream=None):
    from caller.events import announce_event
    from caller.preview import Preview
    from caller.session import EventWriter, StdinCommands, load_commands, progress_bar, run_session
    from caller.sources import open_source
    from caller.watch import with_camera
    from vision.table_reader import table_reader
    from voice import Announcer, build_sinks
    from caller.outputs import check

    entry = games.entry(args.game)
    if entry.has("live"):  # a bad option is said first, before any file or camera is touched
        live_options(entry, args)
    entry.require("camera", f"watch --game {args.game}")
    entry.require("live", f"watch --game {args.game}")
    options = live_options(entry, args)
    check([args.events, args.voice_out], [args.source, args.commands, args.camera, args.config], args.profile)
    summary_stream = sys.stderr if summary_stream is None else summary_stream
    cfg = config_mod.load(args.config)
    table, sizes = watched_table(entry, options)
    reader = with_camera(table_reader(table, args.profile, cfg.section("vision"), profile_game=args.game, track=True,
                                      sizes=sizes), args.camera)  # a bad profile fails before the camera opens
    commands = load_commands(args.commands)
    setup = entry.game.setup(seed=args.setup_seed) if args.setup_seed is not None else None
    source = open_source(args.source, fps=args.fps, width=args.width, height=args.height,
                         reconnect=getattr(args, "reconnect", True))
    writer = EventWriter(args.events)
    console = sys.stderr if args.events == "-" else True
    sinks = build_sinks(cfg.voice, voice_out=args.voice_out, speaker=not args.no_voice, console=console)
    preview = Preview.open(lambda msg: print(f"caller: {msg}", file=sys.stderr)) if args.preview else None
    stdin = StdinCommands(sys.stdin) if source.live and sys.stdin is not None and sys.stdin.isatty() else None
    live = entry.live_caller(setup=setup, **options)
    ears, memory = None, listening.Memory()
    try:
        if getattr(args, "listen", False):  # caller demo has no --listen
            ears = listening.Ears(args.mic, (), stdin)
            commands = {**commands, **{t: commands.get(t, []) + c for t, c in ears.timed_commands().items()}}
            stdin = ears if ears.live or stdin is not None else None
        with Announcer(sinks, cfg.voice) as announcer:
            if ears is not None:
                ears.mute_while(announcer)
            def on_event(ev):
                ev = memory.fill(ev)
                writer.write(announce_event(announcer, ev))
            result = run_session(source, reader, live, on_event=on_event, commands=commands, preview=preview,
                                 stdin=stdin, progress=None if args.events == "-" else progress_bar(source.frame_count))
    finally:
        source.close()
        writer.close()
        if ears is not None:
            ears.close()
        if preview is not None:
            preview.close()
    end_line()  # a progress bar of a camera (no frame count) leaves its line open
    skipped = [n for n in result.source_problems if n.kind == "skipped"]
    if result.frames == 0 and skipped:
        raise CallerError(f"{args.source}: no frame could be read ({skipped[0].file or 'the first frame'}: "
                          f"not a picture or a video?)")
    fps = result.frames / result.seconds if result.seconds else 0.0
    print(f"caller: {result.frames} frames ({result.source_seconds:.1f} s of {source.description}) in "
          f"{result.seconds:.1f} s ({fps:.0f} frames/s, {result.reads} read); {summary(result.events, live)}",
          file=summary_stream)
    for line in source_problem_lines(result):
        print(f"caller: warning: {line}", file=sys.stderr)
    if not any(e.type == live.referee.board_event for e in result.events) and result.frames:
        if setup is not None and live.observed is not None:
            differences = live.referee.setup_mismatch(setup, live.observed)
            raise CallerError(f"{args.source}: {setup_mismatch(args.setup_seed, differences)}")
        if live.suspecting or live.blocked:  # a board was read, but never a start
            why = next((e.data.get("reason") for e in reversed(result.events) if e.type == "illegal"), None)
            raise CallerError(f"{args.source}: the table never showed a start position"
                              + (f" ({why})" if why else "") + ": lay out the start, or watch a whole game")
        raise CallerError(f"{args.source}: no board was read in {result.frames} frames (is the whole board in view?)")
    return result


def watched_table(entry, options: dict) -> tuple:
    """(the table the camera reads, the tiles a side it is to tell among, or None): a game
    whose board comes in sizes (its ``observed`` part, e.g. Slider) has the table of the size
    ``--n`` gives, else its default board's with the sizes the picture tells; any other game
    its one table."""
    observed = entry.record.part("observed")
    if observed is None:
        return entry.table, None
    return observed.read_table(options.get("n"))  # --n is the live referee's, checked by it


def live_options(entry, args: argparse.Namespace) -> dict:
    """The live referee's options from the command line (``--players``), refusing in one line
    an option the game's live Caller does not take (before any file or camera is touched)."""
    takes = entry.live.options
    players = getattr(args, "players", None)  # caller demo has no --players
    if players is not None and "players" not in takes:
        raise CallerError(f"--players: the live Caller of {entry.title} takes no players; the option names the "
                          "players of Scavenger Hunt (race players are named by 'caller race --players')")
    if getattr(args, "setup_seed", None) is not None and not entry.live.checks_setup:
        raise CallerError(f"--setup-seed: the live Caller checks an announced setup for Easy Slider only so far, "
                          f"not {entry.title}; it checks a {entry.title} start by the placement rules itself")
    options = {}
    if players is not None:
        options["players"] = entry.live.parse_players(players)
    for name in LIVE_OPTIONS:
        text = getattr(args, name, None)  # caller demo has none of them
        if text is None:
            continue
        flag = "--" + name.replace("_", "-")
        if name not in takes:
            can = [games.entry(g).title for g in games.names()
                   if games.entry(g).has("live") and name in games.entry(g).live.options]
            raise CallerError(f"{flag}: the live Caller of {entry.title} takes no such option"
                              + (f" (it is {' and '.join(can)}'s)" if can else ""))
        options[name] = getattr(entry.live, f"parse_{name}")(text)
    if options:
        entry.live(**options)  # options that do not go together (--level without --ai) refused here
    return options


#: the live referees' options that ``caller watch`` takes besides ``--players`` (a referee's
#: ``options`` says which it takes; each is parsed by its ``parse_<option>``)
LIVE_OPTIONS = ("h_suit", "v_suit", "n", "ai", "level", "dice", "seed")


def summary(events, live) -> str:
    """The session in numbers: slides and "Done!" for a race, turns and the winner for a game of turns."""
    illegal = sum(1 for e in events if e.type == "illegal")
    moves = sum(1 for e in events if e.type == "move")
    if live.referee.clock:
        done = next((e for e in events if e.type == "done"), None)
        return f"{moves} slides, {illegal} illegal, " + (f"done at {done.t:.1f} s" if done else "not done")
    own = live.referee.summary(events)
    if own is not None:
        return own
    won = next((e for e in events if e.type in ("won", "tie")), None)
    if won is None:
        end = "no winner yet"
    elif won.type == "tie":
        end = f"a tie at {won.t:.1f} s"
    else:  # Scavenger Hunt names the winner's suit as "player", Slider the winning "side"
        end = f"{won.data.get('player') or won.data.get('side')} won at {won.t:.1f} s"
    return f"{moves} turns, {illegal} illegal, " + end


def source_problem_lines(result) -> list[str]:
    """One line for each way the source fell short (``SessionResult.source_problems``): the
    frames skipped (together), a recording cut short, a camera that never came back."""
    problems = result.source_problems
    lines = []
    skipped = [n for n in problems if n.kind == "skipped"]
    if skipped:
        names = ", ".join(n.file or "?" for n in skipped[:5])
        more = f" and {len(skipped) - 5} more" if len(skipped) > 5 else ""
        lines.append(f"{len(skipped)} frame(s) could not be read and were skipped: {names}{more}")
    for n in problems:
        if n.kind == "truncated":
            lines.append(f"{n.detail}: the game so far is kept")
        elif n.kind == "lost":
            lines.append(f"{n.detail.split(';', 1)[0]} at {n.t:.1f} s and did not come back: the game so far is kept")
    return lines


def setup_mismatch(seed: int, differences: str) -> str:
    """Why the game never started with ``--setup-seed``: the table read differs from the setup
    announced; ``differences``: what differs and the first difference (the live referee's
    ``setup_mismatch``)."""
    return (f"the table never matched the setup announced for --setup-seed {seed}, so the game did not start "
            f"({differences}): lay out that setup, or watch without --setup-seed")
