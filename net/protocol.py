"""The LAN wire protocol: msgpack maps over TCP, one map per message (docs/PROTOCOL.md).

Every message is a plain msgpack map with a string ``t`` (its type) and only ints, strings,
bools, nil, arrays and string-keyed maps inside: no floats, no binary, no ext types, no
pickle. The stream is cut into messages by ``msgpack.Unpacker`` alone (``FrameDecoder``);
a message (frame) is at most ``MAX_FRAME`` bytes.

This module is shared by the host and the client:

* ``FrameDecoder``: bytes in, messages out, with an exact frame-size limit;
* ``encode``: the one function that turns a message into bytes;
* ``check_client_message`` / ``check_host_message``: strict schemas (unknown types, missing,
  extra or ill-typed fields raise ``ProtocolError`` naming the problem);
* ``view_hash`` / ``view_delta`` / ``apply_delta``: how a client keeps its seat's view in
  step with the host and proves it.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import string
from collections.abc import Callable, Iterator
from typing import Any

import msgpack

# how a client keeps its seat's view in step with the host and proves it: re-exported here,
# where the rest of net/ reads the wire's names
from net.view_sync import (  # noqa: F401
    HASH_HEX,
    STATIC_KEYS,
    ViewHasher,
    apply_delta,
    fragment,
    map_header,
    pack,  # the wire's one packer: every message is encoded, every view hashed, with it
    view_delta,
    view_hash,
)

PROTOCOL_VERSION = 2
SUPPORTED_VERSIONS = (2,)
MAX_FRAME = 64 * 1024  # bytes per message, both directions
MAX_DEPTH = 12  # nesting of maps and arrays in one message
MAX_NAME = 24  # grapheme clusters of a player name, after cleaning (net/names.py)
MAX_NAME_FIELD = 8 * MAX_NAME  # code points of hello.name as sent (bounds the work)
CODE_LENGTH = 4
TOKEN_HEX = 32  # a reconnect token: 128 random bits as 32 lower-case hex digits

#: Quick negotiation phrases a player may say (``say``): the keys of the UI's
#: "phrase.<key>" translations.
PHRASES = ("too_expensive", "deal", "no_way", "last_offer", "one_dividend", "im_out")

#: Why a host's bot Boss failed a deal (``gave_up``): the keys of the UI's "reason.<key>"
#: translations (game.bots.talk.GiveUp).
GAVE_UP_REASONS = ("too_expensive", "no_cover", "no_takers", "out_of_time")

ROLES = ("player", "spectator")

#: how a connected player reaches the host (``seats[].via``): a TCP client, or a phone's
#: WebSocket (net/web)
VIAS = ("tcp", "web")

# --------------------------------------------------------------------------- errors

#: Error codes the host sends (``{"t": "error", "code": ...}``) and what they mean.
#: Codes marked fatal are followed by the host closing the connection.
ERRORS: dict[str, tuple[bool, str]] = {
    "bad_frame": (True, "the bytes are not a msgpack message (the stream cannot be resynced)"),
    "frame_too_large": (True, f"a message is (or declares to be) longer than {MAX_FRAME} bytes"),
    "bad_message": (False, "a message with a missing, extra or ill-typed field"),
    "unknown_type": (False, "a message type the host does not know"),
    "version": (True, "the protocol version is not supported"),
    "not_joined": (False, "only 'hello' (and 'ping') before joining"),
    "already_joined": (False, "'hello' on a connection that has joined"),
    "bad_code": (False, "wrong room code"),
    "too_many_attempts": (True, "too many wrong room codes on this connection"),
    "bad_name": (False, "the name is missing, empty or too long after cleaning"),
    "bad_token": (True, "no seat has this reconnect token"),
    "table_full": (True, "no seat is free"),
    "too_many_connections": (True, "the host has reached its connection limit"),
    "not_seated": (False, "spectators cannot act"),
    "replaced": (True, "the seat was taken over by a newer connection with its token"),
    "not_started": (False, "the game has not started"),
    "already_started": (False, "the game has already started"),
    "start_denied": (False, "only the first seated player may start the game early"),
    "game_over": (False, "the game is over"),
    "bad_action": (False, "the action map does not describe an action"),
    "wrong_seat": (False, "an action for another seat"),
    "illegal": (False, "the rules do not allow this action now (see 'rule')"),
    "stale": (False, "the action was made on an old version; a snapshot follows"),
    "rate_limited": (False, "too many messages per second; this one was dropped"),
    "timeout": (True, "no hello in time, a message left half-sent, or silence too long"),
    "slow_reader": (True, "the client does not read its messages"),
    "internal_error": (True, "the host failed on this message (a bug; its log has the details)"),
}


class ProtocolError(Exception):
    """A problem with what a peer sent; ``code`` is one of ``ERRORS``."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message

    @property
    def fatal(self) -> bool:
        return ERRORS.get(self.code, (True, ""))[0]


# --------------------------------------------------------------------------- framing


def _no_ext(code: int, data: bytes) -> Any:
    raise ValueError(f"ext type {code} is not allowed")


class RepeatedKeyMap(dict):
    """A decoded map that names a key twice. msgpack would keep the last value; the
    decoder marks the map instead and ``check_plain`` refuses it (``bad_message``), so the
    stream stays readable and no reader has to guess which value counts."""

    __slots__ = ("key",)


def _map_from_pairs(pairs: list) -> dict:
    out = dict(pairs)
    if len(out) == len(pairs):
        return out
    seen: set = set()
    marked = RepeatedKeyMap(out)
    marked.key = next(k for k, _ in pairs if k in seen or seen.add(k))
    return marked


#: msgpack headers by first byte: (header bytes, length field bytes, fixed payload bytes,
#: what a length field counts: "bytes" of payload, "items" of an array, "pairs" of a map;
#: "fix": the first byte holds it).
_HEADERS: dict[int, tuple[int, int, int, str]] = {
    0xC0: (1, 0, 0, ""), 0xC2: (1, 0, 0, ""), 0xC3: (1, 0, 0, ""),
    0xC4: (2, 1, 0, "bytes"), 0xC5: (3, 2, 0, "bytes"), 0xC6: (5, 4, 0, "bytes"),  # bin
    0xC7: (3, 1, 0, "bytes"), 0xC8: (4, 2, 0, "bytes"), 0xC9: (6, 4, 0, "bytes"),  # ext
    0xCA: (1, 0, 4, ""), 0xCB: (1, 0, 8, ""),  # floats
    0xCC: (1, 0, 1, ""), 0xCD: (1, 0, 2, ""), 0xCE: (1, 0, 4, ""), 0xCF: (1, 0, 8, ""),
    0xD0: (1, 0, 1, ""), 0xD1: (1, 0, 2, ""), 0xD2: (1, 0, 4, ""), 0xD3: (1, 0, 8, ""),
    0xD4: (2, 0, 1, ""), 0xD5: (2, 0, 2, ""), 0xD6: (2, 0, 4, ""), 0xD7: (2, 0, 8, ""),
    0xD8: (2, 0, 16, ""),  # fixext
    0xD9: (2, 1, 0, "bytes"), 0xDA: (3, 2, 0, "bytes"), 0xDB: (5, 4, 0, "bytes"),  # str
    0xDC: (3, 2, 0, "items"), 0xDD: (5, 4, 0, "items"),  # array
    0xDE: (3, 2, 0, "pairs"), 0xDF: (5, 4, 0, "pairs"),  # map
}  # fmt: skip
for _b in range(0x80):
    _HEADERS[_b] = (1, 0, 0, "")  # positive fixint
for _b in range(0x80, 0xC0):
    _HEADERS[_b] = (1, 0, 0, "fix")  # fixmap, fixarray, fixstr: the count is in the byte
for _b in range(0xE0, 0x100):
    _HEADERS[_b] = (1, 0, 0, "")  # negative fixint


class LengthGuard:
    """Reads the headers of the message being received, so that one declaring more than
    fits in a frame (a str32 of 4 GiB, an array32 of 4 G entries, at any depth) is refused
    as soon as its header arrives, not after the limit's worth of bytes (or a timeout).

    It walks one message: ``owed`` counts the values still due (each takes at least one
    byte), so a header is too large when the bytes so far, its payload and ``owed`` cannot
    fit in ``limit``. Bytes that are not msgpack stop the walk (the unpacker reports them).
    """

    __slots__ = ("limit", "pos", "owed", "skip", "head", "dead")

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.reset()

    def reset(self) -> None:
        self.pos = 0  # bytes of the message walked
        self.owed = 1  # values still due
        self.skip = 0  # payload bytes of the current value still to pass
        self.head = b""  # a header cut by the end of the data so far
        self.dead = False

    def scan(self, data) -> None:
        """Walk ``data`` (the next bytes of the message); ProtocolError if too large."""
        i, n = 0, len(data)
        while i < n and not self.dead:
            if self.skip:
                k = min(self.skip, n - i)
                self.skip -= k
                self.pos += k
                i += k
                continue
            if self.owed == 0:  # the message ended: the next one begins
                self.reset()
            buf = self.head + bytes(data[i : i + 6])
            spec = _HEADERS.get(buf[0])
            if spec is None:  # 0xC1 (never used): not msgpack
                self.dead = True
                return
            size, field, fixed, counts = spec
            if len(buf) < size:  # the header continues in the next data
                self.head = buf
                return
            i += size - len(self.head)
            self.head = b""
            self.pos += size
            first = buf[0]
            declared = int.from_bytes(buf[1 : 1 + field], "big") if field else 0
            payload, items = fixed, 0
            if 0x80 <= first <= 0x8F:
                items = 2 * (first & 0x0F)
            elif 0x90 <= first <= 0x9F:
                items = first & 0x0F
            elif 0xA0 <= first <= 0xBF:
                payload = first & 0x1F
            elif counts == "bytes":
                payload = declared
            elif counts == "items":
                items = declared
            elif counts == "pairs":
                items = 2 * declared
            self.owed += items - 1
            if self.pos + payload + self.owed > self.limit:
                raise ProtocolError(
                    "frame_too_large",
                    f"a message declares more than {self.limit} bytes "
                    f"(header 0x{first:02x} at byte {self.pos - size})",
                )
            self.skip = payload


class FrameDecoder:
    """Cuts a byte stream into messages with one ``msgpack.Unpacker`` (never raw reads).

    ``room()`` is how many bytes may be read next: the unpacker never holds more than
    ``max_frame`` bytes, so a longer message can never complete and is reported as
    ``frame_too_large`` as soon as it fills the buffer - or at once, when a header of the
    unfinished message declares more than fits (``LengthGuard``). Any other decoding
    problem raises ``ProtocolError("bad_frame")``; after either error the stream is unusable.
    """

    def __init__(self, max_frame: int = MAX_FRAME) -> None:
        self.max_frame = max_frame
        self._fed = 0
        self._done = 0  # stream offset of the end of the last complete message
        self._guard = LengthGuard(max_frame)
        self._guard_from = -1  # stream offset of the message the guard walks
        self._guarded = 0  # stream offset the guard has walked to
        self._unpacker = msgpack.Unpacker(
            max_buffer_size=max_frame,
            strict_map_key=True,
            raw=False,
            use_list=True,
            max_bin_len=0,
            max_ext_len=0,
            ext_hook=_no_ext,
            object_pairs_hook=_map_from_pairs,
        )

    @property
    def buffered(self) -> int:
        """Bytes of an incomplete message waiting in the unpacker."""
        # Unpacker.tell() is exact only right after a complete object.
        return self._fed - self._done

    def room(self) -> int:
        return self.max_frame - self.buffered

    def feed(self, data: bytes) -> Iterator[Any]:
        """Feed bytes; yields every complete message (decode errors raise mid-way)."""
        if len(data) > self.room():
            raise ProtocolError(
                "frame_too_large", f"a message is longer than {self.max_frame} bytes"
            )
        try:
            self._unpacker.feed(data)
        except msgpack.BufferFull:  # pragma: no cover - room() prevents it
            raise ProtocolError("frame_too_large", "buffer full") from None
        start = self._fed  # the stream offset of data[0]
        self._fed += len(data)
        while True:
            failure = None
            try:
                obj = next(self._unpacker)
            except StopIteration:
                break
            except (ValueError, TypeError, msgpack.StackError, msgpack.FormatError) as exc:
                # FormatError/StackError subclass ValueError; UnicodeDecodeError too.
                failure = str(exc) or type(exc).__name__
            if failure is not None:  # raised out here: no traceback cycle holds ``data``
                # msgpack refuses some huge headers itself (max_array_len...): the same
                # answer as for the others
                self._walk(data, start)
                raise ProtocolError("bad_frame", f"undecodable message: {failure}")
            self._done = self._unpacker.tell()
            yield obj
        if self.buffered:
            self._walk(data, start)
            if self.buffered >= self.max_frame:
                raise ProtocolError(
                    "frame_too_large", f"a message is longer than {self.max_frame} bytes"
                )

    def _walk(self, data: bytes, start: int) -> None:
        """Walk the headers of the message after the last complete one through the bytes
        of ``data`` (at stream offset ``start``) not walked yet. They are all in ``data``:
        that message began in it, or was unfinished and walked to its end after the last
        feed."""
        if self._guard_from != self._done:  # a new message: walk it from its start
            self._guard.reset()
            self._guard_from = self._guarded = self._done
        with memoryview(data) as view:
            self._guard.scan(view[self._guarded - start :])
        self._guarded = self._fed


def encode(msg: dict) -> bytes:
    """The bytes of one message. Host and client send nothing that did not pass here."""
    frame = pack(msg)
    if len(frame) > MAX_FRAME:
        raise ValueError(f"message {msg.get('t')!r} is {len(frame)} bytes (> {MAX_FRAME})")
    return frame




_PACKED_KEYS: dict[str, bytes] = {}


def _packed_key(key: str) -> bytes:
    """A field name's (or a message type's) msgpack bytes, packed once."""
    packed = _PACKED_KEYS.get(key)
    if packed is None:
        packed = pack(key)
        if len(_PACKED_KEYS) < 256:  # the protocol's names, never unbounded
            _PACKED_KEYS[key] = packed
    return packed


def encode_map(kind: str, fields: list[tuple[str, bytes]]) -> bytes:
    """``encode({"t": kind, **fields})`` from the fields' values packed beforehand (a value
    several frames share is packed once): the very same bytes, under the same limit."""
    parts = [map_header(len(fields) + 1), b"\xa1t", _packed_key(kind)]
    for k, v in fields:
        parts.append(_packed_key(k))
        parts.append(v)
    frame = b"".join(parts)
    if len(frame) > MAX_FRAME:
        raise ValueError(f"message {kind!r} is {len(frame)} bytes (> {MAX_FRAME})")
    return frame


def decode_all(data: bytes) -> list[Any]:
    """Every message in ``data`` (tests and tools)."""
    dec = FrameDecoder(max(MAX_FRAME, len(data) + 1))
    return list(dec.feed(data))


# --------------------------------------------------------------------------- plain data


_SCALARS = frozenset({str, int, bool, type(None)})


def check_plain(obj: Any) -> None:
    """Only maps with string keys, arrays, strings, ints, bools and nil, not too deep.
    (msgpack ints are always within int64/uint64; binary and ext never get this far.)"""
    stack = [(obj, 0)]
    pop, push = stack.pop, stack.append
    while stack:
        item, depth = pop()
        kind = type(item)
        if kind is dict:
            if depth >= MAX_DEPTH:
                raise ProtocolError("bad_message", f"nested deeper than {MAX_DEPTH} levels")
            for key, value in item.items():
                if type(key) is not str:
                    raise ProtocolError("bad_message", "map keys must be strings")
                vk = type(value)
                if vk is dict or vk is list:
                    push((value, depth + 1))
                elif vk not in _SCALARS:
                    _bad_type(value)
        elif kind is list:
            if depth >= MAX_DEPTH:
                raise ProtocolError("bad_message", f"nested deeper than {MAX_DEPTH} levels")
            for value in item:
                vk = type(value)
                if vk is dict or vk is list:
                    push((value, depth + 1))
                elif vk not in _SCALARS:
                    _bad_type(value)
        elif kind not in _SCALARS:
            _bad_type(item)


def _bad_type(value: Any) -> None:
    if type(value) is RepeatedKeyMap:
        shown = value.key if len(value.key) <= 40 else value.key[:37] + "..."
        raise ProtocolError("bad_message", f"a map names the key {shown!r} twice")
    kind = type(value).__name__
    raise ProtocolError(
        "bad_message", f"{kind} values are not allowed (only int, str, bool, nil, array, map)"
    )


# --------------------------------------------------------------------------- schemas

Check = Callable[[str, Any], Any]


def _fail(field: str, want: str, value: Any) -> None:
    shown = repr(value)
    if len(shown) > 40:
        shown = shown[:37] + "..."
    raise ProtocolError("bad_message", f"field {field!r} must be {want}, not {shown}")


def _int(lo: int, hi: int) -> Check:
    def check(field: str, value: Any) -> Any:
        if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
            _fail(field, f"a whole number {lo}..{hi}", value)
        return value

    return check


def _str(lo: int, hi: int, pattern: str | None = None) -> Check:
    rx = re.compile(pattern) if pattern else None

    def check(field: str, value: Any) -> Any:
        if not isinstance(value, str) or not lo <= len(value) <= hi:
            _fail(field, f"a string of {lo}..{hi} characters", value)
        if rx is not None and not rx.fullmatch(value):
            _fail(field, f"a string matching {pattern}", value)
        return value

    return check


def _enum(*choices: str) -> Check:
    def check(field: str, value: Any) -> Any:
        if value not in choices or not isinstance(value, str):
            _fail(field, "one of " + ", ".join(choices), value)
        return value

    return check


def _bool(field: str, value: Any) -> Any:
    if not isinstance(value, bool):
        _fail(field, "true or false", value)
    return value


def _map(field: str, value: Any) -> Any:
    if not isinstance(value, dict):
        _fail(field, "a map", value)
    return value


def _list(field: str, value: Any) -> Any:
    if not isinstance(value, list):
        _fail(field, "an array", value)
    return value


def _opt(check: Check) -> Check:
    def opt(field: str, value: Any) -> Any:
        return None if value is None else check(field, value)

    opt.optional = True  # type: ignore[attr-defined]
    return opt


_UINT = _int(0, 2**53)
_ID = _int(0, 2**31 - 1)
_SEAT = _int(0, 5)


def _seats(field: str, value: Any) -> Any:
    """An array of seat numbers (a refusal's open and bot seats)."""
    for seat in _list(field, value):
        _SEAT(field, seat)
    return value


def _held(field: str, value: Any) -> Any:
    """An array of {seat, name, away}: the seats people hold (a refusal names them)."""
    name = _str(0, 80)
    for entry in _list(field, value):
        if not isinstance(entry, dict) or set(entry) != {"seat", "name", "away"}:
            _fail(field, "maps of seat, name and away", entry)
        _SEAT(field, entry["seat"])
        name(field, entry["name"])
        _bool(field, entry["away"])
    return value


_TOKEN = _str(TOKEN_HEX, TOKEN_HEX, r"[0-9a-f]+")
_HASH = _str(HASH_HEX, HASH_HEX, r"[0-9a-f]+")

#: Messages a client may send: field -> check. Fields whose check is optional may be
#: left out; every other field is required; no other field is accepted.
CLIENT_MESSAGES: dict[str, dict[str, Check]] = {
    "hello": {
        "v": _int(1, 65535),
        "role": _enum(*ROLES),
        "name": _opt(_str(0, MAX_NAME_FIELD)),
        "code": _opt(_str(0, 16)),
        "token": _opt(_TOKEN),
        "legal": _opt(_bool),
        "history": _opt(_bool),
        "bot": _opt(_bool),
    },
    "action": {"version": _UINT, "action": _map, "id": _opt(_ID)},
    "sync": {},
    "start": {},
    "ping": {"n": _opt(_ID)},
    "pong": {"n": _opt(_ID)},
    "say": {"phrase": _enum(*PHRASES)},
    "bye": {},
}

_SEAT_STATUS = ("open", "human", "away", "bot")
_TIMERS = _opt(_map)

#: Messages the host sends (the client checks them as strictly).
HOST_MESSAGES: dict[str, dict[str, Check]] = {
    "welcome": {
        "v": _int(1, 65535),
        "role": _enum(*ROLES),
        "seat": _opt(_SEAT),
        "token": _opt(_TOKEN),
        "table": _map,
    },
    "seats": {
        "started": _bool,
        "over": _bool,
        "seats": _list,
        "starter": _opt(_SEAT),
        "start_ms": _opt(_UINT),
        "spectators": _UINT,
    },
    "snapshot": {
        "version": _UINT,
        "hash": _HASH,
        "view": _map,
        "events": _list,
        "timers": _TIMERS,
        "legal": _opt(_map),
        "history": _opt(_list),
    },
    "update": {
        "version": _UINT,
        "base": _UINT,
        "hash": _HASH,
        "events": _list,
        "delta": _map,
        "timers": _TIMERS,
        "ack": _opt(_ID),
        "legal": _opt(_map),
    },
    "timers": {"timers": _map},
    "error": {
        "code": _str(1, 40),
        "message": _str(0, 500),
        "id": _opt(_ID),
        "rule": _opt(_str(1, 80)),
        "version": _opt(_UINT),
        "open_seats": _opt(_seats),
        "bot_seats": _opt(_seats),
        "held_seats": _opt(_held),
    },
    "pong": {"n": _opt(_ID)},
    "ping": {"n": _opt(_ID)},
    "said": {"seat": _SEAT, "phrase": _str(1, 40)},
    "gave_up": {"seat": _SEAT, "reason": _enum(*GAVE_UP_REASONS)},
    "bye": {"reason": _str(1, 40)},
}


def _check(msg: Any, schemas: dict[str, dict[str, Check]], deep: bool = True) -> dict:
    if not isinstance(msg, dict):
        raise ProtocolError("bad_message", "a message must be a map")
    if type(msg) is RepeatedKeyMap:
        _bad_type(msg)
    if deep:
        check_plain(msg)
    kind = msg.get("t")
    if not isinstance(kind, str):
        raise ProtocolError("bad_message", "a message needs a string field 't' (its type)")
    schema = schemas.get(kind)
    if schema is None:
        shown = kind if len(kind) <= 40 else kind[:37] + "..."
        raise ProtocolError("unknown_type", f"unknown message type {shown!r}")
    extra = msg.keys() - schema.keys()
    extra.discard("t")
    if extra:
        names = sorted(extra)[:5]
        raise ProtocolError("bad_message", f"{kind}: unexpected fields {names}")
    for field, check in schema.items():
        if field not in msg:
            if getattr(check, "optional", False):
                continue
            raise ProtocolError("bad_message", f"{kind}: missing field {field!r}")
        check(field, msg[field])
    return msg


def check_client_message(msg: Any) -> dict:
    """Validate a message from a client; returns it or raises ProtocolError."""
    return _check(msg, CLIENT_MESSAGES)


def check_host_message(msg: Any, deep: bool = True) -> dict:
    """Validate a message from the host. ``deep=False`` checks the type and every field
    but not the contents of maps and arrays (the client does that for the small messages
    and guards its handling of views and events instead: the decoder already allows no
    binary and no ext types)."""
    return _check(msg, HOST_MESSAGES, deep)


def action_message(action: dict, version: int, id: int) -> dict:
    """The one ``action`` message a client sends: ``action`` (its wire form) made on
    ``version``, answered by an ``update`` with ``ack == id`` or an ``error`` with ``id``."""
    return {"t": "action", "version": version, "action": action, "id": id}


def error(code: str, message: str | None = None, **extra: Any) -> dict:
    """An error reply; ``extra`` may carry id, rule, version."""
    if code not in ERRORS:  # pragma: no cover - a programming error
        raise ValueError(f"unknown error code {code}")
    msg = {"t": "error", "code": code, "message": (message or ERRORS[code][1])[:500]}
    for key, value in extra.items():
        if value is not None:
            msg[key] = value
    return msg


# --------------------------------------------------------------------------- codes


def random_code() -> str:
    return "".join(secrets.choice(string.ascii_uppercase) for _ in range(CODE_LENGTH))


def normalize_code(code: str | None) -> str | None:
    """What a person typed as a room code (spaces around it, any case) as the upper-case
    4-letter code, or None if it is not one. For the screens and the command line; the
    host reads ``hello.code`` with ``code_from_wire``."""
    if not isinstance(code, str):
        return None
    code = code.strip().upper()
    if len(code) == CODE_LENGTH and all(c in string.ascii_uppercase for c in code):
        return code
    return None


_WIRE_CODE = re.compile(rf"[A-Za-z]{{{CODE_LENGTH}}}")


def code_from_wire(code: str | None) -> str | None:
    """``hello.code`` as the host compares it: exactly four ASCII letters, either case
    (nothing around them), upper-cased; None for anything else (a wrong code)."""
    if isinstance(code, str) and _WIRE_CODE.fullmatch(code):
        return code.upper()
    return None


def new_token() -> str:
    return secrets.token_hex(TOKEN_HEX // 2)


def is_token(token: object) -> bool:
    """A reconnect token's shape: 32 lower-case hex digits."""
    return (
        isinstance(token, str)
        and len(token) == TOKEN_HEX
        and all(c in "0123456789abcdef" for c in token)
    )


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode("ascii")).hexdigest()
