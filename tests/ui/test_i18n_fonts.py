"""Translations, shipped fonts and sounds: every string of every language must be drawable.

Needs no display and no sound card (dummy SDL drivers). The coverage tests read the shipped
font files, so deleting a character from a subset (or adding a string whose characters the
subset lacks, without rerunning assets/fonts/subset_fonts.py) fails here.
"""

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import importlib.util  # noqa: E402
import re  # noqa: E402
import unicodedata  # noqa: E402
import wave  # noqa: E402
from pathlib import Path  # noqa: E402

import pygame  # noqa: E402
import pytest  # noqa: E402

from game.ui import i18n
from game.ui.drawing import fonts

ROOT = Path(__file__).resolve().parents[2]
SOUND_DIR = ROOT / "assets" / "sounds"
# Frequent simplified-only characters and their traditional forms (checked once with OpenCC):
# a cheap guard against pasting the wrong script into a table.
SIMPLIFIED_ONLY = "们这来对时会张选设语说钱买卖开关结东过还门问间个发为认让请达败红蓝黄绿资协议戏规则变体长从数计动区网级胜万与机线连页见书读写记点击总额换轮询现实单双场图欢帮态显离乐声静号码"
TRADITIONAL_ONLY = "們這來對時會張選設語說錢買賣開關結東過還門問間個發為認讓請達敗紅藍黃綠資協議戲規則變體長從數計動區網級勝萬與機線連頁見書讀寫記點擊總額換輪詢現實單雙場圖歡幫態顯離樂聲靜號碼闆"
NOTDEF_PROBE = "\ue000"  # private use: in no subset, so it renders as the .notdef box


@pytest.fixture(scope="module", autouse=True)
def _pygame():
    pygame.font.init()
    yield
    fonts.clear_caches()


def test_every_language_has_the_same_keys_and_placeholders():
    en = i18n.table("en")
    for lang in i18n.LANGUAGES:
        t = i18n.table(lang)
        assert set(t) == set(en), f"{lang}: missing {set(en) - set(t)}, extra {set(t) - set(en)}"
        for key, text in t.items():
            assert i18n.placeholders(text) == i18n.placeholders(en[key]), (lang, key, text)


def test_no_empty_or_padded_strings():
    for lang in i18n.LANGUAGES:
        for key, text in i18n.table(lang).items():
            assert isinstance(text, str) and text.strip(), (lang, key)
            assert text == text.strip(), (lang, key, text)


def test_chinese_tables_use_their_own_script():
    hant, hans = ("".join(i18n.table(x).values()) for x in ("zh_Hant", "zh_Hans"))
    assert not set(hant) & set(SIMPLIFIED_ONLY), set(hant) & set(SIMPLIFIED_ONLY)
    assert not set(hans) & set(TRADITIONAL_ONLY), set(hans) & set(TRADITIONAL_ONLY)


def test_glossary_terms():
    assert [i18n.table(x)["app.title"] for x in i18n.LANGUAGES] == [
        "I'm the Boss!",
        "我是大老闆！",  # the rulebook's title, with Chinese punctuation (full-width)
        "我是老板！",
        "อย่าซ่ากับบอส",
    ]
    assert [i18n.native_name(x) for x in i18n.LANGUAGES] == [
        "English",
        "繁體中文",
        "简体中文",
        "ไทย",
    ]


FAMILIES = ("Cashman", "Sacks", "Wadeworth", "Dougherty", "Goldman", "Liebgeld")


def test_clans_are_named_as_each_language_names_them():
    """docs/RULES.md's glossary: Chinese names a clan by its colour (rulebook 001: 紅色投資者),
    Thai by its investor's family name in Thai script (rulebook 003 orders the first player
    by the investors' names), each with the letter of the chips; no Chinese or Thai sentence
    says a Latin surname (the Chinese card face may print it, clan.*.family)."""
    from game.ui.table.sentences import clan_word

    said = {"en": "C Cashman", "zh_Hant": "紅色（C）", "zh_Hans": "红色（C）", "th": "แคชแมน (C)"}
    try:
        for lang, word in said.items():
            i18n.set_language(lang)
            assert clan_word(0) == clan_word("red") == word
    finally:
        i18n.set_language("en")
    for lang in ("zh_Hant", "zh_Hans", "th"):
        for key, text in i18n.table(lang).items():
            if not key.endswith(".family"):
                assert not re.search(rf"\b({'|'.join(FAMILIES)})\b", text), (lang, key, text)


def test_translator_switches_live_and_fails_loudly():
    t = i18n.Translator("en")
    heard = []
    t.listeners.append(heard.append)
    assert t.tr("money.amount", n=5) == "$5M"
    assert t.tr("handoff.pass_to", name="Mei") == "Pass to Mei"
    t.set_language("zh_Hant")
    assert t.lang == "zh_Hant" and t.tr("term.boss") == "老闆"
    t.set_language("th")
    assert t("phrase.one_dividend") == "1 ส่วนแบ่ง"
    with pytest.raises(KeyError, match=r"'no\.such\.key'.*'th'"):
        t.tr("no.such.key")
    with pytest.raises(KeyError, match="name"):
        t.tr("handoff.pass_to")
    with pytest.raises(ValueError):
        t.set_language("fr")
    assert t.lang == "th" and heard == ["zh_Hant", "th"]


def test_manifest_covers_every_language():
    assert set(fonts.manifest()["chains"]) == set(i18n.LANGUAGES)
    for lang in i18n.LANGUAGES:
        for bold in (False, True):
            assert all(p.exists() for p in fonts.face_files(lang, bold))


def _needed(lang):
    text = "".join(i18n.table(lang).values())
    return sorted({c for c in text if unicodedata.category(c) != "Cc"})


@pytest.mark.parametrize("bold", [False, True])
@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_character_is_in_the_fonts_of_its_language(lang, bold):
    """By cmap of the shipped files, and by what pygame actually draws (not the .notdef box)."""
    covers = [fonts.cmap(p) for p in fonts.face_files(lang, bold)]
    missing = [c for c in _needed(lang) if not any(ord(c) in cov for cov in covers)]
    assert not missing, f"{lang} bold={bold}: no glyph for {missing}; rerun subset_fonts.py"
    chain = fonts.face_chain(lang, 24, bold)
    for ch in _needed(lang):
        if unicodedata.category(ch) in ("Mn", "Mc") or ch.isspace():
            continue  # a lone mark or a space draws nothing comparable; the cmap check holds
        [(face, _)] = fonts.split_runs(ch, lang, bold)
        drawn = chain[face].render(ch, True, "black")
        box = chain[face].render(NOTDEF_PROBE, True, "black")
        assert pygame.image.tobytes(drawn, "RGBA") != pygame.image.tobytes(box, "RGBA"), (
            f"{lang}: {ch!r} U+{ord(ch):04X} draws as .notdef"
        )


def test_cmap_reader_matches_fonttools():
    ttlib = pytest.importorskip("fontTools.ttLib")
    for path in sorted(fonts.FONT_DIR.glob("*.subset.*")):
        assert fonts.cmap(path) == frozenset(ttlib.TTFont(path).getBestCmap()), path.name


def test_thai_with_money_renders_all_glyphs():
    text = "ส่งต่อให้ สมชาย $5M"
    assert fonts.missing_chars(text, "th") == ""
    surf = fonts.render_text(text, "th", 32, "black")
    assert (surf.get_width(), surf.get_height()) == fonts.text_size(text, "th", 32)
    assert 32 * 5 < surf.get_width() < 32 * len(text)
    money = fonts.render_text("$5M", "th", 32, "black").get_bounding_rect()
    assert money.width > 32  # three real glyphs, not boxes: checked per glyph above
    # Tone marks survive shaping: they add ink above the consonant (pygame.freetype drops them).
    bare = fonts.render_text("ก", "th", 48, "black").get_bounding_rect()
    marked = fonts.render_text("ก้", "th", 48, "black").get_bounding_rect()
    assert marked.top < bare.top and marked.height > bare.height


@pytest.mark.parametrize("lang", ["zh_Hant", "zh_Hans"])
def test_chinese_renders(lang):
    text = i18n.table(lang)["phrase.deal_closed"]
    surf = fonts.render_text(text, lang, 32, (20, 20, 20), bold=True)
    han = sum(unicodedata.name(c, "").startswith("CJK UNIFIED") for c in text)
    assert surf.get_width() >= 32 * 0.9 * han and surf.get_height() >= 32
    assert surf.get_bounding_rect().width > surf.get_width() * 0.8


# Names people type, on a phone or at the screen: common Simplified and Traditional ones.
CHINESE_NAMES = ("陳小紅", "王芳", "張偉", "李娜", "黃志明", "刘洋", "赵丽颖", "蔡英傑", "鄭淑芬")


@pytest.mark.parametrize("bold", [False, True])
@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_chinese_names_render_on_every_screen(lang, bold):
    """A player named in Chinese shows on an English or Thai screen too, not as boxes (the
    faces held only the tables' characters): the SC face ends every chain with the 8,836
    characters names are written in."""
    for name in CHINESE_NAMES:
        assert fonts.missing_chars(name, lang, bold) == "", (lang, name)
    surf = fonts.render_text("陳小紅", lang, 32, (20, 20, 20), bold)
    assert surf.get_bounding_rect().width >= 3 * 32 * 0.8


def test_mixed_runs_blit_side_by_side():
    text = "Pass to สมชาย ✗"
    runs = fonts.split_runs(text, "en")
    assert [r for _, r in runs] == ["Pass to ", "สมชาย ", "✗"]  # Thai name in the Thai face
    assert "".join(r for _, r in runs) == text
    chain = fonts.face_chain("en", 30)
    surf = fonts.render_text(text, "en", 30, "white")
    assert surf.get_width() == sum(chain[i].size(r)[0] for i, r in runs)
    assert fonts.split_runs("一、二 ✗ 5", "zh_Hans")[1] == (1, "✗ ")  # symbol from the Latin face
    assert fonts.missing_chars("Mei 美😀", "en") == "😀"  # a Chinese name shows, an emoji not
    assert fonts.render_text(text, "en", 30, "white") is surf  # cached


def _sound_names():
    spec = importlib.util.spec_from_file_location("make_sounds", SOUND_DIR / "make_sounds.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return list(module.SOUNDS)


def test_sounds_are_small_valid_wavs():
    names = _sound_names()
    assert len(names) == 11
    pygame.mixer.init(22050, -16, 1)
    try:
        for name in names:
            path = SOUND_DIR / f"{name}.wav"
            assert path.stat().st_size < 100_000, name
            with wave.open(str(path)) as w:
                assert (w.getframerate(), w.getnchannels(), w.getsampwidth()) == (22050, 1, 2)
                assert 0.02 < w.getnframes() / 22050 < 2.0, name
            assert pygame.mixer.Sound(path).get_length() > 0.02, name
    finally:
        pygame.mixer.quit()
