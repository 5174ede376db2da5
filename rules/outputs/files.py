"""Output paths checked before the work, files written whole or not at all (see ``outputs``)."""

from __future__ import annotations

import errno
import glob
import json
import os
import secrets
import shutil
import stat
import tempfile
from typing import IO, Any, Callable, Iterable

from rules.outputs.errors import OutputError

PathArg = str | os.PathLike


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc)


def _resolve(path: PathArg) -> str:
    return os.path.realpath(os.fspath(path))


def _stat(path: str) -> os.stat_result | None:
    try:
        return os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None


def _is_special(st: os.stat_result | None) -> bool:
    """An existing path that must be written through, never renamed over (FIFO, device)."""
    return st is not None and not stat.S_ISREG(st.st_mode) and not stat.S_ISDIR(st.st_mode)


def _expand(inputs: Iterable[PathArg | None]) -> list[str]:
    """The input paths, globs expanded (a frames pattern such as ``"shots/*.png"`` counts as its files)."""
    out: list[str] = []
    for item in inputs:
        if item is None:
            continue
        text = os.fspath(item)
        if text in ("", "-"):
            continue
        out += glob.glob(text) if glob.has_magic(text) else [text]
    return out


def _same_file(a: str, b: str) -> bool:
    ra, rb = _resolve(a), _resolve(b)
    if ra == rb:
        return True
    try:
        return os.path.samefile(ra, rb)  # hard links
    except OSError:
        return False


def _check_folder_of(shown: str, folder: str) -> None:
    """``folder`` (where ``shown`` resolves to) exists, is a folder and is writable: a typo in a
    folder name is caught, not made."""
    named = folder if os.path.islink(shown) else (os.path.dirname(shown) or ".")
    if not os.path.exists(folder):
        raise OutputError(shown, f"the folder {named} does not exist")
    if not os.path.isdir(folder):
        raise OutputError(shown, f"{named} is a file, not a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputError(shown, f"the folder {named} is not writable")


def check_output(path: PathArg, inputs: Iterable[PathArg | None] = ()) -> None:
    """Raise OutputError unless ``path`` can be written as a file without touching any of ``inputs``."""
    shown = os.fspath(path)
    target = _resolve(path)
    st = _stat(target)
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise OutputError(shown, "is a folder, expected a file name")
    if st is not None and stat.S_ISSOCK(st.st_mode):
        raise OutputError(shown, "is a socket, expected a file name")
    if _is_special(st):
        if not os.access(target, os.W_OK):
            raise OutputError(shown, "is not writable")
    else:
        _check_folder_of(shown, os.path.dirname(target))
        if st is not None and not os.access(target, os.W_OK):
            raise OutputError(shown, "is read-only")
    for item in _expand(inputs):
        if _same_file(target, item):
            also = "" if item == shown else f" ({item})"
            raise OutputError(shown, f"is also an input of this command{also}: it would be overwritten")


def check_outputs(paths: Iterable[PathArg | None], inputs: Iterable[PathArg | None] = ()) -> None:
    """``check_output`` for every path given (None and ``-``, stdout, are skipped), and no two the same file."""
    inputs = list(inputs)
    seen: list[str] = []
    for path in paths:
        if path is None or os.fspath(path) == "-":
            continue
        check_output(path, inputs)
        shown = os.fspath(path)
        for other in seen:
            if _same_file(shown, other):
                raise OutputError(shown, f"given for two outputs of this command ({other} too)")
        seen.append(shown)


def check_folder(path: PathArg) -> None:
    """Raise OutputError unless ``path`` is a writable folder, or one that can be made in an existing folder."""
    shown = os.fspath(path)
    target = _resolve(path)
    st = _stat(target)
    if st is None:
        _check_folder_of(shown, os.path.dirname(target))
    elif not stat.S_ISDIR(st.st_mode):
        raise OutputError(shown, "is a file, expected a folder")
    elif not os.access(target, os.W_OK | os.X_OK):
        raise OutputError(shown, "the folder is not writable")


def _new_temp(folder: str, name: str) -> str:
    """An empty new file ``.STEM-XXXXXXXX.part.EXT`` in ``folder`` (mode as for any new file, umask applied)."""
    stem, ext = os.path.splitext(name)
    while True:
        tmp = os.path.join(folder, f".{stem}-{secrets.token_hex(4)}.part{ext}")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        except FileExistsError:
            continue
        os.close(fd)
        return tmp


def _open_through(shown: str, target: str) -> IO[bytes]:
    """Open an existing FIFO or device for writing, without blocking on a FIFO nobody reads."""
    try:
        fd = os.open(target, os.O_WRONLY | os.O_NONBLOCK)
    except OSError as exc:
        if exc.errno == errno.ENXIO:
            raise OutputError(shown, "is a pipe with nothing reading it") from None
        raise OutputError(shown, f"cannot write ({_reason(exc)})") from None
    os.set_blocking(fd, True)
    return os.fdopen(fd, "wb")


class _Target:
    """One output of an ``OutputFiles`` set: where it goes and the temporary file it is written to."""

    def __init__(self, path: PathArg):
        self.shown = os.fspath(path)
        self.target = _resolve(path)
        st = _stat(self.target)
        if st is not None and stat.S_ISDIR(st.st_mode):
            raise OutputError(self.shown, "is a folder, expected a file name")
        self.special = _is_special(st)
        self.mode = stat.S_IMODE(st.st_mode) if st is not None and not self.special else None
        self.tmp: str | None = None

    def temp(self) -> str:
        if self.tmp is None:
            # bytes for a FIFO or device are gathered with the other temporary files, then written through;
            # a regular file's go beside it, so that the rename cannot cross filesystems
            folder = tempfile.gettempdir() if self.special else os.path.dirname(self.target)
            try:
                self.tmp = _new_temp(folder, os.path.basename(self.target))
            except OSError as exc:
                raise OutputError(self.shown, f"cannot write ({_reason(exc)})") from None
        return self.tmp

    def finish(self) -> None:
        """Put the temporary file in place: written through for a FIFO or device, renamed otherwise."""
        assert self.tmp is not None
        if self.special:
            with open(self.tmp, "rb") as src, _open_through(self.shown, self.target) as dst:
                shutil.copyfileobj(src, dst)
            os.remove(self.tmp)
        else:
            if self.mode is not None:
                os.chmod(self.tmp, self.mode)
            os.replace(self.tmp, self.target)
        self.tmp = None

    def discard(self) -> None:
        if self.tmp is not None:
            try:
                os.remove(self.tmp)
            except FileNotFoundError:
                pass
            self.tmp = None


class OutputFiles:
    """A set of output files that appear together, each complete, or not at all.

    ``path(p)`` gives the name of a temporary file to write ``p`` to (same folder, same
    extension), ``open(p, mode)`` opens it. Leaving the ``with`` block normally puts every
    written file in place, in the order the paths were given (name the file that refers to
    the others last: a profile's ``.json`` after its ``.npz``); leaving it by an exception
    (an error, Ctrl-C) removes the temporary files and leaves every path as it was. An
    OSError inside the block (a full disk) becomes an OutputError naming the file.
    """

    def __init__(self, *paths: PathArg):
        self._targets = [_Target(p) for p in paths]
        self._current: _Target | None = None  # the file handed out last: the one a failing write is writing

    def _find(self, path: PathArg) -> _Target:
        shown = os.fspath(path)
        for t in self._targets:
            if t.shown == shown:
                return t
        t = _Target(path)
        self._targets.append(t)
        return t

    def path(self, path: PathArg) -> str:
        """The temporary file to write ``path`` to (it exists, empty)."""
        self._current = self._find(path)
        return self._current.temp()

    def open(self, path: PathArg, mode: str = "w", **kwargs: Any) -> IO[Any]:
        """``open`` of the temporary file for ``path`` (text mode defaults to UTF-8)."""
        if "b" not in mode:
            kwargs.setdefault("encoding", "utf-8")
        return open(self.path(path), mode, **kwargs)

    def commit(self) -> None:
        """Put every written file in place; FIFOs and devices first, as they are the ones that can still fail."""
        try:
            for t in sorted((t for t in self._targets if t.tmp is not None), key=lambda t: not t.special):
                try:
                    t.finish()
                except OSError as exc:
                    raise OutputError(t.shown, f"cannot write ({_reason(exc)})") from None
        finally:
            self.discard()

    def discard(self) -> None:
        """Remove the temporary files not yet in place."""
        for t in self._targets:
            t.discard()

    def _name_for(self, exc: OSError) -> str:
        for t in self._targets:
            if exc.filename is not None and os.fspath(exc.filename) in (t.tmp, t.target, t.shown):
                return t.shown
        if self._current is not None:
            return self._current.shown
        return " and ".join(t.shown for t in self._targets)

    def __enter__(self) -> "OutputFiles":
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is None:
            self.commit()
            return
        name = self._name_for(exc) if isinstance(exc, OSError) else ""
        self.discard()
        if isinstance(exc, OSError):
            raise OutputError(name, f"cannot write ({_reason(exc)})") from None


def write_bytes(path: PathArg, data: bytes) -> None:
    """Write ``data`` to ``path`` whole or not at all."""
    with OutputFiles(path) as out, out.open(path, "wb") as fh:
        fh.write(data)


def write_text(path: PathArg, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` whole or not at all."""
    with OutputFiles(path) as out, out.open(path, "w") as fh:
        fh.write(text)


def write_with_json(path: PathArg, json_path: PathArg, write: Callable[[str], Any], indent: int | None = 1) -> Any:
    """A file and the JSON that describes it (a render and its truth), appearing together or not at all.

    ``write(tmp)`` writes ``path``'s content into the file named ``tmp`` (same extension, so
    image and video writers pick the right format) and returns the object saved as
    ``json_path``; that object is returned.
    """
    with OutputFiles(path, json_path) as files:
        obj = write(files.path(path))
        with files.open(json_path) as fh:
            fh.write(json.dumps(obj, indent=indent) + "\n")
    return obj


class StreamingOutput:
    """A text file written piece by piece (an events log) that appears under its name when closed.

    Each ``write`` is flushed to the temporary file, so ``close`` after an interrupt keeps
    everything written so far. A FIFO or device is written through as the pieces come. A
    write that fails (a full disk) removes the temporary file and raises OutputError.
    """

    def __init__(self, path: PathArg):
        self._target = _Target(path)
        try:
            if self._target.special:
                self._fh: IO[Any] | None = _open_through(self._target.shown, self._target.target)
                self._binary = True
            else:
                self._fh = open(self._target.temp(), "w", encoding="utf-8")
                self._binary = False
        except OSError as exc:
            self._target.discard()
            raise OutputError(self._target.shown, f"cannot write ({_reason(exc)})") from None

    def write(self, text: str) -> None:
        if self._fh is None:
            raise OutputError(self._target.shown, "already closed")
        try:
            self._fh.write(text.encode("utf-8") if self._binary else text)
            self._fh.flush()
        except OSError as exc:
            self._abandon()
            raise OutputError(self._target.shown, f"cannot write ({_reason(exc)})") from None

    def _abandon(self) -> None:
        fh, self._fh = self._fh, None
        if fh is not None:
            try:
                fh.close()
            except OSError:
                pass
        self._target.discard()

    def close(self) -> None:
        """Put the file in place with everything written so far (idempotent)."""
        fh, self._fh = self._fh, None
        if fh is None:
            return
        try:
            fh.close()
            if not self._target.special:
                self._target.finish()
        except OSError as exc:
            self._target.discard()
            raise OutputError(self._target.shown, f"cannot write ({_reason(exc)})") from None

    def abandon(self) -> None:
        """Drop what was written: the path stays as it was."""
        self._abandon()
