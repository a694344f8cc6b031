"""What the phone server serves over HTTP: a fixed list of files, nothing else.

The list is made once, when the server starts, from three folders of the repository's
``assets/``: every file of ``assets/phone/`` (its subfolders too) whose kind is one of
``CONTENT_TYPES``, the four translation tables of ``assets/lang/`` (the desktop's own: one
source of truth) and the font files of ``assets/fonts/``. A request's path is looked up in
that list as a string: it is never joined to a folder, so ``..``, ``%2e%2e``, absolute
paths, dotfiles, folders (no listing) and any file not listed (the Python sources, the
saves, the fonts' scripts) are simply not there: 404.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

ASSETS = Path(__file__).resolve().parent.parent.parent / "assets"
PHONE_DIR = ASSETS / "phone"
LANG_DIR = ASSETS / "lang"
FONTS_DIR = ASSETS / "fonts"
LANGUAGES = ("en", "zh_Hant", "zh_Hans", "th")

#: the kinds of file served, by suffix; the page's text is UTF-8
CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".json": "application/json; charset=utf-8",
    ".txt": "text/plain; charset=utf-8",  # the vendored libraries' licences
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".webp": "image/webp",
    ".ico": "image/x-icon",
    ".webmanifest": "application/manifest+json",
    ".ttf": "font/ttf",
    ".otf": "font/otf",
    ".woff2": "font/woff2",
}
FONT_SUFFIXES = (".ttf", ".otf", ".woff2")
COMPRESSIBLE = frozenset(
    {"text/html", "text/css", "text/javascript", "application/json", "text/plain",
     "image/svg+xml", "application/manifest+json"}
)  # fmt: skip

#: the page and its translations change with the program: the browser asks again each time
#: (a 304 when nothing changed); fonts are large and change only with a new subset
REVALIDATE = "no-cache"
FONT_CACHE = "public, max-age=86400"


@dataclass(frozen=True)
class Served:
    """One file the server may send: where it is, its Content-Type and Cache-Control."""

    path: Path
    content_type: str
    cache: str

    @property
    def compressible(self) -> bool:
        """Text, which gzip shrinks (fonts and pictures are compressed already)."""
        return self.content_type.split(";")[0] in COMPRESSIBLE


def _page_files(root: Path) -> dict[str, Served]:
    out: dict[str, Served] = {}
    if not root.is_dir():
        return out
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root)
        if any(part.startswith(".") for part in rel.parts) or not path.is_file():
            continue
        kind = CONTENT_TYPES.get(path.suffix.lower())
        if kind is None or path.is_symlink():
            continue
        cache = FONT_CACHE if path.suffix.lower() in FONT_SUFFIXES else REVALIDATE
        out["/" + rel.as_posix()] = Served(path, kind, cache)
    return out


def served_files(
    phone_dir: Path = PHONE_DIR, lang_dir: Path = LANG_DIR, fonts_dir: Path = FONTS_DIR
) -> dict[str, Served]:
    """Every URL path the server answers with a file, and the file."""
    files = _page_files(phone_dir)
    index = files.get("/index.html")
    if index is not None:
        files["/"] = index
    for lang in LANGUAGES:
        path = lang_dir / f"{lang}.json"
        if path.is_file():
            files[f"/lang/{lang}.json"] = Served(path, CONTENT_TYPES[".json"], REVALIDATE)
    if fonts_dir.is_dir():
        for path in sorted(fonts_dir.iterdir()):
            suffix = path.suffix.lower()
            if suffix in FONT_SUFFIXES and path.is_file() and not path.is_symlink():
                files[f"/fonts/{path.name}"] = Served(path, CONTENT_TYPES[suffix], FONT_CACHE)
    return files
