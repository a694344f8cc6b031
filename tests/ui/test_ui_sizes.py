"""game/ui/ keeps the class cap game/bots/ and net/ keep: no class over 400 lines. A class
that grows past it is split by job into collaborators it owns (the table scene's pop-up,
pointer, commands, tips, painter and handover; the director's choreography)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
UI = ROOT / "game" / "ui"
MAX_CLASS_LINES = 400  # the same cap as game/bots/ (tests/bots/test_bots_layout.py)


def class_lengths(folder: Path) -> dict[str, int]:
    """Every class under `folder` ("path:Name") and its length in lines, decorators included."""
    out = {}
    for p in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                start = min([node.lineno] + [d.lineno for d in node.decorator_list])
                out[f"{p.relative_to(ROOT)}:{node.name}"] = node.end_lineno - start + 1
    return out


def test_the_measure_sees_the_table_scene():
    """The walk finds the classes it is meant to cap (an empty walk would pass anything)."""
    lengths = class_lengths(UI)
    assert lengths["game/ui/table/scene.py:TableScene"] > 100
    assert lengths["game/ui/table/anim.py:Director"] > 100


def test_no_ui_class_is_longer_than_400_lines():
    too_long = {name: n for name, n in class_lengths(UI).items() if n > MAX_CLASS_LINES}
    assert not too_long, f"split these game/ui/ classes by job: {too_long}"
