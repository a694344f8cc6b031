"""Announcing one hosted table on the LAN over mDNS / DNS-SD (the host's side of discovery).

``TableAnnouncer`` probes for its name, renames on a conflict, updates its TXT record (seats
free) and says goodbye on close; what the TXT record holds is ``net.discovery.records``.
``Announcement`` is the host's use of it, kept in step with free seats: discovery is a
convenience (a typed address always works), so an announcement that cannot start is logged
and forgotten, and a host bound to loopback never announces (``announce_wanted``).
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import secrets
from collections.abc import Awaitable, Sequence

from zeroconf import IPVersion
from zeroconf.asyncio import AsyncServiceInfo, AsyncZeroconf

from net import protocol as P
from net.discovery.records import (
    MAX_NAME_CHARS,
    MAX_SEATS,
    SERVICE_TYPE,
    Interfaces,
    TablePace,
    clean_name,
    close_zeroconf,
    zc_interfaces,
)

log = logging.getLogger(__name__)

#: DNS label limit is 63 bytes; keep room for zeroconf's "-N" rename suffix.
_MAX_INSTANCE_BYTES = 56


def default_addresses(interfaces: Interfaces) -> list[str]:
    if interfaces:
        out = []
        for item in interfaces:
            if isinstance(item, str):
                with contextlib.suppress(ValueError):
                    ip = ipaddress.ip_address(item)
                    if not ip.is_unspecified:
                        out.append(str(ip))
        if out:
            return out
    found: list[str] = []
    try:
        import ifaddr

        for adapter in ifaddr.get_adapters():
            for ip in adapter.ips:
                if isinstance(ip.ip, str):
                    addr = ipaddress.ip_address(ip.ip)
                    if not addr.is_loopback:
                        found.append(ip.ip)
    except Exception:  # pragma: no cover
        log.warning("could not enumerate interfaces", exc_info=True)
    # Link-local last; loopback only if nothing else exists (same-machine play).
    found.sort(key=lambda a: ipaddress.ip_address(a).is_link_local)
    return found or ["127.0.0.1"]


def txt_name(name: str) -> str:
    name = clean_name(name)[:MAX_NAME_CHARS].strip()
    return name or "I'm the Boss! table"


def instance_name(name: str) -> str:
    # '.' would split the DNS label; keep the label short enough for renames.
    label = name.replace(".", "_").strip() or "table"
    raw = label.encode("utf-8")[:_MAX_INSTANCE_BYTES]
    return raw.decode("utf-8", "ignore").strip() or "table"


class TableAnnouncer:
    """Announce one hosted table on the LAN.  Use from the host's asyncio loop.

    ``interfaces``: IP addresses (or IPv6 interface indexes) to bind to, as
    for ``Zeroconf(interfaces=...)``; None means all interfaces.  The A/AAAA
    records announced are ``addresses`` if given, else the bound addresses,
    else every non-loopback IPv4 address of the machine.  Pass ``aiozc`` to
    share an AsyncZeroconf (it is then not closed by ``close``).
    """

    def __init__(
        self,
        name: str,
        port: int,
        *,
        protocol_version: int,
        seats_free: int,
        code_required: bool,
        pace: TablePace | None = None,
        interfaces: Interfaces = None,
        addresses: Sequence[str] | None = None,
        ip_version: IPVersion | None = None,
        aiozc: AsyncZeroconf | None = None,
    ) -> None:
        if not 1 <= int(port) <= 65535:
            raise ValueError(f"bad port {port}")
        if not 1 <= int(protocol_version) <= 65535:
            raise ValueError(f"bad protocol version {protocol_version}")
        self.table_name = txt_name(name)
        self.port = int(port)
        self.protocol_version = int(protocol_version)
        self.seats_free = self._check_seats(seats_free)
        self.code_required = bool(code_required)
        self.pace = pace
        self._interfaces = interfaces
        self._addresses = list(addresses) if addresses else None
        self._ip_version = ip_version
        self._aiozc = aiozc
        self._own_zc = aiozc is None
        # Unique host name: two tables (or two hosts) must never claim the same A record.
        self._server = f"imtheboss-{secrets.token_hex(4)}.local."
        self._info: AsyncServiceInfo | None = None
        self._broadcast: asyncio.Future | None = None
        self._state = "new"  # new -> registered -> closed
        self._lock = asyncio.Lock()

    @staticmethod
    def _check_seats(seats: int) -> int:
        seats = int(seats)
        if not 0 <= seats <= MAX_SEATS:
            raise ValueError(f"bad seats_free {seats}")
        return seats

    @property
    def service_name(self) -> str | None:
        """Registered instance name (== TableFound.key); may carry a '-2' suffix."""
        return self._info.name if self._info else None

    def _properties(self) -> dict[str, str]:
        return {
            "pv": str(self.protocol_version),
            "name": self.table_name,
            "free": str(self.seats_free),
            "code": "1" if self.code_required else "0",
        } | ({"wm": self.pace.mode, "win": str(self.pace.window)} if self.pace else {})

    def _build_info(self, full_name: str) -> AsyncServiceInfo:
        addresses = self._addresses or default_addresses(self._interfaces)
        return AsyncServiceInfo(
            SERVICE_TYPE,
            full_name,
            port=self.port,
            properties=self._properties(),
            server=self._server,
            parsed_addresses=addresses,
        )

    async def start(self) -> str:
        """Probe, register (renaming on conflict) and announce; returns the service name."""
        async with self._lock:
            if self._state != "new":
                raise RuntimeError(f"announcer already {self._state}")
            if self._aiozc is None:
                self._aiozc = AsyncZeroconf(
                    interfaces=zc_interfaces(self._interfaces), ip_version=self._ip_version
                )
            info = self._build_info(f"{instance_name(self.table_name)}.{SERVICE_TYPE}")
            try:
                self._broadcast = await self._aiozc.async_register_service(
                    info, allow_name_change=True
                )
            except BaseException:
                self._state = "closed"
                await self._close_zc()
                raise
            self._info = info
            self._state = "registered"
            log.info("announcing %r as %s on port %d", self.table_name, info.name, self.port)
            return info.name

    async def update(
        self,
        *,
        seats_free: int | None = None,
        code_required: bool | None = None,
        name: str | None = None,
    ) -> None:
        """Change TXT data and re-announce (no-op if nothing changed or closed)."""
        async with self._lock:
            before = self._properties()
            if seats_free is not None:
                self.seats_free = self._check_seats(seats_free)
            if code_required is not None:
                self.code_required = bool(code_required)
            if name is not None:
                self.table_name = txt_name(name)
            if self._state != "registered" or self._properties() == before:
                return
            assert self._aiozc is not None and self._info is not None
            self._cancel_broadcast()
            self._info = self._build_info(self._info.name)
            self._broadcast = await self._aiozc.async_update_service(self._info)

    def _cancel_broadcast(self) -> None:
        # A still-running announcement burst must not outlive an update or,
        # worse, follow our goodbye and resurrect the table on every browser.
        if self._broadcast is not None and not self._broadcast.done():
            self._broadcast.cancel()
        self._broadcast = None

    async def wait_announced(self) -> None:
        """Wait until the current announcement burst has been sent."""
        if self._broadcast is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._broadcast

    async def close(self) -> None:
        """Send goodbyes and release the sockets.  Safe to call more than once."""
        async with self._lock:
            if self._state == "closed":
                return
            was_registered = self._state == "registered"
            self._state = "closed"
            self._cancel_broadcast()
            if was_registered and self._aiozc is not None and self._info is not None:
                try:
                    goodbye = await self._aiozc.async_unregister_service(self._info)
                    await goodbye
                except Exception:
                    log.warning("unregistering %s failed", self._info.name, exc_info=True)
            await self._close_zc()

    async def _close_zc(self) -> None:
        if self._own_zc and self._aiozc is not None:
            aiozc, self._aiozc = self._aiozc, None
            await close_zeroconf(aiozc)

    async def __aenter__(self) -> TableAnnouncer:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


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
