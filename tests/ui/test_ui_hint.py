"""The Hint button (key H): shows the coach's hint for the viewer beside the panel, makes the
suggested move's widget glow, never plays it; off by a setting, or by a LAN host."""

from __future__ import annotations

import pygame
import pytest

from game.bots.hint import HintReason, hint_for
from game.rules import OpenDeal, Roll
from game.rules.seat_view import SeatView
from game.ui.table import layout as L
from game.ui.table.hints import hint_text, target_of
from game.ui.table.scene import TableScene
from tools.autoplay import key, make_app

from .test_ui_table import position, settle


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    app = make_app(tmp_path_factory.mktemp("hint"), speed="fast")
    app.set_language("en")
    yield app
    app.shutdown()


def _table(app, session=None):
    t = TableScene(app, session or position())
    app.push(t)
    settle(app, t)
    return t


def _press_h(app) -> None:
    key(pygame.K_h)
    app.step(0.02)


def test_h_shows_the_coachs_hint_and_lights_the_move_without_playing_it(app):
    t = _table(app)
    try:
        s = t.session
        button = t.find("hint")
        assert button is not None and "(H)" in button.tip()
        assert L.RIGHT.contains(button.rect)
        version, applied = t.v["version"], s.actions_applied
        _press_h(app)
        expected = hint_for(SeatView.from_data(s.view(0)), s.legal(0))
        assert t.hints.hint == expected
        # Mei's first turn on space 4 ($4M a dividend): too small to deal this early
        assert expected.action == Roll(0) and expected.reason is HintReason.ROLL
        assert t.hints.text() == hint_text(expected, t.names)
        assert t.hints.text().startswith("Roll: a deal on space 4 would leave you only about $")
        assert target_of(expected).widget == "turn.roll"
        assert t.hints.target_rect() == t.find("turn.roll").rect
        assert t.find("hint").style == "primary"
        app.step(0.5)
        app.step(0.5)
        assert t.v["version"] == version and s.actions_applied == applied  # nothing played
        _press_h(app)  # H again hides it
        assert t.hints.text() is None
        _press_h(app)
        assert t.hints.text() is not None
        t.find("turn.roll").click()  # the player makes the move: the hint is for the old view
        settle(app, t)
        assert t.hints.text() is None
    finally:
        app.stack.pop()


def test_the_hint_box_lies_over_the_log_and_leaves_its_history_button_free(app):
    t = _table(app)
    try:
        _press_h(app)
        box = t.hints.box_rect(3)
        assert L.LOG.contains(box)
        assert not box.colliderect(t.find("log.history").rect)
        app.draw()  # draws without error, glow and box
    finally:
        app.stack.pop()


def test_l_opens_the_history_now_that_h_is_the_hint(app):
    t = _table(app)
    try:
        assert "(L)" in t.find("log.history").tip()
        key(pygame.K_l)
        app.step(0.02)
        assert t.log.expanded and t.hints.text() is None
        assert "(L or Esc)" in t.find("log.history").tip()
    finally:
        app.stack.pop()


def test_the_setting_turns_hints_off(app, monkeypatch):
    monkeypatch.setattr(app.config, "hints", False)
    t = _table(app)
    try:
        assert t.find("hint") is None
        _press_h(app)
        assert t.hints.text() is None and t.hints.hint is None
        assert t.toast is not None and t.toast[0] == "Hints are off: turn them on in Settings."
    finally:
        app.stack.pop()


def test_a_table_that_forbids_hints_shows_no_button(app):
    s = position()
    s.hints_allowed = False  # what a NetSession says for a LAN host's --no-hints
    t = _table(app, s)
    try:
        assert t.find("hint") is None
        _press_h(app)
        assert t.hints.text() is None
        assert t.toast[0] == "The host has turned hints off at this table."
    finally:
        app.stack.pop()


# -- a LAN host allows or forbids hints at its table ---------------------------------------------


def test_the_host_flag_and_the_lobby_choice_reach_the_host_config(tmp_path):
    from game.cli import parser as cli
    from game.cli.lan import config_from_args
    from game.ui.sessions import lan

    def flags(*more):
        return config_from_args(
            cli.build_parser().parse_args(["host", "--autosave", "none", *more])
        )

    assert flags().hints is True
    assert flags("--no-hints").hints is False
    assert flags("--hints").hints is True
    cfg = make_app(tmp_path).config
    assert cfg.lan_hints is True and lan.host_config(cfg).hints is True
    cfg.lan_hints = False
    assert lan.host_config(cfg).hints is False


def test_the_lobby_has_an_allow_hints_toggle(app):
    from game.ui.scenes.lobby import LobbyScene
    from tools.screenshot import SampleBrowser

    lobby = app.push(LobbyScene(app, browser=SampleBrowser()))
    try:
        app.step(0.02)
        toggle = lobby.find("host.hints")
        assert toggle is not None and toggle.get() is app.config.lan_hints
        assert not toggle.rect.colliderect(lobby.find("host.go").rect)
        toggle.set(False)
        assert app.config.lan_hints is False
    finally:
        app.config.lan_hints = True
        app.stack.pop()


@pytest.mark.timeout(60)
@pytest.mark.parametrize("allowed", [True, False])
def test_a_lan_client_shows_the_hint_button_only_where_the_host_allows_it(app, allowed):
    import time

    from game.ui.sessions.lan import make_table
    from game.ui.sessions.net_session import NetSession
    from net.client.session import Client
    from net.host.thread import HostThread
    from tests.net_helpers import config_for_tests

    ht = HostThread(config_for_tests(seats=2, code="HINT", seed=5, hints=allowed)).start()
    s = None
    try:
        s = NetSession(Client(("127.0.0.1", ht.port), name="Mei", code="HINT").start())
        end = time.monotonic() + 30
        while not (s.joined and s.may_start):
            assert time.monotonic() < end, "no welcome"
            s.update(0.01)
            time.sleep(0.005)
        assert s.hints_allowed is allowed
        s.start_game()
        while s._view is None or s.view(s.viewer)["phase"] == "setup":
            assert time.monotonic() < end, "no game"
            s.update(0.01)
            time.sleep(0.005)
        t = app.push(make_table(app, s))
        try:
            for _ in range(5):
                app.step(0.05)
            assert (t.find("hint") is not None) is allowed
            _press_h(app)
            assert (t.hints.text() is not None) is allowed
        finally:
            app.stack.pop()
    finally:
        if s is not None:
            s.disconnect()
        ht.stop()


# -- the fair-price line in the offer editor -----------------------------------------------------


def _editor_table(app):
    from tools import screenshot

    return screenshot.render_fair_price(app)


def test_the_offer_editor_shows_the_fair_price_from_the_viewers_view(app):
    from game.bots.fair_price import fair_price
    from game.ui.table.panels.fair import fair_text

    t = _editor_table(app)
    try:
        app.draw()
        s = t.session
        ed = t.panel.terms_editor
        memory = t.hints.coach.memories[0]
        expected = fair_text(fair_price(SeatView.from_data(s.view(0)), memory), t.names)
        assert ed.fair.text(t.v) == expected
        # Mei offers to Ann while Bo's offer of his G placard stands
        assert expected.startswith("Fair price: the Boss can pay about $")
        assert "Bo $5M (offer)" in expected
        assert ed.fair_rect is not None and ed.fair_rect.colliderect(t.panel.hints(t.seen)[0][0])
        assert t.panel.hints(t.seen)[0][1].startswith("Estimated from what you can see")
    finally:
        app.stack.pop()


def test_no_fair_price_where_hints_are_off(app, monkeypatch):
    monkeypatch.setattr(app.config, "hints", False)
    t = _editor_table(app)
    try:
        app.draw()
        assert t.panel.terms_editor.fair.text(t.v) is None
        assert t.panel.terms_editor.fair_rect is None and t.panel.hints(t.seen) == []
    finally:
        app.stack.pop()


def test_no_hint_in_the_replay_viewer(app):
    from tools import screenshot

    screenshot.render_replay(app, 3)
    t = app.stack.top
    try:
        assert t.session.viewer is not None and not t.hints.available()
        assert t.find("hint") is None
    finally:
        app.stack.pop()


def test_an_offer_hint_dials_the_editor_and_lights_its_send_button(app):
    from game.rules import Offer

    t = _editor_table(app)  # Mei composes an offer to Ann; close it, ask the coach first
    try:
        t.panel.close_editor()
        t._refresh()
        app.step(0.02)
        _press_h(app)
        hint = t.hints.hint
        assert isinstance(hint.action, Offer) and hint.reason is HintReason.OFFER
        assert t.hints.target_rect() == t.find("bar.offer").rect
        key(pygame.K_o)  # open the editor: it shows the hint's terms, not yet sent
        app.step(0.02)
        ed = t.panel.editor
        assert ed is not None
        assert ed.sources == set(hint.action.sources) and ed.amount == hint.action.amount
        assert t.session.view(0)["negotiation"]["pending"].get("0") is None  # nothing sent
        assert t.hints.target_rect() == t.find("editor.send").rect
    finally:
        app.stack.pop()


def test_a_spaces_needs_are_worded_with_its_groups(app):
    from game.bots.hint import Hint

    h = Hint(
        OpenDeal(0),
        HintReason.DEAL_HERE,
        {"space": 9, "needs": ((2, (0, 3, 5)), (2, (4, 1, 2))), "held": (3,)},
    )
    assert hint_text(h, ["Mei"]) == (
        "Space 10 needs 2 of C, D, L and 2 of G, S, W; you hold D: make a deal here."
    )
    h = Hint(OpenDeal(0), HintReason.DEAL_HERE, {"space": 3, "needs": ((2, (0, 4)),), "held": (0,)})
    assert hint_text(h, ["Mei"]) == "Space 4 needs C and G; you hold C: make a deal here."


def test_an_asked_for_hint_follows_the_others_moves_until_the_player_moves(app):
    t = _table(app)
    try:
        s = t.session
        t.find("turn.roll").click()  # Mei rolls; her next decision: deal or draw
        settle(app, t)
        t.find("turn.draw").click()  # she draws: the bots play their turns now
        app.step(0.02)
        assert s.decision_seat() != 0
        _press_h(app)
        first = t.hints.hint
        assert first is not None and first.action is None  # nothing to do: wait
        settle(app, t)  # the bots move on until Mei's turn comes round again
        assert s.decision_seat() == 0 and t.v["version"] > 0
        assert t.hints.text() is not None  # made again for the new view, not dropped
        assert t.hints.hint.action is not None and t.hints.hint.action in s.legal(0)
        assert t.hints.hint == hint_for(SeatView.from_data(s.view(0)), s.legal(0), t.hints.coach.memories[0])
        t.find("turn.roll").click()  # her own move ends it
        assert t.hints.text() is None
    finally:
        app.stack.pop()


@pytest.mark.parametrize("lang", ["th", "zh_Hant", "zh_Hans"])
def test_the_hint_button_leaves_the_ask_toggle_one_line_where_it_had_one(app, lang):
    """Thai and Chinese labels run long: the toggle beside the Hint button keeps room for
    its label on one line (as before the button), and the button its own label."""
    from game.ui.drawing import draw
    from game.ui.i18n import tr

    app.set_language(lang)
    try:
        t = _table(app)
        try:
            toggle, hint = t.find("pref.toggle"), t.find("hint")
            assert draw.text_width(tr("table.ask_pref"), 20) <= toggle.rect.width - 72 - 24
            assert draw.text_width(tr("table.hint"), 22, True) <= hint.rect.width - 24
            assert not toggle.rect.colliderect(hint.rect)
        finally:
            app.stack.pop()
    finally:
        app.set_language("en")


def test_a_card_hint_lights_the_card_then_its_pop_up_button(app):
    from game.rules import LayClan

    t = _table(app)
    try:
        t.find("turn.deal").click()  # Mei opens the deal on space 4 (C, G)
        settle(app, t)
        _press_h(app)
        hint = t.hints.hint
        assert isinstance(hint.action, LayClan) and hint.reason is HintReason.LAY_OWN
        i = t.hand.cards.index("clan_orange")
        assert t.hints.target_rect() == t.hand.card_rect(i)
        t.hand.selected = i  # the card chosen: its pop-up has the move
        t._refresh()
        button = t.card_buttons[t.card_actions.index(hint.action)]
        assert t.hints.target_rect() == button.rect
        assert t.session.state.negotiation.laid == []  # still not played
    finally:
        app.stack.pop()


def test_a_travel_hint_lights_its_target_once_the_card_is_chosen(app):
    from game.bots.hint import Hint
    from game.rules import Card, PlayTravel, Source, SourceKind
    from game.ui.table.scene import TableScene
    from tools import screenshot

    t = TableScene(app, screenshot.table_session(3))
    app.push(t)
    try:
        app.step(0.02)
        travel = PlayTravel(0, Card.TRAVEL_GREY, Source(SourceKind.PLACARD, 1))  # Ann's S
        t.hints.active = True
        t.hints.hint = Hint(travel, HintReason.PLAY_TRAVEL, {"clans": (1,)})
        t.hints._for = (t.session.viewer, t.v["version"])
        i = t.hand.cards.index("travel_grey")
        assert t.hints.target_rect() == t.hand.card_rect(i)
        t.panel.travel_choice = "travel_grey"
        assert t.hints.target_rect() == t.plates.placard_rects[1]
    finally:
        app.stack.pop()


def test_a_hand_off_takes_the_hint_away_from_the_next_player(app):
    s = position(humans=("human", "human", "random"))
    s.viewer = 0
    t = _table(app, s)
    try:
        _press_h(app)
        assert t.hints.text() is not None
        t.handover.hand_off(1)  # the screen goes to Ann: nothing of Mei's stays on it
        assert t.hints.text() is None
        s.viewer = 1
        t._refresh()
        assert t.hints.text() is None and not t.hints.active
    finally:
        while app.stack.top is not t:
            app.stack.pop()
        app.stack.pop()


def test_the_status_line_is_not_drawn_under_the_open_terms_editor(app, monkeypatch):
    """The editor's translucent panel let the floor's status line show through as a
    ghost; with the editor open the panel leaves the line out, and puts it back after."""
    from game.ui.table.panels import deal

    drawn = []
    real = deal.status.negotiation_status
    monkeypatch.setattr(deal.status, "negotiation_status", lambda *a: drawn.append(1) or real(*a))
    t = _editor_table(app)
    try:
        assert t.panel.editor is not None and t.seen.window is None
        t.panel.static(t.seen, 0)
        assert drawn == []
        t.panel.terms_editor.close()
        t.panel.static(t.seen, 0)
        assert drawn == [1]
    finally:
        app.stack.pop()
