"""Which clan each source stands for and which committed clan fills which slot of a deal:
the reading of the seat's view that the turn panel, the deal and the editor share."""

from __future__ import annotations

from itertools import combinations

from game.rules import Source, SourceKind

from ...drawing.theme import CLAN_KEYS
from ...i18n import tr
from ..sentences import clan_word


def source_clan(v: dict, src) -> int | None:
    kind, ref = (src.kind.value, src.ref) if isinstance(src, Source) else src
    if kind == "placard":
        return int(ref)
    for c in (v.get("negotiation") or {}).get("laid", []):
        if c["id"] == ref:
            return CLAN_KEYS.index(c["clan"])
    return None


def source_label(v: dict, src: Source) -> str:
    """'C Cashman' for a placard, 'Clan card C Cashman' for a laid card."""
    clan = source_clan(v, src)
    word = clan_word(clan) if clan is not None else "?"
    if src.kind is SourceKind.CARD:
        return tr("table.src_card", clan=word)
    return word


def fill_slots(space: dict, committed: set[int], involved: list[int] | None):
    """Which committed clan fills which slot: [(kind, clans, k, filled clans)] per row.

    Uses the engine's involved set when the deal is covered; otherwise the largest
    assignment of different clans to the choice groups (a small search)."""
    req = [CLAN_KEYS.index(k) for k in space["required"]]
    groups = [([CLAN_KEYS.index(k) for k in g["clans"]], g["count"]) for g in space["groups"]]
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


def marker_preview(space: dict, players: list[dict]) -> list[tuple[str, int, list]]:
    """The marker's space as rows: ("req" | "grp", how many, [(clan, holder's name)]).

    Every group of the space, each clan with the player holding its placard; a placard in
    the pool has no holder (the pool takes no part in deals)."""
    holder = {c: p["name"] for p in players for c in p["placards"]}
    return [
        (kind, k, [(c, holder.get(c)) for c in clans])
        for kind, clans, k, _got in fill_slots(space, set(), None)
    ]


def source_owner(v: dict, src) -> int | None:
    """The seat holding a source (a placard's holder, a laid card's owner)."""
    kind, ref = src
    if kind == "placard":
        for p in v["players"]:
            if ref in p["placards"]:
                return p["seat"]
        return None
    for c in v["negotiation"]["laid"]:
        if c["id"] == ref:
            return c["owner"]
    return None


def committed_owners(v: dict) -> dict[int, int]:
    """clan -> seat providing it (Boss first, then agreements)."""
    neg = v["negotiation"]
    boss = neg["boss"]
    travel = {int(k) for k in neg["travel"]}
    out: dict[int, int] = {}
    for sp in neg["involved"]:
        c = source_clan(v, sp)
        if c is not None:
            out[c] = source_owner(v, sp)
    for c in v["players"][boss]["placards"]:
        if c not in travel:
            out.setdefault(c, boss)
    for card in neg["laid"]:
        if card["owner"] == boss:
            out.setdefault(CLAN_KEYS.index(card["clan"]), boss)
    for seat, agr in neg["agreements"].items():
        for s in agr["sources"]:
            c = source_clan(v, s)
            if c is not None:
                out.setdefault(c, int(seat))
    return out
