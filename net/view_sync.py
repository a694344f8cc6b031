"""The view a client keeps in step with the host, and its proof: ``view_delta`` (the
top-level keys that changed), ``apply_delta``, and the view hash (docs/PROTOCOL.md §6):
``view_hash`` for a whole view, ``ViewHasher`` packing only the keys that changed.
Re-exported by ``net.protocol``, which the rest of ``net`` reads them from.

The hash is over msgpack, the wire's own encoding: a client hashes the values it unpacked
from the host's bytes, which pack back to those very bytes (shortest forms, maps in the
order sent), so it re-packs what a delta brought instead of writing JSON.
"""

from __future__ import annotations

import hashlib
from typing import Any

import msgpack

HASH_HEX = 16  # the short view hash: 64 bits as 16 lower-case hex digits

STATIC_KEYS = frozenset({"board"})  # never in a delta nor in the hash (``board_id`` is)

# the wire's one packer: net.protocol encodes every message with it, the hash every view
pack = msgpack.Packer(use_bin_type=True, autoreset=True).pack
_sha256 = hashlib.sha256


def map_header(n: int) -> bytes:
    """The msgpack header of a map of ``n`` pairs, as the packer writes it."""
    return bytes((0x80 | n,)) if n < 16 else b"\xde" + n.to_bytes(2, "big")


def fragment(key: str, value: Any) -> bytes:
    """One pair of the hashed map: the key's msgpack bytes, then the value's."""
    return pack(key) + pack(value)


def view_hash(view: dict) -> str:
    """The short hash of a view: the first 16 hex digits of the SHA-256 of the view as one
    msgpack map, ``board`` left out, its top-level keys sorted (every value as sent)."""
    keys = sorted(k for k in view if k not in STATIC_KEYS)
    body = b"".join([map_header(len(keys)), *[fragment(k, view[k]) for k in keys]])
    return _sha256(body).hexdigest()[:HASH_HEX]


class ViewHasher:
    """``view_hash`` for a view that changes a few top-level keys at a time: it keeps each
    key's packed pair (its fragment), in key order, and packs only the keys named in
    ``changed``; the fragments are then joined and hashed, as ``view_hash`` does.

    ``memo`` (key -> (value, fragment)) shares fragments between several views holding the
    very same value objects (the host's per-seat views share their public sections).
    A view whose keys are not the ones hashed last (a key more, a key fewer) is hashed
    whole again.
    """

    __slots__ = ("_frags", "_size", "_head")

    def __init__(self) -> None:
        self._frags: dict[str, bytes] | None = None  # key -> fragment, keys sorted
        self._size = -1  # len(view) when the keys were taken
        self._head = b""  # the map's header

    def __call__(self, view: dict, changed=None, memo: dict | None = None) -> str:
        frags = self._frags
        if changed is None or frags is None or len(view) != self._size:
            return self._whole(view, memo)
        # every fragment first, then stored: a value that cannot be packed leaves the
        # hasher as it was
        if memo is None:
            redo = {k: pack(k) + pack(view[k]) for k in changed if k not in STATIC_KEYS}
        else:
            redo = {k: _fragment(k, view[k], memo) for k in changed if k not in STATIC_KEYS}
        if not frags.keys() >= redo.keys():  # a key the last view did not have
            return self._whole(view, memo)
        frags.update(redo)  # known keys keep their places: the order stays sorted
        return _sha256(self._head + b"".join(frags.values())).hexdigest()[:HASH_HEX]

    def _whole(self, view: dict, memo: dict | None) -> str:
        keys = sorted(k for k in view if k not in STATIC_KEYS)
        frags = {k: _fragment(k, view[k], memo) for k in keys}
        self._frags, self._size, self._head = frags, len(view), map_header(len(frags))
        return _sha256(self._head + b"".join(frags.values())).hexdigest()[:HASH_HEX]


def _fragment(key: str, value: Any, memo: dict | None) -> bytes:
    """``fragment(key, value)``, shared through ``memo`` for the same object."""
    if memo is not None:
        hit = memo.get(key)
        if hit is not None and hit[0] is value:
            return hit[1]
    frag = pack(key) + pack(value)
    if memo is not None:
        memo[key] = (value, frag)
    return frag


def view_delta(old: dict | None, new: dict) -> dict:
    """The top-level keys of ``new`` whose values differ from ``old`` (``board`` never)."""
    if old is None:
        return {k: v for k, v in new.items() if k not in STATIC_KEYS}
    return {k: v for k, v in new.items() if k not in STATIC_KEYS and old.get(k, _MISSING) != v}


_MISSING = object()


def apply_delta(view: dict, delta: dict) -> dict:
    """A new view: ``view`` with the top-level keys of ``delta`` replaced (``view`` is
    left untouched, so a copy handed to another thread stays valid)."""
    out = dict(view)
    out.update(delta)
    return out
