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
    language's font: fonts.render_text(..., lang))."""
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


# -- singular and plural: the forms are the tables' -------------------------------------------

#: a key's singular form: `key_one` for one thing or one player, `key` for any other count.
#: Every table has both (Chinese and Thai do not inflect, but the singular's words may still
#: differ, e.g. 對方 "the other one" for 他們 "they"); which form a sentence takes is the
#: count's business, never a guess from the words.
ONE = "_one"
COUNT = "count"  # the placeholder of a counted sentence ("{count} cards"): it has a key_one
NAMES = "names"  # the placeholder of a list of players ("{names} win"): key_one says {name}


def form_key(key: str, count: int) -> str:
    """The key of the form a count takes: key_one for 1, key otherwise."""
    return key + ONE if count == 1 else key


def tr_count(key: str, count: int, **kwargs: object) -> str:
    """A counted sentence, e.g. tr_count("log.drew", 1, name="Bo") -> "Bo draws 1 card."."""
    return tr(form_key(key, count), count=count, **kwargs)


def list_of(items) -> str:
    """'C, W, G' in the current language, without an "and": the table's own separator
    (`list.items`: "、" in Chinese)."""
    items = list(items)
    if not items:
        return ""
    first = items[0]
    for item in items[1:]:
        first = tr("list.items", first=first, rest=item)
    return first


def and_list(items: list[str]) -> str:
    """'W', 'W and G', 'C, W and G' in the current language."""
    if len(items) <= 1:
        return "".join(items)
    first = items[0]
    for item in items[1:-1]:
        first = tr("log.list", first=first, rest=item)
    return tr("log.and", first=first, last=items[-1])


def tr_names(key: str, names: list[str], **kwargs: object) -> str:
    """A sentence about one or more players: key_one with {name} for one, key with {names}
    (joined by the table's "and") for more, e.g. "Bo wins!" / "Bo and Cy share the win!"."""
    if not names:
        raise ValueError(f"{key!r}: a sentence about players needs at least one")
    if len(names) == 1:
        return tr(key + ONE, name=names[0], **kwargs)
    return tr(key, names=and_list(names), **kwargs)
