"""Line breaking (draw.wrap) follows UAX #14 in every language. Thai is written without
spaces between words, so a line may end only where ICU's dictionary ends a word: a break
between letters ("ไ / ด้") is what a Thai reader notices at once. The oracle here is ICU's
word BreakIterator, not the line iterator that draw uses, with the game's own words
(assets/lang/th.words.txt: ดีล, บอท, ...) taken as words, which ICU's dictionary lacks."""

from __future__ import annotations

import pygame
import pytest
from icu4py.breakers import LineBreaker, WordBreaker

from game.ui import i18n
from game.ui.drawing import cardart, draw, linebreak
from game.ui.drawing.theme import THEME
from tools import layout_probe as probe

SIZE = 22
WIDTHS = (130, 210, 330, 520)


@pytest.fixture
def lang():
    """Switch THEME to a language for one test (back to English after it)."""
    pygame.font.init()

    def use(code: str) -> None:
        THEME.configure(lang=code)
        i18n.set_language(code)

    yield use
    THEME.configure(lang="en")
    i18n.set_language("en")


def _line_starts(para: str, lines: list[str]) -> list[int]:
    """Where each line after the first begins in para (a break drops the spaces at it)."""
    pos, starts = 0, []
    for i, line in enumerate(lines):
        while not para.startswith(line, pos):
            assert para[pos] == " ", (para, lines)
            pos += 1
        if i:
            assert not line[:1].isspace(), (para, lines)
            starts.append(pos)
        pos += len(line)
    assert para[pos:].strip() == "", (para, lines)
    return starts


def _words(para: str) -> list[tuple[int, int]]:
    """The game's words in para, each a word of its own, and ICU's words of the stretches
    between them."""
    games = list(linebreak.word_spans(para, "th"))
    spans, start = list(games), 0
    for a, b in [*games, (len(para), len(para))]:
        pos = start
        for word in WordBreaker(para[start:a], "th"):
            spans.append((pos, pos + len(word)))
            pos += len(word)
        start = b
    return spans


@pytest.mark.parametrize(
    ("text", "pieces"),
    [
        ("ที่นั่งของบอท", ["ที่", "นั่ง", "ของ", "บอท"]),  # ICU alone: ขอ|งบ|อท
        ("รวยที่สุด ทุกดีลต้อง", ["รวย", "ที่สุด ", "ทุก", "ดีล", "ต้อง"]),  # ทุ|กดีล
        ("ว่าดีลล่ม", ["ว่า", "ดีล", "ล่ม"]),  # ดี|ลล่ม
        ("(เรียลไทม์)", ["(เรียลไทม์)"]),  # เรี|ยล|ไทม์
        ("สับกองทิ้งเป็นกองจั่วใหม่", ["สับ", "กองทิ้ง", "เป็น", "กองจั่ว", "ใหม่"]),
        ("ดีล: 3", ["ดีล: ", "3"]),  # UAX #14 still holds the colon to its word
    ],
)
def test_thai_breaks_keep_the_games_words_and_their_neighbours(text, pieces):
    """The game's words are not in ICU's dictionary, which then cuts them and misreads the
    word before them too: the line breaks of these phrases are whole words."""
    assert list(draw._segments(text, "th")) == pieces


def _breaks_inside_words(s: str, size: int, width: int, bold: bool = False) -> list[str]:
    """Each break of wrap(s) that falls inside a dictionary word, shown as "before|after",
    unless the piece UAX #14 holds together around it ("(Wadeworth) ") is wider than the
    line, where only a cut can help."""
    bad = []
    for para in s.split("\n"):
        lines = draw.wrap(para, size, width, bold)
        words = _words(para)
        pieces, pos = [], 0
        for piece in LineBreaker(para, "th"):
            pieces.append((pos, pos + len(piece)))
            pos += len(piece)
        for at in _line_starts(para, lines):
            start, end = next((a, b) for a, b in pieces if a < at < b or b == at)
            if draw.text_width(para[start:end].rstrip(), size, bold) > width:
                continue
            bad.extend(f"{para[a:at]}|{para[at:b]}" for a, b in words if a < at < b)
    return bad


def test_dai_in_travel_any_clan_is_never_split(lang):
    """Issue 23's example: "ได้" in the card title "Travel (any clan)" came out as "ไ / ด้)"."""
    lang("th")
    title = i18n.table("th")["card.travel_any"]
    assert "ได้" in title
    widest_word = max(draw.text_width(w, cardart.TITLE_PX, True) for w in WordBreaker(title, "th"))
    whole = draw.text_width(title, cardart.TITLE_PX, True)
    for width in range(widest_word, whole + 1):
        lines = draw.wrap(title, cardart.TITLE_PX, width, True)
        assert sum(line.count("ได้") for line in lines) == title.count("ได้"), (width, lines)


def test_thai_card_titles_on_the_faces_keep_their_words(lang):
    """The lines a card face draws (every card, at the sizes that carry words) are made of
    whole dictionary words."""
    lang("th")
    keys = ["clan_red", "travel_red", "travel_grey", "recruit", "boss", "stop"]
    for w, h in ((cardart.CARD_W, cardart.CARD_H), (110, 154), (cardart.TEXT_MIN_W, 140)):
        for key in keys:
            title = cardart.card_name(key)
            ends = {end for _, end in _words(title)}
            cardart._face.cache_clear()  # a cached face draws nothing to record
            with probe.probing() as p:
                cardart.face(key, w, h)
            px = THEME.font_px(cardart.TITLE_PX)
            flat = title.replace(" ", "")
            drawn: list[str] = []  # the title's lines come first (the stop sign repeats it)
            for r in p.texts:
                if r.requested_px == px and flat.startswith("".join(drawn) + r.text.replace(" ", "")):
                    drawn.append(r.text)
            assert "".join(drawn).replace(" ", "") == flat, (key, w, drawn)
            pos = 0
            for line in drawn[:-1]:
                pos = title.index(line, pos) + len(line)
                assert pos in ends or title[pos] == " ", (key, w, drawn)


@pytest.mark.parametrize("width", WIDTHS)
def test_every_thai_string_breaks_only_between_words(lang, width):
    lang("th")
    bad = {}
    for key, s in i18n.table("th").items():
        for bold in (False, True):
            cut = _breaks_inside_words(s, SIZE, width, bold)
            if cut:
                bad[key] = cut
    assert not bad, f"{len(bad)} strings cut inside a word at {width}px: {list(bad.items())[:5]}"


_AFTER = " -–—/"  # English breaks after these (UAX #14: spaces, hyphens, dashes, solidus)


@pytest.mark.parametrize("width", WIDTHS)
def test_english_breaks_at_spaces_and_after_hyphens_only(lang, width):
    """Anywhere else only inside a piece between two such opportunities that is wider than
    the line ("end-of-game" may break as "end-of-" / "game", never "end-of-gam" / "e")."""
    lang("en")
    for key, s in i18n.table("en").items():
        for para in s.split("\n"):
            lines = draw.wrap(para, SIZE, width)
            for at in _line_starts(para, lines):
                if para[at - 1] in _AFTER:
                    continue
                start = max(para.rfind(c, 0, at) for c in _AFTER) + 1
                ends = [e for e in (para.find(c, at) for c in _AFTER) if e >= 0]
                piece = para[start : min(ends, default=len(para)) + 1].rstrip()
                assert draw.text_width(piece, SIZE) > width, (key, width, piece, lines)


@pytest.mark.parametrize("code", ["zh_Hant", "zh_Hans"])
def test_chinese_breaks_between_ideographs_never_before_closing_marks(lang, code):
    """UAX #14's classes CL, CP, EX, IS (and the closing quotes) never start a line, OP and
    the opening quotes never end one - unless the line before the break is one word too
    wide to take the mark along ("（Cashman、" at 130 px)."""
    lang(code)
    closing, opening = tuple("，。、！？）」』：；…”’》〉】,.!?):;%"), tuple("（「『“‘《〈【([")
    for key, s in i18n.table(code).items():
        for width in WIDTHS:
            lines = draw.wrap(s, SIZE, width)
            assert all(draw.text_width(line, SIZE) <= width for line in lines), (key, lines)
            for before, after in zip(lines, lines[1:], strict=False):
                if not (after.startswith(closing) or before.endswith(opening)):
                    continue
                alone = [w for w in WordBreaker(before, code) if w.strip()]
                assert len(alone) == 1, (key, width, before, after)


@pytest.mark.parametrize("code", ["zh_Hant", "zh_Hans"])
def test_chinese_card_titles_break_between_words(lang, code):
    """Issue 32: a Chinese card's title broke a word in two ("（任意部" / "族）"): UAX #14
    allows a break between any two ideographs, which a title of three words cannot afford."""
    lang(code)
    for key in ["clan_red", "travel_red", "travel_grey", "recruit", "boss", "stop"]:
        title = cardart.card_name(key)
        ends, pos = set(), 0
        for word in WordBreaker(title, code):
            pos += len(word)
            ends.add(pos)
        for w, h in ((cardart.CARD_W, cardart.CARD_H), (110, 154), (96, 134)):
            _, lines, _, _ = cardart._title_layout(key, cardart._band(w, h))
            assert "".join(lines) == title.replace(" ", "") or " " in title, (key, lines)
            pos = 0
            for line in lines[:-1]:
                pos = title.index(line, pos) + len(line)
                assert pos in ends, (key, w, lines)


def test_the_thai_word_list_holds_the_games_loanwords():
    """ICU's dictionary knows none of the investors' names in Thai script and cuts them
    (แซ|กส์, ลีบเก|ลด์): every name, and the glossary's loanwords, is on the list."""
    th = i18n.table("th")
    names = [th[f"clan.{c}.family"] for c in ("red", "blue", "yellow", "magenta", "orange", "green")]
    for word in [*names, "ดีล", "บอท", "บอส", "การ์ด", th["term.dividend"]]:
        assert word in linebreak.game_words("th"), word
        assert list(linebreak.segments(word, "th")) == [word], word
