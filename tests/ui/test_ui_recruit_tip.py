"""A Recruitment's tooltip says whose placard it takes: a newcomer playing through could not
tell from "Recruit G Goldman" whether it came from the pool or from a player."""

from __future__ import annotations

import pytest

from game.ui import i18n
from game.ui.table.sentences import clan_word, recruit_tip
from tests.seat_views import players_with, table_view

# Bruno holds G's placard, the pool L's
VIEW = players_with(
    table_view(names=("Ann", "Bruno", "Chen")),
    p0={"placards": ()},
    p1={"placards": (3,)},
    p2={"placards": ()},
)


@pytest.mark.parametrize("lang", ["en", "zh_Hant", "zh_Hans", "th"])
def test_the_tip_names_the_placards_holder_or_the_pool(lang):
    i18n.set_language(lang)
    try:
        held = recruit_tip(VIEW, 3)
        pooled = recruit_tip(VIEW, 1)
        assert "Bruno" in held and clan_word(3) in held
        assert i18n.tr("term.pool").lower() in pooled.lower() and clan_word(1) in pooled
        assert "Bruno" not in pooled
    finally:
        i18n.set_language("en")
