"""Writing the files a command produces so that nothing is half-written, lost or destroyed.

Every command that writes files goes through this package:

* ``check_outputs(paths, inputs=...)`` before the work starts: each output must not be a
  folder, must lie under a folder that exists (or can be made) and is writable, must not be
  one of the command's inputs (the same file under any name), and no two outputs may be the
  same file. A bad path is an ``OutputError`` (one line) before any time is spent.
* ``OutputFiles(*paths)`` while writing: each file is written to a temporary file in its
  own folder (``.NAME-XXXXXXXX.part.EXT``, same extension so that writers which choose a
  format by extension still work) and renamed over its path only when every file of the
  set is complete, so a set (a profile's ``.json`` and ``.npz``, a video and its truth)
  appears together or not at all; an error or an interrupt removes the temporaries.
* A path that exists and is not a regular file (a FIFO, a character device such as
  ``/dev/null``) is never renamed over: the finished bytes are written through to it. A
  symbolic link is followed: the file it points to is replaced, the link stays.

It lives under ``rules`` because every package may import ``rules``; it imports nothing
else of the project.
"""

from rules.outputs.errors import OutputError
from rules.outputs.files import (
    OutputFiles,
    StreamingOutput,
    check_folder,
    check_outputs,
    write_bytes,
    write_text,
    write_with_json,
)

__all__ = ["OutputError", "OutputFiles", "StreamingOutput", "check_folder", "check_outputs", "write_bytes", "write_text", "write_with_json"]
