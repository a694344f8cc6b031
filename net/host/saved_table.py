"""The host's table on disk: the autosave and its journal, the seats file, and resuming both;
and the host window's own seat claim beside them (``OwnSeat``).

Every applied action goes to the journal (``net.host.journal``) before any frame tells anyone about
it, so a host killed at any moment resumes at the last action anyone saw. The host calls this
one way; it knows nothing of connections or the game's clocks.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

from game.files import atomic_write
from game.rules import Action, Game, SaveError
from net import protocol as P
from net.host.config import HostConfig, HostError
from net.host.journal import Autosaver, JournalReport, load_game
from net.host.seats import SeatTable, SidecarError, SidecarTable

log = logging.getLogger(__name__)


class SavedTable:
    """The autosave of one host's game (``config.autosave``) and the seats file beside it."""

    def __init__(self, config: HostConfig, seat_table: SeatTable) -> None:
        self.config = config
        self.seat_table = seat_table
        self.autosave: Autosaver | None = None
        self.report: JournalReport | None = None  # what the journal gave back (a resumed host)

    def load(self, path: Path) -> tuple[Game, SidecarTable]:
        """The saved game and its seats (claimed seats keep their tokens); saves go on there."""
        try:
            game, report = load_game(path)
        except SaveError as exc:
            raise HostError(str(exc)) from None
        self.report = report
        if report.replayed or report.problem or report.ignored:
            log.warning(
                "resumed %s: %d saved actions, %d from the journal%s",
                path,
                report.saved,
                report.replayed,
                f"; dropped {report.dropped_lines} line(s): {report.problem}"
                if report.problem
                else (f"; journal ignored: {report.ignored}" if report.ignored else ""),
            )
        try:
            table = self.seat_table.resume(path, game.state.players)
        except SidecarError as exc:
            raise HostError(str(exc)) from None
        self.config.autosave = path
        return game, table

    def restart(self, game: Game) -> None:
        """A full save of the game now and a fresh journal beside it."""
        if self.autosave is not None:
            self.autosave.close()
        cfg = self.config
        self.autosave = Autosaver(
            Path(cfg.autosave), game, compact_every=cfg.compact_every, sync=cfg.autosave_sync
        )
        self.autosave.start()

    def record(self, action: Action) -> None:
        """Journal one applied action (the OS has it when this returns)."""
        if self.autosave is not None:
            self.autosave.add(action)

    def write_seats(self, code: str, name: str) -> None:
        """The seats file (names, token digests, room code) beside the autosave, if any."""
        if self.config.autosave is not None:
            self.seat_table.write_sidecar(Path(self.config.autosave), code, name)

    async def close(self) -> None:
        """Flush the journal and close it."""
        if self.autosave is not None:
            await self.autosave.flush()
            self.autosave.close()


OWN_SEAT_FORMAT = "imtheboss-own-seat"


class OwnSeat:
    """The token of the seat the host's own window took, kept beside the autosave
    (``<save>.own-seat``, readable by this user only: 0600) so that the same person on the
    same machine takes the same seat back when the host resumes that save. The seats file
    keeps only digests; this file is the one secret a host keeps, and it never leaves the
    machine (the host sends a token only to the connection that took its seat)."""

    def __init__(self, save: Path) -> None:
        self.path = Path(save).with_name(Path(save).name + ".own-seat")

    def token(self) -> str | None:
        """The kept token, or None (no file: this window has no seat here yet)."""
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as exc:
            log.warning("%s: cannot read the window's seat claim: %s", self.path, exc)
            return None
        token = data.get("token") if isinstance(data, dict) else None
        if data.get("format") != OWN_SEAT_FORMAT or not P.is_token(token):
            log.warning("%s: not a seat claim; the window joins as a newcomer", self.path)
            return None
        return token

    def keep(self, token: str) -> None:
        """Keep the window's token (a failure is logged: the game goes on, unresumable)."""
        try:  # atomic_write's temporary file is made 0600 (mkstemp), then renamed
            atomic_write(self.path, json.dumps({"format": OWN_SEAT_FORMAT, "token": token}))
        except OSError as exc:
            log.error("cannot keep the window's seat claim in %s: %s", self.path, exc)
