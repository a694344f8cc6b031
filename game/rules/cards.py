"""The 98 influence cards.

Cards of one kind are interchangeable, so hands and piles hold card *kinds*: a hand is a
count per kind. That keeps the state small and copies cheap, and nothing in the rules ever
needs to tell two Red Clan cards apart.
"""

from __future__ import annotations

from enum import IntEnum

from .board import Clan


class Card(IntEnum):
    CLAN_RED = 0
    CLAN_BLUE = 1
    CLAN_YELLOW = 2
    CLAN_MAGENTA = 3
    CLAN_ORANGE = 4
    CLAN_GREEN = 5
    TRAVEL_RED = 6
    TRAVEL_BLUE = 7
    TRAVEL_YELLOW = 8
    TRAVEL_MAGENTA = 9
    TRAVEL_ORANGE = 10
    TRAVEL_GREEN = 11
    TRAVEL_GREY = 12
    RECRUIT = 13
    BOSS = 14
    STOP = 15

    @property
    def key(self) -> str:
        return CARD_KEYS[self]

    @property
    def is_clan(self) -> bool:
        return self <= Card.CLAN_GREEN

    @property
    def is_travel(self) -> bool:
        return Card.TRAVEL_RED <= self <= Card.TRAVEL_GREY

    @property
    def clan(self) -> Clan | None:
        """The clan of a Clan or coloured Travel card; None for grey Travel and the rest."""
        if self <= Card.CLAN_GREEN:
            return Clan(self)
        if self <= Card.TRAVEL_GREEN:
            return Clan(self - Card.TRAVEL_RED)
        return None


CARD_KINDS = len(Card)
CARD_KEYS: tuple[str, ...] = tuple(c.name.lower() for c in Card)
CARDS: tuple[Card, ...] = tuple(Card)
_CARD_BY_KEY = {c.key: c for c in CARDS}

DECK_COUNTS: tuple[int, ...] = tuple(
    4 if c.is_clan else 3 if c.is_travel else {Card.RECRUIT: 33, Card.BOSS: 10, Card.STOP: 10}[c]
    for c in CARDS
)
DECK_SIZE = sum(DECK_COUNTS)
assert DECK_SIZE == 98


def clan_card(clan: Clan) -> Card:
    # The Clan cards come first in clan order: a table look-up, not an enum call by value.
    if 0 <= clan < 6:
        return CARDS[clan]
    raise ValueError(f"{clan!r} is not a clan")


def travel_card(clan: Clan) -> Card:
    if 0 <= clan < 6:
        return CARDS[Card.TRAVEL_RED + clan]
    raise ValueError(f"{clan!r} is not a clan")


def card_from_key(key: str) -> Card:
    try:
        return _CARD_BY_KEY[key]
    except (KeyError, TypeError):
        raise ValueError(f"unknown card {key!r}") from None


def full_deck() -> list[Card]:
    """The 98 cards in a fixed order, before shuffling."""
    return [c for c in CARDS for _ in range(DECK_COUNTS[c])]
