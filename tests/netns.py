"""Network-namespace harness for multi-host network tests (Linux, root only).

Builds a small private LAN out of network namespaces so that tests can run a
"host" and a "client" (or N machines) on separate network stacks on one box,
with working link-local multicast (mDNS needs 224.0.0.251).

    with netns_network(2) as net:          # skips the test if unavailable
        a, b = net.nodes
        proc = a.popen_python("some_script.py")          # a process in A
        out = b.call(some_module_level_function, 1, 2)  # a function in B
        with b.entered():                                # this thread in B
            sock = socket.socket(...)                    # socket lives in B

Topology:
  * n == 2: one veth pair, one end in each namespace (``itb0`` in both).
  * n > 2:  a hub namespace holding a Linux bridge; every node namespace has a
    veth ``itb0`` whose peer is a bridge port in the hub.

Every namespace gets ``lo`` up, ``itb0`` up with multicast on, an address
``10.231.<k>.<i+1>/24`` and a route for 224.0.0.0/4 over ``itb0`` (so sockets
that do not pin a multicast interface still reach the group).  Devices are
created directly inside the namespaces (``ip link add ... netns X``), so no
interface of the real host is ever created, renamed or touched.

Names are unique per run (``itbt-<pid>-<random>-<role>``), so parallel runs do
not collide.  ``close()`` kills every process the harness started (and any
other process still inside its namespaces — only the harness put them there),
then deletes the links and namespaces; it runs from ``__exit__`` and at
interpreter exit, and a later run sweeps namespaces left behind by a run that
was SIGKILLed (owner pid dead).
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import itertools
import json
import os
import pickle
import re
import secrets
import shutil
import signal
import subprocess
import sys
import threading
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
NAME_PREFIX = "itbt"
IFNAME = "itb0"
SUBNET_FMT = "10.231.{net}.{host}"
PREFIXLEN = 24
_NAME_RE = re.compile(rf"^{NAME_PREFIX}-(\d+)-[0-9a-f]{{6}}-\w+$")
_CLONE_NEWNET = 0x40000000
_counter = itertools.count(1)
_live: set[NetnsNetwork] = set()
_live_lock = threading.Lock()
_unavailable: list[str | None] = []  # cache: [reason or None]


class NetnsError(RuntimeError):
    pass


# --------------------------------------------------------------------------- helpers


def _ip(*args: str, check: bool = True, timeout: float = 10.0) -> subprocess.CompletedProcess:
    proc = subprocess.run(
        ["ip", *args], capture_output=True, text=True, timeout=timeout, check=False
    )
    if check and proc.returncode != 0:
        raise NetnsError(f"ip {' '.join(args)} failed ({proc.returncode}): {proc.stderr.strip()}")
    return proc


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _setns(fd: int) -> None:
    """setns(fd, CLONE_NEWNET) for the calling thread only."""
    native = getattr(os, "setns", None)  # Python >= 3.12
    if native is not None:
        native(fd, _CLONE_NEWNET)
        return
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.setns(fd, _CLONE_NEWNET) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"setns: {os.strerror(err)}")


def unavailable_reason() -> str | None:
    """Why namespaces cannot be used here, or None if they can (cached)."""
    if _unavailable:
        return _unavailable[0]
    reason: str | None = None
    if not sys.platform.startswith("linux"):
        reason = "network namespaces need Linux"
    elif os.geteuid() != 0:
        reason = "network namespaces need root (run the netns tests as root)"
    elif shutil.which("ip") is None:
        reason = "iproute2 'ip' command not found"
    else:
        probe = f"{NAME_PREFIX}-{os.getpid()}-{secrets.token_hex(3)}-probe"
        try:
            res = _ip("netns", "add", probe, check=False)
            if res.returncode != 0:
                reason = f"'ip netns add' is not permitted here: {res.stderr.strip()}"
            else:
                res = _ip("-n", probe, "link", "set", "lo", "up", check=False)
                if res.returncode != 0:
                    reason = f"cannot configure a namespace: {res.stderr.strip()}"
        except (OSError, subprocess.SubprocessError) as exc:
            reason = f"'ip netns' unavailable: {exc}"
        finally:
            _ip("netns", "del", probe, check=False)
    _unavailable.append(reason)
    return reason


def require_netns() -> None:
    """pytest.skip() with a clear reason when namespaces are unavailable."""
    reason = unavailable_reason()
    if reason is not None:
        import pytest

        pytest.skip(reason)


def sweep_stale() -> list[str]:
    """Delete namespaces named by this harness whose owning process is dead.

    Only names matching ``itbt-<pid>-<6 hex>-<role>`` with a dead <pid> are
    touched, i.e. leftovers of an earlier run of this harness killed hard.
    """
    res = _ip("netns", "list", check=False)
    removed = []
    for line in res.stdout.splitlines():
        name = line.split()[0] if line.split() else ""
        m = _NAME_RE.match(name)
        if m and not _pid_alive(int(m.group(1))):
            _kill_ns_pids(name)
            if _ip("netns", "del", name, check=False).returncode == 0:
                removed.append(name)
    return removed


def _ns_pids(name: str) -> list[int]:
    res = _ip("netns", "pids", name, check=False)
    return [int(p) for p in res.stdout.split() if p.isdigit()]


def _kill_ns_pids(name: str) -> None:
    for pid in _ns_pids(name):
        if pid == os.getpid():
            continue
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


# --------------------------------------------------------------------------- nodes


@dataclass(eq=False)
class Netns:
    """One namespace ("machine") of a NetnsNetwork."""

    name: str
    address: str
    ifname: str = IFNAME
    prefixlen: int = PREFIXLEN
    _procs: list[subprocess.Popen] = field(default_factory=list, repr=False)

    @property
    def path(self) -> str:
        return f"/var/run/netns/{self.name}"

    def argv(self, *cmd: str) -> list[str]:
        """Command line that runs ``cmd`` inside this namespace."""
        return ["ip", "netns", "exec", self.name, *cmd]

    def python_argv(self, *args: str) -> list[str]:
        return self.argv(sys.executable, *args)

    @staticmethod
    def env(extra: dict[str, str] | None = None) -> dict[str, str]:
        """Environment for child Pythons: repo root importable, unbuffered."""
        env = dict(os.environ)
        paths = [str(REPO_ROOT), *[p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]]
        env["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(paths))
        env["PYTHONUNBUFFERED"] = "1"
        if extra:
            env.update(extra)
        return env

    def run(
        self, cmd: Sequence[str], *, check: bool = True, timeout: float = 30.0, **kw: Any
    ) -> subprocess.CompletedProcess:
        """Run a command in this namespace and wait for it (text mode, captured)."""
        kw.setdefault("capture_output", True)
        kw.setdefault("text", True)
        kw.setdefault("env", self.env())
        return subprocess.run(self.argv(*cmd), check=check, timeout=timeout, **kw)

    def popen(self, cmd: Sequence[str], **kw: Any) -> subprocess.Popen:
        """Start a command in this namespace; it is killed when the network closes."""
        kw.setdefault("env", self.env())
        kw.setdefault("cwd", str(REPO_ROOT))
        proc = subprocess.Popen(self.argv(*cmd), **kw)
        self._procs.append(proc)
        return proc

    def popen_python(self, *args: str, **kw: Any) -> subprocess.Popen:
        """Start ``python ARGS`` (this interpreter) in this namespace."""
        return self.popen([sys.executable, *args], **kw)

    def call(
        self, func: Callable[..., Any], *args: Any, timeout: float = 30.0, **kwargs: Any
    ) -> Any:
        """Run ``func(*args, **kwargs)`` in a fresh Python inside this namespace.

        ``func`` must be importable by reference (a module-level function); the
        child gets this process's ``sys.path``.  Arguments and the result travel
        by pickle over stdin/stdout; an exception in the child is re-raised.
        """
        payload = pickle.dumps(list(sys.path)) + pickle.dumps((func, args, kwargs))
        proc = self.popen_python(
            "-c", _CALL_CHILD, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        try:
            out, err = proc.communicate(payload, timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
            raise
        if proc.returncode != 0 or not out:
            raise NetnsError(
                f"call in {self.name} failed ({proc.returncode}): "
                f"{err.decode(errors='replace')[-2000:]}"
            )
        ok, value = pickle.loads(out)
        if not ok:
            raise value
        return value

    @contextlib.contextmanager
    def entered(self) -> Iterator[Netns]:
        """Move the *calling thread* into this namespace for the block.

        Sockets created inside the block (and threads started inside it) stay
        in this namespace after the block ends.  Other threads are unaffected.
        """
        own = os.open("/proc/thread-self/ns/net", os.O_RDONLY)
        try:
            target = os.open(self.path, os.O_RDONLY)
            try:
                _setns(target)
            finally:
                os.close(target)
            try:
                yield self
            finally:
                _setns(own)
        finally:
            os.close(own)

    def link_info(self) -> dict[str, Any]:
        res = _ip("-j", "-n", self.name, "link", "show", "dev", self.ifname)
        return json.loads(res.stdout)[0]

    def _stop_processes(self) -> None:
        for proc in self._procs:
            if proc.poll() is None:
                with contextlib.suppress(OSError):
                    proc.kill()
        for proc in self._procs:
            with contextlib.suppress(Exception):
                proc.wait(timeout=5)
            for stream in (proc.stdin, proc.stdout, proc.stderr):
                if stream is not None:
                    with contextlib.suppress(Exception):
                        stream.close()
        self._procs.clear()


# Child side of Netns.call (kept as source so the child needs no import of us).
_CALL_CHILD = r"""
import pickle, sys
stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
sys.stdout = sys.stderr  # keep func's prints out of the result channel
sys.path[:0] = [p for p in pickle.load(stdin) if p not in sys.path]
try:
    func, args, kwargs = pickle.load(stdin)
    result = (True, func(*args, **kwargs))
except BaseException as exc:
    result = (False, exc)
stdout.write(pickle.dumps(result))
stdout.flush()
"""


# --------------------------------------------------------------------------- network


class NetnsNetwork:
    """N namespaces on one private L2 segment.  Use as a context manager."""

    def __init__(self, n: int = 2) -> None:
        if n < 2:
            raise ValueError("need at least two namespaces")
        self.n = n
        self.tag = f"{NAME_PREFIX}-{os.getpid()}-{secrets.token_hex(3)}"
        self.subnet = (next(_counter) % 250) + 1
        self.nodes: list[Netns] = []
        self.hub: str | None = None
        self._created: list[str] = []  # namespace names, in creation order
        self._closed = False

    # context manager -----------------------------------------------------
    def __enter__(self) -> NetnsNetwork:
        self.create()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __getitem__(self, i: int) -> Netns:
        return self.nodes[i]

    # build -----------------------------------------------------------------
    def _add_ns(self, role: str) -> str:
        name = f"{self.tag}-{role}"
        _ip("netns", "add", name)
        self._created.append(name)
        _ip("-n", name, "link", "set", "lo", "up")
        return name

    def create(self) -> None:
        with _live_lock:
            _live.add(self)
        try:
            names = [self._add_ns(f"n{i}") for i in range(self.n)]
            for i, name in enumerate(names):
                self.nodes.append(Netns(name, SUBNET_FMT.format(net=self.subnet, host=i + 1)))
            if self.n == 2:
                _ip(
                    "link",
                    "add",
                    IFNAME,
                    "netns",
                    names[0],
                    "type",
                    "veth",
                    "peer",
                    "name",
                    IFNAME,
                    "netns",
                    names[1],
                )
            else:
                self.hub = self._add_ns("hub")
                _ip(
                    "-n",
                    self.hub,
                    "link",
                    "add",
                    "br0",
                    "type",
                    "bridge",
                    "stp_state",
                    "0",
                    "forward_delay",
                    "0",
                    "mcast_snooping",
                    "0",
                )
                for i, name in enumerate(names):
                    port = f"p{i}"
                    _ip(
                        "link",
                        "add",
                        IFNAME,
                        "netns",
                        name,
                        "type",
                        "veth",
                        "peer",
                        "name",
                        port,
                        "netns",
                        self.hub,
                    )
                    _ip("-n", self.hub, "link", "set", port, "master", "br0")
                    _ip("-n", self.hub, "link", "set", port, "up")
                _ip("-n", self.hub, "link", "set", "br0", "up")
            for node in self.nodes:
                ns = node.name
                _ip("-n", ns, "link", "set", IFNAME, "multicast", "on")
                _ip("-n", ns, "addr", "add", f"{node.address}/{PREFIXLEN}", "dev", IFNAME)
                _ip("-n", ns, "link", "set", IFNAME, "up")
                _ip("-n", ns, "route", "add", "224.0.0.0/4", "dev", IFNAME)
            self._wait_up()
        except BaseException:
            self.close()
            raise

    def _wait_up(self, timeout: float = 5.0) -> None:
        deadline = time.monotonic() + timeout
        pending = list(self.nodes)
        while pending:
            pending = [n for n in pending if "LOWER_UP" not in n.link_info().get("flags", [])]
            if not pending:
                return
            if time.monotonic() > deadline:
                raise NetnsError(f"links not up: {[n.name for n in pending]}")
            time.sleep(0.01)

    # teardown --------------------------------------------------------------
    def close(self) -> None:
        """Remove everything this network created.  Idempotent; never raises."""
        if self._closed:
            return
        self._closed = True
        problems = []
        for node in self.nodes:
            try:
                node._stop_processes()
            except Exception as exc:  # pragma: no cover - best effort
                problems.append(f"stop {node.name}: {exc}")
        for name in reversed(self._created):
            try:
                _kill_ns_pids(name)
                # Delete our veth explicitly: a namespace only dies (taking its
                # devices along) when nothing references it any more.
                _ip("-n", name, "link", "del", IFNAME, check=False)
                res = _ip("netns", "del", name, check=False)
                if res.returncode != 0:
                    problems.append(f"netns del {name}: {res.stderr.strip()}")
            except Exception as exc:  # pragma: no cover - best effort
                problems.append(f"{name}: {exc}")
        with _live_lock:
            _live.discard(self)
        if problems:
            warnings.warn("netns cleanup: " + "; ".join(problems), RuntimeWarning, stacklevel=2)

    @property
    def namespaces(self) -> list[str]:
        """All namespace names created (nodes and hub)."""
        return list(self._created)


@contextlib.contextmanager
def netns_network(n: int = 2, *, skip: bool = True) -> Iterator[NetnsNetwork]:
    """Context manager (and pytest-fixture building block) for an N-node LAN.

    With ``skip=True`` (default) the current test is skipped when namespaces
    cannot be used; otherwise NetnsError is raised.
    """
    reason = unavailable_reason()
    if reason is not None:
        if skip:
            require_netns()
        raise NetnsError(reason)
    sweep_stale()
    net = NetnsNetwork(n)
    with net:
        yield net


def list_namespaces() -> list[str]:
    res = _ip("netns", "list", check=False)
    return [line.split()[0] for line in res.stdout.splitlines() if line.split()]


@atexit.register
def _close_all() -> None:
    with _live_lock:
        live = list(_live)
    for net in live:
        net.close()
