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


#: no file the Caller reads nests arrays and objects deeper than a few levels; deeper input is
#: refused before anything walks it recursively (the decoder itself, a validator, a repr)
MAX_DEPTH = 32


def nesting_depth(obj: Any) -> int:
    """How deeply lists and dicts nest in ``obj`` (a scalar is 0), found without recursion."""
    deepest, stack = 0, [(obj, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is None:
            continue
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in children)
    return deepest


def parse_json(text: str, what: str) -> Any:
    """``json.loads(text)`` with every failure as a CallerError naming ``what``: bad syntax, nesting
    deeper than MAX_DEPTH, or an integer too long to convert (Python refuses over 4300 digits)."""
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CallerError(f"{what}: not valid JSON (line {exc.lineno} column {exc.colno}: {exc.msg})") from None
    except RecursionError:
        raise CallerError(f"{what}: arrays or objects nested deeper than {MAX_DEPTH} levels") from None
    except ValueError as exc:  # an integer literal of thousands of digits
        raise CallerError(f"{what}: not usable JSON ({str(exc).split(';')[0]})") from None
    if nesting_depth(obj) > MAX_DEPTH:
        raise CallerError(f"{what}: arrays or objects nested deeper than {MAX_DEPTH} levels")
    return obj


def load_json(path: str | Path) -> Any:
    """Parse a JSON file; raises CallerError naming the file and what is wrong with it."""
    p = Path(path)
    return parse_json(read_text(p, "JSON file"), str(p))


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
