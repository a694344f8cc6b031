"""The layers import only downwards (docs/ARCHITECTURE.md): every .py of game/, net/, bench/,
tools/ and main.py is parsed, and every import counts - ``import``, ``from ... import`` (relative
ones too) and ``importlib.import_module("...")`` / ``__import__("...")`` with a literal name.
A failure names the file, the line and the import. game.rules' own docstring is held to the
modules it has and the names it exports."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: dotted prefix -> layer; the first that matches wins (so game.rules before game)
LAYER_PREFIXES = (
    ("game.rules", "rules"),
    ("game.bots", "bots"),
    ("game.ui", "ui"),
    ("game.cli", "cli"),
    ("game", "game"),  # the table's drivers (game/table/) and files.py
    ("net", "net"),
    ("bench", "bench"),
    ("tools", "tools"),  # development tools (doc pictures, the scripted player): not the game
    ("tests", "tests"),
    ("main", "cli"),
)

#: layer -> the layers it must never import. The six never-arrows (rules -> ui, net, bots;
#: bots -> ui, net; net -> ui), and what keeps them whole: the command line is the top and
#: nothing imports it, the shared drivers (used by the host) stay below ui and net, and no
#: program module imports the benchmarks or the tests (the benchmarks may use test helpers).
FORBIDDEN = {
    "rules": {"ui", "net", "bots", "cli", "game", "bench", "tests", "tools"},
    "bots": {"ui", "net", "cli", "bench", "tests", "tools"},
    "net": {"ui", "cli", "bench", "tests", "tools"},
    "game": {"ui", "net", "cli", "bench", "tests", "tools"},
    "ui": {"cli", "bench", "tests", "tools"},
    "cli": {"bench", "tests", "tools"},
    "tools": {"bench", "tests"},
}

#: what the shared rules layer may import of "game" itself: the atomic file writer
RULES_MAY_USE = ("game.files",)
NOT_LITERAL = "<a name that is not a literal>"


@dataclass(frozen=True)
class Import:
    where: str  # path:line, relative to the root
    target: str  # a dotted name: a module, or a module's attribute (from X import name)

    def __str__(self) -> str:
        return f"{self.where} imports {self.target}"


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _relative(package: str, level: int, module: str | None) -> str:
    """The absolute name of ``<level dots><module>`` seen from ``package``."""
    parts = package.split(".")
    base = parts[: len(parts) - (level - 1)]
    return ".".join([*base, module] if module else base)


def _package(path: Path, root: Path) -> str:
    name = module_name(path, root)
    return name if path.name == "__init__.py" else name.rpartition(".")[0]


def _literal(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _dynamic_target(node: ast.Call) -> str | None:
    """The name given to importlib.import_module / __import__, if this is such a call."""
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    if name not in ("import_module", "__import__") or not node.args:
        return None
    target = _literal(node.args[0])
    if target is None:
        return NOT_LITERAL
    if target.startswith("."):  # import_module(".x", "package")
        package = _literal(node.args[1]) if len(node.args) > 1 else None
        if package is None:
            return NOT_LITERAL
        level = len(target) - len(target.lstrip("."))
        return _relative(package, level, target[level:] or None)
    return target


def imports_of(path: Path, root: Path = ROOT) -> list[Import]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    rel = path.relative_to(root)
    found: list[Import] = []
    for node in ast.walk(tree):
        where = f"{rel}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.Import):
            found += [Import(where, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = _relative(_package(path, root), node.level, node.module)
            found += [
                Import(where, base if alias.name == "*" else f"{base}.{alias.name}")
                for alias in node.names
            ]
        elif isinstance(node, ast.Call):
            target = _dynamic_target(node)
            if target is not None:
                found.append(Import(where, target))
    return found


def layer_of(dotted: str) -> str | None:
    for prefix, layer in LAYER_PREFIXES:
        if dotted == prefix or dotted.startswith(prefix + "."):
            return layer
    return None  # the standard library or a third-party package


def program_files() -> list[Path]:
    files = [ROOT / "main.py"]
    for folder in ("game", "net", "bench", "tools"):
        files += sorted((ROOT / folder).rglob("*.py"))
    return files


def offending_imports(files: list[Path], root: Path = ROOT) -> list[str]:
    bad = []
    for path in files:
        own = layer_of(module_name(path, root))
        for imp in imports_of(path, root):
            target = layer_of(imp.target)
            if imp.target == NOT_LITERAL:
                bad.append(f"{imp} (a dynamic import needs a literal name)")
            elif target in FORBIDDEN.get(own, ()) and not (
                own == "rules" and imp.target.startswith(RULES_MAY_USE)
            ):
                bad.append(f"{imp} ({own} must not import {target})")
    return bad


def test_every_layer_imports_only_downwards():
    files = program_files()
    assert len(files) > 80  # the walk really covers the program
    assert offending_imports(files) == []


def _write(root: Path, where: str, source: str) -> Path:
    path = root / where
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(source, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "where, source, offence",
    [
        ("net/x.py", "from game.ui import lan\n", "net must not import ui"),
        ("net/x.py", "import importlib\nm = importlib.import_module('game.ui.sessions.lan')\n",
         "net must not import ui"),
        ("net/x.py", "m = __import__('game.cli.lan')\n", "net must not import cli"),
        ("net/x.py", "import importlib as il\nil.import_module('..ui.lan', 'game.cli')\n",
         "net must not import ui"),
        ("net/x.py", "from game import cli\n", "net must not import cli"),
        ("game/rules/x.py", "from game.bots import make_bot\n", "rules must not import bots"),
        ("game/rules/x.py", "from .. import bots\n", "rules must not import bots"),
        ("game/rules/x.py", "import net.protocol\n", "rules must not import net"),
        ("game/bots/x.py", "from ..ui.theme import COLORS\n", "bots must not import ui"),
        ("game/bots/x.py", "import net\n", "bots must not import net"),
        ("game/ui/x.py", "def f(name):\n    import importlib\n    importlib.import_module(name)\n",
         "needs a literal name"),
        ("game/x.py", "from net.clock import Clock\n", "game must not import net"),
    ],
)
def test_a_wrong_import_is_named(tmp_path, where, source, offence):
    bad = offending_imports([_write(tmp_path, where, source)], tmp_path)
    assert len(bad) == 1 and offence in bad[0] and bad[0].startswith(where), bad


def test_allowed_imports_pass(tmp_path):
    sources = {
        "game/cli/x.py": "from game.ui import lan\nfrom net.host.server import Host\n",
        "game/ui/x.py": "from net.client.session import Client\nfrom game.bots import make_bot\n",
        "net/x.py": "from game.bots import make_bot\nfrom game.table.simulate import result_of\n",
        "game/rules/x.py": "from .state import GameState\nfrom game.files import atomic_write\n",
        "game/ui/y.py": "import importlib\nimportlib.import_module('.lan', 'game.ui')\n",
    }
    paths = [_write(tmp_path, where, source) for where, source in sources.items()]
    assert offending_imports(paths, tmp_path) == []


# --------------------------------------------------------------------------- game.rules' API

RULES = ROOT / "game" / "rules"


def _rules_doc() -> str:
    return ast.get_docstring(ast.parse((RULES / "__init__.py").read_text(encoding="utf-8")))


def test_the_rules_docstring_lists_exactly_its_modules():
    listed = set(re.findall(r"^    ([a-z_]+)  +\S", _rules_doc(), flags=re.MULTILINE))
    present = {p.stem for p in RULES.glob("*.py") if p.stem != "__init__"}
    assert listed == present


def test_the_calls_the_rules_docstring_names_are_exported():
    import game.rules

    named = set(re.findall(r"^    ([a-z_]+)\(", _rules_doc(), flags=re.MULTILINE))
    assert named == {"new_game", "legal_actions", "apply", "view"}
    assert named <= set(game.rules.__all__)


def test_nothing_outside_the_engine_imports_its_private_names():
    files = program_files() + sorted((ROOT / "tests").rglob("*.py"))
    bad = [
        str(imp)
        for path in files
        if RULES not in path.parents
        for imp in imports_of(path)
        if layer_of(imp.target) == "rules" and any(p.startswith("_") for p in imp.target.split("."))
    ]
    assert bad == []


def module_level_imports(path: Path, root: Path = ROOT) -> list[str]:
    """What a module imports when it is loaded: its top-level imports (those inside
    functions, or under ``if TYPE_CHECKING``, run later or never)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    top = ast.Module(body=[n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))])
    names = []
    for node in top.body:
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        else:
            base = node.module or ""
            if node.level:
                base = _relative(_package(path, root), node.level, node.module)
            names += [f"{base}.{alias.name}" for alias in node.names]
    return names


def import_circles(files: list[Path], root: Path = ROOT) -> list[list[str]]:
    """Every circle of module-level imports among ``files`` (each as the modules on it)."""
    modules = {module_name(path, root): path for path in files}
    edges: dict[str, set[str]] = {}
    for name, path in modules.items():
        edges[name] = set()
        for target in module_level_imports(path, root):
            while target and target not in modules:  # module.attr -> module
                target = target.rpartition(".")[0]
            if target and target != name:
                edges[name].add(target)
    circles, done = [], set()

    def walk(node: str, path: list[str]) -> None:
        for nxt in sorted(edges[node]):
            if nxt in path:
                circle = path[path.index(nxt):]
                if frozenset(circle) not in done:
                    done.add(frozenset(circle))
                    circles.append(circle)
            elif nxt not in seen:
                seen.add(nxt)
                walk(nxt, [*path, nxt])

    for start in sorted(modules):
        seen = {start}
        walk(start, [start])
    return circles


def test_no_import_circle():
    assert import_circles(program_files()) == []


def test_an_import_circle_is_named(tmp_path):
    files = [
        _write(tmp_path, "game/bots/base.py", "from . import kinds\n"),
        _write(tmp_path, "game/bots/kinds.py", "from .base import Bot\n"),
        _write(tmp_path, "game/bots/fine.py", "def f():\n    from . import base\n"),
    ]
    assert import_circles(files, tmp_path) == [["game.bots.base", "game.bots.kinds"]]


# --------------------------------------------------------------------------- the layout probe

#: the layout probe (tools/layout_probe.py) observes the drawing from outside: no program
#: module names it. In game/ the word itself is a mention; in net/, where a probe is also
#: the host's ping, its module, its names and "layout probe" are.
PROBE_WORD = re.compile(r"\bprob(e|es|ed|ing)\b", re.IGNORECASE)
PROBE_NAMES = re.compile(
    r"layout[ _]probe|\bprobe\.[A-Za-z]|ProbeCanvas|LayoutProbe|\bprobing\(|under (a|the) probe",
    re.IGNORECASE,
)


def probe_mentions(files: list[Path], root: Path = ROOT) -> list[str]:
    """Where a module under game/ or net/ imports a probe module or mentions the probe."""
    found = []
    for path in files:
        rel = path.relative_to(root)
        if rel.parts[0] not in ("game", "net"):
            continue
        words = PROBE_WORD if rel.parts[0] == "game" else PROBE_NAMES
        for imp in imports_of(path, root):
            if any("probe" in part for part in imp.target.split(".")):
                found.append(str(imp))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if words.search(line):
                found.append(f"{rel}:{n}: {line.strip()}")
    return found


def test_no_program_module_mentions_the_layout_probe():
    files = program_files()
    assert any(p.relative_to(ROOT).parts[0] == "net" for p in files)
    found = probe_mentions(files)
    assert not found, "the game names the layout probe:\n" + "\n".join(found)


@pytest.mark.parametrize(
    "where, source",
    [
        ("game/ui/x.py", "from ..drawing import probe\n"),
        ("game/ui/x.py", "from tools import layout_probe\n"),
        ("game/ui/x.py", "def f(p):\n    return p.ACTIVE  # under the probe\n"),
        ("game/ui/x.py", "def f(img):\n    return img  # what the layout probe sees\n"),
        ("net/x.py", "import importlib\nimportlib.import_module('tools.layout_probe')\n"),
        ("net/x.py", "def f(probe):\n    return probe.ACTIVE\n"),
    ],
)
def test_a_mention_of_the_probe_is_named(tmp_path, where, source):
    found = probe_mentions([_write(tmp_path, where, source)], tmp_path)
    assert found and all(f.startswith(where) for f in found), found


def test_the_hosts_probes_are_not_the_layout_probe(tmp_path):
    source = '"""A probe every second pings each connection."""\nprobe_interval = 4.0\n'
    assert probe_mentions([_write(tmp_path, "net/x.py", source)], tmp_path) == []
