"""The table says at every moment who the game waits for and what for, and its log reads
naturally: the floor texts, the start, the log's sentences, its size, scrolling and history."""

import pygame
import pytest

from game.rules import Settings
from game.ui.autoplay import key, make_app
from game.ui.table import layout as L
from game.ui.table import status
from game.ui.table.log import COMPACT_SIZE, Describer, LogPanel
from game.ui.table.scene import TableScene

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
        key(pygame.K_h)
        app.step(0.02)
        assert t.log.expanded
        assert L.LOG_FULL.height >= L.H - L.BOARD.y - 10
        full = t.log.rows(L.LOG_FULL, 20)
        assert len(full) > 2 * 12
        # a click in the history does not reach the board or the hand under it
        placed = s.state.marker
        assert t._press(L.SPACES[0].center) is True
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
    from game.ui.session import LocalSession, SeatSpec, Timers

    seats = [SeatSpec(n, "human") for n in ("Dara", "Bruno", "Cy")]
    s = LocalSession(seats, 4, Settings(players=3), Setup(first_player=1), timers=Timers())
    v = s.view(0)
    names = [p["name"] for p in v["players"]]
    assert v["phase"] == "place_marker" and v["turn"] == 0 and v["first_player"] == 1
    assert status.turn_title(v, 0, names) == "You place the marker"
    assert "Then Bruno plays first" in status.turn_prompt(v, 0, names)
    assert status.turn_title(v, 2, names) == "Dara places the marker"
    assert "Bruno" in status.turn_prompt(v, 2, names)
    assert "turn" not in status.turn_title(v, 2, names)
    log = LogPanel(names)
    log.add({"type": "game_started", "first_player": 1, "names": names})
    assert log.last() == "New game: Bruno plays first."


# -- the floor ----------------------------------------------------------------------------


def floor_view(floor, pending, quiet=False):
    return {
        "negotiation": {
            "boss": 0,
            "floor": floor,
            "limit_spent": False,
            "quiet": quiet,
            "pending": pending,
        }
    }


PROPOSAL = {"sources": [["placard", 1]], "amount": 3, "by_boss": True, "was_agreed": False}
OFFER = {"sources": [["placard", 2]], "amount": 4, "by_boss": False, "was_agreed": False}


def test_a_boss_with_unanswered_proposals_is_told_to_pass_the_floor(app):
    v = floor_view(0, {"1": PROPOSAL})
    text = status.negotiation_status(v, 0, NAMES)
    assert text.startswith("Nobody has answered your proposal yet (Ann)")
    assert "pass the floor" in text
    # the floor moved on: the Boss is told the others answer when it reaches them
    v = floor_view(2, {"1": PROPOSAL})
    assert "Ann answer your proposals when the floor reaches them" in (
        status.negotiation_status(v, 0, NAMES)
    )
    # Ann, on the floor with the Boss's proposal, is told what she can do
    v = floor_view(1, {"1": PROPOSAL})
    assert "accept, counter, or pass the floor" in status.negotiation_status(v, 1, NAMES)


def test_waiting_texts_say_who_and_what_for(app):
    v = floor_view(0, {"2": OFFER})
    assert status.negotiation_status(v, 2, NAMES) == (
        "Mei, the Boss, has the floor and answers your offer now."
    )
    v = floor_view(1, {"2": OFFER})
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

    board = DEFAULT_BOARD.to_data()
    space7 = board["spaces"][6]  # "space 7": one of R M, one of B G, one of Y O
    players = [
        {"name": "Mei", "placards": [0, 1]},
        {"name": "Ann", "placards": [2]},
    ]  # M, O, G in the pool
    rows = marker_preview(space7, players)
    assert [(kind, k) for kind, k, _ in rows] == [("grp", 1)] * 3
    holders = {c: who for _kind, _k, hs in rows for c, who in hs}
    assert holders == {0: "Mei", 3: None, 1: "Mei", 5: None, 2: "Ann", 4: None}
    assert "Pool" not in holders.values()
