"""``caller calibrate-camera FRAMES... --out CAMERA.json``: lens intrinsics from chessboard or ChArUco photos."""

from __future__ import annotations

import argparse
import sys


from calibration.camera import (
    ARUCO_DICTIONARIES,
    PATTERN_KINDS,
    Pattern,
    calibrate_camera,
    frames_from_paths,
    save_camera_profile,
)
from calibration.errors import CalibrationError
from caller.progress import FrameBar, end_line


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "calibrate-camera",
        help="learn the webcam's focal length and lens distortion from photos of a printed pattern",
        description=(
            "Calibrate the camera from photos of a flat printed chessboard or ChArUco sheet taken at "
            "several angles (10-20 frames, sheet filling much of the view, tilted 15-45 degrees). Writes a "
            "camera profile (JSON: K, distortion, image size, RMS error) that 'caller read', 'caller watch' "
            "and 'caller calibrate' take with --camera to undistort frames. Reading works without one. "
            "--cols/--rows count SQUARES across and down, not inner corners."
        ),
        epilog=(
            "examples:\n"
            "  caller calibrate-camera --print-board sheet.png --pattern charuco --cols 7 --rows 5\n"
            "  caller calibrate-camera shots/*.jpg --pattern charuco --cols 7 --rows 5 --square-mm 30 --out camera.json\n"
            "  caller calibrate-camera shots/*.png --pattern chessboard --cols 9 --rows 7 --square-mm 25 --out camera.json\n"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("frames", nargs="*", metavar="FRAME", help="photos of the pattern (all at one resolution)")
    p.add_argument("--out", metavar="CAMERA.json", help="where to write the camera profile")
    p.add_argument("--pattern", choices=PATTERN_KINDS, default="charuco", help="kind of printed sheet (default: charuco)")
    p.add_argument("--cols", type=int, default=7, help="squares across the sheet (default: 7)")
    p.add_argument("--rows", type=int, default=5, help="squares down the sheet (default: 5)")
    p.add_argument("--square-mm", type=float, default=30.0, help="side of one printed square in mm (default: 30)")
    p.add_argument("--marker-mm", type=float, default=None, help="ChArUco marker side in mm (default: 0.75 of a square)")
    p.add_argument("--dictionary", choices=ARUCO_DICTIONARIES, default="DICT_5X5_100", help="ChArUco marker dictionary")
    p.add_argument("--min-frames", type=int, default=3, help="fewest frames that must show the pattern (default: 3)")
    p.add_argument("--print-board", metavar="PNG", default=None, help="write the pattern as an image to print, then exit")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    pattern = Pattern(kind=args.pattern, cols=args.cols, rows=args.rows, square_mm=args.square_mm,
                      marker_mm=args.marker_mm, dictionary=args.dictionary)
    if args.print_board:
        from rules.outputs import OutputFiles, check_outputs
        from vision import imagefile

        check_outputs([args.print_board])
        img = pattern.image(px_per_square=200, margin_px=80)
        with OutputFiles(args.print_board) as files:
            try:
                imagefile.write(files.path(args.print_board), img, like=args.print_board)
            except ValueError:
                raise CalibrationError(f"{args.print_board}: cannot write the pattern image (expected a .png/.jpg path)") from None
        print(f"wrote {args.print_board}: {pattern.kind} of {pattern.cols}x{pattern.rows} squares; print it at "
              f"{pattern.square_mm:g} mm per square and measure one square to check")
        return 0
    if not args.frames:
        raise CalibrationError("no frames given: expected photos of the pattern (e.g. shots/*.jpg)")
    if not args.out:
        raise CalibrationError("--out CAMERA.json is required: where to write the camera profile")
    if args.min_frames < 1:
        raise CalibrationError(f"--min-frames {args.min_frames}: expected at least 1")
    from rules.outputs import check_outputs

    check_outputs([args.out], args.frames)
    total = len(args.frames)
    found = 0
    show = not args.quiet

    bar = FrameBar(total=total, always=True)

    def progress(i: int, name: str, ok: bool) -> None:
        nonlocal found
        found += ok
        if show:
            bar(i + 1, extra=f", pattern in {found}")

    try:
        profile = calibrate_camera(frames_from_paths(args.frames), pattern, min_frames=args.min_frames, progress=progress)
    finally:
        end_line()
    path = save_camera_profile(profile, args.out)
    W, H = profile.image_size
    print(
        f"wrote {path}: {W}x{H} px, fx {profile.fx:.1f} fy {profile.fy:.1f} px, "
        f"k1 {profile.dist[0]:+.4f} k2 {profile.dist[1]:+.4f}, RMS {profile.rms_px:.3f} px "
        f"from {profile.frames_used} of {profile.frames_given} frames"
    )
    if profile.rms_px > 1.0:
        print("warning: RMS error above 1 px: frames may be blurred or --square-mm/--cols/--rows may be wrong", file=sys.stderr)
    return 0
