"""Player names as a reader sees them: length in grapheme clusters, and something visible.

A name is measured in what a screen shows, not in code points: "é" written as "e" plus a
combining accent is one letter, a family emoji joined by zero-width joiners is one. The
``regex`` module's ``\\X`` (Unicode extended grapheme clusters) does the counting. A name
made only of invisible characters (zero-width spaces and joiners, byte-order marks, the
Hangul filler: Unicode's default-ignorable code points and format characters) would show
as nothing on every screen: it is refused.
"""

from __future__ import annotations

import regex

from net.discovery.records import clean_name
from net.protocol import MAX_NAME  # grapheme clusters, after cleaning (docs/PROTOCOL.md §3)

_CLUSTER = regex.compile(r"\X")
_INVISIBLE = regex.compile(r"[\p{Default_Ignorable_Code_Point}\p{Cf}\s]+")


def clusters(text: str) -> list[str]:
    """The grapheme clusters of ``text`` (what a reader counts as characters)."""
    return _CLUSTER.findall(text)


def name_length(text: str) -> int:
    return len(clusters(text))


def has_visible(text: str) -> bool:
    """Something is left once invisible and format characters and spaces are removed."""
    return bool(_INVISIBLE.sub("", text))


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
