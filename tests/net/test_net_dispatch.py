"""Which handler reads each message kind: the host's and the client's tables name every kind
of protocol.CLIENT_MESSAGES / HOST_MESSAGES, and a client handler's own bug is not taken for
a bad message from the host."""

from __future__ import annotations

import asyncio

import pytest

from net import protocol as P
from net.client.session import ClientSession
from net.host.server import Host


def test_the_dispatch_tables_name_every_message_kind_and_no_other():
    assert set(Host.HANDLERS) == set(P.CLIENT_MESSAGES)
    assert set(ClientSession.HANDLERS) == set(P.HOST_MESSAGES)


def test_a_bug_in_a_client_handler_propagates_and_bad_contents_count_as_bad_messages(
    monkeypatch,
):
    def broken(*args) -> None:
        raise AttributeError("a bug in the 'said' handler")

    monkeypatch.setattr("net.client.session.Said", broken)
    session = ClientSession("127.0.0.1", 9)
    with pytest.raises(AttributeError, match="a bug"):
        session._on_raw({"t": "said", "seat": 0, "phrase": "deal"})
    assert session.stats["bad_messages"] == 0

    got = []
    session = ClientSession("127.0.0.1", 9, on_message=got.append)
    table = {"name": "T", "seats": "many", "code_required": False, "started": False}
    welcome = {"t": "welcome", "v": P.PROTOCOL_VERSION, "role": "player", "table": table}
    session._on_raw(welcome)  # a table that says "many" seats
    view = {"version": 1, 1: "a map with keys of two types"}
    snapshot = {"t": "snapshot", "version": 1, "hash": "0" * P.HASH_HEX, "view": view,
                "events": []}  # fmt: skip
    session._on_raw(snapshot)
    assert session.stats["bad_messages"] == 2 and got == [] and session.view is None


def _serve_once(data: bytes, byte_by_byte: bool):
    """A host that reads the hello, writes ``data`` (one byte at a time, or at once) and
    closes the connection."""

    async def serve(reader, writer) -> None:
        await reader.read(1000)
        if byte_by_byte:
            for i in range(len(data)):
                writer.write(data[i : i + 1])
                await writer.drain()
                await asyncio.sleep(0.0005)
        else:
            writer.write(data)
        await writer.drain()
        writer.close()

    return serve


async def _session_against(data: bytes, byte_by_byte: bool = False):
    server = await asyncio.start_server(_serve_once(data, byte_by_byte), "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    got: list = []
    session = ClientSession("127.0.0.1", port, name="M", code="ABCD", on_message=got.append,
                            reconnect=False)  # fmt: skip
    try:
        await asyncio.wait_for(session.run(), 20)
    finally:
        server.close()
    return session, got


def test_the_link_reads_the_hosts_bytes_however_they_are_cut(monkeypatch):
    """The read callback (``HostLink``) gets every message whatever the reads' sizes, bad
    data ends the connection as such, and a handler's own bug ends the session's task."""
    table = {"name": "T", "seats": 2, "code_required": True, "started": False}
    welcome = {"t": "welcome", "v": P.PROTOCOL_VERSION, "role": "player", "seat": 1,
               "token": "a" * P.TOKEN_HEX, "table": table}  # fmt: skip
    said = [{"t": "said", "seat": s, "phrase": "deal"} for s in (0, 1)]
    stream = b"".join(P.encode(m) for m in (welcome, *said))

    session, got = asyncio.run(_session_against(stream, byte_by_byte=True))
    kinds = [type(m).__name__ for m in got]
    assert kinds == ["Joined", "Said", "Said", "Disconnected"]
    assert [m.seat for m in got[1:3]] == [0, 1]
    assert got[-1].reason == "connection lost" and not got[-1].will_retry
    assert session.stats["bytes_in"] == len(stream)

    too_long = b"\xdb" + (P.MAX_FRAME * 2).to_bytes(4, "big")  # a str32 header
    session, got = asyncio.run(_session_against(P.encode(welcome) + too_long))
    assert [type(m).__name__ for m in got] == ["Joined", "Disconnected"]
    assert got[-1].reason.startswith("bad data from the host: frame_too_large")
    assert session.stats["bad_frames"] == 1

    def broken(*args) -> None:
        raise AttributeError("a bug in the 'said' handler")

    monkeypatch.setattr("net.client.session.Said", broken)
    with pytest.raises(AttributeError, match="a bug"):
        asyncio.run(_session_against(stream))


def test_the_links_silence_is_counted_from_the_connection_not_from_the_dial():
    """A connection that took long to open is not taken for a silent host at the first
    ping check: ``last_rx`` starts when the connection is made."""
    from collections import Counter

    from net.client.link import HostLink

    async def scenario() -> tuple[float, float]:
        link = HostLink(lambda raw: None, Counter(), lambda exc: "lost", lambda: None)
        dialled = link.last_rx
        await asyncio.sleep(0.05)  # the dial takes a while
        link.connection_made(None)
        return dialled, link.last_rx

    dialled, made = asyncio.run(scenario())
    assert made - dialled >= 0.04
