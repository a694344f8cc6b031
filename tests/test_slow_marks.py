"""The `slow` marker stays true: every test that starts an X server (Xvfb), a browser
(Playwright) or a network namespace carries it, so `pytest -m "not slow"` is the quick loop
(README). Found by reading the test sources: a test starts one when its body, a fixture it
asks for or a helper of its file it calls names one of them."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent

# What starting one looks like in a test file's code (docstrings and comments aside).
STARTERS = {
    "Xvfb": "an X server",  # the program's name in a command line
    "unshare": "a network namespace",
    "netns": "a network namespace",  # tests/netns.py, the namespaces' harness
    "sync_playwright": "a browser",
    "async_playwright": "a browser",
}


def _starts(node: ast.AST) -> set[str]:
    """The starters a piece of code names directly."""
    found = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Name) and n.id in STARTERS:
            found.add(n.id)
        elif isinstance(n, ast.Constant) and n.value in STARTERS:
            found.add(n.value)
    return found


def _names(node: ast.AST) -> set[str]:
    """The names a definition uses: calls, references, and the fixtures it asks for."""
    used = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        used |= {a.arg for a in node.args.args + node.args.kwonlyargs}
    return used


def _marked_slow(decorators: list[ast.expr]) -> bool:
    for d in decorators:
        target = d.func if isinstance(d, ast.Call) else d
        if isinstance(target, ast.Attribute) and target.attr == "slow":
            return True
    return False


def _module_marked_slow(tree: ast.Module) -> bool:
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "pytestmark" for t in stmt.targets
        ):
            marks = stmt.value.elts if isinstance(stmt.value, ast.List | ast.Tuple) else [stmt.value]
            if _marked_slow(marks):
                return True
    return False


def unmarked_starters(source: str) -> dict[str, set[str]]:
    """The tests of one file that start something slow without the `slow` mark, each with
    what it starts."""
    tree = ast.parse(source)
    if _module_marked_slow(tree):
        return {}
    defs = {
        n.name: n
        for n in tree.body
        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
    }
    starts = {name: _starts(node) for name, node in defs.items()}
    uses = {name: _names(node) & set(defs) for name, node in defs.items()}
    changed = True
    while changed:  # a helper or fixture that starts one makes its users start it too
        changed = False
        for name in defs:
            more = set().union(*(starts[u] for u in uses[name])) - starts[name]
            if more:
                starts[name] |= more
                changed = True
    tests = [
        (n, n.decorator_list)
        for n in tree.body
        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n.name.startswith("test")
    ]
    for cls in (n for n in tree.body if isinstance(n, ast.ClassDef) and n.name.startswith("Test")):
        for m in cls.body:
            if isinstance(m, ast.FunctionDef | ast.AsyncFunctionDef) and m.name.startswith("test"):
                starts[m.name] = _starts(m).union(*(starts[u] for u in _names(m) & set(defs)))
                tests.append((m, m.decorator_list + cls.decorator_list))
    return {
        f.name: {STARTERS[s] for s in starts[f.name]}
        for f, decorators in tests
        if starts[f.name] and not _marked_slow(decorators)
    }


def test_every_test_that_starts_an_x_server_a_browser_or_a_netns_is_marked_slow():
    missing = {}
    for path in sorted(TESTS.rglob("test_*.py")):  # in tests/ and any folder under it
        if path.name == Path(__file__).name:
            continue  # this file names the starters it looks for
        for test, what in unmarked_starters(path.read_text(encoding="utf-8")).items():
            missing[f"{path.relative_to(TESTS)}::{test}"] = sorted(what)
    assert not missing, f"mark these @pytest.mark.slow: {missing}"


def test_the_scan_sees_a_start_through_a_fixture_or_a_helper_and_a_mark_where_it_is():
    fixture = (
        "import pytest\nfrom tests import netns\n"
        "@pytest.fixture\ndef lan():\n    with netns.netns_network(2) as n:\n        yield n\n"
        "def test_a(lan):\n    pass\n"
        "def _x():\n    return ['Xvfb', ':1']\n"
        "def test_b():\n    _x()\n"
        "@pytest.mark.slow\ndef test_c(lan):\n    pass\n"
        "def test_d():\n    '''no Xvfb here: a docstring'''\n"
    )
    assert unmarked_starters(fixture) == {
        "test_a": {"a network namespace"},
        "test_b": {"an X server"},
    }
    assert unmarked_starters("import pytest\npytestmark = [pytest.mark.slow]\n" + fixture) == {}
    # the files that do start them today are seen (the scan has not gone blind)
    seen = {
        p.name
        for p in TESTS.rglob("test_*.py")
        if p.name != Path(__file__).name
        and unmarked_starters(p.read_text(encoding="utf-8").replace("mark.slow", "mark.x"))
    }
    assert {"test_ui_window.py", "test_phone_page.py", "test_net_netns.py", "test_discovery.py"} <= seen
