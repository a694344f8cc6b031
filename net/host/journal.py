"""The host's persistence: a save in the engine's format plus an append-only action journal.

A host must be able to die at any moment (SIGKILL, a power cut, a crash) and come back at
the last action any client has seen. Rewriting the whole save after every action is too
slow to do before the action's frames go out, so the host keeps two files:

* ``<save>`` -- the engine's save (``Game.save`` format: seed, settings, setup, actions),
  rewritten atomically (temporary file, fsync, rename) now and then: at the start, every
  ``compact_every`` actions (in a worker thread), after a resume and when the host closes;
* ``<save>.journal`` -- one line per action applied since that save. The line is written to
  the operating system (``os.write`` on an ``O_APPEND`` descriptor) **before** the host
  sends any frame about the action, so a killed host process never loses an action a
  client has seen. With ``sync="always"`` the line is also ``fdatasync``-ed first (survives
  a power cut too, ~4 ms per action on an ordinary disk); the default ``"batch"`` syncs in a
  worker thread right after (a power cut may lose the last few milliseconds).

Journal format (UTF-8 text, one record per line)::

    {"journal":"imtheboss-journal","v":1,"game":"<id>","base":120} 1b2c3d4e
    {"i":120,"a":{"type":"pass","seat":2}} 9a8b7c6d
    {"i":121,"a":{"type":"offer","seat":0,"sources":[["placard",4]],"amount":6}} 01f2e3d4

Each line is compact JSON, a space, and the CRC-32 of the JSON as 8 hex digits. The header
names the game (a digest of the save's seed, players, settings and setup) and ``base``, the
number of actions in the save the journal continues. Record ``i`` is the index of the
action in the game's log.

Resuming (``load_game``) loads the save, then replays the journal: records with ``i`` below
the save's length are skipped (a save written after them), the next one must be exactly the
save's length, and so on. Replay stops at the first line that is torn (no newline), fails its
CRC or JSON, breaks the sequence or is refused by the engine: that line and everything after
it are dropped and reported. A journal whose header names another game is ignored. Every
action in the journal was checked by the engine when it was first applied, so a replay only
fails on a damaged file.

Compaction: the save is written with the actions ``0..n-1`` while the journal keeps growing;
once the save is in place, the journal is replaced (temporary file + rename) by one whose
header says ``base: n`` holding the records ``>= n`` that arrived meanwhile. A crash between
those two steps leaves a new save with an old journal: its records below ``n`` are skipped.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import os
import threading
import zlib
from dataclasses import dataclass
from pathlib import Path

from game.files import atomic_write
from game.rules import (
    ActionFormatError,
    Game,
    IllegalAction,
    action_from_data,
    load,
)
from game.rules.actions import Action

log = logging.getLogger(__name__)

JOURNAL_FORMAT = "imtheboss-journal"
JOURNAL_VERSION = 1
COMPACT_EVERY = 256  # actions between two rewrites of the save


def journal_path(save: Path) -> Path:
    """Where a save's action journal lives: ``<save>.journal``."""
    save = Path(save)
    return save.with_name(save.name + ".journal")


def _not_json(value) -> None:
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


# ``json.dumps(value, separators=(",", ":"), ensure_ascii=True)`` without building an encoder
# at every call (a journal line is written for every action, before its frames go out);
# actions and saves hold no circular references
_MAKE = json.encoder.c_make_encoder
_ENCODE_C = (
    _MAKE(None, _not_json, json.encoder.encode_basestring_ascii, None, ":", ",", False, False, True)
    if _MAKE is not None
    else None
)


def _dumps(value) -> str:
    if _ENCODE_C is None:  # pragma: no cover - a Python without the json accelerator
        return json.dumps(value, separators=(",", ":"), ensure_ascii=True)
    return "".join(_ENCODE_C(value, 0))


def record_line(value) -> bytes:
    """One journal line: compact JSON, a space, its CRC-32 in hex, a newline."""
    return _line(_dumps(value))


def _line(text: str) -> bytes:
    raw = text.encode("ascii")
    return raw + b" %08x\n" % zlib.crc32(raw)


def _action_line(i: int, action_json: str) -> bytes:
    return _line(f'{{"i":{i},"a":{action_json}}}')


def parse_line(line: bytes):
    """The JSON value of one complete journal line (without its newline), or None."""
    text, sep, crc = line.rpartition(b" ")
    if not sep or len(crc) != 8:
        return None
    try:
        if int(crc, 16) != zlib.crc32(text):
            return None
        return json.loads(text)
    except (ValueError, UnicodeDecodeError):
        return None


def game_id(game: Game) -> str:
    """What identifies a game across its save and journal (not its actions)."""
    head = game.to_data()
    head.pop("actions")
    return hashlib.sha256(_dumps(head).encode("ascii")).hexdigest()[:24]


def remove_stale_temps(save: Path) -> int:
    """Temporary files a killed writer left beside ``save`` (``<name>*.tmp``)."""
    save = Path(save)
    n = 0
    with contextlib.suppress(OSError):
        for p in save.parent.glob(f"{save.name}*.tmp"):
            with contextlib.suppress(OSError):
                p.unlink()
                n += 1
    return n


# --------------------------------------------------------------------------- loading


@dataclass
class JournalReport:
    """What ``load_game`` found in the journal."""

    saved: int = 0  # actions in the save
    replayed: int = 0  # actions replayed from the journal
    skipped: int = 0  # records already in the save
    dropped_lines: int = 0  # lines dropped at the end (torn, corrupt, out of sequence)
    dropped_bytes: int = 0
    problem: str | None = None  # why the first dropped line was dropped
    ignored: str | None = None  # why the whole journal was ignored (another game, no header)


def load_game(path: str | Path) -> tuple[Game, JournalReport]:
    """The game in ``path`` with its journal replayed (see the module docstring).

    Raises SaveError when the save itself cannot be loaded; a damaged journal only loses
    its damaged tail (reported in the JournalReport, never raised)."""
    path = Path(path)
    jpath = journal_path(path)
    # The journal first, then the save: a running host writes a save before the journal
    # that continues it, so a save read after a journal is never older than the journal's
    # base (the other order could pair an old save with a newer, rotated journal).
    try:
        data: bytes | None = jpath.read_bytes()
        read_error = None
    except FileNotFoundError:
        data, read_error = None, None
    except OSError as exc:
        data, read_error = None, f"cannot read {jpath}: {exc.strerror or exc}"
    game = load(path)
    report = JournalReport(saved=len(game.log))
    if read_error is not None:
        report.ignored = read_error
        log.error("%s", report.ignored)
        return game, report
    if data is None:
        return game, report
    lines = data.split(b"\n")
    # The last element is what follows the last newline: empty, or a torn line.
    complete, tail = lines[:-1], lines[-1]
    if not complete:
        if tail:
            report.dropped_lines, report.dropped_bytes = 1, len(tail)
            report.problem = "torn header"
        return game, report
    header = parse_line(complete[0])
    if (
        not isinstance(header, dict)
        or header.get("journal") != JOURNAL_FORMAT
        or header.get("v") != JOURNAL_VERSION
    ):
        report.ignored = "no journal header"
        log.warning("%s: %s; ignored", jpath, report.ignored)
        return game, report
    if header.get("game") != game_id(game):
        report.ignored = "the journal belongs to another game"
        log.warning("%s: %s; ignored", jpath, report.ignored)
        return game, report
    offset = len(complete[0]) + 1
    for n, line in enumerate(complete[1:]):
        problem = None
        rec = parse_line(line)
        if not isinstance(rec, dict) or not isinstance(rec.get("i"), int):
            problem = "corrupt line"
        elif rec["i"] < len(game.log):
            report.skipped += 1
            offset += len(line) + 1
            continue
        elif rec["i"] != len(game.log):
            problem = f"record {rec['i']} where {len(game.log)} was expected"
        else:
            try:
                game.apply(action_from_data(rec.get("a")))
            except ActionFormatError as exc:
                problem = f"record {rec['i']}: bad action ({exc})"
            except IllegalAction as exc:
                problem = f"record {rec['i']}: refused by the rules ({exc.rule})"
        if problem is not None:
            report.problem = problem
            report.dropped_lines = len(complete) - 1 - n + (1 if tail else 0)
            report.dropped_bytes = len(data) - offset
            break
        report.replayed += 1
        offset += len(line) + 1
    else:
        if tail:
            report.problem = "torn last line"
            report.dropped_lines, report.dropped_bytes = 1, len(tail)
    if report.problem:
        log.warning(
            "%s: dropped %d line(s) at the end (%s)", jpath, report.dropped_lines, report.problem
        )
    return game, report


def load_any(path: str | Path) -> Game:
    """``load_game`` without the report (what tools want)."""
    return load_game(path)[0]


# --------------------------------------------------------------------------- writing


class _Slot:
    """One save path's writers take turns: a whole save written by a worker thread must
    never land after a newer one (a compaction overtaken by a rematch or a resume)."""

    __slots__ = ("lock", "generation")

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.generation = 0


_SLOTS: dict[str, _Slot] = {}
_SLOTS_LOCK = threading.Lock()


def _slot(path: Path) -> _Slot:
    key = os.path.abspath(path)
    with _SLOTS_LOCK:
        slot = _SLOTS.get(key)
        if slot is None:
            slot = _SLOTS[key] = _Slot()
        return slot


class _Syncer:
    """The thread that ``fdatasync``-s the journal after the loop's writes (``sync="batch"``).

    The loop only hands over a duplicate of the journal's descriptor (it may be rotated
    while the disk works) and sets an event: no future, no callback back into the loop, so
    an action's path waits neither for the disk nor for a thread pool. A write while a sync
    is waiting to start adds nothing; a write during a sync asks for one more after it.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._fd: int | None = None  # the descriptor to sync next (a duplicate it closes)
        self._stopped = False
        self._thread = threading.Thread(target=self._run, name="journal-sync", daemon=True)
        self._thread.start()

    def request(self, fd: int) -> None:
        with self._lock:
            if self._fd is not None or self._stopped:
                return  # a sync is about to start: it covers this write
            self._fd = os.dup(fd)
        self._wake.set()

    def stop(self) -> None:
        with self._lock:
            self._stopped = True
        self._wake.set()

    def _run(self) -> None:
        while True:
            self._wake.wait()
            self._wake.clear()
            with self._lock:
                fd, self._fd = self._fd, None
                stopped = self._stopped
            if fd is not None:
                with contextlib.suppress(OSError):
                    if not stopped:
                        os.fdatasync(fd)
                with contextlib.suppress(OSError):
                    os.close(fd)
            if stopped:
                return


class Autosaver:
    """Keeps ``<save>`` and ``<save>.journal`` for a running game (see the module docstring).

        store = Autosaver(path, game)
        store.start()            # a full save now, a fresh journal
        ... game.apply(a); store.add(a)   # before any frame about ``a`` is sent
        await store.flush()      # a full save, the journal emptied (on close)

    Errors writing the files are logged and counted (``errors``) but never stop the game.
    """

    def __init__(
        self,
        path: str | Path,
        game: Game,
        *,
        compact_every: int = COMPACT_EVERY,
        sync: str = "batch",
    ) -> None:
        if sync not in ("batch", "always", "none"):
            raise ValueError(f"sync must be batch, always or none, not {sync!r}")
        self.path = Path(path)
        self.jpath = journal_path(self.path)
        self.game = game
        self.sync = sync
        self.compact_every = max(1, compact_every)
        self.id = game_id(game)
        self._slot = _slot(self.path)
        head = game.to_data()
        head.pop("actions")
        self._head = _dumps(head)[:-1] + ',"actions":['
        self._actions = [_dumps(a.to_data()) for a in game.log]
        self._fd: int | None = None
        self._base = 0  # actions in the save the open journal continues
        self._since = 0  # journal records since the last compaction started
        self._compacting: asyncio.Task | None = None
        self._syncer: _Syncer | None = None  # "batch": the thread that syncs the journal
        self._sync_soon = False  # a sync is asked for once the loop is free
        self.writes = 0  # full saves written
        self.records = 0  # journal records written
        self.errors = 0

    # -- whole saves ----------------------------------------------------------------

    def text(self, n: int | None = None) -> str:
        actions = self._actions if n is None else self._actions[:n]
        return self._head + ",".join(actions) + "]}"

    def start(self) -> None:
        """A full save of the game as it is, and a fresh journal after it (blocking)."""
        self._cancel_compaction()
        n = len(self._actions)
        slot = self._slot
        try:
            with slot.lock:  # a worker thread's older save can no longer land after this
                slot.generation += 1
                remove_stale_temps(self.path)
                atomic_write(self.path, self.text(n), sync=self.sync != "none")
            self.writes += 1
            self._rotate(n)
        except OSError as exc:
            self._error("autosave", exc)

    def _rotate(self, n: int) -> None:
        """Replace the journal by one continuing a save of ``n`` actions."""
        lines = [record_line({"journal": JOURNAL_FORMAT, "v": JOURNAL_VERSION,
                              "game": self.id, "base": n})]  # fmt: skip
        lines += [_action_line(i, self._actions[i]) for i in range(n, len(self._actions))]
        atomic_write(self.jpath, b"".join(lines), sync=self.sync == "always")
        self._close_fd()
        self._fd = os.open(self.jpath, os.O_WRONLY | os.O_APPEND)
        self._base = n
        self._since = len(self._actions) - n

    # -- one action -----------------------------------------------------------------

    def add(self, action: Action) -> None:
        """Journal one applied action; returns once the line is in the OS (and on disk
        with sync="always"). Call it before sending anything about the action."""
        i = len(self._actions)
        text = _dumps(action.to_data())
        self._actions.append(text)
        if self._fd is None:
            try:  # a failed start or rotation: try to get back to a clean pair of files
                self._rotate(self._base)
            except OSError as exc:
                self._error("journal", exc)
                return
        line = _action_line(i, text)
        try:
            view = memoryview(line)
            while view:
                n = os.write(self._fd, view)
                view = view[n:]
            self.records += 1
            if self.sync == "always":
                os.fdatasync(self._fd)
            elif self.sync == "batch":
                self._background_sync()
        except OSError as exc:
            self._error("journal", exc)
            self._close_fd()
            return
        self._since += 1
        if self._since >= self.compact_every and self._compacting is None:
            self._start_compaction()

    def _background_sync(self) -> None:
        """Ask the sync thread for an ``fdatasync`` once the loop is done with this action:
        its frames are written by then, so the thread (which needs the interpreter's lock
        a moment to start) never runs in the middle of an action's path."""
        if self._sync_soon or self._fd is None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # tools and tests without a loop: no background sync
            return
        self._sync_soon = True
        loop.call_soon(self._sync_now)

    def _sync_now(self) -> None:
        self._sync_soon = False
        if self._fd is None:
            return
        if self._syncer is None:
            self._syncer = _Syncer()
        self._syncer.request(self._fd)

    # -- compaction -----------------------------------------------------------------

    def _start_compaction(self) -> None:
        try:
            asyncio.get_running_loop()
        except RuntimeError:  # no loop (tools, tests): compact inline
            self.start()
            return
        n = len(self._actions)
        text = self.text(n)
        self._since = 0
        self._compacting = asyncio.ensure_future(self._compact(n, text, self._slot.generation))

    def _write_if_current(self, text: str, generation: int) -> bool:
        slot = self._slot
        with slot.lock:
            if slot.generation != generation:
                return False  # a newer save was written meanwhile
            atomic_write(self.path, text, sync=self.sync != "none")
            return True

    async def _compact(self, n: int, text: str, generation: int) -> None:
        try:
            written = await asyncio.to_thread(self._write_if_current, text, generation)
            if written and self._compacting is asyncio.current_task():
                self.writes += 1
                self._rotate(n)  # back in the loop: no record can slip in between
        except OSError as exc:
            self._error("autosave", exc)
        finally:
            if self._compacting is asyncio.current_task():
                self._compacting = None

    def _cancel_compaction(self) -> None:
        task, self._compacting = self._compacting, None
        if task is not None:
            task.cancel()

    async def flush(self) -> None:
        """Wait for a compaction in flight, then a full save and an empty journal."""
        task = self._compacting
        if task is not None:
            with contextlib.suppress(BaseException):
                await task
        self.start()

    def close(self) -> None:
        self._cancel_compaction()
        self._close_fd()
        if self._syncer is not None:
            self._syncer.stop()
            self._syncer = None

    def _close_fd(self) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            with contextlib.suppress(OSError):
                os.close(fd)

    def _error(self, what: str, exc: OSError) -> None:
        self.errors += 1
        log.error("%s to %s failed: %s", what, self.path, exc)


__all__ = [
    "Autosaver",
    "JournalReport",
    "atomic_write",
    "game_id",
    "journal_path",
    "load_any",
    "load_game",
    "parse_line",
    "record_line",
    "remove_stale_temps",
]
