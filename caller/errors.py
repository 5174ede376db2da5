"""Errors of the application layer (bad files, bad arguments, missing devices)."""


class CallerError(Exception):
    """Root of the application's errors: the CLI prints the message on one line and exits non-zero."""

    exit_status = 2
