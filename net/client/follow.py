"""Keeping the seat's view in step with the host: the view an update's delta applies to.

An update's ``base`` must be the version held and the view it rebuilds must hash to the
update's ``hash``; otherwise the follower asks for a snapshot (``sync``) and ignores updates
until it comes. A snapshot of the very view held (the one after a stale action) is taken
without checking and hashing the same few kilobytes again.
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Callable

from net import protocol as P
from net.client.messages import Snapshot, Update, countdowns_from, history_from, sent_legal

log = logging.getLogger(__name__)


class ViewFollower:
    """The seat's view and version as the host's snapshots and deltas build them, on the
    session's loop. `resync()` asks the host for a snapshot (the session sends it)."""

    def __init__(self, stats: Counter, resync: Callable[[], None]) -> None:
        self.stats = stats
        self.resync = resync
        self.view: dict | None = None
        self.version: int | None = None
        self.resyncing = False  # a snapshot was asked for: updates wait for it
        self._hasher = P.ViewHasher()
        self._hash: str | None = None

    def holds(self, raw) -> bool:
        """Whether `raw` (unchecked) is a snapshot of exactly the view held."""
        return (
            type(raw) is dict
            and raw.get("t") == "snapshot"
            and self.view is not None
            and raw.get("version") == self.version
            and raw.get("hash") == self._hash
            and type(raw.get("view")) is dict
        )

    def same_snapshot(self, msg: dict) -> Snapshot:
        """The snapshot `holds` recognised, with the view held."""
        self.resyncing = False
        self.stats["snapshots_same"] += 1
        countdowns = countdowns_from(msg.get("timers"), time.monotonic())
        return Snapshot(
            self.version, self.view, msg["events"], countdowns, history_from(msg.get("history"))
        )

    def _hash_view(self, view: dict, changed=None) -> str:
        """The view's hash; a view that cannot be hashed (a map with keys of mixed types,
        say) is refused as a bad message."""
        try:
            return self._hasher(view, changed)
        except (TypeError, ValueError, RecursionError) as exc:
            raise P.ProtocolError("bad_message", f"a view that cannot be hashed: {exc!r}") from None

    def snapshot(self, msg: dict) -> Snapshot:
        v = msg["view"]
        self._hasher = P.ViewHasher()
        self._hash = self._hash_view(v)
        if self._hash != msg["hash"]:
            self.stats["bad_snapshot_hash"] += 1
            log.warning("snapshot hash does not match its view")
        self.view = v
        self.version = msg["version"]
        self.resyncing = False
        self.stats["snapshots"] += 1
        return Snapshot(
            msg["version"], v, msg["events"], countdowns_from(msg.get("timers"), time.monotonic()),
            history_from(msg.get("history")),
        )  # fmt: skip

    def update(self, msg: dict) -> Update | None:
        """The update applied to the view held, or None: a snapshot is on its way, or the
        update is out of step (a snapshot is asked for)."""
        if self.view is None or self.resyncing:
            return None  # a snapshot is on its way
        if msg["base"] != self.version:
            self.stats["desync_version"] += 1
            log.info(
                "update %s on %s, we hold %s: asking for a snapshot",
                msg["version"],
                msg["base"],
                self.version,
            )
            self.resync()
            return None
        new = P.apply_delta(self.view, msg["delta"])
        self._hash = self._hash_view(new, msg["delta"])
        if self._hash != msg["hash"]:
            self.stats["desync_hash"] += 1
            log.warning("view hash mismatch at version %s: asking for a snapshot", msg["version"])
            self.resync()
            return None
        self.view = new
        self.version = msg["version"]
        self.stats["updates"] += 1
        update = Update(
            msg["version"], new, msg["events"], countdowns_from(msg.get("timers"), time.monotonic()),
            frozenset(msg["delta"]), msg.get("ack"),
        )  # fmt: skip
        update._legal = sent_legal(msg)
        return update
