"""Which clan each source stands for and which committed clan fills which slot of a deal:
the reading of the seat's view that the turn panel, the deal and the editor share."""

from __future__ import annotations

from itertools import combinations

from game.rules import Source, SourceKind
from game.rules.board import Space
from game.rules.seat_view import SeatView

from ...i18n import tr
from ..sentences import clan_word


def source_label(v: SeatView, src: Source) -> str:
    """'C Cashman' for a placard, 'Clan card C Cashman' for a laid card."""
    clan = v.source_clan(src)
    word = clan_word(clan) if clan is not None else "?"
    if src.kind is SourceKind.CARD:
        return tr("table.src_card", clan=word)
    return word


def fill_slots(space: Space, committed: set[int], involved: list[int] | None):
    """Which committed clan fills which slot: [(kind, clans, k, filled clans)] per row.

    Uses the engine's involved set when the deal is covered; otherwise the largest
    assignment of different clans to the choice groups (a small search)."""
    req = [int(c) for c in space.required]
    groups = [([int(c) for c in g.clans], g.count) for g in space.groups]
    pool = set(involved) if involved else set(committed)
    free = (pool - set(req)) if involved else (set(committed) - set(req))
    best: list[list[int]] = [[] for _ in groups]
    best_n = -1

    def search(i: int, left: set[int], acc: list[list[int]]) -> None:
        nonlocal best, best_n
        if i == len(groups):
            n = sum(len(a) for a in acc)
            if n > best_n:
                best, best_n = [list(a) for a in acc], n
            return
        clans, k = groups[i]
        avail = [c for c in clans if c in left]
        for m in range(min(k, len(avail)), -1, -1):
            for pick in combinations(avail, m):
                search(i + 1, left - set(pick), acc + [list(pick)])
                if best_n == sum(min(g[1], len(g[0])) for g in groups):
                    return

    search(0, free, [])
    rows = []
    if req:
        rows.append(("req", req, len(req), [c for c in req if c in committed]))
    for (clans, k), got in zip(groups, best, strict=True):
        rows.append(("grp", clans, k, got))
    return rows


def marker_preview(space: Space, v: SeatView) -> list[tuple[str, int, list]]:
    """The marker's space as rows: ("req" | "grp", how many, [(clan, holder's name)]).

    Every group of the space, each clan with the player holding its placard; a placard in
    the pool has no holder (the pool takes no part in deals)."""
    holder = {c: p.name for p in v.players for c in p.placards}
    return [
        (kind, k, [(c, holder.get(c)) for c in clans])
        for kind, clans, k, _got in fill_slots(space, set(), None)
    ]


def committed_owners(v: SeatView) -> dict[int, int]:
    """clan -> seat providing it (Boss first, then agreements)."""
    neg = v.negotiation
    boss = neg.boss
    out: dict[int, int] = {}
    for sp in neg.involved:
        c = v.source_clan(sp)
        if c is not None:
            out[int(c)] = v.source_owner(sp)
    for c in v.players[boss].placards:
        if c not in neg.travel:
            out.setdefault(c, boss)
    for card in neg.laid:
        if card.owner == boss:
            out.setdefault(int(card.clan), boss)
    for seat, agr in neg.agreements.items():
        for s in agr.sources:
            c = v.source_clan(s)
            if c is not None:
                out.setdefault(int(c), seat)
    return out
