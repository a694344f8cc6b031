"""The random baseline: a uniform choice within a randomly drawn *kind* of move.

The kinds are weighted toward passing, agreeing and closing so that games end, and the few
moves that can move a deal forward (bringing a clan the deal still lacks) are preferred over
moves that cannot. Everything else is a coin flip: this is the yardstick other bots beat.
"""

from __future__ import annotations

import random
from bisect import bisect

from game.rules import (
    ACTION_TYPES,
    Accept,
    AcceptFormer,
    AcceptProposal,
    Action,
    Discard,
    Draw,
    FailDeal,
    GoingOnce,
    LayClan,
    LegalActions,
    OpenDeal,
    Pass,
    PassFloor,
    PlaceMarker,
    PlayBoss,
    PlayStop,
    PlayTravel,
    Recruit,
    Roll,
    Withdraw,
)
from game.rules.board import CLAN_KEYS, clan_from_key
from game.rules.state import SourceKind
from game.rules.view import board_of

from .base import Bot, register

# Relative weight of each kind of move when it is available.
KIND_WEIGHTS = {
    "close": 80,
    "agree": 80,
    "calm": 30,
    "turn": 10,
    "open": 4,
    "lay": 40,  # only Clan cards the deal still lacks (see `choose`)
    "offer": 30,  # only offers of such clans, and not while my own offer waits for an answer
    "card": 1.5,
    "withdraw": 0.3,
    "fail": 2,
}
_KIND_OF = {
    GoingOnce: "close",
    Accept: "agree",
    AcceptFormer: "agree",
    AcceptProposal: "agree",
    Pass: "calm",
    PassFloor: "calm",
    OpenDeal: "open",
    Roll: "turn",
    Draw: "turn",
    Discard: "turn",
    PlaceMarker: "turn",
    LayClan: "lay",
    PlayTravel: "card",
    PlayBoss: "card",
    PlayStop: "card",
    Recruit: "card",
    Withdraw: "withdraw",
    FailDeal: "fail",
}
HOPELESS_OPEN_WEIGHT = 0.3  # opening a deal the table cannot possibly cover
IDLE_CHANCE = 0.7  # real time, nobody waiting on us: how often to let the moment pass
_PLACARD = SourceKind.PLACARD  # a module constant: `.value` on a member is a descriptor call
_CLAN_CARD_BIT = {f"clan_{key}": 1 << clan for clan, key in enumerate(CLAN_KEYS)}  # hand keys
_KIND_OF.update({t: None for t in ACTION_TYPES.values() if t.meta})  # not moves


@register("random")
class RandomBot(Bot):
    needs_view = False

    def __init__(self, seat: int, seed: int = 0) -> None:
        super().__init__(seat, seed)
        self.rng = random.Random(seed * 7919 + seat)

    def choose(self, view: dict | None, legal: LegalActions, must_act: bool = True) -> Action | None:
        rng = self.rng
        if not must_act and rng.random() < IDLE_CHANCE:
            return None
        groups: dict[str, list] = {}
        kind_of = _KIND_OF
        for a in legal.fixed:
            kind = kind_of.get(type(a), "turn")
            if kind is not None:  # None: a meta action, not a move
                group = groups.get(kind)
                if group is None:
                    groups[kind] = [a]
                else:
                    group.append(a)
        if legal.terms:
            groups["offer"] = legal.terms
        if not groups:
            return None
        neg = needed = None
        if view is not None and ("lay" in groups or "offer" in groups):
            neg = view["negotiation"]
            if neg is not None:
                needed = _missing_clans(view, neg)
        if needed is not None:
            # Prefer what can move the deal forward: a clan it still lacks.
            if "lay" in groups:
                useful = [a for a in groups["lay"] if needed >> a.clan & 1]
                if useful:
                    groups["lay"] = useful
                else:
                    del groups["lay"]
            if "offer" in groups:
                if _my_offer_waits(neg, self.seat):
                    useful = []
                else:
                    useful = [t for t in groups["offer"] if _useful_pool(neg, t.pool, needed)]
                if useful:
                    groups["offer"] = useful
                else:
                    del groups["offer"]
        if not groups:
            return None
        kind = weighted_kind(rng, groups, view)
        if kind != "offer":
            return rng.choice(groups[kind])
        choice = rng.choice(groups["offer"])
        pool = choice.pool
        if needed is not None:
            pool = [s for s in pool if _needs(neg, s, needed)] or pool
        sources = pool if rng.random() < 0.8 else [s for s in pool if rng.random() < 0.5]
        # Modest asks: a random amount up to a third of what is left.
        top = choice.lo + (choice.hi - choice.lo) // 3
        return choice.make(sources, rng.randint(choice.lo, max(choice.lo, top)))


def weighted_kind(rng: random.Random, groups: dict[str, list], view) -> str:
    """`rng.choices(kinds, weights)[0]` over the kinds present, draw for draw (the same
    cumulative weights, one `random()`, the same bisection), without building its lists."""
    kinds = list(groups)
    cum = []
    total = 0
    for kind in kinds:
        if kind == "open" and view is not None and not _could_cover(view):
            total += HOPELESS_OPEN_WEIGHT
        else:
            total += KIND_WEIGHTS[kind]
        cum.append(total)
    return kinds[bisect(cum, rng.random() * (total + 0.0), 0, len(kinds) - 1)]


def _could_cover(view) -> bool:
    """Could the marker's space be covered by the placards in play plus my Clan cards?"""
    mask = 63
    for clan in view["pool"]:  # every placard not in the pool is some player's
        mask &= ~(1 << clan)
    for key in view.get("hand", {}):
        mask |= _CLAN_CARD_BIT.get(key, 0)
    return board_of(view).cover[view["marker"]][mask]


def _missing_clans(view, neg) -> int:
    """The clans the deal still lacks, as a bit set (bit c: clan c)."""
    wanted = board_of(view).clan_masks[neg["space"]]
    for clan in neg["committed"]:
        wanted &= ~(1 << clan)
    return wanted


def _my_offer_waits(neg, seat: int) -> bool:
    """My own offer is on the table and the Boss has not answered it: offering again only
    changes the amount, which drags the game out without moving it."""
    mine = neg["pending"].get(str(seat))
    return mine is not None and not mine["by_boss"]


def _useful_pool(neg, pool, needed: int) -> bool:
    return any(_needs(neg, s, needed) for s in pool)


def _needs(neg, src, needed: int) -> bool:
    """Is `src` a source of a clan in `needed`?"""
    if src.kind is _PLACARD:
        return needed >> src.ref & 1
    for card in neg["laid"]:
        if card["id"] == src.ref:
            return needed >> clan_from_key(card["clan"]) & 1
    return False
