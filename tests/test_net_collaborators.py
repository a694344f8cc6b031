"""The host's collaborators: one-way imports, the supported hooks, seats and announcement."""

from __future__ import annotations

import ast
from pathlib import Path
from types import SimpleNamespace

from game.rules import legal_actions
from game.rules.view import events_for
from net.announce import Announcement, announce_wanted
from net.seats import SeatTable
from tests.net_helpers import Peer, run, seat_peers, start_host

NET = Path(__file__).resolve().parent.parent / "net"
COLLABORATORS = (
    "action_check",
    "admission",
    "announce",
    "config",
    "connections",
    "fanout",
    "hooks",
    "saved_table",
    "seats",
)


def _net_imports(module: str) -> set[str]:
    """The ``net`` modules ``net/<module>.py`` imports (at run time or for typing)."""
    tree = ast.parse((NET / f"{module}.py").read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1 and node.module:
                out.add(node.module.split(".")[0])
            elif node.level == 1:
                out.update(alias.name for alias in node.names)
            elif node.module and node.module.startswith("net."):
                out.add(node.module.split(".")[1])
        elif isinstance(node, ast.Import):
            out.update(a.name.split(".")[1] for a in node.names if a.name.startswith("net."))
    return out


def test_collaborators_never_import_the_host_and_form_no_circle():
    graph = {m.stem: _net_imports(m.stem) for m in NET.glob("*.py") if m.stem != "__init__"}
    for name in COLLABORATORS:
        assert "host" not in graph[name], f"net/{name}.py imports net/host.py"
    assert set(COLLABORATORS) <= graph["host"]

    def visit(node: str, path: tuple[str, ...]) -> None:
        assert node not in path, f"import circle: {' -> '.join((*path, node))}"
        for nxt in graph.get(node, ()):
            visit(nxt, (*path, node))

    for name in graph:
        visit(name, ())


def test_no_net_module_is_longer_than_about_700_lines():
    """Issue 16: a file that grows past this is split into one-way collaborators."""
    lengths = {m.name: len(m.read_text(encoding="utf-8").splitlines()) for m in NET.glob("*.py")}
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
