"""The tutorial's progress in the config folder: the number of steps done. The game itself
is never saved: it is rebuilt from the script's fixed setup and moves up to that step."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

from game.files import atomic_write

from ..config import config_dir

FILE_NAME = "tutorial.json"


def _path(directory: Path | None = None) -> Path:
    return (directory or config_dir()) / FILE_NAME


def load_progress(directory: Path | None = None) -> int:
    """Steps done in the tutorial left last (0: none, or an unreadable file)."""
    try:
        step = json.loads(_path(directory).read_text(encoding="utf-8")).get("step", 0)
    except (OSError, ValueError, AttributeError):
        return 0
    return step if isinstance(step, int) and not isinstance(step, bool) and step > 0 else 0


def save_progress(step: int, directory: Path | None = None) -> None:
    path = _path(directory)
    with contextlib.suppress(OSError):  # a read-only disk costs the progress, not the lesson
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, json.dumps({"step": step}), sync=False)


def clear_progress(directory: Path | None = None) -> None:
    with contextlib.suppress(OSError):
        _path(directory).unlink(missing_ok=True)
