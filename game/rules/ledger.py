"""The ledger of an open deal, read from one seat's view: the proceeds, what every agreement
pays, what the Boss keeps, and which source fills each requirement row of the space; and the
same after one more agreement ("you would keep $1M"), with its warnings.

Pure and pygame-free, so the table and the tests share it. The figures are the engine's own:
the view is rebuilt into a state (`state_from_view`, hidden cards dealt in a fixed order; no
figure here depends on them) and read with `negotiation.settlement` and `board.fill_rows`,
the functions the engine closes a deal and tests coverage with.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from . import negotiation as nego
from .board import Clan, fill_rows, space_rows
from .determinize import state_from_view
from .events import BANK
from .seat_view import SeatView
from .state import GameState, Source, Terms


class Cover(Enum):
    """What fills a place of a requirement row."""

    OWN = "own"  # the Boss's own placard
    LAID = "laid"  # a Clan card the Boss laid
    AGREED = "agreed"  # a source in an agreement
    USED = "used"  # two-player rules: the opponent's placard, paid at the fixed rate
    OPEN = "open"  # nothing yet


_COVER_BY_RANK = {
    nego.RANK_BOSS_PLACARD: Cover.OWN,
    nego.RANK_BOSS_CARD: Cover.LAID,
    nego.RANK_AGREED_PLACARD: Cover.AGREED,
    nego.RANK_AGREED_CARD: Cover.AGREED,
    nego.RANK_OPPONENT_PLACARD: Cover.USED,
}


@dataclass(frozen=True, slots=True)
class Place:
    """One place of a row: the clan filling it and whose source it is (None: open)."""

    cover: Cover
    clan: Clan | None = None
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class Row:
    """A requirement row: the required clans, or a choice group ("1 of S/L")."""

    required: bool
    clans: tuple[Clan, ...]
    count: int
    places: tuple[Place, ...]

    @property
    def filled(self) -> int:
        return sum(p.cover is not Cover.OPEN for p in self.places)

    @property
    def full(self) -> bool:
        return self.filled == self.count


@dataclass(frozen=True, slots=True)
class Ledger:
    """The deal's account as it stands. `payments` are what closing would pay (every
    agreement, and under the two-player rules the placards used); `reserved` is what the
    two-player rules keep aside while the space is not covered yet."""

    boss: int
    proceeds: int
    payments: tuple[nego.Payment, ...]
    reserved: int
    rows: tuple[Row, ...]
    covered: bool

    @property
    def paid(self) -> int:
        return sum(p.amount for p in self.payments) + self.reserved

    @property
    def keeps(self) -> int:
        """What the Boss keeps of the proceeds (negative: he pays from his own money)."""
        return self.proceeds - self.paid

    @property
    def filled(self) -> int:
        return sum(r.filled for r in self.rows)

    def paid_to(self, seat: int) -> int:
        return sum(p.amount for p in self.payments if p.payee == seat)


@dataclass(frozen=True, slots=True)
class Preview:
    """The ledger before and after one more agreement with `seat`."""

    seat: int
    before: Ledger
    after: Ledger
    redundant: tuple[Row, ...]  # its sources fill no open place: the rows already full
    adds_nothing: bool  # it brings sources, yet no place more is filled

    @property
    def over(self) -> bool:
        """The agreements would exceed the proceeds."""
        return self.after.paid > self.after.proceeds


def ledger(view: SeatView) -> Ledger:
    """The open deal's ledger as `view`'s seat sees it."""
    return _ledger(_state(view), view)


def preview(view: SeatView, seat: int, sources: tuple[Source, ...], amount: int) -> Preview:
    """The ledger if `seat` agreed to these terms now (a proposal accepted, an offer taken)."""
    before = ledger(view)
    st = _state(view)
    neg = st.negotiation
    neg.agreements[seat] = nego.merged_terms(neg.agreements.get(seat), Terms(tuple(sources), amount))
    after = _ledger(st, view)
    clans = {nego.source_clan(st, s) for s in sources}
    redundant = tuple(r for r in before.rows if r.full and clans & set(r.clans))
    adds_nothing = bool(sources) and after.filled <= before.filled
    return Preview(seat, before, after, redundant if adds_nothing else (), adds_nothing)


def needed_sources(view: SeatView, seat: int, pool: tuple[Source, ...]) -> tuple[Source, ...]:
    """The sources of `pool` (in its order) that fill places the deal still lacks, each one
    kept only if it fills one more than those before it: what the terms editor ticks."""
    picked: list[Source] = []
    filled = ledger(view).filled
    for src in pool:
        n = preview(view, seat, (*picked, src), 0).after.filled
        if n > filled:
            picked.append(src)
            filled = n
    return tuple(picked)


def _state(view: SeatView) -> GameState:
    if view.negotiation is None:
        raise ValueError("a ledger needs an open deal")
    return state_from_view(view, shuffle=False)


def _ledger(st: GameState, view: SeatView) -> Ledger:
    neg = st.negotiation
    boss = neg.boss
    space = st.board.spaces[neg.space]
    inv = nego.involved(st)
    if inv is not None:
        by_clan = {e[0]: e for e in inv[0]}
        payments = tuple(p for p in nego.settlement(st) if p.payer != BANK)
        reserved = 0
    else:
        by_clan = nego.best_sources(st)
        payments = tuple(
            nego.Payment(boss, seat, t.amount, "agreement" if t.sources else "fee")
            for seat, t in sorted(neg.agreements.items())
        )
        reserved = _two_player_reserve(st)
    mask = 0
    for clan in by_clan:
        mask |= 1 << clan
    rows = []
    pairs = zip(space_rows(space), fill_rows(space, mask), strict=True)
    for i, ((clans, k), got) in enumerate(pairs):
        places = [Place(_COVER_BY_RANK[by_clan[c][2]], Clan(c), by_clan[c][3]) for c in got]
        places += [Place(Cover.OPEN)] * (k - len(got))
        rows.append(Row(i == 0 and bool(space.required), clans, k, tuple(places)))
    return Ledger(boss, neg.proceeds, payments, reserved, tuple(rows), inv is not None)


def _two_player_reserve(st: GameState) -> int:
    """Two-player rules, space not covered: what `offer_cap` keeps aside for the opponent's
    placards the deal will use."""
    if not st.settings.two_player:
        return 0
    neg = st.negotiation
    left = neg.proceeds - nego.agreed_total(neg)
    return max(0, left - nego.offer_cap(st)) if left > 0 else 0
