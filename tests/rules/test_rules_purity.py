"""game/rules/ stays pure: no pygame, sockets, threads or clock, so a game is a function of
its seed and actions only (replays, the LAN host and bots all rely on that)."""

import ast
import subprocess
import sys
from pathlib import Path

RULES = Path(__file__).resolve().parents[2] / "game" / "rules"
FORBIDDEN = {
    "pygame", "socket", "ssl", "asyncio", "selectors", "threading", "_thread",
    "multiprocessing", "concurrent", "time", "datetime", "zeroconf", "msgpack", "net",
}


def imported_roots(path: Path) -> set[str]:
    roots = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            roots |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def test_no_rules_module_imports_io_threads_or_the_clock():
    files = sorted(RULES.glob("*.py"))
    assert len(files) >= 10
    bad = {f.name: sorted(imported_roots(f) & FORBIDDEN) for f in files}
    assert {k: v for k, v in bad.items() if v} == {}


def test_a_whole_game_runs_without_loading_them():
    code = (
        "import sys\n"
        "from game.rules import Settings, view\n"
        "from game.table.simulate import simulate_game\n"
        "g, r = simulate_game(3, 5, ['random'] * 3, Settings(players=3))\n"
        "assert g.state.phase.value == 'game_over'\n"
        "view(g.state, 0)\n"
        "loaded = [m for m in ('pygame', 'socket', 'asyncio', 'threading', 'selectors',"
        " 'msgpack', 'zeroconf', 'net') if m in sys.modules]\n"
        "print(len(g.log), loaded)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=RULES.parent.parent, timeout=240)
    assert out.returncode == 0, out.stderr
    actions, loaded = out.stdout.split(" ", 1)
    assert int(actions) > 50
    assert loaded.strip() == "[]"
