"""The hand: a big hand keeps every card's name in sight, the cards do not slide under the
pointer right after a play, and over the hand limit one click discards a card."""

import pygame
import pytest

from game.ui import cardart, screenshot
from game.ui.autoplay import click, make_app
from game.ui.table import hand as hand_mod
from game.ui.table.hand import HandFan
from game.ui.table.scene import TableScene


@pytest.fixture
def app(tmp_path):
    app = make_app(tmp_path, speed="fast")
    yield app
    app.shutdown()


def table_for(app, kind):
    t = TableScene(app, screenshot.crowded_session(kind))
    t.director.quiet = True
    app.push(t)
    for _ in range(3):
        app.step(1 / 30)
    return t


def title_band(fan: HandFan, i: int) -> pygame.Rect:
    r = fan.card_rect(i)
    return pygame.Rect(r.x + 6, r.y + 4, r.width - 12, 36)


@pytest.mark.parametrize("n", [10, 13, 15])
def test_every_card_name_in_a_big_hand_stays_visible(n):
    fan = HandFan()
    keys = [k for k in hand_mod.ORDER if k != "travel_grey"]
    fan.set_hand({k: 1 for k in keys[:n]}, set())
    assert len(fan.cards) == n
    for i in range(n):
        band = title_band(fan, i)
        for j in range(i + 1, n):  # later cards lie on top
            assert not fan.card_rect(j).colliderect(band), (n, i, j)
        assert fan.card_rect(i).bottom <= 1080 and fan.card_rect(i).top >= 840


def test_the_hand_keeps_its_places_under_the_pointer_after_a_play():
    fan = HandFan()
    hand = {"clan_red": 1, "clan_blue": 1, "boss": 1, "stop": 1, "recruit": 1}
    fan.set_hand(hand, set())
    before = {k: fan.slots[i] for i, k in enumerate(fan.cards)}
    fan.update(0.016, fan.card_rect(2).center)  # the pointer over the hand
    fan.set_hand({**hand, "boss": 0}, set())  # the Boss card is played
    assert [fan.slots[i] for i, k in enumerate(fan.cards)] == [before[k] for k in fan.cards]
    fan.update(0.016, (1500, 300))  # the pointer leaves: the gap closes
    assert fan.slots != [before[k] for k in fan.cards]
    assert fan.slots[0][0] > before["clan_red"][0]  # re-centred
    assert cardart.CARD_W > 0


def test_over_the_hand_limit_one_click_discards_a_card(app):
    t = table_for(app, "recruit_5")
    s = t.session
    assert t.v["phase"] == "discard"
    count = sum(s.state.hands[0])
    i = t.hand.cards.index("clan_red")
    click(t.hand.card_rect(i).center)
    app.step(1 / 30)
    assert sum(s.state.hands[0]) == count - 1  # discarded at once
    assert not t.card_buttons  # no pop-up
    # the Recruitment card still asks: recruit (five clans) or discard
    click(t.hand.card_rect(t.hand.cards.index("recruit")).center)
    app.step(1 / 30)
    assert sum(s.state.hands[0]) == count - 1 and len(t.card_buttons) == 6


def test_a_clan_card_the_deal_does_not_need_is_not_the_first_option(app):
    t = TableScene(app, screenshot.table_session())
    app.push(t)
    app.step(1 / 30)
    # space 1, C S W + 2 of D G L: Mei (the Boss) brings C, Ann's agreement S
    assert not t.clan_needed(0) and not t.clan_needed(1)
    assert t.clan_needed(2) and t.clan_needed(4)


def test_the_keyboard_selection_stays_in_place_after_a_play(app):
    t = table_for(app, "recruit_5")
    n = len(t.hand.cards)
    for _ in range(3):
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RIGHT, mod=0))
    app.step(1 / 30)
    assert t.hand.selected == 2 and t.card_buttons  # the third card, its pop-up open
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0))
    app.step(1 / 30)
    assert len(t.hand.cards) == n - 1  # discarded ...
    assert t.hand.selected == 2  # ... and the keys are on the card that took its place
