"""One name per thing: no two classes of the product (game/, net/) share a name, so a name in a
traceback, a doc or a review points at one place."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def product_classes() -> dict[str, list[str]]:
    where: dict[str, list[str]] = defaultdict(list)
    for package in ("game", "net"):
        for path in sorted((ROOT / package).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            for node in ast.walk(tree):
                if isinstance(node, ast.ClassDef):
                    where[node.name].append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return where


def test_every_class_name_is_used_once():
    twice = {name: places for name, places in product_classes().items() if len(places) > 1}
    assert twice == {}
