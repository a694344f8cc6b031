"""How often a Thai line may break inside a word, over every text of the Thai table.

The judge is an independent dictionary, libthai's (Debian packages libthai0 and libdatrie1,
through ctypes; ICU's own word iterator would only agree with ICU's line iterator). A break
opportunity between two Thai letters counts as *inside a word* where libthai's segmentation
puts no word edge, unless both halves of libthai's word are words of its dictionary: a split
between the words of a compound (นัก|ลงทุน, ส่วน|แบ่ง) is allowed by Thai typesetting.
Breaks next to a space, Latin text or a mark are UAX #14's and not counted as inside.

    python -m bench.thai_breaks            # before (ICU alone) and after (the game's breaker)
"""

from __future__ import annotations

import ctypes
from collections import Counter

from icu4py.breakers import LineBreaker

from game.ui import i18n
from game.ui.drawing import linebreak

_thai = ctypes.CDLL("libthai.so.0")
_thai.th_brk_new.restype = ctypes.c_void_p
_thai.th_brk_new.argtypes = [ctypes.c_char_p]
_thai.th_brk_wc_find_breaks.argtypes = [
    ctypes.c_void_p,
    ctypes.c_wchar_p,
    ctypes.POINTER(ctypes.c_int),
    ctypes.c_size_t,
]
_BRK = _thai.th_brk_new(None)
_trie = ctypes.CDLL("libdatrie.so.1")
_trie.trie_new_from_file.restype = ctypes.c_void_p
_trie.trie_new_from_file.argtypes = [ctypes.c_char_p]
_trie.trie_retrieve.argtypes = [
    ctypes.c_void_p,
    ctypes.POINTER(ctypes.c_uint32),
    ctypes.POINTER(ctypes.c_int32),
]
_DICT = _trie.trie_new_from_file(b"/usr/share/libthai/thbrk.tri")


def libthai_edges(s: str) -> set[int]:
    """libthai's word edges in s, with the game's word list's words (which libthai may not
    know: บอท) taken as words, and every edge of a run of Thai letters."""
    out = (ctypes.c_int * (len(s) + 1))()
    n = _thai.th_brk_wc_find_breaks(_BRK, s, out, len(s) + 1)
    spans = linebreak.word_spans(s, "th")
    inside = {p for a, b in spans for p in range(a + 1, b)}
    runs = {p for p in range(1, len(s)) if _is_thai(s[p - 1]) != _is_thai(s[p])}
    return ({0, len(s), *out[:n], *runs} - inside) | {e for span in spans for e in span}


def in_dictionary(word: str) -> bool:
    key = (ctypes.c_uint32 * (len(word) + 1))(*map(ord, word), 0)
    return bool(_trie.trie_retrieve(_DICT, key, ctypes.byref(ctypes.c_int32())))


def _is_thai(c: str) -> bool:
    return "\u0e00" <= c <= "\u0e7f"


def count(segmenter) -> tuple[int, Counter]:
    """(break opportunities, Counter of the cuts inside words as 'before|after')."""
    total, cuts = 0, Counter()
    for text in i18n.table("th").values():
        for para in text.split("\n"):
            edges = sorted(libthai_edges(para))
            pos = 0
            for piece in segmenter(para)[:-1]:
                pos += len(piece)
                total += 1
                if not (_is_thai(para[pos - 1]) and _is_thai(para[pos])) or pos in edges:
                    continue
                start = max(e for e in edges if e < pos)
                end = min(e for e in edges if e > pos)
                if in_dictionary(para[start:pos]) and in_dictionary(para[pos:end]):
                    continue  # between the words of a compound
                cuts[f"{para[start:pos]}|{para[pos:end]}"] += 1
    return total, cuts


def main() -> None:
    for name, segmenter in (
        ("ICU alone", lambda p: list(LineBreaker(p, "th"))),
        ("game breaker", lambda p: list(linebreak.segments(p, "th"))),
    ):
        total, cuts = count(segmenter)
        n = sum(cuts.values())
        print(f"{name}: {n} of {total} break opportunities inside a word ({100 * n / total:.2f}%)")
        print("   ", ", ".join(f"{k} ×{v}" for k, v in cuts.most_common(12)))


if __name__ == "__main__":
    main()
