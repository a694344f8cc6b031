"""Deal plans: the cheapest way a Boss can still cover a space, and the deals left in the
game. Pure functions of an `Obs`, memoised on what they read (search rollouts ask the same
questions many times)."""

from __future__ import annotations

from game.rules.state import POOL, Source, SourceKind

from ..obs import Obs

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


def clans_in(mask: int) -> tuple[int, ...]:
    return BITS[mask]


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
    board = o.view.board
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


def plan_open_deal(o: Obs, boss: int, prefer: int | None = None) -> Plan:
    """`plan_deal` for the open negotiation as it stands (its space, what is committed,
    pending, laid and travelling; the proceeds the agreements leave), for `boss`."""
    neg = o.neg
    return plan_deal(
        o,
        neg.space,
        boss,
        neg.proceeds - neg.agreed_total,
        neg.committed_mask,
        neg.pending,
        neg.laid,
        neg.travel,
        prefer=prefer,
    )


_PLACARD_USE: dict[tuple, tuple[float, float]] = {}


def placard_use(board, covered, clan: int) -> tuple[float, float]:
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


def turn_plan(o: Obs, space: int, proceeds: int, have: int) -> Plan:
    """`plan_deal` for opening a deal, memoised on everything it reads (search rollouts ask
    the same question many times)."""
    unseen = o.unseen()
    key = (
        id(o.view.board),
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


def expected_deals_left(o: Obs) -> float:
    """Deals still expected: the tiles left, weighted by the chance the end die spares them."""
    cached = o.cache.get("deals_left")
    if cached is not None:
        return cached
    o.cache["deals_left"] = total = deals_left(o.view.board, o.view.tiles)
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
