"""The host's table on the LAN: its zeroconf announcement, kept in step with free seats.

Discovery is a convenience (a typed address always works): an announcement that cannot
start is logged and forgotten, and a host bound to loopback never announces.
"""

from __future__ import annotations

import contextlib
import ipaddress
import logging
from collections.abc import Awaitable

from . import protocol as P
from .table_announcer import TableAnnouncer
from .table_records import TablePace

log = logging.getLogger(__name__)


def announce_wanted(announce: bool, bind: str) -> bool:
    """Announce unless told not to, or bound to a loopback address."""
    if not announce:
        return False
    with contextlib.suppress(ValueError):
        if ipaddress.ip_address(bind).is_loopback:
            return False
    return True


class Announcement:
    def __init__(self, bind: str, addresses: list[str] | None) -> None:
        self.bind = bind
        self.addresses = addresses
        self.announcer: TableAnnouncer | None = None
        self._free: int | None = None  # the seats_free last announced

    async def start(
        self, name: str, port: int, seats_free: int, pace: TablePace | None = None
    ) -> None:
        interfaces = None if self.bind in ("0.0.0.0", "") else [self.bind]
        try:
            self.announcer = TableAnnouncer(
                name,
                port,
                protocol_version=P.PROTOCOL_VERSION,
                seats_free=seats_free,
                code_required=True,
                pace=pace,
                interfaces=interfaces,
                addresses=self.addresses,
            )
            await self.announcer.start()
            self._free = seats_free
        except Exception as exc:  # discovery is a convenience: typed addresses still work
            log.warning("LAN announcement unavailable: %s", exc)
            self.announcer = None

    def update(self, seats_free: int) -> Awaitable[None] | None:
        """The update to run (the caller spawns it) when the free seats changed, else None."""
        if self.announcer is None or seats_free == self._free:
            return None
        self._free = seats_free
        return self.announcer.update(seats_free=seats_free)

    async def close(self) -> None:
        if self.announcer is not None:
            with contextlib.suppress(Exception):
                await self.announcer.close()
