"""LAN discovery of hosted tables over mDNS / DNS-SD (python-zeroconf): the browsers.

The announcer lives in ``net.discovery.announcer``, the events and the TXT parsing in
``net.discovery.records``; both are importable from here.

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
    wm    "ask_around" or "real_time"     win   seconds to answer a window (decimal)
Everything read from the network is untrusted: see ``parse_table_txt``.
A TableFound is reported again (same ``key``) whenever its data changes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import threading
import time
from collections.abc import AsyncIterator, Callable, Sequence

from zeroconf import (
    DNSQuestionType,
    IPVersion,
    ServiceStateChange,
    Zeroconf,
)
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from net.discovery.announcer import TableAnnouncer
from net.discovery.records import (
    MAX_NAME_CHARS,
    MAX_SEATS,
    MAX_TABLES,
    SERVICE_TYPE,
    BadAnnouncement,
    DiscoveryError,
    DiscoveryEvent,
    Interfaces,
    TableFound,
    TableLost,
    TablePace,
    clean_name,
    close_zeroconf,
    instance_label,
    local_networks,
    parse_pace_txt,
    parse_table_txt,
    rank_addresses,
    table_from_info,
    zc_interfaces,
)

#: What the lobby, the command line and the tests import from here (the records live in
#: ``net.discovery.records``, the announcer in ``net.discovery.announcer``).
__all__ = [
    "MAX_NAME_CHARS",
    "MAX_SEATS",
    "MAX_TABLES",
    "SERVICE_TYPE",
    "BackgroundBrowser",
    "BadAnnouncement",
    "DiscoveryError",
    "DiscoveryEvent",
    "Interfaces",
    "TableAnnouncer",
    "TableBrowser",
    "TableFound",
    "TableLost",
    "TablePace",
    "async_discover",
    "clean_name",
    "discover",
    "instance_label",
    "parse_pace_txt",
    "parse_table_txt",
    "rank_addresses",
    "table_from_info",
]

log = logging.getLogger(__name__)

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
        self.local_networks: list = []
        self._closed = False
        self.started_at: float | None = None

    async def start(self) -> None:
        if self._browser is not None or self._closed:
            return
        self.local_networks = local_networks()
        if self._aiozc is None:
            self._aiozc = AsyncZeroconf(
                interfaces=zc_interfaces(self._interfaces), ip_version=self._ip_version
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
            table = table_from_info(info, self.local_networks)
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
            await close_zeroconf(aiozc)

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
