"""The table scene: board, players, negotiation panel, hand fan, log and animations.

It talks only to a Session (views, legal actions, redacted events), so the same scene
serves hot-seat play (LocalSession) and a LAN seat (NetSession; the public table display
is a subclass, table/display.py). Hot-seat hand-offs: when the
seat whose private decision is needed is a different human from the one looking, the
table shows a full-screen "Pass to …" screen first (never with a single human).

The scene holds the state (view, legal moves, toast) and the frame loop, and owns one
collaborator a job: `popup` (the selected card's choices, card_popup.py), `pointer` (the
mouse on hand, board and plates, pointer.py), `key_commands` (what its keys do, commands.py),
`tips` (tooltips on drawn things, tips.py), `painter` (the picture and its pulses,
painter.py), `handover` (the hand-off screen and the results, handover.py) and
`director` (events become animation, anim.py).
"""

from __future__ import annotations

import pygame

from game.rules import LegalActions
from game.rules.seat_view import SeatView

from ..drawing import draw
from ..drawing.widgets import Button, _label, draw_tooltip
from ..i18n import tr
from ..screen import router
from ..screen.router import Route
from ..screen.scene import TIP_DELAY, Scene
from . import layout as L
from .anim import Director
from .board import BoardRenderer
from .card_popup import CardPopup, playable
from .commands import TableCommands
from .discard import DiscardPicks, cards_to_discard
from .hand import HandFan
from .handover import TableHandover
from .hints import TableHints
from .host_away import HostAwayDialog
from .keys import TABLE_KEYMAPS, Overlay, panel_state
from .lag import LagMeter
from .log import LogPanel
from .losses import LOSS_SECONDS, LossWatcher
from .painter import TablePainter
from .panel import ActionPanel
from .panels.geometry import row_seats, row_step, rows_top
from .players import RING_SPEED, RING_STEPS, PlayerPlates
from .pointer import TablePointer, in_history
from .tips import TableTips


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



class TableScene(Scene):
    name = "table"
    animated = False  # animations, countdowns and glows say so: look() and pulses()
    clip_union = True  # a frame is mostly one blit of the base layer: see Scene.clip_union
    # a whole number of steps a ring's pulse: while the loop idles it moves the table's
    # clock on by whole steps (App.frame), so the ring's colours come round and its strips
    # are blitted back from kept copies like the glows' (game/ui/drawing/patches.py)
    pulse_step = 1 / (RING_SPEED * RING_STEPS)

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
        self.losses = LossWatcher()  # what a person here lost, said at once (losses.py)
        self.director = Director(self)
        self.lag = LagMeter()  # per version: when it arrived, when it was shown (bench/lag.py)
        self.director.tweens.speed = app.config.speed_factor
        self.history = MoneyHistory(self.n)
        self.hints = TableHints(self, self.n)
        self.host_away = HostAwayDialog(session, self.leave_table)  # LAN: the host went away
        self.popup = CardPopup(self)
        self.pointer = TablePointer(self)
        self.key_commands = TableCommands(self)
        self.tips = TableTips(self)
        self.painter = TablePainter(self)
        self.handover = TableHandover(self)
        self.toast: tuple[str, float, str] | None = None  # (text, seconds left, kind)
        self.on_exit = on_exit
        self.results = results
        self._catch_up = catch_up
        self.v = first
        self._seen: tuple[dict, SeatView] | None = None  # (the view, read typed)
        self.legal = LegalActions()
        self.multi = len(session.seats_local) > 1
        self.auto_results = True
        self._serial = session.serial  # LAN: which game this table shows
        self.log_buttons: list[Button] = []

    # -- geometry the animations and the coach use ----------------------------------------

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
        return self.seen.board.tile(tile).price

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
            if self.seen.negotiation is None:
                return None
            n = len(row_seats(self.seen))
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

    # -- the card pop-up, as the panel, the coach, the hints and autoplay see it ------------

    @property
    def card_buttons(self) -> list[Button]:
        return self.popup.buttons

    @property
    def card_actions(self) -> list:
        return self.popup.actions

    def option_rect(self, wanted) -> pygame.Rect | None:
        """The selected card's pop-up button whose move `wanted(action)` accepts."""
        return self.popup.option_rect(wanted)

    def travel_targets(self) -> dict:
        return self.popup.travel_targets()

    def open_card_buttons(self) -> list[Button]:
        """The card's pop-up, unless the history lies over it."""
        return [] if self.log.expanded else self.popup.buttons

    # -- acting --------------------------------------------------------------------------

    def send(self, action) -> None:
        if action is None:
            return
        by_keyboard = self.hand.focus is not None and self.hand.selected == self.hand.focus
        self.hand.selected = None
        self.panel.travel_choice = None
        self.popup.travel_confirm = None
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

    def show_results(self) -> None:
        """The game's results (the panel's button, or by itself: handover.py)."""
        self.handover.show_results()

    # -- scene hooks -------------------------------------------------------------------

    def exit(self) -> None:
        if self not in self.app.stack.scenes:
            self.session.close()  # the bots' worker thread

    def layout(self) -> None:
        self.panel._key = None
        self.popup.forget()
        self._refresh()

    @property
    def seen(self) -> SeatView:
        """The viewer's view, typed: read from the session's map once per view (the session
        keeps one map per version, a LAN client the one it follows by deltas)."""
        hit = self._seen
        if hit is None or hit[0] is not self.v:
            hit = self._seen = (self.v, SeatView.from_data(self.v))
        return hit[1]

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
        hand = {card.key: n for card, n in self.seen.hand_cards().items()}
        self.hand.set_hand(hand, playable(self.legal))
        self.discard.follow(self.hand.cards, cards_to_discard(self.seen, s.viewer))
        self.hand.marked = frozenset(self.discard.marked)
        panel = self.panel.rebuild(self.seen, self.legal, s.viewer)
        self.popup.rebuild()
        self.log_buttons = self.log.widgets(self._log_changed)
        # the log's buttons lie over everything (the history covers the board and the hand),
        # then the card's pop-up, then the panel
        self.set_widgets(
            self.host_away.buttons + self.log_buttons + self.open_card_buttons() + list(panel)
        )

    def _log_changed(self) -> None:
        self.log_buttons = self.log.widgets(self._log_changed)
        self.set_widgets(
            self.host_away.buttons
            + self.log_buttons
            + self.open_card_buttons()
            + list(self.panel.widgets)
        )

    def _page_log(self, lines: int) -> bool:
        self.log.scroll_by(lines)
        self._log_changed()
        return True

    def set_widgets(self, widgets: list) -> None:
        """The scene's widgets, each button with the key cap of its command here."""
        self.widgets = widgets
        self.keymap().show_caps(widgets)
        self.invalidate()

    # -- input -------------------------------------------------------------------------

    def handle(self, event) -> bool:
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
            self.pointer.moved(event.pos)
        if self.host_away.buttons:  # modal: nothing else at the table reaches the host
            if event.type == pygame.KEYDOWN:
                self.press(event.key)  # its own keymap (Overlay.HOST_AWAY)
            else:
                self.host_away.handle(event)
            return True
        if event.type == pygame.MOUSEWHEEL and (
            L.LOG.collidepoint(self.mouse) or in_history(self.log, self.mouse)
        ):
            self.log.scroll_by(event.y)
            self._log_changed()
            return True
        if super().handle(event):  # the widgets, then the keys (self.keymap())
            if self in self.app.stack.scenes:  # not left for another scene
                self._refresh()
            return True
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            return self.pointer.press(event.pos)
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            return self.pointer.release(event.pos)
        return False

    # -- keys (bindings: keys.py; what they do: commands.py) ---------------------------------

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
        return self.KEYMAPS[overlay, panel_state(self.seen)]

    def commands(self) -> dict:
        return self.key_commands.by_name()

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
            told = []
            for e in batch.events:
                self.log.add(e)
                self.history.feed(e)
                for loss in self.losses.observe(e, s.seats_local):
                    self.log.add(loss)  # the log keeps it
                    told.append(self.log.describe(loss))
            if told and not (quiet or batch.catch_up):
                self.toast = (" ".join(told), LOSS_SECONDS, "loss")
            self.hints.observe(batch.events)
            if quiet or batch.catch_up:
                self.director.settle(batch.events)
            else:
                self.director.feed(batch.events, s.viewer)
            d = self.director
            shown = d.clock + d.cursor
            self.lag.arrived(batch.version, self.t - dt, shown, max(shown, d.horizon))
        self.director.update(dt)
        self.lag.tick(self.t, self.director.clock, not self.director.busy())
        if self.host_away.sync() or changed or self.seen.version != self._version():
            self._refresh()
        if self.discard.queue:
            self._send_queued_discard()
        self.hand.update(dt, self.mouse)
        self.lag.hand_gap(self.t, self.hand.empty_slot())
        self.tips.follow()
        if self.toast is not None:
            text, left, kind = self.toast
            self.toast = (text, left - dt, kind) if left > dt else None
        self.handover.step(dt)  # the hand-off screen, or the results

    def _version(self) -> int:
        return self.session.view(self.session.viewer)["version"]

    # -- what changed since the picture last shown (the drawing itself: painter.py) ----------

    def look(self):
        """The static layer (rebuilt when a part is new: a plate's grace time, a log line),
        the session's notice, and the time itself while anything moves: animations, a card
        lifting, a toast, a tooltip waiting to come up (its delay counts drawn frames)."""
        self.painter.base_layer()
        moving = (
            self.director.moving()
            or self.hand.moving()
            or self.toast is not None
            or self.tips.waiting()
        )
        return self.painter.base_key, self.painter.notice_text(), self.t if moving else None

    def pulses(self) -> list[tuple[object, pygame.Rect]]:
        """Where draw() paints something that changes with time alone (painter.pulses)."""
        return super().pulses() + self.painter.pulses()

    def draw(self, surface) -> None:
        self.painter.draw(surface)

    def _draw_public_hand_note(self, surface) -> None:
        """Where the hand would be when no seat is looked at (the display draws its own)."""
        text = tr("table.spectating") if not self.session.seats_local else tr("table.hand_hidden")
        img = draw.text(text, 26, (170, 190, 180))
        surface.blit(img, img.get_rect(center=L.HAND.center))

    def tooltip_avoid(self) -> tuple[pygame.Rect, ...]:
        """What no tooltip may cover besides what it explains: the selected card's pop-up
        (the lesson adds its coach)."""
        return tuple(b.rect for b in self.popup.buttons)

    def draw_tooltip(self, surface) -> None:
        """A widget's tooltip, else one on the drawn thing under the pointer (tips.py)."""
        if self.hand.drag is not None:
            return
        keep = self.tooltip_avoid()
        if self._hover is not None:
            if self._hover_t >= TIP_DELAY:
                tip = _label(self._hover.tooltip())
                if tip:
                    draw_tooltip(surface, tip, self.mouse, avoid=(self._hover.rect, *keep),
                                 prefer=(*self.tips.titles(), *self.other_controls(self._hover)))  # fmt: skip
            return
        self.tips.draw(surface, keep)
