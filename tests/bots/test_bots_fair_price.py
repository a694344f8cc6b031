"""The offer editor's fair-price indicator (game/bots/fair_price.py): from the seat's view."""

from __future__ import annotations

import json
import random

from game.bots.fair_price import Ask, FairPrice, fair_price
from game.bots.obs import Memory
from game.rules import WindowMode, hidden_twin, view
from game.rules.seat_view import SeatView
from game.rules.view import events_for
from tests.bots.test_bots_hint import _hide_money, _positions, _scenario


def test_hidden_hands_deck_and_money_do_not_change_the_fair_price():
    rng = random.Random(4)
    checked = {True: 0, False: 0}
    for players, seed, mode in ((4, 21, WindowMode.ASK_AROUND), (3, 5, WindowMode.REAL_TIME)):
        for st, events in _positions(players, seed, mode, every=3):
            if st.negotiation is None:
                continue
            for seat in range(st.players):
                twin = hidden_twin(st, seat, rng)
                _hide_money(twin, seat, rng)
                memory = Memory(seat)
                memory.observe(events_for(events, seat))
                a = fair_price(SeatView.of(st, seat), memory)
                assert a == fair_price(SeatView.of(twin, seat), memory)
                assert a == fair_price(SeatView.from_data(json.loads(json.dumps(view(st, seat)))), memory)
                checked[a.boss] += 1
    assert checked[True] >= 10 and checked[False] >= 20


def _bo_offers_blue():
    """Space 16 (index 15): Yellow + 1 of {Magenta, Green} + 1 of {Red, Blue}; Di is Boss,
    the floor has passed Di and Ann, and Bo offers his Blue placard for $4M."""
    t = _scenario([["clan_magenta"]], marker=15, first_player=3)
    t.open(3)
    t.pass_floor(3)
    t.pass_floor(0)
    t.offer(1, [t.placard("blue")], 4)
    return t


def test_an_investor_sees_what_the_boss_can_pay_and_what_the_others_ask():
    # Ann (Red) competes with Bo for the Red/Blue slot; Cy (Yellow) is needed.
    t = _bo_offers_blue()
    neg = t.state.negotiation
    ann = fair_price(SeatView.of(t.state, 0))
    assert not ann.boss and ann.asks == (Ask(1, 4, True),)
    assert ann.can_pay is not None and 1 <= ann.can_pay <= neg.proceeds
    cy = fair_price(SeatView.of(t.state, 2))
    assert cy.asks == (Ask(1, 4, True),) and cy.can_pay is not None
    # the Boss keeps its margin (a fifth of the proceeds) back
    assert cy.can_pay <= neg.proceeds - 0.2 * neg.proceeds
    bo = fair_price(SeatView.of(t.state, 1))
    assert bo.asks == ()  # his own offer is not "another seller's"


def test_an_investor_the_deal_does_not_need_is_told_so():
    t = _scenario([["clan_orange"]])
    t.open(0)
    t.lay(0, "orange")
    assert fair_price(SeatView.of(t.state, 1)) == FairPrice(False, None, ())


def test_a_boss_sees_each_needed_seats_likely_ask_and_the_offers_made():
    t = _bo_offers_blue()
    boss = fair_price(SeatView.of(t.state, 3))
    assert boss.boss and boss.can_pay is None
    by_seat = {a.seat: a for a in boss.asks}
    assert by_seat[1] == Ask(1, 4, True)  # Bo's offer stands on the table
    assert 2 in by_seat and not by_seat[2].offered  # Cy (Yellow, sole) will ask
    assert by_seat[2].amount >= 1
    assert 3 not in by_seat


def test_no_deal_no_indicator():
    t = _scenario([[]])
    assert fair_price(SeatView.of(t.state, 0)) is None
