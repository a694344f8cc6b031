"""The game's files: where they live (`config_dir`, the host's autosaves) and the one atomic
file writer: saves, autosaves, the settings and the host's journal are written whole or not
at all, so a crash or a kill never leaves half a file.

It sits below every layer (the rules' save files use it too): plain file I/O.

The folder: $IMTHEBOSS_CONFIG_DIR if set (tests point it at a temporary folder), else
$XDG_CONFIG_HOME/imtheboss, else ~/.config/imtheboss. Under pytest without the override a
temporary folder is used, so no test can ever write into a real home directory.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import time
from pathlib import Path

ENV_DIR = "IMTHEBOSS_CONFIG_DIR"


def config_dir() -> Path:
    """The folder of the settings, the kept games and the host's autosaves."""
    override = os.environ.get(ENV_DIR)
    if override:
        return Path(override)
    if "PYTEST_CURRENT_TEST" in os.environ:  # belt and braces: tests never touch a real home
        return Path(tempfile.gettempdir()) / f"imtheboss-test-{os.getpid()}"
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "imtheboss"


def host_autosave_path() -> Path:
    """A new hosted game's autosave, `<config>/autosave/lan-<date>-<time>.json` (where
    "Watch a replay" looks), for the `host` command and the lobby alike; a name already
    taken gets a number."""
    folder = config_dir() / "autosave"
    stem = f"lan-{time.strftime('%Y%m%d-%H%M%S')}"
    path, n = folder / f"{stem}.json", 1
    while path.exists():
        n += 1
        path = folder / f"{stem}-{n}.json"
    return path


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
