"""Sources, coverage, agreements and the involved-source choice of a negotiation (RULES §4, §7).

Pure functions over `GameState`; the engine calls them, and so can bots and tests.
"""

from __future__ import annotations

from dataclasses import dataclass

from .board import CLANS, MASK_CLANS, Clan
from .events import BANK, AgreementLapsed, Event, OfferLapsed
from .state import PLACARD_SOURCES, POOL, GameState, Negotiation, Source, SourceKind, Terms, laid
from .variants import Variant, WindowMode

# Preference when the engine picks the involved sources: the Boss's own first, then agreed
# ones, fewest cards (a placard saves a Clan card, which then goes back to its owner's hand).
RANK_BOSS_PLACARD = 0
RANK_BOSS_CARD = 1
RANK_AGREED_PLACARD = 2
RANK_AGREED_CARD = 3
RANK_OPPONENT_PLACARD = 4  # two-player rules: used without consent, paid at a fixed rate
_PLACARD = SourceKind.PLACARD
# Read once: in CPython 3.11 looking an enum member up on its class costs ~0.1 µs.
_V3 = Variant.V3
_REAL_TIME = WindowMode.REAL_TIME


def source_clan(state: GameState, src: Source) -> Clan | None:
    if src.kind is _PLACARD:
        return Clan(src.ref) if 0 <= src.ref < 6 else None
    neg = state.negotiation
    card = neg.card(src.ref) if neg else None
    return None if card is None else card.clan


def source_owner(state: GameState, src: Source) -> int | None:
    """The seat that controls a source now (None if it does not exist or lies in the pool)."""
    if src.kind is _PLACARD:
        if not 0 <= src.ref < 6:
            return None
        owner = state.placards[src.ref]
        return None if owner == POOL else owner
    neg = state.negotiation
    card = neg.card(src.ref) if neg else None
    return None if card is None else card.owner


def usable(state: GameState, src: Source) -> bool:
    """A source that can fill a slot now: an owned placard not travelling, or a laid card."""
    neg = state.negotiation
    if neg is None:
        return False
    if src.kind is _PLACARD:
        return 0 <= src.ref < 6 and state.placards[src.ref] != POOL and src.ref not in neg.travel
    return neg.card(src.ref) is not None


def seat_sources(state: GameState, seat: int) -> list[Source]:
    """Every usable source of `seat` whose clan the space uses (placards first)."""
    neg = state.negotiation
    if neg is None:
        return []
    wanted = state.board.clan_masks[neg.space]
    placards = state.placards
    out = [
        PLACARD_SOURCES[c]
        for c in MASK_CLANS[wanted]
        if placards[c] == seat and c not in neg.travel
    ]
    out += [laid(card.id) for card in neg.laid if card.owner == seat and wanted >> card.clan & 1]
    return out


def offerable(state: GameState, seat: int) -> list[Source]:
    """Sources `seat` may put into an offer: theirs, usable, not already agreed.

    Under the two-player rules the Boss uses the opponent's placards without consent, so
    only laid Clan cards are negotiated.
    """
    neg = state.negotiation
    agreed = neg.agreements.get(seat)
    two = state.settings.players == 2  # two_player, without the property's call
    sources = seat_sources(state, seat)
    if not agreed and not two:
        return sources
    taken = set(agreed.sources) if agreed else ()
    return [s for s in sources if s not in taken and not (two and s.kind is _PLACARD)]


def offerable_by_seat(state: GameState) -> list[tuple[Source, ...]]:
    """`offerable` for every seat at once (one pass over the table), each sorted."""
    neg = state.negotiation
    out: list[list[Source]] = [[] for _ in range(state.players)]
    wanted = state.board.clan_masks[neg.space]
    for card in neg.laid:
        if wanted >> card.clan & 1:  # V3 lets any clan be laid; only these are sources
            out[card.owner].append(laid(card.id))
    if not state.settings.two_player:
        placards = state.placards
        for c in MASK_CLANS[wanted]:
            owner = placards[c]
            if owner != POOL and c not in neg.travel:
                out[owner].append(PLACARD_SOURCES[c])
    for seat, terms in neg.agreements.items():
        if terms.sources:
            out[seat] = [s for s in out[seat] if s not in terms.sources]
    return [tuple(sorted(x)) for x in out]


def _memo(state: GameState, name: str, compute):
    """`compute(state)` once per state version, kept in the legal-action memo table, which
    `apply` clears (clearing it here would throw away the legal actions just computed)."""
    key = (name, state.actions_taken)
    cache = state._legal_cache
    try:
        return cache[key]
    except KeyError:
        out = cache[key] = compute(state)
        return out


def committed(state: GameState) -> list[tuple[int, Source, int, int]]:
    """Committed sources as (clan, source, rank, owner), RULES §4 (memoised per state
    version; treat the list as read-only)."""
    return _memo(state, "committed", _committed)


def _committed(state: GameState) -> list[tuple[int, Source, int, int]]:
    neg = state.negotiation
    boss = neg.boss
    out: list[tuple[int, Source, int, int]] = []
    two = state.settings.two_player
    travel = neg.travel
    for c, owner in enumerate(state.placards):
        if owner == POOL or c in travel:
            continue
        if owner == boss:
            out.append((c, PLACARD_SOURCES[c], RANK_BOSS_PLACARD, owner))
        elif two:
            out.append((c, PLACARD_SOURCES[c], RANK_OPPONENT_PLACARD, owner))
    wanted = state.board.clan_masks[neg.space]
    for card in neg.laid:
        if card.owner == boss and wanted >> card.clan & 1:
            out.append((int(card.clan), laid(card.id), RANK_BOSS_CARD, boss))
    for seat, terms in neg.agreements.items():
        for src in terms.sources:
            if src.kind is _PLACARD:
                if not two:  # two-player placards are already listed above
                    out.append((src.ref, src, RANK_AGREED_PLACARD, seat))
            else:
                card = neg.card(src.ref)
                out.append((int(card.clan), src, RANK_AGREED_CARD, seat))
    return out


def committed_mask(state: GameState) -> int:
    """The clans of `committed(state)` as a bit set (bit c: clan c), worked out directly:
    the view asks for them after every move, and most moves need no ranked list."""
    neg = state.negotiation
    boss = neg.boss
    two = state.settings.two_player
    travel = neg.travel
    mask = 0
    for c, owner in enumerate(state.placards):
        if owner != POOL and c not in travel and (owner == boss or two):
            mask |= 1 << c
    wanted = state.board.clan_masks[neg.space]
    for card in neg.laid:
        if card.owner == boss and wanted >> card.clan & 1:
            mask |= 1 << card.clan
    for terms in neg.agreements.values():
        for src in terms.sources:
            if src.kind is _PLACARD:
                if not two:
                    mask |= 1 << src.ref
            else:
                mask |= 1 << neg.card(src.ref).clan
    return mask


def is_covered(state: GameState) -> bool:
    neg = state.negotiation
    return state.board.cover[neg.space][committed_mask(state)]


def two_player_rate(state: GameState) -> int:
    """Two-player rules: the price of an opponent's placard used without consent."""
    neg = state.negotiation
    return neg.proceeds // state.board.spaces[neg.space].investors


def involved(state: GameState) -> tuple[list[tuple[int, Source, int, int]], int] | None:
    """Memoised `_involved` for the current state version (legal actions and the view both
    ask)."""
    return _memo(state, "involved", _involved)


def best_sources(state: GameState) -> dict[int, tuple[int, Source, int, int]]:
    """Per committed clan the source the deal would use for it: the Boss's own first, then
    agreed ones, placards before cards, then the lower reference (RULES §7)."""
    best_by_clan: dict[int, tuple[int, Source, int, int]] = {}
    order: dict[int, int] = {}
    for entry in committed(state):
        clan, src, rank, _owner = entry
        key = rank * 4096 + (0 if src.kind is _PLACARD else 2048) + src.ref
        if clan not in order or key < order[clan]:
            best_by_clan[clan] = entry
            order[clan] = key
    return best_by_clan


def _involved(state: GameState) -> tuple[list[tuple[int, Source, int, int]], int] | None:
    """The committed sources the deal uses (one per clan) and the two-player payment due.

    Among all clan sets that cover the space with the fewest clans, prefer the Boss's own
    sources, then agreed ones, then fewest Clan cards; ties go to the lower clan and the
    earlier-laid card, so the choice is deterministic. None if the space is not covered.
    """
    neg = state.negotiation
    best_by_clan = best_sources(state)
    avail = 0
    for clan in best_by_clan:
        avail |= 1 << clan
    board = state.board
    if not board.cover[neg.space][avail]:
        return None
    # Every minimal cover has exactly `investors` clans; the board lists them in ascending
    # order of their clans, so the first of equal keys is the one with the lower clans.
    best_key = None
    best_clans: tuple[int, ...] = ()
    for mask, clans in board.min_covers[neg.space]:
        if mask & ~avail:
            continue
        opp = agreed = cards = 0
        for c in clans:
            e = best_by_clan[c]
            rank = e[2]
            if rank == RANK_OPPONENT_PLACARD:
                opp += 1
            if rank >= RANK_AGREED_PLACARD:
                agreed += 1
            if e[1].kind is not _PLACARD:
                cards += 1
        key = (opp, agreed, cards)
        if best_key is None or key < best_key:
            best_key, best_clans = key, clans
    chosen = [best_by_clan[c] for c in best_clans]
    if not state.settings.two_player:
        return chosen, 0
    agreed_srcs = set()
    for terms in neg.agreements.values():
        agreed_srcs.update(terms.sources)
    rate = two_player_rate(state)
    auto = sum(rate for e in chosen if e[2] == RANK_OPPONENT_PLACARD and e[1] not in agreed_srcs)
    return chosen, auto


def merged_terms(old: Terms | None, terms: Terms) -> Terms:
    """An agreement after `terms` are accepted: a seat's agreements add up (their sources
    joined, their amounts summed)."""
    if old is None:
        return Terms(tuple(sorted(set(terms.sources))), terms.amount)
    return Terms(tuple(sorted(set(terms.sources) | set(old.sources))), terms.amount + old.amount)


@dataclass(frozen=True, slots=True)
class Payment:
    """One payment of a closing deal (the `Paid` event it becomes)."""

    payer: int  # BANK or the Boss
    payee: int
    amount: int
    reason: str  # "dividends", "agreement", "fee", "two_player"


def settlement(state: GameState) -> list[Payment] | None:
    """What closing the deal now pays, in the order the engine pays it: the proceeds to the
    Boss, every agreement (by seat), then under the two-player rules each opponent placard
    used without an agreement. None if the space is not covered."""
    inv = involved(state)
    if inv is None:
        return None
    chosen, auto = inv
    neg = state.negotiation
    boss = neg.boss
    out = [Payment(BANK, boss, neg.proceeds, "dividends")]
    for seat in sorted(neg.agreements):
        terms = neg.agreements[seat]
        out.append(Payment(boss, seat, terms.amount, "agreement" if terms.sources else "fee"))
    if auto:
        agreed = {s for t in neg.agreements.values() for s in t.sources}
        rate = two_player_rate(state)
        for _clan, src, rank, owner in chosen:
            if rank == RANK_OPPONENT_PLACARD and src not in agreed:
                out.append(Payment(boss, owner, rate, "two_player"))
    return out


def agreed_total(neg: Negotiation) -> int:
    total = 0
    for t in neg.agreements.values():  # a loop, not sum() over a generator: half the cost
        total += t.amount
    return total


def offer_cap(state: GameState) -> int:
    """The most any new offer may ask: what the agreements leave of the proceeds.

    Under the two-player rules the payment for the opponent's placards the deal would use
    now is kept aside too, so a covered deal can always be paid.
    """
    neg = state.negotiation
    cap = neg.proceeds - agreed_total(neg)
    if state.settings.players == 2:  # two_player, without the property's call
        inv = involved(state)
        if inv is not None:
            cap -= inv[1]
        else:
            opp = sum(
                1
                for c in range(6)
                if state.placards[c] not in (POOL, neg.boss)
                and c not in neg.travel
                and state.board.clan_masks[neg.space] >> c & 1
            )
            cap -= two_player_rate(state) * min(opp, state.board.spaces[neg.space].investors)
    return max(cap, 0)


def may_be_paid(state: GameState, seat: int) -> bool:
    """Variant V3: only the Boss and players who played an influence card may be paid."""
    if _V3 not in state.settings.variants:
        return True
    return seat in state.negotiation.played


def may_be_paid_amount(state: GameState, seat: int, amount: int) -> bool:
    """V3: terms for `amount` are open to `seat`; $0 always is ("use my sources unpaid")."""
    return amount == 0 or may_be_paid(state, seat)


def limit_spent(state: GameState) -> bool:
    neg = state.negotiation
    return neg.time_up or neg.actions >= state.settings.negotiation_limit


def lapse(state: GameState, src: Source, events: list[Event]) -> None:
    """A source became unusable: agreements with it lapse, offers lose it (RULES §4); the
    players whose terms changed are touched anew (§6.4)."""
    neg = state.negotiation
    for seat in sorted(neg.agreements):
        terms = neg.agreements[seat]
        if src in terms.sources:
            neg.floor_passed.discard(seat)
            del neg.agreements[seat]
            kept = tuple(s for s in terms.sources if s != src)
            if kept:
                neg.pending[seat] = Terms(kept, terms.amount, by_boss=False, was_agreed=False)
            events.append(AgreementLapsed(seat, src, kept))
    for seat in sorted(neg.pending):
        terms = neg.pending[seat]
        if src in terms.sources:
            neg.floor_passed.discard(seat)
            kept = tuple(s for s in terms.sources if s != src)
            if kept:
                neg.pending[seat] = Terms(kept, terms.amount, terms.by_boss, False)
            else:
                del neg.pending[seat]
            events.append(OfferLapsed(seat, src))


def touch(state: GameState, *seats: int) -> None:
    """Something touched these seats anew: the floor asks them again (RULES §6.4)."""
    state.negotiation.floor_passed.difference_update(seats)


def touch_clan(state: GameState, clan: int) -> None:
    """A Travel or Recruitment took effect on a source of `clan`: everyone with a placard or
    laid card of that clan on this space may be needed anew (public facts only, §6.4)."""
    neg = state.negotiation
    if not state.board.clan_masks[neg.space] >> clan & 1:
        return
    owner = state.placards[clan]
    if owner != POOL:
        neg.floor_passed.discard(owner)
    for card in neg.laid:
        if card.clan == clan:
            neg.floor_passed.discard(card.owner)


def floor_skips(state: GameState, seat: int) -> bool:
    """Ask-around: the floor passes over `seat` by itself (RULES §6.4): its preference is on,
    it has passed the floor in this negotiation, and nothing has touched it since."""
    neg = state.negotiation
    return seat != neg.boss and state.ask_only_when_touched[seat] and seat in neg.floor_passed


def touches(state: GameState, seat: int) -> bool:
    """Does the open window touch `seat`'s placards, cards or agreements? (RULES §6)

    Decided from public information only, so skipping an untouched player reveals nothing.
    """
    win = state.window
    neg = state.negotiation
    terms = []
    if neg is not None:
        terms = [t for t in (neg.agreements.get(seat), neg.pending.get(seat)) if t]
        if seat == neg.boss:
            return True
    kind = win.kind.value
    if kind == "travel":
        return source_owner(state, win.target) == seat or any(
            win.target in t.sources for t in terms
        )
    if kind == "recruit":
        src = Source(SourceKind.PLACARD, int(win.recruit))
        return state.placards[int(win.recruit)] == seat or any(src in t.sources for t in terms)
    if kind == "boss":
        return bool(terms)
    # going once: anything of mine on this deal
    return bool(terms) or bool(seat_sources(state, seat))


def ask_order(state: GameState, actor: int) -> list[int]:
    n = state.players
    return [(actor + i) % n for i in range(1, n)]


def is_real_time(state: GameState) -> bool:
    return state.settings.window_mode is _REAL_TIME


__all__ = [
    "CLANS",
    "committed",
    "committed_mask",
    "involved",
    "is_covered",
    "merged_terms",
    "settlement",
    "lapse",
    "offer_cap",
    "offerable",
    "seat_sources",
    "source_clan",
    "source_owner",
    "touches",
    "usable",
]
