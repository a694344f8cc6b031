"""Where a line may break, and what the words are, in every language: ICU's break
iterators (UAX #14 line breaks, UAX #29 words, Thai by ICU's dictionary), with the game's
own words honoured on top.

Why a word list: ICU's Thai dictionary does not know the game's loanwords and compounds
(ดีล, บอท, เรียลไทม์, ข้อตกลง ...), so it cuts them (ดี|ล) and, worse, mis-parses the
words beside them (ของดีล as ขอ|งดีล, ทุกดีล as ทุ|กดีล). The list in
assets/lang/<lang>.words.txt is kept whole, and the Thai between two of its words is broken
by ICU again on its own, so its dictionary sees real word edges.
"""

from __future__ import annotations

from functools import cache, lru_cache
from pathlib import Path

from icu4py.breakers import LineBreaker, WordBreaker

WORDS_DIR = Path(__file__).resolve().parents[3] / "assets" / "lang"

# A word of the list matches only where it is a whole cluster run: not after a leading
# vowel that belongs to its first letter, nor before a mark or vowel that belongs to its last.
_LEADING_VOWELS = set("เแโใไ")
_FOLLOWING = {chr(c) for c in range(0x0E30, 0x0E3B)} | {chr(c) for c in range(0x0E45, 0x0E4F)}


def _thai(c: str) -> bool:
    return "\u0e00" <= c <= "\u0e7f"


@cache
def game_words(lang: str) -> tuple[str, ...]:
    """The language's list of words never to break, longest first (so that ข้อตกลง wins
    over a shorter word it contains); empty for a language without a list."""
    path = WORDS_DIR / f"{lang}.words.txt"
    if not path.exists():
        return ()
    lines = path.read_text(encoding="utf-8").splitlines()
    words = {w.strip() for w in lines if w.strip() and not w.startswith("#")}
    return tuple(sorted(words, key=len, reverse=True))


@lru_cache(maxsize=4096)
def word_spans(s: str, lang: str) -> tuple[tuple[int, int], ...]:
    """Where the list's words occur in s, leftmost and then longest first, never overlapping."""
    words = game_words(lang)
    spans: list[tuple[int, int]] = []
    i = 0
    while i < len(s) and words:
        for w in words:
            end = i + len(w)
            if (
                s.startswith(w, i)
                and not (i and s[i - 1] in _LEADING_VOWELS)
                and not (end < len(s) and s[end] in _FOLLOWING)
            ):
                spans.append((i, end))
                i = end
                break
        else:
            i += 1
    return tuple(spans)


def _cut(s: str, at: list[int]) -> tuple[str, ...]:
    edges = [0, *sorted(set(at)), len(s)]
    return tuple(s[a:b] for a, b in zip(edges, edges[1:], strict=False) if b > a)


def _ends(pieces) -> list[int]:
    out, pos = [], 0
    for piece in pieces:
        pos += len(piece)
        out.append(pos)
    return out[:-1]


def _breaks(s: str, lang: str, breaker) -> tuple[str, ...]:
    """s cut where `breaker` (ICU's line or word iterator) allows, except inside a word of
    the list; between two letters of Thai, where the dictionary decides, the stretches
    between the list's words are broken on their own, and the list's words' edges count."""
    spans = word_spans(s, lang)
    if not spans:
        return tuple(breaker(s, lang))
    whole = set(_ends(breaker(s, lang)))
    edges = {e for span in spans for e in span}
    local = set(edges)
    start = 0
    for a, b in [*spans, (len(s), len(s))]:
        local.update(start + e for e in _ends(breaker(s[start:a], lang)))
        start = b
    inside = {p for a, b in spans for p in range(a + 1, b)}
    keep = [
        p
        for p in range(1, len(s))
        if p not in inside and (p in local if _thai(s[p - 1]) and _thai(s[p]) else p in whole)
    ]
    return _cut(s, keep)


@lru_cache(maxsize=4096)
def segments(s: str, lang: str) -> tuple[str, ...]:
    """s cut at its line-break opportunities, each piece with its trailing spaces."""
    return _breaks(s, lang, LineBreaker)


@lru_cache(maxsize=4096)
def words(s: str, lang: str) -> tuple[str, ...]:
    """s cut into words (and the spaces and marks between them), the list's words whole."""
    return _breaks(s, lang, WordBreaker)


@lru_cache(maxsize=4096)
def word_segments(s: str, lang: str) -> tuple[str, ...]:
    """Like segments(), but a line may break only where a word also ends: Chinese breaks
    between any two ideographs (UAX #14), which in a short title cuts a word in two
    (部|族); ICU's word iterator knows the words of Chinese from its dictionary."""
    edges = set(_ends(words(s, lang)))
    return _cut(s, [p for p in _ends(segments(s, lang)) if p in edges])
