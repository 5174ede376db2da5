"""``caller race``: a race round of Easy Slider for several players, dealt, timed, verified and scored."""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

from caller import config as config_mod
from caller import games, inputs, listening
from caller.errors import CallerError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "race",
        help="deal, time, verify and score a race round for several players",
        description=(
            "One race round: the Caller deals one setup for everyone, announces it, says \"Go!\", "
            "watches every player's board, verifies each finish the moment it happens, records the "
            "order and scores the round as the rules text says (a finisher scores one point per "
            "player still solving, a fumble scores zero, every non-fumbler gets a bonus point per "
            "fumbler). Give one SOURCE per player (cameras or recordings), or one SOURCE with "
            "--split when one camera sees every board. A player who calls \"Done!\" on a wrong board "
            "fumbles: type 'done NAME' on the terminal, or give --commands with lines "
            "'SECONDS done NAME' for recordings. With --totals the round is added to a running "
            "score over --rounds rounds; a tie at the end calls a playoff round."
        ),
        epilog=(
            "examples:\n"
            "  caller race 0 1 --players Ann,Bob --seed 12\n"
            "  caller race 0 --split 2x1 --players Ann,Bob --seed 12 --totals game.json --rounds 3\n"
            "  caller race ann.mp4 bob.mp4 --players Ann,Bob --seed 12 --no-voice --out round1.json"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("sources", nargs="+", metavar="SOURCE", help="one per player, or one with --split")
    p.add_argument("--players", required=True, help="player names, comma-separated, in source/region order")
    p.add_argument("--seed", type=inputs.seed, default=None, help="deal the setup from this seed (default: random)")
    p.add_argument("--layout", default=None, metavar="LAYOUT.json",
                   help="play this layout (caller read schema) instead of dealing one, e.g. to replay a board")
    p.add_argument("--split", default=None, metavar="COLSxROWS", help="one camera, boards in equal regions (e.g. 2x1)")
    p.add_argument("--profile", default=None, help="piece-set profile from 'caller calibrate'")
    p.add_argument("--camera", default=None, metavar="CAMERA.json",
                   help="camera profile from 'caller calibrate-camera': frames are undistorted before reading")
    p.add_argument("--out", default="race-round.json", help="where to save the round (JSON)")
    p.add_argument("--totals", default=None, metavar="FILE", help="running totals over rounds (JSON, created if missing)")
    p.add_argument("--rounds", type=inputs.int_range(1, 1000, "a number of rounds"), default=None,
                   help="number of rounds agreed (with --totals)")
    p.add_argument("--commands", default=None, metavar="FILE", help="timed commands 'SECONDS done NAME' for recordings")
    p.add_argument("--events", default=None, metavar="FILE|-", help="write the events as JSON lines")
    p.add_argument("--voice-out", default=None, metavar="WAV", help="also write the announcements to this WAV")
    p.add_argument("--no-voice", action="store_true", help="do not speak")
    p.add_argument("--fps", type=inputs.positive_float, default=None, help="frames per second of frame folders")
    listening.add_arguments(p)
    config_mod.add_argument(p)
    p.set_defaults(func=run)

#: one camera sees at most this many boards across or down; more would leave each a few pixels
MAX_SPLIT = 8


def _parse_split(text: str | None) -> tuple[int, int] | None:
    if text is None:
        return None
    try:
        cols, rows = (int(v) for v in text.lower().split("x"))
        if not (1 <= cols <= MAX_SPLIT and 1 <= rows <= MAX_SPLIT):
            raise ValueError
    except ValueError:
        raise CallerError(f"--split {inputs.clip(text)}: expected COLSxROWS such as 2x1, "
                          f"each from 1 to {MAX_SPLIT}") from None
    return cols, rows


def _check_commands(commands: dict[float, list[str]], players: list[str], path: str | None) -> None:
    """Every timed command of a race is 'done NAME' for one of the players: anything else would be
    silently ignored in the middle of the round."""
    for t, cmds in sorted(commands.items()):
        for cmd in cmds:
            word, _, who = cmd.partition(" ")
            if word != "done" or who not in players:
                raise CallerError(f"{path}: at {t:g} s {inputs.clip(cmd)}: a race takes 'SECONDS done NAME' "
                                  f"with NAME one of {', '.join(players)}")


def _load_totals(path: Path, players: list[str], rounds: int | None) -> dict:
    if path.is_file():
        from caller.jsonio import load_json

        try:
            data = load_json(path)
        except CallerError as exc:
            raise CallerError(f"not a totals file: {exc}") from None
        if not isinstance(data, dict) or data.get("players") != players or not isinstance(data.get("rounds"), list):
            raise CallerError(f"{path}: totals of other players {data.get('players') if isinstance(data, dict) else '?'}, "
                              f"expected {players}")
        bad = next((r for r in data["rounds"] if not isinstance(r, dict) or set(r) != set(players)
                    or not all(type(v) is int for v in r.values())), None)
        if bad is not None:  # found now, not after the round has been played
            raise CallerError(f"{path}: a round's points must map each of {players} to a whole number, got {bad!r:.80}")
        if rounds is not None:
            data["rounds_planned"] = rounds
        return data
    return {"players": players, "rounds": [], "rounds_planned": rounds}


def _save(*pairs) -> None:
    """Write ``path, obj, path, obj...`` as JSON files that appear together (the round and the totals)."""
    from rules.outputs import OutputFiles

    paths = pairs[::2]
    with OutputFiles(*paths) as files:
        for path, obj in zip(paths, pairs[1::2]):
            with files.open(path) as fh:
                fh.write(json.dumps(obj, indent=1) + "\n")


#: the game a race round plays (its scoring is Easy Slider's race rules)
GAME = "easy-slider"


def run(args: argparse.Namespace) -> int:
    from caller.interrupts import unmasked_interrupts
    from caller.race import RaceRound, lockstep, run_round
    from caller.jsonio import load_json
    from caller.session import EventWriter, load_commands, typed
    from caller.sources import open_source
    from rules.easy_slider import race as scoring
    from caller.watch import with_camera
    from vision.reader import Reader
    from voice import Announcer, build_sinks
    from voice.phrasebook import easy_slider as phrases
    from caller.outputs import check

    entry = games.entry(GAME)
    entry.require("live", "race")  # the round's boards are called by the game's live referee
    players = [p.strip() for p in args.players.split(",") if p.strip()]
    if len(players) < 2 or len(set(players)) != len(players):
        raise CallerError(f"--players {args.players!r}: expected at least two distinct names")
    split = _parse_split(args.split)
    if split is None and len(args.sources) != len(players):
        raise CallerError(f"{len(players)} players need {len(players)} sources (or one source with --split), "
                          f"got {len(args.sources)}")
    if split is not None and (len(args.sources) != 1 or split[0] * split[1] != len(players)):
        raise CallerError(f"--split {args.split} gives {split[0] * split[1]} regions for one source; "
                          f"{len(players)} players need {len(players)}")
    check([args.out, args.totals, args.events, args.voice_out],
          [*args.sources, args.layout, args.commands, args.camera, args.config], args.profile)
    cfg = config_mod.load(args.config)
    reader = with_camera(Reader(profile=args.profile, config=cfg.section("vision")), args.camera)
    commands = load_commands(args.commands)
    _check_commands(commands, players, args.commands)
    totals_path = Path(args.totals) if args.totals else None
    totals = _load_totals(totals_path, players, args.rounds) if totals_path else None
    round_no = len(totals["rounds"]) + 1 if totals else 1
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    game = entry.game
    setup = game.from_json(load_json(args.layout)) if args.layout else game.setup(seed=seed)
    sources = [open_source(s, fps=args.fps) for s in args.sources]
    writer = EventWriter(args.events)
    sinks = build_sinks(cfg.voice, voice_out=args.voice_out, speaker=not args.no_voice,
                        console=sys.stderr if args.events == "-" else True)
    race = RaceRound(players, setup, reader, game=GAME)
    ears = None
    memory = listening.Memory()
    try:
        keyboard = typed(sources)  # the push-to-talk fallback: 'done NAME' ... on the terminal
        ears = listening.Ears(args.mic if args.listen else None, players, keyboard) if args.listen or keyboard else None
        with Announcer(sinks, cfg.voice) as announcer:
            if ears is not None:
                ears.mute_while(announcer)
            announcer.announce(f"Round {round_no}.")
            for line in phrases.setup_lines(setup):
                announcer.announce(line)
            announcer.announce(phrases.go())

            def on_event(ev):
                ev = memory.fill(ev)
                writer.write(ev)
                if ev.say and ev.type not in ("go", "board"):
                    announcer.announce(ev.say, priority="warning" if ev.warning else "routine")

            heard = listening.RaceListening(race, ears) if ears else None
            with unmasked_interrupts():  # a Ctrl-C inside the reader's compiled loops still keeps the round
                run_round(race, lockstep(sources, players, split), on_event, commands, heard)
            record = race.record(None if args.layout else seed, round_no)
            if totals is not None and record["complete"]:
                totals["rounds"].append(record["points"])
                sums = scoring.totals(totals["rounds"])
                record["totals"] = sums
                announcer.announce(phrases.totals(sums))
                planned = totals.get("rounds_planned")
                if planned and len(totals["rounds"]) >= planned:
                    announcer.announce(phrases.winner(sums))
                    record["playoff"] = list(scoring.playoff(sums))
            for p in players:
                taken = record["slides"][p]
                if taken:
                    announcer.announce(f"{p}: " + phrases.remark(taken, record["solution_length"]))
    except KeyboardInterrupt:  # Ctrl-C or SIGTERM: keep the round so far, unscored
        _save(args.out, race.record(None if args.layout else seed, round_no))
        print(f"caller: round {round_no} so far saved to {args.out}", file=sys.stderr)
        raise
    finally:
        for s in sources:
            s.close()
        writer.close()
        if ears is not None:
            ears.close()
    _save(args.out, record, *((totals_path, totals) if totals is not None and record["complete"] else ()))
    if not record["complete"]:
        print(f"caller: the sources ended with {sum(1 for b in race.boards.values() if not b.out)} players still "
              f"solving: round {round_no} saved to {args.out} unscored", file=sys.stderr)
        return 1
    order = ", ".join(f["player"] + (" (fumble)" if not f["correct"] else f" ({f['t']:.1f} s)") for f in record["finishes"])
    print(f"Round {round_no}: {order}; points " + ", ".join(f"{p} {v}" for p, v in record["points"].items()))
    return 0
