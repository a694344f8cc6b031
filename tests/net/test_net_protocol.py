"""The wire format on its own: framing, schemas, view hashes and deltas, the manual clock,
the host's composed views, and fuzzed frames against a live host."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import random

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.rules import Settings, WindowMode, view
from game.table.clock import ManualClock
from game.table.simulate import simulate_game
from net import protocol as P
from net.client.session import HostCountdown, legal_for_view, parse_address
from net.host.views import STATIC_SECTIONS, TableViews, compose_view
from tests.net_helpers import Peer, run, seat_peers, start_host

pytestmark = pytest.mark.timeout(120)

# --------------------------------------------------------------------------- framing


def test_decoder_handles_any_split():
    msgs = [{"t": "ping", "n": i} for i in range(5)] + [{"t": "say", "phrase": "deal"}]
    data = b"".join(P.encode(m) for m in msgs)
    for cut in range(1, 12):
        dec = P.FrameDecoder()
        got = []
        for i in range(0, len(data), cut):
            got.extend(dec.feed(data[i : i + cut]))
        assert got == msgs and dec.buffered == 0


def test_frame_limit_is_exact():
    # The largest message that fits, byte for byte.
    head = len(P.encode({"t": "x", "s": ""}))
    size = P.MAX_FRAME - head - 2  # str16 header grows by two bytes past 255
    ok = msgpack.packb({"t": "x", "s": "a" * size})
    assert len(ok) == P.MAX_FRAME
    dec = P.FrameDecoder()
    assert list(dec.feed(ok)) == [{"t": "x", "s": "a" * size}]
    too_big = msgpack.packb({"t": "x", "s": "a" * (size + 1)})
    dec = P.FrameDecoder()
    with pytest.raises(P.ProtocolError) as err:
        list(dec.feed(too_big[: dec.room()]))
    assert err.value.code == "frame_too_large"
    with pytest.raises(ValueError):
        P.encode({"t": "x", "s": "a" * (size + 1)})


def test_room_never_lets_the_buffer_overflow():
    dec = P.FrameDecoder(100)
    half = msgpack.packb(["a" * 20] * 5)[:60]  # 106 bytes; no header so far declares more
    assert list(dec.feed(half)) == [] and dec.room() == 40
    with pytest.raises(P.ProtocolError, match="frame_too_large"):
        list(dec.feed(b"x" * 41))


#: A header of each kind declaring more than any frame holds (what the length field says).
HUGE_HEADERS = {
    "str32": b"\xdb\xff\xff\xff\xff",
    "bin32": b"\xc6\xff\xff\xff\xff",
    "ext32": b"\xc9\xff\xff\xff\xff\x01",
    "map32": b"\xdf\xff\xff\xff\xff",
    "array32": b"\xdd\xff\xff\xff\xff",
    "str16": b"\xda\xff\xff",
    "bin16": b"\xc5\xff\xff",
    "ext16": b"\xc8\xff\xff\x01",
    "map16": b"\xde\xff\xff",
    "array16": b"\xdc\xff\xff",
}


@pytest.mark.parametrize("kind", sorted(HUGE_HEADERS))
@pytest.mark.parametrize("where", ["top", "nested"])
def test_a_header_declaring_too_much_is_refused_at_once(kind, where):
    # Only the header (and a few bytes after it): the decoder must not wait for the rest.
    header = HUGE_HEADERS[kind]
    body = header if where == "top" else b"\x82\xa1t\xa4ping\xa1n\x91" + header
    dec = P.FrameDecoder()
    before = list(dec.feed(P.encode({"t": "ping", "n": 1})))
    assert before == [{"t": "ping", "n": 1}]
    with pytest.raises(P.ProtocolError) as err:
        list(dec.feed(body + P.encode({"t": "ping", "n": 2})))
    assert err.value.code == "frame_too_large"


def test_a_header_split_across_reads_is_still_read():
    dec = P.FrameDecoder()
    assert list(dec.feed(b"\x81\xa1t\xdb\x00")) == []
    with pytest.raises(P.ProtocolError, match="frame_too_large"):
        list(dec.feed(b"\x01\x00\x00"))  # a str32 of 65,536 bytes after 4 bytes


def test_headers_that_add_up_to_too_much_are_refused():
    # Every string fits on its own; the third cannot fit after the first two.
    dec = P.FrameDecoder(100)
    frame = msgpack.packb(["a" * 40, "b" * 40, "c" * 40])
    with pytest.raises(P.ProtocolError, match="frame_too_large"):
        list(dec.feed(frame[:87]))  # up to the third header (str8: 2 bytes), no payload


@settings(max_examples=200, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1)
                    | st.text(max_size=40) | st.binary(max_size=40),
                    lambda kids: st.lists(kids, max_size=6)
                    | st.dictionaries(st.text(max_size=5), kids, max_size=6), max_leaves=30),
       st.integers(1, 9))  # fmt: skip
def test_the_length_guard_is_exact(value, cut):
    # A message of exactly the limit passes the guard walked in any pieces; one byte less
    # of limit and the guard refuses it before its end.
    frame = msgpack.packb(value, use_bin_type=True)
    guard = P.LengthGuard(len(frame))
    for i in range(0, len(frame), cut):
        guard.scan(frame[i : i + cut])
    assert guard.owed == 0 and guard.skip == 0 and not guard.dead
    short = P.LengthGuard(len(frame) - 1)
    with pytest.raises(P.ProtocolError, match="frame_too_large"):
        short.scan(frame)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300))
def test_random_bytes_only_ever_raise_protocol_errors(data):
    dec = P.FrameDecoder(256)
    try:
        for chunk in (data[:7], data[7:]):
            if len(chunk) > dec.room():
                break
            for msg in dec.feed(chunk):
                with contextlib.suppress(P.ProtocolError):
                    P.check_client_message(msg)
    except P.ProtocolError as exc:
        assert exc.code in ("bad_frame", "frame_too_large")


plain = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=150, deadline=None)
@given(plain)
def test_plain_data_round_trips_and_checks(obj):
    frame = P.encode({"t": "x", "v": obj})
    (back,) = P.decode_all(frame)
    assert back == {"t": "x", "v": obj}
    P.check_plain(back)  # only depth could fail, and these are shallow


@pytest.mark.parametrize(
    "msg, code",
    [
        ({"t": "hello", "v": 1, "role": "player"}, None),
        ({"t": "hello", "v": 1, "role": "player", "name": None, "code": None, "token": None}, None),
        ({"t": "action", "version": 3, "action": {"type": "roll", "seat": 0}, "id": 5}, None),
        ({"t": "sync"}, None),
        ({"t": "start"}, None),
        ({"t": "ping"}, None),
        ({"t": "say", "phrase": "deal"}, None),
        ({"t": "bye"}, None),
        ({"t": "bye", "x": 1}, "bad_message"),
        ({"t": "action", "version": 3}, "bad_message"),
        ({"t": "action", "version": "3", "action": {}}, "bad_message"),
        ({"t": "action", "version": True, "action": {}}, "bad_message"),
        ({"t": "action", "version": 1, "action": []}, "bad_message"),
        ({"t": "action", "version": 1, "action": {}, "id": 2**31}, "bad_message"),
        ({"t": "hello", "v": 1, "role": "player", "token": "A" * 32}, "bad_message"),
        ({"t": "Hello"}, "unknown_type"),
        ({"t": ""}, "unknown_type"),
        ({"t": None}, "bad_message"),
        ({"t": "ping", "n": 1.0}, "bad_message"),
        ({"t": "ping", "n": b"1"}, "bad_message"),
        ([], "bad_message"),
        ("ping", "bad_message"),
    ],
)
def test_client_schema(msg, code):
    if code is None:
        assert P.check_client_message(msg) is msg
    else:
        with pytest.raises(P.ProtocolError) as err:
            P.check_client_message(msg)
        assert err.value.code == code
        assert len(err.value.message) < 200


def test_every_error_code_is_documented():
    from pathlib import Path

    doc = (Path(P.__file__).resolve().parents[1] / "docs" / "PROTOCOL.md").read_text("utf-8")
    for code in P.ERRORS:
        assert f"`{code}`" in doc, code
    for t in list(P.CLIENT_MESSAGES) + list(P.HOST_MESSAGES):
        assert f"`{t}`" in doc, t


def test_codes_tokens_and_addresses():
    assert P.normalize_code(" abcd ") == "ABCD"
    for bad in ("ABC", "ABCDE", "AB1D", "ÄBCD", None, 1234):
        assert P.normalize_code(bad) is None
    # what the host reads in hello.code: exactly 4 letters, either case, nothing around
    assert P.code_from_wire("abCD") == "ABCD"
    for bad in (" ABCD", "ABCD ", "AB CD", "ABCD\n", "ABC", "ÄBCD", "ＡＢＣＤ", None, 1234):
        assert P.code_from_wire(bad) is None
    code = P.random_code()
    assert P.normalize_code(code) == code
    tok = P.new_token()
    assert len(tok) == 32 and int(tok, 16) >= 0 and tok != P.new_token()
    assert len(P.token_digest(tok)) == 64
    assert parse_address("10.0.0.5:4000") == ("10.0.0.5", 4000)
    assert parse_address("[fe80::1]:4000") == ("fe80::1", 4000)
    for bad in ("host", "host:0", "host:x", ":4000", "host:70000"):
        with pytest.raises(ValueError):
            parse_address(bad)


# --------------------------------------------------------------------------- views


@pytest.fixture(scope="module")
def views():
    """Views of every seat and the public table across two real-time bot games."""
    out = []
    rng = random.Random(5)

    def keep(game, action, events):
        if rng.random() < 0.02:
            s = game.state
            out.append((s.clone(), [view(s, seat) for seat in [None, *range(s.players)]]))

    for players, seed in ((3, 1), (6, 2)):
        settings = Settings(players=players, window_mode=WindowMode.REAL_TIME)
        simulate_game(players, seed, ["random"] * players, settings, on_step=keep)
    return out


def test_hash_and_delta(views):
    for _, vs in views:
        for v in vs:
            h = P.view_hash(v)
            assert len(h) == 16 and h == P.view_hash(json.loads(json.dumps(v)))
            # Round trip through msgpack keeps the hash (what a client receives).
            assert P.view_hash(P.decode_all(P.encode({"t": "x", "v": v}))[0]["v"]) == h
            changed = dict(v, board={"spaces": []})
            assert P.view_hash(changed) == h  # the static board is left out
            assert P.view_hash(dict(v, version=v["version"] + 1)) != h
    pairs = [
        (a, b)
        for (_, va), (_, vb) in zip(views, views[1:], strict=False)
        for a, b in zip(va, vb, strict=False)
    ]
    hasher_cases = 0
    for old, new in pairs:
        if old["seat"] != new["seat"] or len(old["players"]) != len(new["players"]):
            continue
        delta = P.view_delta(old, new)
        assert "board" not in delta
        assert P.apply_delta(old, delta) == new
        hasher = P.ViewHasher()
        assert hasher(old) == P.view_hash(old)
        assert hasher(new, delta) == P.view_hash(new)
        hasher_cases += 1
    assert hasher_cases > 20


def test_composed_views_equal_the_engine_views(views):
    """The host builds the public sections once per action; the result must be exactly
    ``view(state, seat)`` (a seat-dependent section would make this fail)."""
    for state, vs in views:
        tables = TableViews()
        public = tables.public(state).sections
        for seat, v in zip([None, *range(state.players)], vs, strict=True):
            assert compose_view(public, state, seat) == v
            assert tables.view_of(state, seat).view == view(state, seat)


@pytest.mark.parametrize(
    ("hidden_money", "players", "seed"),
    [(True, 4, 11), (False, 4, 11), (True, 6, 12), (False, 3, 13)],
)
def test_views_kept_in_step_equal_the_engine_views(hidden_money, players, seed):
    """One action at a time, every audience's view, delta and hash are the engine's: the
    view is ``view(state, seat)``, the delta exactly the keys whose values changed, the
    hash ``view_hash`` of the view; the static sections never change within a game. (The
    sections the host builds again only when their state changed, ``views._SECTION_INPUTS``,
    are held to the engine's here too.)"""
    tables = TableViews()
    seen: dict = {}
    steps = [0]

    def step(game, action, events):
        state = game.state
        audiences = [None, *range(state.players)]
        if not seen:
            for aud in audiences:
                seen[aud] = tables.view_of(state, aud).view
            static = {k: seen[None][k] for k in STATIC_SECTIONS}
            seen["static"] = static
            return
        memo: dict = {}
        for aud in audiences:
            cached, delta = tables.advance(state, aud, memo)
            expected = view(state, aud)
            assert cached.view == expected
            assert delta == P.view_delta(seen[aud], expected)
            assert cached.hash == P.view_hash(expected)
            assert all(expected[k] == v for k, v in seen["static"].items())
            seen[aud] = expected
        steps[0] += 1

    settings = Settings(players=players, hidden_money=hidden_money)
    simulate_game(players, seed, ["random"] * players, settings, on_step=step)
    assert steps[0] > 100


def _changes(state, rng):
    """One change to one thing the keyed sections read (the state's own kinds of change)."""
    from game.rules.cards import CARD_KINDS
    from game.rules.state import Phase

    seat = rng.randrange(state.players)
    return [
        lambda s: s.money.__setitem__(seat, s.money[seat] + rng.choice([1, 5])),
        lambda s: s.placards.__setitem__(rng.randrange(6), seat),
        lambda s: s.hands[seat].__setitem__(rng.randrange(len(s.hands[seat])), 3),
        lambda s: s.names.__setitem__(seat, "Zed"),
        lambda s: s.ask_only_when_touched.__setitem__(seat, True),
        lambda s: setattr(s, "phase", Phase.GAME_OVER),
        lambda s: s.discard.append(s.deck[-1] if s.deck else 0),
        lambda s: s.discard and s.discard.pop(),
        lambda s: s.discard and s.discard.__setitem__(0, (s.discard[0] + 1) % CARD_KINDS),
        lambda s: s.covered.__setitem__(rng.randrange(16), rng.randrange(1, 16)),
    ]


def test_keyed_sections_change_only_with_their_inputs(views):
    """A public section the host rebuilds only when its inputs changed
    (``views._SECTION_INPUTS``): whatever change makes the section differ must change its
    inputs too, or every seat would keep a stale section."""
    from game.rules.view import SECTIONS
    from net.host.views import _SECTION_INPUTS

    rng = random.Random(3)
    checked = 0
    for state, _ in views:
        for change in _changes(state, rng):
            after = state.clone()
            change(after)
            for key, inputs in _SECTION_INPUTS.items():
                if SECTIONS[key](after, None) != SECTIONS[key](state, None):
                    assert inputs(after) != inputs(state), key
                    checked += 1
    assert checked > 50


def test_client_legal_actions_match_the_host(views):
    from game.rules import legal_actions

    for state, vs in views:
        for seat, v in enumerate(vs[1:]):
            assert legal_for_view(v).to_data() == legal_actions(state, seat).to_data()
        assert not legal_for_view(vs[0])  # spectators have none


def test_update_is_much_smaller_than_the_full_view(views):
    ratios = []
    for (_, va), (_, vb) in zip(views, views[1:], strict=False):
        for old, new in zip(va, vb, strict=False):
            if old["seat"] != new["seat"] or len(old["players"]) != len(new["players"]):
                continue
            msg = {
                "t": "update",
                "version": new["version"],
                "base": new["version"] - 1,
                "hash": P.view_hash(new),
                "events": [],
                "delta": P.view_delta(old, new),
            }
            ratios.append(len(P.encode(msg)) / len(json.dumps(new)))
    assert ratios and max(ratios) < 1.0


# --------------------------------------------------------------------------- clock


def test_manual_clock_fires_in_order_and_cancels():
    clock = ManualClock(start=0.0)
    fired = []
    clock.call_at(2.0, lambda: fired.append(("b", clock.now())))
    t = clock.call_at(1.0, lambda: fired.append(("x", clock.now())))
    clock.call_later(1.0, lambda: clock.call_later(0.5, lambda: fired.append(("c", clock.now()))))
    clock.call_at(0.5, lambda: 1 / 0)  # an error in a timer is logged, not raised
    t.cancel()
    t.cancel()
    assert clock.pending() == [0.5, 1.0, 2.0]
    assert clock.advance(1.9) == 3
    assert fired == [("c", 1.5)]
    clock.advance(0.1)
    assert fired == [("c", 1.5), ("b", 2.0)] and clock.now() == 2.0


def test_countdown_remaining():
    cd = HostCountdown(deadline=10.0, total=5.0, kind="travel")
    assert cd.remaining(now=7.5) == 2.5 and cd.remaining(now=11) == 0.0


# --------------------------------------------------------------------------- fuzz


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_fuzzed_messages_never_crash_or_change_the_host():
    """Random well-formed frames (and some raw garbage) from a seated player: every one
    gets an answer or is ignored, the host stays up and the game does not move."""
    rng = random.Random(99)
    kinds = list(P.CLIENT_MESSAGES) + ["action"] * 6 + ["zap"]
    actions = ["roll", "draw", "offer", "pass", "play_stop", "lay_clan", "accept", "propose"]

    def junk(depth=0):
        r = rng.random()
        if depth > 2 or r < 0.3:
            return rng.choice([None, True, 0, -1, 7, 2**40, "", "red", "x" * 30, 0.5])
        if r < 0.6:
            return [junk(depth + 1) for _ in range(rng.randrange(3))]
        return {rng.choice(["seat", "type", "sources", "amount", "card", "x"]): junk(depth + 1)}

    def message():
        t = rng.choice(kinds)
        msg = {"t": t}
        for field in rng.sample(["version", "action", "id", "n", "phrase", "v", "role", "x"], 3):
            msg[field] = junk()
        if t == "action" and rng.random() < 0.7:
            act = {"type": rng.choice(actions), "seat": rng.choice([0, 1, 2, -1, 9])}
            for field in ("sources", "amount", "card", "clan", "of", "to"):
                if rng.random() < 0.3:
                    act[field] = junk()
            msg["action"] = act
            msg["version"] = rng.choice([0, 1, 2**53, -1])
        return msg

    async def scenario():
        host, clock = await start_host(seats=3)
        a, b, c = await seat_peers(host, 3)
        token = a.token
        await a.quiet()
        before = (host.state.actions_taken, host.state.hash())
        for i in range(400):
            if i % 50 == 49:
                a.send_raw(bytes(rng.randrange(256) for _ in range(rng.randrange(1, 20))))
                try:
                    await a.quiet()
                except AssertionError:  # a bad frame closed it: come back with the token
                    a = await Peer.connect(host.port)
                    a.send({"t": "hello", "v": 2, "role": "player", "token": token})
                    await a.expect("snapshot")
                continue
            try:
                a.send(message())
            except (TypeError, ValueError):
                continue
            if i % 10 == 0:
                await a.quiet()
        await a.quiet()
        assert (host.state.actions_taken, host.state.hash()) == before
        assert host.stats["errors.bad_message"] + host.stats["errors.bad_action"] > 50
        await host.close()

    run(scenario(), timeout=110)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(plain, min_size=1, max_size=5))
def test_hypothesis_frames_against_a_host(objs):
    async def scenario():
        host, clock = await start_host(seats=2)
        p = await Peer.connect(host.port)
        for obj in objs:
            p.send(obj if not isinstance(obj, dict) else {"t": "ping", **obj})
        got = await p.quiet()
        assert all(m["t"] in ("error", "pong") for m in got)
        assert host.conns and not host.started
        await host.close()

    asyncio.run(asyncio.wait_for(scenario(), 20))


def test_the_documented_hash_test_vector():
    v = {
        "version": 2,
        "seat": 1,
        "board": {"spaces": []},
        "players": [{"name": "Mei 茶", "money": 5}],
        "window": None,
    }
    body = {k: v[k] for k in sorted(v) if k != "board"}
    assert msgpack.packb(body).hex(" ") == (
        "84 a7 70 6c 61 79 65 72 73 91 82 a4 6e 61 6d 65 a7 4d 65 69 20 e8 8c b6 a5 6d 6f 6e "
        "65 79 05 a4 73 65 61 74 01 a7 76 65 72 73 69 6f 6e 02 a6 77 69 6e 64 6f 77 c0"
    )
    assert P.view_hash(v) == "4a4630eb069c4a97"
    assert P.ViewHasher()(v) == "4a4630eb069c4a97"


def test_a_map_encoded_from_packed_parts_is_the_same_bytes():
    """``encode_map`` (the host's update frames, built from values packed once) writes
    exactly what ``encode`` writes, whatever the number of fields."""
    for n in (0, 1, 14, 15, 16, 40):
        fields = {f"k{i}": [i, {"x": "é" * i}] for i in range(n)}
        packed = [(k, P.pack(v)) for k, v in fields.items()]
        assert P.encode_map("update", packed) == P.encode({"t": "update", **fields})
    with pytest.raises(ValueError):
        P.encode_map("update", [("big", P.pack("x" * P.MAX_FRAME))])


def test_the_hash_is_over_the_views_msgpack_with_sorted_top_level_keys(views):
    """What PROTOCOL.md §6 says: the SHA-256 of the view as one msgpack map, ``board`` left
    out, its top-level keys sorted, every value packed as the wire packs it; and a value a
    client unpacked packs back to the host's very bytes (so its hash is the host's)."""
    for _, vs in views:
        for v in vs:
            body = {k: v[k] for k in sorted(v) if k != "board"}
            digest = hashlib.sha256(msgpack.packb(body)).hexdigest()[:16]
            assert P.view_hash(v) == P.ViewHasher()(v) == digest
            for k, value in v.items():
                received = P.decode_all(P.encode({"t": "x", "v": value}))[0]["v"]
                assert P.fragment(k, received) == P.fragment(k, value)


def _one_change(value, rng):
    """``value`` with one thing changed somewhere inside it: a number, a bool (or turned
    into the number it equals in Python: ``True == 1``), a string, a nil, an entry dropped,
    two entries swapped, or a map's keys in another order."""
    if isinstance(value, dict) and value:
        key = rng.choice(list(value))
        roll = rng.random()
        if roll < 0.15:
            return {k: v for k, v in value.items() if k != key}
        if roll < 0.25 and len(value) > 1:
            return dict(reversed(list(value.items())))
        return {**value, key: _one_change(value[key], rng)}
    if isinstance(value, list | tuple) and value:
        out = list(value)
        i = rng.randrange(len(out))
        others = [j for j in range(len(out)) if repr(out[j]) != repr(out[i])]
        roll = rng.random()
        if roll < 0.15:
            del out[i]
        elif roll < 0.25 and others:
            j = others[0]
            out[i], out[j] = out[j], out[i]
        else:
            out[i] = _one_change(out[i], rng)
        return out
    if isinstance(value, bool):
        return int(value) if rng.random() < 0.5 else not value
    if isinstance(value, int):
        return value + rng.choice((-1, 1))
    if isinstance(value, str):
        return value + "x"
    if value is None:
        return 0
    return [value]  # an empty map or list: another shape


def _followed(old: dict, delta: dict, new_hash: str):
    """A client follower holding ``old``, given the update ``delta`` hashed ``new_hash``:
    (what ``update`` returned, its stats, how often it asked for a snapshot)."""
    from collections import Counter

    from net.client.follow import ViewFollower

    stats: Counter = Counter()
    asked: list = []
    follower = ViewFollower(stats, lambda: asked.append(1))
    v = old["version"]
    follower.snapshot(
        {"version": v, "hash": P.view_hash(old), "view": old, "events": [], "timers": None}
    )
    update = {"version": v + 1, "base": v, "hash": new_hash, "events": [], "delta": delta}
    return follower.update({**update, "timers": None}), stats, len(asked)


def test_any_divergence_from_the_hosts_view_changes_the_hash(views):
    """A client whose view differs from the host's anywhere - one number, ``True`` where
    the host has ``1``, one entry, the order of a list or of a map's keys, a change the
    delta lost - computes another hash than the host's: its follower counts a desync and
    asks for a snapshot. The same update undamaged passes."""
    rng = random.Random(26)
    damaged = 0
    for (_, va), (_, vb) in zip(views, views[1:], strict=False):
        for old, new in zip(va, vb, strict=False):
            if old["seat"] != new["seat"] or len(old["players"]) != len(new["players"]):
                continue
            old = dict(old, version=new["version"] - 1)
            delta = P.view_delta(old, new)
            host_hash = P.view_hash(new)
            update, stats, asked = _followed(old, delta, host_hash)
            assert update is not None and update.view == new and asked == 0
            for _ in range(3):
                if rng.random() < 0.3 and len(delta) > 1:  # a change lost on the way
                    lost = rng.choice(list(delta))
                    wrong = {k: v for k, v in delta.items() if k != lost}
                else:  # a value that is not the host's
                    key = rng.choice([k for k in new if k != "board"])
                    wrong = {**delta, key: _one_change(new[key], rng)}
                update, stats, asked = _followed(old, wrong, host_hash)
                assert update is None and stats["desync_hash"] == 1 and asked == 1
                damaged += 1
    assert damaged > 60
