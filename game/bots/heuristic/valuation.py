"""What things are worth to a seat, in $M of its own money: cards, placards, opening a
deal, drawing, the open deal; with a markup against the money leader late in the game."""

from __future__ import annotations

import random

from game.rules.cards import DECK_COUNTS, DECK_SIZE, Card
from game.rules.state import Source, SourceKind

from ..obs import Obs
from ..talk import Talk
from .moves import laid_owner
from .personality import Personality
from .planning import (
    PRICE,
    Plan,
    clans_in,
    expected_deals_left,
    placard_use,
    plan_open_deal,
    turn_plan,
)

DRAW_COUNT = 3  # cards a Draw takes
REASONABLE = 0.65  # at the hand limit, a deal leaving the Boss this share beats a draw

# Card values in $M early in the game (they fade as the game runs out of deals).
BOSS_VALUE = 4.0
STOP_VALUE = 2.5
GREY_VALUE = 1.5
TRAVEL_VALUE = 1.0
CLAN_VALUE = 2.0
CLAN_OWN_VALUE = 0.6  # a Clan card of a clan whose placard the seat holds
RECRUIT_VALUE = 1.1
RECRUIT_SPARE_VALUE = 0.4  # beyond two triples


class Valuation:
    """The values every decision weighs (the base of `Policy`): the personality's numbers,
    the policy's randomness and its talk memory live here."""

    def __init__(self, personality: Personality, rng: random.Random) -> None:
        self.p = personality
        self.rng = rng
        self.talk: Talk | None = None  # a bot at a table remembers its talk; rollouts do not
        self.people: frozenset[int] = frozenset()  # the seats people play (Bot.meet)

    def jit(self, x: float) -> float:
        if self.p.noise:
            return x * (1.0 + self.rng.uniform(-self.p.noise, self.p.noise))
        return x

    def fade(self, o: Obs) -> float:
        """How much cards and placards are still worth: 1 early, toward 0 at the end."""
        return min(1.0, expected_deals_left(o) / 7.0)

    def card_value(self, o: Obs, card: int, held: int | None = None) -> float:
        if held is None:
            held = o.hand[card]
        key = ("card", card, held)
        v = o.cache.get(key)
        if v is not None:
            return v
        if card <= Card.CLAN_GREEN:
            v = CLAN_OWN_VALUE if o.placards[card] == o.seat else CLAN_VALUE
            if held > 1:
                v *= 0.5
        elif card <= Card.TRAVEL_GREEN:
            v = TRAVEL_VALUE
        elif card == Card.TRAVEL_GREY:
            v = GREY_VALUE
        elif card == Card.RECRUIT:
            v = RECRUIT_VALUE if held <= 6 else RECRUIT_SPARE_VALUE
        elif card == Card.BOSS:
            v = BOSS_VALUE
        else:
            v = STOP_VALUE
        v = o.cache[key] = v * self.fade(o) * self.p.card_keep
        return v

    def mean_card_value(self, o: Obs) -> float:
        """The value of a card drawn blind."""
        v = o.cache.get("mean_card")
        if v is None:
            hand = o.hand
            me = o.seat
            total = 0.0
            for c in range(6):
                x = CLAN_OWN_VALUE if o.placards[c] == me else CLAN_VALUE
                total += DECK_COUNTS[c] * (x * 0.5 if hand[c] else x)
            total += 18 * TRAVEL_VALUE + 3 * GREY_VALUE + 10 * BOSS_VALUE + 10 * STOP_VALUE
            total += 33 * (RECRUIT_VALUE if hand[Card.RECRUIT] < 6 else RECRUIT_SPARE_VALUE)
            v = total / DECK_SIZE * self.fade(o) * self.p.card_keep
            o.cache["mean_card"] = v
        return v

    def lateness(self, o: Obs) -> float:
        return max(0.0, 1.0 - expected_deals_left(o) / 8.0)

    def leader_factor(self, o: Obs, seat: int) -> float:
        """Extra weight against `seat` when it leads the money late in the game."""
        if seat == o.seat:
            return 0.0
        money = o.money
        top = max(money[s] for s in range(o.n) if s != seat) if o.n > 1 else 0
        if money[seat] <= top or money[seat] < money[o.seat]:
            return 0.0
        return self.p.leader_markup * self.lateness(o)

    def placard_value(self, o: Obs, clan: int) -> float:
        """Future income from holding a clan's placard."""
        key = ("placard", clan)
        v = o.cache.get(key)
        if v is None:
            v = o.cache[key] = self._placard_value(o, clan)
        return v

    def _placard_value(self, o: Obs, clan: int) -> float:
        share, avg = placard_use(o.view.board, o.view.covered, clan)
        price = o.view.price or 3
        return share * expected_deals_left(o) * avg * price * 0.3

    def boss_value(self, o: Obs, space: int) -> float:
        """What opening a deal on `space` is worth to me now."""
        board = o.view.board
        me = o.seat
        price = o.view.price
        proceeds = board.spaces[space].dividends * price
        have = 0
        for c in clans_in(board.clan_masks[space]):
            if o.placards[c] == me:
                have |= 1 << c
        plan = turn_plan(o, space, proceeds, have)
        if not plan.feasible:
            return -1.0
        failed = o.failed.get(space, 0)
        # Others take what they are paid from the table; against the leader that is worse.
        value = plan.value
        for q, entry in plan.seats.items():
            value -= entry[PRICE] * self.leader_factor(o, q)
        if failed:
            value = value * 0.5**failed - failed  # it failed here since the last close
        return self.jit(value)

    def draw_value(self, o: Obs) -> float:
        """Three cards: worth their mean value while the hand has room; past the hand limit
        only what they improve on the cards that would be discarded."""
        room = max(0, o.view.hand_limit - o.hand_counts[o.seat])
        mean = self.mean_card_value(o)
        count = 3
        value = min(count, room) * mean
        if count > room:
            excess = count - room
            for worst, x in sorted((self.card_value(o, k), x) for k, x in enumerate(o.hand) if x):
                if worst >= mean or excess <= 0:
                    break
                take = min(x, excess)
                value += take * (mean - worst)
                excess -= take
        return self.jit(value * self.p.draw_bias)

    def reasonable_at_hand_limit(self, o: Obs) -> bool:
        """At the hand limit a draw means discarding: people take a reasonable deal instead
        (one that leaves the Boss `REASONABLE` of the proceeds or more)."""
        if o.hand_counts[o.seat] + DRAW_COUNT <= o.view.hand_limit:
            return False
        proceeds = o.view.board.spaces[o.view.marker].dividends * o.view.price
        return proceeds > 0 and self.boss_value(o, o.view.marker) >= REASONABLE * proceeds

    def draw_weight(self, o: Obs) -> float:
        """Drawing against dealing: low while the first deals of the game are still to be
        made (people open deals early, even cheap ones), in full once the table is warm."""
        warm = min(1.0, o.view.deals_closed / self.p.warm_up) if self.p.warm_up > 0 else 1.0
        return self.p.turn_draw + (1.0 - self.p.turn_draw) * warm

    def roll_targets(self, o: Obs) -> list[int]:
        n = len(o.view.board.spaces)
        covered = o.view.covered
        out = []
        for d in range(1, 7):
            pos = o.view.marker
            steps = d
            if len(covered) < n - 1:
                while steps:
                    pos = (pos + 1) % n
                    if pos not in covered:
                        steps -= 1
            out.append(pos)
        return out

    def committed_source(self, o: Obs, src: Source) -> bool:
        neg = o.neg
        if src.kind is SourceKind.PLACARD:
            owner = o.placards[src.ref]
            if owner == neg.boss:
                return True
        else:
            if laid_owner(neg, src.ref) == neg.boss:
                return True
        return any(src in t.sources for t in neg.agreements.values())

    def my_deal_net(self, o: Obs) -> float:
        """As Boss: what the open deal still promises me."""
        neg = o.neg
        remaining = neg.proceeds - neg.agreed_total
        if neg.covered:
            return remaining
        plan = plan_open_deal(o, o.seat)
        return plan.value if plan.feasible else 0.0

    def current_plan(self, o: Obs) -> Plan:
        """The Boss's plan for the open deal, as any seat can estimate it."""
        plan = o.cache.get("plan")
        if plan is None:
            plan = o.cache["plan"] = plan_open_deal(o, o.neg.boss)
        return plan
