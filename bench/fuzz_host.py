"""Frame fuzzer against a live LAN host: nothing a client sends may crash it, change the game
illegally or get past its limits.

    .venv/bin/python -m bench.fuzz_host --frames 100000 --connections 8 [--seats 4] [--seed 1]

The host runs in its own process (``--serve``, the real ``net.host.server.Host`` with the default
limits; its clocks are set so that nothing happens by itself: no bots, reaction windows of an
hour, no negotiation clock). The fuzzer holds every seat and a few more connections
(spectators, connections that never said hello) and sends, at a pace under the host's rate
limit, frames of every kind in ``make_case``: random bytes, frames cut short and glued to the
next, valid msgpack of the wrong shape, huge declared lengths, deep nesting, wrong types in
every field, unknown types, actions for other seats, stale versions, illegal actions, bad
hellos, and harmless valid messages. Every frame is followed by a ``ping``; the answers in
between must contain the error the frame deserves (or the connection is closed with a fatal
one). Meanwhile: floods (a burst of 400 messages), slow-loris connections that never finish a
frame, and storms of 40 connections at once. The seated connections also make legal moves
now and then (a random bot on their own view), so the game moves through negotiations,
reaction windows and discards while it is fuzzed; when the frame budget is spent they play
the game to its end.

Checked: the host process stays alive; it answers every connection that deserves an answer;
no update ever acknowledges a fuzzed action (only the legal moves were applied: the host's
journal holds exactly those, in order, and replays through the rules); every seat's view
stays equal to the host's (hash checked on every update); the game finishes; the host's
memory (VmRSS, VmHWM) stays bounded. Prints one JSON line of figures; exit 1 on any
violation.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import copy
import dataclasses
import json
import os
import random
import signal
import string
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import msgpack

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from game.bots import make_bot  # noqa: E402
from game.rules import ACTION_TYPES, Card, Clan, action_from_data  # noqa: E402
from game.rules.actions import ActionFormatError  # noqa: E402
from net import protocol as P  # noqa: E402
from net.client.session import legal_for_view  # noqa: E402

CODE = "FUZZ"
LEGIT_IDS = 1 << 30  # ids of the legal moves; fuzzed actions use ids below this
FATAL = frozenset(code for code, (fatal, _) in P.ERRORS.items() if fatal)


# --------------------------------------------------------------------------- cases


@dataclass
class Ctx:
    """What a fuzzing connection knows about itself and the game."""

    role: str | None = None  # None until a hello succeeded
    seat: int | None = None
    seats: int = 4
    view: dict | None = None
    version: int = 0
    token: str | None = None
    ids: int = 0

    def next_id(self) -> int:
        self.ids = (self.ids + 1) % LEGIT_IDS
        return self.ids


@dataclass
class Case:
    kind: str
    data: bytes
    #: error codes that may answer it (None: anything, even nothing)
    errors: frozenset | None
    must_answer: bool = True  # an error (or a fatal close) is required
    ids: tuple = ()  # action ids it carries (never to be acknowledged)


WRONG_VALUES = [
    None, True, False, 0, -1, 1, 7, 2**31, 2**53 + 1, -(2**63), 2**64 - 1, "", "x",
    "ping", "A" * 200, "ü" * 30, [], [1], [None, "a"], {}, {"t": "ping"}, {"a": [1, {"b": 2}]},
    [[[]]], "0" * 32, "f" * 32, "ABCD", "player",
]  # fmt: skip

WORDS = ["t", "v", "role", "name", "code", "token", "action", "version", "id", "n", "phrase",
         "type", "seat", "x", "legal", "", "é", "\x00"]  # fmt: skip


def _wrong(rng: random.Random):
    """A wrong value (a fresh copy: the fuzzer mutates what it builds)."""
    return copy.deepcopy(rng.choice(WRONG_VALUES))


def _pack(obj) -> bytes:
    return msgpack.packb(obj, use_bin_type=True)


def _junk(rng: random.Random, depth: int = 0):
    r = rng.random()
    if depth > 3 or r < 0.45:
        return _wrong(rng)
    if r < 0.7:
        return [_junk(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {rng.choice(WORDS): _junk(rng, depth + 1) for _ in range(rng.randrange(4))}


def _schema_code(msg) -> str | None:
    """What the host's schema says about ``msg`` (None: it passes)."""
    try:
        P.check_client_message(msg)
    except P.ProtocolError as exc:
        return exc.code
    return None


def _random_action(rng: random.Random, ctx: Ctx) -> dict:
    """A well-typed action map of any type for any seat (mostly illegal)."""
    cls = rng.choice(list(ACTION_TYPES.values()))
    out: dict = {"type": cls.type, "seat": rng.choice([ctx.seat or 0, rng.randrange(-1, 6)])}
    for name in (f.name for f in dataclasses.fields(cls)):
        if name in ("seat", "type"):
            continue
        if name == "space":
            out[name] = rng.randrange(16)
        elif name in ("to", "of", "player"):
            out[name] = rng.randrange(6)
        elif name == "amount":
            out[name] = rng.choice([0, 1, 3, 9, 40, 10_000])
        elif name == "card":
            out[name] = rng.choice(list(Card)).key
        elif name == "clan":
            out[name] = rng.choice(list(Clan)).key
        elif name == "target":
            out[name] = [rng.choice(["placard", "card"]), rng.randrange(8)]
        elif name == "sources":
            out[name] = [[rng.choice(["placard", "card"]), rng.randrange(8)]
                         for _ in range(rng.randrange(3))]  # fmt: skip
        elif name == "only_when_touched":
            out[name] = rng.random() < 0.5
    return out


def _legal(ctx: Ctx):
    if ctx.view is None or ctx.seat is None:
        return None
    try:
        return legal_for_view(ctx.view)
    except Exception:  # a view the fuzzer could not rebuild: no legality filter
        return None


def _action_case(rng: random.Random, ctx: Ctx, kind: str) -> Case:
    """An action message: for another seat, stale, illegal, or with a broken action map."""
    rid = ctx.next_id()
    version = ctx.version
    legal = _legal(ctx)
    # While a window is open the host takes an answer made on any version since it opened
    # (docs/PROTOCOL.md): a version behind ours could be a real move, so only one far ahead.
    window_open = ctx.view is not None and ctx.view.get("window") is not None
    if kind == "stale" and legal is not None and legal.fixed:
        act = rng.choice(legal.fixed).to_data()
        # Strictly below the version we hold (never the host's: ours can only lag behind),
        # or absurdly far ahead.
        version = rng.choice([ctx.version - rng.randrange(1, 5), 2**53])
        if version < 0 or window_open:
            version = 2**53
    elif kind == "other_seat" and ctx.seat is not None:
        act = _random_action(rng, ctx)
        act["seat"] = rng.choice([s for s in range(-1, 6) if s != ctx.seat])
    elif kind == "broken_action":
        act = _random_action(rng, ctx)
        field_ = rng.choice([*act, "extra"])
        if rng.random() < 0.3:
            act.pop(field_, None)
        else:
            act[field_] = _wrong(rng)
    else:
        act = _random_action(rng, ctx)
    if window_open:
        version = 2**53
    msg = {"t": "action", "version": version, "action": act, "id": rid}
    code = _schema_code(msg)
    if code is not None:
        return Case(kind, _pack(msg), frozenset({code}), ids=(rid,))
    if ctx.role is None:
        return Case(kind, _pack(msg), frozenset({"not_joined"}), ids=(rid,))
    try:
        action = action_from_data(act)
    except ActionFormatError:
        return Case(kind, _pack(msg), frozenset({"bad_action"}), ids=(rid,))
    if ctx.role != "player":
        return Case(kind, _pack(msg), frozenset({"not_seated"}), ids=(rid,))
    if action.seat != ctx.seat:
        return Case(kind, _pack(msg), frozenset({"wrong_seat"}), ids=(rid,))
    if legal is not None and action in legal and version == ctx.version:
        # Never a legal move at the current version: that would be a real move.
        msg["version"] = 2**53
        return Case("stale", _pack(msg), frozenset({"stale", "illegal", "game_over"}), ids=(rid,))
    # The host may know better (our view can lag): any of these refusals is fine.
    return Case(
        kind, _pack(msg), frozenset({"illegal", "stale", "game_over", "not_started"}), ids=(rid,)
    )


def _wrong_type_case(rng: random.Random, ctx: Ctx) -> Case:
    """A valid message of some type with one field given a wrong value, or one too many."""
    t = rng.choice(list(P.CLIENT_MESSAGES))
    base = {
        "hello": {"t": "hello", "v": 2, "role": "player", "name": "Z", "code": "ZZZZ"},
        "action": {
            "t": "action",
            "version": 2**53,  # stale whatever field is spoilt: never a real move
            "action": {"type": "roll", "seat": 0},
            "id": ctx.next_id(),
        },  # fmt: skip
        "ping": {"t": "ping", "n": 1},
        "say": {"t": "say", "phrase": "deal"},
    }.get(t, {"t": t})
    msg = dict(base)
    fields = list(P.CLIENT_MESSAGES[t]) or ["x"]
    name = rng.choice([*fields, "extra", "t"] if rng.random() < 0.2 else fields)
    msg[name] = _wrong(rng)
    code = _schema_code(msg)
    if code is not None:
        return Case("wrong_type", _pack(msg), frozenset({code}))
    return Case("wrong_type", _pack(msg), None, must_answer=False)  # a valid message after all


def _hello_case(rng: random.Random, ctx: Ctx) -> Case:
    r = rng.random()
    msg: dict = {"t": "hello", "v": 2, "role": "player"}
    if r < 0.25:
        msg["v"] = rng.choice([v for v in (1, 2, 3, 999, 65535) if v not in P.SUPPORTED_VERSIONS])
        want = {"version"}
    elif r < 0.5:
        msg["name"] = "".join(rng.choice(string.ascii_letters) for _ in range(5))
        msg["code"] = rng.choice(["ZZZZ", "abcd", "", "FUZ", "FUZZY", "ŽŽŽŽ"])
        want = {"bad_code", "too_many_attempts"}
    elif r < 0.7:
        msg["token"] = f"{rng.getrandbits(128):032x}"
        want = {"bad_token"}
    elif r < 0.85:
        msg["name"] = rng.choice(["", " ", "\u202e\u202e", "\x00\x01", "x" * 90, "\u200b" * 40])
        msg["code"] = CODE
        want = {"bad_name", "table_full", "too_many_attempts"}
    else:
        msg["role"] = "spectator"
        want = set()
    if ctx.role is not None:
        want = {"already_joined"}
    want |= {"too_many_attempts", "table_full", "too_many_connections"}
    return Case(
        "bad_hello",
        _pack(msg),
        frozenset(want),
        must_answer=bool(want - {"too_many_attempts", "table_full", "too_many_connections"}),
    )  # noqa: E501


def make_case(rng: random.Random, ctx: Ctx) -> Case:
    """One fuzz frame for a connection in ``ctx``, with the answers it deserves."""
    kind = rng.choices(
        ["random_bytes", "glued", "shape", "huge", "deep", "wrong_type", "unknown", "other_seat",
         "stale", "illegal", "broken_action", "hello", "valid"],
        [4, 4, 8, 5, 5, 14, 5, 10, 10, 14, 10, 5, 6],
    )[0]  # fmt: skip
    if kind == "random_bytes":
        data = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40)))
        return Case(kind, data, None, must_answer=False)
    if kind == "glued":  # a frame cut short, then another one: the bytes no longer line up
        a = _pack({"t": "say", "phrase": "deal"} if rng.random() < 0.5 else _junk(rng))
        b = _pack({"t": "ping", "n": 5})
        return Case(kind, a[: rng.randrange(1, max(2, len(a)))] + b, None, must_answer=False)
    if kind == "shape":
        obj = rng.choice([_junk(rng), [_junk(rng)], _wrong(rng), {"x": _junk(rng)}])
        if isinstance(obj, dict) and rng.random() < 0.5:
            obj["t"] = _wrong(rng)
        code = _schema_code(obj)
        if code is None:  # by chance a real message (a ping)
            return Case(kind, _pack(obj), None, must_answer=False)
        if ctx.role is None and code not in ("bad_message", "unknown_type"):
            code = "not_joined"
        return Case(kind, _pack(obj), frozenset({code, "not_joined"}))
    if kind == "huge":
        heads = [b"\xdb", b"\xdd", b"\xdf", b"\xc6", b"\xc9", b"\xdb", b"\xdd", b"\xdf", b"\xda"]
        head = rng.choice(heads)
        if head in (b"\xdc", b"\xde", b"\xda"):  # 16-bit lengths: under the limit, but
            data = head + b"\xff\xff" + b"\xc0" * rng.randrange(0, 3)
            return Case(kind, data, None, must_answer=False)  # never completed: timeout
        n = rng.choice([2**32 - 1, 2**31, 70_000, 1 << 20])
        data = head + n.to_bytes(4, "big") + (b"\x01" if head == b"\xc9" else b"") + b"abc"
        return Case(kind, data, frozenset({"bad_frame", "frame_too_large"}))
    if kind == "deep":
        depth = rng.choice([13, 20, 200, 1000, 1023, 1024, 1500, 5000])
        unit = b"\x91" if rng.random() < 0.5 else b"\x81\xa1t"  # [[[...]]] or {"t": {"t": ...}}
        data = unit * depth + b"\xc0"
        return Case(kind, data, frozenset({"bad_message", "bad_frame", "unknown_type"}))
    if kind == "wrong_type":
        return _wrong_type_case(rng, ctx)
    if kind == "unknown":
        t = rng.choice(["Hello", "HELLO", "act", "actions", "admin", "debug", "state", "deck",
                        "", "\u0000", "x" * 45, "eval", "snapshot", "update", "welcome"])  # fmt: skip
        msg = {"t": t}
        if rng.random() < 0.5:
            msg["x"] = _junk(rng)
        code = _schema_code(msg)
        return Case(kind, _pack(msg), frozenset({code}))
    if kind in ("other_seat", "stale", "illegal", "broken_action"):
        return _action_case(rng, ctx, kind)
    if kind == "hello":
        return _hello_case(rng, ctx)
    # harmless valid messages
    msg = rng.choice(
        [
            {"t": "ping", "n": rng.randrange(1000)},
            {"t": "sync"},
            {"t": "start"},
            {"t": "say", "phrase": rng.choice(P.PHRASES)},
        ]  # fmt: skip
    )
    want = {"not_joined", "not_started", "not_seated", "already_started", "start_denied"}
    return Case("valid", _pack(msg), frozenset(want), must_answer=False)


# --------------------------------------------------------------------------- a connection


class Closed(Exception):
    def __init__(self, got: list[dict]) -> None:
        super().__init__("connection closed")
        self.got = got


class FuzzConn:
    """One connection to the host: sends cases, reads every answer, follows its view."""

    def __init__(
        self, port: int, ctx: Ctx, stats: Counter, problems: list[str], stall: float = 0.7
    ) -> None:
        self.port = port
        self.ctx = ctx
        self.stats = stats
        self.problems = problems
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.decoder = P.FrameDecoder(1 << 20)
        self.inbox: list[dict] = []
        self.eof = False
        self.pings = 0
        self.legit_acks = 0  # legal moves of ours applied in the current game
        self.games = 0
        self.hasher = P.ViewHasher()
        self.stall = stall  # no pong this long: a half-read frame swallowed the ping
        self.last_sent = 0.0

    async def open(self) -> None:
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        self.decoder = P.FrameDecoder(1 << 20)
        self.inbox, self.eof = [], False
        self.ctx.role = None

    def close(self) -> None:
        if self.writer is not None:
            with contextlib.suppress(Exception):
                self.writer.transport.abort()

    def write(self, data: bytes) -> None:
        with contextlib.suppress(Exception):
            self.writer.write(data)

    async def _fill(self, timeout: float) -> None:
        if self.eof:
            raise Closed([])
        try:
            data = await asyncio.wait_for(self.reader.read(1 << 16), timeout)
        except TimeoutError:
            raise
        except (ConnectionError, OSError) as exc:
            self.stats["read_error." + type(exc).__name__] += 1
            self.last_close = type(exc).__name__
            data = b""
        else:
            self.last_close = "eof"
        if not data:
            self.eof = True
            raise Closed([])
        for msg in self.decoder.feed(data):
            self.inbox.append(msg)

    async def read_until_closed(self, timeout: float) -> None:
        """Read (checking every message) until the host closes the connection: raises
        Closed then, or TimeoutError if the host stays silent for `timeout` seconds."""
        while True:
            await self._fill(timeout)
            while self.inbox:
                self._take(self.inbox.pop(0))

    def _take(self, msg: dict) -> None:
        """Follow the connection's own view and check what the host says."""
        t = msg.get("t")
        self.stats["host_frames." + str(t)] += 1
        if t == "welcome":
            self.ctx.role = msg["role"]
            self.ctx.seat = msg["seat"]
            if msg.get("token"):
                self.ctx.token = msg["token"]
        elif t == "snapshot":
            if any(e.get("type") == "game_started" for e in msg["events"]):
                self.games += 1  # a new game (a rematch): its moves are counted afresh
                self.legit_acks = 0
            self.ctx.view = msg["view"]
            self.ctx.version = msg["version"]
            self.hasher = P.ViewHasher()
            if self.hasher(msg["view"]) != msg["hash"]:
                self.problems.append(f"snapshot hash mismatch on seat {self.ctx.seat}")
        elif t == "update":
            ack = msg.get("ack")
            if ack is not None:
                if ack < LEGIT_IDS:
                    self.problems.append(f"a fuzzed action was applied (id {ack}): {msg}")
                else:
                    self.legit_acks += 1
            if self.ctx.view is not None and msg["base"] == self.ctx.version:
                self.ctx.view = P.apply_delta(self.ctx.view, msg["delta"])
                self.ctx.version = msg["version"]
                if self.hasher(self.ctx.view, msg["delta"]) != msg["hash"]:
                    self.problems.append(f"view hash mismatch on seat {self.ctx.seat}")
            else:
                self.stats["desync"] += 1
                self.write(P.encode({"t": "sync"}))
        elif t == "error":
            self.stats["errors." + msg["code"]] += 1
            if msg["code"] == "internal_error":
                self.problems.append(f"internal error: {msg}")

    async def exchange(self, data: bytes, timeout: float = 25.0) -> list[dict]:
        """Send ``data`` and a ping; everything that came before the pong. Raises Closed
        (with what came) if the host closed the connection."""
        self.pings += 1
        n = self.pings % (1 << 31)
        self.write(data)
        self.write(P.encode({"t": "ping", "n": n}))
        got: list[dict] = []
        deadline = time.monotonic() + timeout
        filled = False
        while True:
            while self.inbox:
                msg = self.inbox.pop(0)
                self._take(msg)
                if msg.get("t") == "pong" and msg.get("n") == n:
                    return got
                got.append(msg)
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no pong")
            try:
                await self._fill(min(left, self.stall))
            except TimeoutError:
                if not filled:  # a half-read frame swallowed the ping: finish it off (or make
                    filled = True  # it too long: a frame is at most 64 KiB)
                    self.write(b"\xc0" * (P.MAX_FRAME + 16) + P.encode({"t": "ping", "n": n}))
                continue
            except Closed:
                raise Closed(got) from None

    async def hello(self, **fields) -> dict:
        msg = {"t": "hello", "v": 2, **fields}
        got = await self.exchange(P.encode(msg))
        errors = [m for m in got if m.get("t") == "error"]
        if errors:
            raise RuntimeError(f"hello refused: {errors[0]}")
        return got[0] if got else {}


def check_answer(
    case: Case, got: list[dict], closed: bool, problems: list[str], conn_info: str = ""
) -> None:
    """Did the host answer ``case`` as it deserves?"""
    errors = [m["code"] for m in got if m.get("t") == "error"]
    if "internal_error" in errors:
        problems.append(f"{case.kind}: internal error {case.data[:60]!r}")
    if case.errors is None:
        return
    allowed = case.errors | {"rate_limited", "timeout", "too_many_connections"}
    if closed:
        last = errors[-1] if errors else None
        if last is None:
            problems.append(
                f"{case.kind}: closed without an error {case.data[:60]!r} {got} {conn_info}"
            )
        elif last not in FATAL and last != "rate_limited":
            problems.append(f"{case.kind}: closed after non-fatal {last} {case.data[:60]!r}")
        elif last not in allowed:
            problems.append(f"{case.kind}: closed with {last}, wanted {sorted(case.errors)}")
        return
    if case.must_answer and not errors:
        problems.append(f"{case.kind}: no error for {case.data[:80]!r}")
    for code in errors:
        if code not in allowed:
            problems.append(
                f"{case.kind}: {code}, wanted {sorted(case.errors)} for {case.data[:80]!r}"
            )
            break


# --------------------------------------------------------------------------- a session


@dataclass
class Session:
    """A fuzzing session against a host on ``port`` (in this process or another)."""

    port: int
    seats: int
    frames: int  # fuzz frames to send (floods and storms included)
    connections: int
    seed: int = 1
    pace: float = 0.085  # seconds between two exchanges (2 messages) on one connection: 30/s
    legit_every: float = 0.15  # chance per exchange that a seated connection moves instead
    events: bool = True  # floods, slow-loris connections and storms
    event_gap: tuple = (2.0, 8.0)  # seconds between two of them
    finish: bool = True  # play the game to its end afterwards
    started: asyncio.Event = field(default_factory=asyncio.Event)  # every seat has joined
    stall: float = 0.7  # seconds without a pong before finishing off a half-read frame
    serial: asyncio.Lock | None = None  # exchanges one at a time (in-process state checks)
    probe: object = None  # probe(case or None) after every exchange (in-process checks)
    stats: Counter = field(default_factory=Counter)
    problems: list = field(default_factory=list)

    async def run(self) -> dict:
        rng = random.Random(self.seed)
        seated = [FuzzConn(self.port, Ctx(seats=self.seats), self.stats, self.problems, self.stall)
                  for _ in range(self.seats)]  # fmt: skip
        for i, c in enumerate(seated):
            await c.open()
            await c.hello(role="player", name=f"Fuzz{i}", code=CODE)
        # Every seat is taken: the game has started. Everyone has a snapshot.
        for c in seated:
            while c.ctx.view is None:
                await c.exchange(b"")
        self.started.set()
        others = []
        for i in range(max(0, self.connections - self.seats)):
            c = FuzzConn(self.port, Ctx(seats=self.seats), self.stats, self.problems, self.stall)
            await c.open()
            if i % 2 == 0:
                await c.hello(role="spectator")
            others.append(c)
        self.bots = {c.ctx.seat: make_bot("random", c.ctx.seat, self.seed) for c in seated}
        self.sent = 0
        self._lorises: set = set()
        t0 = time.perf_counter()
        tasks = [
            asyncio.ensure_future(self._fuzz(c, random.Random(rng.random())))
            for c in [*seated, *others]
        ]
        if self.events:
            tasks.append(asyncio.ensure_future(self._events(random.Random(rng.random()))))
        await asyncio.gather(*tasks)
        fuzz_seconds = time.perf_counter() - t0
        if self._lorises:
            await asyncio.wait(self._lorises, timeout=60)
        # The frame budget is spent: play the game to its end with legal moves only.
        self.seated = seated
        finished = await self._finish(seated) if self.finish else None
        for c in seated:  # everyone reads what is left: the last view of every seat
            await self._exchange(c, None, b"")
        for c in [*seated, *others]:
            c.close()
        st = self.stats
        return {
            "frames_fuzzed": self.sent + st["flood_frames"] + st["loris_frames"],
            "single_frames_checked": self.sent,
            "flood_frames": st["flood_frames"],
            "slow_loris_connections": st["loris_frames"],
            "storm_connections": st["storm_connections"],
            "fuzz_seconds": round(fuzz_seconds, 1),
            "legal_moves_applied": sum(c.legit_acks for c in seated),  # in the last game
            "games_played": max(c.games for c in seated),
            "game_finished": finished,
            "violations": len(self.problems),
        }

    async def _exchange(self, conn: FuzzConn, case: Case | None, data: bytes) -> list[dict]:
        wait = conn.last_sent + self.pace - time.monotonic()
        if wait > 0:  # stay under the host's rate limit on this connection
            await asyncio.sleep(wait)
        conn.last_sent = time.monotonic()
        lock = self.serial or contextlib.nullcontext()
        async with lock:
            try:
                got = await conn.exchange(data)
                closed = False
            except Closed as exc:
                got, closed = exc.got, True
            except TimeoutError:
                self.problems.append(f"no answer at all to {case.kind if case else 'a move'}")
                got, closed = [], True
                conn.close()
            if case is not None:
                info = f"{conn.ctx.role} seat={conn.ctx.seat} {getattr(conn, 'last_close', '')} {conn.writer.get_extra_info('sockname')}"
                check_answer(case, got, closed, self.problems, info)
            if self.probe is not None:
                self.probe(case)
        if closed:
            await self._reopen(conn)
        return got

    async def _reopen(self, conn: FuzzConn) -> None:
        conn.close()
        self.stats["reconnects"] += 1
        await conn.open()
        ctx = conn.ctx
        if ctx.token is not None:  # a seat: take it back with the token
            conn.ctx.view = None
            try:
                await conn.hello(role="player", token=ctx.token)
            except (RuntimeError, Closed, TimeoutError) as exc:
                self.problems.append(f"seat {ctx.seat} could not rejoin: {exc}")
                return
            while conn.ctx.view is None:
                try:
                    await conn.exchange(b"")
                except (Closed, TimeoutError):
                    return

    async def _fuzz(self, conn: FuzzConn, rng: random.Random) -> None:
        while self.sent < self.frames:
            await asyncio.sleep(self.pace * rng.uniform(0.0, 0.4))
            if conn.ctx.seat is not None and conn.ctx.token and rng.random() < self.legit_every:
                await self._move(conn)
                continue
            case = make_case(rng, conn.ctx)
            self.sent += 1
            self.stats["cases." + case.kind] += 1
            await self._exchange(conn, case, case.data)

    async def _move(self, conn: FuzzConn, must_only: bool = False) -> bool:
        """A legal move for the connection's seat, at the version it holds."""
        view = conn.ctx.view
        if view is None or view.get("phase") == "game_over":
            return False
        legal = _legal(conn.ctx)
        if legal is None or not legal.moves():
            return False
        seat = conn.ctx.seat
        must = seat in view.get("waiting_for", ()) or (
            view.get("window") is not None and seat in view["window"].get("waiting", ())
        )
        if must_only and not must:
            return False
        action = self.bots[seat].choose(view, legal.moves(), must)
        if action is None:
            return False
        msg = P.action_message(action.to_data(), conn.ctx.version, LEGIT_IDS + self.stats["moves"])
        self.stats["moves"] += 1
        await self._exchange(conn, None, P.encode(msg))
        return True

    async def _finish(self, seated: list[FuzzConn], limit: float = 300.0) -> bool:
        """Legal moves only until the game is over: the seat the game waits for moves (or,
        in real-time negotiation, whoever wants to); each catches up with the host first."""
        deadline = time.monotonic() + limit
        rng = random.Random(self.seed + 1)
        by_seat = {c.ctx.seat: c for c in seated}
        fresh = seated[0]
        await self._exchange(fresh, None, b"")
        while time.monotonic() < deadline:
            v = fresh.ctx.view
            if v is None:
                await self._exchange(fresh, None, b"")
                continue
            if v.get("phase") == "game_over":
                return True
            win = v.get("window")
            waiting = list(win.get("waiting", ())) if win else list(v.get("waiting_for", ()))
            order = [by_seat[s] for s in waiting if s in by_seat] or list(seated)
            rng.shuffle(order)
            for c in order:
                if c is not fresh:
                    await self._exchange(c, None, b"")  # catch up with the host
                    fresh = c
                if await self._move(c):
                    break
        self.problems.append("the legal game did not finish")
        return False

    async def _events(self, rng: random.Random) -> None:
        """Floods, slow-loris connections and connection storms, now and then."""
        while self.sent < self.frames:
            await asyncio.sleep(rng.uniform(*self.event_gap))
            what = rng.choice(["flood", "loris", "storm"])
            self.stats["events." + what] += 1
            if what == "flood":
                await self._flood(rng)
            elif what == "loris":
                self._lorises.add(asyncio.ensure_future(self._loris(rng)))
            else:
                await self._storm(rng)

    async def _flood(self, rng: random.Random) -> None:
        c = FuzzConn(self.port, Ctx(seats=self.seats), self.stats, self.problems, self.stall)
        await c.open()
        n = 400
        c.write(b"".join(P.encode({"t": "ping", "n": i}) for i in range(n)))
        self.stats["flood_frames"] += n
        try:
            await c.read_until_closed(15)
        except Closed:
            if self.stats["errors.rate_limited"] == 0:
                self.problems.append("a flood was closed without rate_limited")
        except TimeoutError:
            self.problems.append("a flood was never closed")
        c.close()

    async def _loris(self, rng: random.Random) -> None:
        """Half a frame, then nothing: the host must close it (partial-frame timeout)."""
        c = FuzzConn(self.port, Ctx(seats=self.seats), self.stats, self.problems, self.stall)
        try:
            await c.open()
        except OSError:
            return
        frame = P.encode({"t": "hello", "v": 2, "role": "spectator", "name": "slow" * 5})
        c.write(frame[: rng.randrange(1, len(frame))])
        self.stats["loris_frames"] += 1
        try:
            await c.read_until_closed(40)
        except Closed:
            self.stats["loris_closed"] += 1
        except TimeoutError:
            self.problems.append("a slow-loris connection was never closed")
        c.close()

    async def _storm(self, rng: random.Random, n: int = 40) -> None:
        """Many connections at once: the limit holds, and then everyone is served again."""
        conns = []
        for _ in range(n):
            c = FuzzConn(self.port, Ctx(seats=self.seats), self.stats, self.problems, self.stall)
            try:
                await c.open()
            except OSError:
                break
            conns.append(c)
        await asyncio.sleep(0.2)
        for c in conns:
            c.close()
        self.stats["storm_connections"] += len(conns)


# --------------------------------------------------------------------------- the host process


def serve(args) -> int:
    """The host under test, in its own process: prints its port, runs until killed."""
    from game.table.bot_schedule import Timing
    from net.host.config import HostConfig
    from net.host.connections import Limits
    from net.host.server import Host

    timing = Timing(
        window=3600.0, going_once=1800.0, negotiation=0.0, grace=3600.0, bot_answer=0.0,
        bot_delay=0.0, bot_tick=0.005,
    )  # fmt: skip
    limits = Limits()
    if args.rate:
        limits.rate = limits.burst = float(args.rate)
    import logging

    logging.basicConfig(level=logging.DEBUG if os.environ.get("FUZZ_HOST_LOG") else logging.ERROR,
                        format="%(asctime)s %(name)s %(levelname)s %(message)s")  # fmt: skip
    cfg = HostConfig(
        seats=args.seats, bots=["random"], code=CODE, bind="127.0.0.1", port=0,
        seed=args.seed, timing=timing, limits=limits, autosave=Path(args.save),
        announce=False,
    )  # fmt: skip

    trace = bool(os.environ.get("FUZZ_HOST_TRACEMALLOC"))
    if trace:  # where the host's memory goes (slow: for finding what grows, not for figures)
        import tracemalloc

        tracemalloc.start(8)

    async def main() -> None:
        host = Host(cfg)
        await host.start()
        print(f"PORT {host.port}", flush=True)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        loop.add_signal_handler(signal.SIGTERM, stop.set)
        if trace:
            first = tracemalloc.take_snapshot()
        await stop.wait()
        if trace:
            _print_growth(first, tracemalloc.take_snapshot())
        stats = {k: v for k, v in host.stats.items()}
        await host.close()
        print("STATS " + json.dumps(stats), flush=True)

    asyncio.run(main())
    return 0


def _print_growth(first, last, top: int = 25) -> None:
    """The allocations that grew most between two tracemalloc snapshots (to stderr)."""
    print(f"tracemalloc: {sum(s.size for s in last.statistics('filename')) / 2**20:.1f} MiB "
          "traced at the end", file=sys.stderr)  # fmt: skip
    for stat in last.compare_to(first, "traceback")[:top]:
        print(f"{stat.size_diff / 1024:+9.1f} KiB {stat.count_diff:+7d} blocks", file=sys.stderr)
        for line in stat.traceback.format()[-8:]:
            print("    " + line, file=sys.stderr)


async def hog(port: int, seconds: float = 20.0) -> dict:
    """The worst a crowd can make the host hold: every connection slot taken, 24 of them
    with a frame of 64,000 bytes left unfinished and 8 spectators that ask for snapshots
    and never read. Returns what happened to them."""
    import socket

    out = Counter()
    conns = []
    for i in range(32):
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.setblocking(False)
        try:
            await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
        except OSError:
            out["refused"] += 1
            continue
        reader, writer = await asyncio.open_connection(sock=sock)
        if i < 24:
            # a str16 of 65,000 bytes (it fits in a frame) left unfinished at 64,000
            writer.write(b"\xda\xfd\xe8" + b"x" * 64_000)
        else:
            writer.write(P.encode({"t": "hello", "v": 2, "role": "spectator"}))
        conns.append((reader, writer, i >= 24))
    out["connections"] = len(conns)
    t_end = time.monotonic() + seconds
    while time.monotonic() < t_end:
        for _reader, writer, spectator in conns:
            if spectator and not writer.is_closing():
                with contextlib.suppress(Exception):
                    writer.write(P.encode({"t": "sync"}))  # a snapshot each, never read
        await asyncio.sleep(1 / 25)
    for _reader, writer, _spectator in conns:
        with contextlib.suppress(Exception):
            writer.transport.abort()
    return dict(out)


def _mem(pid: int) -> dict:
    out = {}
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                out[key] = int(value.split()[0]) // 1024  # MiB
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--frames", type=int, default=100_000)
    p.add_argument("--connections", type=int, default=8)
    p.add_argument("--seats", type=int, default=4)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--rate", type=float, default=0, help="host rate limit (0: the default 30/s)")
    p.add_argument("--pace", type=float, default=0.085)
    p.add_argument("--hog", action=argparse.BooleanOptionalAction, default=True,
                   help="first fill every connection slot with the most memory it can hold")  # fmt: skip
    p.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--save", default=None, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.serve:
        return serve(args)

    import tempfile

    from net.host.journal import load_game

    tmp = tempfile.mkdtemp(prefix="fuzz_host_")
    save = Path(tmp) / "fuzz.json"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    cmd = [sys.executable, "-m", "bench.fuzz_host", "--serve", "--save", str(save),
           "--seats", str(args.seats), "--seed", str(args.seed)]  # fmt: skip
    if args.rate:
        cmd += ["--rate", str(args.rate)]
    host_err = open(Path(tmp) / "host.stderr", "w")  # noqa: SIM115
    proc = subprocess.Popen(
        cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=host_err, text=True
    )
    print(f"host log: {host_err.name}", file=sys.stderr)
    try:
        line = proc.stdout.readline()
        port = int(line.split()[1])
        mem0 = _mem(proc.pid)
        peak = dict(mem0)
        session = Session(
            port, args.seats, args.frames, args.connections, args.seed, pace=args.pace
        )

        shown: list = []

        async def sample() -> None:
            while True:
                await asyncio.sleep(0.25)
                m = _mem(proc.pid)
                if proc.poll() is not None:
                    session.problems.append(f"the host died (exit {proc.returncode})")
                    return
                peak["VmRSS"] = max(peak.get("VmRSS", 0), m.get("VmRSS", 0))
                for prob in session.problems[len(shown) :]:  # as soon as they are found
                    shown.append(prob)
                    print("VIOLATION", prob[:500], file=sys.stderr, flush=True)
                done = session.sent
                if done // 10_000 != getattr(sample, "shown", 0):
                    sample.shown = done // 10_000
                    print(f"  {done} frames, {len(session.problems)} violations, "
                          f"host RSS {m.get('VmRSS')} MiB", file=sys.stderr, flush=True)  # fmt: skip

        hogged: dict = {}

        async def go() -> dict:
            sampler = asyncio.ensure_future(sample())
            try:
                running = asyncio.ensure_future(session.run())
                if args.hog:  # while the game runs and is fuzzed
                    await session.started.wait()
                    hogged.update(await hog(port))
                    hogged["peak_rss_mib"] = peak.get("VmRSS")
                return await running
            finally:
                sampler.cancel()

        t0 = time.perf_counter()
        out = asyncio.run(go())
        alive = proc.poll() is None
        mem1 = _mem(proc.pid)
        proc.send_signal(signal.SIGTERM)
        rest, _ = proc.communicate(timeout=60)
        host_stats = {}
        for ln in rest.splitlines():
            if ln.startswith("STATS "):
                host_stats = json.loads(ln[6:])
        game, report = load_game(save)
        moves = out["legal_moves_applied"]
        if len(game.log) != moves:
            session.problems.append(
                f"the host applied {len(game.log)} actions, the legal moves were {moves}"
            )
        out.update(
            host_alive=alive,
            host_rss_mib={
                "start": mem0.get("VmRSS"),
                "peak_sampled": peak.get("VmRSS"),
                "end": mem1.get("VmRSS"),
                "hwm": mem1.get("VmHWM"),
            },  # fmt: skip
            host_internal_errors=host_stats.get("internal_errors", 0),
            hog=dict(
                hogged,
                host_timeouts=host_stats.get("errors.timeout"),
                host_slow_readers=host_stats.get("errors.slow_reader"),
                host_evicted=host_stats.get("evicted"),
            )
            if hogged
            else None,  # fmt: skip
            host_frames_in=host_stats.get("frames_in"),
            host_rate_limited=host_stats.get("rate_limited", 0),
            host_errors={
                k[7:]: v for k, v in sorted(host_stats.items()) if k.startswith("errors.")
            },
            journal_actions=len(game.log),
            game_over=game.state.phase.value == "game_over",
            cases={k[6:]: v for k, v in sorted(session.stats.items()) if k.startswith("cases.")},
            events={k[7:]: v for k, v in sorted(session.stats.items()) if k.startswith("events.")},
            seconds=round(time.perf_counter() - t0, 1),
            violations=len(session.problems),
        )
        if host_stats.get("internal_errors"):
            session.problems.append("host internal errors")
            out["violations"] = len(session.problems)
        for prob in session.problems[len(shown) :]:
            print("VIOLATION", prob[:500], file=sys.stderr)
        print(json.dumps(out))
        return 1 if session.problems or not alive else 0
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()


if __name__ == "__main__":
    raise SystemExit(main())
