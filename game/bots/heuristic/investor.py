"""An investor in a negotiation: what the Boss needs from it, its ask and floor, answering a
proposal, a blocker's fee, laying Clan cards, or staying out."""

from __future__ import annotations

from game.rules import (
    AcceptProposal,
    Action,
    LayClan,
    LegalActions,
    PassFloor,
)
from game.rules.cards import Card

from ..obs import Obs
from .cards import CardPlay
from .moves import fee_asked, find_move, first_of, my_sources, nothing_to_do, offer_move
from .planning import CLANS_, SOLE, Plan, clans_in, plan_open_deal
from .speech import Speaker

NEEDED = 0.95  # an investor offers unasked only if a cover with it is worth this share of
# the Boss's best cover without it
FEE_WHEN_NEEDING = 1  # a blocker asks its fee once the Boss needs at most this many sellers


class InvestorPlay(Speaker, CardPlay):
    """An investor's side of a negotiation."""

    def as_investor(self, o: Obs, legal: LegalActions, must_act: bool) -> Action | None:
        neg = o.neg
        me = o.seat
        pass_floor = first_of(legal, PassFloor)
        idle = pass_floor if not o.real_time else None
        if nothing_to_do(legal):
            return idle  # no source to sell, no card to play, no proposal to answer
        play = self.card_play(o, legal, in_call=False)
        if play is not None:
            return play
        if neg.limit_spent:
            return idle
        plan = plan_open_deal(o, neg.boss, prefer=me)
        mine = plan.seats.get(me) if plan.feasible else None
        pending = neg.pending.get(me)
        if mine is not None and pending is None and not mine[SOLE]:
            best = self.current_plan(o)
            if best.feasible and me not in best.seats and plan.value < NEEDED * best.value:
                return idle  # the Boss has a clearly better cover without me: no use offering
        if mine is None:
            # Not needed: ask a fee if I could block the deal, else let it be.
            if (
                pending is None
                and me not in neg.agreements
                and self.p.fee > 0
                and plan.feasible
                and (o.hand[Card.BOSS] or self.can_block(o, legal))
                and not fee_asked(neg, me)
                and not (self.talk is not None and self.talk.fee_asked)
                and len(plan.seats) + len(plan.hope) <= FEE_WHEN_NEEDING
            ):
                fee = int(round(self.jit(neg.proceeds * self.p.fee)))
                if fee >= 1:
                    offer = offer_move(legal, (), fee)
                    if offer is not None:
                        return self.say_terms(o, legal, offer, fee)
            if pending is not None and pending.by_boss:
                acc = first_of(legal, AcceptProposal)
                if acc is not None and pending.amount >= 0:
                    return acc
            return idle
        clans = mine[CLANS_]
        ask, floor = self._ask(o, plan, clans)
        # Clan cards in my hand the plan counts on: lay them first.
        for c in clans_in(clans):
            if not self._has_source(o, neg, c):
                a = find_move(legal, LayClan, clan=c)
                if a is not None:
                    return a
        if pending is not None and pending.by_boss:
            acc = first_of(legal, AcceptProposal)
            if acc is not None and pending.amount >= floor:
                return acc
            amount = max(floor, int(round((pending.amount + ask) / 2)))
            if amount <= pending.amount and acc is not None:
                return acc
            offer = offer_move(legal, my_sources(legal, clans, neg), amount)
            return self.say_terms(o, legal, offer, floor, pending.amount, acc) if offer else idle
        if pending is None:
            if not mine[SOLE] and self._outbid_waits(o, clans, ask):
                return idle  # another seat offers these clans for less: let the Boss ask me
            offer = offer_move(legal, my_sources(legal, clans, neg), ask)
            return self.say_terms(o, legal, offer, floor) if offer is not None else idle
        # my own offer is pending: lower it as the negotiation runs out (once a situation:
        # people wait for an answer rather than bid against themselves)
        if self.talk is not None and len(self.talk.amounts(neg.boss, pending.sources)[1]) > 1:
            return idle
        if pending.amount > ask + max(1, 0.15 * pending.amount):
            offer = offer_move(legal, pending.sources, ask)
            if offer is not None:
                return self.say_terms(o, legal, offer, floor)
        return idle

    def _outbid_waits(self, o: Obs, clans: int, ask: int) -> bool:
        """Does another seat's offer already bring the Boss some of `clans` for no more than
        I would ask (in real time: for any amount; the talk would only multiply)?"""
        neg = o.neg
        for q, t in neg.pending.items():
            if q != o.seat and not t.by_boss and (o.real_time or t.amount <= ask):
                for s in t.sources:
                    c = neg.source_clan(s)
                    if c is not None and clans >> c & 1:
                        return True
        return False

    def _has_source(self, o: Obs, neg, clan: int) -> bool:
        if o.placards[clan] == o.seat and clan not in neg.travel:
            return True
        return any(owner == o.seat and c == clan for _id, owner, c in neg.laid)

    def _ask(self, o: Obs, plan: Plan, clans: int) -> tuple[int, int]:
        """My asking price for the clans the Boss needs from me, and my floor, now."""
        neg = o.neg
        me = o.seat
        remaining = neg.proceeds - neg.agreed_total
        entry = plan.seats[me]
        k = len(plan.seats) + len(plan.hope)
        share = max(0.0, remaining) / (k + 1)
        ask = share * (self.p.ask_sole if entry[SOLE] else self.p.ask_shared)
        ask *= 1.0 + self.leader_factor(o, neg.boss)
        # what I lose against the others if I sell cheap to a Boss who is ahead of me
        ask = self.jit(ask)
        floor = ask * self.p.floor
        frac = self.progress(o)
        now = floor + (ask - floor) * (1.0 - frac)
        cap = max(0, neg.cap)
        now_i = max(1, min(cap, int(round(now))))
        floor_i = max(1, min(now_i, int(round(floor))))
        return now_i, floor_i
