"""Reading and writing the JSON files that users hand the CLI, with one-line errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from caller.errors import CallerError


def load_json(path: str | Path) -> Any:
    """Parse a JSON file; raises CallerError naming the file and what is wrong with it."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CallerError(f"{p}: no such file") from None
    except IsADirectoryError:
        raise CallerError(f"{p}: is a folder, expected a JSON file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CallerError(f"{p}: cannot read ({exc.__class__.__name__}: {exc})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise CallerError(f"{p}: not valid JSON (line {exc.lineno} column {exc.colno}: {exc.msg})") from None


def dumps_line(obj: Any) -> str:
    """One compact JSON object on one line (the CLI's --json output and event streams)."""
    return json.dumps(obj, separators=(", ", ": "))
