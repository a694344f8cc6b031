"""The view a client keeps in step with the host, and its proof: ``view_delta`` (the
top-level keys that changed), ``apply_delta``, and the view hash (docs/PROTOCOL.md §6):
``view_hash`` for a whole view, ``ViewHasher`` re-encoding only the keys that changed.
Re-exported by ``net.protocol``, which the rest of ``net`` reads them from.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

HASH_HEX = 16  # the short view hash: 64 bits as 16 lower-case hex digits

STATIC_KEYS = frozenset({"board"})  # never in a delta nor in the hash (``board_id`` is)


_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def _not_json(value: Any) -> Any:
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


# ``_CANONICAL.encode`` without its per-call set-up: the C encoder made once, and no check
# for circular references (decoded messages and the engine's views have none; one would
# end in a RecursionError instead of a ValueError)
_MAKE = json.encoder.c_make_encoder
_ENCODE_C = (
    _MAKE(None, _not_json, json.encoder.encode_basestring_ascii, None, ":", ",", True, False, True)
    if _MAKE is not None
    else None
)


def canonical(value: Any) -> str:
    """Canonical JSON: keys sorted, no spaces, non-ASCII escaped (what the hash is over)."""
    if _ENCODE_C is None:  # pragma: no cover - a Python without the json accelerator
        return _CANONICAL.encode(value)
    return "".join(_ENCODE_C(value, 0))


def view_hash(view: dict) -> str:
    """The short hash of a view: the first 16 hex digits of the SHA-256 of its canonical
    JSON (keys sorted, no spaces, ASCII escapes), leaving out ``board``."""
    body = {k: v for k, v in view.items() if k not in STATIC_KEYS}
    return hashlib.sha256(canonical(body).encode("ascii")).hexdigest()[:HASH_HEX]


class ViewHasher:
    """``view_hash`` for a view that changes a few top-level keys at a time: it keeps each
    key's canonical JSON (its fragment) and re-encodes only the keys named in ``changed``;
    the fragments are then joined in key order and hashed, as ``view_hash`` does.

    ``memo`` (key -> (value, fragment)) shares fragments between several views holding the
    very same value objects (the host's per-seat views share their public sections).
    A view whose keys are not the ones hashed last (a key more, a key fewer) is hashed
    whole again.
    """

    __slots__ = ("_frags", "_keys", "_size")

    def __init__(self) -> None:
        self._frags: dict[str, str] = {}
        self._keys: list[str] | None = None  # the hashed keys, sorted
        self._size = -1  # len(view) when the keys were taken

    def __call__(self, view: dict, changed=None, memo: dict | None = None) -> str:
        frags = self._frags
        if changed is None or self._keys is None or len(view) != self._size:
            fresh = {k: _fragment(k, v, memo) for k, v in view.items() if k not in STATIC_KEYS}
            self._frags = frags = fresh
            self._keys = sorted(fresh)
            self._size = len(view)
        else:
            # every fragment first, then stored: a value that cannot be encoded leaves
            # the hasher as it was
            redo = [(k, _fragment(k, view[k], memo)) for k in changed if k not in STATIC_KEYS]
            for k, _ in redo:
                if k not in frags:  # a key the last view did not have
                    self._keys = None
                    return self(view, None, memo)
            frags.update(redo)
        blob = "{" + ",".join([frags[k] for k in self._keys]) + "}"
        return hashlib.sha256(blob.encode("ascii")).hexdigest()[:HASH_HEX]


def _fragment(key: str, value: Any, memo: dict | None) -> str:
    """``"key":<canonical JSON of value>``, shared through ``memo`` for the same object."""
    if memo is not None:
        hit = memo.get(key)
        if hit is not None and hit[0] is value:
            return hit[1]
    frag = f"{_key_json(key)}:{canonical(value)}"
    if memo is not None:
        memo[key] = (value, frag)
    return frag


_KEY_JSON: dict[str, str] = {}


def _key_json(key: str) -> str:
    out = _KEY_JSON.get(key)
    if out is None:
        out = json.dumps(key, ensure_ascii=True)
        if len(_KEY_JSON) < 256:
            _KEY_JSON[key] = out
    return out


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
