"""Converging like people (see talk.py): the terms a bot says, when it concedes, and when it
walks away."""

from __future__ import annotations

from game.rules import (
    Action,
    FailDeal,
    PassFloor,
    Propose,
)

from ..obs import Obs
from ..talk import GiveUp, Phrase
from .moves import far_off, first_of, reprice
from .valuation import Valuation

MAX_WORDS = 3  # terms a bot says to one counterpart in a deal; the last is its limit
TABLE_TALK = 12  # offers + proposals in one deal (all seats, every Boss) after which a bot
# says no new terms: it takes terms within its limit or walks away (see Speaker.say_terms)
TALK_BASE = 8  # negotiation moves a Boss and an investor need to meet halfway
TALK_PER_SEAT = 3  # ... plus this many per player at the table


def talk_progress(o: Obs) -> float:
    """How far the talks have run: 0 at the opening, 1 once both sides should have met
    (the negotiation limit is a hard stop; bots settle or give up well before it)."""
    neg = o.neg
    horizon = min(neg.limit * 0.75, TALK_BASE + TALK_PER_SEAT * o.n)
    return min(1.0, neg.actions / max(1.0, horizon))


class Speaker(Valuation):
    """How far the talks have run, and saying terms without repeating them."""

    def progress(self, o: Obs) -> float:
        """`talk_progress`, or further when the table has talked a lot in this deal (Boss
        cards bring new Bosses who price everybody afresh: the talk must still end)."""
        frac = talk_progress(o)
        if self.talk is not None:
            frac = max(frac, self.talk.table_words / (TABLE_TALK * 0.6))
        return min(1.0, frac)

    def say_terms(self, o: Obs, legal, action, limit: int, their=None, accept=None):
        """Speak `action` (an Offer, or a Boss's Propose) unless it would repeat terms
        already said to that counterpart in this deal, or not move on my last word in this
        situation (see talk.py). Then, instead: take the other side's standing amount
        `their` (with `accept`) when it is within my `limit` (the most a Boss pays, the
        least an investor takes), else concede half the way to my limit, else walk away.
        Terms at the limit after an earlier word to that counterpart are my "last offer";
        the MAX_WORDS-th word to one counterpart is, and after it I walk away."""
        talk = self.talk
        if talk is None or action is None:
            return action
        boss_speaks = isinstance(action, Propose)
        toward = 1 if boss_speaks else -1  # a Boss concedes upwards, an investor downwards
        counterpart = action.to if boss_speaks else o.neg.boss
        said, current = talk.amounts(counterpart, action.sources)
        words = talk.words(counterpart)
        if talk.table_words >= TABLE_TALK:  # the table has talked enough: no new terms
            if accept is not None and their is not None and toward * (their - limit) <= 0:
                talk.say(Phrase.DEAL)
                return accept
            return self._walk_away(o, legal, limit, their)
        if words >= MAX_WORDS:
            return self._walk_away(o, legal, limit, their)  # said all I had to say
        if words == MAX_WORDS - 1 and toward * (limit - action.amount) > 0:
            action = reprice(legal, action, limit) or action  # my last word: my limit
        if action.amount in said or (current and toward * (action.amount - current[-1]) <= 0):
            if accept is not None and their is not None and toward * (their - limit) <= 0:
                talk.say(Phrase.DEAL)
                return accept
            base = current[-1] if current else action.amount
            room = toward * (limit - base)
            if room <= 0 or counterpart in talk.final:
                return self._walk_away(o, legal, limit, their)
            step = (room + 1) // 2
            amount = limit if room - step <= 1 else base + toward * step
            while amount in said and toward * (limit - amount) > 0:
                amount += toward  # never back to terms said before
            action = reprice(legal, action, amount)
            if action is None or action.amount in said:
                return self._walk_away(o, legal, limit, their)
        if their is not None and toward * (their - limit) > 0:  # refusing: beyond my limit
            if far_off(their, limit, boss_speaks):
                talk.say(Phrase.NO_WAY)
            elif boss_speaks:
                talk.say(Phrase.TOO_EXPENSIVE)
        # "last offer" is a final counter: never my first word to this counterpart in the deal
        final = words > 0 and toward * (action.amount - limit) >= 0
        if final:
            talk.say(Phrase.LAST_OFFER)
        talk.intend(counterpart, action.sources, action.amount, final)
        return action

    def _walk_away(self, o: Obs, legal, limit: int, their) -> Action | None:
        """No agreement within my limit: a Boss fails the deal, an investor stops talking
        (passes the floor, or lets the moment pass in real time)."""
        boss = o.neg.boss == o.seat
        far = their is not None and far_off(their, limit, boss)
        self.talk.say(Phrase.NO_WAY if far else Phrase.TOO_EXPENSIVE if boss else Phrase.IM_OUT)
        fail = first_of(legal, FailDeal) if boss else None
        if fail is not None:
            return self.give_up(fail, GiveUp.TOO_EXPENSIVE)
        return first_of(legal, PassFloor) if not o.real_time else None

    def give_up(self, fail: Action, reason: GiveUp) -> Action:
        if self.talk is not None and self.talk.reason is None:
            self.talk.reason = reason
        return fail
