"""game.files.atomic_write, the one writer of saves, autosaves, settings and journals: a file
is replaced whole or left as it was, and no temporary file stays behind."""

from __future__ import annotations

import os

import pytest

from game.files import atomic_write


@pytest.mark.parametrize("sync", [True, False])
def test_text_and_bytes_replace_the_file_whole(tmp_path, sync):
    path = tmp_path / "deep" / "save.json"
    atomic_write(path, "première", sync=sync)  # folders are made; text is UTF-8
    assert path.read_bytes() == "première".encode()
    atomic_write(path, b"\x00\x01", sync=sync)
    assert path.read_bytes() == b"\x00\x01"
    assert sorted(p.name for p in path.parent.iterdir()) == ["save.json"]


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    path = tmp_path / "save.json"
    atomic_write(path, "old")

    def broken_replace(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError, match="disk full"):
        atomic_write(path, "new")
    monkeypatch.undo()
    assert path.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["save.json"]
