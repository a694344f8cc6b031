"""Who a ``hello`` lets in: the gate in front of the host's seats.

In order: not joined yet, a protocol version this host speaks, room for one more spectator,
then a seat's token (a rejoin: ``SeatTable`` checks it), or else the room code (wrong codes
cost the address a try, ``Connections`` keeps the count), a printable name and a game not
over. The host calls this one way and seats whoever it lets in.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from net import protocol as P
from net.host.connections import Connection, Connections, Limits
from net.names import player_name


class Entry(enum.Enum):
    """How an admitted connection comes in."""

    SPECTATOR = "spectator"
    REJOIN = "rejoin"  # with a seat's token (still to be checked against the seats)
    NEW_PLAYER = "new_player"  # may claim a free seat under ``name``


@dataclass(frozen=True)
class Admitted:
    entry: Entry
    name: str = ""  # the cleaned name (a new player)
    token: str = ""  # the seat's token (a rejoin)


@dataclass(frozen=True)
class HelloRefusal:
    """The error the host sends back (``protocol.error`` code and message)."""

    code: str
    message: str | None = None


class Admission:
    """Checks a connection's ``hello`` against the table (the room code, limits, the game)."""

    def __init__(self, connections: Connections, limits: Limits) -> None:
        self.connections = connections
        self.limits = limits

    def check(self, conn: Connection, msg: dict, *, code: str, over: bool) -> Admitted | HelloRefusal:
        if conn.role is not None:
            return HelloRefusal("already_joined")
        if msg["v"] not in P.SUPPORTED_VERSIONS:
            supported = ", ".join(map(str, P.SUPPORTED_VERSIONS))
            return HelloRefusal("version", f"this host speaks protocol {supported}, not {msg['v']}")
        if msg["role"] == "spectator":
            watching = sum(1 for c in self.connections.conns if c.role == "spectator")
            if watching >= self.limits.max_spectators:
                return HelloRefusal("too_many_connections", "too many spectators")
            return Admitted(Entry.SPECTATOR)
        token = msg.get("token")
        if token:
            return Admitted(Entry.REJOIN, token=token)
        return self._newcomer(conn, msg, code, over)

    def _newcomer(self, conn: Connection, msg: dict, code: str, over: bool) -> Admitted | HelloRefusal:
        if not self.connections.code_allowed(conn):
            return HelloRefusal("too_many_attempts", "too many wrong room codes from this address; wait")
        if P.code_from_wire(msg.get("code")) != code:
            conn.bad_codes += 1
            self.connections.wrong_code(conn)
            if conn.bad_codes >= self.limits.max_code_attempts:
                return HelloRefusal("too_many_attempts")
            return HelloRefusal("bad_code", "wrong room code (4 letters, shown on the host)")
        name, problem = player_name(msg.get("name") or "")
        if problem is not None:
            return HelloRefusal("bad_name", problem)
        if over:
            return HelloRefusal("table_full", "the game is over")
        return Admitted(Entry.NEW_PLAYER, name=name)
