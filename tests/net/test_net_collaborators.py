"""The host's collaborators: one-way imports, the supported hooks, seats and announcement."""

from __future__ import annotations

import ast
from pathlib import Path
from types import SimpleNamespace

from game.rules import legal_actions
from game.rules.view import events_for
from net.discovery.announcer import Announcement, announce_wanted
from net.host.seats import SeatTable
from tests.net_helpers import Peer, run, seat_peers, start_host

ROOT = Path(__file__).resolve().parents[2]
NET = ROOT / "net"
#: The host's collaborators (net/host/): each does one job for ``net.host.server``.
COLLABORATORS = (
    "net.host.action_check",
    "net.host.admission",
    "net.host.config",
    "net.host.connections",
    "net.host.fanout",
    "net.host.hooks",
    "net.host.live_game",
    "net.host.lobby",
    "net.host.saved_table",
    "net.host.seats",
    "net.discovery.announcer",
)
#: subpackage -> the subpackages it must never import: the client and discovery know
#: nothing of the host, discovery nothing of a client session.
NEVER = {"client": {"host"}, "discovery": {"host"}}


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _net_modules() -> dict[str, Path]:
    return {_module_name(p): p for p in NET.rglob("*.py")}


def _net_imports(path: Path) -> list[tuple[str, list[str]]]:
    """The ``net`` modules a file imports (at run time or for typing), with the names taken."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: list[tuple[str, list[str]]] = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.ImportFrom)
            and node.module
            and node.level == 0
            and (node.module == "net" or node.module.startswith("net."))
        ):
            out.append((node.module, [a.name for a in node.names]))
        elif isinstance(node, ast.Import):
            out.extend((a.name, []) for a in node.names if a.name.startswith("net."))
    return out


def _graph() -> dict[str, set[str]]:
    modules = _net_modules()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        deps = set()
        for module, names in _net_imports(path):
            deps.add(module)
            deps.update(f"{module}.{n}" for n in names if f"{module}.{n}" in modules)
        graph[name] = {d for d in deps if d in modules and d != name}
    return graph


def test_collaborators_never_import_the_host_and_form_no_circle():
    graph = _graph()
    for name in COLLABORATORS:
        assert "net.host.server" not in graph[name], f"{name} imports net.host.server"
    assert set(COLLABORATORS) <= graph["net.host.server"] | {
        d for c in graph["net.host.server"] for d in graph[c]
    }

    def visit(node: str, path: tuple[str, ...]) -> None:
        assert node not in path, f"import circle: {' -> '.join((*path, node))}"
        for nxt in graph.get(node, ()):
            visit(nxt, (*path, node))

    for name in graph:
        visit(name, ())


def test_subpackages_keep_to_their_jobs():
    """net/ is split by job: net.client and net.discovery never reach into net.host."""
    bad = []
    for name, deps in _graph().items():
        own = name.split(".")[1] if name.count(".") >= 2 else None
        for dep in deps:
            target = dep.split(".")[1] if dep.count(".") >= 1 else None
            if target in NEVER.get(own, ()):
                bad.append(f"{name} imports {dep}")
    assert bad == []


def test_no_private_name_crosses_a_module():
    """What another module needs is public: an underscore name stays in its own file."""
    crossing = [
        f"{path.relative_to(ROOT)} takes {module}.{n}"
        for path in [
            *NET.rglob("*.py"),
            *(ROOT / "game").rglob("*.py"),
            *(ROOT / "bench").glob("*.py"),
        ]
        for module, names in _net_imports(path)
        for n in names
        if n.startswith("_")
    ]
    assert crossing == []


def test_no_net_module_is_longer_than_about_700_lines():
    """A file that grows past this is split into one-way collaborators."""
    lengths = {
        str(m.relative_to(ROOT)): len(m.read_text(encoding="utf-8").splitlines())
        for m in NET.rglob("*.py")
    }
    too_long = {name: n for name, n in lengths.items() if n > 720}
    assert not too_long, f"split these net/ files: {too_long}"


def test_hooks_see_updates_snapshots_and_handled_messages():
    async def scenario():
        updates: list[list] = []
        snapshots: list[tuple[int, int]] = []  # (connection id, events shown)
        handled: list[tuple[str, float]] = []
        host, _ = await start_host(seats=2)
        host.hooks.update = updates.append
        host.hooks.snapshot = lambda conn, events: snapshots.append((conn.id, len(events)))
        host.hooks.handled = lambda conn, msg, seconds: handled.append((msg["t"], seconds))
        a, b = await seat_peers(host, 2)
        snap = await a.expect("snapshot")
        await b.expect("snapshot")
        assert len(snapshots) == 2 and all(n > 0 for _, n in snapshots)  # the opening events
        assert [t for t, _ in handled] == ["hello", "hello"]
        seat = next(s for s in range(2) if legal_actions(host.state, s).moves())
        peer = a if a.seat == seat else b
        action = next(iter(legal_actions(host.state, seat).moves()))
        peer.act(action, snap["version"], id=7)
        got = await peer.until("update", lambda m: m.get("ack") == 7)
        assert len(updates) == 1 and updates[0]
        assert got["events"] == events_for(updates[0], peer.seat)
        assert got["version"] == host.state.actions_taken
        assert handled[-1][0] == "action" and handled[-1][1] >= 0.0
        await host.close()

    run(scenario())


def test_hooks_default_to_none_and_tap_is_one_of_them():
    async def scenario():
        seen: list[str] = []
        host, _ = await start_host(seats=2, tap=lambda conn, msg, frame: seen.append(msg["t"]))
        assert host.hooks.tap is host.tap and host.hooks.update is None
        p = await Peer.connect(host.port)
        await p.hello("Ann")
        await p.expect("seats")
        assert seen[:2] == ["welcome", "seats"]
        host.tap = None
        assert host.hooks.tap is None
        await host.close()

    run(scenario())


def _conn(is_bot: bool = False):
    return SimpleNamespace(is_bot=is_bot)


def test_seat_table_claims_unique_names_and_takes_seats_back_by_token():
    table = SeatTable(3, ["random"], bot_seed=1)
    first, token = table.claim(_conn(), "Ann")
    second, _ = table.claim(_conn(), "Ann")
    third, _ = table.claim(_conn(is_bot=True), "Ann")
    assert [first.name, second.name, third.name] == ["Ann", "Ann (2)", "Ann (3)"]
    assert [s.joined for s in table.seats] == [1, 2, 3]
    assert table.claim(_conn(), "Bob") is None  # full
    assert table.starter() is first and third.remote_bot
    first.conn = None
    assert table.starter() is second
    again = _conn()
    assert table.by_token(token) is first and table.by_token("not a token") is None
    assert table.take_back(first, again) is None and first.conn is again
    table.free(second)
    assert second.status == "open" and table.free_count() == 1
    assert table.names()[0] == "Ann" and table.names()[1] not in ("Ann", "Ann (3)")


def test_announcement_updates_only_when_the_free_seats_change():
    assert not announce_wanted(True, "127.0.0.1") and not announce_wanted(False, "0.0.0.0")
    assert announce_wanted(True, "0.0.0.0") and announce_wanted(True, "192.168.1.5")
    calls: list[int] = []

    async def update(seats_free: int) -> None:
        calls.append(seats_free)

    ann = Announcement("0.0.0.0", None)
    assert ann.update(3) is None  # never started: nothing to update
    ann.announcer = SimpleNamespace(update=update)
    ann._free = 3
    assert ann.update(3) is None
    pending = ann.update(2)
    assert pending is not None
    run(pending)
    assert calls == [2] and ann.update(2) is None
