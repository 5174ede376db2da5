"""The Caller's settings file (TOML), with typed defaults for everything.

Where it is read from, first found wins: ``--config PATH`` (``load(path)``), else the file
named by ``$CALLER_CONFIG``, else ``~/.config/caller/caller.toml`` if it exists, else
nothing (all defaults). A path given explicitly (option or variable) must exist.

Each top-level table is a section owned by one package and validated by it when the file is
loaded, before any work starts: ``[voice]`` becomes a ``voice.config.VoiceConfig``,
``[vision]`` (with its sub-tables ``[vision.locate]``, ``[vision.assign]``, ...) a
``vision.config.VisionConfig``, ``[calibration]`` a ``calibration.config.CalibrationConfig``.
An unknown section or key, a value of the wrong type, a NaN or a number out of its range is a
ConfigError: one line naming the file and the key. A package adds a section with
``register_section``. Every command that takes ``--config`` reads it with ``load``. The file
is UTF-8 (a byte-order mark is allowed). See caller.example.toml and docs/configuration.md.
"""

from __future__ import annotations

import argparse
import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Callable, Mapping

from calibration.config import CalibrationConfig, calibration_config
from caller.errors import CallerError
from vision.config import VisionConfig, config_from_dict
from vision.errors import VisionError
from voice.config import VoiceConfig
from voice.errors import VoiceConfigError

ENV_VAR = "CALLER_CONFIG"
USER_FILE = Path("~/.config/caller/caller.toml")
#: a settings file is a few KiB; anything much larger is the wrong file (a video, a device)
MAX_BYTES = 1 << 20


class ConfigError(CallerError):
    """A settings file that cannot be read or holds a bad value; the message names the file."""


#: section name -> (parser of the TOML table, default when the section is absent)
_SECTIONS: dict[str, tuple[Callable[[Mapping[str, Any]], Any], Callable[[], Any]]] = {
    "voice": (VoiceConfig.from_mapping, VoiceConfig),
    "vision": (lambda table: config_from_dict(table, source="[vision]"), VisionConfig),
    "calibration": (calibration_config, CalibrationConfig),
}


def register_section(name: str, parse: Callable[[Mapping[str, Any]], Any], default: Callable[[], Any]) -> None:
    """Let a package own section ``[name]``: ``parse(table)`` validates it (raising ValueError
    quoting the bad key or value), ``default()`` is used when the file has no such section."""
    _SECTIONS[name] = (parse, default)


@dataclass(frozen=True)
class Config:
    """Parsed settings. ``voice``: the [voice] section; ``path``: the file read (None: defaults)."""

    voice: VoiceConfig = field(default_factory=VoiceConfig)
    sections: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    path: Path | None = None

    def section(self, name: str) -> Any:
        """Section ``name``'s parsed value (its defaults when the file has no such section)."""
        if name in self.sections:
            return self.sections[name]
        if name in _SECTIONS:
            return _SECTIONS[name][1]()
        raise KeyError(f"no config section [{name}] is registered")


def find(path: str | os.PathLike | None = None, env: Mapping[str, str] | None = None) -> Path | None:
    """The file to read: ``path``, else ``$CALLER_CONFIG``, else the user file if present, else None."""
    env = os.environ if env is None else env
    if path is not None:
        return Path(path)
    if env.get(ENV_VAR):
        return Path(env[ENV_VAR])
    user = USER_FILE.expanduser()
    return user if user.is_file() else None


def load(path: str | os.PathLike | None = None, env: Mapping[str, str] | None = None) -> Config:
    """Read and validate the settings (see the module docstring for where from); raises ConfigError."""
    where = find(path, env)
    if where is None:
        return parse({})
    try:
        with open(where, "rb") as f:
            raw = f.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise ConfigError(f"config file {str(where)!r} does not exist") from None
    except OSError as exc:
        raise ConfigError(f"cannot read config file {str(where)!r}: {exc.strerror or exc}") from None
    if len(raw) > MAX_BYTES:
        raise ConfigError(f"config file {str(where)!r} is over {MAX_BYTES // 1024} KiB: expected a short TOML settings file")
    try:
        text = raw.decode("utf-8-sig")  # an editor's byte-order mark is no error
    except UnicodeDecodeError as exc:
        raise ConfigError(f"config file {str(where)!r} is not UTF-8 text (byte {exc.start}): expected a TOML settings file") from None
    try:
        data = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError) as exc:
        said = exc if isinstance(exc, tomllib.TOMLDecodeError) else "nested too deeply"
        raise ConfigError(f"config file {str(where)!r} is not valid TOML: {said}") from None
    return parse(data, where)


def parse(data: Mapping[str, Any], path: Path | None = None) -> Config:
    """Validate parsed TOML ``data`` into a Config; ``path`` only names the file in errors."""
    name = f"{str(path)!r}" if path is not None else "the config"
    sections: dict[str, Any] = {}
    for key, table in data.items():
        if not isinstance(table, dict):
            raise ConfigError(f"{name}: top-level key {key!r} must be a [section] table, got {table!r:.60}")
        if key not in _SECTIONS:
            raise ConfigError(f"{name}: unknown section [{key}]: expected one of {', '.join(f'[{k}]' for k in _SECTIONS)}")
        try:
            sections[key] = _SECTIONS[key][0](table)
        except (VoiceConfigError, VisionError, ValueError) as exc:
            said = str(exc) if f"[{key}" in str(exc) else f"[{key}]: {exc}"
            raise ConfigError(f"{name}: {said}") from None
    voice = sections.get("voice", VoiceConfig())
    return Config(voice=voice, sections=MappingProxyType(sections), path=path)


def add_argument(parser: argparse.ArgumentParser) -> None:
    """Add ``--config PATH`` to a command's parser (read it back with ``load(args.config)``)."""
    parser.add_argument(
        "--config",
        metavar="PATH",
        default=None,
        help=f"settings file (TOML); default ${ENV_VAR}, else ~/.config/caller/caller.toml if present",
    )
