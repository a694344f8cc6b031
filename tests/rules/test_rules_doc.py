"""docs/RULES.md against the code: the board tables are the engine's board data, and every
"RULES §N" citation in the repository names a section the document has.

Regenerate the board tables after changing game/rules/board.py:
    .venv/bin/python -m tests.rules.test_rules_doc --write
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from game.rules.board import CLANS, DEFAULT_BOARD, FAMILY_NAMES, Board

ROOT = Path(__file__).resolve().parents[2]
RULES_MD = ROOT / "docs" / "RULES.md"
BEGIN = "<!-- board tables: generated from game/rules/board.py by tests/rules/test_rules_doc.py -->"
END = "<!-- end of board tables -->"
# "RULES §4", "RULES.md §6", "docs/RULES.md §5.3", "RULES §4, §7" (every § after the name)
CITATION = re.compile(r"RULES(?:\.md)?((?:[ ,]*(?:and )?§\d+(?:\.\d+)?)+)")
SECTION_REF = re.compile(r"§(\d+(?:\.\d+)?)")
HEADING = re.compile(r"^#{2,3} (\d+(?:\.\d+)?)\.? ", re.MULTILINE)


def _clan_name(clan) -> str:
    return clan.name.capitalize()


def render_board_tables(board: Board = DEFAULT_BOARD) -> str:
    """The investors, spaces and tiles of `board` as the Markdown tables of RULES.md §9."""
    lines = ["| clan | letter | family name |", "|---|---|---|"]
    lines += [f"| {_clan_name(c)} | {c.letter} | {FAMILY_NAMES[c]} |" for c in CLANS]
    lines += [
        "",
        "| space | required | choice groups | investors | dividends |",
        "|---|---|---|---|---|",
    ]
    for s in board.spaces:
        required = ", ".join(_clan_name(c) for c in s.required) or "—"
        groups = (
            " · ".join(
                f"{g.count} of {{{', '.join(_clan_name(c) for c in g.clans)}}}"
                if len(g.clans) < 6
                else f"{g.count} of all six"
                for g in s.groups
            )
            or "—"
        )
        lines.append(f"| {s.index} | {required} | {groups} | {s.investors} | {s.dividends} |")
    lines += ["", "| tile | price per dividend | die faces on the back that end the game |"]
    lines.append("|---|---|---|")
    for t in board.tiles:
        faces = ", ".join(str(f) for f in t.end_faces) if t.end_faces else "— (no roll)"
        lines.append(f"| {t.number} | ${t.price}M | {faces} |")
    return "\n".join(lines)


def _doc_block(text: str) -> str:
    start = text.index(BEGIN) + len(BEGIN)
    return text[start : text.index(END)].strip("\n")


def _sections(text: str) -> set[str]:
    return set(HEADING.findall(text))


def test_board_tables_are_the_engines_board():
    text = RULES_MD.read_text(encoding="utf-8")
    assert _doc_block(text) == render_board_tables(), (
        "docs/RULES.md §9 differs from game/rules/board.py: "
        "run .venv/bin/python -m tests.rules.test_rules_doc --write"
    )


def test_rules_sections_keep_the_cited_numbering():
    assert {str(n) for n in range(1, 10)} <= _sections(RULES_MD.read_text(encoding="utf-8"))


def _citations() -> list[tuple[str, int, str]]:
    out = []
    for pattern in ("*.py", "*.md"):
        for path in ROOT.rglob(pattern):
            rel = path.relative_to(ROOT)
            if rel.parts[0] in (".venv", ".git") or path == RULES_MD:
                continue
            for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                for m in CITATION.finditer(line):
                    out.extend((str(rel), i, ref) for ref in SECTION_REF.findall(m.group(1)))
    return out


def test_every_citation_names_a_section_of_docs_rules_md():
    sections = _sections(RULES_MD.read_text(encoding="utf-8"))
    cites = _citations()
    assert len(cites) > 10  # the pattern still finds the code's citations
    missing = [c for c in cites if c[2] not in sections]
    assert not missing, f"citations of sections docs/RULES.md does not have: {missing}"


def test_the_citation_pattern_reads_lists_and_subsections():
    line = 'see RULES §4, §7 and RULES.md §5.3; docs/RULES.md §6 too'
    refs = [r for m in CITATION.finditer(line) for r in SECTION_REF.findall(m.group(1))]
    assert refs == ["4", "7", "5.3", "6"]


if __name__ == "__main__" and "--write" in sys.argv:
    text = RULES_MD.read_text(encoding="utf-8")
    head, rest = text.split(BEGIN, 1)
    _old, tail = rest.split(END, 1)
    RULES_MD.write_text(
        f"{head}{BEGIN}\n{render_board_tables()}\n{END}{tail}", encoding="utf-8"
    )
    print(f"wrote the board tables into {RULES_MD}")
