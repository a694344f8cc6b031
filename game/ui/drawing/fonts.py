"""Font loading and cached text rendering for the pygame-ce client.

Why this module exists:
- We ship small per-script subsets (assets/fonts, built by subset_fonts.py); fonts.json says,
  per language, which faces to try in order for each character. One face rarely covers all:
  the CJK faces lack a few symbols (✗ ⏱), and a Thai player's name may appear in the English UI.
- Text is drawn with pygame.font.Font, which shapes with HarfBuzz (SDL_ttf); pygame.freetype
  does not shape and drops or misplaces Thai tone marks.
- Font.metrics() cannot tell a missing glyph apart (it reports the .notdef box), so coverage
  comes from each file's cmap, read here with a few lines of struct (fontTools is build-only).
- Rendering text is the most expensive part of a redraw; render_text keeps an LRU cache.
"""

from __future__ import annotations

import json
import struct
import unicodedata
from functools import cache, lru_cache
from pathlib import Path

import pygame

FONT_DIR = Path(__file__).resolve().parents[3] / "assets" / "fonts"
_MARKS = {"Mn", "Mc", "Me", "Cf"}  # stay with the preceding base character's run


@cache
def manifest() -> dict:
    return json.loads((FONT_DIR / "fonts.json").read_text(encoding="utf-8"))


@cache
def cmap(path: Path) -> frozenset[int]:
    """Code points with a real glyph (not .notdef) in an sfnt file's Unicode cmap subtables.

    Reads formats 4 and 12, which is all pyftsubset writes for these fonts."""
    data = path.read_bytes()
    (num_tables,) = struct.unpack_from(">H", data, 4)
    tables = {
        data[12 + 16 * i : 16 + 16 * i]: struct.unpack_from(">I", data, 20 + 16 * i)[0]
        for i in range(num_tables)
    }
    base = tables[b"cmap"]
    covered: set[int] = set()
    for i in range(struct.unpack_from(">H", data, base + 2)[0]):
        platform, encoding, offset = struct.unpack_from(">HHI", data, base + 4 + 8 * i)
        if not (platform == 0 or (platform == 3 and encoding in (1, 10))):
            continue
        sub = base + offset
        fmt = struct.unpack_from(">H", data, sub)[0]
        if fmt == 4:
            segs = struct.unpack_from(">H", data, sub + 6)[0] // 2
            ends = struct.unpack_from(f">{segs}H", data, sub + 14)
            starts = struct.unpack_from(f">{segs}H", data, sub + 16 + 2 * segs)
            deltas = struct.unpack_from(f">{segs}h", data, sub + 16 + 4 * segs)
            ro_pos = sub + 16 + 6 * segs
            ranges = struct.unpack_from(f">{segs}H", data, ro_pos)
            for s, (start, end, delta, ro) in enumerate(
                zip(starts, ends, deltas, ranges, strict=True)
            ):
                for c in range(start, min(end, 0xFFFE) + 1):
                    if ro:
                        g = struct.unpack_from(">H", data, ro_pos + 2 * s + ro + 2 * (c - start))[0]
                        g = (g + delta) & 0xFFFF if g else 0
                    else:
                        g = (c + delta) & 0xFFFF
                    if g:
                        covered.add(c)
        elif fmt == 12:
            for g in range(struct.unpack_from(">I", data, sub + 12)[0]):
                start, end, glyph = struct.unpack_from(">III", data, sub + 16 + 12 * g)
                covered.update(c for c in range(start, end + 1) if glyph + c - start)
    return frozenset(covered)


def face_files(lang: str, bold: bool = False) -> tuple[Path, ...]:
    """The font files tried, in order, for text in lang."""
    m = manifest()
    weight = "bold" if bold else "regular"
    return tuple(FONT_DIR / m["faces"][face][weight] for face in m["chains"][lang])


@cache
def _font(path: Path, size: int) -> pygame.font.Font:
    if not pygame.font.get_init():
        pygame.font.init()
    return pygame.font.Font(path, size)


def face_chain(lang: str, size: int, bold: bool = False) -> tuple[pygame.font.Font, ...]:
    """All faces for lang at size (pixels), primary first; cached."""
    return tuple(_font(p, size) for p in face_files(lang, bold))


def split_runs(text: str, lang: str, bold: bool = False) -> list[tuple[int, str]]:
    """Split text into (face index, run) so each run is drawn by one face.

    Each character goes to the first face in the chain that has it; marks and spaces stay in
    the current run when its face has them, so Thai vowels and tone marks are shaped with
    their base letter and "ส่ง $5M" does not break at every space."""
    covers = [cmap(p) for p in face_files(lang, bold)]
    runs: list[tuple[int, str]] = []
    for ch in text:
        cp = ord(ch)
        if runs and (
            unicodedata.category(ch) in _MARKS or (ch.isspace() and cp in covers[runs[-1][0]])
        ):
            face = runs[-1][0]
        else:
            face = next((i for i, c in enumerate(covers) if cp in c), 0)
        if runs and runs[-1][0] == face:
            runs[-1] = (face, runs[-1][1] + ch)
        else:
            runs.append((face, ch))
    return runs


def missing_chars(text: str, lang: str, bold: bool = False) -> str:
    """Characters of text that no face of lang can draw (e.g. to vet a typed player name)."""
    covers = [cmap(p) for p in face_files(lang, bold)]
    return "".join(
        dict.fromkeys(
            ch for ch in text if not ch.isspace() and not any(ord(ch) in c for c in covers)
        )
    )


def text_size(text: str, lang: str, size: int, bold: bool = False) -> tuple[int, int]:
    """Width and height render_text would produce, without rendering."""
    fonts = face_chain(lang, size, bold)
    runs = split_runs(text, lang, bold) or [(0, "")]
    asc = max(fonts[i].get_ascent() for i, _ in runs)
    height = max(asc - fonts[i].get_ascent() + fonts[i].get_height() for i, _ in runs)
    return sum(fonts[i].size(run)[0] for i, run in runs), height


@lru_cache(maxsize=2048)
def _render(text: str, lang: str, size: int, colour: tuple, bold: bool) -> pygame.Surface:
    fonts = face_chain(lang, size, bold)
    runs = split_runs(text, lang, bold)
    if len(runs) <= 1:
        return fonts[runs[0][0] if runs else 0].render(text, True, colour)
    parts = [(fonts[i], fonts[i].render(run, True, colour)) for i, run in runs]
    asc = max(f.get_ascent() for f, _ in parts)  # line up the baselines of all runs
    height = max(asc - f.get_ascent() + s.get_height() for f, s in parts)
    out = pygame.Surface((sum(s.get_width() for _, s in parts), height), pygame.SRCALPHA)
    x = 0
    for f, s in parts:
        out.blit(s, (x, asc - f.get_ascent()))
        x += s.get_width()
    return out


def render_text(text: str, lang: str, size: int, colour, bold: bool = False) -> pygame.Surface:
    """An antialiased, transparent surface with text in lang's faces (cached: don't draw on
    the result; copy it first)."""
    return _render(text, lang, int(size), tuple(pygame.Color(colour)), bool(bold))


def clear_caches() -> None:
    """Forget fonts and rendered text, e.g. after pygame.font.quit() or a text-size change."""
    _render.cache_clear()
    _font.cache_clear()
