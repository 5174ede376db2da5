"""The ``caller`` command line. Sub-commands live in ``caller/commands/``, one module each.

Every error a user can cause (a bad file, bad notation, no board in view, no camera)
is an exception under one of the packages' roots; ``main`` turns it into one line on
stderr and a non-zero exit status, never a traceback.
"""

from __future__ import annotations

import argparse
import errno
import os
import sys

from caller import __version__
from caller.commands import discover
from caller.errors import CallerError
from caller.progress import end_line
from caller.interrupts import exit_status, hidden_interrupt, terminate_as_interrupt
from caller.inputs import Parser, one_line
from calibration.errors import CalibrationError
import rules
from rules.errors import RulesError
from simulator.errors import SimulatorError
from vision.errors import VisionError
from rules.outputs.errors import OutputError
from voice.errors import VoiceError

USER_ERRORS = (CallerError, RulesError, VisionError, VoiceError, CalibrationError, SimulatorError, OutputError)
#: a write to stdout or stderr that fails with one of these is the disk's fault, not the program's
DISK_ERRNOS = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EROFS)

DESCRIPTION = f"""\
The table Caller: a camera assistant for piecepack sliding-tile games.

It deals and announces setups, reads the table through a webcam, checks every move
against the rules, warns about illegal moves and verifies "Done!" in race rounds.
Games: {", ".join(rules.names())}.
"""

EPILOG = """\
examples:
  caller demo                                   play the bundled sample game end to end
  caller setup --seed 7                         deal and announce an Easy Slider setup
  caller read sample_images/easy-slider_*.jpg   read boards from photos
  caller watch 0 --game easy-slider             call a game live from webcam 0

'caller COMMAND --help' explains each command.
"""


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="caller",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"caller {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in discover():
        module.register(sub)
    return parser


def quiet_video_libraries() -> None:
    """Keep FFmpeg's and OpenCV's own log lines (``moov atom not found``) off stderr: a file that
    cannot be opened is reported once, by the Caller's own error line. Set before any capture opens."""
    os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", "-8")  # AV_LOG_QUIET
    os.environ.setdefault("OPENCV_LOG_LEVEL", "SILENT")


def main(argv: list[str] | None = None) -> int:
    """Run one command. Errors: one line ``caller: error: ...`` on stderr, exit status 2 (or the
    error's own), never a traceback. ``caller`` alone, like a command group alone (``caller
    slide``), prints its help on stdout and exits 0."""
    quiet_video_libraries()
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        if not getattr(args, "func", None):
            parser.print_help()
            return 0
        with terminate_as_interrupt():
            status = int(args.func(args) or 0)
        _flush_stdout()
        return status
    except USER_ERRORS as exc:
        end_line()
        status = getattr(exc, "exit_status", 2)
        print(f"caller: error: {one_line(str(exc))}", file=sys.stderr)
        return status
    except KeyboardInterrupt as exc:
        return _interrupted(exc)
    except BrokenPipeError:
        _silence_stdout()  # the reader went away (| head): not an error
        return 0
    except OSError as exc:
        if exc.errno not in DISK_ERRNOS:
            interrupt = hidden_interrupt(exc)
            if interrupt is None:
                raise
            return _interrupted(interrupt)
        _silence_stdout()
        end_line()
        print(f"caller: error: cannot write {exc.filename or 'the output'} ({exc.strerror})", file=sys.stderr)
        return 2
    except Exception as exc:  # a library interrupted half-way raises its own error from the Ctrl-C
        interrupt = hidden_interrupt(exc)
        if interrupt is None:
            raise
        return _interrupted(interrupt)


def _interrupted(exc: KeyboardInterrupt) -> int:
    """Ctrl-C (130) or SIGTERM (143): one line, after the work so far was kept by the command."""
    end_line()
    status = exit_status(exc)
    print("caller: interrupted" if status == 130 else "caller: terminated", file=sys.stderr)
    return status


def _flush_stdout() -> None:
    """Flush what the command printed; a reader that went away (| head) does not change the exit status."""
    try:
        if sys.stdout is not None:
            sys.stdout.flush()
    except BrokenPipeError:
        _silence_stdout()


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so that the flush at exit does not fail a second time with a traceback."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


if __name__ == "__main__":
    raise SystemExit(main())
