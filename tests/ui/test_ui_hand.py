"""The hand reads like a fan of cards held by a person: every title shows at up to 15
cards, copies lie in one pile with their count, the cards do not slide under the pointer
right after a play and close the gap within the card's flight, the selected card stands raised in a
frame with no tooltip over it; over the hand limit a click marks a card to discard (again:
keeps it, Esc: keeps all; on a pile: one more copy) and the panel's button discards the
marked cards."""

import random

import pygame
import pytest

from game.rules.cards import DECK_COUNTS
from game.ui import i18n
from game.ui.drawing import cardart
from game.ui.drawing.theme import GOLD, THEME
from game.ui.table.hand import FAN_AREA, ORDER, HandFan
from game.ui.table.scene import TableScene
from game.ui.table.tips import card_tip
from tools import layout_probe as probe
from tools import screenshot
from tools.autoplay import click, click_widget, key, make_app

from .test_ui_table import position, settle

KEYS = list(ORDER)  # the fan's keys in the order of the Card values
TITLE_LANGS = ("en", "th", "zh_Hant")


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


def test_the_hand_keeps_its_places_under_the_pointer_a_moment_after_a_play():
    fan = HandFan()
    hand = {"clan_red": 1, "clan_blue": 1, "boss": 1, "stop": 1, "recruit": 1}
    fan.set_hand(hand, set())
    before = {k: fan.slots[i] for i, k in enumerate(fan.cards)}
    fan.update(0.016, fan.card_rect(2).center)  # the pointer over the hand
    fan.set_hand({**hand, "boss": 0}, set())  # the Boss card is played
    assert [fan.slots[i] for i, k in enumerate(fan.cards)] == [before[k] for k in fan.cards]
    fan.update(0.016, fan.card_rect(2).center)  # a click that follows at once hits no newcomer
    assert [fan.slots[i] for i, k in enumerate(fan.cards)] == [before[k] for k in fan.cards]
    fan.update(0.016, (1500, 300))  # the pointer leaves: the gap closes at once
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
    assert len(t.card_buttons) == 7  # recruit (five clans), discard one, or the pile
    (i,) = [i for i, b in enumerate(t.card_buttons) if b.label == i18n.tr("action.discard")]
    assert click_widget(t, f"card.opt.{i}")
    app.step(1 / 30)
    assert sum(s.state.hands[0]) == count and len(t.discard.marked) == 1
    labels = [b.label for b in t.card_buttons]  # a pile of three: one more, the rest, or back
    more = i18n.tr("table.discard_pile", n=2)
    assert labels[i : i + 3] == [i18n.tr("action.discard"), more, i18n.tr("table.discard_keep")]
    assert click_widget(t, f"card.opt.{i}")
    app.step(1 / 30)
    assert len(t.discard.marked) == 2
    assert click_widget(t, f"card.opt.{i + 1}")  # keep one again
    app.step(1 / 30)
    assert len(t.discard.marked) == 1


def test_a_pile_of_copies_is_marked_in_one_go_and_a_click_past_enough_says_so(app):
    """Issue 32: a stack took a click, a pop-up and Enter per copy, and a click that seemed
    lost took a mark back. The pop-up marks the pile's share at once; a click on a pile
    with copies left once enough are marked says so and keeps every mark."""
    t = table_for(app, "recruit_5")  # three Recruitment cards among fifteen: three to go
    s = t.session
    count = sum(s.state.hands[0])
    click(t.hand.card_rect(t.hand.cards.index("recruit")).center)
    app.step(1 / 30)
    labels = [b.label for b in t.card_buttons]
    whole = labels.index(i18n.tr("table.discard_pile", n=3))
    assert click_widget(t, f"card.opt.{whole}")  # one click: all three marked
    app.step(1 / 30)
    pile = t.hand.groups[t.hand.group_index(t.hand.first("recruit"))]
    assert sorted(t.discard.marked) == list(pile.indices)
    # the pile's share is marked: the pop-up closes (it stood open with "Keep it" and the
    # Recruit choices, as if something more were asked)
    assert not t.card_buttons and t.hand.selected is None
    click_widget(t, "discard.confirm")
    for _ in range(6):  # sent one by one, each once the last is applied
        app.step(1 / 30)
    assert sum(s.state.hands[0]) == count - 3 and "recruit" not in s.view(0)["hand"]


def test_a_click_on_a_pile_once_enough_are_marked_keeps_every_mark(app):
    t = table_for(app, "recruit_5")  # fifteen cards, three to discard
    fan = t.hand
    pile = fan.groups[fan.group_index(fan.first("clan_blue"))]  # two copies
    for k in ("clan_red", "clan_yellow"):
        t.popup.mark_discard(fan.cards.index(k))
    t.popup.mark_discard(pile.start)  # the third: one copy of the pile
    assert len(t.discard.marked) == 3
    before = list(t.discard.marked)
    t.popup.mark_discard(pile.start)  # "did it register?": clicked once more
    assert t.discard.marked == before
    assert t.toast[0] == i18n.tr("table.discard_enough", n=3)


def test_a_click_on_a_pile_marks_one_more_copy_and_the_tag_counts_them(app):
    t = table_for(app, "recruit_5")  # two Clan cards S among fifteen: three to discard
    fan = t.hand
    pile = fan.groups[fan.group_index(fan.first("clan_blue"))]
    assert pile.count == 2
    where = fan.card_rect(pile.start).center  # in the back row, between two front cards
    click(where)
    app.step(1 / 30)
    assert t.discard.marked == [pile.start]
    click(where)
    app.step(1 / 30)
    assert sorted(t.discard.marked) == list(pile.indices)  # both copies
    screenshot.pygame_mouse(app, (300, 300))
    for _ in range(20):
        app.step(1 / 30)
    with probe.probing() as p:
        THEME.epoch += 1  # the fan is drawn again, under the probe
        app.draw()
    tag = i18n.tr("action.discard")
    assert [r.text for r in p.texts if r.text.startswith(tag + " ×")] == [tag + " ×2"]
    click(fan.card_rect(pile.start).center)  # raised, all marked: a click keeps one again
    app.step(1 / 30)
    assert t.discard.marked == [pile.start]


def test_a_clan_card_the_deal_does_not_need_is_not_the_first_option(app):
    t = TableScene(app, screenshot.table_session())
    app.push(t)
    app.step(1 / 30)
    # space 1, C S W + 2 of D G L: Mei (the Boss) brings C, Ann's agreement S
    assert not t.popup.clan_needed(0) and not t.popup.clan_needed(1)
    assert t.popup.clan_needed(2) and t.popup.clan_needed(4)


def test_the_keyboard_selection_stays_in_place_after_a_play(app):
    t = table_for(app, "recruit_5")
    n = len(t.hand.cards)
    for _ in range(3):
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RIGHT, mod=0))
    app.step(1 / 30)
    third = t.hand.starts()[2]  # the third pile (Clan card S is a pile of two)
    assert third == 3 and t.hand.selected == third and t.card_buttons  # its pop-up open
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0))
    app.step(1 / 30)
    assert len(t.hand.cards) == n and t.discard.marked == [third]  # marked, still held
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_d, mod=0))  # confirm
    app.step(1 / 30)
    assert len(t.hand.cards) == n - 1  # discarded ...
    assert t.hand.selected == third  # ... and the keys are on the card that took its place


def title_colour(key: str) -> tuple[int, int, int, int]:
    return (10 + 14 * KEYS.index(key), 250, 30, 255)


def fake_rotated(key, angle, w=cardart.CARD_W, h=cardart.CARD_H, lift=False, dim=False, lower=True,
                 foot=True):
    """A face in flat colours laid out like the real one (the shadow's margin, the face
    shifted as cardart.rotated shifts it): its title box painted in a colour of its own."""
    img = pygame.Surface((w + 8, h + 8), pygame.SRCALPHA)
    face = pygame.Rect(2, 2, w, h)
    img.fill((10 + 14 * KEYS.index(key), 40, 240, 255), face)
    img.fill(title_colour(key), cardart.title_box(key, w, h).move(face.topleft))
    return pygame.transform.rotate(img, angle) if angle else img


def count(surface, colour) -> int:
    return pygame.transform.threshold(None, surface, colour, (0, 0, 0, 0), set_behavior=0)


def hands_of(n: int) -> list[dict[str, int]]:
    """Hands of n cards: as many kinds as can be, the crowded still's, and dealt ones."""
    deck = [KEYS[c] for c, k in enumerate(DECK_COUNTS) for _ in range(k)]
    full = [KEYS[int(c)] for c in screenshot._full_hand()]
    rng = random.Random(n)
    out = [KEYS[:n], full[:n]] + [rng.sample(deck, n) for _ in range(4)]
    return [{k: h.count(k) for k in set(h)} for h in out]


@pytest.fixture
def language():
    def use(lang):
        THEME.lang = lang
        i18n._default._table = i18n.table(lang)
        THEME.epoch += 1

    yield use
    use("en")


@pytest.mark.slow
def test_every_title_shows_at_up_to_15_cards(monkeypatch, language):
    pygame.init()
    monkeypatch.setattr(cardart, "rotated", fake_rotated)
    report = []
    for lang in TITLE_LANGS:
        language(lang)
        for n in range(1, 16):
            for hand in hands_of(n):
                fan = HandFan()
                fan.set_hand(hand, set(hand))
                for _ in range(3):
                    fan.update(1.0, (0, 0))
                screen = pygame.Surface((1920, 1080), pygame.SRCALPHA)
                fan.draw(screen)
                area = screen.subsurface(FAN_AREA)
                for k in hand:
                    want = count(fake_rotated(k, 0), title_colour(k))
                    seen = count(area, title_colour(k))
                    if seen < want * 0.99:  # a few pixels come and go as the card turns
                        report.append(f"{lang} {n} cards: {k}'s title {seen}/{want} px shows")
    assert not report, "\n".join(report[:20])


def test_copies_lie_in_one_pile_with_their_count():
    pygame.init()
    fan = HandFan()
    fan.set_hand({"stop": 3, "travel_grey": 2, "boss": 1}, {"stop"})
    fan.update(1.0, (0, 0))
    rects = {fan.card_rect(i).center for i in range(len(fan.cards))}
    assert len(rects) == 3  # three piles, each copy of one pile in one place
    with probe.probing() as p:
        fan.draw(pygame.Surface((1920, 1080), pygame.SRCALPHA))
    drawn = [t.text for t in p.texts]
    assert drawn.count("×3") == 1 and drawn.count("×2") == 1 and "×1" not in drawn


@pytest.fixture
def table(tmp_path):
    """Mei's turn with Orange and Clan cards, Travel (any clan), I'm the Boss!, Stop and
    Recruitment in hand (tests/ui/test_ui_table.py's position)."""
    app = make_app(tmp_path, speed="fast")
    t = TableScene(app, position())
    app.push(t)
    settle(app, t)
    yield app, t
    app.shutdown()


def frames(app, n: int) -> None:
    for _ in range(n):
        app.step(1 / 30)


def places(fan) -> dict[str, tuple]:
    return {key: fan.card_rect(fan.first(key)).center for key in dict.fromkeys(fan.cards)}


def test_a_played_cards_gap_closes_within_its_flight_under_the_pointer(table):
    app, t = table
    fan = t.hand
    assert click_widget(t, "turn.deal")
    settle(app, t)
    pos = fan.card_rect(fan.first("clan_orange")).center
    click(pos)  # selected; the pointer stays on it
    frames(app, 10)
    before = places(fan)
    key(pygame.K_RETURN)  # its first option: lay it on the table
    frames(app, 1)
    assert "clan_orange" not in fan.cards
    before.pop("clan_orange")
    assert places(fan) == before  # no card slid under the pointer at once
    frames(app, 4)  # 1/30 s each: past the hold, the pointer still there
    assert fan.moving()  # the cards slide together, and say so to the frame loop
    frames(app, 10)  # the card's flight (0.45 s) is over by now
    assert not fan.moving() and not fan.empty_slot()
    xs = sorted(x for x, _ in places(fan).values())
    gaps = [b - a for a, b in zip(xs, xs[1:], strict=False)]
    assert max(gaps) - min(gaps) <= 1  # evenly spread: no hole
    assert xs != sorted(x for x, _ in before.values())


def test_the_selected_card_stands_raised_in_a_frame_without_its_tooltip(table):
    app, t = table
    fan = t.hand
    i = fan.first("recruit")
    rest = fan.card_rect(i)
    screenshot.pygame_mouse(app, rest.center)
    frames(app, 40)  # hovered long enough for its tooltip
    with probe.probing() as p:
        app.draw()
    assert any(tip.text == card_tip("recruit") for tip in p.tooltips)
    click(rest.center)
    frames(app, 40)
    assert fan.selected == i
    raised = fan.card_rect(i)
    assert raised.bottom <= rest.bottom - 40
    with probe.probing() as p:
        app.draw()
    assert not any(tip.text == card_tip("recruit") for tip in p.tooltips)  # its pop-up says it
    # the frame: gold all along the card's top edge, just outside it
    edge = [
        app.screen.get_at((x, raised.top - 3))[:3]
        for x in range(raised.x + 20, raised.right - 20, 9)
    ]
    assert edge and all(c == GOLD for c in edge)


def resting_rects(fan: HandFan) -> list[tuple[str, pygame.Rect]]:
    """Every card and count badge of the fan where it rests (nothing lifted)."""
    out = []
    for g, group in enumerate(fan.groups):
        card = fan.card_rect(group.start)
        pile = fan._pile(g) * 4  # the copies behind rise up and to the right
        out.append((group.key, card.union(card.move(pile, -pile))))
        badge = fan.badge_rect(g)
        if badge is not None:
            out.append((f"{group.key} badge", badge))
    return out


@pytest.mark.parametrize("lang", TITLE_LANGS)
def test_fifteen_cards_leave_the_boards_requirements_in_sight(lang, language):
    """With 15 cards in hand, at every screen's layout (the standard one from 1366x768 up,
    the compact one at 1280x720) and every text size, no card or count badge at rest covers
    the clans a bottom-row space requires (spaces 9 to 13): the two-row hand's back row
    stood 50 px into them."""
    from game.ui.config import TEXT_SIZES
    from game.ui.table import layout as L

    pygame.init()
    language(lang)
    needs = [(i + 1, L.requirement_rect(L.SPACES[i])) for i in L.BOTTOM_ROW]
    report = []
    try:
        for arrangement, min_px in ((L.STANDARD, 18), (L.COMPACT, 20)):
            L.use(arrangement)
            for size, scale in TEXT_SIZES.items():
                THEME.configure(text_scale=scale, min_px=min_px)
                THEME.epoch += 1
                for hand in hands_of(15):
                    fan = HandFan()
                    fan.set_hand(hand, set(hand))
                    fan.update(1.0, (0, 0))
                    for what, r in resting_rects(fan):
                        for space, need in needs:
                            if r.colliderect(need):
                                report.append(f"{arrangement.name}/{size}: {what} {r} covers "
                                              f"space {space}'s requirements {need}")  # fmt: skip
    finally:
        L.use(L.STANDARD)
        THEME.configure(text_scale=TEXT_SIZES["normal"], min_px=18)
        THEME.epoch += 1
    assert not report, f"{len(report)} covered:\n" + "\n".join(report[:20])

def test_enter_on_a_piles_pop_up_marks_and_never_takes_a_mark_back_or_recruits(app):
    """Issue 32: "a click, a popup and Enter for each copy, and one of three did not
    register": once enough were marked, Enter went to "Keep it" and took the last mark back
    (or to a Recruit button). Enter marks one more copy while one is needed, then nothing."""
    t = table_for(app, "recruit_5")  # three Recruitment cards among fifteen: three to go
    s = t.session
    placards = list(s.state.placards)
    click(t.hand.card_rect(t.hand.cards.index("recruit")).center)  # the pile's pop-up
    app.step(1 / 30)
    for n in (1, 2, 3, 3, 3):
        key(pygame.K_RETURN)
        app.step(1 / 30)
        assert len(t.discard.marked) == n
    assert list(s.state.placards) == placards  # nobody recruited
    assert i18n.tr("table.discard_keep") in [b.label for b in t.card_buttons]
    assert not any(b.command == "hand.play" for b in t.card_buttons)  # D discards them
