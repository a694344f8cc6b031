"""Hot-seat autosave: a crash loses nothing, and no game is lost to another.

Every hot-seat game has its own pair of files in `<config>/autosave/`:
`hotseat-<n>.json`, the engine's save format (so `python main.py replay` reads it), and
`hotseat-<n>.seats.json` with who sits where (names, human or bot kind; a default name is
kept as "this seat's default" and shown in the current language), the table's `timing` (its
clocks' settings, game.table.bot_schedule.Timing), the deal tiles left and what was left of a running negotiation clock. A `LocalSession` with a
writer attached saves its game after every action (checked once a frame; the clocks every
couple of seconds while they run, which leaves the game file alone).

A game stays kept until it is finished (its save then moves to `<config>/finished/`, the
last KEEP_FINISHED of them for the replay viewer) or explicitly abandoned or deleted;
starting another game never touches it, and nothing removes an unfinished game on its own.
The title's Continue opens the latest saved; the saved-games list shows them all.

Writing a whole game and syncing it to disk takes tens of milliseconds, so it happens on a
worker thread: the frame only copies the action list (references to frozen actions). For
each game the newest request wins; each file is written atomically (temporary file, fsync,
rename), so a crash mid-write leaves the previous save whole.

A kept game that cannot be read or replayed raises `AutosaveError` with the reason; the
title then shows a clear message and sets its files aside (`*.corrupt`), never crashing.
"""

from __future__ import annotations

import json
import logging
import os
import threading
from dataclasses import asdict, dataclass
from pathlib import Path

from game.files import atomic_write

from ..config import config_dir
from .seating import default_seat_name

FORMAT = "imtheboss-hotseat"
VERSION = 1
GAME_PREFIX = "hotseat-"  # a kept game: hotseat-<number>.json and hotseat-<number>.seats.json
SEATS_SUFFIX = ".seats.json"
log = logging.getLogger(__name__)
KEEP_FINISHED = 20  # finished hot-seat games kept for "Watch a replay"
FINISHED_PREFIX = "game-"


class AutosaveError(Exception):
    """The autosave exists but cannot be used (the message says why, in English: logs)."""


@dataclass(frozen=True)
class KeptGame:
    """An unfinished hot-seat game on disk, as the title and the saved-games list show it
    (read without replaying); `saved_at` is when its last move was saved (seconds since
    the epoch)."""

    path: Path
    saved_names: list[str]  # as saved: a default one in the language it was saved in
    defaults: list[bool]  # per seat: the name is the seat's default
    kinds: list[str]
    actions: int
    tiles_left: int | None  # None: a save from before the field was recorded
    saved_at: float

    @property
    def names(self) -> list[str]:
        """The names in the current language (a default one follows it)."""
        seats = zip(self.saved_names, self.defaults, self.kinds, strict=True)
        return [
            default_seat_name(i, kind) if default else name
            for i, (name, default, kind) in enumerate(seats)
        ]


def folder() -> Path:
    return config_dir() / "autosave"


def finished_folder() -> Path:
    return config_dir() / "finished"


def seats_path(game_path: Path) -> Path:
    """The seats file beside a kept game: `hotseat-<n>.json` -> `hotseat-<n>.seats.json`."""
    return game_path.with_name(game_path.stem + SEATS_SUFFIX)


@dataclass(frozen=True)
class FinishedRecord:
    """A kept finished game, as the replay list shows it (read without replaying)."""

    path: Path
    names: list[str]
    actions: int


def _numbered(directory: Path, prefix: str) -> list[tuple[int, Path]]:
    """(number, path) of the `<prefix><number>.json` files, lowest number first."""
    out = []
    for path in directory.glob(f"{prefix}*.json"):
        number = path.stem[len(prefix) :]
        if number.isdigit():
            out.append((int(number), path))
    return sorted(out)


def keep_finished(save_data: dict, directory: Path | None = None) -> Path:
    """Keep a finished game's save (the engine's format) for the replay viewer; only the
    newest KEEP_FINISHED stay. Numbered files, so the order needs no clock."""
    d = Path(directory) if directory is not None else finished_folder()
    d.mkdir(parents=True, exist_ok=True)
    files = _numbered(d, FINISHED_PREFIX)
    number = files[-1][0] + 1 if files else 1
    path = d / f"{FINISHED_PREFIX}{number:06d}.json"
    atomic_write(path, json.dumps(save_data, separators=(",", ":")))
    for _, old in files[: max(0, len(files) + 1 - KEEP_FINISHED)]:
        old.unlink(missing_ok=True)
    return path


def finished_games(directory: Path | None = None) -> list[FinishedRecord]:
    """The kept finished games, newest first; unreadable files are skipped."""
    d = Path(directory) if directory is not None else finished_folder()
    out = []
    for _, path in reversed(_numbered(d, FINISHED_PREFIX)):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            out.append(FinishedRecord(path, list(data["players"]), len(data["actions"])))
        except (OSError, ValueError, KeyError, TypeError):
            continue
    return out


# --------------------------------------------------------------------------- writing


class AutosaveWriter:
    """Writes hot-seat saves on a worker thread (one per app). Each game has its own pair
    of files (`new_path`); for each game the newest request wins, and a request for one
    game never replaces another's."""

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = Path(directory) if directory is not None else folder()
        self._cond = threading.Condition()
        self._jobs: dict[Path, tuple] = {}  # game file -> its newest request
        self._busy = False
        self._stop = False
        self._thread: threading.Thread | None = None
        # per game file: (seats text, (header, actions)) of what is on disk
        self._on_disk: dict[Path, tuple[str | None, tuple | None]] = {}
        self._numbers: set[int] = set()  # handed out by new_path, maybe not on disk yet
        self.writes = 0
        self.error: str | None = None  # the last write's failure (a full disk, ...)

    def new_path(self) -> Path:
        """The game file for a new game: the next number free on disk and in this writer."""
        taken = {n for n, _ in _numbered(self.directory, GAME_PREFIX)} | self._numbers
        number = max(taken, default=0) + 1
        self._numbers.add(number)
        return self.directory / f"{GAME_PREFIX}{number:06d}.json"

    def save(self, path: Path, header: dict, actions: list, seats: dict) -> None:
        """Queue a save of the game kept in `path` (`header`: the save file without its
        actions)."""
        self._submit(path, ("save", header, list(actions), seats))

    def discard(self, path: Path) -> None:
        """Remove the game kept in `path` (it finished or was abandoned or deleted)."""
        self._submit(path, ("discard",))

    def _submit(self, path: Path, job: tuple) -> None:
        with self._cond:
            if self._stop:
                return
            self._jobs[Path(path)] = job
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="autosave", daemon=True)
                self._thread.start()
            self._cond.notify_all()

    def flush(self, timeout: float = 10.0) -> bool:
        """Wait until every queued request is on disk; False on timeout."""
        with self._cond:
            return self._cond.wait_for(lambda: not self._jobs and not self._busy, timeout)

    def close(self, timeout: float = 10.0) -> None:
        self.flush(timeout)
        with self._cond:
            self._stop = True
            self._cond.notify_all()
        if self._thread is not None:
            self._thread.join(timeout)

    def _run(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._jobs or self._stop)
                if not self._jobs:
                    return
                path = next(iter(self._jobs))
                job = self._jobs.pop(path)
                self._busy = True
            try:
                self._do(path, job)
                self.error = None
            except OSError as exc:  # a read-only or full disk must not stop the game
                self.error = str(exc)
            finally:
                with self._cond:
                    self._busy = False
                    self._cond.notify_all()

    def _do(self, game_path: Path, job: tuple) -> None:
        side = seats_path(game_path)
        if job[0] == "discard":
            for path in (game_path, side):
                path.unlink(missing_ok=True)
            self._on_disk.pop(game_path, None)
            return
        _, header, actions, seats = job
        seats_done, game_done = self._on_disk.get(game_path, (None, None))
        seats_text = json.dumps(seats, ensure_ascii=False, sort_keys=True)
        if seats_text != seats_done or not side.exists():
            atomic_write(side, seats_text)
            seats_done = seats_text
        game_key = (json.dumps(header, sort_keys=True), len(actions))
        if game_key != game_done or not game_path.exists():
            # a save for the clocks alone leaves the (larger) game file as it is
            data = dict(header)
            data["actions"] = [a.to_data() for a in actions]
            atomic_write(game_path, json.dumps(data, separators=(",", ":")))
            game_done = game_key
        self._on_disk[game_path] = (seats_done, game_done)
        self.writes += 1


def seats_data(session) -> dict:
    return {
        "format": FORMAT,
        "version": VERSION,
        # a default name is kept as "this seat's default", shown in the language of the day
        "seats": [
            {"name": s.name, "kind": s.kind, **({"default_name": True} if s.default_name else {})}
            for s in session.specs
        ],
        "timing": asdict(session.timing),
        # seconds left on the running negotiation clock, resumed by Continue
        "clocks": session.countdowns_left(),
        "tiles_left": len(session.game.state.tiles),  # for the saved-games list
    }


# --------------------------------------------------------------------------- reading


def read_files(game_path: Path) -> tuple[dict, dict]:
    side = seats_path(game_path)
    try:
        game = json.loads(game_path.read_text(encoding="utf-8"))
        seats = json.loads(side.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise AutosaveError(f"{Path(exc.filename).name} is missing") from None
    except (OSError, ValueError) as exc:  # JSON and Unicode errors are ValueErrors
        raise AutosaveError(f"unreadable: {exc}") from None
    if not isinstance(game, dict) or game.get("format") != "imtheboss-save":
        raise AutosaveError(f"{game_path.name} is not a save file")
    if not isinstance(seats, dict) or seats.get("format") != FORMAT:
        raise AutosaveError(f"{side.name} is not a seats file")
    if seats.get("version") != VERSION:
        raise AutosaveError(f"seats version {seats.get('version')!r} is not supported")
    specs = seats.get("seats")
    players = game.get("players")
    if (
        not isinstance(specs, list)
        or not isinstance(players, list)
        or len(specs) != len(players)
        or not all(
            isinstance(s, dict)
            and isinstance(s.get("name"), str)
            and isinstance(s.get("kind"), str)
            and isinstance(s.get("default_name", False), bool)
            for s in specs
        )
    ):
        raise AutosaveError("the seats do not match the game")
    if not isinstance(game.get("actions"), list):
        raise AutosaveError("no action list")
    return game, seats


def peek(game_path: Path) -> KeptGame:
    """What a kept game holds (cheap: no replay); AutosaveError when it cannot be read."""
    game, seats = read_files(game_path)
    tiles = seats.get("tiles_left")
    stamps = [p.stat().st_mtime for p in (game_path, seats_path(game_path)) if p.exists()]
    return KeptGame(
        game_path,
        [s["name"] for s in seats["seats"]],
        [s.get("default_name", False) for s in seats["seats"]],
        [s["kind"] for s in seats["seats"]],
        len(game["actions"]),
        tiles if isinstance(tiles, int) and not isinstance(tiles, bool) else None,
        max(stamps, default=0.0),
    )


def kept_games(directory: Path | None = None) -> tuple[list[KeptGame], int]:
    """The unfinished hot-seat games kept, the latest saved first, and how many could not
    be read (those are set aside as *.corrupt, never deleted)."""
    d = Path(directory) if directory is not None else folder()
    if not d.is_dir():
        return [], 0
    games, bad = [], 0
    for _, path in _numbered(d, GAME_PREFIX):
        try:
            games.append(peek(path))
        except AutosaveError:
            set_aside(path)
            bad += 1
    games.sort(key=lambda g: (g.saved_at, g.path.name), reverse=True)
    return games, bad


def set_aside(game_path: Path) -> None:
    """Move an unusable kept game out of the way (kept as *.corrupt for a bug report)."""
    for path in (game_path, seats_path(game_path)):
        if path.exists():
            try:
                os.replace(path, path.with_name(path.name + ".corrupt"))
            except OSError:
                path.unlink(missing_ok=True)


def writer_for(app) -> AutosaveWriter:
    """The app's writer (created on first use; closed by App.shutdown)."""
    w = getattr(app, "autosaver", None)
    if w is None:
        w = AutosaveWriter()
        app.autosaver = w
    return w
