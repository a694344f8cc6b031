"""Event → animation choreography: what each redacted event looks like on the table (cards
flying from the deck or a hand, coins from the bank, the crown, a placard, the tile, the
die and the marker, banners and bubbles) and how far it moves the director's timeline.

Each handler is `(director, event, viewer, start) -> seconds the cursor moves`; it uses the
director's staging (`fly`, `banner`, `add_bubble`, `sound`, `at`, `roll`, `move_marker`) and
the table's geometry (`d.table`), never the other way round.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from ..drawing import cardart, draw
from ..drawing.theme import CLAN_KEYS, GOLD
from ..i18n import tr
from . import layout as L
from .events import GAVE_UP, LOSS, PHRASE, SEAT_BACK, SEAT_DROPPED
from .sprites import Bubble, gain_text, phrase_bubble


class Stage(Protocol):
    """What a handler uses of the director (anim.Director), which imports this module."""

    table: object  # geometry and the parts hidden in flight: see TableScene
    rng: random.Random  # the coins' scatter, seeded: the same game animates the same
    paid_out: dict[int, int]
    marker_f: float | None

    def at(self, delay: float, fn) -> None: ...
    def sound(self, name: str, delay: float = 0.0, gain: float = 1.0) -> None: ...
    def add_bubble(self, bubble: Bubble, delay: float) -> None: ...
    def fly(self, image, start, end, **how) -> object: ...
    def banner(
        self, text: str, colour=GOLD, delay: float = 0.0, hold: float = 0.9, **how
    ) -> None: ...
    def roll(self, value: int, c: float) -> None: ...
    def move_marker(self, path, c) -> float: ...


# -- one handler per animated event: (director, event, viewer, start) -> how far the cursor moves


def cards_dealt(d: Stage, e: dict, viewer: int | None, c: float) -> float:
    """A hand dealt or cards drawn: they fly from the deck, my own face up into my fan."""
    tab = d.table
    dealt = e["type"] == "hand_dealt"
    seat = e["seat"]
    step = 0.07 if dealt else 0.1
    own = seat == viewer and e.get("cards")
    for k in range(e["count"]):
        if own:
            # my own card: it lands face up in the fan, which shows it only then
            key = e["cards"][k]
            tab.hand.hide(key)
            img = cardart.face(key, 96, 134)
            end = tab.hand_anchor()
            land = lambda key=key: tab.hand.reveal(key)  # noqa: E731
        else:
            img, end, land = draw.card_back(64, 90), tab.seat_anchor(seat), None
        d.fly(
            img,
            L.DECK,
            end,
            delay=c + step * k,
            duration=0.4,
            z=2,
            fade=not own,
            on_land=land,
        )
        if not dealt:
            d.sound("card_flick", c + step * k, 0.7)
    if dealt:
        d.sound("card_flick", c, 0.6)
    return 0.25 if dealt else 0.2 + 0.1 * e["count"]


def reshuffled(d: Stage, e: dict, viewer: int | None, c: float) -> float:
    d.sound("shuffle", c)
    return 0.3


def _from_hand(d: Stage, seat: int, viewer: int | None):
    """Where a card leaves from: my hand's anchor, or the player's plate."""
    return d.table.hand_anchor() if seat == viewer else d.table.seat_anchor(seat)


def discarded(d: Stage, e: dict, viewer: int | None, c: float) -> float:
    start = _from_hand(d, e["seat"], viewer)
    d.fly(cardart.face(e["card"], 64, 90), start, L.DISCARD, delay=c, duration=0.35, fade=True)
    d.sound("card_place", c, 0.7)
    return 0.18


def die_rolled(d: Stage, e: dict, viewer: int | None, c: float) -> float:
    d.roll(e["value"], c)
    return 0.75


def marker_moved(d: Stage, e: dict, viewer: int | None, c: float) -> float:
    return d.move_marker(e["path"], c)


def marker_placed(d: Stage, e: dict, viewer: int | None, c: float) -> float:
    d.at(c, lambda s=e["space"]: setattr(d, "marker_f", float(s)))
    d.sound("card_place", c)
    return 0.2


def clan_laid(d: Stage, e: dict, viewer: int | None, c: float) -> float:
    start = _from_hand(d, e["seat"], viewer)
    end = d.table.card_pos(e["card_id"])
    d.fly(cardart.face("clan_" + e["clan"], 80, 112), start, end, delay=c, duration=0.45)
    d.sound("card_place", c + 0.4)
    return 0.45


def stopped(d: Stage, e: dict, viewer: int | None, c: float) -> float:
    start = _from_hand(d, e["seat"], viewer)
    d.fly(
        cardart.face("stop", 110, 154),
        start,
        L.NEGOTIATION_TABLE,
        delay=c,
        duration=0.4,
        ease="out_back",
        hold=0.6,
    )
    d.banner(tr("card.stop_shout"), (240, 90, 80), delay=c + 0.3, hold=0.4)
    d.sound("deal_failed", c + 0.3, 0.6)
    return 0.9


def travel_sent(d: Stage, e: dict, viewer: int | None, c: float) -> float:
    end = d.table.source_pos(e["target"])
    d.fly(draw.suitcase(48), L.NEGOTIATION_TABLE, end, delay=c, duration=0.5, ease="out_back")
    d.sound("card_place", c + 0.45)
    return 0.5


def boss_changed(d: Stage, e: dict, viewer: int | None, c: float) -> float:
    return _boss(d, e["old"], e["new"], c)


def recruited(d: Stage, e: dict, viewer: int | None, c: float) -> float:
    """The placard flies from its old holder (or the pool) to the new one, hidden on
    the plates until it lands."""
    tab = d.table
    clan = CLAN_KEYS.index(e["clan"])
    old = e["old_owner"]
    start = tab.seat_anchor(old) if old >= 0 else tab.pool_pos()
    tab.plates.hidden_placards.add(clan)
    d.fly(
        draw.clan_chip(clan, 48),
        start,
        tab.seat_anchor(e["new_owner"]),
        delay=c,
        duration=0.6,
        ease="out_back",
        fade=False,
        on_land=lambda cl=clan: tab.plates.hidden_placards.discard(cl),
    )
    d.sound("card_flick", c)
    return 0.6


def terms_made(d: Stage, e: dict, viewer: int | None, c: float) -> float:
    """An offer or a proposal: a bubble with the amount over whoever made it."""
    seat = e["seat"] if e["type"] == "offer_made" else e["boss"]
    d.sound("card_flick", c, 0.4)
    d.add_bubble(Bubble(seat, tr("money.amount", n=e["amount"]), life=1.6), c)
    return 0.2


def agreement(d: Stage, e: dict, viewer: int | None, c: float) -> float:
    d.sound("coin_clink", c, 0.6)
    return 0.25


def asked(d: Stage, e: dict, viewer: int | None, c: float) -> float:
    d.sound("window_tick", c, 0.35)
    return 0.0


def paid_event(d: Stage, e: dict, viewer: int | None, c: float) -> float:
    return _paid(d, e, c)


def tile_placed(d: Stage, e: dict, viewer: int | None, c: float) -> float:
    return _tile(d, e["tile"], e["space"], c)


def cards_returned(d: Stage, e: dict, viewer: int | None, c: float) -> float:
    end = _from_hand(d, e["seat"], viewer)
    for k, card in enumerate(e["cards"]):
        d.fly(
            cardart.face(card, 64, 90),
            L.NEGOTIATION_TABLE,
            end,
            delay=c + 0.08 * k,
            duration=0.4,
        )
    return 0.3


def phrase(d: Stage, e: dict, viewer: int | None, c: float) -> float:
    """Table talk: a bubble over the speaker."""
    d.add_bubble(phrase_bubble(e["seat"], e["key"]), c)
    return 0.0


def banner_cue(d: Stage, e: dict, viewer: int | None, c: float) -> float:
    """A moment of the deal (or the game) in a big banner, with its sound."""
    cue = CUES[e["type"]]
    d.banner(tr(cue.text), cue.colour, delay=c, hold=cue.hold, moment=e["type"], sound=cue.sound)
    return cue.advance


def card_played(d: Stage, e: dict, viewer: int | None, c: float) -> float:
    tab = d.table
    card = e["card"]
    start = tab.hand_anchor() if e["seat"] == viewer else tab.seat_anchor(e["seat"])
    if card == "recruit":
        for k in range(3):
            d.fly(
                cardart.face("recruit", 90, 126),
                start,
                (L.NEGOTIATION_TABLE[0] - 60 + 60 * k, L.NEGOTIATION_TABLE[1]),
                delay=c + 0.08 * k,
                duration=0.45,
                hold=0.5,
            )
        d.sound("card_flick", c)
        return 0.7
    end = L.NEGOTIATION_TABLE
    if e.get("target"):
        end = tab.source_pos(e["target"])
    big = card == "boss"
    d.fly(
        cardart.face(card, 110 if big else 90, 154 if big else 126),
        start,
        end,
        delay=c,
        duration=0.45,
        ease="out_back",
        hold=0.7,
    )
    d.sound("card_flick", c)
    if big:
        d.banner(tr("phrase.im_the_boss"), GOLD, delay=c + 0.3, hold=0.6)
    return 0.8 if big else 0.55


def _boss(d: Stage, old: int, new: int, c: float) -> float:
    tab = d.table
    tab.plates.hidden_crown = True

    def land():
        tab.plates.hidden_crown = False

    d.fly(
        draw.crown(58),
        tab.plates.crown_pos(old),
        tab.plates.crown_pos(new),
        delay=c,
        duration=0.7,
        ease="in_out_cubic",
        fade=False,
        on_land=land,
        scale=(1.0, 1.0),
    )
    d.sound("boss_fanfare", c)
    return 0.8


def _paid(d: Stage, e: dict, c: float) -> float:
    tab = d.table
    start = L.BANK if e["payer"] < 0 else tab.seat_anchor(e["payer"])
    end = tab.seat_anchor(e["payee"])
    n = max(1, min(8, e["amount"] // 2))
    for k in range(n):
        jitter = (d.rng.uniform(-20, 20), d.rng.uniform(-14, 14))
        d.fly(
            draw.coin(34),
            (start[0] + jitter[0], start[1] + jitter[1]),
            end,
            delay=c + 0.05 * k,
            duration=0.55,
            ease="in_out_quad",
            z=3,
            hold=0.0,
        )
    d.sound("coins_pour" if n > 3 else "coin_clink", c)
    both = e["payer"] < 0 and d.paid_out.get(e["payee"], 0) > 0
    d.add_bubble(Bubble(e["payee"], gain_text(e, d.paid_out), life=2.6 if both else 1.8), c + 0.5)
    return 0.35 + 0.05 * n


def _tile(d: Stage, tile: int, space: int, c: float) -> float:
    tab = d.table
    tab.board.hidden_tiles.add(space)
    price = tab.tile_price(tile)
    r = L.SPACES[space]
    img = draw.tile_face(tile, price, r.width - 36, r.height - 26)

    def land():
        tab.board.hidden_tiles.discard(space)

    d.fly(
        img,
        L.TILE_STACK,
        r.center,
        delay=c,
        duration=0.6,
        ease="out_back",
        fade=False,
        on_land=land,
        scale=(0.8, 1.0),
        z=2,
    )
    d.sound("card_place", c + 0.55)
    return 0.65


@dataclass(frozen=True)
class Cue:
    """A banner moment: its words, colour and time on screen, its sound, the cursor's step."""

    text: str
    colour: tuple
    hold: float
    sound: str
    advance: float


CUES = {
    "deal_opened": Cue("phrase.lets_make_a_deal", GOLD, 0.5, "card_flick", 0.7),
    "going_once_called": Cue("phrase.going_once", GOLD, 0.6, "window_tick", 0.6),
    "deal_closed": Cue("phrase.deal_closed", (120, 230, 140), 0.9, "deal_closed", 0.9),
    "deal_failed": Cue("phrase.deal_failed", (240, 110, 90), 0.8, "deal_failed", 0.9),
    "game_over": Cue("results.game_over", GOLD, 1.2, "boss_fanfare", 1.6),
}

# a banner's moment -> the events that end it: its banner goes then (anim.Director), shown
# or still to come. "Going once" is over when its window closes or someone jumps in; the
# deal's opening when the deal is over. Closed and failed deals end with the next moment
# announced (the table says whose turn it is as they come up).
_DEAL_OVER = frozenset({"deal_closed", "deal_failed", "turn_started", "game_over"})
MOMENT_ENDS: dict[str, frozenset[str]] = {
    "going_once_called": _DEAL_OVER | {"window_closed", "call_cancelled"},
    "deal_opened": _DEAL_OVER,
    "deal_closed": frozenset({"deal_opened", "game_over"}),
    "deal_failed": frozenset({"deal_opened", "game_over"}),
}


# event type -> its animation: (director, event, viewer, start) -> how far the cursor moves
ANIMATIONS: dict[str, Callable[[Stage, dict, int | None, float], float]] = {
    "hand_dealt": cards_dealt,
    "cards_drawn": cards_dealt,
    "deck_reshuffled": reshuffled,
    "card_discarded": discarded,
    "die_rolled": die_rolled,
    "marker_moved": marker_moved,
    "marker_placed": marker_placed,
    "clan_laid": clan_laid,
    "card_played": card_played,
    "stopped": stopped,
    "travel_sent": travel_sent,
    "boss_changed": boss_changed,
    "placard_recruited": recruited,
    "offer_made": terms_made,
    "proposed": terms_made,
    "agreement_made": agreement,
    "asked": asked,
    "paid": paid_event,
    "tile_placed": tile_placed,
    "cards_returned": cards_returned,
    PHRASE: phrase,
    **dict.fromkeys(CUES, banner_cue),
}


# events with deliberately no animation: the panel, the plates or the log show them
NOT_ANIMATED = frozenset(
    {
        "game_started",
        "turn_started",
        "hand_limit_reached",
        "window_opened",
        "passed",
        "window_closed",
        "agreements_fell_back",
        "withdrawn",
        "agreement_lapsed",
        "offer_lapsed",
        "floor_passed",
        "quiet_round",
        "call_cancelled",
        "negotiation_limit_reached",
        "table_cleared",
        "ask_preference_set",
        SEAT_DROPPED,
        SEAT_BACK,
        GAVE_UP,
        LOSS,  # the notice and the log say it; the event that caused it is animated
    }
)
