"""A Host on its own asyncio loop in a daemon thread, for the pygame windows."""

from __future__ import annotations

import asyncio
import contextlib
import threading

from net.host.config import HostConfig, HostError
from net.host.server import Host


class HostThread:
    """A Host on its own asyncio loop in a daemon thread (for the pygame windows).

    ht = HostThread(HostConfig(...)); ht.start()     # returns once listening
    ht.port, ht.code, ht.address                      # show them; connect a Client
    ht.stop()
    """

    def __init__(self, config: HostConfig) -> None:
        self.config = config
        self.host: Host | None = None
        self.error: BaseException | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._ready = threading.Event()
        self._thread: threading.Thread | None = None
        self.finished = threading.Event()

    def start(self, timeout: float = 15.0) -> HostThread:
        self._thread = threading.Thread(target=self._run, name="lan-host", daemon=True)
        self._thread.start()
        self._ready.wait(timeout)
        if self.error is not None:
            raise self.error
        if self.host is None or self.host.port is None:
            raise HostError("the host did not start")
        return self

    def _run(self) -> None:
        try:
            asyncio.run(self._main())
        except BaseException as exc:  # pragma: no cover - reported through start()
            self.error = exc
        finally:
            self._ready.set()
            self.finished.set()

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        host = Host(self.config)
        try:
            await host.start()
        except BaseException as exc:
            self.error = exc
            self._ready.set()
            return
        self.host = host
        self._ready.set()
        await self._stop.wait()
        await host.close()

    @property
    def port(self) -> int | None:
        return None if self.host is None else self.host.port

    @property
    def code(self) -> str | None:
        return None if self.host is None else self.host.code

    @property
    def phone_url(self) -> str | None:
        """The phone page's address with the room code (None: phones are not served)."""
        return None if self.host is None else self.host.phone_url

    def stop(self, timeout: float = 5.0) -> None:
        if self._loop is not None and self._stop is not None:
            with contextlib.suppress(RuntimeError):
                self._loop.call_soon_threadsafe(self._stop.set)
        if self._thread is not None:
            self._thread.join(timeout)
