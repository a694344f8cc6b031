"""The route of one LAN action, traced: how many of the project's own functions (files under
game/ and net/) an action passes through from the table's submit (`NetSession.send`, what a
click calls) to every seat's client holding the new state. docs/ARCHITECTURE.md lists the
route ("The route of one action").

The route is read with `sys.setprofile` (and `threading.setprofile` for the host's and the
clients' threads) on a real host and two real clients over loopback. A function is on the
route when it is on a thread's stack at one of the moments the action moves on:
- it leaves a thread: `call_soon_threadsafe` (the window to the client's loop) or a
  `queue.Queue.put` (the client's loop to the window);
- it leaves a process's hands: a socket `send` (the action to the host, the updates back);
- it arrives: a seat's client holds the new version (`client.state.version`) and its
  session has the update queued for the table (`NetSession.poll`).
Work done beside the route (the engine, the journal, the views and their hashes) returns
before those moments and is not counted.
"""

from __future__ import annotations

import asyncio
import re
import socket
import sys
import threading
import time
from pathlib import Path

from game.rules import legal_actions
from game.table.bot_schedule import Timing
from game.ui.sessions.net_session import NetSession
from net.client.session import Client
from net.host.thread import HostThread
from tests.net_helpers import config_for_tests

ROOT = Path(__file__).resolve().parents[2]
OWN = (str(ROOT / "game") + "/", str(ROOT / "net") + "/")
#: the most functions one action may pass through: 23 before issue 34 (its goal: 12)
MAX_HOPS = 15
GUARD = 30.0
#: where a thread's route begins: the event loop's callbacks, a thread's start, the test
_BASE = re.compile(r"/asyncio/|/threading\.py$|/tests/")


def _own(frame) -> str | None:
    path = frame.f_code.co_filename
    if not path.startswith(OWN):
        return None
    return f"{Path(path).relative_to(ROOT).with_suffix('')}.{frame.f_code.co_qualname}"


class RouteTracer:
    """Collects the project's functions on the stack at each moment the action moves on."""

    def __init__(self, sessions: list[NetSession]) -> None:
        self.sessions = sessions
        self.armed = False
        self.version: int | None = None
        self.route: dict[str, None] = {}  # in the order first seen
        self.arrived: set[tuple[int, str]] = set()  # (seat, "state" | "table")
        self.ui = threading.get_ident()

    def _stack(self, frame) -> None:
        """The project's functions on the stack down to the callback the loop (or the
        test) called: the thread's own start (`asyncio.run` in `Client._run`) is not."""
        names = []
        while frame is not None and _own(frame) is None:  # the socket's, the queue's
            frame = frame.f_back
        while frame is not None and not _BASE.search(frame.f_code.co_filename):
            name = _own(frame)
            if name is not None:
                names.append(name)
            frame = frame.f_back
        for name in reversed(names):
            self.route.setdefault(name)

    def __call__(self, frame, event, arg):
        if not self.armed:
            return
        if event == "c_call":
            if getattr(arg, "__name__", "") in ("send", "sendall", "sendmsg") and isinstance(
                getattr(arg, "__self__", None), socket.socket
            ):
                self._stack(frame)
        elif event == "call":
            code = frame.f_code
            if code.co_name == "call_soon_threadsafe" or (
                code.co_name == "put" and code.co_filename.endswith("queue.py")
            ):
                self._stack(frame.f_back)
        elif event == "return" and threading.get_ident() == self.ui and _own(frame):
            self._arrivals(frame)

    def _arrivals(self, frame) -> None:
        for seat, s in enumerate(self.sessions):
            held = s.client.state.version == self.version
            queued = any(b.version == self.version for b in s._batches)
            for what, now in (("state", held), ("table", queued)):
                if now and (seat, what) not in self.arrived:
                    self.arrived.add((seat, what))
                    self._stack(frame)

    @property
    def done(self) -> bool:
        return len(self.arrived) == 2 * len(self.sessions)


def _until(cond, sessions, what: str) -> None:
    end = time.monotonic() + GUARD
    while not cond():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        for s in sessions:
            s.update(0.01)
        time.sleep(0.002)


def test_one_lan_action_passes_through_at_most_max_hops_functions():
    timing = Timing(bot_answer=0.0, bot_delay=0.0, bot_tick=0.005, fair_start=0.0)
    config = config_for_tests(seats=2, code="ROUT", seed=5, timing=timing)
    tracer = RouteTracer([])
    threading.setprofile(tracer)  # the host's and the clients' threads, started below
    sys.setprofile(tracer)
    ht = HostThread(config).start()
    sessions = []
    try:
        for name in ("Mei", "Ann"):
            client = Client(("127.0.0.1", ht.port), name=name, code="ROUT").start()
            sessions.append(NetSession(client))
            _until(lambda: sessions[-1].viewer is not None, sessions, f"{name} seated")
        tracer.sessions = sessions

        async def start():
            ht.host.live.begin()

        asyncio.run_coroutine_threadsafe(start(), ht._loop).result(10)
        _until(lambda: all(s.has_view for s in sessions), sessions, "the opening snapshot")
        for s in sessions:
            s.poll()
        mover = next(s for s in sessions if s.decision_seat() is not None)
        action = next(iter(legal_actions(ht.host.state, mover.viewer).moves()))
        tracer.version = mover.client.state.version + 1
        tracer.armed = True
        mover.send(action)  # what the table's click does (TableScene.send)
        _until(lambda: tracer.done, sessions, "every seat's new state")
        tracer.armed = False
    finally:
        sys.setprofile(None)
        threading.setprofile(None)
        for s in sessions:
            s.disconnect()
        ht.stop()
    route = list(tracer.route)
    print("\n".join(route))
    assert len(route) <= MAX_HOPS, f"{len(route)} hops:\n" + "\n".join(route)
