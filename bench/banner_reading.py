"""How long a newcomer needs to read a reaction window's banner and press Stop.

    python -m bench.banner_reading

Every banner a Stop window shows (Travel on a placard and on a laid Clan card, Recruitment,
"I'm the Boss!"; the viewer asked) is built by the table's own `window_text` in each
language, with the bots' table names. Its reading time comes from the published reading
speeds of IReST (Trauzettel-Klosinski & Dietz, Invest. Ophthalmol. Vis. Sci. 53:5452, 2012),
taken one standard deviation below the mean for a slow reader: English 228 - 30 = 198 words
a minute, Chinese 255 - 29 = 226 characters a minute, and for Thai (not in IReST) the
study's mean over its languages in characters, 987 - 118 = 869 a minute (Thai and Latin
letters; the vowel and tone marks above and below count as none). A Latin name in Chinese
text counts as one character. To it come 1.5 s to find
the banner, decide and point at Stop (orienting ~0.5 s and one mouse movement to a large
button ~1 s, Fitts' law).
"""

from __future__ import annotations

import re
import unicodedata

from game.bots.names import BOT_NAMES
from game.rules import Card, Clan, placard
from game.rules.seat_view import LaidView, SeatView, WindowView
from game.rules.state import Source, SourceKind, WindowKind
from game.ui import i18n
from game.ui.table.panels.window import window_text
from tests.seat_views import deal_view

WPM = {"en": 198}  # words a minute
CPM = {"zh_Hant": 226, "zh_Hans": 226, "th": 869}  # characters a minute
REACT = 1.5  # seconds: find the banner, decide, point at Stop


def _view(seat: int) -> SeatView:
    """A deal with seat 2's Y Clan card (id 7) laid."""
    return deal_view(seat, laid=(LaidView(7, 2, Clan.YELLOW),))


def _window(kind: WindowKind, card=None, target=None, recruit=None) -> WindowView:
    """A window opened by seat 3, asking seats 0 to 2."""
    return WindowView(kind, 3, card, target, recruit, (0, 1, 2), (0, 1, 2), ())


#: The windows a Stop answers, as the table's view carries them.
WINDOWS = {
    "travel on a placard": _window(WindowKind.TRAVEL, Card.TRAVEL_RED, placard(Clan(2))),
    "travel on a Clan card": _window(
        WindowKind.TRAVEL, Card.TRAVEL_RED, Source(SourceKind.CARD, 7)
    ),
    "recruitment": _window(WindowKind.RECRUIT, recruit=Clan(4)),
    "boss card": _window(WindowKind.BOSS),
}


def _is_cjk(ch: str) -> bool:
    return unicodedata.name(ch, "").startswith("CJK UNIFIED")


def reading_seconds(lang: str, text: str) -> float:
    """English by its words; Chinese by its Han characters, a Latin name counting as one;
    Thai by its letters (Thai and Latin)."""
    if lang in WPM:
        return len(text.split()) / WPM[lang] * 60
    if lang.startswith("zh"):
        han = sum(1 for c in text if _is_cjk(c))
        latin = re.sub(r"[^A-Za-z0-9 ]", " ", "".join(" " if _is_cjk(c) else c for c in text))
        return (han + len(latin.split())) / CPM[lang] * 60
    letters = [c for c in text if unicodedata.category(c) in ("Lo", "Lu", "Ll", "Nd")]
    return len(letters) / CPM[lang] * 60


def banners() -> list[tuple[str, str, str, float]]:
    """(language, window, banner, seconds to read it and press Stop), every language."""
    names = list(BOT_NAMES[:4])
    out = []
    before = i18n.current_language()
    try:
        for lang in i18n.LANGUAGES:
            i18n.set_language(lang)
            for label, win in WINDOWS.items():
                text = window_text(_view(0), win, names, viewer=0)
                out.append((lang, label, text, reading_seconds(lang, text) + REACT))
    finally:
        i18n.set_language(before)
    return out


def main() -> int:
    rows = banners()
    for lang, label, text, seconds in rows:
        print(f"{lang:<8}{label:<24}{seconds:5.1f} s  {text}")
    print(f"longest: {max(r[3] for r in rows):.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
