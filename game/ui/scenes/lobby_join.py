"""The LAN lobby's right half, **Join a table**: the tables found on the network (they
appear and disappear as hosts announce and leave; polled each frame from a
`net.discovery.browse.BackgroundBrowser`, never blocking), each with its name, address, pace
(its window mode and seconds to answer), seats free and whether a code is needed; a typed
HOST:PORT for networks where discovery is blocked; the room code and your name; and
"Rejoin <table>" when the last table joined left a seat token in the settings."""

from __future__ import annotations

import pygame

from net import protocol as P

from ..drawing import draw, fonts
from ..drawing.theme import BAD, GOLD, GOOD, TEXT, TEXT_DIM, THEME, WARN
from ..drawing.widgets import Button, Clickable, TextField, Widget
from ..i18n import tr
from ..sessions import lan
from .common import pace_text

JOIN_X, JOIN_W = 1000, 840
ROW_H, ROWS = 66, 5  # a table's row; rows shown at most
LIST_BOTTOM = 636
LABEL_W = 290


class TableRow(Clickable):
    """One discovered table: name, address, seats free, code needed. Click to pick it."""

    press_first = False

    def __init__(self, rect, table, selected: bool, on_click, name: str) -> None:
        self.rect = pygame.Rect(rect)
        self.table = table
        self.selected = selected
        self.on_click = on_click
        self.name = name

    @property
    def compatible(self) -> bool:
        return self.table.protocol_version in P.SUPPORTED_VERSIONS

    def click(self) -> None:
        self.on_click()

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
        lines = [(nm, 26, True), (ad, 18, False)]
        beside = None  # the line the pace goes after: the address's, else the name's
        if t_.pace is not None:  # how fast the table goes, before anyone joins
            words = pace_text(t_.pace)
            beside = next((i for i in (1, 0) if draw.text_width(words, 18) <= right - 20 - (
                r.x + 18 + lines[i][0].get_width() + 24)), None)  # fmt: skip
            if beside is None:  # Large text: on a line of its own
                lines.append((draw.fit(words, 18, w, GOLD), 18, False))
        at = draw.blit_stacked(surface, lines, r.x + 18, r.centery, gap=8 if len(lines) < 3 else 2)
        if beside is not None:
            x = r.x + 18 + lines[beside][0].get_width() + 24
            pace = draw.fit(words, 18, max(40, right - 20 - x), GOLD)
            surface.blit(pace, pace.get_rect(midleft=(x, at[beside].centery)))


class JoinPane:
    """The tables found and the fields to join one; `lobby` is the scene it lies in (its
    app, its message line, its settings writer)."""

    def __init__(self, lobby, browser=None, code: str | None = None) -> None:
        self.lobby = lobby
        self.browser = browser  # something with start() / poll() / close()
        self.tables: dict[str, object] = {}  # key -> TableFound, in order of appearance
        self.selected: str | None = None
        self.discovery_error: str | None = None
        self.code = (P.normalize_code(code) or "") if code else ""
        self.scroll = 0
        self.rows = ROWS
        self.list_rect = pygame.Rect(JOIN_X, 205, JOIN_W, LIST_BOTTOM - 205)

    def start(self) -> None:
        """Start looking for tables (a BackgroundBrowser unless one was given)."""
        if self.browser is None:
            from net.discovery.browse import BackgroundBrowser

            self.browser = BackgroundBrowser()
        try:
            self.browser.start()
        except Exception as exc:  # discovery is a convenience: typed addresses still work
            self.discovery_error = str(exc)

    def close(self) -> None:
        if self.browser is not None:
            self.browser.close()

    # -- widgets ---------------------------------------------------------------------------

    def widgets(self) -> list[Widget]:
        cfg = self.lobby.app.config
        jx, jw = JOIN_X, JOIN_W
        w: list[Widget] = []
        rejoin = bool(cfg.last_table_token and cfg.last_table_address)
        top = 282 if rejoin else 205
        self.list_rect = lst = pygame.Rect(jx, top, jw, LIST_BOTTOM - top)
        # rows taller with Large text (fewer shown, the rest a scroll away), under the heading
        row_h = round(ROW_H * max(1.0, THEME.text_scale))
        head = fonts.render_text(tr("lobby.found"), THEME.lang, THEME.font_px(24), TEXT, True)
        first = lst.y + max(54, 14 + head.get_bounding_rect().bottom + 6)
        rows = (lst.bottom - 6 - first) // (row_h + 2)
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
                    (lst.x + 14, first + i * (row_h + 2), lst.width - 28, row_h),
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
                lambda s: self.lobby.set_config("lan_address", s.strip()),
                placeholder=lambda: tr("lobby.hint.example", value="192.168.1.5:40123"),
                max_len=64,
                name="join.address",
                size=24,
            ),
            TextField(
                (jx + LABEL_W, fy + 64, 200, 54),
                lambda: self.code,
                self._set_code,
                placeholder=lambda: tr("lobby.hint.example", value="ABCD"),
                max_len=4,
                name="join.code",
                size=28,
            ),
            TextField(
                (jx + LABEL_W, fy + 128, jw - LABEL_W, 54),
                lambda: cfg.lan_name,
                lambda s: self.lobby.set_config("lan_name", s),
                placeholder=lambda: tr("lobby.hint.if_empty", value=lan.player_name(cfg)),
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
        ]
        return w

    def _set_code(self, s: str) -> None:
        self.code = "".join(c for c in s.upper() if "A" <= c <= "Z")[:4]

    # -- discovery ---------------------------------------------------------------------------

    def pick(self, key: str) -> None:
        t = self.tables.get(key)
        if t is None:
            return
        self.selected = key
        self.lobby.app.config.lan_address = f"{t.host}:{t.port}"
        self.lobby.message = None
        self.lobby.layout()

    def poll(self) -> bool:
        """Follow the browser (once a frame); True when the list changed."""
        if self.browser is None:
            return False
        from net.discovery.browse import DiscoveryError, TableFound, TableLost

        changed = False
        for ev in self.browser.poll():
            if isinstance(ev, TableFound):
                self.tables[ev.key] = ev
                if ev.key == self.selected:
                    self.lobby.app.config.lan_address = f"{ev.host}:{ev.port}"
                changed = True
            elif isinstance(ev, TableLost):
                if self.tables.pop(ev.key, None) is not None:
                    changed = True
                if ev.key == self.selected:
                    self.selected = None
            elif isinstance(ev, DiscoveryError):
                self.discovery_error = ev.message
                changed = True
        return changed

    def scroll_by(self, rows: int) -> None:
        self.scroll = max(0, self.scroll - rows)

    # -- joining -------------------------------------------------------------------------------

    def join(self) -> None:
        from net.client.session import parse_address

        lobby = self.lobby
        cfg = lobby.app.config
        address = cfg.lan_address.strip()
        try:
            parse_address(address)
        except ValueError:
            lobby.message = (tr("lobby.bad_address"), BAD)
            return
        code = lobby.room_code(self.code)
        if code is None:
            return
        session = lan.join(lobby.app, address, code=code, name=lan.player_name(cfg))
        lan.open_room(lobby.app, session)

    def rejoin(self) -> None:
        app = self.lobby.app
        cfg = app.config
        try:
            session = lan.join(app, cfg.last_table_address, token=cfg.last_table_token)
        except ValueError:
            lan.remember_table(app, None, None)
            self.lobby.layout()
            return
        lan.open_room(app, session)

    # -- drawing ------------------------------------------------------------------------------

    def draw_list(self, surface, t: float) -> None:
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
            text = tr("lobby.searching").rstrip("….") + "." * (1 + int(t * 2) % 3)
            colour = TEXT_DIM
        draw.blit_wrapped(surface, text, box, 26, colour, align="center")
        hint = tr("lobby.type_address")
        draw.blit_wrapped(surface, hint, box.move(0, 90), 22, TEXT_DIM, align="center")
