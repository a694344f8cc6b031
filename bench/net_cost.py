"""Where one LAN action's time goes, step by step (``bench/net.py --breakdown``).

The host process (and the clients' process) of a ``bench/net.py`` run wrap the functions of
the per-action path with a clock before the host starts: each step's time is summed per
action (a step inside another counts in both: the table is a tree), and an action's whole
handling is also taken in thread CPU time. Wrapping costs ~0.2 us per step call, and the
step names follow the code: a step whose function does not exist (any more) is left out.
Figures are medians over the actions (the machine is shared: a mean would carry every
preemption) plus the process's CPU time per action, which also holds the event loop's own
work (the reads, ``epoll``, the task switches) that no step covers.
"""

from __future__ import annotations

import os
import statistics
import time
from collections import Counter
from collections.abc import Callable

_cpu = time.thread_time_ns
#: NET_COST_CLOCK=cpu: the steps in thread CPU time (each reading costs ~1-2 us more)
_ns = _cpu if os.environ.get("NET_COST_CLOCK") == "cpu" else time.perf_counter_ns


class StepClock:
    """Per-action sums of wrapped functions' wall time (ns), one ``Counter`` per action."""

    def __init__(self) -> None:
        self.actions: list[Counter] = []
        self.cur: Counter | None = None

    def wrap(self, owner, name: str, step: str, *, static: bool = False) -> None:
        raw = owner.__dict__.get(name)
        if raw is None:
            return
        original = raw.__func__ if isinstance(raw, staticmethod) else raw
        clock = self

        def timed(*args, **kwargs):
            cur = clock.cur
            if cur is None:
                return original(*args, **kwargs)
            t = _ns()
            try:
                return original(*args, **kwargs)
            finally:
                cur[step] += _ns() - t

        timed.__wrapped__ = original
        setattr(
            owner, name, staticmethod(timed) if static or isinstance(raw, staticmethod) else timed
        )

    def begin(self) -> None:
        self.cur = Counter()

    def end(self, keep: bool) -> None:
        if keep and self.cur is not None:
            self.actions.append(self.cur)
        self.cur = None

    def summary(self) -> dict[str, tuple[float, float]]:
        """step -> (median us, mean us) over the actions (0 where a step did not run)."""
        steps = {s for c in self.actions for s in c}
        n = len(self.actions)
        out = {}
        for s in sorted(steps):
            values = [c.get(s, 0) / 1000 for c in self.actions]
            out[s] = (statistics.median(values), sum(values) / n)
        return out


def instrument_host(clock: StepClock) -> Callable[[], dict]:
    """Wrap the host's per-action path (call before the Host is made). Returns a function
    giving the extra figures (CPU per action, thread CPU of the handler)."""
    import game.table.master as master_mod
    import net.host.fanout as fanout_mod
    from game.rules.game import Game
    from game.table.bot_schedule import BotScheduler
    from game.table.countdowns import Countdowns
    from net import protocol as P
    from net.host.action_check import ActionCheck
    from net.host.connections import Connections
    from net.host.fanout import FanOut
    from net.host.saved_table import SavedTable
    from net.host.server import Host

    handler_cpu: list[int] = []
    marks = {"cpu0": None, "actions0": 0, "cpu1": None, "actions1": 0}

    original_on_frame = Host._on_frame

    def on_frame(self, conn, raw):
        if not (type(raw) is dict and raw.get("t") == "action"):
            return original_on_frame(self, conn, raw)
        before = self.stats["actions"]
        if marks["cpu0"] is None:
            marks["cpu0"], marks["actions0"] = time.process_time_ns(), before
        clock.begin()
        c0, t0 = _cpu(), _ns()
        try:
            return original_on_frame(self, conn, raw)
        finally:
            t1, c1 = _ns(), _cpu()
            applied = self.stats["actions"] > before
            if applied:
                clock.cur["handler"] += t1 - t0
                handler_cpu.append(c1 - c0)
                marks["cpu1"], marks["actions1"] = time.process_time_ns(), self.stats["actions"]
            clock.end(applied)

    Host._on_frame = on_frame
    gc_ns = watch_gc()
    clock.wrap(P, "check_client_message", "1 message checked")
    clock.wrap(Connections, "rate_ok", "1 rate limit")
    clock.wrap(ActionCheck, "check", "2 action check (shape, seat, legal, version)")
    clock.wrap(master_mod.Master, "submit", "3 Master.submit")
    clock.wrap(Game, "apply", "3.1 engine apply")
    clock.wrap(SavedTable, "record", "3.2 journal")
    clock.wrap(Countdowns, "after", "3.3 countdowns")
    clock.wrap(FanOut, "publish", "3.4 publish")
    clock.wrap(FanOut, "remember", "3.4.1 recent events kept")
    clock.wrap(FanOut, "audiences", "3.4.2 audiences", static=True)
    clock.wrap(Countdowns, "countdowns_data", "3.3.1 countdowns (when they changed)")
    clock.wrap(FanOut, "_update_frames", "3.4.4 update frames")
    clock.wrap(FanOut, "shared_now", "3.4.4.a public sections")
    try:  # the views kept in step (net/host/views.py)
        from net.host.views import TableViews

        clock.wrap(TableViews, "public", "3.4.4.a public sections")
        clock.wrap(TableViews, "advance", "3.4.4.b seat views, deltas (and hashes)")
    except ImportError:
        pass
    clock.wrap(fanout_mod, "compose_view", "3.4.4.b seat views")
    clock.wrap(P, "view_delta", "3.4.4.c deltas")
    clock.wrap(P.ViewHasher, "__call__", "3.4.4.d hashes")
    clock.wrap(fanout_mod, "events_for", "3.4.4.e events redacted")
    clock.wrap(P, "encode", "3.4.4.f encode")
    clock.wrap(P, "encode_map", "3.4.4.f encode")
    clock.wrap(Connections, "send", "3.4.5 write (socket send)")
    clock.wrap(BotScheduler, "after_action", "3.5 bot scheduler (bots hear, plan)")

    def figures() -> dict:
        n = marks["actions1"] - marks["actions0"]
        cpu = (
            (marks["cpu1"] - marks["cpu0"]) / n / 1000 if n > 0 and marks["cpu1"] else None
        )  # the first action's own CPU is left out with its start
        return {
            "process_cpu_us_per_action": cpu,
            "handler_cpu_us": [c / 1000 for c in handler_cpu],
            "gc_us_per_action": {g: ns / max(1, n) / 1000 for g, ns in gc_ns.items()},
        }

    return figures


def instrument_clients(clock: StepClock) -> Callable[[], dict]:
    """Wrap the clients' reading of an update (the sequential mode's clients): each read
    callback that handled an update is one unit, from the bytes to the typed message
    handed on (the decoding, the message's check, the view followed, the callback), with
    the garbage collector's time inside it as a step of its own."""
    import gc

    from net import protocol as P
    from net.client import follow
    from net.client.link import HostLink
    from net.client.session import ClientSession

    cpu: list[int] = []
    original_read = HostLink.buffer_updated
    original_raw = ClientSession._on_raw
    saw_update = [False]

    def buffer_updated(self, nbytes):
        clock.begin()
        saw_update[0] = False
        c0, t0 = _cpu(), _ns()
        try:
            return original_read(self, nbytes)
        finally:
            clock.cur["c0 read callback (decoded, handled)"] += _ns() - t0
            if saw_update[0]:
                cpu.append(_cpu() - c0)
            clock.end(saw_update[0])

    def on_raw(self, raw):
        if not (type(raw) is dict and raw.get("t") == "update") or clock.cur is None:
            return original_raw(self, raw)
        saw_update[0] = True
        t0 = _ns()
        try:
            return original_raw(self, raw)
        finally:
            clock.cur["c0.2 client update (_on_raw)"] += _ns() - t0

    began = [0]

    def collected(phase: str, info: dict) -> None:
        if phase == "start":
            began[0] = _ns()
        elif clock.cur is not None:
            clock.cur["c0.1 garbage collector"] += _ns() - began[0]

    gc.callbacks.append(collected)
    HostLink.buffer_updated = buffer_updated
    ClientSession._on_raw = on_raw
    clock.wrap(P, "check_host_message", "c0.2.1 message checked")
    clock.wrap(follow.ViewFollower, "update", "c0.2.2 follower.update")
    clock.wrap(P, "apply_delta", "c0.2.2.1 delta applied")
    clock.wrap(P.ViewHasher, "__call__", "c0.2.2.2 hash")
    clock.wrap(follow, "countdowns_from", "c0.2.2.3 countdowns read")
    return lambda: {"client_read_cpu_us": [c / 1000 for c in cpu]}


def watch_gc() -> Counter:
    """The garbage collector's time by generation (ns), from now on."""
    import gc

    spent: Counter = Counter()
    began = [0]

    def callback(phase: str, info: dict) -> None:
        if phase == "start":
            began[0] = _ns()
        else:
            spent[info["generation"]] += _ns() - began[0]
            spent[f"runs{info['generation']}"] += 1

    gc.callbacks.append(callback)
    return spent


def print_breakdown(title: str, summary: dict[str, tuple[float, float]]) -> None:
    print(title)
    for step, (median, mean) in summary.items():
        depth = step.split(" ")[0].count(".")
        print(f"  {'  ' * depth}{step:<52} median {median:8.1f} us   mean {mean:8.1f} us")


class CpuSampler:
    """A statistical profile in CPU time: ``ITIMER_PROF`` interrupts the process every
    ``interval`` s of its CPU time (user and kernel) and the handler records the Python
    stack it interrupted (the main thread's), so each sample is that much CPU spent there.
    It sees what no wrapped step covers: the event loop, reading, the garbage collector."""

    def __init__(self, interval: float = 0.0002) -> None:
        self.interval = interval
        self.stacks: Counter = Counter()
        self.on = False

    def start(self) -> None:
        import signal

        def sample(signum, frame) -> None:
            if not self.on:
                return
            stack = []
            while frame is not None:
                code = frame.f_code
                stack.append(f"{code.co_filename.rsplit('/', 2)[-1]}:{code.co_name}")
                frame = frame.f_back
            self.stacks[tuple(reversed(stack))] += 1

        signal.signal(signal.SIGPROF, sample)
        signal.setitimer(signal.ITIMER_PROF, self.interval, self.interval)

    def inclusive(self) -> Counter:
        """function -> samples with it anywhere on the stack."""
        out: Counter = Counter()
        for stack, n in self.stacks.items():
            for name in set(stack):
                out[name] += n
        return out

    def leaf(self) -> Counter:
        out: Counter = Counter()
        for stack, n in self.stacks.items():
            out[stack[-1]] += n
        return out
