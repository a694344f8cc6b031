"""Card plays: Stop, Travel, Boss and Recruitment cards, in the windows and in a negotiation,
and shedding cards under V2."""

from __future__ import annotations

from game.rules import (
    Action,
    LegalActions,
    Pass,
    PlayBoss,
    PlayStop,
    PlayTravel,
    Recruit,
)
from game.rules.cards import Card
from game.rules.state import POOL, SourceKind

from ..obs import Obs
from .moves import first_of, laid_owner, passive_move
from .planning import BITS, PRICE, clans_in, plan_deal
from .valuation import Valuation

V2_HAND = 10  # docs/RULES.md §8 V2: a turn begun with this many cards must attempt a deal
MAX_NEW_BOSSES = 2  # a bot plays no Boss card on a deal already taken over this many times:
# every new Boss prices its sellers afresh, and a third Boss would only restart the talk


class CardPlay(Valuation):
    """Which card to play, and when a play in a window is worth a Stop."""

    def best_travel(self, o: Obs, legal: LegalActions):
        """The Travel play worth most to me (None if none is worth anything)."""
        neg = o.neg
        if neg is None or neg.boss == o.seat or o.seat in neg.agreements:
            return None
        if self.leader_factor(o, neg.boss) <= 0.0 and not any(
            self._could_sell(o, c) for c in BITS[o.view.board.clan_masks[neg.space]]
        ):
            return None  # neither a leader to stop nor a slot I could fill afterwards
        best, best_v = None, 0.0
        seen = set()
        for a in legal.fixed:
            if isinstance(a, PlayTravel) and a.target not in seen:
                seen.add(a.target)  # the matching card comes before the grey one
                if a.target.kind is SourceKind.CARD and self.spares(
                    o, laid_owner(neg, a.target.ref)
                ):
                    continue  # it would discard a spared seat's Clan card
                v = self._travel_gain(o, a)
                if v > best_v:
                    best, best_v = a, v
        return best

    def answer_window(self, o: Obs, legal: LegalActions) -> Action | None:
        w = o.win
        pas = first_of(legal, Pass)
        if w.kind == "going_once":
            play = self.card_play(o, legal, in_call=True)
            return play if play is not None else pas
        stop = first_of(legal, PlayStop)
        if (
            stop is not None
            and not self.spares(o, w.actor)
            and self.stop_worth(o) > self.card_value(o, Card.STOP)
        ):
            return stop
        return pas if pas is not None else passive_move(legal)

    def spares(self, o: Obs, seat: int | None) -> bool:
        """A gentle style's opening with people (``Personality.gentle``, ``Bot.meet``):
        until the table has closed that many rounds' worth of deals it takes nothing from a
        person's seat, so someone learning the game keeps their placards and sees their
        first plays stand. Bots get no such favour."""
        return seat in self.people and seat != o.seat and o.view.deals_closed < self.p.gentle * o.n

    def spares_placard(self, o: Obs, clan: int) -> bool:
        """Recruiting this placard would take from a person the style spares: in its gentle
        opening, or (``spare_last``) the only placard that person holds."""
        owner = o.placards[clan]
        if owner not in self.people or owner == o.seat:
            return False
        if self.spares(o, owner):
            return True
        return self.p.spare_last > 0 and sum(1 for c in o.placards if c == owner) <= 1

    def stop_worth(self, o: Obs) -> float:
        """What letting the play in the window stand would cost me."""
        w = o.win
        neg = o.neg
        me = o.seat
        loss = 0.0
        if w.actor == me:
            return 0.0
        if w.kind == "boss" and neg is not None:
            if neg.boss == me:
                loss = max(0.0, self.my_deal_net(o))
            else:
                agreed = neg.agreements.get(me)
                if agreed is not None:
                    loss = 0.3 * agreed.amount
            loss += self.leader_factor(o, w.actor) * neg.proceeds * 0.5
        elif w.kind == "travel" and neg is not None and w.target is not None:
            t = w.target
            owner = o.placards[t.ref] if t.kind is SourceKind.PLACARD else laid_owner(neg, t.ref)
            agreed = neg.agreements.get(me)
            if agreed is not None and t in agreed.sources:
                loss = 0.8 * agreed.amount
            elif neg.boss == me and self.committed_source(o, t):
                loss = 0.8 * max(0.0, self.my_deal_net(o))
            elif owner == me:
                loss = 0.3 * neg.proceeds / max(2, o.view.board.spaces[neg.space].investors)
        elif w.kind == "recruit" and w.recruit is not None:
            c = w.recruit
            if o.placards[c] == me:
                loss = self.placard_value(o, c)
                if neg is not None and neg.boss == me and neg.committed_mask >> c & 1:
                    loss += max(0.0, self.my_deal_net(o))
            elif o.placards[c] == POOL and self.leader_factor(o, w.actor) > 0:
                loss = 0.5 * self.placard_value(o, c)
        return self.jit(loss)

    def can_block(self, o: Obs, legal: LegalActions) -> bool:
        neg = o.neg
        for a in legal.fixed:
            if isinstance(a, PlayTravel) and self.committed_source(o, a.target):
                return True
        return neg is None

    def shed_under_v2(self, o: Obs, legal: LegalActions) -> Action | None:
        """V2 forces a player starting a turn with 10+ cards to deal instead of drawing. When
        every hand is full of cards kept for later and no deal can close, the table loops
        forever (seen in the legality sweep: 3,000+ failed deals in a row). Once deals have
        failed around the table twice since the last close, a bot over the V2 line sheds
        the cards it was saving: a Recruitment triple first (it also gains a placard), then a
        Travel or a Boss card, until it may draw again and the deck turns over."""
        if not o.v2 or o.hand_counts[o.seat] < V2_HAND or sum(o.failed.values()) < 2 * o.n:
            return None
        for kind in (Recruit, PlayTravel, PlayBoss):
            for a in legal.fixed:
                if type(a) is kind:
                    return a
        return None

    def card_play(self, o: Obs, legal: LegalActions, in_call: bool) -> Action | None:
        neg = o.neg
        if neg is None or neg.boss == o.seat:
            return None
        best, best_v = None, 0.0
        boss = first_of(legal, PlayBoss)
        if boss is not None:
            v = self._steal_gain(o)
            if v > best_v:
                best, best_v = boss, v
        a = self.best_travel(o, legal)
        if a is not None:
            v = self._travel_gain(o, a)
            if v > best_v:
                best, best_v = a, v
        if not in_call:
            rec = self.best_recruit(o, legal)
            if rec is not None:
                v = self._recruit_gain(o, rec.clan)
                if v > best_v:
                    best, best_v = rec, v
        return best

    def _p_stop(self, o: Obs, seats) -> float:
        p_none = 1.0
        for q in seats:
            if q != o.seat:
                p_none *= 1.0 - o.p_holds(q, Card.STOP)
        return 1.0 - p_none

    def _steal_gain(self, o: Obs) -> float:
        neg = o.neg
        if self.talk is not None and self.talk.new_bosses >= MAX_NEW_BOSSES:
            return 0.0
        me = o.seat
        board = o.view.board
        lead = self.leader_factor(o, neg.boss) * neg.proceeds * 0.5
        p_stop = 0.85 * o.p_holds(neg.boss, Card.STOP)
        cost = self.card_value(o, Card.BOSS) + 0.08 * neg.proceeds
        jit = 1.0 + self.p.noise
        if (1.0 - p_stop) * (neg.proceeds + lead) * self.p.steal * jit <= cost:
            return 0.0  # even for nothing, the deal is not worth the card
        have = 0
        for c in clans_in(board.clan_masks[neg.space]):
            if o.placards[c] == me and c not in neg.travel:
                have |= 1 << c
        for _id, owner, clan in neg.laid:
            if owner == me:
                have |= 1 << clan
        pending = {
            q: t for q, t in neg.agreements.items() if q != me
        }  # agreements fall back to offers the new Boss may accept as they stand
        for q, t in neg.pending.items():
            if q != me and not t.by_boss and q not in pending:
                pending[q] = t
        plan = plan_deal(o, neg.space, me, neg.proceeds, have, pending, neg.laid, neg.travel)
        if not plan.feasible:
            return 0.0
        mine_now = 0.0
        agreed = neg.agreements.get(me)
        if agreed is not None:
            mine_now = agreed.amount
        gain = plan.value - mine_now + lead
        gain = (1.0 - p_stop) * gain * self.p.steal - self.card_value(o, Card.BOSS)
        return self.jit(gain) - 0.08 * neg.proceeds

    def _travel_gain(self, o: Obs, a: PlayTravel) -> float:
        neg = o.neg
        me = o.seat
        t = a.target
        agreed = neg.agreements.get(me)
        if agreed is not None:
            return 0.0  # I am in this deal
        owner = o.placards[t.ref] if t.kind is SourceKind.PLACARD else laid_owner(neg, t.ref)
        if owner == me:
            return 0.0
        if not self.committed_source(o, t):
            return 0.0
        clan = neg.source_clan(t)
        remaining = neg.proceeds - neg.agreed_total
        have = neg.committed_mask & ~(1 << clan)
        # would anything else still fill that clan? (a second committed source of it)
        for terms in neg.agreements.values():
            for s in terms.sources:
                if s != t and neg.source_clan(s) == clan:
                    have |= 1 << clan
        if o.placards[clan] == neg.boss and t.kind is SourceKind.CARD and clan not in neg.travel:
            have |= 1 << clan
        for _id, owner2, c in neg.laid:
            if owner2 == neg.boss and c == clan and (t.kind is not SourceKind.CARD or _id != t.ref):
                have |= 1 << clan
        if have >> clan & 1:
            return 0.0
        lead = self.leader_factor(o, neg.boss)
        if lead <= 0.0 and not self._could_sell(o, clan):
            return 0.0  # neither a leader to stop nor a slot I could fill afterwards
        cost = self.card_value(o, a.card) + 1.0
        if remaining * (0.8 + 2.0 * lead) * (1.0 + self.p.noise) <= cost:
            return 0.0  # even at best, not worth the card
        before = self.current_plan(o)
        after = plan_deal(
            o, neg.space, neg.boss, remaining, have, neg.pending, neg.laid, neg.travel, exclude=t
        )
        gain = 0.0
        if after.feasible and me in after.seats:
            gain += after.seats[me][PRICE] * 0.8  # the Boss now needs me
        boss_loss = max(0.0, (before.value if before.feasible else 0.0))
        boss_loss -= max(0.0, after.value) if after.feasible else 0.0
        gain += boss_loss * lead * 2.0
        p_stop = self._p_stop(o, [neg.boss])
        return self.jit((1.0 - p_stop) * gain) - cost

    def _could_sell(self, o: Obs, clan: int) -> bool:
        """Could I fill the slot of `clan` once it is gone (a Clan card, or my placard of
        another clan the space takes)?"""
        neg = o.neg
        if o.hand[clan]:
            return True
        for _id, owner, c in neg.laid:
            if owner == o.seat and c == clan:
                return True
        wanted = o.view.board.clan_masks[neg.space] & ~neg.committed_mask
        return any(o.placards[c] == o.seat and c not in neg.travel for c in BITS[wanted])

    def best_recruit(self, o: Obs, legal: LegalActions) -> Recruit | None:
        best, best_v = None, 0.0
        for a in legal.fixed:
            if isinstance(a, Recruit) and not self.spares_placard(o, int(a.clan)):
                v = self._recruit_gain(o, a.clan)
                if v > best_v:
                    best, best_v = a, v
        return best

    def _recruit_gain(self, o: Obs, clan: int) -> float:
        me = o.seat
        v = self.placard_value(o, clan)
        neg = o.neg
        owner = o.placards[clan]
        if neg is not None and o.view.board.clan_masks[neg.space] >> clan & 1:
            remaining = neg.proceeds - neg.agreed_total
            if neg.boss == me and not neg.committed_mask >> clan & 1:
                v += 0.3 * remaining  # the deal gets the clan for free
            elif neg.boss != me and owner != neg.boss:
                v += 0.15 * remaining  # the Boss may need it from me now
            elif neg.boss != me and owner == neg.boss:
                v += 0.25 * remaining  # the Boss loses a clan it counted on
        if owner != POOL:
            v += 0.3 * self.placard_value(o, clan)  # the owner loses it
            v *= 1.0 - 0.85 * o.p_holds(owner, Card.STOP)
        cost = 3 * self.card_value(o, Card.RECRUIT)
        return self.jit(v) - cost
