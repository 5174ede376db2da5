"""``caller listen SOURCE [--json]``: the hands-free phrases heard on a microphone or in a WAV file."""

from __future__ import annotations

import argparse
import sys

from caller.jsonio import dumps_line


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "listen",
        help="print the hands-free phrases ('Caller, done' ...) heard on a microphone or in a WAV file",
        description=(
            "Listen for 'Caller, done [NAME]', 'Caller, repeat', 'Caller, hint' and 'Caller, pause' "
            "with the offline keyword spotter that 'caller watch --listen' and 'caller race --listen' "
            "use, and print one line per phrase heard. SOURCE is a WAV file (any rate, 16-bit) or a "
            "microphone: an ALSA card index (0, 1) or device name (default, plughw:1,0). Times are "
            "seconds of audio from the start, at the end of the phrase. A microphone is listened to "
            "until Ctrl-C."
        ),
        epilog=(
            "examples:\n"
            "  caller listen round.wav --names Ann,Bob\n"
            "  caller listen default --json\n"
            "JSON: {\"t\": 3.21, \"phrase\": \"done\", \"name\": null}"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("source", metavar="SOURCE", help="a WAV file, or a microphone (ALSA card index or device name)")
    p.add_argument("--names", default="", help="players' names that may follow 'Caller, done', comma-separated")
    p.add_argument("--json", action="store_true", help="one JSON object per line")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from voice.listen import Spotter, open_audio
    from voice.listen.worker import spot

    names = [n.strip() for n in args.names.split(",") if n.strip()]
    spotter = Spotter(names)
    source = open_audio(args.source)

    def show(h) -> None:
        if args.json:
            print(dumps_line(h.to_json()), flush=True)
        else:
            who = f", {h.name}" if h.name else ""
            print(f"{h.t:7.2f} s  Caller, {h.phrase}{who}", flush=True)

    if source.live:
        print(f"caller: listening to {source.description}; Ctrl-C to stop", file=sys.stderr)
    try:
        spot(source, spotter, show)
    finally:
        source.close()
    return 0
