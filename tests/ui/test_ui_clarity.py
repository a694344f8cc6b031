"""The table says at every moment who the game waits for and what for, and its log reads
naturally: the floor texts, the start, the log's sentences, its size, scrolling and history."""

import pygame
import pytest

from game.rules import Settings, placard
from game.rules.board import Clan
from game.rules.seat_view import SeatView
from game.rules.state import Phase, Terms
from game.ui import i18n
from game.ui.table import layout as L
from game.ui.table import status
from game.ui.table.log import COMPACT_SIZE, Describer, LogPanel
from game.ui.table.scene import TableScene
from tests.seat_views import deal_view, players_with, table_view
from tools.autoplay import click, click_widget, key, make_app

from .test_ui_table import position, settle

NAMES = ["Mei", "Ann", "Bo"]


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    app = make_app(tmp_path_factory.mktemp("clarity"), speed="fast")
    app.set_language("en")
    yield app
    app.shutdown()


def turn_line(seat: int) -> dict:
    return {"type": "turn_started", "seat": seat}


# -- the log's sentences ---------------------------------------------------------------


def test_offer_sentence_groups_cards_and_placards(app):
    d = Describer(["Bruno", "Ann"])
    d({"type": "clan_laid", "seat": 0, "card_id": 1, "clan": "yellow"})  # W Wadeworth
    d({"type": "clan_laid", "seat": 0, "card_id": 2, "clan": "orange"})  # G Goldman
    offer = {
        "type": "offer_made",
        "seat": 0,
        "sources": [["card", 1], ["card", 2], ["placard", 0]],
        "amount": 6,
    }
    assert d(offer) == "Bruno offers Clan cards W and G and placard C for $6M."
    one = dict(offer, sources=[["placard", 0], ["placard", 1]])
    assert d(one) == "Bruno offers placards C and S for $6M."
    three = dict(offer, sources=[["placard", 0], ["placard", 1], ["placard", 3]])
    assert d(three) == "Bruno offers placards C, S and D for $6M."
    assert d(dict(offer, sources=[])) == "Bruno offers a fee for $6M."


def test_taking_back_one_card_is_singular(app):
    d = Describer(NAMES)
    assert d({"type": "cards_returned", "seat": 1, "cards": ["clan_red"]}) == (
        "Ann takes back 1 Clan card."
    )
    assert d({"type": "cards_returned", "seat": 1, "cards": ["clan_red", "clan_blue"]}) == (
        "Ann takes back 2 Clan cards."
    )


# -- the log panel: size, scrolling, "jump to latest", the history ------------------------


def test_compact_log_shows_twelve_lines(app):
    log = LogPanel(NAMES)
    for k in range(30):
        log.add(turn_line(k % 3))
    rows = log.rows(L.LOG, COMPACT_SIZE)
    assert len(rows) >= 12
    assert rows[-1][0] == "Bo's turn."  # the newest: seat 29 % 3
    assert L.LOG.bottom <= L.H and L.LOG.top > L.RIGHT.bottom
    assert not L.LOG.colliderect(L.HAND)


def test_scrolled_back_log_says_so_and_keeps_its_place(app):
    log = LogPanel(NAMES)
    for k in range(30):
        log.add(turn_line(k % 3))
    assert log.at_latest and not [w for w in log.widgets(lambda: None) if w.name == "log.latest"]
    log.scroll_by(5)
    shown = log.rows(L.LOG, COMPACT_SIZE)
    assert not log.at_latest
    jump = [w for w in log.widgets(lambda: None) if w.name == "log.latest"]
    assert jump and "jump to latest" in jump[0].label()
    log.add(turn_line(0))  # a new line while scrolled back: the view does not move
    assert log.rows(L.LOG, COMPACT_SIZE) == shown
    assert log.unseen == 1 and "1 new" in log.jump_text()
    changed = []
    jump = [w for w in log.widgets(lambda: changed.append(1)) if w.name == "log.latest"][0]
    jump.click()
    assert log.at_latest and log.unseen == 0 and changed
    assert log.rows(L.LOG, COMPACT_SIZE)[-1][0] == "Mei's turn."
    log.scroll_by(10_000)  # never past the oldest line
    assert log.scroll == log.max_scroll() == 30


def test_history_key_opens_full_height_log_over_the_board(app):
    s = position()
    t = TableScene(app, s)
    app.push(t)
    try:
        settle(app, t)
        for k in range(40):
            t.log.add(turn_line(k % 3))
        t._refresh()
        history = t.find("log.history")
        assert history is not None and history.tip
        key(pygame.K_l)
        app.step(0.02)
        assert t.log.expanded
        assert L.LOG_FULL.height >= L.H - L.BOARD.y - 10
        full = t.log.rows(L.LOG_FULL, 20)
        assert len(full) > 2 * 12
        # a click in the history does not reach the board or the hand under it
        placed = s.state.marker
        assert t.pointer.press(L.SPACES[0].center) is True
        assert s.state.marker == placed
        pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=3, flipped=False))
        t.mouse = L.LOG_FULL.center
        app.step(0.02)
        assert t.log.scroll == 3 and t.find("log.latest") is not None
        key(pygame.K_END)
        app.step(0.02)
        assert t.log.at_latest
        key(pygame.K_ESCAPE)
        app.step(0.02)
        assert not t.log.expanded and app.stack.top is t
    finally:
        app.stack.pop()


# -- the start ---------------------------------------------------------------------------


def test_start_panel_and_log_agree_on_who_does_what(app):
    from game.rules import Setup
    from game.table.bot_schedule import Timing
    from game.ui.sessions.session import LocalSession, SeatSpec

    seats = [SeatSpec(n, "human") for n in ("Dara", "Bruno", "Cy")]
    s = LocalSession(seats, 4, Settings(players=3), Setup(first_player=1), timing=Timing())
    v = SeatView.from_data(s.view(0))
    names = [p.name for p in v.players]
    assert v.phase is Phase.PLACE_MARKER and v.turn == 0 and v.first_player == 1
    assert status.turn_title(v, 0, names) == "You place the marker"
    assert "Then Bruno plays first" in status.turn_prompt(v, 0, names)
    assert status.turn_title(v, 2, names) == "Dara places the marker"
    assert "Bruno" in status.turn_prompt(v, 2, names)
    assert "turn" not in status.turn_title(v, 2, names)
    log = LogPanel(names)
    log.add({"type": "game_started", "first_player": 1, "names": names})
    assert log.last() == "New game: Bruno plays first."


def test_a_recruitment_over_the_limit_never_asks_to_discard_none_or_fewer():
    """Over the hand limit a player may first play three Recruitment cards; while the others
    answer it the phase is still the discard, and the table read "Waiting for Dara to
    discard -1 (hand limit 12)". Within the limit it says the Recruitment is answered first."""
    i18n._default._table = i18n.table("en")
    names = ["Kim", "Bruno", "Chen", "Dara"]
    v = table_view(names=names, phase=Phase.DISCARD, turn=3, first_player=0, hand_limit=12)
    five = {"hand_count": 5}
    v = players_with(v, p0=five, p1=five, p2=five, p3={"hand_count": 11})
    for viewer in (0, 3):
        text = status.turn_prompt(v, viewer, names)
        assert "-1" not in text and "discard 0" not in text, text
        assert "12" in text
    v = players_with(v, p3={"hand_count": 14})
    assert "discard 2" in status.turn_prompt(v, 0, names)


# -- the floor ----------------------------------------------------------------------------


def floor_view(floor, pending, quiet=False, covered=False) -> SeatView:
    """Mei's deal, `floor` holding the floor (None: real time), `pending` the open terms."""
    return deal_view(
        names=NAMES,
        boss=0,
        floor=floor,
        limit_spent=False,
        quiet=quiet,
        last_proposal=0,
        pending=pending,
        covered=covered,
    )


PROPOSAL = Terms((placard(Clan(1)),), 3, by_boss=True)
OFFER = Terms((placard(Clan(2)),), 4)


def test_a_boss_with_unanswered_proposals_is_told_to_pass_the_floor(app):
    v = floor_view(0, {1: PROPOSAL})
    text = status.negotiation_status(v, 0, NAMES)
    assert text.startswith("Ann has not answered your proposal yet")  # one: the singular
    assert "pass the floor" in text
    # the floor moved on: the Boss is told the others answer when it reaches them
    v = floor_view(2, {1: PROPOSAL})
    assert "Ann answers your proposal when the floor reaches them" in (
        status.negotiation_status(v, 0, NAMES)
    )
    v = floor_view(2, {1: PROPOSAL, 2: PROPOSAL})
    assert "Ann and Bo answer your proposals when the floor reaches them" in (
        status.negotiation_status(v, 0, NAMES)
    )
    # Ann, on the floor with the Boss's proposal, is told what she can do
    v = floor_view(1, {1: PROPOSAL})
    assert "accept, counter, or pass the floor" in status.negotiation_status(v, 1, NAMES)


def test_the_boss_on_the_floor_is_told_how_a_deal_starts_and_when_to_close(app):
    # nothing on the table yet: ask for placards or let the others offer
    text = status.negotiation_status(floor_view(0, {}), 0, NAMES)
    assert "Propose" in text and "pass the floor" in text
    # offers to answer: the general Boss line
    assert status.negotiation_status(floor_view(0, {2: OFFER}), 0, NAMES).startswith(
        "You are the Boss"
    )
    # covered: the panel says "Going once" closes it
    text = status.negotiation_status(floor_view(0, {2: OFFER}, covered=True), 0, NAMES)
    assert text.startswith("The deal is covered") and "Going once" in text
    # a quiet round names the Boss's own Clan cards (docs/RULES.md §6)
    assert "own Clan cards" in status.negotiation_status(floor_view(0, {}, quiet=True), 0, NAMES)


def test_waiting_texts_say_who_and_what_for(app):
    v = floor_view(0, {2: OFFER})
    assert status.negotiation_status(v, 2, NAMES) == (
        "Mei, the Boss, has the floor and answers your offer now."
    )
    v = floor_view(1, {2: OFFER})
    assert "Mei, the Boss, answers your offer when the floor reaches them" in (
        status.negotiation_status(v, 2, NAMES)
    )
    assert status.negotiation_status(floor_view(1, {}), 2, NAMES).startswith(
        "Waiting for Ann, who has the floor"
    )
    assert status.negotiation_status(floor_view(0, {}), 1, NAMES).startswith(
        "Waiting for Mei, the Boss"
    )


# -- the marker preview -------------------------------------------------------------------


def test_marker_preview_shows_every_group_and_never_the_pool(app):
    from game.rules.board import DEFAULT_BOARD
    from game.ui.table.panel import marker_preview

    space7 = DEFAULT_BOARD.spaces[6]  # "space 7": one of R M, one of B G, one of Y O
    v = players_with(
        table_view(names=("Mei", "Ann", "Bo")),
        p0={"placards": (0, 1)},
        p1={"placards": (2,)},
        p2={"placards": ()},
    )  # M, O, G in the pool
    rows = marker_preview(space7, v)
    assert [(kind, k) for kind, k, _ in rows] == [("grp", 1)] * 3
    holders = {c: who for _kind, _k, hs in rows for c, who in hs}
    assert holders == {0: "Mei", 3: None, 1: "Mei", 5: None, 2: "Ann", 4: None}
    assert "Pool" not in holders.values()


# -- cards: own Travel targets ask first; a card with no play says why ---------------------


@pytest.fixture
def table(app):
    s = position()  # Mei (human) holds C and L; space 4 needs C and G
    t = TableScene(app, s)
    app.push(t)
    settle(app, t)
    yield t
    app.stack.pop()


def test_travel_on_your_own_placard_asks_first(app, table):
    t = table
    s = t.session
    assert click_widget(t, "turn.deal")
    settle(app, t)
    click(t.hand.card_rect(t.hand.cards.index("travel_grey")).center)
    app.step(0.02)
    assert t.popup.own_target(("placard", 0)) and not t.popup.own_target(("placard", 4))  # C Mei's, G Ann's
    hint = t.find("card.opt.0")
    assert "your own" in hint.tip
    app.draw()
    click(t.plates.placard_rects[0].center)  # her own C
    app.step(0.02)
    assert s.state.window is None  # nothing played yet: the table asks
    question = t.find("card.opt.0")
    assert question.label == "Travel your own placard C?"
    assert t.find("card.opt.2").label == "Cancel"
    click_widget(t, "card.opt.2")
    app.step(0.02)
    assert s.state.window is None and t.popup.travel_confirm is None
    click(t.plates.placard_rects[0].center)
    app.step(0.02)
    assert click_widget(t, "card.opt.1")  # "Yes, send it"
    app.step(0.02)
    assert s.state.window is not None and s.state.window.target.ref == 0
    # someone else's placard goes at once
    s2 = position()
    t2 = TableScene(app, s2)
    app.push(t2)
    try:
        settle(app, t2)
        click_widget(t2, "turn.deal")
        settle(app, t2)
        click(t2.hand.card_rect(t2.hand.cards.index("travel_grey")).center)
        app.step(0.02)
        app.draw()
        click(t2.plates.placard_rects[4].center)  # Ann's G
        app.step(0.02)
        assert s2.state.window is not None and s2.state.window.target.ref == 4
    finally:
        app.stack.pop()


def test_a_card_with_no_play_says_why(app, table):
    t = table
    click(t.hand.card_rect(t.hand.cards.index("recruit")).center)  # one Recruitment card
    app.step(0.02)
    opt = t.find("card.opt.0")
    assert opt.label == "Recruitment needs three" and not opt.enabled
    assert opt.tip.startswith("Not playable now")
    click(t.hand.card_rect(t.hand.cards.index("clan_orange")).center)
    app.step(0.02)
    assert t.find("card.opt.0").label == "Only during a deal"
    click(t.hand.card_rect(t.hand.cards.index("stop")).center)
    app.step(0.02)
    assert t.find("card.opt.0").label == "Only right after a play"


# -- every button the table builds explains itself ---------------------------------------------


def all_buttons(t):
    from game.ui.drawing.widgets import Button

    return [w for w in t.widgets if isinstance(w, Button)]


def test_every_table_button_has_a_tooltip(app, table):
    """Walk the table through its states (turn, card pop-ups, negotiation bar and rows, the
    editor, a reaction window, the log while scrolled back) and check every built button."""
    from game.ui.drawing.widgets import _label

    t = table
    seen: dict[str, str] = {}

    def check():
        for b in all_buttons(t):
            tip = _label(b.tip) if b.tip else ""
            assert tip.strip(), f"button {b.name!r} ({_label(b.label)!r}) has no tooltip"
            seen[b.name] = tip

    check()
    for card in set(t.hand.cards):
        t.hand.selected = t.hand.cards.index(card)
        t._refresh()
        check()
    t.hand.selected = None
    click_widget(t, "turn.deal")
    settle(app, t)
    check()
    for card in set(t.hand.cards):
        t.hand.selected = t.hand.cards.index(card)
        t._refresh()
        check()
    t.hand.selected = None
    t._refresh()
    click_widget(t, "neg.counter.1")  # the proposal editor for Ann
    app.step(0.02)
    assert t.panel.editor is not None
    check()
    click_widget(t, "editor.cancel")
    app.step(0.02)
    for k in range(30):
        t.log.add(turn_line(k % 3))
    t.log.scroll_by(4)
    t._refresh()
    check()
    t.log.toggle_expanded()
    t._refresh()
    check()
    t.log.toggle_expanded()
    t.hand.selected = t.hand.cards.index("clan_orange")  # G covers the deal with her C
    t._refresh()
    assert click_widget(t, "card.opt.0")
    app.step(0.02)
    assert click_widget(t, "neg.going_once")  # a reaction window: the Boss's view of it
    app.step(0.02)
    assert t.v["window"] is not None
    check()
    names = ("turn.deal", "turn.roll", "neg.going_once", "neg.fail", "neg.pass_floor")
    names += ("editor.zero", "editor.send", "log.history", "log.latest", "log.close")
    names += ("phrase.deal", "win.pass", "neg.counter.1", "card.opt.0")
    for name in names:
        assert name in seen, name
    assert seen["editor.zero"].startswith("The lowest amount allowed")


# -- the offer editor offers to lay a needed Clan card -------------------------------------


def test_offer_editor_lays_a_needed_clan_card_and_ticks_it(app):
    from game.rules import OpenDeal, PassFloor

    s = position(humans=("human", "human", "human"))
    t = TableScene(app, s)
    app.push(t)
    try:
        t.multi = False  # one screen, no hand-off: the test looks as each seat in turn
        s.send(OpenDeal(0))  # Mei opens on space 4 (needs C and G)
        s.send(PassFloor(0))  # the floor goes to Ann, who holds a C Clan card, unlaid
        s.viewer = 1
        settle(app, t)
        t._refresh()
        assert click_widget(t, "bar.offer")
        app.step(0.02)
        lay = t.find("editor.lay.0")
        assert lay is not None and lay.label == "Lay C Cashman" and lay.tip
        assert click_widget(t, "editor.lay.0")
        settle(app, t)
        laid = s.state.negotiation.laid
        assert [(c.owner, int(c.clan)) for c in laid] == [(1, 0)]
        ed = t.panel.editor
        assert ed is not None  # still open, with the laid card ticked
        assert any(src.kind.value == "card" for src in ed.sources)
        assert t.find("editor.lay.0") is None
    finally:
        app.stack.pop()


# -- money shown is true --------------------------------------------------------------------


def test_boss_bubble_shows_the_dividends_and_what_the_boss_pays(app):
    from game.ui.table.anim import gain_text, paid_out

    batch = [
        {"type": "deal_closed", "boss": 0, "space": 3, "proceeds": 18},
        {"type": "paid", "payer": -1, "payee": 0, "amount": 18, "reason": "dividends"},
        {"type": "paid", "payer": 0, "payee": 1, "amount": 6, "reason": "agreement"},
        {"type": "paid", "payer": 0, "payee": 2, "amount": 4, "reason": "fee"},
    ]
    out = paid_out(batch)
    assert out == {0: 10}
    assert gain_text(batch[1], out) == "+$18M, pays $10M"
    assert gain_text(batch[2], out) == "+$6M"  # an investor's bubble: what they get
    alone = [batch[0], batch[1]]
    assert gain_text(alone[1], paid_out(alone)) == "+$18M"  # nothing to pay: one figure


def test_the_move_meter_explains_itself(app, table):
    t = table
    assert t.panel.hints(t.seen) == []  # no negotiation, no meter
    click_widget(t, "turn.deal")
    settle(app, t)
    ((rect, text),) = t.panel.hints(t.seen)
    assert text.startswith("Negotiation moves:") and "Mei (the Boss) may only close or fail" in text
    assert rect.colliderect(pygame.Rect(L.RIGHT.x + 520, L.RIGHT.y + 66, 200, 8))


def test_real_time_status_names_who_answers(app):
    v = floor_view(None, {1: PROPOSAL, 2: OFFER})
    assert status.negotiation_status(v, 1, NAMES).startswith("Mei, the Boss, proposes terms")
    assert status.negotiation_status(v, 0, NAMES).startswith("Waiting for Ann to answer")
    assert status.negotiation_status(v, 2, NAMES) == (
        "Your offer waits for Mei, the Boss, to accept or counter."
    )
    assert status.negotiation_status(floor_view(None, {}), 1, NAMES).startswith("Real time")


def test_the_bottom_bar_offers_to_pass_the_floor_only_when_there_is_a_floor(app):
    """Ask-around: the Boss's bar ends with "Pass the floor"; real time has no floor, so the
    button is not shown at all (it used to sit there disabled, a puzzle for a newcomer)."""
    from game.rules import WindowMode

    for mode, expected in ((WindowMode.ASK_AROUND, True), (WindowMode.REAL_TIME, False)):
        s = position(settings=Settings(players=3, window_mode=mode))
        t = TableScene(app, s)
        app.push(t)
        try:
            settle(app, t)
            s.bots.clear()  # the bots keep still (no card of theirs opens a window): the bar
            assert click_widget(t, "turn.deal")  # is the Boss's own, whatever they would do
            settle(app, t)
            names = {b.name for b in all_buttons(t)}
            assert "neg.fail" in names, names
            assert ("neg.pass_floor" in names) is expected, (mode, names)
        finally:
            app.stack.pop()
