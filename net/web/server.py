"""The phone server: the page over HTTP and the protocol over a WebSocket, in the host's loop.

    phones = PhoneServer(host.connections, bind="0.0.0.0", port=DEFAULT_PHONE_PORT)
    await phones.start()          # listening (on an ephemeral port if that one is taken)
    phones.url(code)              # http://192.168.1.20:8700/?code=ABCD, for the QR code
    await phones.close()

aiohttp serves both on one port (docs/SECURITY.md "The phone page"): ``GET`` of the files
``net.web.files`` lists (404 for anything else) and ``/ws``, where each connection becomes a
host ``Connection`` (``net.web.socket``). Every request must name this machine in its Host
header (an IP address, ``localhost`` or this machine's own name: a DNS-rebinding page cannot),
and a WebSocket upgrade whose Origin is not the page's own (``http://`` + that Host) is
refused with 403 before the upgrade, so no other web page a phone has open can play for it.
"""

from __future__ import annotations

import contextlib
import gzip
import ipaddress
import logging
import socket
from urllib.parse import quote

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError

from net.host.config import DEFAULT_PHONE_PORT
from net.host.connections import Connections
from net.web import socket as phone_socket
from net.web.files import Served, served_files

log = logging.getLogger(__name__)

#: headers of every answer: the page runs only its own files, is never framed, sends no
#: referrer, and a browser never guesses a type
SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Resource-Policy": "same-origin",
}
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; font-src 'self'; connect-src 'self' ws://{host}; "
    "frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
)


class BadRequests(logging.Filter):
    """aiohttp logs a traceback for every request it cannot parse (a header line over 8 KiB,
    bytes that are not HTTP): those come from the network, not from a bug, and the host's
    log stays one line per problem at most (docs/SECURITY.md). They are dropped here; aiohttp
    answers them 400 all the same."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        return not isinstance(exc, HttpProcessingError)


_BAD_REQUESTS = BadRequests()


def own_names() -> set[str]:
    """The host names (besides IP addresses) a request may name: this machine's."""
    names = {"localhost"}
    with contextlib.suppress(OSError):
        name = socket.gethostname().lower()
        if name:
            names.update({name, name + ".local", name.split(".")[0] + ".local"})
    return names


def host_part(host_header: str) -> str:
    """The host of a Host header, without its port or IPv6 brackets ("" if malformed)."""
    value = host_header.strip().lower()
    if value.startswith("["):
        end = value.find("]")
        return value[1:end] if end > 0 else ""
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


def is_own_host(host_header: str | None, names: set[str]) -> bool:
    if not host_header:
        return False
    host = host_part(host_header)
    try:
        ipaddress.ip_address(host)
        return True
    except ValueError:
        return host in names


def lan_address(bind: str) -> str:
    """The address phones on the LAN reach this machine at: the bound one, or for all
    interfaces this machine's first LAN address (loopback when it has none)."""
    if bind not in ("0.0.0.0", "", "::"):
        return bind
    from net.discovery.announcer import default_addresses

    try:
        return default_addresses(None)[0]
    except Exception:  # pragma: no cover - no interface list
        return "127.0.0.1"


class PhoneServer:
    """The page and the WebSocket on one port (aiohttp, in the running asyncio loop)."""

    def __init__(
        self,
        connections: Connections,
        *,
        bind: str = "0.0.0.0",
        port: int = DEFAULT_PHONE_PORT,
        files: dict[str, Served] | None = None,
    ) -> None:
        self.connections = connections
        self.bind = bind
        self.wanted_port = port
        self.port: int | None = None
        self.files = served_files() if files is None else files
        self.names = own_names()
        self._runner: web.AppRunner | None = None
        #: text files gzipped once per version of the file: path -> (stat key, bytes)
        self._gzipped: dict[str, tuple[tuple[int, int], bytes]] = {}

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        logging.getLogger("aiohttp.server").addFilter(_BAD_REQUESTS)  # once: a set
        app = web.Application(middlewares=[self._guard], client_max_size=4096)
        app.router.add_get("/ws", self._websocket)
        app.router.add_route("*", "/{path:.*}", self._file)
        self._runner = web.AppRunner(
            app, access_log=None, handle_signals=False, shutdown_timeout=2.0
        )
        await self._runner.setup()
        sock = self._listen()
        site = web.SockSite(self._runner, sock)
        await site.start()
        self.port = sock.getsockname()[1]

    def _listen(self) -> socket.socket:
        """A listening socket on the wanted port, or on any free one if it is taken."""
        family = socket.AF_INET6 if ":" in self.bind else socket.AF_INET
        for port in dict.fromkeys((self.wanted_port, 0)):
            sock = socket.socket(family, socket.SOCK_STREAM)
            try:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                sock.bind((self.bind, port))
                sock.listen(128)
                sock.setblocking(False)
                return sock
            except OSError as exc:
                sock.close()
                if port == 0:
                    raise
                log.info("phone port %d is taken (%s): any free port instead", port, exc)
        raise AssertionError("unreachable")  # pragma: no cover

    async def close(self) -> None:
        if self._runner is not None:
            runner, self._runner = self._runner, None
            with contextlib.suppress(Exception):
                await runner.cleanup()

    def url(self, code: str) -> str:
        """The address a phone opens (the QR code's): the page, with the room code."""
        address = lan_address(self.bind)
        host = f"[{address}]" if ":" in address else address
        return f"http://{host}:{self.port}/?code={quote(code)}"

    # ------------------------------------------------------------------ requests

    @web.middleware
    async def _guard(self, request: web.Request, handler):
        if not is_own_host(request.headers.get("Host"), self.names):
            self.connections.stats["web_refused_host"] += 1
            raise web.HTTPForbidden(text="unknown host\n")
        response = await handler(request)
        if not isinstance(response, web.WebSocketResponse):
            response.headers.update(SECURITY_HEADERS)
            response.headers["Content-Security-Policy"] = CSP.format(host=request.host)
        return response

    async def _file(self, request: web.Request) -> web.StreamResponse:
        if request.method not in ("GET", "HEAD"):
            raise web.HTTPMethodNotAllowed(request.method, ["GET", "HEAD"])
        served = self.files.get(request.path)
        if served is None:
            self.connections.stats["web_not_found"] += 1
            raise web.HTTPNotFound(text="not found\n")
        self.connections.stats["web_files"] += 1
        headers = {"Content-Type": served.content_type, "Cache-Control": served.cache}
        if served.compressible and "gzip" in request.headers.get("Accept-Encoding", ""):
            return self._gzip_response(request, served, headers)
        return web.FileResponse(served.path, headers=headers)

    def _gzip_response(self, request: web.Request, served: Served, headers: dict):
        """A text file gzipped (the translation tables shrink to a sixth), compressed once
        per version of the file, with its own ETag so a phone revalidates it for free."""
        st = served.path.stat()
        key = (st.st_mtime_ns, st.st_size)
        cached = self._gzipped.get(request.path)
        if cached is None or cached[0] != key:
            cached = self._gzipped[request.path] = (
                key, gzip.compress(served.path.read_bytes(), 6, mtime=0)
            )  # fmt: skip
        headers["ETag"] = f'"{key[0]:x}-{key[1]:x}-gz"'
        headers["Vary"] = "Accept-Encoding"
        if request.headers.get("If-None-Match") == headers["ETag"]:
            return web.Response(status=304, headers=headers)
        headers["Content-Encoding"] = "gzip"
        return web.Response(body=cached[1], headers=headers)

    async def _websocket(self, request: web.Request) -> web.StreamResponse:
        origin = request.headers.get("Origin")
        if origin is not None and origin.lower() != f"http://{request.host}".lower():
            self.connections.stats["web_refused_origin"] += 1
            raise web.HTTPForbidden(text="foreign origin\n")
        if self.connections.closing:
            raise web.HTTPServiceUnavailable(text="the host is closing\n")
        return await phone_socket.serve(request, self.connections)
