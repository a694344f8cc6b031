"""No import circle among game/ui's modules: a scene can be read and tested with what lies
below it. Scenes open the scenes above them through game/ui/screen/router.py (docs/UI.md,
"Scenes"). Every import counts, those inside functions too (tests/test_layers.py reads
them)."""

from __future__ import annotations

from pathlib import Path

from tests.test_layers import ROOT, imports_of, module_name


def import_graph(files: list[Path], root: Path = ROOT) -> dict[str, set[str]]:
    """module -> the modules of `files` it imports (`from pkg import name` counts as pkg.name
    when that is a module, else as pkg)."""
    modules = {module_name(path, root): path for path in files}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        deps = set()
        for imp in imports_of(path, root):
            target = imp.target
            while target and target not in modules:
                target = target.rpartition(".")[0]
            if target and target != name:
                deps.add(target)
        graph[name] = deps
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_game_ui_has_no_import_circle():
    files = sorted((ROOT / "game" / "ui").rglob("*.py"))
    assert len(files) > 60  # the walk really covers the UI
    graph = import_graph(files)
    assert "game.ui.scenes.title" in graph["game.ui.screen.screens"]  # the routes' openers count
    assert circles(graph) == []


def test_a_circle_is_found(tmp_path):
    sources = {
        "game/ui/a.py": "def f():\n    from .b import B\n",  # inside a function counts too
        "game/ui/b.py": "from game.ui.c import C\n",
        "game/ui/c.py": "from . import a\n",
        "game/ui/d.py": "from .a import f\n",  # imports the circle, is not part of it
    }
    for where, source in sources.items():
        path = tmp_path / where
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source, encoding="utf-8")
    graph = import_graph(sorted((tmp_path / "game").rglob("*.py")), tmp_path)
    assert circles(graph) == [["game.ui.a", "game.ui.b", "game.ui.c"]]
