"""LAN discovery of hosted tables over mDNS / DNS-SD (python-zeroconf).

Host side::

    ann = TableAnnouncer("Mei's table", port, protocol_version=PROTOCOL_VERSION,
                         seats_free=3, code_required=True)
    await ann.start()                 # probes, renames on conflict, announces
    await ann.update(seats_free=2)    # TXT update, re-announced
    await ann.close()                 # goodbye packets; safe to call twice

Client side (pygame)::

    browser = BackgroundBrowser()     # own asyncio loop in a daemon thread
    browser.start()                   # returns at once
    for event in browser.poll():      # each frame, never blocks
        ...                           # TableFound / TableLost / DiscoveryError
    browser.close()

Headless: ``discover(timeout)`` or ``async for ev in TableBrowser().events()``.

Service type ``_imtheboss._tcp.local.``; TXT keys:
    pv    protocol version (decimal)      name  table name (UTF-8)
    free  seats free (decimal)            code  "1" if a room code is required
Everything read from the network is untrusted: see ``parse_table_txt``.
A TableFound is reported again (same ``key``) whenever its data changes.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import queue
import re
import secrets
import threading
import time
import unicodedata
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from zeroconf import (
    DNSQuestionType,
    InterfaceChoice,
    IPVersion,
    ServiceStateChange,
    Zeroconf,
)
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

log = logging.getLogger(__name__)

SERVICE_TYPE = "_imtheboss._tcp.local."
#: Longest table name (in characters) we announce or accept.
MAX_NAME_CHARS = 40
#: Upper bound for the "free" TXT value (the game seats at most 6).
MAX_SEATS = 16
#: A browser tracks at most this many services (a flooding peer cannot grow us).
MAX_TABLES = 256
#: DNS label limit is 63 bytes; keep room for zeroconf's "-N" rename suffix.
_MAX_INSTANCE_BYTES = 56
_DIGITS = re.compile(rb"[0-9]{1,5}")
#: Question type for the browser's queries.  None = zeroconf's default: the
#: first query asks QU (unicast-response bit), later ones QM.  In zeroconf
#: 0.154 a QU question is answered at once (multicast if the record was not
#: multicast in the last quarter TTL, else unicast), while a QM question for a
#: PTR is aggregated 20-120 ms, and delayed >= 1 s if the responder multicast
#: the record in the last second (another client just browsed, or it just
#: announced).  Measured between namespaces (bench/discovery.py): default p50
#: ~75 ms / max ~125 ms; forcing QM p50 ~1150 ms when browsing repeatedly
#: (~160 ms when idle).  So the default is kept; forcing QM is slower.
DEFAULT_QUESTION_TYPE: DNSQuestionType | None = None

Interfaces = Sequence[str | int] | None


# --------------------------------------------------------------------------- events


@dataclass(frozen=True, slots=True)
class TableFound:
    """A table appeared, or its data (seats free, name, ...) changed."""

    key: str  # the DNS-SD service instance name; stable identity of the table
    name: str
    host: str  # best address to connect to (IPv4 preferred, same subnet first)
    port: int
    protocol_version: int
    seats_free: int
    code_required: bool
    addresses: tuple[str, ...] = ()  # every announced address, best first


@dataclass(frozen=True, slots=True)
class TableLost:
    key: str


@dataclass(frozen=True, slots=True)
class DiscoveryError:
    """Discovery could not run (no usable interface, port 5353 refused, ...)."""

    message: str


DiscoveryEvent = TableFound | TableLost | DiscoveryError


class BadAnnouncement(ValueError):
    """A service's TXT/SRV data failed validation."""


# --------------------------------------------------------------------------- parsing


_STRIP_FORMAT = {"\u200c", "\u200d"}  # ZWNJ/ZWJ are legitimate in names


def clean_name(text: str) -> str:
    """Drop control / bidi-override characters and squeeze whitespace."""
    out = []
    for ch in text:
        cat = unicodedata.category(ch)
        if cat in ("Cc", "Cs", "Co", "Cn") or (cat == "Cf" and ch not in _STRIP_FORMAT):
            continue
        if cat in ("Zl", "Zp"):
            ch = " "
        out.append(ch)
    return " ".join("".join(out).split())


def _txt_int(props: Mapping[bytes, bytes | None], key: bytes, lo: int, hi: int) -> int:
    if key not in props:
        raise BadAnnouncement(f"missing {key.decode()!r}")
    raw = props[key]
    if raw is None or not _DIGITS.fullmatch(raw):
        raise BadAnnouncement(f"bad {key.decode()!r} value {raw!r}")
    value = int(raw)
    if not lo <= value <= hi:
        raise BadAnnouncement(f"{key.decode()!r} out of range: {value}")
    return value


def parse_table_txt(
    properties: Mapping[bytes | str, bytes | str | None] | None, fallback_name: str = ""
) -> tuple[str, int, int, bool]:
    """Validate TXT properties -> (name, protocol_version, seats_free, code_required).

    Raises BadAnnouncement for anything unusable: missing/non-decimal/out of
    range ``pv`` or ``free``, a ``code`` other than "0"/"1", a name that is not
    UTF-8 or longer than MAX_NAME_CHARS.  A missing or empty ``name`` falls
    back to ``fallback_name`` (the instance label).  Keys are case-insensitive.
    """
    if not isinstance(properties, Mapping):
        raise BadAnnouncement("no TXT properties")
    props: dict[bytes, bytes | None] = {}
    for k, v in properties.items():
        if isinstance(k, str):
            k = k.encode("utf-8", "replace")
        if isinstance(v, str):
            v = v.encode("utf-8", "replace")
        if not isinstance(k, bytes) or not (v is None or isinstance(v, bytes)):
            raise BadAnnouncement("malformed TXT entry")
        props.setdefault(k.lower(), v)  # RFC 6763 6.4: first occurrence wins
    pv = _txt_int(props, b"pv", 1, 65535)
    free = _txt_int(props, b"free", 0, MAX_SEATS)
    code = props.get(b"code", b"0")
    if code not in (b"0", b"1"):
        raise BadAnnouncement(f"bad 'code' value {code!r}")
    raw_name = props.get(b"name")
    if raw_name:
        try:
            name = raw_name.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise BadAnnouncement("table name is not UTF-8") from exc
    else:
        name = fallback_name
    name = clean_name(name)
    if not name:
        raise BadAnnouncement("empty table name")
    if len(name) > MAX_NAME_CHARS:
        raise BadAnnouncement(f"table name longer than {MAX_NAME_CHARS} characters")
    return name, pv, free, code == b"1"


def instance_label(service_name: str, type_: str = SERVICE_TYPE) -> str:
    if service_name.lower().endswith("." + type_.lower()):
        return service_name[: -len(type_) - 1]
    return service_name


def _local_networks() -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    nets: list[ipaddress.IPv4Network | ipaddress.IPv6Network] = []
    try:
        import ifaddr

        for adapter in ifaddr.get_adapters():
            for ip in adapter.ips:
                addr = ip.ip if isinstance(ip.ip, str) else ip.ip[0]
                with contextlib.suppress(ValueError):
                    nets.append(ipaddress.ip_network(f"{addr}/{ip.network_prefix}", strict=False))
    except Exception:  # pragma: no cover - best effort only
        log.debug("could not list local networks", exc_info=True)
    return nets


def rank_addresses(
    addresses: Iterable[str], local_networks: Sequence[ipaddress._BaseNetwork] = ()
) -> tuple[str, ...]:
    """Order addresses best-first: same subnet as us, IPv4, not link-local/loopback."""
    ranked = []
    for i, text in enumerate(dict.fromkeys(addresses)):
        try:
            addr = ipaddress.ip_address(text.split("%", 1)[0])
        except ValueError:
            continue
        if addr.is_multicast or addr.is_unspecified:
            continue
        same_net = any(addr in net for net in local_networks if net.version == addr.version)
        ranked.append(
            (not same_net, addr.version != 4, addr.is_link_local, addr.is_loopback, i, text)
        )
    ranked.sort()
    return tuple(r[-1] for r in ranked)


def table_from_info(
    info: AsyncServiceInfo, local_networks: Sequence[ipaddress._BaseNetwork] = ()
) -> TableFound:
    """Build a TableFound from a resolved service, or raise BadAnnouncement."""
    port = info.port
    if not isinstance(port, int) or not 1 <= port <= 65535:
        raise BadAnnouncement(f"bad port {port!r}")
    name, pv, free, code = parse_table_txt(info.properties, clean_name(instance_label(info.name)))
    addresses = rank_addresses(info.parsed_scoped_addresses(), local_networks)
    if not addresses:
        raise BadAnnouncement("no usable address")
    return TableFound(info.name, name, addresses[0], port, pv, free, code, addresses)


# --------------------------------------------------------------------------- announcer


def _zc_interfaces(interfaces: Interfaces) -> InterfaceChoice | list[str | int]:
    return InterfaceChoice.All if not interfaces else list(interfaces)


def _default_addresses(interfaces: Interfaces) -> list[str]:
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


def _txt_name(name: str) -> str:
    name = clean_name(name)[:MAX_NAME_CHARS].strip()
    return name or "I'm the Boss! table"


def _instance_name(name: str) -> str:
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
        interfaces: Interfaces = None,
        addresses: Sequence[str] | None = None,
        ip_version: IPVersion | None = None,
        aiozc: AsyncZeroconf | None = None,
    ) -> None:
        if not 1 <= int(port) <= 65535:
            raise ValueError(f"bad port {port}")
        if not 1 <= int(protocol_version) <= 65535:
            raise ValueError(f"bad protocol version {protocol_version}")
        self.table_name = _txt_name(name)
        self.port = int(port)
        self.protocol_version = int(protocol_version)
        self.seats_free = self._check_seats(seats_free)
        self.code_required = bool(code_required)
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
        }

    def _build_info(self, full_name: str) -> AsyncServiceInfo:
        addresses = self._addresses or _default_addresses(self._interfaces)
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
                    interfaces=_zc_interfaces(self._interfaces), ip_version=self._ip_version
                )
            info = self._build_info(f"{_instance_name(self.table_name)}.{SERVICE_TYPE}")
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
                self.table_name = _txt_name(name)
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
            try:
                await aiozc.async_close()
            except Exception:
                log.warning("closing zeroconf failed", exc_info=True)

    async def __aenter__(self) -> TableAnnouncer:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


# --------------------------------------------------------------------------- browser


class TableBrowser:
    """Browse for tables on the LAN from an asyncio loop.

    Events go to ``self.queue`` (a thread-safe ``queue.Queue``; drain it with
    ``get_nowait``), to the optional ``on_event`` callback (called in the
    loop), and to every active ``events()`` async iterator.  ``tables`` is the
    current view, key -> TableFound.

    ``question_type`` is passed to AsyncServiceBrowser; None keeps zeroconf's
    own choice (first query QU, then QM), which measured fastest here.
    """

    def __init__(
        self,
        *,
        interfaces: Interfaces = None,
        ip_version: IPVersion | None = None,
        aiozc: AsyncZeroconf | None = None,
        on_event: Callable[[DiscoveryEvent], None] | None = None,
        question_type: DNSQuestionType | None = DEFAULT_QUESTION_TYPE,
        resolve_timeout: float = 3.0,
        use_queue: bool = True,
    ) -> None:
        self.queue: queue.Queue[DiscoveryEvent] = queue.Queue()
        self.tables: dict[str, TableFound] = {}
        self._use_queue = use_queue
        self._interfaces = interfaces
        self._ip_version = ip_version
        self._aiozc = aiozc
        self._own_zc = aiozc is None
        self._on_event = on_event
        self._question_type = question_type
        self._resolve_ms = int(resolve_timeout * 1000)
        self._browser: AsyncServiceBrowser | None = None
        self._tasks: dict[str, asyncio.Task] = {}
        self._bad: dict[str, str] = {}  # key -> last validation error (log once)
        self._subscribers: list[asyncio.Queue[DiscoveryEvent | None]] = []
        self._local_networks: list = []
        self._closed = False
        self.started_at: float | None = None

    async def start(self) -> None:
        if self._browser is not None or self._closed:
            return
        self._local_networks = _local_networks()
        if self._aiozc is None:
            self._aiozc = AsyncZeroconf(
                interfaces=_zc_interfaces(self._interfaces), ip_version=self._ip_version
            )
        self.started_at = time.monotonic()
        self._browser = AsyncServiceBrowser(
            self._aiozc.zeroconf,
            SERVICE_TYPE,
            handlers=[self._on_state_change],
            question_type=self._question_type,
        )

    def _on_state_change(
        self,
        zeroconf: Zeroconf,
        service_type: str,
        name: str,
        state_change: ServiceStateChange,
    ) -> None:
        if self._closed:
            return
        old = self._tasks.pop(name, None)
        if old is not None:
            old.cancel()
        if state_change is ServiceStateChange.Removed:
            self._bad.pop(name, None)
            if self.tables.pop(name, None) is not None:
                self._emit(TableLost(name))
            return
        if name not in self.tables and len(self.tables) + len(self._tasks) >= MAX_TABLES:
            self._warn(name, f"more than {MAX_TABLES} tables on the network")
            return
        self._tasks[name] = asyncio.ensure_future(self._resolve(zeroconf, service_type, name))

    async def _resolve(self, zc: Zeroconf, service_type: str, name: str) -> None:
        try:
            info = AsyncServiceInfo(service_type, name)
            if not await info.async_request(zc, self._resolve_ms):
                self._warn(name, "did not resolve in time")
                return
            table = table_from_info(info, self._local_networks)
        except asyncio.CancelledError:
            raise
        except BadAnnouncement as exc:
            self._warn(name, str(exc))
            return
        except Exception as exc:  # never let one bad peer kill discovery
            self._warn(name, f"unexpected {type(exc).__name__}: {exc}")
            return
        finally:
            if self._tasks.get(name) is asyncio.current_task():
                del self._tasks[name]
        self._bad.pop(name, None)
        if self.tables.get(name) != table:
            self.tables[name] = table
            self._emit(table)

    def _warn(self, name: str, why: str) -> None:
        if self._bad.get(name) != why:
            self._bad[name] = why
            log.warning("ignoring table %r: %s", name[:100], why)

    def _emit(self, event: DiscoveryEvent) -> None:
        if self._use_queue:
            self.queue.put(event)
        for sub in self._subscribers:
            sub.put_nowait(event)
        if self._on_event is not None:
            try:
                self._on_event(event)
            except Exception:
                log.exception("discovery callback failed")

    async def events(self) -> AsyncIterator[DiscoveryEvent]:
        """Async iterator over events; starts with the tables already known."""
        sub: asyncio.Queue[DiscoveryEvent | None] = asyncio.Queue()
        for table in list(self.tables.values()):
            sub.put_nowait(table)
        self._subscribers.append(sub)
        try:
            while True:
                event = await sub.get()
                if event is None:
                    return
                yield event
        finally:
            with contextlib.suppress(ValueError):
                self._subscribers.remove(sub)

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        for task in self._tasks.values():
            task.cancel()
        self._tasks.clear()
        for sub in self._subscribers:
            sub.put_nowait(None)
        if self._browser is not None:
            with contextlib.suppress(Exception):
                await self._browser.async_cancel()
            self._browser = None
        if self._own_zc and self._aiozc is not None:
            aiozc, self._aiozc = self._aiozc, None
            try:
                await aiozc.async_close()
            except Exception:
                log.warning("closing zeroconf failed", exc_info=True)

    async def __aenter__(self) -> TableBrowser:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


class BackgroundBrowser:
    """A TableBrowser on its own asyncio loop in a daemon thread.

    For a pygame loop: ``start()`` returns immediately, ``poll()`` never
    blocks, ``close()`` is idempotent.  If discovery cannot start (no network,
    mDNS port refused) ``poll()`` yields a DiscoveryError; typed addresses
    still work.  Keyword arguments go to TableBrowser.
    """

    def __init__(self, **browser_kwargs: object) -> None:
        browser_kwargs.pop("use_queue", None)
        self._kwargs = browser_kwargs
        self._queue: queue.Queue[DiscoveryEvent] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._ready = threading.Event()
        self._closed = False
        self.browser: TableBrowser | None = None
        self.started_at: float | None = None

    def start(self) -> None:
        if self._thread is not None or self._closed:
            return
        self.started_at = time.monotonic()
        self._thread = threading.Thread(target=self._run, name="table-browser", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            asyncio.run(self._main())
        except Exception as exc:  # pragma: no cover - _main reports its own errors
            log.exception("table browser thread crashed")
            self._queue.put(DiscoveryError(str(exc)))
        finally:
            self._ready.set()

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        browser = TableBrowser(on_event=self._queue.put, use_queue=False, **self._kwargs)
        self.browser = browser
        self._ready.set()
        try:
            if not self._closed:
                await browser.start()
                await self._stop.wait()
        except Exception as exc:
            log.warning("LAN discovery unavailable: %s", exc)
            self._queue.put(DiscoveryError(f"LAN discovery unavailable: {exc}"))
        finally:
            await browser.close()

    def poll(self) -> list[DiscoveryEvent]:
        """Every event since the last poll, oldest first; never blocks."""
        out = []
        while True:
            try:
                out.append(self._queue.get_nowait())
            except queue.Empty:
                return out

    @property
    def tables(self) -> dict[str, TableFound]:
        """Snapshot of the tables currently known (thread-safe copy)."""
        browser = self.browser
        return dict(browser.tables) if browser is not None else {}

    def close(self, timeout: float = 3.0) -> None:
        if self._closed:
            return
        self._closed = True
        thread = self._thread
        if thread is None:
            return
        self._ready.wait(timeout)
        loop, stop = self._loop, self._stop
        if loop is not None and stop is not None:
            with contextlib.suppress(RuntimeError):  # loop already finished
                loop.call_soon_threadsafe(stop.set)
        thread.join(timeout)
        if thread.is_alive():  # pragma: no cover
            log.warning("table browser thread did not stop within %.1fs", timeout)

    def __enter__(self) -> BackgroundBrowser:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# --------------------------------------------------------------------------- one-shot


async def async_discover(
    timeout: float = 1.5, *, interfaces: Interfaces = None, **kwargs: object
) -> list[TableFound]:
    """Browse for ``timeout`` seconds; the tables seen (and not lost), by name."""
    async with TableBrowser(interfaces=interfaces, use_queue=False, **kwargs) as browser:
        await asyncio.sleep(timeout)
        tables = list(browser.tables.values())
    return sorted(tables, key=lambda t: (t.name.casefold(), t.key))


def discover(
    timeout: float = 1.5, *, interfaces: Interfaces = None, **kwargs: object
) -> list[TableFound]:
    """Blocking one-shot discovery (for ``main.py join --list``).

    Must not be called from a thread with a running asyncio loop; use
    ``async_discover`` there.
    """
    return asyncio.run(async_discover(timeout, interfaces=interfaces, **kwargs))


def _main(argv: Sequence[str] | None = None) -> int:  # pragma: no cover - manual tool
    import argparse

    parser = argparse.ArgumentParser(description="list I'm the Boss! tables on the LAN")
    parser.add_argument("--timeout", type=float, default=1.5)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    for t in discover(args.timeout):
        lock = " [code]" if t.code_required else ""
        print(f"{t.name}  {t.host}:{t.port}  free={t.seats_free}  pv={t.protocol_version}{lock}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(_main())
