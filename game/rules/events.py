"""Events: what happened, as `apply` reports it. They drive animations, logs and network
updates. Like the state, events are redacted per seat: `for_seat` hides a drawn or dealt card
from everyone but its holder.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import ClassVar

from .actions import _encode
from .board import Clan
from .cards import Card
from .state import Source

BANK = -1  # payer of dividends


@dataclass(frozen=True, slots=True)
class Event:
    type: ClassVar[str] = "event"

    def for_seat(self, seat: int | None) -> Event:
        """The event as `seat` may see it (None: the public table)."""
        return self

    def to_data(self) -> dict:
        out: dict = {"type": self.type}
        for f in fields(self):
            out[f.name] = _encode(getattr(self, f.name))
        return out


@dataclass(frozen=True, slots=True)
class GameStarted(Event):
    names: tuple[str, ...]
    first_player: int
    placards: tuple[int, ...]  # owner per clan (-1: pool)
    tiles: tuple[int, ...]
    type: ClassVar[str] = "game_started"


@dataclass(frozen=True, slots=True)
class _PrivateCards(Event):
    seat: int
    count: int
    cards: tuple[Card, ...] | None

    def for_seat(self, seat: int | None) -> Event:
        return self if seat == self.seat else replace(self, cards=None)


@dataclass(frozen=True, slots=True)
class HandDealt(_PrivateCards):
    type: ClassVar[str] = "hand_dealt"


@dataclass(frozen=True, slots=True)
class CardsDrawn(_PrivateCards):
    type: ClassVar[str] = "cards_drawn"


@dataclass(frozen=True, slots=True)
class DeckReshuffled(Event):
    count: int
    type: ClassVar[str] = "deck_reshuffled"


@dataclass(frozen=True, slots=True)
class MarkerPlaced(Event):
    seat: int
    space: int
    type: ClassVar[str] = "marker_placed"


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    seat: int
    type: ClassVar[str] = "turn_started"


@dataclass(frozen=True, slots=True)
class DieRolled(Event):
    seat: int
    value: int
    purpose: str  # "move" or "end"
    type: ClassVar[str] = "die_rolled"


@dataclass(frozen=True, slots=True)
class MarkerMoved(Event):
    path: tuple[int, ...]  # spaces passed through, ending on the new space
    type: ClassVar[str] = "marker_moved"


@dataclass(frozen=True, slots=True)
class HandLimitReached(Event):
    seat: int
    excess: int
    limit: int
    type: ClassVar[str] = "hand_limit_reached"


@dataclass(frozen=True, slots=True)
class CardDiscarded(Event):
    seat: int
    card: Card
    type: ClassVar[str] = "card_discarded"


@dataclass(frozen=True, slots=True)
class DealOpened(Event):
    seat: int
    space: int
    price: int
    proceeds: int
    type: ClassVar[str] = "deal_opened"


@dataclass(frozen=True, slots=True)
class ClanLaid(Event):
    seat: int
    clan: Clan
    card_id: int
    type: ClassVar[str] = "clan_laid"


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    """A Travel, Boss or Recruitment play, pending until its reaction window closes."""

    seat: int
    card: Card
    count: int = 1
    target: Source | None = None
    clan: Clan | None = None  # the placard a Recruitment triple takes
    type: ClassVar[str] = "card_played"


@dataclass(frozen=True, slots=True)
class WindowOpened(Event):
    kind: str
    actor: int
    asked: tuple[int, ...]  # ask-around: the order; real time: everyone who may answer
    type: ClassVar[str] = "window_opened"


@dataclass(frozen=True, slots=True)
class Asked(Event):
    seat: int
    type: ClassVar[str] = "asked"


@dataclass(frozen=True, slots=True)
class Passed(Event):
    seat: int
    auto: bool  # skipped by the player's "only when it touches me" preference
    type: ClassVar[str] = "passed"


@dataclass(frozen=True, slots=True)
class Stopped(Event):
    seat: int
    kind: str
    cancelled: tuple[Card, ...]
    type: ClassVar[str] = "stopped"


@dataclass(frozen=True, slots=True)
class WindowClosed(Event):
    kind: str
    type: ClassVar[str] = "window_closed"


@dataclass(frozen=True, slots=True)
class TravelSent(Event):
    seat: int
    card: Card
    target: Source
    owner: int
    discarded: bool  # a Clan card and the Travel card go to the discard pile at once
    type: ClassVar[str] = "travel_sent"


@dataclass(frozen=True, slots=True)
class BossChanged(Event):
    old: int
    new: int
    type: ClassVar[str] = "boss_changed"


@dataclass(frozen=True, slots=True)
class PlacardRecruited(Event):
    clan: Clan
    old_owner: int  # -1: the pool
    new_owner: int
    type: ClassVar[str] = "placard_recruited"


@dataclass(frozen=True, slots=True)
class OfferMade(Event):
    seat: int
    sources: tuple[Source, ...]
    amount: int
    type: ClassVar[str] = "offer_made"


@dataclass(frozen=True, slots=True)
class Proposed(Event):
    boss: int
    to: int
    sources: tuple[Source, ...]
    amount: int
    type: ClassVar[str] = "proposed"


@dataclass(frozen=True, slots=True)
class AgreementMade(Event):
    seat: int
    boss: int
    sources: tuple[Source, ...]  # everything the player has now committed
    amount: int  # the player's total agreed payment
    type: ClassVar[str] = "agreement_made"


@dataclass(frozen=True, slots=True)
class AgreementsFellBack(Event):
    """On a Boss change, agreements become pending offers to the new Boss."""

    seats: tuple[int, ...]
    type: ClassVar[str] = "agreements_fell_back"


@dataclass(frozen=True, slots=True)
class Withdrawn(Event):
    seat: int
    player: int
    type: ClassVar[str] = "withdrawn"


@dataclass(frozen=True, slots=True)
class AgreementLapsed(Event):
    seat: int
    source: Source
    kept: tuple[Source, ...]  # what is left, now a pending offer (empty: nothing left)
    type: ClassVar[str] = "agreement_lapsed"


@dataclass(frozen=True, slots=True)
class OfferLapsed(Event):
    seat: int
    source: Source
    type: ClassVar[str] = "offer_lapsed"


@dataclass(frozen=True, slots=True)
class FloorPassed(Event):
    seat: int
    to: int
    auto: bool = False  # passed over by the seat's "ask me only when it touches me"
    type: ClassVar[str] = "floor_passed"


@dataclass(frozen=True, slots=True)
class QuietRound(Event):
    boss: int
    type: ClassVar[str] = "quiet_round"


@dataclass(frozen=True, slots=True)
class GoingOnceCalled(Event):
    boss: int
    type: ClassVar[str] = "going_once_called"


@dataclass(frozen=True, slots=True)
class CallCancelled(Event):
    seat: int
    type: ClassVar[str] = "call_cancelled"


@dataclass(frozen=True, slots=True)
class NegotiationLimitReached(Event):
    reason: str  # "actions" or "time"
    type: ClassVar[str] = "negotiation_limit_reached"


@dataclass(frozen=True, slots=True)
class DealClosed(Event):
    boss: int
    space: int
    tile: int
    proceeds: int
    involved: tuple[Source, ...]
    clans: tuple[Clan, ...]  # the clan each involved source stood for
    type: ClassVar[str] = "deal_closed"


@dataclass(frozen=True, slots=True)
class Paid(Event):
    payer: int  # BANK or the Boss
    payee: int
    amount: int
    reason: str  # "dividends", "agreement", "fee", "two_player"
    type: ClassVar[str] = "paid"


@dataclass(frozen=True, slots=True)
class CardsReturned(Event):
    seat: int
    cards: tuple[Card, ...]
    type: ClassVar[str] = "cards_returned"


@dataclass(frozen=True, slots=True)
class TableCleared(Event):
    discarded: tuple[Card, ...]
    type: ClassVar[str] = "table_cleared"


@dataclass(frozen=True, slots=True)
class TilePlaced(Event):
    tile: int
    space: int
    type: ClassVar[str] = "tile_placed"


@dataclass(frozen=True, slots=True)
class DealFailed(Event):
    boss: int
    space: int
    type: ClassVar[str] = "deal_failed"


@dataclass(frozen=True, slots=True)
class AskPreferenceSet(Event):
    seat: int
    only_when_touched: bool
    type: ClassVar[str] = "ask_preference_set"


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    winners: tuple[int, ...]
    money: tuple[int, ...]
    type: ClassVar[str] = "game_over"


EVENT_TYPES: dict[str, type[Event]] = {
    cls.type: cls
    for cls in list(globals().values())
    if isinstance(cls, type) and issubclass(cls, Event) and cls.type != "event"
}
