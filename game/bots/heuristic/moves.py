"""Picking moves out of the legal ones, and the small reckonings of a negotiation that the
Boss, the investor, the coach and the search share."""

from __future__ import annotations

from game.rules import (
    AcceptProposal,
    Action,
    Draw,
    FailDeal,
    GoingOnce,
    LayClan,
    LegalActions,
    Offer,
    Pass,
    PassFloor,
    PlayBoss,
    PlayTravel,
    Recruit,
    Roll,
)
from game.rules.state import SourceKind

from ..talk import NO_WAY_FACTOR
from .planning import PRICE, clans_in


def first_of(legal: LegalActions, kind) -> Action | None:
    for a in legal.fixed:
        if type(a) is kind:
            return a
    return None


def find_move(legal: LegalActions, kind, **attrs) -> Action | None:
    for a in legal.fixed:
        if type(a) is kind and all(getattr(a, k) == v for k, v in attrs.items()):
            return a
    return None


def nothing_to_do(legal: LegalActions) -> bool:
    for a in legal.fixed:
        t = type(a)
        if t is PlayBoss or t is PlayTravel or t is Recruit or t is AcceptProposal or t is LayClan:
            return False
    return all(not t.pool for t in legal.terms)


def boss_reserve(remaining: float, cost: float, entry: list, min_net: float) -> float:
    """The most a Boss can pay the seat of plan `entry`: what is left of the proceeds once
    the plan's other payments (`cost` minus this seat's price) and the Boss's own margin
    are kept back."""
    return remaining - (cost - entry[PRICE]) - min_net


def passive_move(legal: LegalActions) -> Action | None:
    for kind in (Pass, PassFloor, GoingOnce, Draw, FailDeal, Roll):
        a = first_of(legal, kind)
        if a is not None:
            return a
    if legal.fixed:
        return legal.fixed[0]
    for t in legal.terms:
        return t.make((), t.lo)
    return None


def offer_move(legal: LegalActions, sources, amount: int) -> Offer | None:
    for t in legal.terms:
        if isinstance(t.action, Offer):
            if any(s not in t.pool for s in sources):
                return None
            return t.make(tuple(sources), max(t.lo, min(t.hi, int(amount))))
    return None


def fee_asked(neg, me: int) -> bool:
    """Does another seat's fee stand (asked or granted)? One blocker's fee is enough talk
    in a deal: a second would only repeat the threat (the bot's talk memory remembers the
    fees asked earlier in the deal too)."""
    for q, t in list(neg.pending.items()) + list(neg.agreements.items()):
        if q != me and q != neg.boss and not t.sources and not t.by_boss:
            return True
    return False


def reprice(legal: LegalActions, action, amount: int):
    """The same Offer or Propose for another amount (clamped to what is legal)."""
    for t in legal.terms:
        if t.covers(action):
            return t.make(action.sources, max(t.lo, min(t.hi, int(amount))))
    return None


def far_off(their: int, limit: int, boss: bool) -> bool:
    """Is the other side's price far beyond my limit ("No way")?"""
    if boss:
        return their > NO_WAY_FACTOR * max(1, limit)
    return their * NO_WAY_FACTOR < limit


def laid_owner(neg, card_id: int) -> int | None:
    for cid, owner, _clan in neg.laid:
        if cid == card_id:
            return owner
    return None


def sources_for(pool, clans: int, neg) -> tuple | None:
    """One source from `pool` for each clan in `clans` (a placard before a laid card)."""
    out = []
    for c in clans_in(clans):
        pick = None
        for s in pool:
            if neg.source_clan(s) == c and (pick is None or s.kind is SourceKind.PLACARD):
                pick = s
        if pick is None:
            return None
        out.append(pick)
    return tuple(out)


def my_sources(legal: LegalActions, clans: int, neg) -> tuple:
    for t in legal.terms:
        if isinstance(t.action, Offer):
            srcs = sources_for(t.pool, clans, neg)
            return srcs if srcs is not None else ()
    return ()


def brings(neg, terms, need: int) -> bool:
    for s in terms.sources:
        c = neg.source_clan(s)
        if c is not None and need >> c & 1:
            return True
    return False
