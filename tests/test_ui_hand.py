"""The hand: a big hand keeps every card's name in sight, the cards do not slide under the
pointer right after a play, and over the hand limit a click marks a card to discard (again:
keeps it, Esc: keeps all) and the panel's button discards the marked cards."""

import pygame
import pytest

from game.ui import cardart, i18n, screenshot
from game.ui.autoplay import click, click_widget, make_app
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


def test_over_the_hand_limit_cards_are_marked_first_and_discarded_on_confirm(app):
    t = table_for(app, "recruit_5")
    s = t.session
    assert t.v["phase"] == "discard"
    count = sum(s.state.hands[0])  # 15 cards, limit 12: three to discard

    def at(key: str) -> tuple[int, int]:  # a point of that card no other card covers
        i = t.hand.cards.index(key)
        r = t.hand.card_rect(i)
        return next(
            (x, y)
            for y in range(r.top + 4, r.bottom, 6)
            for x in range(r.left + 4, r.right, 6)
            if t.hand.at((x, y)) == i
        )

    click(at("clan_red"))
    app.step(1 / 30)
    assert sum(s.state.hands[0]) == count  # nothing discarded on the first click ...
    red = t.hand.cards.index("clan_red")
    assert t.discard.marked == [red] and red in t.hand.marked  # ... it is marked
    assert not t.card_buttons  # no pop-up
    assert t.find("discard.confirm").label == i18n.tr("table.discard_confirm_one")
    click(at("clan_red"))  # a misclick: clicked again, kept
    app.step(1 / 30)
    assert t.discard.marked == [] and t.find("discard.confirm") is None
    for k in ("clan_red", "clan_yellow"):
        click(at(k))
        app.step(1 / 30)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0))
    app.step(1 / 30)
    assert t.discard.marked == [] and app.stack.top is t  # Esc clears, no pause menu
    for k in ("clan_red", "clan_yellow", "travel_red", "travel_blue"):
        click(at(k))
        app.step(1 / 30)
    assert len(t.discard.marked) == 3 and t.toast[0] == i18n.tr("table.discard_enough", n=3)
    confirm = t.find("discard.confirm")
    assert confirm.label == i18n.tr("table.discard_confirm", count=3)
    app.draw()
    assert sum(s.state.hands[0]) == count
    click(confirm.rect.center)
    for _ in range(4):  # sent one by one, each once the last is applied
        app.step(1 / 30)
    hand = s.view(0)["hand"]
    assert sum(s.state.hands[0]) == count - 3 and t.v["phase"] != "discard"
    assert "clan_red" not in hand and "clan_yellow" not in hand and "travel_red" not in hand
    assert hand["travel_blue"] == 1


def test_the_recruitment_card_over_the_hand_limit_asks_and_its_discard_marks_it(app):
    t = table_for(app, "recruit_5")
    s = t.session
    count = sum(s.state.hands[0])
    click(t.hand.card_rect(t.hand.cards.index("recruit")).center)
    app.step(1 / 30)
    assert len(t.card_buttons) == 6  # recruit (five clans) or discard
    (i,) = [i for i, b in enumerate(t.card_buttons) if b.label == i18n.tr("action.discard")]
    assert click_widget(t, f"card.opt.{i}")
    app.step(1 / 30)
    assert sum(s.state.hands[0]) == count and len(t.discard.marked) == 1
    assert t.find(f"card.opt.{i}").label == i18n.tr("table.discard_keep")  # a way back


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
    assert len(t.hand.cards) == n and t.discard.marked == [2]  # marked, still held
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_d, mod=0))  # confirm
    app.step(1 / 30)
    assert len(t.hand.cards) == n - 1  # discarded ...
    assert t.hand.selected == 2  # ... and the keys are on the card that took its place
