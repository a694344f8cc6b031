"""Player names as a reader sees them: length in grapheme clusters, and something visible.

A name is measured in what a screen shows, not in code points: "é" written as "e" plus a
combining accent is one letter, a family emoji joined by zero-width joiners is one. The
``regex`` module's ``\\X`` (Unicode extended grapheme clusters) does the counting.

A name must show a glyph: at least one letter, digit, punctuation mark or symbol that is
not one of Unicode's default-ignorable code points (zero-width spaces and joiners, the
Hangul fillers) nor a symbol drawn blank (the Braille blank U+2800, the object replacement
character U+FFFC). Marks alone (a lone U+0301, U+20DD) have no base to sit on, and spaces
show nothing: a name of only those is refused, whatever the code points.
"""

from __future__ import annotations

import regex

from net.discovery.records import clean_name
from net.protocol import MAX_NAME  # grapheme clusters, after cleaning (docs/PROTOCOL.md §3)

_CLUSTER = regex.compile(r"\X")
_VISIBLE = regex.compile(
    r"(?V1)[[\p{L}\p{N}\p{P}\p{S}]--[\p{Default_Ignorable_Code_Point}\u2800\uFFFC]]"
)


def clusters(text: str) -> list[str]:
    """The grapheme clusters of ``text`` (what a reader counts as characters)."""
    return _CLUSTER.findall(text)


def name_length(text: str) -> int:
    return len(clusters(text))


def has_visible(text: str) -> bool:
    """``text`` holds a character that shows a glyph of its own (not a mark, a space, a
    default-ignorable code point or a blank symbol)."""
    return _VISIBLE.search(text) is not None


def player_name(raw: str) -> tuple[str, str | None]:
    """The cleaned name (``clean_name``) and why it is refused (None: accepted)."""
    name = clean_name(raw)
    if not name:
        return name, "a name is needed"
    if not has_visible(name):
        return name, "the name has no visible character"
    if name_length(name) > MAX_NAME:
        return name, f"a name has at most {MAX_NAME} characters"
    return name, None


def with_suffix(name: str, suffix: str) -> str:
    """``name`` cut (at a cluster boundary) so that ``name + suffix`` fits ``MAX_NAME``."""
    return "".join(clusters(name)[: max(0, MAX_NAME - name_length(suffix))]) + suffix
