"""Translation tables for the client: flat JSON files in assets/lang, one per language.

Why no fallback: a key missing from one language is a bug that must show up in tests and
during development, not as English text quietly appearing in the Thai UI. Tests keep the key
sets and placeholders of all tables identical, so a KeyError here means a typo in a key.
No pygame here: the tables are plain data, usable by headless tools and tests.
"""

from __future__ import annotations

import json
import string
from collections.abc import Callable
from functools import cache
from pathlib import Path

LANGUAGES = ("en", "zh_Hant", "zh_Hans", "th")
DEFAULT_LANGUAGE = "en"
LANG_DIR = Path(__file__).resolve().parents[2] / "assets" / "lang"


@cache
def table(lang: str) -> dict[str, str]:
    """The whole table of one language, loaded once."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; expected one of {LANGUAGES}")
    with open(LANG_DIR / f"{lang}.json", encoding="utf-8") as fh:
        return json.load(fh)


def placeholders(text: str) -> frozenset[str]:
    """The {names} a str.format template uses (what every language must agree on)."""
    return frozenset(f for _, f, _, _ in string.Formatter().parse(text) if f is not None)


def native_name(lang: str) -> str:
    """A language's name in its own script, for the language picker (draw it in that
    language's font: font_for(lang, ...))."""
    return table(lang)["language.native_name"]


class Translator:
    """Looks keys up in the current language; set_language switches live (widgets that
    re-render each frame or on a language-changed event pick the new text up)."""

    def __init__(self, lang: str = DEFAULT_LANGUAGE) -> None:
        self.lang = lang
        self.listeners: list[Callable[[str], None]] = []  # e.g. a scene that re-lays out text
        self.set_language(lang)

    def set_language(self, lang: str) -> None:
        self._table = table(lang)  # raises ValueError for an unknown code
        self.lang = lang
        for listener in self.listeners:
            listener(lang)

    def tr(self, key: str, **kwargs: object) -> str:
        """The text for key, formatted with kwargs, e.g. tr("money.amount", n=5) -> "$5M"."""
        try:
            text = self._table[key]
        except KeyError:
            raise KeyError(f"no translation for key {key!r} in language {self.lang!r}") from None
        try:
            return text.format(**kwargs)
        except KeyError as exc:
            raise KeyError(
                f"translation {key!r} in language {self.lang!r} needs argument {exc.args[0]!r}"
            ) from None

    __call__ = tr

    def has(self, key: str) -> bool:
        return key in self._table


_default = Translator()
tr = _default.tr
set_language = _default.set_language
has = _default.has


def current_language() -> str:
    return _default.lang
