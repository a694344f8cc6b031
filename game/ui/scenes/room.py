"""The room of a LAN table, before and between games: connecting, who sits where (and
whether they are connected), the room code and address for people joining, and "Start" for
the player who may start (the first one seated; bots take the empty seats). Once a game
runs it hands over to the table scene; after a game it is where a rematch starts.

The same scene in display mode (a spectator connection, `main.py table`) shows the code
and address big for the whole room.
"""

from __future__ import annotations

import pygame

from game.rules.seat_view import SeatView

from ..drawing import draw
from ..drawing.qr import page_address, qr_surface
from ..drawing.theme import BAD, GOLD, GOOD, TEXT, TEXT_DIM, WARN, seat_colour
from ..drawing.widgets import Button
from ..i18n import tr
from ..screen import router
from ..screen.router import Route
from ..screen.scene import Scene
from .common import backdrop, pace_text, section, title_bar
from .newgame import kind_label
from .results import ResultsScene

LEFT = pygame.Rect(100, 170, 920, 760)
RIGHT = pygame.Rect(1080, 170, 740, 500)
#: the phone page's QR code and its words, right of the address, when this screen hosts
PHONE_COLUMN = 240


class RoomScene(Scene):
    name = "room"

    def __init__(self, app, session) -> None:
        super().__init__(app)
        self.session = session
        self._sig = None

    # -- widgets -------------------------------------------------------------------------

    def _signature(self):
        s = self.session
        return (s.may_start, s.over, s.status, s.failure is not None)

    def layout(self) -> None:
        s = self.session
        self._sig = self._signature()
        failed = s.status == "failed"
        self.widgets = [
            Button(
                (LEFT.x, 966, 320, 66),
                lambda: tr("ui.back") if failed else tr("room.leave"),
                self.leave,
                style="ghost",
                size=26,
                name="room.leave",
                hotkey=pygame.K_ESCAPE,
            )
        ]
        if s.may_start and not failed:
            label = "results.play_again" if s.over else "room.start"
            self.widgets.append(
                Button(
                    (RIGHT.x, 840, RIGHT.width, 96),
                    lambda: tr(label),
                    s.start_game,
                    style="primary",
                    size=38,
                    icon="crown",
                    name="room.start",
                    hotkey=pygame.K_RETURN,
                )
            )

    def leave(self) -> None:
        from ..sessions.lan import close_link

        s = self.session
        if getattr(self.app, "lan", None) is s:
            self.app.lan = None
        s.disconnect(leave=s.joined and s.status != "failed")
        if len(self.app.stack.scenes) > 1:
            self.app.pop()
        else:
            close_link(self.app)
            self.app.replace(router.scene(Route.TITLE, self.app))

    # -- the frame -------------------------------------------------------------------------

    def update(self, dt: float) -> None:
        super().update(dt)
        s = self.session
        s.update(dt)
        if s.game_running and s.has_view:
            from ..sessions.lan import make_table

            self.app.replace(make_table(self.app, s))
            return
        if self._signature() != self._sig:
            self.layout()

    def draw(self, surface) -> None:
        s = self.session
        backdrop(surface, self.t, cards=False)
        title_bar(surface, s.table_name or tr("room.title_connecting"), y=40)
        draw.draw_panel(surface, LEFT, alpha=220)
        if s.status == "failed" or not s.joined:
            self._draw_connecting(surface)
        else:
            self._draw_seats(surface)
        self._draw_join_card(surface)
        self._draw_status(surface)
        super().draw(surface)

    def _draw_connecting(self, surface) -> None:
        s = self.session
        box = LEFT.inflate(-80, -80)
        if s.status == "failed":
            # wrapped, not shrunk: a refusal names the seats and who holds them
            head = s.failure or tr("net.lost_table")
            h = draw.wrapped_height(head, 30, box.width, True)
            rect = pygame.Rect(box.x, box.centery - 4 - h, box.width, h)
            draw.blit_wrapped(surface, head, rect, 30, BAD, True, align="center")
            hint = s.failure_hint or tr("room.failed_hint")
            draw.blit_wrapped(
                surface,
                hint,
                pygame.Rect(box.x, box.centery + 20, box.width, 200),
                24,
                TEXT_DIM,
                align="center",
            )
            return
        dots = "." * (1 + int(self.t * 2.5) % 3)
        if s.unreachable:  # the client keeps trying (the host may not be up yet)
            head = draw.fit(tr("net.cannot_connect", address=s.address), 34, box.width, WARN, True)
            surface.blit(head, head.get_rect(center=(box.centerx, box.centery - 30)))
            more = tr("room.retrying").rstrip("…. ") + dots
            img = draw.fit(more, 26, box.width, TEXT_DIM)
            surface.blit(img, img.get_rect(center=(box.centerx, box.centery + 24)))
            return
        text = tr("room.connecting", address=s.address).rstrip("…. ") + dots
        img = draw.fit(text, 34, box.width, TEXT, True)
        surface.blit(img, img.get_rect(center=box.center))

    def _draw_seats(self, surface) -> None:
        s = self.session
        section(surface, tr("room.players"), LEFT.x + 40, LEFT.y + 30, LEFT.width - 80)
        seats = s.seats.seats if s.seats is not None else ()
        started = bool(s.seats and s.seats.started)
        y = LEFT.y + 104
        for info in seats:
            row = pygame.Rect(LEFT.x + 30, y, LEFT.width - 60, 88)
            draw.draw_panel(surface, row, fill=(20, 44, 36), alpha=230, radius=14, shadow=False)
            chip = pygame.Rect(row.x + 16, row.y + 18, 44, 52)
            pygame.draw.rect(surface, seat_colour(info.seat), chip, border_radius=10)
            num = draw.text(str(info.seat + 1), 26, (20, 20, 20), True)
            surface.blit(num, num.get_rect(center=chip.center))
            name_x = chip.right + 22
            status, colour = self._seat_status(info, started)
            st = draw.fit(status, 22, 330, colour, True)
            surface.blit(st, st.get_rect(midright=(row.right - 22, row.centery)))
            name_w = row.right - 44 - st.get_width() - name_x
            if info.name:
                nm = draw.fit(draw.ellipsize(info.name, 32, name_w, True), 32, name_w, TEXT, True)
            else:
                nm = draw.fit(tr("room.open_seat"), 30, name_w, TEXT_DIM)
            surface.blit(nm, nm.get_rect(midleft=(name_x, row.centery)))
            if info.seat == s.viewer and info.name:
                you = draw.fit(tr("player.you"), 18, 80, (20, 20, 20), True)
                tag = pygame.Rect(0, 0, you.get_width() + 14, 26)
                tag.midleft = (name_x + nm.get_width() + 12, row.centery)
                pygame.draw.rect(surface, (240, 240, 230), tag, border_radius=13)
                surface.blit(you, you.get_rect(center=tag.center))
            y += 98

    def _seat_status(self, info, started: bool) -> tuple[str, tuple]:
        if info.status == "human":
            on_phone = getattr(info, "via", None) == "web"
            return tr("room.connected_phone" if on_phone else "room.connected"), GOOD
        if info.status == "away":
            left = self.session.seat_info(info.seat).grace or 0
            return tr("player.away", s=left), WARN
        if info.status == "bot":
            return tr("player.standing_in"), (150, 200, 230)
        if started and info.bot and info.newcomers:
            return tr("room.bot_seat_open", bot=kind_label(info.bot)), GOLD
        if started and info.bot:
            return kind_label(info.bot), TEXT_DIM
        return tr("room.open_seat.desc"), TEXT_DIM

    def _draw_join_card(self, surface) -> None:
        s = self.session
        draw.draw_panel(surface, RIGHT, alpha=230)
        x = RIGHT.x + 40
        url = s.phone_url
        # the code, the address and the pace left of the phone's column (the hint below both)
        w = RIGHT.width - 80 - (PHONE_COLUMN + 20 if url else 0)
        lab = draw.fit(tr("lobby.room_code"), 26, w, TEXT_DIM, True)
        surface.blit(lab, (x, RIGHT.y + 30))
        # a code typed in the lobby is only shown once the host has accepted it
        known = s.code and (s.joined or s.host is not None)
        code = " ".join(s.code) if known else "—"
        big = draw.fit(code, 120, w, GOLD, True)
        surface.blit(big, (x, RIGHT.y + 70))
        lab2 = draw.fit(tr("lobby.address"), 26, w, TEXT_DIM, True)
        surface.blit(lab2, (x, RIGHT.y + 236))
        addr = draw.fit(s.address, 48, w, TEXT, True)
        surface.blit(addr, (x, RIGHT.y + 276))
        if s.table_pace is not None:  # the host's windows: what everyone seated plays with
            pace = draw.fit(pace_text(s.table_pace), 24, w, GOLD, True)
            surface.blit(pace, (x, RIGHT.y + 344))
        draw.blit_wrapped(
            surface,
            tr("display.join_hint"),
            pygame.Rect(x, RIGHT.y + 390, RIGHT.width - 80, 104),
            22,
            TEXT_DIM,
        )
        if url:
            self._draw_phone_column(surface, url)

    def _draw_phone_column(self, surface, url: str) -> None:
        """The QR code of the phone page, "Scan to play on your phone" and its host:port."""
        col = pygame.Rect(RIGHT.right - 40 - PHONE_COLUMN, RIGHT.y + 30, PHONE_COLUMN, 330)
        code = qr_surface(url, 190)
        surface.blit(code, code.get_rect(midtop=(col.centerx, col.y)))
        words = pygame.Rect(col.x, col.y + code.get_height() + 6, col.width, 70)
        used = draw.blit_wrapped(surface, tr("display.scan_phone"), words, 20, TEXT, True, "center")
        addr = draw.fit(page_address(url), 18, col.width, TEXT_DIM)
        surface.blit(addr, addr.get_rect(midtop=(col.centerx, words.y + used + 2)))

    def _status_text(self) -> tuple[str, tuple] | None:
        s = self.session
        if s.status == "failed" or not s.joined:
            return None
        if s.status == "reconnecting":
            return s.notice(), WARN  # why: the host closed the table, or went silent
        seats = s.seats
        if seats is None:
            return None
        status, colour = self._seats_status(s, seats)
        return (tr("room.game_over", status=status) if s.over else status), colour

    @staticmethod
    def _seats_status(s, seats) -> tuple[str, tuple]:
        """What the room waits for now (after a game, the game-over line leads it)."""
        if s.starts_in is not None and not seats.started:
            return tr("room.starting_in", s=s.starts_in), GOLD
        if s.may_start:
            return tr("room.you_start"), TEXT
        starter = seats.starter
        if starter is not None:
            return tr("room.waiting_start", name=s.seat_name(starter) or "?"), TEXT
        return tr("room.waiting_players"), TEXT

    def _draw_status(self, surface) -> None:
        got = self._status_text()
        if got is None:
            return
        text, colour = got
        draw.blit_wrapped(
            surface,
            text,
            pygame.Rect(RIGHT.x + 10, RIGHT.bottom + 36, RIGHT.width - 20, 150),
            28,
            colour,
            True,
        )
        seats = self.session.seats
        if seats is not None and seats.spectators:
            img = draw.fit(tr("room.watching", n=seats.spectators), 22, 400, TEXT_DIM)
            surface.blit(img, img.get_rect(bottomright=(LEFT.right, 1000)))


class LanResultsScene(ResultsScene):
    """The results of a LAN game: the connection stays up; "Play again" goes back to the
    room (where the first player starts the rematch), and a rematch started by someone
    else opens the new table by itself."""

    def __init__(self, app, session, table) -> None:
        from ..sessions.lan import back_to_room

        super().__init__(
            app,
            SeatView.from_data(session.view(None)),
            table.history,
            table.names,
            restart=lambda: back_to_room(app, session),
            played_by=[session.seat_info(s) for s in range(len(table.names))],
        )
        self.session = session
        self.serial = session.serial

    def title(self) -> None:
        s = self.session
        if s.remember is not None:
            s.remember(s, None)  # that game is over: no "Rejoin" offer for it
        super().title()

    def update(self, dt: float) -> None:
        super().update(dt)
        s = self.session
        s.update(dt)
        if s.serial != self.serial and s.game_running:
            from ..sessions.lan import make_table

            self.app.replace(make_table(self.app, s))
