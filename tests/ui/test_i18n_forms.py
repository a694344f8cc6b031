"""Singular and plural forms come from the tables: every sentence with a count ({count}) or a
list of players ({names}) has its `_one` form in every language, and the code picks the form
by the count (i18n.tr_count, i18n.tr_names), never by pasting names into a plural sentence."""

from __future__ import annotations

import re

import pytest

from game.ui import i18n
from game.ui.i18n import placeholders

# the tables' conventions (game/ui/i18n.py): a count, a list of players, the singular's key
COUNT, NAMES, ONE = "count", "names", "_one"

# nouns the game counts: written after a number in English they must inflect, so the number
# there must be a {count} (the English table is the one that shows the difference)
COUNTED_NOUNS = (
    "card", "tile", "move", "dividend", "investor", "deal", "player", "seat", "step", "placard",
)  # fmt: skip
NUMBER_BEFORE_NOUN = re.compile(
    r"\{(\w+)\}(?: [A-Z][a-z]+)? (" + "|".join(COUNTED_NOUNS) + r")s?\b"
)
# "the {clan} placard", the lesson's "her {S} placard": a clan's name, not a number
CLAN_WORDS = {"clan", "clans", "C", "S", "W", "D", "G", "L"}
# plural pronouns a sentence about one player must not use
PLURAL_PRONOUNS = {"zh_Hant": "他們", "zh_Hans": "他们", "th": "พวกเขา"}


def counted_and_listed(lang: str) -> dict[str, str]:
    """The keys of sentences that take a form: key -> 'count' or 'names'."""
    out = {}
    for key, text in i18n.table(lang).items():
        if key.endswith(ONE):
            continue
        found = placeholders(text) & {COUNT, NAMES}
        assert len(found) <= 1, f"{lang} {key}: a count and a list in one sentence: split it"
        if found:
            out[key] = next(iter(found))
    return out


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_counted_or_listed_sentence_has_its_singular(lang):
    table = i18n.table(lang)
    kinds = counted_and_listed(lang)
    assert "log.game_over" in kinds and "log.drew" in kinds  # the scan sees the sentences
    for key, kind in kinds.items():
        one = table.get(key + ONE)
        assert one is not None, f"{lang} {key}: no singular form {key + ONE}"
        many = placeholders(table[key])
        if kind == NAMES:  # the one player is {name}; everything else the same
            assert placeholders(one) == many - {NAMES} | {"name"}, (lang, key, one)
            pronoun = PLURAL_PRONOUNS.get(lang)
            assert pronoun is None or pronoun not in one, (lang, key, one)
        else:  # "1 card" may spell the one out; it needs nothing the plural lacks
            assert placeholders(one) <= many, (lang, key, one)
    for key in table:  # and no singular without its sentence
        if key.endswith(ONE):
            assert key[: -len(ONE)] in kinds, f"{lang} {key}: a singular of no counted sentence"


def test_a_number_before_a_counted_noun_is_a_count():
    """'{n} tiles left' read '1 tiles left': a number before a noun the game counts is a
    {count}, so it has its forms."""
    wrong = []
    for key, text in i18n.table("en").items():
        for m in NUMBER_BEFORE_NOUN.finditer(text):
            if m.group(1) not in CLAN_WORDS | {COUNT}:
                wrong.append((key, m.group(0)))
    assert not wrong


def test_the_forms_are_chosen_by_the_count_and_the_list():
    assert (i18n.COUNT, i18n.NAMES, i18n.ONE) == (COUNT, NAMES, ONE)
    i18n.set_language("en")
    try:
        assert i18n.tr_count("log.drew", 1, name="Bo") == "Bo draws 1 card."
        assert i18n.tr_count("log.drew", 3, name="Bo") == "Bo draws 3 cards."
        assert i18n.tr_count("center.tiles_left", 1) == "1 tile left"
        assert i18n.tr_names("log.game_over", ["Bruno"]) == "Game over: Bruno wins!"
        assert i18n.tr_names("log.game_over", ["Bo", "Cy", "Di"]) == (
            "Game over: Bo, Cy and Di share the win!"
        )
        with pytest.raises(ValueError):
            i18n.tr_names("log.game_over", [])
        i18n.set_language("zh_Hant")
        assert i18n.tr_names("log.game_over", ["Bo", "Cy"]) == "遊戲結束：Bo和Cy 並列獲勝！"
    finally:
        i18n.set_language("en")


def test_the_log_says_one_winner_in_the_singular():
    """The replay's log ended "Game over: Bruno win!" (a plural sentence for one winner)."""
    from game.ui.table.sentences import Describer

    i18n.set_language("en")
    describe = Describer(["Ana", "Bruno", "Cy"])
    assert describe({"type": "game_over", "winners": [1]}) == "Game over: Bruno wins!"
    assert describe({"type": "game_over", "winners": [0, 2]}) == (
        "Game over: Ana and Cy share the win!"
    )
    for lang in i18n.LANGUAGES:  # every language names one winner with its singular
        i18n.set_language(lang)
        one = describe({"type": "game_over", "winners": [1]})
        assert one == i18n.table(lang)["log.game_over_one"].format(name="Bruno")
    i18n.set_language("en")
