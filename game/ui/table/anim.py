"""Events become motion: the animation director turns each redacted event into tweened
sprites (cards flying, coins, the crown, the marker gliding round the ring, the die, the
tile settling on its space), banners and sounds, one after another on a shared timeline.

The table always draws the newest view; the director hides the few things still "in
flight" (a tile, the crown, a recruited placard) until their sprite lands.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from .. import cardart, draw, probe
from ..i18n import tr
from ..theme import CLAN_KEYS, GOLD, THEME, seat_colour
from ..tween import Tweener
from . import layout as L
from .board import marker_token
from .events import GAVE_UP, PHRASE, SEAT_BACK, SEAT_DROPPED
from .sprites import Banner, Bubble, Sprite, bubble_image, faded, gain_text, paid_out

__all__ = ["ANIMATIONS", "NOT_ANIMATED", "Director", "gain_text", "paid_out"]


class Director:
    """Schedules animations for events on one timeline (`cursor`: when the next one starts)."""

    def __init__(self, table) -> None:
        self.table = table  # geometry: seat_anchor, placard_pos, card_pos, hand_anchor
        self.tweens = Tweener()
        self.sprites: list[Sprite] = []
        self.banners: list[Banner] = []
        self.bubbles: list[Bubble] = []
        self.cursor = 0.0  # seconds from now when the next event's animation starts
        self.marker_f: float | None = None  # the marker's drawn position (fractional space)
        self.die_face: int | None = None
        self.die_rolling = False
        self.die_y = 0.0
        self.rng = random.Random(5)
        self.quiet = False  # True: skip animations (the screenshot's setup, fast tests)
        self.paid_out: dict[int, int] = {}  # the batch being fed: what each player pays

    # -- public ---------------------------------------------------------------------------

    def busy(self) -> bool:
        return bool(self.tweens.tweens)

    def moving(self) -> bool:
        """Anything of the director's changes on screen every frame (or is about to)."""
        return bool(self.tweens.tweens or self.sprites or self.banners or self.bubbles or self.die_rolling)

    def update(self, dt: float) -> None:
        self.tweens.update(dt)
        self.cursor = max(0.0, self.cursor - dt * self.tweens.speed)
        if self.die_rolling:
            self.die_face = self.rng.randint(1, 6)
        self.sprites = [s for s in self.sprites if s.alive]
        self.banners = [b for b in self.banners if b.alive]
        for b in self.bubbles:
            b.t += dt
        self.bubbles = [b for b in self.bubbles if b.t < b.life]

    def settle(self, events: list[dict]) -> None:
        """Events shown without animation (a Continue, a rejoin's catch-up): the board ends
        as if they had been animated: the die shows the last roll, the marker its space."""
        self.finish()
        self.marker_f = None  # drawn where the view says
        for e in events:
            if e["type"] == "die_rolled":
                self.die_face = e["value"]

    def finish(self) -> None:
        self.tweens.finish_all()
        self.cursor = 0.0
        self.sprites.clear()
        self.banners.clear()
        self.die_rolling = False

    def draw(self, surface) -> None:
        for s in sorted(self.sprites, key=lambda s: s.z):
            s.draw(surface)
        for b in self.banners:
            b.draw(surface)

    # -- scheduling helpers ------------------------------------------------------------

    def _at(self, delay: float, fn) -> None:
        if delay <= 0:
            fn()
        else:
            self.tweens.wait(delay, fn)

    def bubble_image(self, bubble: Bubble, delay: float) -> None:
        self._at(delay, lambda: self.bubbles.append(bubble))

    def _sound(self, name: str, delay: float = 0.0, gain: float = 1.0) -> None:
        sounds = self.table.app.sounds
        self._at(delay, lambda: sounds.play(name, gain))

    def fly(
        self,
        image,
        start,
        end,
        delay=0.0,
        duration=0.45,
        ease="in_out_cubic",
        fade=True,
        z=1,
        scale=(1.0, 1.0),
        on_land=None,
        hold=0.12,
    ):
        sp = Sprite(
            image, start[0], start[1], alpha=0.0 if delay > 0 else 255.0, scale=scale[0], z=z
        )
        self.sprites.append(sp)

        def landed():
            if on_land is not None:
                on_land()
            if fade:
                self.tweens.animate(
                    sp,
                    duration=0.25,
                    delay=hold,
                    alpha=0,
                    on_done=lambda: setattr(sp, "alive", False),
                )
            else:
                sp.alive = False

        self.tweens.animate(sp, duration=0.01, delay=delay, alpha=255)
        self.tweens.animate(
            sp,
            duration=duration,
            delay=delay,
            ease=ease,
            x=end[0],
            y=end[1],
            scale=scale[1],
            on_done=landed,
        )
        return sp

    def banner(self, text: str, colour=GOLD, delay: float = 0.0, hold: float = 0.9) -> None:
        b = Banner(text, colour, y=L.H * 0.42 + 30)
        self.banners.append(b)
        self.tweens.animate(
            b, duration=0.35, delay=delay, ease="out_back", alpha=255, scale=1.0, y=L.H * 0.42
        )
        self.tweens.animate(
            b,
            duration=0.3,
            delay=delay + 0.35 + hold,
            alpha=0,
            y=L.H * 0.42 - 30,
            on_done=lambda: setattr(b, "alive", False),
        )

    # -- events ------------------------------------------------------------------------

    def feed(self, events: list[dict], viewer: int | None) -> None:
        if self.quiet:
            return
        self.paid_out = paid_out(events)
        for e in events:
            self._event(e, viewer)

    def _event(self, e: dict, viewer: int | None) -> None:
        """One event's animation from the cursor on; the cursor then moves past it."""
        animate = ANIMATIONS.get(e["type"])
        c = self.cursor
        self.cursor = c + (animate(self, e, viewer, c) if animate is not None else 0.0)

    # -- one handler per animated event: (event, viewer, start) -> how far the cursor moves

    def _cards_dealt(self, e: dict, viewer: int | None, c: float) -> float:
        """A hand dealt or cards drawn: they fly from the deck, my own face up into my fan."""
        tab = self.table
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
            self.fly(
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
                self._sound("card_flick", c + step * k, 0.7)
        if dealt:
            self._sound("card_flick", c, 0.6)
        return 0.25 if dealt else 0.2 + 0.1 * e["count"]

    def _reshuffled(self, e: dict, viewer: int | None, c: float) -> float:
        self._sound("shuffle", c)
        return 0.3

    def _from_hand(self, seat: int, viewer: int | None):
        """Where a card leaves from: my hand's anchor, or the player's plate."""
        return self.table.hand_anchor() if seat == viewer else self.table.seat_anchor(seat)

    def _discarded(self, e: dict, viewer: int | None, c: float) -> float:
        start = self._from_hand(e["seat"], viewer)
        self.fly(
            cardart.face(e["card"], 64, 90), start, L.DISCARD, delay=c, duration=0.35, fade=True
        )
        self._sound("card_place", c, 0.7)
        return 0.18

    def _die_rolled(self, e: dict, viewer: int | None, c: float) -> float:
        self._roll(e["value"], c)
        return 0.75

    def _marker_moved(self, e: dict, viewer: int | None, c: float) -> float:
        return self._move_marker(e["path"], c)

    def _marker_placed(self, e: dict, viewer: int | None, c: float) -> float:
        self._at(c, lambda s=e["space"]: setattr(self, "marker_f", float(s)))
        self._sound("card_place", c)
        return 0.2

    def _clan_laid(self, e: dict, viewer: int | None, c: float) -> float:
        start = self._from_hand(e["seat"], viewer)
        end = self.table.card_pos(e["card_id"])
        self.fly(cardart.face("clan_" + e["clan"], 80, 112), start, end, delay=c, duration=0.45)
        self._sound("card_place", c + 0.4)
        return 0.45

    def _stopped(self, e: dict, viewer: int | None, c: float) -> float:
        start = self._from_hand(e["seat"], viewer)
        self.fly(
            cardart.face("stop", 110, 154),
            start,
            L.NEGOTIATION_TABLE,
            delay=c,
            duration=0.4,
            ease="out_back",
            hold=0.6,
        )
        self.banner(tr("card.stop") + "!", (240, 90, 80), delay=c + 0.3, hold=0.4)
        self._sound("deal_failed", c + 0.3, 0.6)
        return 0.9

    def _travel_sent(self, e: dict, viewer: int | None, c: float) -> float:
        end = self.table.source_pos(e["target"])
        self.fly(
            draw.suitcase(48), L.NEGOTIATION_TABLE, end, delay=c, duration=0.5, ease="out_back"
        )
        self._sound("card_place", c + 0.45)
        return 0.5

    def _boss_changed(self, e: dict, viewer: int | None, c: float) -> float:
        return self._boss(e["old"], e["new"], c)

    def _recruited(self, e: dict, viewer: int | None, c: float) -> float:
        """The placard flies from its old holder (or the pool) to the new one, hidden on
        the plates until it lands."""
        tab = self.table
        clan = CLAN_KEYS.index(e["clan"])
        old = e["old_owner"]
        start = tab.seat_anchor(old) if old >= 0 else tab.pool_pos()
        tab.plates.hidden_placards.add(clan)
        self.fly(
            draw.clan_chip(clan, 48),
            start,
            tab.seat_anchor(e["new_owner"]),
            delay=c,
            duration=0.6,
            ease="out_back",
            fade=False,
            on_land=lambda cl=clan: tab.plates.hidden_placards.discard(cl),
        )
        self._sound("card_flick", c)
        return 0.6

    def _terms_made(self, e: dict, viewer: int | None, c: float) -> float:
        """An offer or a proposal: a bubble with the amount over whoever made it."""
        seat = e["seat"] if e["type"] == "offer_made" else e["boss"]
        self._sound("card_flick", c, 0.4)
        self.bubble_image(Bubble(seat, tr("money.amount", n=e["amount"]), life=1.6), c)
        return 0.2

    def _agreement(self, e: dict, viewer: int | None, c: float) -> float:
        self._sound("coin_clink", c, 0.6)
        return 0.25

    def _asked(self, e: dict, viewer: int | None, c: float) -> float:
        self._sound("window_tick", c, 0.35)
        return 0.0

    def _paid_event(self, e: dict, viewer: int | None, c: float) -> float:
        return self._paid(e, c)

    def _tile_placed(self, e: dict, viewer: int | None, c: float) -> float:
        return self._tile(e["tile"], e["space"], c)

    def _cards_returned(self, e: dict, viewer: int | None, c: float) -> float:
        end = self._from_hand(e["seat"], viewer)
        for k, card in enumerate(e["cards"]):
            self.fly(
                cardart.face(card, 64, 90),
                L.NEGOTIATION_TABLE,
                end,
                delay=c + 0.08 * k,
                duration=0.4,
            )
        return 0.3

    def _phrase(self, e: dict, viewer: int | None, c: float) -> float:
        """Table talk: a bubble over the speaker."""
        self.bubble_image(Bubble(e["seat"], tr(e["key"])), c)
        return 0.0

    def _cue(self, e: dict, viewer: int | None, c: float) -> float:
        """A moment of the deal (or the game) in a big banner, with its sound."""
        cue = CUES[e["type"]]
        self.banner(tr(cue.text), cue.colour, delay=c, hold=cue.hold)
        self._sound(cue.sound, c)
        return cue.advance

    def _card_played(self, e, viewer, c) -> float:
        tab = self.table
        card = e["card"]
        start = tab.hand_anchor() if e["seat"] == viewer else tab.seat_anchor(e["seat"])
        if card == "recruit":
            for k in range(3):
                self.fly(
                    cardart.face("recruit", 90, 126),
                    start,
                    (L.NEGOTIATION_TABLE[0] - 60 + 60 * k, L.NEGOTIATION_TABLE[1]),
                    delay=c + 0.08 * k,
                    duration=0.45,
                    hold=0.5,
                )
            self._sound("card_flick", c)
            return 0.7
        end = L.NEGOTIATION_TABLE
        if e.get("target"):
            end = tab.source_pos(e["target"])
        big = card == "boss"
        self.fly(
            cardart.face(card, 110 if big else 90, 154 if big else 126),
            start,
            end,
            delay=c,
            duration=0.45,
            ease="out_back",
            hold=0.7,
        )
        self._sound("card_flick", c)
        if big:
            self.banner(tr("phrase.im_the_boss"), GOLD, delay=c + 0.3, hold=0.6)
        return 0.8 if big else 0.55

    def _roll(self, value: int, c: float) -> None:
        def start():
            self.die_rolling = True
            self.die_y = -60.0
            self.tweens.animate(self, duration=0.6, ease="out_bounce", die_y=0.0, on_done=stop)

        def stop():
            self.die_rolling = False
            self.die_face = value

        self._at(c, start)
        self._sound("dice_roll", c)

    def _move_marker(self, path, c) -> float:
        if not path:
            return 0.0
        step = 0.16

        def hop(target: int) -> None:
            if self.marker_f is None:
                self.marker_f = float((target - 1) % 16)
            cur = self.marker_f % 16
            goal = float(target) if target >= cur else float(target) + 16
            self.marker_f = cur
            self.tweens.animate(
                self,
                duration=step * 0.9,
                ease="in_out_quad",
                marker_f=goal,
                on_done=lambda: setattr(self, "marker_f", goal % 16),
            )

        for k, sp in enumerate(path):
            self._at(c + step * k, lambda s=sp: hop(s))
        self._sound("card_place", c + step * len(path), 0.5)
        return step * len(path) + 0.1

    def _boss(self, old: int, new: int, c: float) -> float:
        tab = self.table
        tab.plates.hidden_crown = True

        def land():
            tab.plates.hidden_crown = False

        self.fly(
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
        self._sound("boss_fanfare", c)
        return 0.8

    def _paid(self, e: dict, c: float) -> float:
        tab = self.table
        start = L.BANK if e["payer"] < 0 else tab.seat_anchor(e["payer"])
        end = tab.seat_anchor(e["payee"])
        n = max(1, min(8, e["amount"] // 2))
        for k in range(n):
            jitter = (self.rng.uniform(-20, 20), self.rng.uniform(-14, 14))
            self.fly(
                draw.coin(34),
                (start[0] + jitter[0], start[1] + jitter[1]),
                end,
                delay=c + 0.05 * k,
                duration=0.55,
                ease="in_out_quad",
                z=3,
                hold=0.0,
            )
        self._sound("coins_pour" if n > 3 else "coin_clink", c)
        both = e["payer"] < 0 and self.paid_out.get(e["payee"], 0) > 0
        self.bubble_image(
            Bubble(e["payee"], gain_text(e, self.paid_out), life=2.6 if both else 1.8), c + 0.5
        )
        return 0.35 + 0.05 * n

    def _tile(self, tile: int, space: int, c: float) -> float:
        tab = self.table
        tab.board.hidden_tiles.add(space)
        price = tab.tile_price(tile)
        r = L.SPACES[space]
        img = draw.tile_face(tile, price, r.width - 36, r.height - 26)

        def land():
            tab.board.hidden_tiles.discard(space)

        self.fly(
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
        self._sound("card_place", c + 0.55)
        return 0.65

    # -- drawing helpers the table uses --------------------------------------------------------

    def draw_marker(self, surface, board, space: int | None) -> None:
        pos_space = self.marker_f if self.marker_f is not None else space
        if pos_space is None:
            return
        x, y = board.marker_pos(pos_space % 16)
        tok = marker_token()
        surface.blit(tok, tok.get_rect(center=(round(x), round(y))))

    def draw_die(self, surface, value: int | None) -> None:
        face = self.die_face if (self.die_rolling or self.die_face) else value
        if face is None:
            return
        img = draw.die_face(int(face), 64)
        surface.blit(img, img.get_rect(center=(L.DIE[0], round(L.DIE[1] + self.die_y))))

    def draw_bubbles(self, surface, anchor) -> None:
        """Each bubble rises from under its player's plate, but no lower than BUBBLE_FLOOR:
        over the plate, never over the panel's title or the board's top row below it."""
        for b in self.bubbles:
            x, y = anchor(b.seat)
            img = bubble_image(b.text, seat_colour(b.seat), THEME.epoch)
            alpha = 255 if b.t < b.life - 0.4 else int(255 * (b.life - b.t) / 0.4)
            rise = min(1.0, b.t * 5) * 14
            if alpha < 250:
                img = faded(img, alpha // 32)
            rect = img.get_rect(midtop=(x, y + 34 - rise))
            rect.bottom = min(rect.bottom, BUBBLE_FLOOR)
            rect.x = max(L.MARGIN, min(rect.x, L.W - L.MARGIN - rect.width))  # on screen
            surface.blit(img, rect)
            if probe.ACTIVE is not None:
                probe.ACTIVE.note_box(probe.BoxKind.BUBBLE, b.text, rect, surface)


BUBBLE_FLOOR = L.PLAYERS.bottom + 6  # the plates' row ends there; the panel and board below


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

# event type -> its animation: (director, event, viewer, start) -> how far the cursor moves
ANIMATIONS: dict[str, Callable[[Director, dict, int | None, float], float]] = {
    "hand_dealt": Director._cards_dealt,
    "cards_drawn": Director._cards_dealt,
    "deck_reshuffled": Director._reshuffled,
    "card_discarded": Director._discarded,
    "die_rolled": Director._die_rolled,
    "marker_moved": Director._marker_moved,
    "marker_placed": Director._marker_placed,
    "clan_laid": Director._clan_laid,
    "card_played": Director._card_played,
    "stopped": Director._stopped,
    "travel_sent": Director._travel_sent,
    "boss_changed": Director._boss_changed,
    "placard_recruited": Director._recruited,
    "offer_made": Director._terms_made,
    "proposed": Director._terms_made,
    "agreement_made": Director._agreement,
    "asked": Director._asked,
    "paid": Director._paid_event,
    "tile_placed": Director._tile_placed,
    "cards_returned": Director._cards_returned,
    PHRASE: Director._phrase,
    **dict.fromkeys(CUES, Director._cue),
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
    }
)
