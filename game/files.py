"""The one atomic file writer: saves, autosaves, the settings and the host's journal are
written whole or not at all, so a crash or a kill never leaves half a file.

It sits below every layer (the rules' save files use it too): plain file I/O, no clock.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


def atomic_write(path: str | Path, data: str | bytes, sync: bool = True) -> None:
    """Write ``path`` whole or not at all: a temporary file beside it, (fsync), rename.

    ``sync`` makes it durable too (the file and its folder reach the disk before this
    returns); without it the rename is still atomic, but a power cut may lose it. A text is
    written as UTF-8. The temporary file is ``<name>*.tmp`` (what a killed writer leaves)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=path.name, suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data.encode("utf-8") if isinstance(data, str) else data)
            f.flush()
            if sync:
                os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    if sync:
        sync_folder(path.parent)


def sync_folder(folder: Path) -> None:
    """Make a rename in ``folder`` durable (POSIX: fsync the directory). Best effort."""
    with contextlib.suppress(OSError, AttributeError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
