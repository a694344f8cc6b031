"""One term per concept in each language: docs/RULES.md §10 lists the variants a table must
not use (each a regular expression), and this test holds every table to that list. It also
checks the forms a sentence needs that a card's face or a button does not: a card named
inside a sentence, the Stop button, the default name at a LAN table."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import regex

from game.ui import i18n
from game.ui.config import Config
from game.ui.drawing import cardart
from game.ui.sessions import lan
from game.ui.table.sentences import Describer

RULES_MD = Path(__file__).resolve().parents[2] / "docs" / "RULES.md"
BEGIN, END = "<!-- terminology: read by tests/ui/test_i18n_terms.py -->", "<!-- end of terminology -->"
ROW = re.compile(r"^\| (\w+) \| `(.+?)` \| (.+?) \| (.+?) \|$")


def wrong_variants() -> list[tuple[str, str, str]]:
    """(language, pattern, what to use) for every row of the glossary's list of variants."""
    text = RULES_MD.read_text(encoding="utf-8")
    block = text[text.index(BEGIN) : text.index(END)]
    rows = [ROW.match(line) for line in block.splitlines()]
    return [(m[1], m[2].replace("\\|", "|"), m[3]) for m in rows if m]


def test_the_glossary_lists_the_variants_the_review_found():
    """The seed: the variants issue 35 found are in the list, for every language named."""
    listed = {(lang, p) for lang, p, _ in wrong_variants()}
    for lang, pattern in [
        ("zh_Hant", "喊價"),
        ("zh_Hant", "快捷鍵"),
        ("zh_Hant", "來源"),
        ("zh_Hant", "主持人"),
        ("zh_Hant", "放棄"),
        ("zh_Hant", "!"),
        ("zh_Hans", "重播"),
        ("zh_Hans", "[「」]"),
        ("zh_Hans", "点选|设定|依序"),
        ("th", "แหล่ง"),
        ("th", "จ้าง"),
        ("th", "ไพ่"),
        ("th", ";"),
    ]:
        assert (lang, pattern) in listed, (lang, pattern)
    assert {lang for lang, _ in listed} == {"zh_Hant", "zh_Hans", "th"}


@pytest.mark.parametrize("lang", ["zh_Hant", "zh_Hans", "th"])
def test_no_table_uses_a_variant_the_glossary_marks_wrong(lang):
    found = []
    for code, pattern, use in wrong_variants():
        if code != lang:
            continue
        for key, text in i18n.table(lang).items():
            for m in regex.finditer(pattern, text):
                found.append(f"{key}: {text[max(0, m.start() - 8) : m.end() + 8]!r} (use {use})")
    assert not found, f"{len(found)} variants in {lang}: " + "; ".join(found[:8])


@pytest.fixture
def lang():
    def use(code: str) -> None:
        i18n.set_language(code)

    yield use
    i18n.set_language("en")


@pytest.mark.parametrize(
    ("code", "stop", "clan_red"),
    [
        ("en", "Mei discards Stop card.", "Mei discards Clan card C Cashman."),
        ("zh_Hant", "Mei 棄掉停牌卡。", "Mei 棄掉紅色（C）部族卡。"),
        ("th", "Mei ทิ้ง การ์ดหยุด", "Mei ทิ้ง การ์ดตระกูลแคชแมน (C)"),
    ],
)
def test_a_card_inside_a_sentence_has_its_own_form(lang, code, stop, clan_red):
    """Thai says การ์ดหยุด in a sentence where the card's face says หยุด ("Mei ทิ้ง หยุด")."""
    lang(code)
    say = Describer(["Mei", "Bo", "Cy"])
    assert say._discarded({"seat": 0, "card": "stop"}) == stop
    assert say._discarded({"seat": 0, "card": "clan_red"}) == clan_red
    assert cardart.card_title("stop") == i18n.tr("card.stop")  # the face keeps its short name


def test_no_button_or_banner_glues_punctuation_to_a_card_name():
    """The Stop button and banner were tr("card.stop") + "!": 「停牌卡!」 in Chinese; a
    mark or space glued after a translated piece is the language's own to choose (a sum of
    money in a formula, "$18M = 6 × $3M", is no word)."""
    root = Path(__file__).resolve().parents[2] / "game" / "ui"
    glued = [
        f"{p.relative_to(root)}:{n}"
        for p in root.rglob("*.py")
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"tr\([^)]*\) \+ \"[ !?:;,.]|\{tr\((?!.money\.)[^}]*\)\}[ !?:;,.]", line)
    ]
    assert not glued, glued


def test_the_lan_default_name_is_in_the_players_language(lang, monkeypatch):
    monkeypatch.delenv("USER", raising=False)
    monkeypatch.delenv("USERNAME", raising=False)
    cfg = Config()
    cfg.lan_name, cfg.names = "", []
    lang("th")
    assert lan.player_name(cfg) == "ผู้เล่น"
    lang("zh_Hans")
    assert lan.player_name(cfg) == "玩家"


@pytest.mark.parametrize("code", i18n.LANGUAGES)
def test_one_list_style_per_language(code):
    """A list with "and" (log.list, log.and) and one without (list.items) part their items
    alike: Thai had "C W และ G" beside "C, W"."""
    table = i18n.table(code)
    assert table["log.list"] == table["list.items"], code
