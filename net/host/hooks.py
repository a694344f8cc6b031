"""The host's supported observation points: audits, benchmarks and fault tests watch (or
stand in for) what leaves the host through these instead of patching its private methods.

    hooks = HostHooks(update=lambda events: ...)
    host = Host(config, hooks=hooks)     # or set a field later: host.hooks.snapshot = ...
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

#: (connection, message, encoded frame), called for every frame just before it is written
Tap = Callable[[Any, dict, bytes], None]


@dataclass
class HostHooks:
    """Each ``None`` unless someone watches; the host reads the fields at every call, so a
    hook set after the host was made takes effect at once."""

    #: every frame the host sends (``Connections.send`` is the single way out)
    tap: Tap | None = None
    #: an applied action's events, before any of its ``update`` frames is built
    update: Callable[[list], None] | None = None
    #: (connection, the events shown with it) before a ``snapshot`` frame is built
    snapshot: Callable[[Any, list], None] | None = None
    #: (connection, message) when a checked client message is about to be handled; what it
    #: raises is treated as a bug in the handler (fault tests: only that connection closes)
    received: Callable[[Any, dict], None] | None = None
    #: (connection, message, seconds) after a client message was handled (its frames sent)
    handled: Callable[[Any, dict, float], None] | None = None
