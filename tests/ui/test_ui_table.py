"""The table's controls through synthetic events on a known position: dragging a Clan card
onto the table, a Travel card onto a glowing placard, the private ask preference, the
offer editor, tooltips, keyboard shortcuts, and what a hand-off hides."""

import pygame
import pytest

from game.rules import Card, PlaceMarker, Settings, Setup
from game.rules.cards import DECK_COUNTS
from game.table.bot_schedule import Timing
from game.ui.drawing.theme import CLAN_LETTERS
from game.ui.sessions.session import LocalSession, SeatSpec
from game.ui.table import layout as L
from game.ui.table.scene import TableScene
from tools.autoplay import click, click_widget, key, make_app

R, B, Y, M, O, G = range(6)  # noqa: E741 - clans as letters


def position(seed=1, humans=("human", "random", "random"), settings=None):
    hands = [
        [Card.CLAN_ORANGE, Card.TRAVEL_GREY, Card.BOSS, Card.STOP, Card.RECRUIT],
        [Card.CLAN_RED, Card.STOP, Card.RECRUIT, Card.RECRUIT, Card.CLAN_BLUE],
        [Card.TRAVEL_ORANGE, Card.CLAN_GREEN, Card.RECRUIT, Card.BOSS, Card.CLAN_YELLOW],
    ]
    used = [0] * 16
    for h in hands:
        for c in h:
            used[c] += 1
    deck = [k for k in Card for _ in range(DECK_COUNTS[k] - used[k])]
    setup = Setup(
        placards=(0, 2, 1, 2, 1, 0),  # owner per clan: Mei C L, Ann W G, Bo S D
        hands=tuple(tuple(h) for h in hands),
        deck=tuple(deck),
        first_player=0,
        marker=3,  # space 4 on the board: needs C and G (Cashman, Goldman)
    )
    seats = [SeatSpec(n, k) for n, k in zip(("Mei", "Ann", "Bo"), humans, strict=True)]
    settings = settings or Settings(players=3)
    return LocalSession(seats, seed, settings, setup, timing=Timing(bot_pace=20))


@pytest.fixture
def table(tmp_path):
    app = make_app(tmp_path, speed="fast")
    s = position()
    t = TableScene(app, s)
    app.push(t)
    settle(app, t)
    yield app, t
    app.shutdown()


def settle(app, t, steps=40):
    for _ in range(steps):
        app.step(0.25, draw=False)
        if not t.director.busy() and t.session.decision_seat() == t.session.viewer:
            break
    app.step(0.05)


def card_index(t, key):
    return t.hand.cards.index(key)


def test_drag_a_clan_card_onto_the_table_lays_it(table):
    app, t = table
    s = t.session
    assert click_widget(t, "turn.deal")  # "Let's make a deal!" on space 4 (needs C and G)
    settle(app, t)
    assert s.state.negotiation is not None and s.state.negotiation.boss == 0
    i = card_index(t, "clan_orange")
    start = t.hand.card_rect(i).center
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1))
    for k in range(1, 6):
        pos = (start[0], start[1] - 90 * k)
        pygame.event.post(
            pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, -90), buttons=(1, 0, 0))
        )
    app.step(0.02)
    assert t.hand.drag == i  # the card follows the mouse
    pygame.event.post(
        pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(start[0], start[1] - 450), button=1)
    )
    app.step(0.02)
    laid = s.state.negotiation.laid
    assert [(c.owner, int(c.clan)) for c in laid] == [(0, O)]
    settle(app, t)
    # C (Mei's placard) and G (her laid Clan card): covered, she may call "Going once"
    assert t.v["negotiation"]["covered"]
    assert t.find("neg.going_once").enabled
    key(pygame.K_g)
    app.step(0.02)
    assert s.state.window is not None and s.state.window.kind.value == "going_once"


def test_travel_card_on_a_glowing_placard(table):
    app, t = table
    s = t.session
    click_widget(t, "turn.deal")
    settle(app, t)
    click(t.hand.card_rect(card_index(t, "travel_grey")).center)
    app.step(0.02)
    targets = t.travel_targets()
    assert ("placard", O) in targets and ("placard", R) in targets  # G is Ann's, C is Mei's
    assert ("placard", G) not in targets  # L is not used by this space
    app.draw()
    click(t.plates.placard_rects[O].center)
    app.step(0.02)
    assert s.state.window is not None and s.state.window.kind.value == "travel"
    assert s.state.window.target.ref == O


def test_the_private_ask_preference_and_the_offer_editor(tmp_path):
    app = make_app(tmp_path, speed="fast")
    try:
        s = position(humans=("random", "human", "random"))  # Ann is the human
        t = TableScene(app, s)
        app.push(t)
        for _ in range(200):  # Mei (a bot) opens a deal or moves on; wait for Ann's floor
            app.step(0.25, draw=False)
            v = t.v
            if v["phase"] == "negotiation" and s.decision_seat() == 1 and not t.director.busy():
                break
            if s.decision_seat() == 1 and not t.director.busy():
                # Ann's own turn before any deal: roll, draw, go on
                for name in ("turn.roll", "turn.draw", "win.pass"):
                    if click_widget(t, name):
                        break
                else:
                    places = [a for a in t.legal.fixed if isinstance(a, PlaceMarker)]
                    if places:
                        click(L.SPACES[places[0].space].center)
        assert s.viewer == 1 and t.v["phase"] == "negotiation"
        before = t.v["players"][1]["asks_only_when_touched"]
        assert click_widget(t, "pref.toggle")
        app.step(0.02)
        assert t.v["players"][1]["asks_only_when_touched"] is (not before)
        assert any(a.type == "set_ask_preference" and a.seat == 1 for a in s.game.log)
        assert click_widget(t, "bar.offer")
        app.step(0.02)
        ed = t.panel.editor
        assert ed is not None
        hi = ed.choice.hi
        # sources tick by their clan's letter as well as by mouse
        pool = ed.choice.pool
        assert pool, "this position gives Ann a source to offer"
        first = pool[0]
        letter = CLAN_LETTERS[t.seen.source_clan(first)].lower()
        ticked = first in ed.sources
        key(getattr(pygame, f"K_{letter}"))
        app.step(0.02)
        assert (first in t.panel.editor.sources) is (not ticked)
        key(getattr(pygame, f"K_{letter}"))
        app.step(0.02)
        assert (first in t.panel.editor.sources) is ticked
        start = ed.amount
        key(pygame.K_UP)
        app.step(0.02)
        assert ed.amount == min(hi, start + 1)
        assert click_widget(t, "editor.max")
        app.step(0.02)
        assert t.panel.editor.amount == hi
        key(pygame.K_RETURN)
        app.step(0.02)
        assert t.panel.editor is None
        offer = s.state.negotiation.pending[1]
        assert offer.amount == hi and not offer.by_boss
    finally:
        app.shutdown()


def test_tooltips_for_spaces_and_cards(table):
    app, t = table
    r = L.SPACES[3]
    pygame.event.post(
        pygame.event.Event(pygame.MOUSEMOTION, pos=r.center, rel=(0, 0), buttons=(0, 0, 0))
    )
    for _ in range(40):
        app.step(1 / 60)
    assert t.tips.pending is not None and t.tips.pending[2] == ("space", 3)
    assert "4" in t.tips.pending[0]  # "Space 4 …"
    pos = t.hand.card_rect(card_index(t, "stop")).center
    pygame.event.post(
        pygame.event.Event(
            pygame.MOUSEMOTION, pos=(pos[0], pos[1] + 40), rel=(0, 0), buttons=(0, 0, 0)
        )
    )
    for _ in range(40):
        app.step(1 / 60)
    assert t.tips.pending is not None and t.tips.pending[2][0] == "card"


def test_hand_off_hides_everything_private(tmp_path):
    app = make_app(tmp_path, speed="fast")
    try:
        s = position(humans=("human", "human", "human"))
        t = TableScene(app, s)
        app.push(t)
        for _ in range(40):
            app.step(0.25, draw=False)
            if app.stack.top is not t:
                break
        handoff = app.stack.top
        assert handoff.name == "handoff" and handoff.player == "Mei"
        assert s.viewer is None and "hand" not in t.v
        app.draw()  # the hand-off screen covers the table: one colour family, no cards
        click((960, 540))
        app.step(0.02)
        assert app.stack.top is t and s.viewer == 0 and "hand" in t.v
        # events in the log are the public ones: no drawn cards named
        assert all(
            e.get("cards") is None
            for e in t.log.events
            if e["type"] in ("hand_dealt", "cards_drawn")
        )
    finally:
        app.shutdown()
