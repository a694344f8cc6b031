"""What the phone server serves over HTTP (net/web/files.py, net/web/server.py): the page's
files, the four translation tables and the fonts, each with its type and caching; nothing
else - no `..`, no listing, no source file, no other host name - whatever the path says."""

from __future__ import annotations

import asyncio

import pytest

from net.web.files import FONTS_DIR, LANG_DIR, LANGUAGES, served_files
from tests.net_helpers import LOOPBACK, run
from tests.web_helpers import start_phone_host

pytestmark = pytest.mark.timeout(60)

PAGE = {
    "index.html": b"<!doctype html><title>phone</title>",
    "app.js": b"console.log(1)",
    "style.css": b"body{}",
    "vendor/msgpack.min.js": b"/* msgpack */",
    "vendor/LICENSE.txt": b"MIT",
    "secret.py": b"print('source')",
    ".env": b"SECRET=1",
    "notes.md": b"# notes",
    "sub/.hidden.js": b"hidden",
}


@pytest.fixture
def page(tmp_path):
    root = tmp_path / "phone"
    for rel, data in PAGE.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    (root / "empty_dir").mkdir()
    (root / "link.js").symlink_to(tmp_path / "outside.js")
    (tmp_path / "outside.js").write_bytes(b"outside")
    return root


async def raw_get(port: int, path: str, method: str = "GET", **headers) -> tuple[int, dict, bytes]:
    """One HTTP/1.1 request with the path exactly as given (no client normalises it)."""
    reader, writer = await asyncio.open_connection(LOOPBACK, port)
    headers.setdefault("Host", f"{LOOPBACK}:{port}")
    lines = [f"{method} {path} HTTP/1.1", *(f"{k}: {v}" for k, v in headers.items())]
    writer.write(("\r\n".join(lines) + "\r\nConnection: close\r\n\r\n").encode())
    data = await reader.read()
    writer.close()
    head, _, body = data.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    answer = {}
    for line in header_lines:
        k, _, v = line.partition(":")
        answer[k.strip().lower()] = v.strip()
    return int(status_line.split()[1]), answer, body


def _serve(page, probe):
    async def scenario():
        host, _ = await start_phone_host(phone_dir=page)
        try:
            return await probe(host.phones.port)
        finally:
            await host.close()

    return run(scenario())


def test_the_page_its_translations_and_fonts_are_served_with_their_types(page):
    async def probe(port):
        status, head, body = await raw_get(port, "/")
        assert (status, body) == (200, PAGE["index.html"])
        assert head["content-type"] == "text/html; charset=utf-8"
        assert head["cache-control"] == "no-cache"
        assert head["x-content-type-options"] == "nosniff"
        assert "frame-ancestors 'none'" in head["content-security-policy"]
        assert f"connect-src 'self' ws://{LOOPBACK}:{port}" in head["content-security-policy"]
        for rel, kind in [
            ("app.js", "text/javascript; charset=utf-8"),
            ("style.css", "text/css; charset=utf-8"),
            ("vendor/msgpack.min.js", "text/javascript; charset=utf-8"),
            ("vendor/LICENSE.txt", "text/plain; charset=utf-8"),
        ]:
            status, head, body = await raw_get(port, "/" + rel)
            assert (status, head["content-type"], body) == (200, kind, PAGE[rel]), rel
        for lang in LANGUAGES:
            status, head, body = await raw_get(port, f"/lang/{lang}.json")
            assert status == 200 and body == (LANG_DIR / f"{lang}.json").read_bytes()
            assert head["content-type"] == "application/json; charset=utf-8"
        font = sorted(FONTS_DIR.glob("*.ttf"))[0]
        status, head, body = await raw_get(port, f"/fonts/{font.name}")
        assert status == 200 and body == font.read_bytes()
        assert head["content-type"] == "font/ttf" and "max-age" in head["cache-control"]
        status, head, body = await raw_get(port, "/app.js", method="HEAD")
        assert status == 200 and body == b""

    _serve(page, probe)


FORBIDDEN = [
    "/secret.py",  # a source file in the page's folder
    "/.env",  # a dotfile
    "/notes.md",  # a kind of file the page never needs
    "/sub/.hidden.js",
    "/link.js",  # a symlink out of the folder
    "/empty_dir",  # folders: no listing
    "/empty_dir/",
    "/vendor/",
    "/index.html/",
    "/../main.py",  # out of the folder
    "/%2e%2e/main.py",
    "/%2E%2E%2Fmain.py",
    "/vendor/../../main.py",
    "/..%2f..%2fmain.py",
    "/vendor/..%5c..%5cmain.py",
    "/%00index.html",
    "//etc/passwd",
    "/lang/xx.json",
    "/lang/../../main.py",
    "/lang/",
    "/fonts/",
    "/fonts/subset_fonts.py",  # the fonts' script and data beside them
    "/fonts/fonts.json",
    "/fonts/OFL.txt",
    "/fonts/../../main.py",
    "/net/web/server.py",
    "/main.py",
    "/assets/lang/en.json",
]


@pytest.mark.parametrize("path", FORBIDDEN)
def test_nothing_outside_the_list_is_served(page, path):
    async def probe(port):
        status, _, body = await raw_get(port, path)
        assert status in (400, 404), (path, status, body[:80])
        assert b"print(" not in body and b"SECRET" not in body and b"outside" not in body

    _serve(page, probe)


def test_text_is_sent_gzipped_to_a_browser_that_takes_it_and_revalidates(page):
    import gzip

    async def probe(port):
        path = "/lang/th.json"
        plain = (LANG_DIR / "th.json").read_bytes()
        status, head, body = await raw_get(port, path, **{"Accept-Encoding": "gzip, deflate"})
        assert status == 200 and head["content-encoding"] == "gzip"
        assert gzip.decompress(body) == plain and len(body) < len(plain) / 3
        assert head["vary"] == "Accept-Encoding"
        again = {"Accept-Encoding": "gzip", "If-None-Match": head["etag"]}
        status, _, body = await raw_get(port, path, **again)
        assert status == 304 and body == b""
        status, head, body = await raw_get(port, path)  # no Accept-Encoding: as it is
        assert status == 200 and body == plain and "content-encoding" not in head
        font = sorted(FONTS_DIR.glob("*.ttf"))[0]
        _, head, _ = await raw_get(port, f"/fonts/{font.name}", **{"Accept-Encoding": "gzip"})
        assert "content-encoding" not in head  # compressed already

    _serve(page, probe)


def test_only_get_and_head_and_only_this_machines_names(page):
    async def probe(port):
        status, _, _ = await raw_get(port, "/", method="POST")
        assert status == 405
        status, _, _ = await raw_get(port, "/", Host="attacker.example")
        assert status == 403  # a page reached through another name (DNS rebinding)
        status, _, _ = await raw_get(port, "/", Host=f"localhost:{port}")
        assert status == 200

    _serve(page, probe)


def test_the_repositorys_list_holds_only_page_files_the_tables_and_fonts():
    files = served_files()
    assert {f"/lang/{lang}.json" for lang in LANGUAGES} <= set(files)
    assert any(p.startswith("/fonts/") for p in files)
    for path, served in files.items():
        assert served.path.suffix not in (".py", ".md", ".sh"), path
        assert not any(part.startswith(".") for part in path.split("/")), path


def test_requests_that_are_not_http_get_400_and_leave_no_traceback(page, caplog):
    import logging

    async def probe(port):
        for data in (b"GARBAGE\r\n\r\n", b"GET / HTTP/1.1\r\nX: " + b"a" * 20000 + b"\r\n\r\n"):
            reader, writer = await asyncio.open_connection(LOOPBACK, port)
            writer.write(data)
            got = await asyncio.wait_for(reader.read(100), 5)
            assert b" 400 " in got.split(b"\r\n")[0], got
            writer.close()

    with caplog.at_level(logging.DEBUG, logger="aiohttp.server"):
        _serve(page, probe)
    assert not [r for r in caplog.records if r.name == "aiohttp.server" and r.exc_info]
