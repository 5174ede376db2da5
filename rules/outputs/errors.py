"""Errors of the outputs package."""


class OutputError(Exception):
    """An output file cannot be written where asked (a folder, an input of the command, a full
    disk, a pipe nobody reads): the CLI prints the message on one line and exits non-zero.

    The message is ``PATH: REASON``; ``path`` and ``reason`` hold the two parts.
    """

    exit_status = 2

    def __init__(self, path: str, reason: str):
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason
