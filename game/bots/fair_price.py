"""The offer editor's fair-price indicator: for an investor, what the Boss can likely pay
for the seat's clans and what the other sellers ask; for a Boss, what each seat it needs is
likely to ask. Read from the seat's view only (plus a `Memory` of the public events), with
the balanced heuristic's numbers: the same estimate a heuristic bot in that seat makes.

Payments come out of the deal's proceeds (never the Boss's own money: docs/RULES.md), so
"can pay" is what the proceeds leave once the cheapest cover's other payments and the Boss's
margin are kept back.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.rules.seat_view import SeatView

from .heuristic import PERSONALITIES, SOLE, boss_reserve, plan_open_deal
from .obs import Memory, Obs

BALANCED = PERSONALITIES["balanced"]


@dataclass(frozen=True)
class Ask:
    """A seat's price for its part of the deal: `offered` when it is an offer on the table,
    else the estimate of what it will ask."""

    seat: int
    amount: int
    offered: bool


@dataclass(frozen=True)
class FairPrice:
    """`can_pay`: (investor) the most the Boss can likely pay this seat, None when the Boss
    has a cover without it; `asks`: the other sellers' offers (investor), or every seat's
    likely ask (Boss), by seat."""

    boss: bool
    can_pay: int | None
    asks: tuple[Ask, ...]


def fair_price(view: SeatView, memory: Memory | None = None) -> FairPrice | None:
    """The indicator for the view's seat in the open deal (None: no deal, or a spectator)."""
    if view.negotiation is None or view.seat is None:
        return None
    money = memory.money_for(view) if memory is not None else None
    o = Obs.of(view, money, dict(memory.failed) if memory is not None else None)
    neg = o.neg
    me = o.seat
    remaining = neg.proceeds - neg.agreed_total
    offers = {
        q: t.amount
        for q, t in sorted(neg.pending.items())
        if not t.by_boss and q != neg.boss and q not in neg.agreements
    }
    if neg.boss == me:
        plan = plan_open_deal(o, me)
        asks = {q: Ask(q, amount, True) for q, amount in offers.items()}
        if plan.feasible:
            k = len(plan.seats) + len(plan.hope)
            share = max(0.0, remaining) / (k + 1)
            for q, entry in plan.seats.items():
                if q not in asks:
                    factor = BALANCED.ask_sole if entry[SOLE] else BALANCED.ask_shared
                    asks[q] = Ask(q, max(1, round(share * factor)), False)
        return FairPrice(True, None, tuple(asks[q] for q in sorted(asks)))
    plan = plan_open_deal(o, neg.boss, prefer=me)
    others = tuple(Ask(q, amount, True) for q, amount in offers.items() if q != me)
    entry = plan.seats.get(me) if plan.feasible else None
    if entry is None:
        return FairPrice(False, None, others)
    min_net = max(1.0, neg.proceeds * BALANCED.boss_margin)
    reserve = boss_reserve(remaining, plan.cost, entry, min_net)
    can_pay = max(0, min(max(0, neg.cap), int(reserve)))
    return FairPrice(False, can_pay, others)
