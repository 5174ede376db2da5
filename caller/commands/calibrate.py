"""``caller calibrate``: learn the look of the user's own piece set from photos of known layouts.

Two ways in:

* ``caller calibrate IMAGE... --truth LAYOUT.json... --out PROFILE``: photos whose layout
  is known (the ``caller read`` JSON schema; one truth per image, or one for all);
* ``caller calibrate --setup SEED --out PROFILE [--camera-source 0]``: the guided flow. The
  Caller announces a setup, the player lays it out and presses Enter, the camera takes the
  photo; the announced layout is the truth;
* ``caller calibrate --game slide IMAGE --out DECK``: a deck of Slide cards, from one photo
  of its numbers laid out as ``calibration.deck.DECK_LAYOUT`` says.

The profile is ``PROFILE.json`` (readable) + ``PROFILE.npz`` (arrays); ``caller read`` and
``caller watch`` take it with ``--profile PROFILE``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2

from calibration.augment import N_AUGMENT
from calibration.camera import load_camera_profile
from calibration.corners import CORNERS_HELP, parse_corners
from calibration.errors import BoardNotSeen, CalibrationError
from calibration.corners import BadCorners
from calibration.truth import load_truths, pair_truths
from caller import config as config_mod
from caller import inputs
from caller.inputs import read_line

#: each variation is a warped copy of the photo kept in memory while learning; four times the
#: default is plenty (the held-out error stops improving well before) and bounds time and memory
MAX_AUGMENT = 4 * N_AUGMENT


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "calibrate",
        help="learn your own piece set (tiles, coins, pawns) from one photo of a known layout",
        description=(
            "Learn the look of your piece set, light and camera from photos of layouts you know, so that "
            "'caller read' and 'caller watch' read your set (pass them --profile PROFILE). One photo is "
            "enough; more photos (other lights, other positions) make the profile sturdier. A layout that "
            "does not match its photo is refused, naming the cells, pawns or coins that differ."
        ),
        epilog=(
            "examples:\n"
            "  caller calibrate table.jpg --truth layout.json --out myset\n"
            "  caller calibrate a.jpg b.jpg --truth a.json b.json --camera camera.json --out myset\n"
            "  caller calibrate --setup 7 --out myset                 guided: webcam 0, spoken setup\n"
            "  caller calibrate --setup 7 --camera-source shot.jpg --no-voice --out myset\n"
            "  caller calibrate dark.jpg --truth layout.json --corners 441,215 836,177 924,562 464,618 --out myset\n"
            "                     the board's outer corners (far-left first, clockwise) when it is not found\n"
            "  caller read photo.jpg --profile myset --json\n"
            "  caller calibrate --game slide deck.jpg --out mydeck     a deck of Slide cards: 1-10 in reading order,\n"
            "                     then six face down (see docs/games/slide.md)\n"
            "\n"
            "When the board is not found in a photo: with a display, a window opens on the photo to click\n"
            "its four corners (far-left first, clockwise; Enter accepts, Esc cancels); without one (or with\n"
            "[calibration] preview = false), pass them with --corners. See docs/calibration.md.\n"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("images", nargs="*", metavar="IMAGE", help="photos of the board (any angle, whole board in view)")
    p.add_argument("--game", choices=("easy-slider", "slide"), default="easy-slider",
                   help="what to learn: an Easy Slider piece set (default), or a deck of Slide cards from one "
                        "photo of a 4x4 grid: 1-10 in reading order from the far-left corner, then six cards face down")
    p.add_argument("--truth", nargs="+", metavar="LAYOUT.json", default=[], help="the layouts shown (caller read schema)")
    p.add_argument("--out", metavar="PROFILE", required=True, help="profile to write: PROFILE.json and PROFILE.npz")
    p.add_argument("--corners", nargs="+", metavar="X,Y", default=None,
                   help=f"{CORNERS_HELP}: the board is built from them instead of searched for (one IMAGE, or the "
                        "guided flow's photo)")
    p.add_argument("--debug", metavar="DIR", default=None,
                   help="write what was tried on each photo here (tile-like quads, lattice, corners)")
    p.add_argument("--name", default=None, help="name stored in the profile (default: the file name)")
    p.add_argument("--camera", metavar="CAMERA.json", default=None, help="camera profile: undistort photos first")
    p.add_argument("--setup", metavar="SEED", type=inputs.seed, default=None, help="guided flow: announce the setup of this seed")
    p.add_argument("--camera-source", metavar="SOURCE", default="0",
                   help="guided flow: camera index, video, folder or image standing in for the camera (default 0)")
    p.add_argument("--no-voice", action="store_true", help="guided flow: print the setup instead of speaking it")
    p.add_argument("--voice-out", metavar="WAV", default=None, help="guided flow: also write the spoken setup to a WAV file")
    p.add_argument("--keep-photo", action="store_true", help="guided flow: save the photo and its truth beside the profile")
    p.add_argument("--augment", type=inputs.int_range(1, MAX_AUGMENT, "a number of variations"), default=N_AUGMENT,
                   help=f"variations learnt per photo, 1 to {MAX_AUGMENT} (default {N_AUGMENT})")
    p.add_argument("--seed", type=inputs.seed, default=0, help="seed of the variations (same seed, same profile)")
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    config_mod.add_argument(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if getattr(args, "game", "easy-slider") == "slide":
        return _run_deck(args)
    # imported here: learning pulls in scipy, which `caller --help` should not wait for
    from calibration.learn import learn_profile
    from caller.outputs import check, profile_outputs

    corners = _corners_arg(args)  # bad corners: one line before anything is read
    debug = getattr(args, "debug", None)  # (a Namespace built by hand may have neither)
    camera = load_camera_profile(args.camera) if args.camera else None
    log = (lambda msg: None) if args.quiet else (lambda msg: print(msg, file=sys.stderr, flush=True))
    cfg = config_mod.load(args.config)  # a bad settings file fails before any photo is taken or read
    if debug:
        from rules.outputs import check_folder

        check_folder(debug)
    kept = _kept_paths(args.out) if args.keep_photo and args.setup is not None else ()
    voice_out = args.voice_out if args.setup is not None else None
    check([*profile_outputs(args.out), *kept, voice_out], [*args.images, *args.truth, args.camera, args.camera_source])
    if args.setup is not None:
        if args.images or args.truth:
            raise CalibrationError("--setup takes the photo itself: give no IMAGE or --truth with it")
        photos, truths = _guided(args, log, cfg.voice)
    else:
        if not args.images:
            raise CalibrationError("no photos given: expected IMAGE... --truth LAYOUT.json..., or --setup SEED for the guided flow")
        if not args.truth:
            raise CalibrationError("--truth LAYOUT.json is required: the layout each photo shows (caller read schema)")
        truths = pair_truths(args.images, load_truths(args.truth))
        photos = [(path, _read_image(path)) for path in args.images]
    name = args.name or Path(args.out).name.removesuffix(".json").removesuffix(".npz")
    vision_cfg, calib_cfg = cfg.section("vision"), cfg.section("calibration")
    seen = None
    if debug:
        from calibration.debug import write_calibration_debug

        def seen(src, image, analysis, error):
            log(f"wrote {write_calibration_debug(debug, src, image, analysis, error, vision_cfg)}")

    result = learn_profile(photos, truths, name=name, camera=camera, n_augment=args.augment, seed=args.seed, progress=log,
                           config=vision_cfg, calibration=calib_cfg, corners=None if corners is None else [corners],
                           ask_corners=_corner_asker(calib_cfg, log), seen=seen)
    from vision.profile import save_profile

    jpath, npath = save_profile(result.profile, args.out)
    err = result.validation.get("tiles", {}).get("held_out_error", 0.0)
    print(f"wrote {jpath} and {npath}: profile {name!r} learnt from {len(photos)} photo(s) in {result.seconds:.1f} s "
          f"(tile error on held-out variations {100 * err:.1f}%)")
    return 0


def _run_deck(args: argparse.Namespace) -> int:
    """``caller calibrate --game slide IMAGE --out DECK``: a deck learnt from one photo (``calibration.deck``)."""
    from calibration.deck import learn_deck
    from caller.outputs import check, profile_outputs
    from vision.cards import CARDS_MODEL
    from vision.errors import BoardNotFound
    from vision.profile import load_profile, save_profile

    others = [flag for flag, value in (("--truth", args.truth), ("--setup", args.setup), ("--corners", args.corners),
                                       ("--camera", args.camera), ("--keep-photo", args.keep_photo)) if value]
    if others:
        raise CalibrationError(f"--game slide learns a deck from one photo of its documented layout: "
                               f"{', '.join(others)} not taken")
    if len(args.images) != 1:
        raise CalibrationError(f"--game slide learns a deck from one photo: give exactly one IMAGE, not {len(args.images)}")
    check([*profile_outputs(args.out)], args.images)
    image = _read_image(args.images[0])
    name = args.name or Path(args.out).name.removesuffix(".json").removesuffix(".npz")
    try:
        result = learn_deck(image, load_profile(CARDS_MODEL, game="cards", kinds=("cards",)), name)
    except BoardNotFound as exc:
        raise BoardNotSeen(f"{args.images[0]}: {exc}") from None
    jpath, npath = save_profile(result.profile, args.out)
    print(f"wrote {jpath} and {npath}: deck {name!r} learnt from {args.images[0]} (the bundled model already read "
          f"{result.familiar} of its 10 numbers); read with: caller read PHOTO --game slide --profile {args.out}")
    return 0


def _corners_arg(args: argparse.Namespace):
    """The --corners given (4 x 2 px), None without; refuses them with anything but one photo."""
    if getattr(args, "corners", None) is None:
        return None
    if args.setup is None and len(args.images) != 1:
        raise BadCorners(f"--corners gives the board of one photo: pass exactly one IMAGE with it, not {len(args.images)} "
                         "(calibrate each photo whose board is not found on its own, or click the corners when asked)")
    return parse_corners(args.corners)


def _corner_asker(calibration_config, log):
    """What to do with a photo whose board is not found: click its corners in a window when a
    display exists and ``[calibration] preview`` allows it, else one line saying to pass --corners."""
    from caller.preview import display_available

    def ask(src: str, image, why: str):
        if calibration_config.preview and display_available():
            from calibration.click import click_corners

            log(f"{src}: {why}; click the board's four corners in the window (far-left first, clockwise)")
            try:
                return click_corners(image, src)
            except cv2.error as exc:
                log(f"this OpenCV cannot open a window ({exc.__class__.__name__})")
        raise BoardNotSeen(f"{src}: {why}; if you can see the board, pass its outer corners in image pixels: "
                           "--corners x,y x,y x,y x,y (far-left first, clockwise)")

    return ask


def _kept_paths(out: str) -> tuple[Path, Path]:
    """Where ``--keep-photo`` saves the guided flow's photo and its truth, beside the profile."""
    stem = Path(out)
    return stem.with_name(stem.name + ".photo.png"), stem.with_name(stem.name + ".truth.json")


def _read_image(path: str):
    from vision.reader import read_image_file

    return read_image_file(path)  # missing, not an image, a header claiming too many pixels: one line


def _guided(args: argparse.Namespace, log, voice_config=None):
    from calibration.guided import guided_shot
    from caller.sources import open_source

    def announce(lines: list[str]) -> None:
        print(f"Easy Slider setup (seed {args.setup}):")
        for line in lines:
            print(line)
        sys.stdout.flush()
        if not args.no_voice or args.voice_out:
            from voice import say

            say(lines, voice_out=args.voice_out, speaker=not args.no_voice, config=voice_config)

    def ask(prompt: str) -> str:
        sys.stdout.write(prompt)
        sys.stdout.flush()
        line = read_line(sys.stdin)  # bounded; a closed stdin is the end of input
        if not line:
            raise EOFError
        return line

    # one photo: a camera lost while it is taken ends the wait (no reconnecting) with a clear line
    shot = guided_shot(args.setup, lambda: open_source(args.camera_source, reconnect=False), announce=announce, ask=ask)
    log(f"photo taken ({shot.image.shape[1]}x{shot.image.shape[0]} px)")
    if args.keep_photo:
        from rules.outputs import OutputError, write_with_json
        from vision import imagefile

        photo, truth = _kept_paths(args.out)

        def write_photo(path: str) -> dict:
            try:
                imagefile.write(path, shot.image, like=photo)
            except ValueError:
                raise OutputError(str(photo), "cannot write the image") from None
            return dict(shot.truth.to_json(), image=photo.name)

        write_with_json(photo, truth, write_photo, indent=None)
        log(f"kept {photo} and {truth}")
    return [(f"setup {args.setup} photo", shot.image)], [shot.truth]
