"""The phone transport (net/web) over loopback with aiohttp's client: the same protocol as
TCP in binary WebSocket messages - hello, welcome, snapshot, update, actions, a mixed
table of phones and TCP clients - and the same errors and limits for bad input."""

from __future__ import annotations

import asyncio

import aiohttp
import msgpack
import pytest

from game.rules import legal_actions, view
from net import protocol as P
from net.host.connections import Limits
from tests.net_helpers import CODE, Peer, Recorder, run
from tests.web_helpers import WebPeer, raw_websocket, start_phone_host, ws_frame, ws_url

pytestmark = pytest.mark.timeout(60)


def _limits(**kw) -> Limits:
    base = {"rate": 1000.0, "burst": 1000.0}
    base.update(kw)
    return Limits(**base)


# --------------------------------------------------------------------------- the flow


def test_a_phone_joins_and_plays_like_a_tcp_client():
    async def scenario():
        host, clock = await start_phone_host(seats=2)
        phone = await WebPeer.connect(host)
        welcome = await phone.hello("Phone", legal=True)
        assert welcome["role"] == "player" and welcome["seat"] == 0
        assert P.is_token(welcome["token"])
        tcp = await Peer.connect(host.port)
        await tcp.hello("Desk")
        snap = await phone.expect("snapshot")
        assert snap["view"] == view(host.state, 0)
        assert snap["hash"] == P.view_hash(snap["view"])
        assert "legal" in snap
        # a move of whoever's turn it is; both ends see the update with their own hash
        st = host.state
        mover, peer = (0, phone) if list(legal_actions(st, 0)) else (1, tcp)
        action = next(iter(legal_actions(st, mover)))
        peer.act(action, st.actions_taken, id=7)
        for p, seat in ((phone, 0), (tcp, 1)):
            upd = await p.expect("update")
            assert upd["version"] == host.state.actions_taken
            assert upd["hash"] == P.view_hash(view(host.state, seat))
        assert host.seats[0].conn.via == "web" and host.seats[1].conn.via == "tcp"
        await phone.close()
        await tcp.close()
        await host.close()

    run(scenario())


def test_a_phone_rejoins_with_its_token_and_replaces_its_old_connection():
    async def scenario():
        host, clock = await start_phone_host(seats=2)
        first = await WebPeer.connect(host)
        await first.hello("Phone")
        second = await WebPeer.connect(host)
        welcome = await second.hello(token=first.token, code=None)
        assert welcome["seat"] == 0
        await first.error("replaced")
        got = await first.closed()
        assert {"t": "bye", "reason": "replaced"} in got
        await first.close()
        await second.close()
        await host.close()

    run(scenario())


def test_a_tcp_frames_bytes_are_the_websocket_messages_bytes():
    """Each binary WebSocket message is exactly one protocol frame, byte for byte."""

    async def scenario():
        rec = Recorder()
        host, clock = await start_phone_host(seats=2, tap=rec)
        phone = await WebPeer.connect(host)
        await phone.hello("Phone")
        raw = await phone.ws.receive(5)
        assert raw.type is aiohttp.WSMsgType.BINARY
        sent = [frame for conn, _, frame in rec.frames if conn.via == "web"]
        assert raw.data in sent
        await phone.close()
        await host.close()

    run(scenario())


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "data, code",
    [
        (b"\xc1", "bad_frame"),  # never msgpack
        (b"\x92\x01", "bad_frame"),  # a message that ends inside a value
        (msgpack.packb({"t": "ping"}) * 2, "bad_frame"),  # two values in one message
        (b"", "bad_frame"),  # no value at all
    ],
)
def test_bad_messages_get_the_tcp_answer_and_close(data, code):
    async def scenario():
        host, clock = await start_phone_host()
        phone = await WebPeer.connect(host)
        phone.send_raw(data)
        await phone.error(code)
        await phone.closed()
        assert host.stats["errors." + code] == 1
        await phone.close()
        await host.close()

    run(scenario())


def test_a_text_message_is_a_bad_frame():
    async def scenario():
        host, clock = await start_phone_host()
        phone = await WebPeer.connect(host)
        phone.send_text('{"t": "ping"}')
        msg = await phone.error("bad_frame")
        assert "binary" in msg["message"]
        await phone.closed()
        await phone.close()
        await host.close()

    run(scenario())


def test_an_oversized_message_is_frame_too_large_then_closed():
    async def scenario():
        host, clock = await start_phone_host()
        phone = await WebPeer.connect(host)
        phone.send_raw(msgpack.packb({"t": "ping", "n": "x" * P.MAX_FRAME}))
        await phone.error("frame_too_large")
        await phone.closed()
        assert phone.close_code == aiohttp.WSCloseCode.MESSAGE_TOO_BIG
        await phone.close()
        # a message of exactly MAX_FRAME bytes is a message (here an ill-typed one)
        phone = await WebPeer.connect(host)
        big = msgpack.packb({"t": "ping", "n": ""})
        pad = P.MAX_FRAME - len(big) - 4  # str16/str32 header growth
        data = msgpack.packb({"t": "ping", "n": "x" * pad})
        assert len(data) <= P.MAX_FRAME
        phone.send_raw(data)
        await phone.error("bad_message")
        await phone.close()
        await host.close()

    run(scenario())


def test_wrong_codes_then_too_many_attempts():
    async def scenario():
        host, clock = await start_phone_host()
        phone = await WebPeer.connect(host)
        answers = []
        for _ in range(host.limits.max_code_attempts):
            phone.send({"t": "hello", "v": 2, "role": "player", "name": "X", "code": "ZZZZ"})
            answers.append((await phone.expect("error"))["code"])
        assert answers == ["bad_code"] * 4 + ["too_many_attempts"]
        await phone.closed()
        await phone.close()
        await host.close()

    run(scenario())


def test_a_flood_is_rate_limited_then_closed():
    async def scenario():
        host, clock = await start_phone_host(limits=_limits(rate=5, burst=5, max_dropped=20))
        phone = await WebPeer.connect(host)
        for n in range(60):
            phone.send({"t": "ping", "n": n})
        got = await phone.closed()
        errors = [m for m in got if m["t"] == "error"]
        assert errors[0]["code"] == "rate_limited"
        assert errors[-1] == P.error("rate_limited", "flooding: connection closed")
        assert sum(m["t"] == "pong" for m in got) == 5
        await phone.close()
        await host.close()

    run(scenario())


def test_no_hello_in_time_and_silence_time_out():
    async def scenario():
        limits = _limits(handshake_timeout=0.2, idle_timeout=0.4)
        host, clock = await start_phone_host(limits=limits)
        phone = await WebPeer.connect(host)
        msg = await phone.error("timeout")
        assert msg["message"] == "no hello in time"
        await phone.close()
        phone = await WebPeer.connect(host)
        await phone.hello()
        msg = await phone.error("timeout", timeout=3)
        assert msg["message"] == "silent for too long"
        await phone.close()
        await host.close()

    run(scenario())


def test_a_phone_that_does_not_read_is_dropped():
    async def scenario():
        limits = _limits(rate=1e9, burst=1e9, max_write_buffer=64 * 1024)  # as the TCP test
        host, clock = await start_phone_host(seats=2, limits=limits)
        reader, writer = await raw_websocket(host)
        hello = {"t": "hello", "v": 2, "role": "player", "name": "Sloth", "code": CODE}
        writer.write(ws_frame(msgpack.packb(hello)))
        keep = await Peer.connect(host.port)
        await keep.hello("Keen")
        for _ in range(40):  # ~2 MB of snapshots, never read
            for _ in range(50):
                writer.write(ws_frame(msgpack.packb({"t": "sync"})))
            await writer.drain()
            await asyncio.sleep(0.01)
            if not host.seats[0].conn:
                break
        assert host.seats[0].conn is None and host.seats[0].status == "away"
        assert host.stats["errors.slow_reader"] == 1
        writer.close()
        await keep.close()
        await host.close()

    run(scenario())


def test_the_connection_limit_counts_phones_and_tcp_together():
    async def scenario():
        host, clock = await start_phone_host(limits=_limits(max_connections=2))
        a = await WebPeer.connect(host)
        await a.hello("A")
        b = await Peer.connect(host.port)
        await b.hello("B")
        c = await WebPeer.connect(host)
        await c.error("too_many_connections")
        await c.closed()
        for p in (a, b, c):
            await p.close()
        await host.close()

    run(scenario())


# --------------------------------------------------------------------------- origin


def test_a_foreign_origin_is_refused_before_the_upgrade():
    async def scenario():
        host, clock = await start_phone_host()
        async with aiohttp.ClientSession() as session:
            with pytest.raises(aiohttp.WSServerHandshakeError) as err:
                await session.ws_connect(ws_url(host), origin="http://evil.example")
            assert err.value.status == 403
            own = f"http://127.0.0.1:{host.phones.port}"
            ws = await session.ws_connect(ws_url(host), origin=own)
            await ws.send_bytes(msgpack.packb({"t": "ping", "n": 1}))
            msg = await ws.receive(5)
            assert msgpack.unpackb(msg.data) == {"t": "pong", "n": 1}
            await ws.close()
            # a page loaded by another name of this address (DNS rebinding) is refused
            with pytest.raises(aiohttp.WSServerHandshakeError) as err:
                await session.ws_connect(
                    ws_url(host),
                    origin="http://rebind.example:1",
                    headers={"Host": "rebind.example:1"},
                )
            assert err.value.status == 403
        assert host.stats["web_refused_origin"] == 1
        assert host.stats["web_refused_host"] == 1
        await host.close()

    run(scenario())


def test_the_url_names_the_port_and_the_room_code():
    async def scenario():
        host, clock = await start_phone_host()
        assert host.phone_url == f"http://127.0.0.1:{host.phones.port}/?code={CODE}"
        await host.close()

    run(scenario())


def test_a_taken_port_falls_back_to_a_free_one():
    async def scenario():
        first, _ = await start_phone_host()
        taken = first.phones.port
        second, _ = await start_phone_host(phone_port=taken)
        assert second.phones.port not in (taken, None)
        await second.close()
        await first.close()

    run(scenario())


def test_frames_go_out_in_order_and_unsent_bytes_count_as_the_write_buffer():
    """The sender task writes every frame in order, also when aiohttp's send has to wait
    (the socket's buffer is full); what it has not written counts towards the slow-reader
    limit; a close goes out after the frames written before it."""
    from net.web.socket import WebSocketTransport

    class Raw:
        def get_write_buffer_size(self):
            return 0

        def is_closing(self):
            return False

        def get_extra_info(self, name, default=None):
            return default

    class SlowSocket:
        """Writes each frame, and waits on ``gate`` after frame A."""

        def __init__(self):
            self.written, self.closed = [], False
            self.gate = asyncio.get_running_loop().create_future()

        async def send_bytes(self, data):
            self.written.append(data)
            if data == b"A":
                await self.gate

        async def close(self, code=None):
            self.closed = True

    async def scenario():
        ws = SlowSocket()
        t = WebSocketTransport(ws, Raw())
        for frame in (b"0", b"A", b"BB", b"CCC"):
            t.write(frame)
        assert t.get_write_buffer_size() == 7
        await asyncio.sleep(0.01)
        assert ws.written == [b"0", b"A"] and t.get_write_buffer_size() == 5  # waiting
        t.close()
        t.write(b"late")  # after close: dropped
        ws.gate.set_result(None)
        await asyncio.wait_for(t.sender, 1)
        assert ws.written == [b"0", b"A", b"BB", b"CCC"] and ws.closed

    run(scenario())


def test_bytes_that_are_not_websocket_frames_are_a_bad_frame():
    async def scenario():
        host, clock = await start_phone_host()
        reader, writer = await raw_websocket(host)
        writer.write(ws_frame(b"hello", opcode=0x3))  # a reserved opcode: not WebSocket
        data = await asyncio.wait_for(reader.read(4096), 5)
        assert data[0] == 0x82  # a binary message first: the protocol's error
        n = data[1] & 0x7F
        error = msgpack.unpackb(data[2 : 2 + n])
        assert error["t"] == "error" and error["code"] == "bad_frame"
        rest = data[2 + n :] or await asyncio.wait_for(reader.read(4096), 5)
        assert rest[0] == 0x88  # then the close frame, code 1002
        assert int.from_bytes(rest[2:4], "big") == aiohttp.WSCloseCode.PROTOCOL_ERROR
        writer.close()
        await host.close()

    run(scenario())


def test_a_host_thread_serves_phones_for_a_browser_driven_from_sync_code():
    """tests.web_helpers.phone_host_thread, what the page's browser tests start: a host in
    its own thread whose phone_url serves the tables and takes a WebSocket hello."""
    import urllib.request

    from tests.web_helpers import phone_host_thread

    with phone_host_thread(seats=2) as ht:
        assert ht.phone_url.endswith(f"/?code={CODE}")
        base = ht.phone_url.split("?")[0]
        with urllib.request.urlopen(base + "lang/en.json", timeout=5) as answer:
            assert answer.status == 200

        async def hello():
            url = base.replace("http", "ws") + "ws"
            async with aiohttp.ClientSession() as session, session.ws_connect(url) as ws:
                await ws.send_bytes(msgpack.packb(
                    {"t": "hello", "v": 2, "role": "player", "name": "P", "code": CODE}
                ))  # fmt: skip
                return msgpack.unpackb((await ws.receive(5)).data)

        assert run(hello())["t"] == "welcome"


@pytest.mark.slow
def test_a_phone_that_answers_the_hosts_pings_stays_seated_and_one_asleep_shows_away():
    """The host's presence check (docs/PROTOCOL.md §11) hears a WebSocket like a TCP
    connection: a phone that answers the host's pings keeps its seat, one that sleeps shows
    away (a phone was never marked heard, so every phone showed away seconds into a game and
    then a bot took its seat)."""

    async def scenario():
        host, _ = await start_phone_host(seats=2, limits=_limits(probe_interval=0.1, away_after=0.4))
        loop = asyncio.get_running_loop()
        phone = await WebPeer.connect(host)
        await phone.hello("Phone")
        phone.send({"t": "start"})
        await phone.expect("snapshot")
        pings, end = 0, loop.time() + 1.5
        while loop.time() < end:  # awake: every ping answered
            try:
                msg = await phone.recv(timeout=0.2)
            except AssertionError:
                continue  # nothing came this while
            if msg.get("t") == "ping":
                pings += 1
                phone.send({"t": "pong", "n": msg["n"]})
        assert pings >= 2
        assert host.seats[0].status == "human"
        await asyncio.sleep(1.0)  # asleep: nothing read, nothing said
        assert host.seats[0].status in ("away", "bot")
        await phone.close()
        await host.close()

    run(scenario())
