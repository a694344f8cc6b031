"""The table scene: board, players, negotiation panel, hand fan, log and animations.

It talks only to a Session (views, legal actions, redacted events), so the same scene
serves hot-seat play (LocalSession) and a LAN seat (NetSession; the public table display
is a subclass, table/display.py). Hot-seat hand-offs: when the
seat whose private decision is needed is a different human from the one looking, the
table shows a full-screen "Pass to …" screen first (never with a single human).
"""

from __future__ import annotations

import pygame

from game.rules import (
    Discard,
    LayClan,
    LegalActions,
    PlaceMarker,
    PlayBoss,
    PlayStop,
    PlayTravel,
    Recruit,
    SourceKind,
)
from game.rules.cards import card_from_key
from game.rules.explain import card_play_reason

from .. import cardart, draw, i18n, router
from ..i18n import tr
from ..router import Route
from ..scene import TIP_DELAY, Scene
from ..theme import CLAN_KEYS, CLAN_LETTERS, GOLD, TEXT, THEME
from ..widgets import Button, _label, draw_tooltip
from . import hand as hand_mod
from . import layout as L
from .anim import Director
from .board import BoardRenderer, space_rules_text
from .discard import DiscardPicks, cards_to_discard
from .hand import HandFan
from .hints import HINT_PULSE, TableHints
from .host_away import HostAwayDialog
from .keys import TABLE_KEYMAPS, Overlay, panel_state
from .log import LogPanel, clan_word
from .panel import TARGET_PULSE, ActionPanel, fill_slots
from .panels.geometry import row_seats, row_step, rows_top
from .panels.window import countdown_area, countdown_look
from .players import PlayerPlates

LOG_PAGE = 8  # lines PageUp / PageDown move the log
OWN_TARGET = (240, 130, 90)  # the glow of a Travel target that is the viewer's own
MAX_LAG = 2.5  # seconds of queued animation a live (LAN) table may fall behind


class MoneyHistory:
    """Each player's money after every closed deal, from the (public) payment events."""

    def __init__(self, n: int) -> None:
        self.money = [0] * n
        self.points: list[tuple[int, ...]] = [tuple(self.money)]
        self.boss_deals = [0] * n

    def feed(self, e: dict) -> None:
        t = e["type"]
        if t == "paid":
            if e["payer"] >= 0:
                self.money[e["payer"]] -= e["amount"]
            self.money[e["payee"]] += e["amount"]
        elif t == "deal_closed":
            self.boss_deals[e["boss"]] += 1
        elif t == "tile_placed":
            self.points.append(tuple(self.money))
        elif t == "game_over":
            self.money = list(e["money"])
            if self.points and len(self.points) > 1:
                self.points[-1] = tuple(self.money)
            else:
                self.points.append(tuple(self.money))


def not_playable_text(v: dict, key: str) -> str:
    """Why the selected card has no play now, from the rule the engine names."""
    reason = card_play_reason(v, key)
    text_key = f"reason.{reason}"
    return tr(text_key) if reason and i18n.has(text_key) else tr("table.cannot_play")


def card_tip(key: str) -> str:
    if key.startswith("clan_"):
        body = tr("tip.card.clan", clan=clan_word(key[5:]))
    elif key == "travel_grey":
        body = tr("tip.card.travel_grey")
    elif key.startswith("travel_"):
        body = tr("tip.card.travel", clan=clan_word(key[7:]))
    else:
        body = tr(
            {"boss": "tip.card.boss", "recruit": "tip.card.recruit", "stop": "tip.card.stop"}[key]
        )
    return f"{cardart.card_title(key)}\n{body}"


def card_key_of(action) -> str | None:
    """The kind of card a move plays from the hand ("clan_c", "travel_grey", "boss"...), the
    fan's key for it; None for a move that uses no card."""
    if isinstance(action, LayClan):
        return "clan_" + CLAN_KEYS[int(action.clan)]
    if isinstance(action, (PlayTravel, Discard)):
        return action.card.key
    return CARD_MOVES.get(type(action))


#: the moves that play the one card of their kind
CARD_MOVES = {PlayBoss: "boss", Recruit: "recruit", PlayStop: "stop"}

PLACE_PULSE = draw.Pulse(100, 155)  # where the marker can go
NOTICE_PULSE = draw.Pulse(150, 90, 1.2)  # the edge of the session's notice


class TableScene(Scene):
    name = "table"
    animated = False  # animations, countdowns and glows say so: look() and pulses()
    clip_union = True  # a frame is mostly one blit of base_layer(): see Scene.clip_union

    def __init__(self, app, session, on_exit=None, results=None, catch_up=False) -> None:
        """`on_exit`: "play again" on the results; `results(table)`: the results scene to
        show instead of the hot-seat one; `catch_up`: the session's first batches are a
        game replayed (a restored autosave): log them, do not animate them."""
        super().__init__(app)
        self.session = session
        first = session.view(session.viewer)
        self.names = [p["name"] for p in first["players"]]
        self.n = len(self.names)
        self.board = BoardRenderer()
        self.plates = PlayerPlates()
        self.plates.layout(self.n)
        self.panel = ActionPanel(self)
        self.hand = HandFan()
        self.discard = DiscardPicks()  # over the hand limit: marked, then confirmed
        self.log = LogPanel(self.names)
        self.director = Director(self)
        self.director.tweens.speed = app.config.speed_factor
        self.history = MoneyHistory(self.n)
        self.hints = TableHints(self, self.n)
        self.host_away = HostAwayDialog(session, self.leave_table)  # LAN: the host went away
        self.toast: tuple[str, float, str] | None = None  # (text, seconds left, kind)
        self.on_exit = on_exit
        self.results = results
        self._catch_up = catch_up
        self.v = first
        self.legal = LegalActions()
        self._results_timer: float | None = None
        self.results_shown = False
        self.multi = len(session.seats_local) > 1
        self.auto_results = True
        self._serial = session.serial  # LAN: which game this table shows
        self._tip: tuple[str, float, tuple] | None = None  # (text, since, key) pointed at
        self.card_buttons: list[Button] = []
        self.card_actions: list = []  # the move of each card button (None: not a move)
        self.log_buttons: list[Button] = []
        self.travel_confirm: PlayTravel | None = None  # a Travel on one's own source, asked
        self._card_key = None
        self._base: pygame.Surface | None = None
        self._base_key = None
        self._base_parts: list = []
        self._fan_in_base = False

    # -- geometry the animations use ----------------------------------------------------

    def seat_anchor(self, seat: int) -> tuple[int, int]:
        return self.plates.anchor(seat)

    def hand_anchor(self) -> tuple[float, float]:
        return L.HAND_CENTER

    def card_pos(self, card_id: int) -> tuple[int, int]:
        r = self.panel.card_rects.get(card_id)
        if r is None:
            x = L.RIGHT.x + 24 + 150 + 72 * card_id
            return (min(x, L.RIGHT.right - 60), L.RIGHT.y + 272)
        return r.center

    def source_pos(self, src) -> tuple[int, int]:
        kind, ref = src
        if kind == "placard":
            r = self.plates.placard_rects.get(ref)
            return r.center if r else L.NEGOTIATION_TABLE
        return self.card_pos(ref)

    def pool_pos(self) -> tuple[int, int]:
        return (L.CENTER.x + 60, L.CENTER.y + 300)

    def tile_price(self, tile: int) -> int:
        return self.v["board"]["tiles"][tile - 1]["price"]

    def widget_rect(self, name: str) -> pygame.Rect | None:
        """Where a named thing is on the table (None: not shown now): a widget by its name,
        an area ("board", "hand", "panel", "log", the middle of the board's "tiles",
        "deal_value" and "die", the negotiation's "rows"), "space.N", "plate.SEAT",
        "placard.CLAN" or "hand.CARD" (the first card of that kind in the fan). The
        tutorial's coach points at these and keeps them in view."""
        kind, _, ref = name.partition(".")
        areas = {"board": L.BOARD, "hand": L.HAND, "panel": L.RIGHT, "log": L.LOG,
                 "tiles": L.TILE_STACK_AREA, "deal_value": L.DEAL_VALUE, "die": L.DIE_AREA}  # fmt: skip
        if not ref and kind in areas:
            return areas[kind]
        if name == "rows":  # the negotiation's player rows
            if not self.v.get("negotiation"):
                return None
            n = len(row_seats(self.v))
            return pygame.Rect(L.RIGHT.x, rows_top(), L.RIGHT.width, n * row_step(n))
        if kind == "space" and ref.isdigit() and int(ref) < len(L.SPACES):
            return L.SPACES[int(ref)]
        if kind == "plate" and ref.isdigit() and int(ref) < len(self.plates.rects):
            return self.plates.rects[int(ref)]
        if kind == "placard" and ref.isdigit():
            return self.plates.placard_rects.get(int(ref))
        if kind == "hand" and ref in self.hand.cards and self.session.viewer is not None:
            return self.hand.card_rect(self.hand.cards.index(ref))
        for w in self.widgets:
            if w.name == name and w.visible:
                return w.rect
        return None

    def option_rect(self, wanted) -> pygame.Rect | None:
        """The selected card's pop-up button whose move `wanted(action)` accepts."""
        for b, a in zip(self.card_buttons, self.card_actions, strict=True):
            if a is not None and wanted(a):
                return b.rect
        return None

    # -- acting --------------------------------------------------------------------------

    def send(self, action) -> None:
        if action is None:
            return
        by_keyboard = self.hand.focus is not None and self.hand.selected == self.hand.focus
        self.hand.selected = None
        self.panel.travel_choice = None
        self.travel_confirm = None
        self.hints.hide()  # the player moved: the hint was for the move before
        self.session.send(action)
        self._refresh()
        if by_keyboard and self.hand.focus is not None:  # the keys stay where they were
            self.hand.selected = self.hand.focus
            self._refresh()

    def leave_table(self) -> None:
        """Leave a LAN table whose host went away (the dialog's Leave): to the title."""
        self.session.abandon()
        self.app.replace(router.scene(Route.TITLE, self.app))

    def say(self, key: str) -> None:
        if self.session.viewer is not None:
            self.session.say(self.session.viewer, key)

    def show_results(self) -> None:
        if self.results_shown:
            return
        self.results_shown = True
        if self.results is not None:
            self.app.replace(self.results(self))
            return
        finished = self.session.finished_game()  # a hot-seat game: kept for its replay
        if finished is not None and self.app.persist:
            self.session.keep_finished()
        self.app.replace(
            router.scene(
                Route.RESULTS,
                self.app,
                self.session.view(None),
                self.history,
                self.names,
                restart=self.on_exit,
                replay=finished and finished.game,
                replay_seats=finished and finished.seats,
                played_by=[self.session.seat_info(s) for s in range(self.n)],
            )
        )

    # -- scene hooks -------------------------------------------------------------------

    def exit(self) -> None:
        if self not in self.app.stack.scenes:
            self.session.close()  # the bots' worker thread

    def layout(self) -> None:
        self.panel._key = None
        self._card_key = None
        self._refresh()

    def relayout(self) -> None:
        self.layout()

    @property
    def addressed(self) -> int | None:
        """The seat the panel speaks to as "you": the viewer when this screen plays it; None
        for a replay, the display and a seat the bots play out (they read whose turn it is)."""
        s = self.session
        return s.viewer if s.viewer is not None and s.viewer in s.seats_local else None

    def _refresh(self) -> None:
        s = self.session
        self.v = s.view(s.viewer)
        self.legal = s.legal(s.viewer) if s.viewer is not None else LegalActions()
        hand = self.v.get("hand") or {}
        self.hand.set_hand(hand, self._playable())
        self.discard.follow(self.hand.cards, cards_to_discard(self.v, s.viewer))
        self.hand.marked = frozenset(self.discard.marked)
        panel = self.panel.rebuild(self.v, self.legal, s.viewer)
        self._card_options()
        self.log_buttons = self.log.widgets(self._log_changed)
        # the log's buttons lie over everything (the history covers the board and the hand),
        # then the card's pop-up, then the panel
        self.set_widgets(
            self.host_away.buttons + self.log_buttons + self._open_card_buttons() + list(panel)
        )

    def _log_changed(self) -> None:
        self.log_buttons = self.log.widgets(self._log_changed)
        self.set_widgets(
            self.host_away.buttons
            + self.log_buttons
            + self._open_card_buttons()
            + list(self.panel.widgets)
        )

    def set_widgets(self, widgets: list) -> None:
        """The scene's widgets, each button with the key cap of its command here."""
        self.widgets = widgets
        self.keymap().show_caps(widgets)
        self.invalidate()

    def _open_card_buttons(self) -> list[Button]:
        """The card's pop-up, unless the history lies over it."""
        return [] if self.log.expanded else self.card_buttons

    def _in_history(self, pos) -> bool:
        return self.log.expanded and L.LOG_FULL.collidepoint(pos)

    def _playable(self) -> set[str]:
        return {key for a in self.legal.fixed if (key := card_key_of(a)) is not None}

    def options_for(self, key: str) -> list:
        """Every legal action that uses a card of this kind."""
        return [a for a in self.legal.fixed if card_key_of(a) == key]

    def _card_options(self) -> None:
        sel = self.hand.selected
        key = None if sel is None or sel >= len(self.hand.cards) else self.hand.cards[sel]
        if self.travel_confirm is not None and (
            key is None or card_from_key(key) != self.travel_confirm.card
        ):
            self.travel_confirm = None  # the card it asked about is no longer selected
        confirm = self.travel_confirm
        sig = (key, sel, self.v["version"], THEME.epoch, self.panel.travel_choice, confirm)
        sig += (tuple(self.discard.marked),)
        if sig == self._card_key:
            return
        self._card_key = sig
        self.card_buttons = []
        self.card_actions = []
        if key is None:
            return
        x, y = self.hand.anchor(sel)
        labels = self._confirm_labels(confirm) if confirm else self._option_labels(key)
        w = 300
        # above the raised card, clear of its frame (and of the back row's titles)
        bottom = min(L.HAND.y - 20, self.hand.rest_top() - 12, self.hand.raised_rect(sel).top - 16)
        top = bottom + 8 - 56 * len(labels)
        for i, (label, a, tip, style) in enumerate(labels):
            r = pygame.Rect(0, top + i * 56, w, 48)
            # over the board, never over the panel's buttons on the right
            r.centerx = int(min(max(x, L.HAND.x + w // 2), L.RIGHT.x - 8 - w // 2))
            act = a if callable(a) else (lambda a=a: self.send(a))
            b = Button(
                r,
                label,
                act if a is not None else None,
                style=style,
                size=22,
                enabled=a is not None,
                name=f"card.opt.{i}",
                tip=tip,
                # Enter plays the first option that can be played
                command="" if a is None or any(c.enabled for c in self.card_buttons)
                else "hand.play",
                disabled_reason=tip,  # a label, not a move: it says what stands in the way
            )
            self.card_buttons.append(b)
            self.card_actions.append(None if a is None or callable(a) else a)

    def _option_labels(self, key: str) -> list[tuple[str, object, str, str]]:
        """(label, action or None, tooltip, button style) for each way to use the selected card; a card
        with none says which rule stands in the way."""
        opts = self.options_for(key)
        labels = []
        unneeded = []  # a Clan card the deal does not need: offered last, and says so
        pool_first = bool(self.v["pool"])
        for a in opts:
            if isinstance(a, LayClan) and not self.clan_needed(int(a.clan)):
                unneeded.append((tr("table.lay_card_unneeded"), a, tr("tip.lay_card"), "normal"))
            elif isinstance(a, LayClan):
                labels.append((tr("table.lay_card"), a, tr("tip.lay_card")))
            elif isinstance(a, PlayBoss):
                labels.append((tr("table.play_boss"), a, tr("tip.card.boss")))
            elif isinstance(a, Recruit):
                tip = tr("tip.recruit_clan", clan=clan_word(int(a.clan)))
                if pool_first:
                    tip += "\n" + tr("tip.recruit_pool_first")
                labels.append((tr("table.recruit_clan", clan=clan_word(int(a.clan))), a, tip))
            elif isinstance(a, PlayStop):
                labels.append((tr("card.stop") + "!", a, tr("tip.card.stop")))
            elif isinstance(a, Discard):
                labels += self._discard_labels(self.hand.selected)
        labels = [(*entry, "primary") for entry in labels] + unneeded
        if any(isinstance(a, PlayTravel) for a in opts):
            self.panel.travel_choice = key
            own = any(self._own_target(t) for t in self.travel_targets())
            hint = tr("tip.pick_target") + ("\n" + tr("tip.travel_own") if own else "")
            labels.insert(0, (tr("table.pick_target"), None, hint, "ghost"))
        if not opts:
            text = not_playable_text(self.v, key)
            labels.append((text, None, tr("table.cannot_play") + ": " + text, "ghost"))
        return labels

    def _discard_labels(self, i: int) -> list[tuple[str, object, str]]:
        """Over the hand limit: mark a copy of the selected pile, keep a marked one again, or
        both (a pile with some of its copies marked while more are needed)."""
        mark, keep = self._pile_choices(i)
        out = []
        if mark is not None:
            out.append((tr("action.discard"), lambda: self._toggle_discard(mark), tr("tip.discard")))
        if keep is not None:
            out.append((tr("table.discard_keep"), lambda: self._toggle_discard(keep), tr("tip.discard")))
        return out

    def _pile_choices(self, i: int) -> tuple[int | None, int | None]:
        copies = self.hand.groups[self.hand.group_index(i)].indices
        return self.discard.choices(copies, cards_to_discard(self.v, self.session.viewer))

    def _confirm_labels(self, a: PlayTravel) -> list[tuple[str, object, str, str]]:
        """Travel aimed at the viewer's own placard or laid card: ask first."""
        if a.target.kind is SourceKind.CARD:
            what = tr("table.your_card")
        else:
            what = tr("log.src.placard", clans=CLAN_LETTERS[a.target.ref])
        question = tr("table.travel_own_ask", target=what)

        def cancel():
            self.travel_confirm = None
            self._refresh()

        return [
            (question, None, question, "ghost"),
            (tr("table.travel_own_yes"), a, tr("tip.travel_own"), "primary"),
            (tr("ui.cancel"), cancel, tr("tip.travel_own_cancel"), "ghost"),
        ]

    def _own_target(self, target) -> bool:
        """Whether a travel target (kind, ref) is the viewer's own placard or laid card."""
        me = self.session.viewer
        if me is None:
            return False
        kind, ref = target
        if kind == "placard":
            return ref in self.v["players"][me]["placards"]
        laid = (self.v.get("negotiation") or {}).get("laid", [])
        return any(c["id"] == ref and c["owner"] == me for c in laid)

    def play_travel(self, a: PlayTravel) -> None:
        """Send a Travel play, asking first when it aims at the viewer's own source."""
        if self._own_target((a.target.kind.value, a.target.ref)) and self.travel_confirm != a:
            self.travel_confirm = a
            self._card_key = None
            self._refresh()
            return
        self.send(a)

    def clan_needed(self, clan: int) -> bool:
        """Whether the open deal still wants a source of this clan: its space uses the clan
        and no committed source fills that slot yet (a Clan card laid otherwise is wasted)."""
        neg = self.v.get("negotiation")
        if neg is None:
            return True
        space = self.v["board"]["spaces"][neg["space"]]
        committed = set(neg["committed"])
        for _kind, clans, k, got in fill_slots(space, committed, None):
            if clan in clans and clan not in committed and len(got) < k:
                return True
        return False

    def travel_targets(self) -> dict[tuple, PlayTravel]:
        key = self.panel.travel_choice
        if key is None:
            return {}
        card = card_from_key(key)
        out = {}
        for a in self.legal.fixed:
            if isinstance(a, PlayTravel) and a.card == card:
                out[(a.target.kind.value, a.target.ref)] = a
        return out

    # -- input -------------------------------------------------------------------------

    def handle(self, event) -> bool:
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
            if self.hand.press is not None and self.hand.drag is None:
                i, start = self.hand.press
                if abs(event.pos[0] - start[0]) + abs(event.pos[1] - start[1]) > 14:
                    self.hand.drag = i
            if self.hand.drag is not None:
                self.hand.drag_pos = event.pos
        if self.host_away.buttons:  # modal: nothing else at the table reaches the host
            if event.type == pygame.KEYDOWN:
                self.press(event.key)  # its own keymap (Overlay.HOST_AWAY)
            else:
                self.host_away.handle(event)
            return True
        if event.type == pygame.MOUSEWHEEL and (
            L.LOG.collidepoint(self.mouse) or self._in_history(self.mouse)
        ):
            self.log.scroll_by(event.y)
            self._log_changed()
            return True
        if super().handle(event):  # the widgets, then the keys (self.keymap())
            if self in self.app.stack.scenes:  # not left for another scene
                self._refresh()
            return True
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            return self._press(event.pos)
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            return self._release(event.pos)
        return False

    def _press(self, pos) -> bool:
        if self._in_history(pos):
            return True  # the history lies over the board and the hand
        i = self.hand.at(pos)
        if i is not None:
            self.hand.press = (i, pos)
            return True
        # travel target?
        for (kind, ref), a in self.travel_targets().items():
            r = (
                self.plates.placard_rects.get(ref)
                if kind == "placard"
                else self.panel.card_rects.get(ref)
            )
            if r is not None and r.inflate(8, 8).collidepoint(pos):
                self.play_travel(a)
                return True
        # place the marker?
        for a in self.legal.fixed:
            if isinstance(a, PlaceMarker) and L.SPACES[a.space].collidepoint(pos):
                self.send(a)
                return True
        if self.hand.selected is not None and not L.HAND.collidepoint(pos):
            self.hand.selected = None
            self.panel.travel_choice = None
            self._refresh()
        return False

    def _release(self, pos) -> bool:
        press, self.hand.press = self.hand.press, None
        drag, self.hand.drag = self.hand.drag, None
        if press is None:
            return False
        i = press[0]
        if drag is None:
            if self._discard_at_once(i):
                return True
            if i < len(self.hand.cards):
                self.hand.focus = None  # the mouse took over
                self.hand.selected = None if self.hand.selected == i else i
                if self.hand.selected is None:
                    self.panel.travel_choice = None
                self._refresh()
            return True
        # dropped a card
        key = self.hand.cards[i] if i < len(self.hand.cards) else None
        if key is None:
            return True
        opts = self.options_for(key)
        for a in opts:
            if isinstance(a, PlayTravel):
                r = (
                    self.plates.placard_rects.get(a.target.ref)
                    if a.target.kind is SourceKind.PLACARD
                    else self.panel.card_rects.get(a.target.ref)
                )
                if r is not None and r.inflate(16, 16).collidepoint(pos):
                    self.hand.selected = i
                    self.play_travel(a)
                    return True
        plain = [
            a
            for a in opts
            if not isinstance(a, (PlayTravel, Recruit))
            and not (isinstance(a, LayClan) and not self.clan_needed(int(a.clan)))
        ]
        if (
            pos[1] < L.HAND.y - 30
            and len(plain) == 1
            and not any(isinstance(a, Recruit) for a in opts)
        ):
            self.send(plain[0])
            return True
        self.hand.selected = i
        self._refresh()
        return True

    def _discard_at_once(self, i: int) -> bool:
        """Over the hand limit a click on a card that can only be discarded marks it (or
        keeps it again): one click per card, no pop-up; the panel's button confirms."""
        if self.v["phase"] != "discard" or i >= len(self.hand.cards):
            return False
        opts = self.options_for(self.hand.cards[i])
        if len(opts) != 1 or not isinstance(opts[0], Discard):
            return False
        self._mark_discard(i)
        return True

    def _mark_discard(self, i: int) -> None:
        """A click on card i's pile: mark one more copy to discard, else keep one again
        (nothing leaves the hand yet)."""
        mark, keep = self._pile_choices(i)
        self._toggle_discard(mark if mark is not None else keep)

    def _toggle_discard(self, i: int) -> None:
        """Mark card `i` (one copy) to discard, or keep it again if marked."""
        need = cards_to_discard(self.v, self.session.viewer)
        if not need:
            return
        if not self.discard.toggle(i, need):
            self.toast = (tr("table.discard_enough", n=need), 3.0, "info")
        self._refresh()

    def keep_all(self) -> None:
        """Esc or Keep all: no card stays marked."""
        if self.discard.clear():
            self._refresh()

    def confirm_discard(self) -> None:
        """Send the marked cards' discards (one by one, see DiscardPicks.next_action)."""
        if self.session.viewer is None or not self.discard.marked:
            return
        self.discard.confirm(self.session.viewer, self.hand.cards)
        self._send_queued_discard()

    def _send_queued_discard(self) -> None:
        action = self.discard.next_action(self.legal, self.session.busy)
        if action is not None:
            self.send(action)

    # -- keys (game/ui/table/keys.py) ---------------------------------------------------

    KEYMAPS = TABLE_KEYMAPS

    def keymap(self):
        if self.host_away.buttons:
            overlay = Overlay.HOST_AWAY
        elif self.panel.editor is not None:
            overlay = Overlay.EDITOR
        elif self.log.expanded:
            overlay = Overlay.HISTORY
        else:
            overlay = Overlay.NONE
        return self.KEYMAPS[overlay, panel_state(self.v)]

    def commands(self) -> dict:
        return {
            "table.escape": self._escape,
            "hint": self._hint_off,
            "hand.prev": lambda: self._step_hand(-1),
            "hand.next": lambda: self._step_hand(1),
            "hand.travel": self._travel_first,
            "log.page_back": lambda: self._page_log(LOG_PAGE),
            "log.page_on": lambda: self._page_log(-LOG_PAGE),
        }

    def _escape(self) -> bool:
        """Esc on the table: drop the selected card, else keep the cards marked to
        discard, else the pause menu."""
        if self.hand.selected is not None or self.panel.travel_choice:
            self.hand.selected = None
            self.panel.travel_choice = None
            return True
        if self.discard.marked:
            self.keep_all()
            return True
        from ..scenes.menu import PauseScene

        self.app.push(PauseScene(self.app, self))
        return True

    def _hint_off(self) -> bool:
        """H where no Hint button shows: with hints off, say why nothing shows."""
        off = self.hints.off_reason()
        if off is None:
            return False
        self.toast = (tr(off), 3.0, "info")
        return True

    def _step_hand(self, step: int) -> bool:
        """← →: the next pile in the fan (copies share one place)."""
        starts = self.hand.starts()
        if not starts:
            return False
        cur = self.hand.selected
        n = len(starts)
        at = (0 if step > 0 else n - 1) if cur is None else (starts.index(cur) + step) % n
        self.hand.selected = self.hand.focus = starts[at]
        self.panel.travel_choice = None
        return True

    def _travel_first(self) -> bool:
        targets = list(self.travel_targets().values()) if self.panel.travel_choice else []
        if targets:
            self.play_travel(targets[0])
        return bool(targets)

    def _page_log(self, lines: int) -> bool:
        self.log.scroll_by(lines)
        self._log_changed()
        return True

    # -- the frame ------------------------------------------------------------------------

    def update(self, dt: float) -> None:
        super().update(dt)
        s = self.session
        s.hold = self.director.busy()
        s.update(dt)
        if self._serial is not None and s.serial != self._serial and self.on_exit is not None:
            # LAN: a rematch started before this table showed its results: a fresh table
            self.on_exit()
            return
        changed = False
        quiet, self._catch_up = self._catch_up, False
        for batch in s.poll():
            changed = True
            if batch.toast or batch.error:
                self.toast = (batch.toast or tr("table.refused"), 3.0, batch.toast_kind)
            for e in batch.events:
                self.log.add(e)
                self.history.feed(e)
            self.hints.observe(batch.events)
            if quiet or batch.catch_up:
                self.director.settle(batch.events)
            else:
                self.director.feed(batch.events, s.viewer)
        if s.live and self.director.cursor > MAX_LAG:
            # over the network the table moves at the host's pace: rather than fall ever
            # further behind, jump to the end of what is queued
            self.director.finish()
        self.director.update(dt)
        if self.host_away.sync() or changed or self.v["version"] != self._version():
            self._refresh()
        if self.discard.queue:
            self._send_queued_discard()
        self.hand.update(dt, self.mouse)
        self._follow_tip()
        if self.toast is not None:
            text, left, kind = self.toast
            self.toast = (text, left - dt, kind) if left > dt else None
        # hot-seat: hand the screen over before someone else's private decision
        if self.multi and not self.director.busy():
            seat = s.decision_seat()
            if seat is not None and seat != s.viewer:
                self._hand_off(seat)
                return
        if self.v["phase"] == "game_over" and not self.director.busy() and self.auto_results:
            self._results_timer = (self._results_timer or 0.0) + dt
            if self._results_timer > 1.2:
                self.show_results()

    def _version(self) -> int:
        return self.session.view(self.session.viewer)["version"]

    def _hand_off(self, seat: int) -> None:
        from ..scenes.handoff import HandOffScene

        s = self.session
        s.viewer = None  # nothing private is drawn while the screen changes hands
        self.hand.selected = None
        self.panel.close_editor()
        self.panel.travel_choice = None
        self._refresh()

        def reveal(seat=seat):
            s.viewer = seat
            self._refresh()

        self.app.push(HandOffScene(self.app, seat, self.names[seat], reveal))

    # -- what changed since the picture last shown -------------------------------------------

    def look(self):
        """The static layer (rebuilt when a part is new: a plate's grace time, a log line),
        the session's notice, and the time itself while anything moves: animations, a card
        lifting, a toast, a tooltip waiting to come up (its delay counts drawn frames)."""
        self.base_layer()
        moving = (
            self.director.moving()
            or self.hand.moving()
            or self.toast is not None
            or (self._tip is not None and self.t - self._tip[1] < TIP_DELAY)
        )
        return self._base_key, self._notice_text(), self.t if moving else None

    def pulses(self) -> list[tuple[object, pygame.Rect]]:
        """Where draw() paints something that changes with time alone, and how it looks now:
        the ring round whoever the table waits for, the glows of placeable spaces, Travel
        targets and the coach's hint (their glow levels), the notice's edge, countdowns."""
        t = self.t
        out = super().pulses()
        # each rect just what its drawing covers (the ring's outline, a glow's spread), so
        # that a glow is not taken for one that the ring's colour reaches into (patches.py)
        out += [(colour, r) for colour, r in self.plates.rings(t, self.highlights()).values()]
        level = PLACE_PULSE.level(t)
        out += [(level, L.SPACES[a.space].inflate(16, 16)) for a in self.legal.fixed if isinstance(a, PlaceMarker)]
        level = TARGET_PULSE.level(t)
        for kind, ref in self.travel_targets():
            r = (self.plates.placard_rects if kind == "placard" else self.panel.card_rects).get(ref)
            if r is not None:
                out.append((level, r.inflate(20, 20)))
        if self.hints.text() is not None:
            target = self.hints.target_rect()
            if target is not None:
                out.append((HINT_PULSE.level(t), target.inflate(2 * 16 + 4, 2 * 16 + 4)))
        notice = self._notice_text()
        if notice:
            out.append((NOTICE_PULSE.alpha(t), self._notice_rect(notice).inflate(4, 4)))
        out += [(countdown_look(cd), countdown_area(cd.kind)) for cd in self.session.countdowns()]
        return out

    def highlights(self) -> dict[int, str]:
        v = self.v
        out = {}
        win = v.get("window")
        neg = v.get("negotiation")
        if win is not None:
            for s in win.get("asked") or []:
                out[s] = "asked"
        elif neg is not None:
            if neg.get("floor") is not None:
                out[neg["floor"]] = "floor"
        elif v["phase"] != "game_over":
            out[v["turn"]] = "turn"
        return out

    def base_layer(self) -> pygame.Surface:
        """Everything that changes only with the view, composed into one opaque surface:
        felt, ring, spaces, the middle of the board, player plates, the panel, the log.
        Rebuilt when one of its (cached) parts is a new surface; a frame then starts with
        a single blit."""
        v = self.v
        parts = [(self.board.layer(v), (0, 0)), (self.board.center(v), L.CENTER.topleft)]
        parts += self.plates.surfaces(v, self.session)
        parts.append(self.panel.static(v, self.addressed))
        parts.append(self.log.surface(L.LOG))
        fan = self.hand.settled_fan() if self.session.viewer is not None else None
        self._fan_in_base = fan is not None
        if fan is not None:
            parts.append((fan, hand_mod.FAN_AREA.topleft))
        neg = v.get("negotiation")
        key = (tuple(id(p[0]) for p in parts), None if neg is None else neg["space"])
        if key != self._base_key:
            base = draw.copy_of(parts[0][0])
            base.blit(parts[1][0], parts[1][1])
            if neg is not None:
                draw.draw_glow(
                    base, L.SPACES[neg["space"]], (120, 230, 140), radius=12, spread=10, alpha=200
                )
            for img, pos in parts[2:]:
                base.blit(img, pos)
            self._base = base
            self._base_key = key
            self._base_parts = parts  # keeps the parts alive, so their ids stay unique
        return self._base

    def draw(self, surface) -> None:
        v = self.v
        t = self.t
        surface.blit(self.base_layer(), (0, 0))
        for a in self.legal.fixed:  # placeable spaces glow
            if isinstance(a, PlaceMarker):
                draw.draw_glow(
                    surface,
                    L.SPACES[a.space],
                    GOLD,
                    radius=12,
                    spread=8,
                    alpha=PLACE_PULSE.alpha(t),
                )
        hover_space = self._space_at(self.mouse)
        if hover_space is not None:
            pygame.draw.rect(
                surface, (255, 255, 255), L.SPACES[hover_space], width=2, border_radius=12
            )
        self.director.draw_marker(surface, self.board, v.get("marker"))
        self.director.draw_die(surface, v.get("last_roll"))
        self.plates.draw_highlights(surface, t, self.highlights())
        targets = self.travel_targets()
        own = {tg for tg in targets if self._own_target(tg)}
        for kind, ref in targets:
            if kind == "placard" and ref in self.plates.placard_rects:
                draw.draw_glow(
                    surface,
                    self.plates.placard_rects[ref],
                    OWN_TARGET if (kind, ref) in own else GOLD,
                    radius=8,
                    spread=8,
                    alpha=TARGET_PULSE.alpha(t),
                )
        self.panel.draw_live(surface, v, self.session, t, set(targets) - own)
        self._mark_own_targets(surface, own, t)
        if self.session.viewer is not None:
            if not self._fan_in_base:
                self.hand.draw(surface)
            if not self.hand.cards:
                msg = draw.text(tr("table.empty_hand"), 24, (150, 170, 160))
                surface.blit(msg, msg.get_rect(center=L.HAND.center))
        else:
            self._draw_public_hand_note(surface)
        for b in self._open_card_buttons():
            b.draw(surface, t)
        self.hints.draw(surface, t)  # over the hand: a suggested card glows on top
        self.log.draw_history(surface)
        for b in self.log_buttons:
            b.draw(surface, t)
        self.director.draw(surface)
        self.director.draw_bubbles(surface, self.seat_anchor)
        if self.toast is not None:
            img = draw.fit(self.toast[0], 26, L.W - 200, TEXT, True)
            r = img.get_rect(center=(L.W // 2, L.HAND.y - 40)).inflate(40, 20)
            fill = (120, 40, 36) if self.toast[2] == "error" else (30, 84, 64)
            draw.draw_panel(surface, r, fill=fill, alpha=240)
            surface.blit(img, img.get_rect(center=r.center))
        if self.host_away.buttons:
            self.host_away.draw(surface, t)  # its title says what the notice would
        else:
            self._draw_notice(surface)

    def _mark_own_targets(self, surface, own: set, t: float) -> None:
        """The viewer's own placards and laid cards among Travel targets: another glow and
        a "yours" tag (aiming there asks first)."""
        tag = draw.text(tr("table.travel_own_tag"), 16, OWN_TARGET, True)
        for kind, ref in own:
            r = (self.plates.placard_rects if kind == "placard" else self.panel.card_rects).get(ref)
            if r is None:
                continue
            if kind == "card":
                draw.draw_glow(
                    surface,
                    r,
                    OWN_TARGET,
                    radius=8,
                    spread=8,
                    alpha=TARGET_PULSE.alpha(t),
                )
            if kind == "card":  # the owner's name is under a laid card: the tag goes above
                surface.blit(tag, tag.get_rect(midbottom=(r.centerx, r.top - 2)))
            else:
                surface.blit(tag, tag.get_rect(midtop=(r.centerx, r.bottom + 2)))

    def _notice_text(self) -> str | None:
        return self.session.notice()

    def _notice_rect(self, text: str) -> pygame.Rect:
        img = draw.fit(text, 30, L.CENTER.width - 60, TEXT, True)
        return img.get_rect(midtop=(L.CENTER.centerx, L.CENTER.y + 12)).inflate(56, 26)

    def _draw_notice(self, surface) -> None:
        """The session's line over the board (LAN: "Reconnecting…")."""
        text = self._notice_text()
        if not text:
            return
        img = draw.fit(text, 30, L.CENTER.width - 60, TEXT, True)
        r = self._notice_rect(text)
        glow = NOTICE_PULSE.alpha(self.t)
        draw.draw_panel(surface, r, fill=(120, 84, 20), alpha=240, radius=16)
        pygame.draw.rect(surface, (glow, glow, 120), r, width=3, border_radius=16)
        surface.blit(img, img.get_rect(center=r.center))

    def _draw_public_hand_note(self, surface) -> None:
        text = tr("table.spectating") if not self.session.seats_local else tr("table.hand_hidden")
        img = draw.text(text, 26, (170, 190, 180))
        surface.blit(img, img.get_rect(center=L.HAND.center))

    def _space_at(self, pos) -> int | None:
        if not L.BOARD.collidepoint(pos):
            return None
        for i, r in enumerate(L.SPACES):
            if r.collidepoint(pos):
                return i
        return None

    def tooltip_avoid(self) -> tuple[pygame.Rect, ...]:
        """What no tooltip may cover besides what it explains: the selected card's pop-up
        (the lesson adds its coach)."""
        return tuple(b.rect for b in self.card_buttons)

    def draw_tooltip(self, surface) -> None:
        if self.hand.drag is not None:
            return
        keep = self.tooltip_avoid()
        if self._hover is not None:
            if self._hover_t >= TIP_DELAY:
                tip = _label(self._hover.tooltip())
                if tip:
                    draw_tooltip(surface, tip, self.mouse, avoid=(self._hover.rect, *keep),
                                 prefer=self.other_controls(self._hover))  # fmt: skip
            return
        if self._tip is not None and self.t - self._tip[1] >= TIP_DELAY:
            pointed = self._pointed_tip()
            if pointed is not None and pointed[0] == self._tip[2]:
                fan = self.hand.fan_area()  # off the other cards' titles where it can
                draw_tooltip(surface, pointed[1], self.mouse, avoid=(pointed[2], *keep),
                             prefer=(*(() if fan is None else (fan,)),
                                     *self.other_controls(None)))  # fmt: skip

    def _follow_tip(self) -> None:
        """The drawn thing under the pointer and since when (the scene's clock): its
        tooltip comes up after TIP_DELAY of hovering, drawn or not in between."""
        pointed = self._pointed_tip() if self.hand.drag is None else None
        if pointed is None:
            self._tip = None
        elif self._tip is None or self._tip[2] != pointed[0]:
            self._tip = (pointed[1], self.t, pointed[0])

    def _pointed_tip(self) -> tuple[tuple, str, pygame.Rect] | None:
        """(key, text, rect) of the space, card, panel part or placard under the pointer."""
        tip = None
        key = None
        over: pygame.Rect | None = None
        if self._in_history(self.mouse):
            return None
        space = self._space_at(self.mouse)
        if space is not None:
            key = ("space", space)
            over = L.SPACES[space]
            tip = space_rules_text(self.v["board"], space, self.v["price"])
            if str(space) in self.v["covered"]:
                t = self.v["covered"][str(space)]
                tip = tr("deal.tile_number", n=t) + "\n" + tip
        elif (
            self.session.viewer is not None
            and self.hand.hover is not None
            and self.hand.hover < len(self.hand.cards)
            and self.hand.hover != self.hand.selected  # its pop-up says it now
        ):
            key = ("card", self.hand.hover)
            tip = card_tip(self.hand.cards[self.hand.hover])
            over = self.hand.card_rect(self.hand.hover)
        elif hint := next(
            (h for h in self.panel.hints(self.v) if h[0].collidepoint(self.mouse)), None
        ):
            key = ("hint", hint[1])
            tip = hint[1]
            over = hint[0]
        else:
            for clan, r in self.plates.placard_rects.items():
                if r.collidepoint(self.mouse):
                    key = ("placard", clan)
                    over = r
                    travelling = str(clan) in (
                        (self.v.get("negotiation") or {}).get("travel") or {}
                    )
                    tip = tr("tip.placard", clan=clan_word(clan)) + (
                        "\n" + tr("term.travelling") if travelling else ""
                    )
                    break
        if tip is None:
            return None
        return key, tip, over
