"""Hot-seat autosave: a crash loses nothing.

A `LocalSession` with a writer attached saves its game after every action (checked once a
frame, never per frame when nothing happened): the engine's save format, so
`python main.py replay <config>/autosave/hotseat.json` reads it too, next to
`hotseat.seats.json` with who sits where (names, human or bot kind), the real-time timers and
what was left of a running negotiation clock (saved every couple of seconds while it runs,
so Continue resumes it rather than granting a fresh one; the game file is rewritten only
when the game moved).
The title offers "Continue" while an unfinished autosave exists; finishing or abandoning
the game removes it. A finished game is kept instead in `<config>/finished/` (the last
KEEP_FINISHED of them, oldest removed) for the replay viewer.

Writing a whole game and syncing it to disk takes tens of milliseconds, so it happens on a
worker thread: the frame only copies the action list (references to frozen actions). The
newest request wins; each file is written atomically (temporary file, fsync, rename), so a
crash mid-write leaves the previous save whole.

A file that cannot be read or replayed raises `AutosaveError` with the reason; the title then
shows a clear message and sets the files aside (`*.corrupt`), never crashing.
"""

from __future__ import annotations

import json
import os
import threading
from dataclasses import asdict, dataclass
from pathlib import Path

from game.files import atomic_write

from .config import config_dir

FORMAT = "imtheboss-hotseat"
VERSION = 1
GAME_FILE = "hotseat.json"
SEATS_FILE = "hotseat.seats.json"
KEEP_FINISHED = 20  # finished hot-seat games kept for "Watch a replay"
FINISHED_PREFIX = "game-"


class AutosaveError(Exception):
    """The autosave exists but cannot be used (the message says why, in English: logs)."""


@dataclass(frozen=True)
class AutosaveInfo:
    names: list[str]
    kinds: list[str]
    actions: int


def folder() -> Path:
    return config_dir() / "autosave"


def finished_folder() -> Path:
    return config_dir() / "finished"


@dataclass(frozen=True)
class FinishedGame:
    """A kept finished game, as the replay list shows it (read without replaying)."""

    path: Path
    names: list[str]
    actions: int


def _finished_files(directory: Path) -> list[tuple[int, Path]]:
    """(number, path) of the kept games, oldest first: `game-<number>.json`."""
    out = []
    for path in directory.glob(f"{FINISHED_PREFIX}*.json"):
        number = path.stem[len(FINISHED_PREFIX) :]
        if number.isdigit():
            out.append((int(number), path))
    return sorted(out)


def keep_finished(save_data: dict, directory: Path | None = None) -> Path:
    """Keep a finished game's save (the engine's format) for the replay viewer; only the
    newest KEEP_FINISHED stay. Numbered files, so the order needs no clock."""
    d = Path(directory) if directory is not None else finished_folder()
    d.mkdir(parents=True, exist_ok=True)
    files = _finished_files(d)
    number = files[-1][0] + 1 if files else 1
    path = d / f"{FINISHED_PREFIX}{number:06d}.json"
    atomic_write(path, json.dumps(save_data, separators=(",", ":")))
    for _, old in files[: max(0, len(files) + 1 - KEEP_FINISHED)]:
        old.unlink(missing_ok=True)
    return path


def finished_games(directory: Path | None = None) -> list[FinishedGame]:
    """The kept finished games, newest first; unreadable files are skipped."""
    d = Path(directory) if directory is not None else finished_folder()
    out = []
    for _, path in reversed(_finished_files(d)):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            out.append(FinishedGame(path, list(data["players"]), len(data["actions"])))
        except (OSError, ValueError, KeyError, TypeError):
            continue
    return out


# --------------------------------------------------------------------------- writing


class AutosaveWriter:
    """Writes hot-seat saves on a worker thread (one per app); the newest request wins."""

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = Path(directory) if directory is not None else folder()
        self._cond = threading.Condition()
        self._job: tuple | None = None
        self._busy = False
        self._stop = False
        self._thread: threading.Thread | None = None
        self._seats_text: str | None = None
        self._game_key: tuple | None = None  # (header, actions) of the game file on disk
        self.writes = 0
        self.error: str | None = None  # the last write's failure (a full disk, ...)

    @property
    def game_path(self) -> Path:
        return self.directory / GAME_FILE

    @property
    def seats_path(self) -> Path:
        return self.directory / SEATS_FILE

    def save(self, header: dict, actions: list, seats: dict) -> None:
        """Queue a save of this game (`header`: the save file without its actions)."""
        self._submit(("save", header, list(actions), seats))

    def discard(self) -> None:
        """Remove the autosave (the game finished or was abandoned)."""
        self._submit(("discard",))

    def _submit(self, job: tuple) -> None:
        with self._cond:
            if self._stop:
                return
            self._job = job
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="autosave", daemon=True)
                self._thread.start()
            self._cond.notify_all()

    def flush(self, timeout: float = 10.0) -> bool:
        """Wait until every queued request is on disk; False on timeout."""
        with self._cond:
            return self._cond.wait_for(lambda: self._job is None and not self._busy, timeout)

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
                self._cond.wait_for(lambda: self._job is not None or self._stop)
                if self._job is None:
                    return
                job, self._job = self._job, None
                self._busy = True
            try:
                self._do(job)
                self.error = None
            except OSError as exc:  # a read-only or full disk must not stop the game
                self.error = str(exc)
            finally:
                with self._cond:
                    self._busy = False
                    self._cond.notify_all()

    def _do(self, job: tuple) -> None:
        if job[0] == "discard":
            for path in (self.game_path, self.seats_path):
                path.unlink(missing_ok=True)
            self._seats_text = None
            self._game_key = None
            return
        _, header, actions, seats = job
        seats_text = json.dumps(seats, ensure_ascii=False, sort_keys=True)
        if seats_text != self._seats_text or not self.seats_path.exists():
            atomic_write(self.seats_path, seats_text)
            self._seats_text = seats_text
        game_key = (json.dumps(header, sort_keys=True), len(actions))
        if game_key != self._game_key or not self.game_path.exists():
            # a save for the clocks alone leaves the (larger) game file as it is
            data = dict(header)
            data["actions"] = [a.to_data() for a in actions]
            atomic_write(self.game_path, json.dumps(data, separators=(",", ":")))
            self._game_key = game_key
        self.writes += 1


def seats_data(session) -> dict:
    return {
        "format": FORMAT,
        "version": VERSION,
        "seats": [{"name": s.name, "kind": s.kind} for s in session.specs],
        "timers": asdict(session.timing),
        # seconds left on the running negotiation clock, resumed by Continue
        "clocks": session.clocks_left(),
    }


# --------------------------------------------------------------------------- reading


def _read(directory: Path) -> tuple[dict, dict] | None:
    game_path, seats_path = directory / GAME_FILE, directory / SEATS_FILE
    if not game_path.exists():
        return None
    try:
        game = json.loads(game_path.read_text(encoding="utf-8"))
        seats = json.loads(seats_path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise AutosaveError(f"{seats_path.name} is missing") from None
    except (OSError, ValueError) as exc:  # JSON and Unicode errors are ValueErrors
        raise AutosaveError(f"unreadable: {exc}") from None
    if not isinstance(game, dict) or game.get("format") != "imtheboss-save":
        raise AutosaveError(f"{game_path.name} is not a save file")
    if not isinstance(seats, dict) or seats.get("format") != FORMAT:
        raise AutosaveError(f"{seats_path.name} is not a seats file")
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
            for s in specs
        )
    ):
        raise AutosaveError("the seats do not match the game")
    if not isinstance(game.get("actions"), list):
        raise AutosaveError("no action list")
    return game, seats


def peek(directory: Path | None = None) -> AutosaveInfo | None:
    """What the autosave holds (cheap: no replay); None when there is none."""
    got = _read(Path(directory) if directory is not None else folder())
    if got is None:
        return None
    game, seats = got
    return AutosaveInfo(
        [s["name"] for s in seats["seats"]],
        [s["kind"] for s in seats["seats"]],
        len(game["actions"]),
    )


def restore(directory: Path | None = None):
    """The saved hot-seat session, replayed to where it stopped (its events queued for the
    table's log and money history). None when there is no autosave; AutosaveError when it
    cannot be replayed."""
    from game.bots import is_bot_spec
    from game.referee import timing_from_data
    from game.rules import Game, SaveError
    from game.rules.actions import ActionFormatError, action_from_data
    from game.rules.errors import IllegalAction
    from game.rules.replay import game_from_data

    from .session import HUMAN, LocalSession, SeatSpec

    got = _read(Path(directory) if directory is not None else folder())
    if got is None:
        return None
    data, seats = got
    try:
        start: Game = game_from_data({**data, "actions": []}, GAME_FILE)
        specs = []
        for s in seats["seats"]:
            kind = s["kind"]
            if kind != HUMAN and not is_bot_spec(kind):
                raise AutosaveError(f"unknown bot kind {kind!r}")
            specs.append(SeatSpec(s["name"], kind))
        timing = timing_from_data(seats.get("timers") or {})
        clocks = _clocks(seats.get("clocks"))
        session = LocalSession(specs, start.seed, start.settings, start.setup, timing=timing)
        for i, raw in enumerate(data["actions"]):
            try:
                session.apply_scripted(action_from_data(raw))
            except ActionFormatError as exc:
                raise AutosaveError(f"action {i}: {exc}") from None
            except IllegalAction as exc:
                raise AutosaveError(f"action {i}: [{exc.rule}] {exc.message}") from None
        session.resume_clocks(clocks)
    except AutosaveError:
        raise
    except (SaveError, TypeError, ValueError, KeyError, AttributeError) as exc:
        raise AutosaveError(str(exc) or type(exc).__name__) from None
    return session


def _clocks(data) -> dict[str, float]:
    """The saved clocks: {"negotiation": seconds left}. Saves made before clocks were
    recorded have none, and their clocks start from full."""
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise AutosaveError("clocks must be a map")
    out = {}
    for kind, left in data.items():
        if kind != "negotiation":
            raise AutosaveError(f"unknown clock {kind!r}")
        if isinstance(left, bool) or not isinstance(left, (int, float)) or not left >= 0:
            raise AutosaveError(f"clock {kind!r} must be seconds left, not {left!r}")
        out[kind] = float(left)
    return out


def set_aside(directory: Path | None = None) -> None:
    """Move an unusable autosave out of the way (kept as *.corrupt for a bug report)."""
    d = Path(directory) if directory is not None else folder()
    for name in (GAME_FILE, SEATS_FILE):
        path = d / name
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
