"""Seat views for the panels' tests: a full `SeatView` read from a seeded game's wire map,
the fields a test is about replaced (`dataclasses.replace`), never a partial map."""

from __future__ import annotations

from dataclasses import replace

from game.rules import view
from game.rules.seat_view import SeatView
from tests.scenario import Scenario

NAMES = ("Kim", "Ann", "Bo", "Mei")
CLANS = ("red", "blue", "green", "yellow", "orange")


def _placards(names) -> dict[str, int]:
    """One placard a seat, the rest in the pool."""
    return {clan: seat for seat, clan in enumerate(CLANS[: len(names)])}


def table_view(seat: int | None = 0, names=NAMES, **fields) -> SeatView:
    """A view of a game's first turn (no deal open), `fields` replaced."""
    t = Scenario(list(names), _placards(names), [[] for _ in names])
    return replace(SeatView.from_data(view(t.state, seat)), **fields)


def deal_view(seat: int | None = 0, names=NAMES, boss: int = 0, **negotiation) -> SeatView:
    """A view of a deal `boss` opened on space 1, its negotiation's `negotiation` fields
    replaced."""
    t = Scenario(list(names), _placards(names), [[] for _ in names], first_player=boss)
    t.open(boss)
    v = SeatView.from_data(view(t.state, seat))
    return replace(v, negotiation=replace(v.negotiation, **negotiation))


def players_with(v: SeatView, **by_seat) -> SeatView:
    """`v` with some players' fields replaced: players_with(v, p1={"placards": (3,)})."""
    players = list(v.players)
    for key, changes in by_seat.items():
        seat = int(key[1:])
        players[seat] = replace(players[seat], **changes)
    return replace(v, players=tuple(players))
