"""Reading the JSON and text files that users hand the CLI, with one-line errors, and writing JSON."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from caller.errors import CallerError
from rules.errors import MalformedPosition


def read_text(path: str | Path, kind: str = "text file") -> str:
    """The whole file as UTF-8 text; raises CallerError naming the file and why it cannot be read
    (``kind`` is what a folder given instead was expected to be, e.g. "JSON file")."""
    p = Path(path)
    try:
        return p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CallerError(f"{p}: no such file") from None
    except IsADirectoryError:
        raise CallerError(f"{p}: is a folder, expected a {kind}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CallerError(f"{p}: cannot read ({exc.__class__.__name__}: {exc})") from None


def load_json(path: str | Path) -> Any:
    """Parse a JSON file; raises CallerError naming the file and what is wrong with it."""
    p = Path(path)
    text = read_text(p, "JSON file")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise CallerError(f"{p}: not valid JSON (line {exc.lineno} column {exc.colno}: {exc.msg})") from None


def load_position(game: Any, path: str | Path) -> Any:
    """``game.from_json`` of the JSON file at ``path``; a MalformedPosition says which file it is in."""
    obj = load_json(path)
    try:
        return game.from_json(obj)
    except MalformedPosition as exc:
        raise MalformedPosition(f"{path}: {exc}") from None


def dumps_line(obj: Any) -> str:
    """One compact JSON object on one line (the CLI's --json output and event streams)."""
    return json.dumps(obj, separators=(", ", ": "))
