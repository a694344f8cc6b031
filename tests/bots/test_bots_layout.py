"""game/bots/ keeps to the rules net/ keeps: small files, small classes, and what another
module needs is public (no underscore name imported or reached into across modules)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BOTS = ROOT / "game" / "bots"
MAX_FILE_LINES = 700  # the same cap as net/ (tests/net/test_net_collaborators.py)
MAX_CLASS_LINES = 400


def _files() -> list[Path]:
    return sorted(BOTS.rglob("*.py"))


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _absolute(path: Path, node: ast.ImportFrom) -> str:
    """The module an import names, relative imports resolved against `path`'s package."""
    if node.level == 0:
        return node.module or ""
    package = _module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    base = package[: len(package) - node.level + 1]
    return ".".join([*base, node.module] if node.module else base)


def _private_defined(tree: ast.Module) -> set[str]:
    """Underscore names a file defines itself: functions, classes, attributes it assigns
    (`self._x = ...`, `o._x = ...`) and slots it declares."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            out.add(node.attr)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            out.add(node.value)  # "__slots__" entries, getattr names
    return {n for n in out if n.startswith("_")}


def test_no_bots_file_is_longer_than_700_lines():
    lengths = {
        str(p.relative_to(ROOT)): len(p.read_text(encoding="utf-8").splitlines())
        for p in _files()
    }
    too_long = {name: n for name, n in lengths.items() if n > MAX_FILE_LINES}
    assert not too_long, f"split these game/bots/ files by job: {too_long}"


def test_no_bots_class_is_longer_than_400_lines():
    too_long = {}
    for p in _files():
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                start = min([node.lineno] + [d.lineno for d in node.decorator_list])
                n = node.end_lineno - start + 1
                if n > MAX_CLASS_LINES:
                    too_long[f"{p.relative_to(ROOT)}:{node.name}"] = n
    assert not too_long, f"split these classes by job: {too_long}"


def test_no_private_bots_name_is_imported_across_modules():
    """Anywhere in the project (game, net, bench, tests), a name taken from game.bots is public."""
    crossing = []
    for p in [*(ROOT / "game").rglob("*.py"), *(ROOT / "net").rglob("*.py"),
              *(ROOT / "bench").glob("*.py"), *(ROOT / "tests").glob("*.py")]:  # fmt: skip
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                module = _absolute(p, node)
                if module == "game.bots" or module.startswith("game.bots."):
                    crossing += [
                        f"{p.relative_to(ROOT)} takes {module}.{a.name}"
                        for a in node.names
                        if a.name.startswith("_")
                    ]
    assert crossing == []


def test_bots_modules_reach_into_no_other_modules_private_attributes():
    """`obj._name` on anything but `self`/`cls` only for an underscore name the file defines
    itself: a method or attribute another module needs is public."""
    reaching = []
    for p in _files():
        tree = ast.parse(p.read_text(encoding="utf-8"))
        own = _private_defined(tree)
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
                and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
                and node.attr not in own
            ):
                reaching.append(f"{p.relative_to(ROOT)}:{node.lineno} .{node.attr}")
    assert reaching == []
