"""The log's words: each event as a sentence ('Mei played Travel on Sacks'), built from
redacted events by a dispatch table; the events not logged are listed, not forgotten
(tests/ui/test_ui_events.py)."""

from __future__ import annotations

from collections.abc import Callable

from game.rules.seat_view import SeatView

from ..drawing import cardart
from ..drawing.theme import CLAN_KEYS, CLAN_LETTERS
from ..i18n import and_list, list_of, tr, tr_count, tr_names
from .events import GAVE_UP, LOSS, PHRASE, SEAT_BACK, SEAT_DROPPED


def clan_word(clan) -> str:
    """A clan given as key or index, named as its language's players name it in a sentence
    (docs/RULES.md, glossary): 'S Sacks', '藍色（S）', 'แซกส์ (S)'."""
    key = clan if isinstance(clan, str) else CLAN_KEYS[int(clan)]
    return tr(f"clan.{key}.word")


def money(n: int) -> str:
    return tr("money.amount", n=n)


def recruit_tip(seen: SeatView, clan: int) -> str:
    """What a Recruitment of `clan` does, saying whose placard it takes (the pool's, or a
    player's: a newcomer could not tell from the button)."""
    word = clan_word(clan)
    owner = seen.placard_owner(clan)
    if owner is not None:
        return tr("tip.recruit_clan_from", clan=word, name=seen.players[owner].name)
    return tr("tip.recruit_clan_pool", clan=word)


# how a list of sources is worded: Clan cards first, then placards
SOURCE_GROUPS = (
    ("card", "log.src.card", "log.src.cards"),
    ("placard", "log.src.placard", "log.src.placards"),
)


class Describer:
    """Turns event data into a sentence. `laid` remembers which laid card id is whose;
    `addressed` False: the screen only watches (a replay), so the viewer's own cards are
    told as the seat's, not as "you"."""

    def __init__(self, names: list[str], addressed: bool = True) -> None:
        self.names = names
        self.addressed = addressed
        self.laid: dict[int, tuple[int, str]] = {}  # card id -> (owner, clan key)

    def name(self, seat: int | None) -> str:
        if seat is None or seat < 0:
            return tr("log.bank")
        return self.names[seat] if seat < len(self.names) else "?"

    def source(self, src) -> str:
        kind, ref = src
        if kind == "placard":
            return clan_word(ref)
        owner, clan = self.laid.get(ref, (None, None))
        if clan is None:
            return tr("log.a_clan_card")
        return tr("log.clan_card_of", clan=clan_word(clan), name=self.name(owner))

    def letter(self, src) -> str:
        kind, ref = src
        if kind == "placard":
            return CLAN_LETTERS[int(ref)]
        clan = self.laid.get(ref, (None, None))[1]
        return "?" if clan is None else CLAN_LETTERS[CLAN_KEYS.index(clan)]

    def sources(self, srcs) -> str:
        """One player's sources: 'Clan cards W and G and placard C' (or 'a fee')."""
        if not srcs:
            return tr("log.a_fee")
        parts = []
        for kind, one, many in SOURCE_GROUPS:
            letters = [self.letter(s) for s in srcs if s[0] == kind]
            if letters:
                parts.append(tr(one if len(letters) == 1 else many, clans=and_list(letters)))
        return and_list(parts)

    def __call__(self, e: dict) -> str | None:
        """The event's sentence; None for the events deliberately not logged (and for a
        table cleared, which only forgets the laid cards)."""
        say = SENTENCES.get(e["type"])
        return None if say is None else say(self, e)

    # -- one sentence builder per logged event ----------------------------------------------

    def _game_started(self, e: dict) -> str:
        return tr("log.game_started", name=self.name(e["first_player"]))

    def _marker_placed(self, e: dict) -> str:
        return tr("log.marker_placed", name=self.name(e["seat"]), space=e["space"] + 1)

    def _die_rolled(self, e: dict) -> str:
        key = "log.rolled" if e["purpose"] == "move" else "log.rolled_end"
        return tr(key, name=self.name(e["seat"]), n=e["value"])

    def _cards_drawn(self, e: dict) -> str:
        if e.get("cards"):
            cards = list_of(cardart.card_in_text(c) for c in e["cards"])
            if not self.addressed:
                return tr("log.drew_cards", name=self.name(e["seat"]), cards=cards)
            return tr("log.you_drew", cards=cards)
        return tr_count("log.drew", e["count"], name=self.name(e["seat"]))

    def _hand_limit(self, e: dict) -> str:
        return tr("log.hand_limit", name=self.name(e["seat"]), n=e["excess"], limit=e["limit"])

    def _discarded(self, e: dict) -> str:
        return tr("log.discarded", name=self.name(e["seat"]), card=cardart.card_in_text(e["card"]))

    def _deal_opened(self, e: dict) -> str:
        return tr(
            "log.deal_opened",
            name=self.name(e["seat"]),
            space=e["space"] + 1,
            amount=money(e["proceeds"]),
        )

    def _clan_laid(self, e: dict) -> str:
        self.laid[e["card_id"]] = (e["seat"], e["clan"])
        return tr("log.clan_laid", name=self.name(e["seat"]), clan=clan_word(e["clan"]))

    def _card_played(self, e: dict) -> str:
        card = e["card"]
        name = self.name(e["seat"])
        if card == "boss":
            return tr("log.played_boss", name=name)
        if card == "recruit":
            return tr("log.played_recruit", name=name, clan=clan_word(e["clan"]))
        return tr("log.played_travel", name=name, target=self.source(e["target"]))

    def _travel_sent(self, e: dict) -> str:
        return tr("log.travel_sent", target=self.source(e["target"]))

    def _boss_changed(self, e: dict) -> str:
        return tr("log.boss_changed", name=self.name(e["new"]))

    def _recruited(self, e: dict) -> str:
        return tr("log.recruited", name=self.name(e["new_owner"]), clan=clan_word(e["clan"]))

    def _offer(self, e: dict) -> str:
        return tr(
            "log.offer",
            name=self.name(e["seat"]),
            sources=self.sources(e["sources"]),
            amount=money(e["amount"]),
        )

    def _proposed(self, e: dict) -> str:
        return tr(
            "log.proposed",
            boss=self.name(e["boss"]),
            name=self.name(e["to"]),
            sources=self.sources(e["sources"]),
            amount=money(e["amount"]),
        )

    def _agreement(self, e: dict) -> str:
        return tr(
            "log.agreement",
            name=self.name(e["seat"]),
            sources=self.sources(e["sources"]),
            amount=money(e["amount"]),
        )

    def _withdrawn(self, e: dict) -> str:
        if e["seat"] == e["player"]:
            return tr("log.withdrawn_own", name=self.name(e["seat"]))
        return tr("log.withdrawn", name=self.name(e["seat"]), other=self.name(e["player"]))

    def _lapsed(self, e: dict) -> str:
        return tr("log.lapsed", name=self.name(e["seat"]), source=self.source(e["source"]))

    def _deal_closed(self, e: dict) -> str:
        return tr(
            "log.deal_closed",
            name=self.name(e["boss"]),
            space=e["space"] + 1,
            amount=money(e["proceeds"]),
        )

    def _paid(self, e: dict) -> str:
        if e["payer"] < 0:
            return tr("log.paid_dividends", name=self.name(e["payee"]), amount=money(e["amount"]))
        return tr(
            "log.paid",
            payer=self.name(e["payer"]),
            name=self.name(e["payee"]),
            amount=money(e["amount"]),
        )

    def _cards_returned(self, e: dict) -> str:
        return tr_count("log.cards_returned", len(e["cards"]), name=self.name(e["seat"]))

    def _tile_placed(self, e: dict) -> str:
        return tr("log.tile_placed", n=e["tile"], space=e["space"] + 1)

    def _game_over(self, e: dict) -> str:
        return tr_names("log.game_over", [self.name(s) for s in e["winners"]])

    def _gave_up(self, e: dict) -> str:
        return tr("log.gives_up", name=self.name(e["seat"]), reason=tr(e["reason"]))

    def _says(self, e: dict) -> str:
        return tr("log.says", name=self.name(e["seat"]), text=tr(e["key"]))

    def _loss(self, e: dict) -> str:
        """What a person lost and why, as the notice said it (losses.py), to "you"; named
        when several people share the screen."""
        text = LOSS_WORDS[e["what"]](self, e)
        return tr("log.loss.for", name=self.name(e["seat"]), text=text) if e.get("named") else text

    def _table_cleared(self, e: dict) -> None:
        """No sentence: the laid cards are gone, so their ids are forgotten."""
        self.laid.clear()
        return None


def _failed_deal(d: Describer, e: dict) -> str:
    parts = [tr("log.loss.failed", by=d.name(e["by"]))]
    if e.get("amount"):
        parts.append(tr("log.loss.failed_agreement", amount=money(e["amount"])))
    if e.get("cards"):
        cards = list_of(cardart.card_name(c) for c in e["cards"])
        parts.append(tr("log.loss.failed_played", cards=cards))
    if e.get("returned"):
        parts.append(tr("log.loss.failed_returned"))
    return " ".join(parts)


def _travelled(d: Describer, e: dict) -> str:
    clan = e.get("clan")
    if clan is None:  # laid before this screen saw it (a rejoin)
        card = tr("card.clan")
    else:
        i = CLAN_KEYS.index(clan) if isinstance(clan, str) else int(clan)
        card = tr("log.src.card", clans=CLAN_LETTERS[i])
    return tr("log.loss.travelled", by=d.name(e["by"]), card=card)


# a loss's "what" -> its words (losses.py makes the events)
LOSS_WORDS: dict[str, Callable[[Describer, dict], str]] = {
    "placard": lambda d, e: tr("log.loss.placard", by=d.name(e["by"]), clan=clan_word(e["clan"])),
    "stopped": lambda d, e: tr(f"log.loss.stopped_{e['card']}", by=d.name(e["by"])),
    "travelled": _travelled,
    "failed": _failed_deal,
}


def _fixed(key: str):
    """A builder for a sentence that names no one."""
    return lambda d, e: tr(key)


def _seat(key: str):
    """A builder for a sentence naming only the event's seat."""
    return lambda d, e: tr(key, name=d.name(e["seat"]))


def _boss(key: str):
    """A builder for a sentence naming only the event's Boss."""
    return lambda d, e: tr(key, name=d.name(e["boss"]))


# event type -> its sentence: (describer, event) -> the sentence (None: bookkeeping only)
SENTENCES: dict[str, Callable[[Describer, dict], str | None]] = {
    "game_started": Describer._game_started,
    "marker_placed": Describer._marker_placed,
    "turn_started": _seat("log.turn_started"),
    "die_rolled": Describer._die_rolled,
    "cards_drawn": Describer._cards_drawn,
    "deck_reshuffled": _fixed("log.reshuffled"),
    "hand_limit_reached": Describer._hand_limit,
    "card_discarded": Describer._discarded,
    "deal_opened": Describer._deal_opened,
    "clan_laid": Describer._clan_laid,
    "card_played": Describer._card_played,
    "stopped": _seat("log.stopped"),
    "travel_sent": Describer._travel_sent,
    "boss_changed": Describer._boss_changed,
    "agreements_fell_back": _fixed("log.fell_back"),
    "placard_recruited": Describer._recruited,
    "offer_made": Describer._offer,
    "proposed": Describer._proposed,
    "agreement_made": Describer._agreement,
    "withdrawn": Describer._withdrawn,
    "agreement_lapsed": Describer._lapsed,
    "quiet_round": _boss("log.quiet_round"),
    "going_once_called": _boss("log.going_once"),
    "call_cancelled": _seat("log.call_cancelled"),
    "negotiation_limit_reached": _fixed("log.limit_reached"),
    "deal_closed": Describer._deal_closed,
    "paid": Describer._paid,
    "cards_returned": Describer._cards_returned,
    "tile_placed": Describer._tile_placed,
    "deal_failed": _boss("log.deal_failed"),
    "game_over": Describer._game_over,
    "table_cleared": Describer._table_cleared,
    PHRASE: Describer._says,
    SEAT_DROPPED: _seat("net.dropped"),  # LAN: a player's connection (net_session.py)
    SEAT_BACK: _seat("net.back"),
    GAVE_UP: Describer._gave_up,  # a bot Boss's reason for failing (session.py)
    LOSS: Describer._loss,  # something of a person on this screen was taken (losses.py)
}

# events deliberately not logged: window bookkeeping, passes and the floor are shown on the
# panel; a dealt hand is in the fan, the marker's move on the board; an ask preference is
# the player's own business
SILENT_IN_LOG = frozenset(
    {
        "hand_dealt",
        "marker_moved",
        "window_opened",
        "asked",
        "passed",
        "window_closed",
        "offer_lapsed",
        "floor_passed",
        "ask_preference_set",
    }
)
