"""The Boss in a negotiation: close, lay its Clan cards, take, counter or refuse offers,
propose prices, or fail the deal."""

from __future__ import annotations

from game.rules import (
    Accept,
    AcceptFormer,
    Action,
    FailDeal,
    GoingOnce,
    LayClan,
    LegalActions,
    PassFloor,
    Propose,
    Withdraw,
)
from game.rules.cards import Card

from ..obs import Obs
from ..talk import GiveUp, Phrase
from .cards import CardPlay
from .moves import boss_reserve, brings, far_off, find_move, first_of, passive_move, sources_for
from .planning import CLANS_, EST, OFFERED, SOLE, Plan, plan_open_deal
from .speech import Speaker

WAIT_FOR_OFFERS = True  # see BossPlay._let_them_offer
REFUSE_ALOUD = True  # a Boss withdraws an offer it will neither take nor counter, and says why


class BossPlay(Speaker, CardPlay):
    """The Boss's side of a negotiation."""

    def as_boss(self, o: Obs, legal: LegalActions, must_act: bool) -> Action | None:
        neg = o.neg
        going = first_of(legal, GoingOnce)
        if going is not None:
            return going  # covered: close as soon as possible
        fail = first_of(legal, FailDeal)
        pass_floor = first_of(legal, PassFloor)
        if neg.limit_spent:
            return self.give_up(fail, GiveUp.OUT_OF_TIME) if fail is not None else passive_move(legal)
        remaining = neg.proceeds - neg.agreed_total
        plan = plan_open_deal(o, o.seat)
        min_net = max(1.0, neg.proceeds * self.p.boss_margin)
        if not plan.feasible or plan.left < 1:
            rec = self.best_recruit(o, legal)
            if rec is not None:
                return rec
            if fail is not None:  # the deal cannot be covered, or cannot pay for it
                return self.give_up(
                    fail, GiveUp.NO_COVER if not plan.feasible else GiveUp.TOO_EXPENSIVE
                )
            return pass_floor if pass_floor is not None else None
        # A needed clan lies in the pool, or costs a lot: a Recruitment triple may fetch it.
        rec = self.best_recruit(o, legal)
        if rec is not None:
            return rec
        for c in plan.lay:
            a = find_move(legal, LayClan, clan=c)
            if a is not None:
                return a
        # Former agreements after a Boss card: take them as they stand when affordable.
        former = first_of(legal, AcceptFormer)
        if former is not None:
            total = sum(t.amount for q, t in neg.pending.items() if t.was_agreed and not t.by_boss)
            useful = all(q in plan.seats for q, t in neg.pending.items() if t.was_agreed)
            if useful and remaining - total >= min_net:
                return former
        # Offers on the table, cheapest first. Each gets an answer: taken, countered, or
        # refused aloud (withdrawn), never left standing unanswered.
        cost = plan.cost
        refuse: tuple[int, Phrase] | None = None
        for q in sorted(neg.pending, key=lambda s: neg.pending[s].amount):
            t = neg.pending[q]
            if t.by_boss:
                continue
            acc = find_move(legal, Accept, of=q)
            entry = plan.seats.get(q)
            if entry is not None:
                reserve = boss_reserve(remaining, cost, entry, min_net)
                if entry[OFFERED] is not None:
                    reserve -= self.leader_factor(o, q) * t.amount
                    if t.amount <= reserve and acc is not None:
                        return acc
                    if fail is not None and self.progress(o) >= 1.0:
                        # still asks more than the deal can pay me
                        return self.give_up(fail, GiveUp.TOO_EXPENSIVE)
                    counter = self._counter(o, legal, entry, q, t.amount, reserve)
                    if counter is not None:
                        return self.say_terms(o, legal, counter, int(reserve), t.amount, acc)
                    far = far_off(t.amount, int(reserve), True)
                    refuse = refuse or (q, Phrase.NO_WAY if far else Phrase.TOO_EXPENSIVE)
                elif reserve >= 1:
                    # the offer lacks what the plan needs from q: propose for that
                    amount = int(round(min(reserve, entry[EST] * self.p.boss_first)))
                    prop = self.proposal(legal, q, entry[CLANS_], amount, neg)
                    if prop is not None:
                        return self.say_terms(o, legal, prop, int(reserve))
                else:
                    refuse = refuse or (q, Phrase.TOO_EXPENSIVE)
            elif (
                (not t.sources or not brings(neg, t, plan.mask & ~neg.committed_mask))
                and acc is not None
                and t.amount <= self._fee_tolerance(o, q, plan)
            ):
                return acc  # a fee for letting the deal through, cheaper than the risk
            elif not t.was_agreed:
                refuse = refuse or (q, Phrase.NO_WAY)  # terms my deal has no use for
        if refuse is not None and REFUSE_ALOUD:
            no = find_move(legal, Withdraw, player=refuse[0])
            if no is not None:
                if self.talk is not None:
                    self.talk.say(refuse[1])
                return no
        # Needed seats nobody has priced yet: propose a price.
        if not neg.quiet or neg.last_proposal == 0:
            for q in sorted(plan.seats):
                entry = plan.seats[q]
                if q in neg.pending:
                    continue  # an offer or my proposal is already on the table
                if self._let_them_offer(o, entry):
                    continue
                if neg.quiet and len(plan.seats) + len(plan.lay) + len(plan.hope) > 1:
                    break  # one last proposal cannot cover the deal
                reserve = boss_reserve(remaining, cost, entry, min_net)
                amount = entry[EST] * self.p.boss_first
                if neg.quiet:
                    amount = max(amount, reserve)
                amount = int(round(min(amount, reserve)))
                if amount < 0:
                    continue
                prop = self.proposal(legal, q, entry[CLANS_], amount, neg)
                if prop is not None:
                    return self.say_terms(o, legal, prop, int(reserve))
        if neg.quiet:
            if pass_floor is not None and neg.last_proposal == 1:
                return pass_floor
            return self.give_up(fail, GiveUp.NO_TAKERS) if fail is not None else passive_move(legal)
        if o.real_time and must_act:
            # Real time, and nothing has happened for the Boss's patience (the limit is not
            # spent: see above): the quiet round of ask-around. One last proposal at my
            # reserve when a single seat can still cover the deal, then fail.
            last = self._last_proposal(o, legal, plan, remaining, min_net)
            if last is not None:
                return self.say_terms(o, legal, last, last.amount)
            return self.give_up(fail, GiveUp.NO_TAKERS) if fail is not None else passive_move(legal)
        if fail is not None and neg.actions >= 0.8 * neg.limit:
            return self.give_up(fail, GiveUp.OUT_OF_TIME)  # the talks go round in circles
        if not o.real_time:
            if self.talk is not None:
                self.talk.floor_passed = True
            return pass_floor
        return None

    def _let_them_offer(self, o: Obs, entry: list) -> bool:
        """Ask-around, first time round: a Boss names its price only to the seats it cannot
        do without, and lets the others (who compete for the slot) make their offers."""
        return (
            WAIT_FOR_OFFERS
            and self.talk is not None
            and not self.talk.floor_passed
            and not o.real_time
            and not o.neg.quiet
            and not entry[SOLE]
        )

    def _last_proposal(
        self, o: Obs, legal: LegalActions, plan: Plan, remaining: float, min_net: float
    ) -> Action | None:
        """My reserve, proposed to the one seat still needed, unless my proposal to it
        already stands at that (None: fail instead)."""
        if len(plan.seats) != 1 or plan.lay or plan.hope:
            return None  # one proposal cannot cover the deal
        ((q, entry),) = plan.seats.items()
        reserve = int(boss_reserve(remaining, plan.cost, entry, min_net))
        if reserve < 1:
            return None
        last = self.proposal(legal, q, entry[CLANS_], reserve, o.neg)
        mine = o.neg.pending.get(q)
        if last is not None and mine is not None and mine.by_boss and mine.amount >= last.amount:
            return None  # my last word is on the table and nobody took it
        return last

    def _counter(self, o, legal, entry, q, asked, reserve) -> Action | None:
        neg = o.neg
        if reserve < 1:
            return None
        # start near my estimate, meet the ask as the limit nears, never beyond my reserve
        target = entry[EST] * self.p.boss_first
        frac = self.progress(o)
        amount = asked - (asked - target) * 0.6 * (1.0 - frac)
        amount = int(min(reserve, amount))
        if amount >= asked or amount < 1:
            return None
        return self.proposal(legal, q, entry[CLANS_], amount, neg)

    def proposal(self, legal, q: int, clans: int, amount: int, neg) -> Action | None:
        for t in legal.terms:
            a = t.action
            if isinstance(a, Propose) and a.to == q:
                srcs = sources_for(t.pool, clans, neg)
                if srcs is None:
                    return None
                amount = max(t.lo, min(t.hi, amount))
                return t.make(srcs, amount)
        return None

    def _fee_tolerance(self, o: Obs, q: int, plan: Plan) -> float:
        """The most worth paying seat `q` to let the deal through."""
        threat = max(o.p_holds(q, Card.BOSS), 0.5 * o.p_holds(q, Card.TRAVEL_GREY))
        return threat * max(0.0, plan.left) * 0.3 * (1.0 - self.leader_factor(o, q))
