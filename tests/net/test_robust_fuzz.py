"""Fuzzing a live host (loopback): frames from hypothesis strategies and from the generator of
``bench/fuzz_host.py`` (random bytes, frames cut short, wrong shapes, huge declared lengths,
deep nesting, wrong types in every field, unknown types, actions for other seats, stale and
illegal actions, bad hellos, floods, slow-loris connections, connection storms).

After every frame: the host answers (or closes the connection with a fatal error), nothing
changed in the game unless the frame was a legal action of the sender's seat at the current
version, no handler failed, connections and their buffers stay within the limits. After a
whole session: a legal game on the same host finishes and every seat's view is the host's.
The long run is ``python -m bench.fuzz_host --frames 100000 --connections 8``.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.fuzz_host import CODE as FUZZ_CODE
from bench.fuzz_host import Session
from game.rules import action_from_data, legal_actions, view
from game.rules.actions import ActionFormatError
from game.table.bot_schedule import Timing
from net import protocol as P
from net.host.connections import Limits
from net.host.server import Host
from tests.net_helpers import Peer, config_for_tests, run, seat_peers, start_host

pytestmark = [pytest.mark.slow, pytest.mark.timeout(120)]

QUIET = Timing(  # nothing happens by itself: every change comes from a frame
    window=3600.0, going_once=1800.0, negotiation=0.0, grace=3600.0,
    bot_answer=0.0, bot_delay=0.0, bot_tick=0.005,
)  # fmt: skip


def bounded(host: Host) -> None:
    """What the host holds per connection stays within its limits."""
    lim = host.limits
    assert len(host.conns) <= lim.max_connections
    assert sum(c.role == "spectator" for c in host.conns) <= lim.max_spectators
    for c in host.conns:
        transport = c.writer.transport
        if transport is not None and not transport.is_closing():
            assert transport.get_write_buffer_size() <= lim.max_write_buffer + P.MAX_FRAME
    assert host.connections.code_addresses <= 4096
    assert host.stats["internal_errors"] == 0


# --------------------------------------------------------------------------- strategies

scalars = (
    st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.text(max_size=12)
    | st.sampled_from(["hello", "action", "ping", "player", "spectator", "roll", "offer",
                       "pass", "placard", "card", "red", "stop", "ABCD", "0" * 32])
)  # fmt: skip
plain = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.sampled_from(["t", "v", "type", "seat", "x", "id", "n"]) | st.text(max_size=4), inner, max_size=4),
    max_leaves=12,
)  # fmt: skip

FIELDS = {t: list(schema) for t, schema in P.CLIENT_MESSAGES.items()}


@st.composite
def message(draw):
    """A client message of a real type with some fields missing, extra or ill-typed."""
    t = draw(st.sampled_from(sorted(FIELDS)))
    msg = {"t": t}
    for name in FIELDS[t] + ["x"]:
        if draw(st.booleans()):
            msg[name] = draw(plain)
    return msg


@st.composite
def action_message(draw, seats: int):
    """An action message whose action map is nearly right: any type, any seat, fields that
    may be wrong; version near the real one."""
    from game.rules import ACTION_TYPES

    cls = draw(st.sampled_from(sorted(ACTION_TYPES.values(), key=lambda c: c.type)))
    act = {"type": cls.type, "seat": draw(st.integers(-2, seats + 1))}
    for name in (f.name for f in dataclasses.fields(cls)):
        if name in ("seat", "type") or draw(st.integers(0, 9)) == 0:
            continue
        act[name] = draw(
            st.integers(-1, 20)
            | st.sampled_from(["red", "blue", "stop", "boss", "travel_red", "recruit", "clan_red"])
            | st.lists(st.tuples(st.sampled_from(["placard", "card"]), st.integers(-1, 8)).map(list), max_size=3)
            | st.tuples(st.sampled_from(["placard", "card"]), st.integers(0, 8)).map(list)
            | st.booleans()
            | plain
        )  # fmt: skip
    return {"t": "action", "version": draw(st.integers(-1, 40) | st.just(2**53)), "action": act,
            "id": draw(st.integers(0, 2**31 - 1))}  # fmt: skip


def frames(seats: int):
    packed = (plain | message() | action_message(seats)).map(
        lambda m: msgpack.packb(m, use_bin_type=True)
    )
    return st.lists(st.binary(min_size=1, max_size=24) | packed, min_size=1, max_size=8)


async def settle(p: Peer) -> list[dict]:
    """What the host answered, up to a pong. A half-read frame may swallow the ping: then
    the frame is finished off (or overflowed: a frame is at most 64 KiB) and pinged again.
    Raises AssertionError when the host closed the connection."""
    for n, filler in ((4242, b""), (4243, b"\xc0" * (P.MAX_FRAME + 16))):
        p.send_raw(filler + P.encode({"t": "ping", "n": n}))
        got = []
        try:
            while True:
                msg = await p.recv(timeout=1.0)
                if msg.get("t") == "pong" and msg.get("n") == n:
                    return got
                got.append(msg)
        except AssertionError as exc:
            if "closed" in str(exc):
                raise
    raise AssertionError("no answer")


def decodes_to(data: bytes, t: str) -> bool:
    try:
        (msg,) = P.decode_all(data)
        return P.check_client_message(msg)["t"] == t
    except (P.ProtocolError, ValueError):
        return False


def legal_now(host: Host, conn_seat: int, data: bytes) -> bool | None:
    """Would the host apply this frame (a legal action of the sender at the current version)?"""
    try:
        (msg,) = P.decode_all(data)
        P.check_client_message(msg)
        if msg["t"] != "action":
            return False
        action = action_from_data(msg["action"])
    except (P.ProtocolError, ActionFormatError, ValueError):
        return False
    st_ = host.state
    legal = (
        action.seat == conn_seat
        and msg["version"] == st_.actions_taken
        and action in legal_actions(st_, conn_seat)
    )
    return None if legal and action.meta else legal  # a preference may be rate-limited


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(frames(3))
def test_hypothesis_frames_never_change_the_game_illegally(batch):
    async def scenario():
        host, clock = await start_host(seats=3, timing=QUIET, limits=Limits(partial_timeout=0.3))
        peers = await seat_peers(host, 3)
        for p in peers:
            await p.expect("snapshot")
        p = peers[host.state.turn]
        seat, token = p.seat, p.token
        for data in batch:
            before = (host.state.actions_taken, host.state.hash())
            moves = legal_now(host, p.seat, data)
            leaves = decodes_to(data, "bye")  # on purpose: a bot may play until we are back
            p.send_raw(data)
            try:
                got = await settle(p)
            except AssertionError:  # closed with a fatal error
                got = p.log[-3:]
                assert host.seats[p.seat].conn is None or host.seats[p.seat].conn.closed
                errors = [m["code"] for m in got if m.get("t") == "error"]
                # a fatal error, or the flood cut-off (rate_limited closes after 300 drops)
                last = errors[-1] if errors else None
                assert leaves or last == "rate_limited" or (last and P.ERRORS[last][0]), got
                p = await Peer.connect(host.port)
                p.send({"t": "hello", "v": 2, "role": "player", "token": token})
                await p.expect("snapshot")
                p.seat, p.token = seat, token
            after = (host.state.actions_taken, host.state.hash())
            if leaves or moves is None:
                continue
            if moves:
                assert after[0] == before[0] + 1
            else:
                assert after == before, data
            assert all(m.get("code") != "internal_error" for m in got if m.get("t") == "error")
            bounded(host)
        await host.close()

    run(scenario(), timeout=30)


# --------------------------------------------------------------------------- sessions


def _session_host(**kw) -> Host:
    limits = kw.pop("limits", None) or Limits(
        rate=400.0, burst=400.0, max_dropped=60, partial_timeout=0.4, handshake_timeout=1.5
    )
    cfg = config_for_tests(code=FUZZ_CODE, timing=QUIET, limits=limits, **kw)
    return Host(cfg)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**31 - 1))
def test_generated_frames_from_every_kind_of_connection(seed):
    """Seated players, a spectator and connections that never said hello, one frame at a
    time: every frame is answered as it deserves; the game moves only by the legal moves."""

    async def scenario():
        host = _session_host(seats=3)
        await host.start()
        expected = [host.state.actions_taken if host.started else 0]

        def probe(case):
            if not host.started:
                return
            if case is None:  # a legal move (or just listening): the new baseline
                expected[0] = host.state.actions_taken
            else:
                assert host.state.actions_taken == expected[0], case
            bounded(host)

        session = Session(
            host.port, seats=3, frames=70, connections=5, seed=seed, pace=0.0,
            events=False, serial=asyncio.Lock(), probe=probe, finish=False, stall=0.15,
        )  # fmt: skip
        out = await session.run()
        assert session.problems == [], session.problems[:5]
        assert out["single_frames_checked"] >= 70
        await host.close()

    run(scenario(), timeout=60)


def test_fuzz_session_with_floods_lorises_and_storms_then_a_legal_game_finishes():
    async def scenario():
        limits = Limits(rate=300.0, burst=300.0, max_dropped=60, partial_timeout=0.4,
                        handshake_timeout=1.5)  # fmt: skip
        host = _session_host(seats=4, limits=limits, short_game=True)
        await host.start()
        expected = [0]

        def probe(case):
            if case is None:
                expected[0] = host.state.actions_taken
            else:
                assert host.state.actions_taken == expected[0], case
            bounded(host)

        session = Session(
            host.port, seats=4, frames=500, connections=8, seed=7, pace=0.007,
            events=True, event_gap=(0.3, 0.8), serial=asyncio.Lock(), probe=probe, stall=0.15,
        )  # fmt: skip
        out = await session.run()
        assert session.problems == [], session.problems[:5]
        assert out["game_finished"] and host.over
        st_ = host.state
        assert out["legal_moves_applied"] == len(host.game.log)
        for c in session.seated:  # each seat's view, kept from deltas, is the host's
            assert c.ctx.view == view(st_, c.ctx.seat)
        ev = session.stats
        assert ev["events.flood"] and ev["events.loris"] and ev["events.storm"]
        assert host.stats["errors.rate_limited"] >= 1  # floods were cut off
        assert host.stats["errors.timeout"] >= 1  # slow-loris connections were closed
        assert host.stats["evicted"] >= 1  # storms hit the connection limit
        assert st_.phase.value == "game_over"
        bounded(host)
        with contextlib.suppress(Exception):
            await host.close()

    run(scenario(), timeout=110)


def test_every_field_of_every_message_with_every_wrong_value():
    """Systematic: each field of each client message (and of an action) given each value
    of the wrong kind is refused with the right error and changes nothing."""
    from bench.fuzz_host import WRONG_VALUES

    async def scenario():
        host, clock = await start_host(seats=3, timing=QUIET)
        a, b, c = await seat_peers(host, 3)
        await a.expect("snapshot")
        before = (host.state.actions_taken, host.state.hash())
        good = {
            "hello": {"t": "hello", "v": 2, "role": "player", "name": "Z", "code": "ZZZZ"},
            "action": {"t": "action", "version": 0, "action": {"type": "roll", "seat": 0}, "id": 1},
            "sync": {"t": "sync"}, "start": {"t": "start"}, "ping": {"t": "ping", "n": 1},
            "pong": {"t": "pong", "n": 1},
            "say": {"t": "say", "phrase": "deal"}, "bye": {"t": "bye"},
        }  # fmt: skip
        sent = 0
        for t, schema in P.CLIENT_MESSAGES.items():
            for name in [*schema, "x"]:
                for value in WRONG_VALUES:
                    msg = {**good[t], name: value}
                    try:
                        P.check_client_message(msg)
                    except P.ProtocolError as exc:
                        a.send(msg)
                        err = await a.expect("error")
                        assert err["code"] == exc.code, (msg, err)
                        sent += 1
        act_fields = ["type", "seat", "space", "card", "clan", "sources", "amount", "x"]
        for name in act_fields:
            for value in WRONG_VALUES:
                msg = {**good["action"], "action": {"type": "offer", "seat": 0, "sources": [],
                                                    "amount": 1, name: value}}  # fmt: skip
                a.send(msg)
                err = await a.expect("error")
                assert err["code"] in ("bad_action", "bad_message", "illegal", "wrong_seat"), err
                sent += 1
        assert sent > 150
        assert (host.state.actions_taken, host.state.hash()) == before
        assert view(host.state, 0) == (await _snapshot(a))["view"]
        await host.close()

    async def _snapshot(p):
        p.send({"t": "sync"})
        return await p.expect("snapshot")

    run(scenario())
