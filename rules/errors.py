"""Errors of the rules package. Every one is a ``ValueError`` so callers may treat them as bad values."""


class RulesError(ValueError):
    """Root of every error raised by ``rules``."""


class NotationError(RulesError):
    """A piece, cell or move written in notation that does not parse (the message quotes it)."""


class MalformedPosition(RulesError):
    """A position (JSON or text) that has the wrong shape, unknown pieces, or breaks the game's invariants.

    ``reason`` (a ``rules.reasons.Reason``, or None) is the problem as data where it is one a
    camera can see on the table (a tile twice, two holes), so that the Caller can say it.
    """

    def __init__(self, message: str, reason: object = None):
        super().__init__(message)
        self.reason = reason


class IllegalMove(RulesError):
    """A move that the rules do not allow in the given position; the message says why.

    ``reason`` (a ``rules.reasons.Reason``, or None) is the same verdict as data where the game
    gives one (its ``reasons`` module lists the codes), so that the Caller says it from the
    fields and never reads the message; None for a call that is no move of the game at all
    (a wrong Python type), which no player at a table can make.
    """

    def __init__(self, message: str, reason: object = None):
        super().__init__(message)
        self.reason = reason


class UnknownGame(RulesError):
    """A game name that is not in the registry."""
