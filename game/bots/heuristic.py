"""A rule-based negotiator in the spirit of JSettlers' robot negotiator: every choice is
weighed against the best alternative (another source, another space, drawing, failing).

The bot decides from an `Obs` (its seat's view plus the money it has tracked from public
payments); the same `Policy` drives the search bot's rollouts on sampled states. Everything
is valued in $M of the seat's own money, with a markup against the money leader.

Personalities (`heuristic:<name>`) change the numbers, not the logic: see `PERSONALITIES`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from game.rules import (
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
    Offer,
    OpenDeal,
    Pass,
    PassFloor,
    PlaceMarker,
    PlayBoss,
    PlayStop,
    PlayTravel,
    Propose,
    Recruit,
    Roll,
    Withdraw,
)
from game.rules.cards import DECK_COUNTS, DECK_SIZE, Card
from game.rules.state import POOL, Phase, Source, SourceKind

from .base import Bot, Remark, register, spec_parts
from .obs import Memory, Obs
from .talk import NO_WAY_FACTOR, GiveUp, Phrase, Talk

DRAW_COUNT = 3  # cards a Draw takes
REASONABLE = 0.65  # at the hand limit, a deal leaving the Boss this share beats a draw
V2_HAND = 10  # docs/RULES.md §8 V2: a turn begun with this many cards must attempt a deal

# --------------------------------------------------------------------------- personalities


@dataclass(frozen=True)
class Personality:
    """The numbers behind a negotiating style. The balanced defaults were tuned in 4-player
    self-play (bench/bots.py): ask for a good share, hold out near it, keep cards for the
    rich deals at the end of the game, draw rather than deal cheaply."""

    name: str = "balanced"
    ask_sole: float = 1.35  # investor's first ask as sole source, x fair share
    ask_shared: float = 1.1  # ... when the Boss has another source for the slot
    floor: float = 0.85  # lowest price accepted, x first ask
    boss_margin: float = 0.2  # the Boss keeps at least this share of the proceeds
    boss_first: float = 0.7  # the Boss's first counter, x its estimate of the fair price
    leader_markup: float = 0.4  # extra asked of (and refused to) the money leader late on
    draw_bias: float = 2.5  # x the value of drawing cards
    turn_draw: float = 0.2  # x that value against opening a deal, before the table warms up
    warm_up: float = 2.0  # deals closed until drawing weighs in full again
    card_keep: float = 2.5  # x the value of cards in hand (higher: plays them less)
    steal: float = 1.0  # x the appetite for Boss cards
    fee: float = 0.08  # a blocker's fee ask, x proceeds (0: never asks one)
    noise: float = 0.0  # random jitter on every valuation (chaotic)


PERSONALITIES = {
    "balanced": Personality(),
    # turn_draw 0.1: opens early deals like Friendly (it drew through the first rounds: a
    # person waited 3 bot turns for a deal, median, in 4-6 players; bench/deal_runs.py)
    "tight": Personality(
        "tight", ask_sole=1.1, ask_shared=0.8, floor=0.9, boss_margin=0.3, boss_first=0.55,
        turn_draw=0.1, card_keep=3.0, steal=0.7, fee=0.0,
    ),
    "greedy": Personality(
        "greedy", ask_sole=1.7, ask_shared=1.35, floor=0.85, boss_margin=0.3, boss_first=0.6,
        leader_markup=0.6, steal=1.3, fee=0.15,
    ),
    "chaotic": Personality(
        "chaotic", ask_sole=1.2, ask_shared=0.9, floor=0.6, card_keep=1.2, draw_bias=1.5,
        steal=1.5, fee=0.12, noise=0.35,
    ),
    # for beginners: deals often, asks about a fair share and offers one, rarely takes a deal
    # away with a Boss card, asks no blocker's fee, no markup on the money leader
    "friendly": Personality(
        "friendly", ask_sole=1.0, ask_shared=0.8, floor=0.9, boss_margin=0.15, boss_first=0.9,
        leader_markup=0.0, draw_bias=1.8, turn_draw=0.1, card_keep=2.0, steal=0.4, fee=0.0,
    ),
}  # fmt: skip

# Card values in $M early in the game (they fade as the game runs out of deals).
BOSS_VALUE = 4.0
STOP_VALUE = 2.5
GREY_VALUE = 1.5
TRAVEL_VALUE = 1.0
CLAN_VALUE = 2.0
CLAN_OWN_VALUE = 0.6  # a Clan card of a clan whose placard the seat holds
RECRUIT_VALUE = 1.1
RECRUIT_SPARE_VALUE = 0.4  # beyond two triples
CARD_COST = 0.5  # laying an own Clan card that the deal will use up

SETTLE_SOLE = 0.85  # expected settled price as sole source, x fair share
SETTLE_SHARED = 0.55

_MASKS: dict[tuple[int, int], tuple[int, ...]] = {}


def minimal_covers(board, space: int) -> tuple[int, ...]:
    """Every clan set with exactly `investors` clans that covers the space."""
    key = (id(board), space)
    masks = _MASKS.get(key)
    if masks is None:
        sp = board.spaces[space]
        cover = board.cover[space]
        masks = tuple(m for m in range(64) if cover[m] and bin(m).count("1") == sp.investors)
        _MASKS[key] = masks
    return masks


BITS: tuple[tuple[int, ...], ...] = tuple(
    tuple(c for c in range(6) if m >> c & 1) for m in range(64)
)  # the clans in a mask, in order


def _bits(mask: int) -> tuple[int, ...]:
    return BITS[mask]


# --------------------------------------------------------------------------- deal plans


class Plan:
    """The cheapest way a Boss can still cover a deal, as some seat estimates it.

    `value` = chance x (what is left of the proceeds after every payment still to make);
    `seats` maps each external seat still to pay to (clans wanted from it, price, sole);
    `lay` lists the Boss's own Clan cards to lay; `priced` marks seats whose price is a
    pending offer rather than an estimate.
    """

    __slots__ = ("feasible", "mask", "cost", "left", "value", "chance", "seats", "lay", "hope")

    def __init__(self) -> None:
        self.feasible = False
        self.mask = 0
        self.cost = 0.0
        self.left = 0.0
        self.value = -1.0
        self.chance = 0.0
        self.seats: dict[int, list] = {}
        self.lay: list[int] = []
        self.hope: list[int] = []


# A plan's entry for a seat to pay: [clans wanted (mask), price expected, sole source,
# amount of its offer on the table (None), fair-share estimate]
CLANS_, PRICE, SOLE, OFFERED, EST = range(5)


def plan_deal(
    o: Obs,
    space: int,
    boss: int,
    remaining: float,
    have: int,
    pending: dict | None = None,
    laid=(),
    travel=(),
    exclude: Source | None = None,
    prefer: int | None = None,
) -> Plan:
    """Plan the rest of a deal for `boss` (`have`: clans committed already; `remaining`:
    proceeds minus the agreements made). The Boss's hand is known only when the Boss is
    `o.seat`; other hands count as a hope of a laid Clan card. `prefer`: pick that seat
    whenever it can bring a clan (an investor asking "what would the Boss need from me")."""
    board = o.board
    me = o.seat
    open_need = board.clan_masks[space] & ~have
    best = Plan()
    if not open_need:
        best.feasible = True
        best.mask = have
        best.left = best.value = remaining
        best.chance = 1.0
        return best
    placards = o.placards
    hand = o.hand
    x_placard = -1 if exclude is None or exclude.kind is not SourceKind.PLACARD else exclude.ref
    x_card = -1 if exclude is None or exclude.kind is not SourceKind.CARD else exclude.ref
    # offers on the table: seat -> (clans they bring, amount)
    offered: dict[int, tuple[int, int]] = {}
    if pending:
        for q, t in pending.items():
            if t.by_boss or q == boss:
                continue
            cm = 0
            for src in t.sources:
                if src.kind is SourceKind.PLACARD:
                    cm |= 1 << src.ref
                else:
                    for cid, _o, clan in laid:
                        if cid == src.ref:
                            cm |= 1 << clan
            offered[q] = (cm, t.amount)
    # Per clan still open: who would bring it (None: the Boss's own card; -1: only hope).
    pick = [-2] * 6
    n_prov = [0] * 6
    hope_p = [1.0] * 6
    for c in BITS[open_need]:
        if boss == me and hand[c]:
            pick[c] = -3  # I am the Boss and hold the card: lay it
            continue
        ps = []
        q = placards[c]
        if q != POOL and q != boss and c not in travel and c != x_placard:
            ps.append(q)
        for cid, owner, clan in laid:
            if clan == c and owner != boss and cid != x_card and owner not in ps:
                ps.append(owner)
        if boss != me and hand[c] and me not in ps:
            ps.append(me)  # I can lay a Clan card for the Boss
        n_prov[c] = len(ps)
        if not ps:
            hope_p[c] = h = o.hope_clan(boss, c)
            pick[c] = -1 if h > 0.0 else -2
            continue
        chosen = None
        if prefer is not None and prefer in ps:
            chosen = prefer
        else:
            cheapest = None
            for q in ps:  # the cheapest offer on the table that brings this clan
                off = offered.get(q)
                if off is not None and off[0] >> c & 1 and (cheapest is None or off[1] < cheapest):
                    chosen, cheapest = q, off[1]
            if chosen is None:
                chosen = ps[0]
        pick[c] = chosen
    feasible = []
    all_need = 63
    for m in minimal_covers(board, space):
        for c in BITS[m & open_need]:
            if pick[c] == -2:
                break
        else:
            feasible.append(m)
            all_need &= m
    for m in feasible:
        need = m & open_need
        lay = []
        hope = []
        seats: dict[int, list] = {}
        chance = 1.0
        for c in BITS[need]:
            q = pick[c]
            if q == -3:
                lay.append(c)
            elif q == -1:
                hope.append(c)
                chance *= hope_p[c]
            else:
                entry = seats.get(q)
                if entry is None:
                    entry = seats[q] = [0, 0.0, False, None, 0.0]
                entry[0] |= 1 << c
                if n_prov[c] == 1 and all_need >> c & 1:
                    entry[2] = True
        k = len(seats) + len(hope)
        share = (remaining if remaining > 0 else 0.0) / (k + 1)
        cost = 0.0
        for q, entry in seats.items():
            est = entry[4] = share * (SETTLE_SOLE if entry[2] else SETTLE_SHARED)
            off = offered.get(q)
            if off is not None and off[0] & entry[0] == entry[0]:
                entry[3] = off[1]
                entry[1] = off[1] if off[1] < est else est
            else:
                entry[1] = est
            cost += entry[1]
        cost += share * SETTLE_SOLE * len(hope) + CARD_COST * len(lay)
        left = remaining - cost
        value = chance * left
        if prefer is not None:
            # the investor's question: the best plan that buys from me, if there is one
            with_me = prefer in seats
            if best.feasible and (prefer in best.seats) != with_me:
                if with_me:
                    best.feasible = False
                else:
                    continue
        if not best.feasible or value > best.value:
            best.feasible = True
            best.mask = m
            best.cost = cost
            best.left = left
            best.value = value
            best.chance = chance
            best.seats = seats
            best.lay = lay
            best.hope = hope
    return best


_PLACARD_USE: dict[tuple, tuple[float, float]] = {}



def plan_open_deal(o: Obs, boss: int, prefer: int | None = None) -> Plan:
    """`plan_deal` for the open negotiation as it stands (its space, what is committed,
    pending, laid and travelling; the proceeds the agreements leave), for `boss`."""
    neg = o.neg
    return plan_deal(
        o,
        neg.space,
        boss,
        neg.proceeds - neg.agreed_total,
        neg.committed,
        neg.pending,
        neg.laid,
        neg.travel,
        prefer=prefer,
    )

def _placard_use(board, covered, clan: int) -> tuple[float, float]:
    """(share of the open spaces' dividends a clan can take part in, mean dividends of an
    open space), memoised per board and set of covered spaces."""
    key = (id(board), frozenset(covered), clan)
    out = _PLACARD_USE.get(key)
    if out is None:
        use = 0.0
        total = 0.0
        for s, sp in enumerate(board.spaces):
            if s in covered:
                continue
            total += sp.dividends
            if clan in sp.required:
                use += sp.dividends
            else:
                for g in sp.groups:
                    if clan in g.clans:
                        use += sp.dividends * g.count / len(g.clans)
        n_open = max(1, len(board.spaces) - len(covered))
        out = (use / total, total / n_open) if total > 0 else (0.0, 0.0)
        if len(_PLACARD_USE) > 20_000:
            _PLACARD_USE.clear()
        _PLACARD_USE[key] = out
    return out


_TURN_PLANS: dict[tuple, Plan] = {}


def _turn_plan(o: Obs, space: int, proceeds: int, have: int) -> Plan:
    """`plan_deal` for opening a deal, memoised on everything it reads (search rollouts ask
    the same question many times)."""
    unseen = o.unseen()
    key = (
        id(o.board),
        space,
        o.seat,
        proceeds,
        have,
        tuple(o.placards),
        tuple(o.hand[:6]),
        tuple(o.hand_counts),
        tuple(unseen[:6]),
        sum(unseen),
    )
    plan = _TURN_PLANS.get(key)
    if plan is None:
        if len(_TURN_PLANS) > 50_000:
            _TURN_PLANS.clear()
        plan = _TURN_PLANS[key] = plan_deal(o, space, o.seat, proceeds, have)
    return plan


# --------------------------------------------------------------------------- the policy


def expected_deals_left(o: Obs) -> float:
    """Deals still expected: the tiles left, weighted by the chance the end die spares them."""
    cached = o._cache.get("deals_left")
    if cached is not None:
        return cached
    o._cache["deals_left"] = total = deals_left(o.board, o.tiles)
    return total


_DEALS_LEFT: dict[tuple, float] = {}


def deals_left(board, tiles) -> float:
    key = (id(board), tuple(tiles))
    v = _DEALS_LEFT.get(key)
    if v is None:
        if len(_DEALS_LEFT) > 5000:
            _DEALS_LEFT.clear()
        v = _DEALS_LEFT[key] = _deals_left(board, tiles)
    return v


def _deals_left(board, tiles) -> float:
    alive = 1.0
    total = 0.0
    for t in tiles:
        total += alive
        if t == 15:
            break
        alive *= 1.0 - len(board.tiles[t - 1].end_faces) / 6.0
    return total


NEEDED = 0.95  # an investor offers unasked only if a cover with it is worth this share of
# the Boss's best cover without it

FEE_WHEN_NEEDING = 1  # a blocker asks its fee once the Boss needs at most this many sellers
MAX_WORDS = 3  # terms a bot says to one counterpart in a deal; the last is its limit
WAIT_FOR_OFFERS = True  # see Policy._let_them_offer
REFUSE_ALOUD = True  # a Boss withdraws an offer it will neither take nor counter, and says why

TABLE_TALK = 12  # offers + proposals in one deal (all seats, every Boss) after which a bot
# says no new terms: it takes terms within its limit or walks away (see Policy._say)

MAX_NEW_BOSSES = 2  # a bot plays no Boss card on a deal already taken over this many times:
# every new Boss prices its sellers afresh, and a third Boss would only restart the talk

TALK_BASE = 8  # negotiation moves a Boss and an investor need to meet halfway
TALK_PER_SEAT = 3  # ... plus this many per player at the table


def talk_progress(o: Obs) -> float:
    """How far the talks have run: 0 at the opening, 1 once both sides should have met
    (the negotiation limit is a hard stop; bots settle or give up well before it)."""
    neg = o.neg
    horizon = min(neg.limit * 0.75, TALK_BASE + TALK_PER_SEAT * o.n)
    return min(1.0, neg.actions / max(1.0, horizon))


class Policy:
    """The heuristic's decisions. `decide` picks one action; `candidates` lists the few
    sensible alternatives a search bot should compare (the heuristic's own choice first)."""

    def __init__(self, personality: Personality, rng: random.Random) -> None:
        self.p = personality
        self.rng = rng
        self.talk: Talk | None = None  # a bot at a table remembers its talk; rollouts do not

    def progress(self, o: Obs) -> float:
        """`talk_progress`, or further when the table has talked a lot in this deal (Boss
        cards bring new Bosses who price everybody afresh: the talk must still end)."""
        frac = talk_progress(o)
        if self.talk is not None:
            frac = max(frac, self.talk.table_words / (TABLE_TALK * 0.6))
        return min(1.0, frac)

    # -- alternatives for a search --------------------------------------------------------

    def candidates(self, o: Obs, legal: LegalActions, must_act: bool = True, limit: int = 5):
        """The heuristic's own choice first, then a few sensible alternatives."""
        first = self.decide(o, legal, must_act)
        out: list[Action] = []

        def add(a):
            if a is not None and a not in out:
                out.append(a)

        add(first)
        if o.win is not None:
            add(_first(legal, Pass))
            add(_first(legal, PlayStop))
            if o.win.kind == "going_once":
                add(_first(legal, PlayBoss))
                add(self._best_travel(o, legal))
        elif o.phase is Phase.TURN or o.phase is Phase.MOVED:
            add(_first(legal, OpenDeal))
            add(_first(legal, Roll))
            add(_first(legal, Draw))
        elif o.phase is Phase.DISCARD:
            add(self._best_recruit(o, legal))
            ranked = sorted(
                (a for a in legal.fixed if isinstance(a, Discard)),
                key=lambda a: (self.card_value(o, a.card), int(a.card)),
            )
            for a in ranked[:2]:
                add(a)
        elif o.phase is Phase.NEGOTIATION and o.neg is not None:
            neg = o.neg
            if neg.boss == o.seat:
                add(_first(legal, GoingOnce))
                add(self._variant(first, legal, 1.3))
                pend = [q for q, t in neg.pending.items() if not t.by_boss]
                for q in sorted(pend, key=lambda q: neg.pending[q].amount)[:1]:
                    add(_find(legal, Accept, of=q))
                add(_first(legal, FailDeal))
                add(_first(legal, PassFloor))
            else:
                add(self._variant(first, legal, 0.7))
                add(self._variant(first, legal, 1.4))
                add(_first(legal, AcceptProposal))
                add(_first(legal, PlayBoss))
                add(self._best_travel(o, legal))
                add(_first(legal, PassFloor))
        return out[:limit]

    def _variant(self, a, legal: LegalActions, factor: float):
        """The same offer or proposal for a different amount."""
        if not isinstance(a, (Offer, Propose)):
            return None
        amount = int(round(a.amount * factor))
        if amount == a.amount:
            amount += 1 if factor > 1 else -1
        for t in legal.terms:
            if t.covers(a):
                amount = max(t.lo, min(t.hi, amount))
                return t.make(a.sources, amount)
        return None

    def _best_travel(self, o: Obs, legal: LegalActions):
        """The Travel play worth most to me (None if none is worth anything)."""
        neg = o.neg
        if neg is None or neg.boss == o.seat or o.seat in neg.agreements:
            return None
        if self.leader_factor(o, neg.boss) <= 0.0 and not any(
            self._could_sell(o, c) for c in BITS[o.board.clan_masks[neg.space]]
        ):
            return None  # neither a leader to stop nor a slot I could fill afterwards
        best, best_v = None, 0.0
        seen = set()
        for a in legal.fixed:
            if isinstance(a, PlayTravel) and a.target not in seen:
                seen.add(a.target)  # the matching card comes before the grey one
                v = self._travel_gain(o, a)
                if v > best_v:
                    best, best_v = a, v
        return best

    # -- small helpers ------------------------------------------------------------------

    def _jit(self, x: float) -> float:
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
        v = o._cache.get(key)
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
        v = o._cache[key] = v * self.fade(o) * self.p.card_keep
        return v

    def mean_card_value(self, o: Obs) -> float:
        """The value of a card drawn blind."""
        v = o._cache.get("mean_card")
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
            o._cache["mean_card"] = v
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
        v = o._cache.get(key)
        if v is None:
            v = o._cache[key] = self._placard_value(o, clan)
        return v

    def _placard_value(self, o: Obs, clan: int) -> float:
        share, avg = _placard_use(o.board, o.covered, clan)
        price = o.price or 3
        return share * expected_deals_left(o) * avg * price * 0.3

    # -- values of turns ----------------------------------------------------------------

    def boss_value(self, o: Obs, space: int) -> float:
        """What opening a deal on `space` is worth to me now."""
        board = o.board
        me = o.seat
        price = o.price
        proceeds = board.spaces[space].dividends * price
        have = 0
        for c in _bits(board.clan_masks[space]):
            if o.placards[c] == me:
                have |= 1 << c
        plan = _turn_plan(o, space, proceeds, have)
        if not plan.feasible:
            return -1.0
        failed = o.failed.get(space, 0)
        # Others take what they are paid from the table; against the leader that is worse.
        value = plan.value
        for q, entry in plan.seats.items():
            value -= entry[PRICE] * self.leader_factor(o, q)
        if failed:
            value = value * 0.5**failed - failed  # it failed here since the last close
        return self._jit(value)

    def draw_value(self, o: Obs) -> float:
        """Three cards: worth their mean value while the hand has room; past the hand limit
        only what they improve on the cards that would be discarded."""
        room = max(0, o.hand_limit - o.hand_counts[o.seat])
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
        return self._jit(value * self.p.draw_bias)

    def _reasonable_at_hand_limit(self, o: Obs) -> bool:
        """At the hand limit a draw means discarding: people take a reasonable deal instead
        (one that leaves the Boss `REASONABLE` of the proceeds or more)."""
        if o.hand_counts[o.seat] + DRAW_COUNT <= o.hand_limit:
            return False
        proceeds = o.board.spaces[o.marker].dividends * o.price
        return proceeds > 0 and self.boss_value(o, o.marker) >= REASONABLE * proceeds

    def draw_weight(self, o: Obs) -> float:
        """Drawing against dealing: low while the first deals of the game are still to be
        made (people open deals early, even cheap ones), in full once the table is warm."""
        warm = min(1.0, o.deals_closed / self.p.warm_up) if self.p.warm_up > 0 else 1.0
        return self.p.turn_draw + (1.0 - self.p.turn_draw) * warm

    def roll_targets(self, o: Obs) -> list[int]:
        n = len(o.board.spaces)
        covered = o.covered
        out = []
        for d in range(1, 7):
            pos = o.marker
            steps = d
            if len(covered) < n - 1:
                while steps:
                    pos = (pos + 1) % n
                    if pos not in covered:
                        steps -= 1
            out.append(pos)
        return out

    # -- the decision ---------------------------------------------------------------------

    def decide(self, o: Obs, legal: LegalActions, must_act: bool = True) -> Action | None:
        fixed = legal.fixed
        if not fixed and not legal.terms:
            return None
        if o.win is not None:
            return self._window(o, legal)
        phase = o.phase
        if phase is Phase.NEGOTIATION:
            a = self._negotiate(o, legal, must_act)
            if a is None and must_act:
                a = _passive(legal)
            return a
        if phase is Phase.TURN or phase is Phase.MOVED:
            return self._turn(o, legal)
        if phase is Phase.DISCARD:
            return self._discard(o, legal)
        if phase is Phase.PLACE_MARKER:
            return self._place_marker(o, legal)
        return _passive(legal)  # pragma: no cover - every phase is handled above

    def _turn(self, o: Obs, legal: LegalActions) -> Action:
        opn = _first(legal, OpenDeal)
        if opn is not None and self._reasonable_at_hand_limit(o):
            return opn  # rather than draw and discard
        draw = self.draw_value(o) * self.draw_weight(o)
        if o.phase is Phase.TURN:
            roll = _first(legal, Roll)
            outs = [self._at_least(o, s, draw) for s in self.roll_targets(o)]
            roll_value = sum(outs) / len(outs)
            if opn is not None and self._at_least(o, o.marker, roll_value, 0.0) >= roll_value:
                return opn
            return roll
        dr = _first(legal, Draw)
        if opn is not None and (dr is None or self._at_least(o, o.marker, draw, 0.0) >= draw):
            return opn
        return dr if dr is not None else opn

    def _at_least(self, o: Obs, space: int, floor: float, positive: float | None = None):
        """max(value of dealing on `space`, floor), without planning a deal that could not
        beat the floor even if nobody had to be paid. With `positive`, a deal worth no more
        than that counts as nothing."""
        bound = o.board.spaces[space].dividends * o.price * (1.0 + self.p.noise)
        if bound < floor or bound <= 0:
            return floor if positive is None else -1e9
        v = self.boss_value(o, space)
        if positive is not None:
            return v if v > positive else -1e9
        return v if v > floor else floor

    def _place_marker(self, o: Obs, legal: LegalActions) -> Action:
        # The first player deals next: put the marker where it needs me most.
        best, best_v = None, -1e9
        first = (o.seat + 1) % o.n
        for a in legal.fixed:
            if not isinstance(a, PlaceMarker):
                continue
            sp = o.board.spaces[a.space]
            v = 0.0
            for c in _bits(o.board.clan_masks[a.space]):
                if o.placards[c] == o.seat:
                    v += sp.dividends * (2.0 if c in sp.required else 1.0)
                elif o.placards[c] == first:
                    v -= sp.dividends * 0.5
            v += self.rng.random() * 0.01
            if v > best_v:
                best, best_v = a, v
        return best

    def _discard(self, o: Obs, legal: LegalActions) -> Action:
        rec = self._best_recruit(o, legal)
        if rec is not None:
            return rec
        best, best_v = None, 1e9
        for a in legal.fixed:
            if isinstance(a, Discard):
                v = self._jit(self.card_value(o, a.card)) + int(a.card) * 1e-6
                if v < best_v:
                    best, best_v = a, v
        return best if best is not None else _passive(legal)

    # -- windows --------------------------------------------------------------------------

    def _window(self, o: Obs, legal: LegalActions) -> Action | None:
        w = o.win
        pas = _first(legal, Pass)
        if w.kind == "going_once":
            play = self._card_play(o, legal, in_call=True)
            return play if play is not None else pas
        stop = _first(legal, PlayStop)
        if stop is not None and self._stop_worth(o) > self.card_value(o, Card.STOP):
            return stop
        return pas if pas is not None else _passive(legal)

    def _stop_worth(self, o: Obs) -> float:
        """What letting the play in the window stand would cost me."""
        w = o.win
        neg = o.neg
        me = o.seat
        loss = 0.0
        if w.actor == me:
            return 0.0
        if w.kind == "boss" and neg is not None:
            if neg.boss == me:
                loss = max(0.0, self._my_deal_net(o))
            else:
                agreed = neg.agreements.get(me)
                if agreed is not None:
                    loss = 0.3 * agreed.amount
            loss += self.leader_factor(o, w.actor) * neg.proceeds * 0.5
        elif w.kind == "travel" and neg is not None and w.target is not None:
            t = w.target
            owner = o.placards[t.ref] if t.kind is SourceKind.PLACARD else _laid_owner(neg, t.ref)
            agreed = neg.agreements.get(me)
            if agreed is not None and t in agreed.sources:
                loss = 0.8 * agreed.amount
            elif neg.boss == me and self._committed_source(o, t):
                loss = 0.8 * max(0.0, self._my_deal_net(o))
            elif owner == me:
                loss = 0.3 * neg.proceeds / max(2, o.board.spaces[neg.space].investors)
        elif w.kind == "recruit" and w.recruit is not None:
            c = w.recruit
            if o.placards[c] == me:
                loss = self.placard_value(o, c)
                if neg is not None and neg.boss == me and neg.committed >> c & 1:
                    loss += max(0.0, self._my_deal_net(o))
            elif o.placards[c] == POOL and self.leader_factor(o, w.actor) > 0:
                loss = 0.5 * self.placard_value(o, c)
        return self._jit(loss)

    def _committed_source(self, o: Obs, src: Source) -> bool:
        neg = o.neg
        if src.kind is SourceKind.PLACARD:
            owner = o.placards[src.ref]
            if owner == neg.boss:
                return True
        else:
            if _laid_owner(neg, src.ref) == neg.boss:
                return True
        return any(src in t.sources for t in neg.agreements.values())

    def _my_deal_net(self, o: Obs) -> float:
        """As Boss: what the open deal still promises me."""
        neg = o.neg
        remaining = neg.proceeds - neg.agreed_total
        if neg.covered:
            return remaining
        plan = plan_open_deal(o, o.seat)
        return plan.value if plan.feasible else 0.0

    # -- negotiation -----------------------------------------------------------------------

    def _negotiate(self, o: Obs, legal: LegalActions, must_act: bool) -> Action | None:
        neg = o.neg
        if self.talk is not None:
            self.talk.enter(o)
        shed = self._shed_under_v2(o, legal)
        if shed is not None:
            return shed
        if neg.boss == o.seat:
            return self._as_boss(o, legal, must_act)
        return self._as_investor(o, legal, must_act)

    def _as_boss(self, o: Obs, legal: LegalActions, must_act: bool) -> Action | None:
        neg = o.neg
        going = _first(legal, GoingOnce)
        if going is not None:
            return going  # covered: close as soon as possible
        fail = _first(legal, FailDeal)
        pass_floor = _first(legal, PassFloor)
        if neg.spent:
            return self._give_up(fail, GiveUp.OUT_OF_TIME) if fail is not None else _passive(legal)
        remaining = neg.proceeds - neg.agreed_total
        plan = plan_open_deal(o, o.seat)
        min_net = max(1.0, neg.proceeds * self.p.boss_margin)
        if not plan.feasible or plan.left < 1:
            rec = self._best_recruit(o, legal)
            if rec is not None:
                return rec
            if fail is not None:  # the deal cannot be covered, or cannot pay for it
                return self._give_up(
                    fail, GiveUp.NO_COVER if not plan.feasible else GiveUp.TOO_EXPENSIVE
                )
            return pass_floor if pass_floor is not None else None
        # A needed clan lies in the pool, or costs a lot: a Recruitment triple may fetch it.
        rec = self._best_recruit(o, legal)
        if rec is not None:
            return rec
        for c in plan.lay:
            a = _find(legal, LayClan, clan=c)
            if a is not None:
                return a
        # Former agreements after a Boss card: take them as they stand when affordable.
        former = _first(legal, AcceptFormer)
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
            acc = _find(legal, Accept, of=q)
            entry = plan.seats.get(q)
            if entry is not None:
                reserve = _reserve(remaining, cost, entry, min_net)
                if entry[OFFERED] is not None:
                    reserve -= self.leader_factor(o, q) * t.amount
                    if t.amount <= reserve and acc is not None:
                        return acc
                    if fail is not None and self.progress(o) >= 1.0:
                        # still asks more than the deal can pay me
                        return self._give_up(fail, GiveUp.TOO_EXPENSIVE)
                    counter = self._counter(o, legal, entry, q, t.amount, reserve)
                    if counter is not None:
                        return self._say(o, legal, counter, int(reserve), t.amount, acc)
                    far = _far_off(t.amount, int(reserve), True)
                    refuse = refuse or (q, Phrase.NO_WAY if far else Phrase.TOO_EXPENSIVE)
                elif reserve >= 1:
                    # the offer lacks what the plan needs from q: propose for that
                    amount = int(round(min(reserve, entry[EST] * self.p.boss_first)))
                    prop = self._proposal(legal, q, entry[CLANS_], amount, neg)
                    if prop is not None:
                        return self._say(o, legal, prop, int(reserve))
                else:
                    refuse = refuse or (q, Phrase.TOO_EXPENSIVE)
            elif (
                (not t.sources or not _brings(neg, t, plan.mask & ~neg.committed))
                and acc is not None
                and t.amount <= self._fee_tolerance(o, q, plan)
            ):
                return acc  # a fee for letting the deal through, cheaper than the risk
            elif not t.was_agreed:
                refuse = refuse or (q, Phrase.NO_WAY)  # terms my deal has no use for
        if refuse is not None and REFUSE_ALOUD:
            no = _find(legal, Withdraw, player=refuse[0])
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
                reserve = _reserve(remaining, cost, entry, min_net)
                amount = entry[EST] * self.p.boss_first
                if neg.quiet:
                    amount = max(amount, reserve)
                amount = int(round(min(amount, reserve)))
                if amount < 0:
                    continue
                prop = self._proposal(legal, q, entry[CLANS_], amount, neg)
                if prop is not None:
                    return self._say(o, legal, prop, int(reserve))
        if neg.quiet:
            if pass_floor is not None and neg.last_proposal == 1:
                return pass_floor
            return self._give_up(fail, GiveUp.NO_TAKERS) if fail is not None else _passive(legal)
        if o.real_time and must_act:
            # Real time, and nothing has happened for the Boss's patience (the limit is not
            # spent: see above): the quiet round of ask-around. One last proposal at my
            # reserve when a single seat can still cover the deal, then fail.
            last = self._last_proposal(o, legal, plan, remaining, min_net)
            if last is not None:
                return self._say(o, legal, last, last.amount)
            return self._give_up(fail, GiveUp.NO_TAKERS) if fail is not None else _passive(legal)
        if fail is not None and neg.actions >= 0.8 * neg.limit:
            return self._give_up(fail, GiveUp.OUT_OF_TIME)  # the talks go round in circles
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
        reserve = int(_reserve(remaining, plan.cost, entry, min_net))
        if reserve < 1:
            return None
        last = self._proposal(legal, q, entry[CLANS_], reserve, o.neg)
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
        return self._proposal(legal, q, entry[CLANS_], amount, neg)

    def _proposal(self, legal, q: int, clans: int, amount: int, neg) -> Action | None:
        for t in legal.terms:
            a = t.action
            if isinstance(a, Propose) and a.to == q:
                srcs = _sources_for(t.pool, clans, neg)
                if srcs is None:
                    return None
                amount = max(t.lo, min(t.hi, amount))
                return t.make(srcs, amount)
        return None

    def _fee_tolerance(self, o: Obs, q: int, plan: Plan) -> float:
        """The most worth paying seat `q` to let the deal through."""
        threat = max(o.p_holds(q, Card.BOSS), 0.5 * o.p_holds(q, Card.TRAVEL_GREY))
        return threat * max(0.0, plan.left) * 0.3 * (1.0 - self.leader_factor(o, q))

    def _as_investor(self, o: Obs, legal: LegalActions, must_act: bool) -> Action | None:
        neg = o.neg
        me = o.seat
        pass_floor = _first(legal, PassFloor)
        idle = pass_floor if not o.real_time else None
        if _nothing_to_do(legal):
            return idle  # no source to sell, no card to play, no proposal to answer
        play = self._card_play(o, legal, in_call=False)
        if play is not None:
            return play
        if neg.spent:
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
                and (o.hand[Card.BOSS] or self._can_block(o, legal))
                and not _fee_asked(neg, me)
                and not (self.talk is not None and self.talk.fee_asked)
                and len(plan.seats) + len(plan.hope) <= FEE_WHEN_NEEDING
            ):
                fee = int(round(self._jit(neg.proceeds * self.p.fee)))
                if fee >= 1:
                    offer = _offer(legal, (), fee)
                    if offer is not None:
                        return self._say(o, legal, offer, fee)
            if pending is not None and pending.by_boss:
                acc = _first(legal, AcceptProposal)
                if acc is not None and pending.amount >= 0:
                    return acc
            return idle
        clans = mine[CLANS_]
        ask, floor = self._ask(o, plan, clans)
        # Clan cards in my hand the plan counts on: lay them first.
        for c in _bits(clans):
            if not self._has_source(o, neg, c):
                a = _find(legal, LayClan, clan=c)
                if a is not None:
                    return a
        if pending is not None and pending.by_boss:
            acc = _first(legal, AcceptProposal)
            if acc is not None and pending.amount >= floor:
                return acc
            amount = max(floor, int(round((pending.amount + ask) / 2)))
            if amount <= pending.amount and acc is not None:
                return acc
            offer = _offer(legal, _my_sources(legal, clans, neg), amount)
            return self._say(o, legal, offer, floor, pending.amount, acc) if offer else idle
        if pending is None:
            if not mine[SOLE] and self._outbid_waits(o, clans, ask):
                return idle  # another seat offers these clans for less: let the Boss ask me
            offer = _offer(legal, _my_sources(legal, clans, neg), ask)
            return self._say(o, legal, offer, floor) if offer is not None else idle
        # my own offer is pending: lower it as the negotiation runs out (once a situation:
        # people wait for an answer rather than bid against themselves)
        if self.talk is not None and len(self.talk.amounts(neg.boss, pending.sources)[1]) > 1:
            return idle
        if pending.amount > ask + max(1, 0.15 * pending.amount):
            offer = _offer(legal, pending.sources, ask)
            if offer is not None:
                return self._say(o, legal, offer, floor)
        return idle

    # -- converging like people ------------------------------------------------------------

    def _say(self, o: Obs, legal, action, limit: int, their=None, accept=None):
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
            action = _reprice(legal, action, limit) or action  # my last word: my limit
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
            action = _reprice(legal, action, amount)
            if action is None or action.amount in said:
                return self._walk_away(o, legal, limit, their)
        if their is not None and toward * (their - limit) > 0:  # refusing: beyond my limit
            if _far_off(their, limit, boss_speaks):
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
        far = their is not None and _far_off(their, limit, boss)
        self.talk.say(Phrase.NO_WAY if far else Phrase.TOO_EXPENSIVE if boss else Phrase.IM_OUT)
        fail = _first(legal, FailDeal) if boss else None
        if fail is not None:
            return self._give_up(fail, GiveUp.TOO_EXPENSIVE)
        return _first(legal, PassFloor) if not o.real_time else None

    def _give_up(self, fail: Action, reason: GiveUp) -> Action:
        if self.talk is not None and self.talk.reason is None:
            self.talk.reason = reason
        return fail

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
        ask = self._jit(ask)
        floor = ask * self.p.floor
        frac = self.progress(o)
        now = floor + (ask - floor) * (1.0 - frac)
        cap = max(0, neg.cap)
        now_i = max(1, min(cap, int(round(now))))
        floor_i = max(1, min(now_i, int(round(floor))))
        return now_i, floor_i

    def _can_block(self, o: Obs, legal: LegalActions) -> bool:
        neg = o.neg
        for a in legal.fixed:
            if isinstance(a, PlayTravel) and self._committed_source(o, a.target):
                return True
        return neg is None

    # -- card plays -------------------------------------------------------------------------

    def _shed_under_v2(self, o: Obs, legal: LegalActions) -> Action | None:
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

    def _card_play(self, o: Obs, legal: LegalActions, in_call: bool) -> Action | None:
        neg = o.neg
        if neg is None or neg.boss == o.seat:
            return None
        best, best_v = None, 0.0
        boss = _first(legal, PlayBoss)
        if boss is not None:
            v = self._steal_gain(o)
            if v > best_v:
                best, best_v = boss, v
        a = self._best_travel(o, legal)
        if a is not None:
            v = self._travel_gain(o, a)
            if v > best_v:
                best, best_v = a, v
        if not in_call:
            rec = self._best_recruit(o, legal)
            if rec is not None:
                v = self._recruit_gain(o, rec.clan)
                if v > best_v:
                    best, best_v = rec, v
        return best

    def current_plan(self, o: Obs) -> Plan:
        """The Boss's plan for the open deal, as any seat can estimate it."""
        plan = o._cache.get("plan")
        if plan is None:
            plan = o._cache["plan"] = plan_open_deal(o, o.neg.boss)
        return plan

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
        board = o.board
        lead = self.leader_factor(o, neg.boss) * neg.proceeds * 0.5
        p_stop = 0.85 * o.p_holds(neg.boss, Card.STOP)
        cost = self.card_value(o, Card.BOSS) + 0.08 * neg.proceeds
        jit = 1.0 + self.p.noise
        if (1.0 - p_stop) * (neg.proceeds + lead) * self.p.steal * jit <= cost:
            return 0.0  # even for nothing, the deal is not worth the card
        have = 0
        for c in _bits(board.clan_masks[neg.space]):
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
        return self._jit(gain) - 0.08 * neg.proceeds

    def _travel_gain(self, o: Obs, a: PlayTravel) -> float:
        neg = o.neg
        me = o.seat
        t = a.target
        agreed = neg.agreements.get(me)
        if agreed is not None:
            return 0.0  # I am in this deal
        owner = o.placards[t.ref] if t.kind is SourceKind.PLACARD else _laid_owner(neg, t.ref)
        if owner == me:
            return 0.0
        if not self._committed_source(o, t):
            return 0.0
        clan = neg.source_clan(t)
        remaining = neg.proceeds - neg.agreed_total
        have = neg.committed & ~(1 << clan)
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
        return self._jit((1.0 - p_stop) * gain) - cost

    def _could_sell(self, o: Obs, clan: int) -> bool:
        """Could I fill the slot of `clan` once it is gone (a Clan card, or my placard of
        another clan the space takes)?"""
        neg = o.neg
        if o.hand[clan]:
            return True
        for _id, owner, c in neg.laid:
            if owner == o.seat and c == clan:
                return True
        wanted = o.board.clan_masks[neg.space] & ~neg.committed
        return any(o.placards[c] == o.seat and c not in neg.travel for c in BITS[wanted])

    def _best_recruit(self, o: Obs, legal: LegalActions) -> Recruit | None:
        best, best_v = None, 0.0
        for a in legal.fixed:
            if isinstance(a, Recruit):
                v = self._recruit_gain(o, a.clan)
                if v > best_v:
                    best, best_v = a, v
        return best

    def _recruit_gain(self, o: Obs, clan: int) -> float:
        me = o.seat
        v = self.placard_value(o, clan)
        neg = o.neg
        owner = o.placards[clan]
        if neg is not None and o.board.clan_masks[neg.space] >> clan & 1:
            remaining = neg.proceeds - neg.agreed_total
            if neg.boss == me and not neg.committed >> clan & 1:
                v += 0.3 * remaining  # the deal gets the clan for free
            elif neg.boss != me and owner != neg.boss:
                v += 0.15 * remaining  # the Boss may need it from me now
            elif neg.boss != me and owner == neg.boss:
                v += 0.25 * remaining  # the Boss loses a clan it counted on
        if owner != POOL:
            v += 0.3 * self.placard_value(o, clan)  # the owner loses it
            v *= 1.0 - 0.85 * o.p_holds(owner, Card.STOP)
        cost = 3 * self.card_value(o, Card.RECRUIT)
        return self._jit(v) - cost


# --------------------------------------------------------------------------- action helpers


def _first(legal: LegalActions, kind) -> Action | None:
    for a in legal.fixed:
        if type(a) is kind:
            return a
    return None


def _find(legal: LegalActions, kind, **attrs) -> Action | None:
    for a in legal.fixed:
        if type(a) is kind and all(getattr(a, k) == v for k, v in attrs.items()):
            return a
    return None


def _nothing_to_do(legal: LegalActions) -> bool:
    for a in legal.fixed:
        t = type(a)
        if t is PlayBoss or t is PlayTravel or t is Recruit or t is AcceptProposal or t is LayClan:
            return False
    return all(not t.pool for t in legal.terms)


def _reserve(remaining: float, cost: float, entry: list, min_net: float) -> float:
    """The most a Boss can pay the seat of plan `entry`: what is left of the proceeds once
    the plan's other payments (`cost` minus this seat's price) and the Boss's own margin
    are kept back."""
    return remaining - (cost - entry[PRICE]) - min_net


def _passive(legal: LegalActions) -> Action | None:
    for kind in (Pass, PassFloor, GoingOnce, Draw, FailDeal, Roll):
        a = _first(legal, kind)
        if a is not None:
            return a
    if legal.fixed:
        return legal.fixed[0]
    for t in legal.terms:
        return t.make((), t.lo)
    return None


def _offer(legal: LegalActions, sources, amount: int) -> Offer | None:
    for t in legal.terms:
        if isinstance(t.action, Offer):
            if any(s not in t.pool for s in sources):
                return None
            return t.make(tuple(sources), max(t.lo, min(t.hi, int(amount))))
    return None


def _fee_asked(neg, me: int) -> bool:
    """Does another seat's fee stand (asked or granted)? One blocker's fee is enough talk
    in a deal: a second would only repeat the threat (the bot's talk memory remembers the
    fees asked earlier in the deal too)."""
    for q, t in list(neg.pending.items()) + list(neg.agreements.items()):
        if q != me and q != neg.boss and not t.sources and not t.by_boss:
            return True
    return False


def _reprice(legal: LegalActions, action, amount: int):
    """The same Offer or Propose for another amount (clamped to what is legal)."""
    for t in legal.terms:
        if t.covers(action):
            return t.make(action.sources, max(t.lo, min(t.hi, int(amount))))
    return None


def _far_off(their: int, limit: int, boss: bool) -> bool:
    """Is the other side's price far beyond my limit ("No way")?"""
    if boss:
        return their > NO_WAY_FACTOR * max(1, limit)
    return their * NO_WAY_FACTOR < limit


def _laid_owner(neg, card_id: int) -> int | None:
    for cid, owner, _clan in neg.laid:
        if cid == card_id:
            return owner
    return None


def _sources_for(pool, clans: int, neg) -> tuple | None:
    """One source from `pool` for each clan in `clans` (a placard before a laid card)."""
    out = []
    for c in _bits(clans):
        pick = None
        for s in pool:
            if neg.source_clan(s) == c and (pick is None or s.kind is SourceKind.PLACARD):
                pick = s
        if pick is None:
            return None
        out.append(pick)
    return tuple(out)


def _my_sources(legal: LegalActions, clans: int, neg) -> tuple:
    for t in legal.terms:
        if isinstance(t.action, Offer):
            srcs = _sources_for(t.pool, clans, neg)
            return srcs if srcs is not None else ()
    return ()


def _brings(neg, terms, need: int) -> bool:
    for s in terms.sources:
        c = neg.source_clan(s)
        if c is not None and need >> c & 1:
            return True
    return False


# --------------------------------------------------------------------------- the bot


def personality(spec: str | None) -> Personality:
    """A personality by name ("greedy"), optionally with numbers changed
    ("greedy+fee=0", "ask_sole=1.2+floor=0.7": changes to the balanced one)."""
    if not spec:
        return PERSONALITIES["balanced"]
    base = PERSONALITIES["balanced"]
    changes: dict[str, float] = {}
    for key, value in spec_parts(spec):
        if value is None:
            if key not in PERSONALITIES:
                raise ValueError(
                    f"unknown personality {key!r} (known: {', '.join(sorted(PERSONALITIES))})"
                )
            base = PERSONALITIES[key]
            continue
        if key not in Personality.__dataclass_fields__ or key == "name":
            raise ValueError(f"unknown personality number {key!r}")
        try:
            changes[key] = float(value)
        except ValueError:
            raise ValueError(f"{key} must be a number, not {value!r}") from None
    if changes:
        base = replace(base, name=spec, **changes)
    return base


@register("heuristic")
class HeuristicBot(Bot):
    """The heuristic negotiator. `heuristic:<personality>` picks a style."""

    needs_view = True
    wants_events = True

    def __init__(self, seat: int, seed: int = 0, param: str | None = None) -> None:
        super().__init__(seat, seed)
        self.personality = personality(param)
        self.rng = random.Random(f"heuristic/{seed}/{seat}")
        self.policy = Policy(self.personality, self.rng)
        self.memory = Memory(seat)
        self.talk = self.policy.talk = Talk(seat)
        self._said_with: Action | None = None  # the move of the last `choose`

    def observe(self, events: list[dict]) -> None:
        self.memory.observe(events)
        self.talk.observe(events)

    def choose(
        self, view: dict | None, legal: LegalActions, must_act: bool = True
    ) -> Action | None:
        self.talk.hush()
        o = Obs.from_view(view, self.memory.money_for(view), self.memory.failed)
        a = self.policy.decide(o, legal, must_act)
        if a is None and must_act:
            a = _passive(legal)
        self.talk.goes_with(a)
        self._said_with = a
        return a

    def remark(self) -> Remark | None:
        return self.talk.remark(self._said_with)


__all__ = ["HeuristicBot", "Personality", "PERSONALITIES", "Policy", "plan_deal", "replace"]
