"""The LAN lobby: host a table, or join one.

Left, **Host a table**: its name, 2-6 seats, the bot kind for empty seats, the room code
(4 random letters, editable), the reaction windows (ask around, the default, or real time)
and the clocks (Stop window, "going once", negotiation and turn clocks), variants, hidden money, short game, and what this screen does: play too,
or show the public table display. Right, **Join a table**: the tables found on the network
(they appear and disappear as hosts announce and leave; polled each frame from a
`net.discovery.browse.BackgroundBrowser`, never blocking), each with its name, address, pace (its
window mode and seconds to answer), seats free and whether a code is needed; a typed HOST:PORT for networks where discovery is blocked;
the room code and your name; and "Rejoin <table>" when the last table joined left a seat
token in the settings.

Choices are kept in the settings. Hosting or joining opens the room (scenes/room.py) on
top; coming back here ends that connection.
"""

from __future__ import annotations

import contextlib

import pygame

from game.rules import WindowMode
from net import protocol as P

from .. import draw, router
from ..i18n import tr
from ..router import Route
from ..scene import Scene
from ..theme import BAD, GOLD, GOOD, TEXT, TEXT_DIM, WARN
from ..widgets import Button, Stepper, TextField, Toggle, Widget
from .common import backdrop, pace_text, section, title_bar
from .newgame import bot_kinds, default_bot, kind_label
from .settings import NEGOTIATION_CHOICES, VARIANTS, negotiation_shown

HOST_X, HOST_W = 80, 820
JOIN_X, JOIN_W = 1000, 840
ROW_H, ROWS = 66, 5  # a table's row; rows shown at most
STEP = 60  # from one row of the host pane to the next
LIST_BOTTOM = 636
LABEL_W = 290


WINDOW_MODES = [m.value for m in WindowMode]  # as the settings keep them


class TableRow(Widget):
    """One discovered table: name, address, seats free, code needed. Click to pick it."""

    def __init__(self, rect, table, selected: bool, on_click, name: str) -> None:
        self.rect = pygame.Rect(rect)
        self.table = table
        self.selected = selected
        self.on_click = on_click
        self.name = name
        self.hover = False
        self.enabled = True

    @property
    def compatible(self) -> bool:
        return self.table.protocol_version in P.SUPPORTED_VERSIONS

    def handle(self, event) -> bool:
        if event.type == pygame.MOUSEMOTION:
            self.hover = self.rect.collidepoint(event.pos)
        elif (
            event.type == pygame.MOUSEBUTTONUP
            and event.button == 1
            and self.rect.collidepoint(event.pos)
        ):
            self.on_click()
            return True
        elif (
            event.type == pygame.MOUSEBUTTONDOWN
            and event.button == 1
            and self.rect.collidepoint(event.pos)
        ):
            return True
        return False

    def draw(self, surface, t: float) -> None:
        t_ = self.table
        r = self.rect
        fill = (44, 80, 64) if self.selected else (34, 64, 52) if self.hover else (22, 46, 38)
        pygame.draw.rect(surface, fill, r, border_radius=12)
        edge = GOLD if self.selected else (60, 90, 76)
        pygame.draw.rect(surface, edge, r, width=3 if self.selected else 1, border_radius=12)
        ink = TEXT if self.compatible else TEXT_DIM
        right = r.right - 18
        if not self.compatible:
            tag, col = tr("lobby.other_version"), BAD
        elif t_.seats_free > 0:
            tag, col = tr("lobby.seats_free", n=t_.seats_free), GOOD
        else:
            tag, col = tr("lobby.full"), WARN
        img = draw.fit(tag, 22, 220, col, True)
        surface.blit(img, img.get_rect(midright=(right, r.centery)))
        right -= img.get_width() + 14
        if t_.code_required:
            code = draw.fit(tr("lobby.code_needed"), 16, 160, (20, 20, 20), True)
            box = pygame.Rect(0, 0, code.get_width() + 16, 24)
            box.midright = (right, r.centery)
            pygame.draw.rect(surface, (200, 200, 190), box, border_radius=12)
            surface.blit(code, code.get_rect(center=box.center))
            right = box.left - 14
        w = right - r.x - 20
        nm = draw.fit(draw.ellipsize(t_.name, 26, w, True), 26, w, ink, True)
        ad = draw.fit(f"{t_.host}:{t_.port}", 18, w, TEXT_DIM)
        _, at = draw.blit_stacked(surface, ((nm, 26, True), (ad, 18, False)), r.x + 18, r.centery, gap=8)
        if t_.pace is not None:  # how fast the table goes, before anyone joins
            x = r.x + 18 + ad.get_width() + 24
            pace = draw.fit(pace_text(t_.pace), 18, max(40, right - 20 - x), GOLD)
            surface.blit(pace, pace.get_rect(midleft=(x, at.centery)))


class LobbyScene(Scene):
    name = "lobby"

    def __init__(self, app, browser=None, code: str | None = None) -> None:
        """`browser`: something with start() / poll() / close() (default: a
        BackgroundBrowser, started on first entry); `code`: a room code to fill in."""
        super().__init__(app)
        self.browser = browser
        self._own_browser = browser is None
        self.tables: dict[str, object] = {}  # key -> TableFound, in order of appearance
        self.selected: str | None = None
        self.discovery_error: str | None = None
        self.join_code = (P.normalize_code(code) or "") if code else ""
        self.host_code = P.random_code()
        self.message: tuple[str, tuple] | None = None
        self.scroll = 0
        self.rows = ROWS
        self.list_rect = pygame.Rect(JOIN_X, 205, JOIN_W, LIST_BOTTOM - 205)
        self._started = False

    # -- lifecycle -------------------------------------------------------------------------

    def enter(self) -> None:
        from ..lan import close_link

        close_link(self.app)  # back from a room: that connection is over
        if not self._started:
            self._started = True
            if self.browser is None:
                from net.discovery.browse import BackgroundBrowser

                self.browser = BackgroundBrowser()
            try:
                self.browser.start()
            except Exception as exc:  # discovery is a convenience: typed addresses still work
                self.discovery_error = str(exc)
        super().enter()

    def exit(self) -> None:
        TextField.focused_field = None
        if self not in self.app.stack.scenes and self.browser is not None:
            self.browser.close()

    # -- widgets ---------------------------------------------------------------------------

    def layout(self) -> None:
        cfg = self.app.config
        kinds = bot_kinds()
        y = 205
        step = STEP
        hx, hw = HOST_X, HOST_W
        half = (hw - 20) // 2
        w: list[Widget] = [
            TextField(
                (hx + LABEL_W, y, hw - LABEL_W, 54),
                lambda: cfg.lan_table_name,
                lambda s: self._set("lan_table_name", s),
                placeholder=lambda: self._default_table_name(),
                max_len=40,
                name="host.name",
                size=24,
            ),
            Stepper(
                (hx, y + step, hw, 54),
                lambda: tr("newgame.seats"),
                [2, 3, 4, 5, 6],
                lambda: cfg.lan_seats,
                lambda v: self._set("lan_seats", v),
                name="host.seats",
                size=24,
                value_w=hw - LABEL_W,
            ),
            Stepper(
                (hx, y + 2 * step, hw, 54),
                lambda: tr("lobby.empty_seats"),
                kinds,
                lambda: cfg.lan_bot if cfg.lan_bot in bot_kinds() else default_bot(),
                lambda v: self._set("lan_bot", v),
                show=kind_label,
                name="host.bots",
                size=22,
                value_w=hw - LABEL_W,
                tip=lambda: tr("lobby.empty_seats.desc"),
            ),
            TextField(
                (hx + LABEL_W, y + 3 * step, 200, 54),
                lambda: self.host_code,
                self._set_host_code,
                placeholder="ABCD",
                max_len=4,
                name="host.code",
                size=28,
            ),
            Button(
                (hx + LABEL_W + 216, y + 3 * step, hw - LABEL_W - 216, 54),
                lambda: tr("lobby.new_code"),
                self._new_code,
                size=22,
                icon="die",
                name="host.new_code",
            ),
            Stepper(
                (hx, y + 4 * step, hw, 54),
                lambda: tr("settings.window_mode"),
                WINDOW_MODES,
                lambda: cfg.window_mode,
                lambda v: self._set("window_mode", v),
                show=lambda v: tr(f"settings.window_mode.{v}"),
                name="host.window_mode",
                size=22,
                value_w=hw - LABEL_W,
                tip=lambda: tr(f"lobby.window_mode.{cfg.window_mode}.desc"),
            ),
            Stepper(
                (hx, y + 5 * step, half, 54),
                lambda: tr("lobby.timer.stop"),
                [3, 4, 5, 6, 8, 10, 15],
                lambda: cfg.window,
                lambda v: self._set("window", v),
                show=lambda v: tr("window.countdown", s=v),
                name="host.window",
                size=22,
                tip=lambda: tr("settings.timer.stop_label"),
            ),
            Stepper(
                (hx + half + 20, y + 5 * step, half, 54),
                lambda: tr("lobby.timer.going_once"),
                [2, 3, 4, 5, 8],
                lambda: cfg.going_once,
                lambda v: self._set("going_once", v),
                show=lambda v: tr("window.countdown", s=v),
                name="host.going_once",
                size=22,
                tip=lambda: tr("settings.timer.going_once_label"),
            ),
            Stepper(
                (hx, y + 6 * step, half, 54),
                lambda: tr("lobby.timer.negotiation"),
                NEGOTIATION_CHOICES,
                lambda: cfg.negotiation,
                lambda v: self._set("negotiation", v),
                show=negotiation_shown("settings.off"),
                name="host.negotiation",
                size=22,
                tip=lambda: tr("settings.timer.negotiation_label"),
            ),
            Stepper(
                (hx + half + 20, y + 6 * step, half, 54),
                lambda: tr("lobby.timer.turn"),
                [0, 20, 30, 45, 60, 90],
                lambda: cfg.turn,
                lambda v: self._set("turn", v),
                show=lambda v: tr("settings.off") if v == 0 else tr("window.countdown", s=v),
                name="host.turn",
                size=22,
                tip=lambda: tr("lobby.timer.turn.desc"),
            ),
        ]
        vw = (hw - LABEL_W - 5 * 8) // 6
        for i, v in enumerate(VARIANTS):
            w.append(
                Button(
                    (hx + LABEL_W + i * (vw + 8), y + 7 * step, vw, 54),
                    v,
                    lambda v=v: self._variant(v),
                    style="primary" if v in cfg.variants else "normal",
                    size=22,
                    name=f"host.variant.{v}",
                    tip=lambda v=v: (
                        f"{tr('variant.' + v.lower())}\n{tr(f'variant.{v.lower()}.desc')}"
                    ),
                )
            )
        w += [
            Toggle(
                (hx, y + 8 * step, half, 54),
                lambda: tr("settings.hidden_money"),
                lambda: cfg.hidden_money,
                lambda val: self._set("hidden_money", val),
                tip=lambda: tr("settings.hidden_money.desc"),
                name="host.hidden_money",
                size=22,
            ),
            Toggle(
                (hx + half + 20, y + 8 * step, half, 54),
                lambda: tr("settings.short_game"),
                lambda: cfg.short_game,
                lambda val: self._set("short_game", val),
                tip=lambda: tr("settings.short_game.desc"),
                name="host.short_game",
                size=22,
            ),
            Stepper(
                (hx, y + 9 * step, hw, 54),
                lambda: tr("lobby.this_screen"),
                [False, True],
                lambda: cfg.lan_display,
                lambda v: self._set("lan_display", v),
                show=lambda v: tr("lobby.display") if v else tr("lobby.also_play"),
                name="host.display",
                size=22,
                value_w=hw - LABEL_W,
                tip=lambda: tr("lobby.display.desc"),
            ),
            Toggle(
                (hx, y + 10 * step, half, 54),
                lambda: tr("lobby.hints"),
                lambda: cfg.lan_hints,
                lambda val: self._set("lan_hints", val),
                tip=lambda: tr("lobby.hints.desc"),
                name="host.hints",
                size=22,
            ),
            Toggle(
                (hx + half + 20, y + 10 * step, half, 54),
                lambda: tr("lobby.open_bot_seats"),
                lambda: cfg.lan_open_bot_seats,
                lambda val: self._set("lan_open_bot_seats", val),
                tip=lambda: tr("lobby.open_bot_seats.desc"),
                name="host.open_bot_seats",
                size=22,
            ),
            Button(
                (hx, y + 11 * step + 10, hw, 80),
                lambda: tr("lobby.host"),
                self.host,
                style="primary",
                size=34,
                icon="crown",
                name="host.go",
            ),
        ]
        # the join pane
        jx, jw = JOIN_X, JOIN_W
        rejoin = bool(cfg.last_table_token and cfg.last_table_address)
        top = 282 if rejoin else 205
        self.list_rect = lst = pygame.Rect(jx, top, jw, LIST_BOTTOM - top)
        rows = (lst.height - 60) // (ROW_H + 2)
        self.rows = rows
        if rejoin:
            w.append(
                Button(
                    (jx, 205, jw, 60),
                    lambda: tr("lobby.rejoin", table=cfg.last_table_name or cfg.last_table_address),
                    self.rejoin,
                    style="good",
                    size=26,
                    name="join.rejoin",
                )
            )
        keys = list(self.tables)
        self.scroll = max(0, min(self.scroll, len(keys) - rows))
        for i, key in enumerate(keys[self.scroll : self.scroll + rows]):
            w.append(
                TableRow(
                    (lst.x + 14, lst.y + 54 + i * (ROW_H + 2), lst.width - 28, ROW_H),
                    self.tables[key],
                    key == self.selected,
                    lambda key=key: self.pick(key),
                    f"join.table.{self.scroll + i}",
                )
            )
        fy = LIST_BOTTOM + 24
        w += [
            TextField(
                (jx + LABEL_W, fy, jw - LABEL_W, 54),
                lambda: cfg.lan_address,
                lambda s: self._set("lan_address", s.strip()),
                placeholder="192.168.1.5:40123",
                max_len=64,
                name="join.address",
                size=24,
            ),
            TextField(
                (jx + LABEL_W, fy + 64, 200, 54),
                lambda: self.join_code,
                self._set_join_code,
                placeholder="ABCD",
                max_len=4,
                name="join.code",
                size=28,
            ),
            TextField(
                (jx + LABEL_W, fy + 128, jw - LABEL_W, 54),
                lambda: cfg.lan_name,
                lambda s: self._set("lan_name", s),
                placeholder=lambda: self._default_name(),
                max_len=24,
                name="join.name",
                size=24,
            ),
            Button(
                (jx, fy + 206, jw, 84),
                lambda: tr("lobby.join"),
                self.join,
                style="primary",
                size=34,
                name="join.go",
                hotkey=pygame.K_RETURN,
            ),
            Button(
                (HOST_X, 980, 300, 66),
                lambda: tr("ui.back"),
                self.back,
                style="ghost",
                size=26,
                name="back",
                hotkey=pygame.K_ESCAPE,
            ),
        ]
        self.widgets = w

    def _default_name(self) -> str:
        from ..lan import player_name

        return player_name(self.app.config)

    def _default_table_name(self) -> str:
        from ..lan import table_name

        return table_name(self.app.config)

    def _set(self, field: str, value) -> None:
        # every widget reads its value back through a callable: no relayout (which would
        # also take the focus from a text field being typed in)
        setattr(self.app.config, field, value)
        self.app.config.sanitize()

    def _set_host_code(self, s: str) -> None:
        self.host_code = "".join(c for c in s.upper() if "A" <= c <= "Z")[:4]

    def _set_join_code(self, s: str) -> None:
        self.join_code = "".join(c for c in s.upper() if "A" <= c <= "Z")[:4]

    def _new_code(self) -> None:
        self.host_code = P.random_code()

    def _variant(self, v: str) -> None:
        cfg = self.app.config
        s = set(cfg.variants)
        s.symmetric_difference_update({v})
        cfg.variants = sorted(s)
        self.app.apply_config()

    def _save(self) -> None:
        if self.app.persist:
            with contextlib.suppress(OSError):  # a read-only home never stops the lobby
                self.app.config.save()

    # -- discovery ---------------------------------------------------------------------------

    def pick(self, key: str) -> None:
        t = self.tables.get(key)
        if t is None:
            return
        self.selected = key
        self.app.config.lan_address = f"{t.host}:{t.port}"
        self.message = None
        self.layout()

    def update(self, dt: float) -> None:
        super().update(dt)
        if self.browser is None:
            return
        from net.discovery.browse import DiscoveryError, TableFound, TableLost

        changed = False
        for ev in self.browser.poll():
            if isinstance(ev, TableFound):
                self.tables[ev.key] = ev
                if ev.key == self.selected:
                    self.app.config.lan_address = f"{ev.host}:{ev.port}"
                changed = True
            elif isinstance(ev, TableLost):
                if self.tables.pop(ev.key, None) is not None:
                    changed = True
                if ev.key == self.selected:
                    self.selected = None
            elif isinstance(ev, DiscoveryError):
                self.discovery_error = ev.message
                changed = True
        if changed:
            self.layout()

    def handle(self, event) -> bool:
        if event.type == pygame.MOUSEWHEEL and self.list_rect.collidepoint(self.mouse):
            self.scroll = max(0, self.scroll - event.y)
            self.layout()
            return True
        return super().handle(event)

    # -- actions -------------------------------------------------------------------------------

    def join(self) -> None:
        from net.client.session import parse_address

        from .. import lan

        cfg = self.app.config
        address = cfg.lan_address.strip()
        try:
            parse_address(address)
        except ValueError:
            self.message = (tr("lobby.bad_address"), BAD)
            return
        code = P.normalize_code(self.join_code)
        if code is None:
            self.message = (tr("lobby.bad_code"), BAD)
            return
        TextField.focused_field = None
        self.message = None
        self._save()
        session = lan.join(self.app, address, code=code, name=lan.player_name(cfg))
        lan.open_room(self.app, session)

    def rejoin(self) -> None:
        from .. import lan

        cfg = self.app.config
        try:
            session = lan.join(self.app, cfg.last_table_address, token=cfg.last_table_token)
        except ValueError:
            lan.remember_table(self.app, None, None)
            self.layout()
            return
        lan.open_room(self.app, session)

    def host(self) -> None:
        from net.host.config import HostError

        from .. import lan

        code = P.normalize_code(self.host_code)
        if code is None:
            self.message = (tr("lobby.bad_code"), BAD)
            return
        TextField.focused_field = None
        self.message = None
        self._save()
        try:
            session = lan.host(self.app, code, display=self.app.config.lan_display)
        except (HostError, OSError) as exc:
            self.message = (tr("lobby.host_failed", reason=str(exc)[:80]), BAD)
            return
        lan.open_room(self.app, session)

    def back(self) -> None:
        TextField.focused_field = None
        self._save()
        if len(self.app.stack.scenes) > 1:
            self.app.pop()
        else:
            self.app.replace(router.scene(Route.TITLE, self.app))

    # -- drawing ------------------------------------------------------------------------------

    def draw(self, surface) -> None:
        backdrop(surface, self.t, cards=False)
        title_bar(surface, tr("lobby.title"), y=30)
        section(surface, tr("lobby.host_pane"), HOST_X, 140, HOST_W)
        section(surface, tr("lobby.join_pane"), JOIN_X, 140, JOIN_W)
        # labels of the fields that have none of their own
        for text, x, y in (
            (tr("lobby.table_name"), HOST_X + 10, 205),
            (tr("lobby.room_code"), HOST_X + 10, 205 + 3 * STEP),
            (tr("settings.variants"), HOST_X + 10, 205 + 7 * STEP),
            (tr("lobby.address"), JOIN_X + 10, LIST_BOTTOM + 24),
            (tr("lobby.room_code"), JOIN_X + 10, LIST_BOTTOM + 88),
            (tr("lobby.your_name"), JOIN_X + 10, LIST_BOTTOM + 152),
        ):
            img = draw.fit(text, 24, LABEL_W - 20, TEXT)
            surface.blit(img, img.get_rect(midleft=(x, y + 27)))
        self._draw_list(surface)
        if self.message is not None:
            text, colour = self.message
            draw.blit_wrapped(
                surface,
                text,
                pygame.Rect(JOIN_X, LIST_BOTTOM + 310, JOIN_W, 80),
                24,
                colour,
                True,
            )
        super().draw(surface)

    def _draw_list(self, surface) -> None:
        lst = self.list_rect
        draw.draw_panel(surface, lst, alpha=215)
        head = draw.fit(tr("lobby.found"), 24, lst.width - 40, TEXT_DIM, True)
        surface.blit(head, (lst.x + 20, lst.y + 14))
        n = len(self.tables)
        if n > self.rows:
            last = min(n, self.scroll + self.rows)
            more = draw.text(f"{self.scroll + 1}–{last} / {n}", 20, TEXT_DIM)
            surface.blit(more, more.get_rect(topright=(lst.right - 20, lst.y + 16)))
        if n:
            return
        box = lst.inflate(-60, -120).move(0, 30)
        if self.discovery_error:
            text = tr("lobby.discovery_off")
            colour = WARN
        else:
            text = tr("lobby.searching").rstrip("….") + "." * (1 + int(self.t * 2) % 3)
            colour = TEXT_DIM
        draw.blit_wrapped(surface, text, box, 26, colour, align="center")
        hint = tr("lobby.type_address")
        draw.blit_wrapped(surface, hint, box.move(0, 90), 22, TEXT_DIM, align="center")
