"""Results: the ranking (equal money shares the win) and a chart of each player's money
after every closed deal. Lines differ by colour *and* marker shape.

Each row says under the name who played the seat at the end: a bot's style ("Bot · Shrewd")
or, for a seat a person handed to a bot (the lesson's "Let the bots finish", a LAN player
who dropped), "Bot standing in · Shrewd"; the headline names such a winner "Mei (bot
standing in)": the seat's result, not a win the person played to the end."""

from __future__ import annotations

import pygame

from game.rules.seat_view import SeatView

from ..drawing import draw
from ..drawing.theme import GOLD, TEXT, TEXT_DIM, seat_colour
from ..drawing.widgets import Button
from ..i18n import tr, tr_names
from ..screen import router
from ..screen.router import Route
from ..screen.scene import Scene
from ..sessions.bot_styles import style_name
from ..sessions.session_api import SeatInfo
from .common import backdrop, title_bar

CHART = pygame.Rect(860, 220, 980, 590)
ENDED = pygame.Rect(CHART.x, CHART.bottom + 12, CHART.width, 84)  # why it ended, under it
ROW_W = 760  # a ranking row: it ends 26 px left of the chart's panel


def ranking(money: list[int]) -> list[tuple[int, int]]:
    """(place, seat) best first; equal money shares a place."""
    order = sorted(range(len(money)), key=lambda s: (-money[s], s))
    out = []
    for i, s in enumerate(order):
        place = out[-1][0] if i and money[s] == money[order[i - 1]] else i + 1
        out.append((place, s))
    return out


class ResultsScene(Scene):
    name = "results"
    animated = False  # still unless an event, a tooltip or a glow says otherwise

    def __init__(
        self,
        app,
        final: SeatView,
        history,
        names: list[str],
        restart=None,
        replay=None,
        replay_seats=None,
        played_by: list[SeatInfo] | None = None,
    ) -> None:
        """`replay`: the finished game (a rules Game with its log), for "Watch the replay",
        `replay_seats` its SeatRecord (who played each seat, for the replay's plates);
        `played_by`: who played each seat at the end (None: people, as named)."""
        super().__init__(app)
        self.replay = replay
        self.replay_seats = replay_seats
        self.seen = final
        self.history = history
        self.names = names
        self.played_by = played_by
        self.restart = restart
        players = self.seen.players
        self.money = [history.money[p.seat] if p.money is None else p.money for p in players]
        self.winners = list(self.seen.winners) or [s for p, s in ranking(self.money) if p == 1]
        self._chart: pygame.Surface | None = None
        self._chart_key = None

    def layout(self) -> None:
        self.widgets = [
            Button(
                (860, 920, 460, 80),
                lambda: tr("results.play_again"),
                self.again,
                style="primary",
                size=32,
                icon="crown",
                name="results.again",
                hotkey=pygame.K_RETURN,
                enabled=self.restart is not None,
                disabled_reason=lambda: tr("why_off.ui.no_restart"),
            ),
            Button(
                (1340, 920, 500, 80),
                lambda: tr("results.back_to_title"),
                self.title,
                size=30,
                name="results.title",
                hotkey=pygame.K_ESCAPE,
            ),
        ]
        if self.replay is not None:
            self.widgets.append(
                Button(
                    (80, 920, 620, 80),
                    lambda: tr("results.watch_replay"),
                    self.watch,
                    size=30,
                    name="results.replay",
                    hotkey=pygame.K_w,
                    tip=lambda: tr("tip.results.watch_replay"),
                )
            )

    def _info(self, seat: int) -> SeatInfo | None:
        return self.played_by[seat] if self.played_by and seat < len(self.played_by) else None

    def seat_label(self, seat: int) -> str:
        """The seat's name, "(bot standing in)" when a bot finished a person's game."""
        info = self._info(seat)
        if info is not None and info.kind == "bot" and info.status == "standing_in":
            return tr("results.stand_in_name", name=self.names[seat])
        return self.names[seat]

    def played_by_line(self, seat: int) -> str | None:
        """Under a bot's name: its style ("Bot · Shrewd", "Bot standing in · Shrewd")."""
        info = self._info(seat)
        if info is None or info.kind != "bot":
            return None
        standing_in = info.status == "standing_in"
        if not info.bot_kind:
            return tr("player.standing_in" if standing_in else "player.bot")
        style = style_name(info.bot_kind)
        return tr("results.stand_in_style" if standing_in else "newgame.bot", kind=style)

    def watch(self) -> None:
        """The replay viewer over the game just finished; Back returns here."""
        from ..sessions.replay_session import ReplaySession
        from ..table.replay import ReplayScene

        session = ReplaySession(self.replay, self.replay_seats)
        self.app.push(ReplayScene(self.app, session, on_back=self.app.pop))

    def again(self) -> None:
        if self.restart is not None:
            self.restart()

    def title(self) -> None:
        self.app.replace(router.scene(Route.TITLE, self.app))

    def draw(self, surface) -> None:
        backdrop(surface, self.t, cards=False)
        title_bar(surface, tr("results.title"), y=30)
        head = tr_names("results.winners", [self.seat_label(s) for s in self.winners])
        img = draw.fit(head, 52, 700, GOLD, True)
        surface.blit(img, img.get_rect(midtop=(440, 150)))
        # ranking table
        x, y = 80, 250
        cols = (x, x + 150, x + 450, x + 600)
        deals_w = x - 16 + ROW_W - 12 - cols[3]  # the last column ends inside the rows
        for txt, cx, room in (
            (tr("results.rank"), cols[0], 100),
            (tr("results.money"), cols[2], 150),
        ):
            surface.blit(draw.fit(txt, 20, room, TEXT_DIM), (cx, y))
        self._column_head(surface, tr("results.deals_as_boss"), cols[3], y + 30, deals_w)
        y += 40
        for place, seat in ranking(self.money):
            row = pygame.Rect(x - 16, y, ROW_W, 84)
            draw.draw_panel(surface, row, fill=(20, 44, 36), alpha=230, radius=14, shadow=False)
            pygame.draw.rect(
                surface,
                seat_colour(seat),
                (row.x + 6, row.y + 12, 8, row.height - 24),
                border_radius=4,
            )
            surface.blit(
                draw.fit(tr("results.place", n=place), 34, 130, GOLD if place == 1 else TEXT, True),
                (cols[0] + 12, y + 20),
            )
            nx = cols[1]
            if seat in self.winners:
                cr = draw.crown(40)
                surface.blit(cr, (nx, y + 20))
                nx += 50
            line = self.played_by_line(seat)
            surface.blit(
                draw.fit(
                    draw.ellipsize(self.names[seat], 30, cols[2] - nx - 16, True),
                    30,
                    cols[2] - nx - 10,
                    TEXT,
                    True,
                ),
                (nx, y + (8 if line else 22)),
            )
            if line:
                surface.blit(draw.fit(line, 20, cols[2] - nx - 10, TEXT_DIM), (nx, y + 50))
            surface.blit(
                draw.text(tr("money.amount", n=self.money[seat]), 34, GOLD, True), (cols[2], y + 20)
            )
            count = draw.text(str(self.history.boss_deals[seat]), 30, TEXT)
            surface.blit(count, count.get_rect(midtop=(cols[3] + deals_w // 2, y + 24)))
            y += 96
        deals = tr(
            "center.deals",
            closed=self.seen.deals_closed,
            failed=self.seen.deals_failed,
        )
        surface.blit(draw.fit(deals, 24, 760, TEXT_DIM), (x, y + 14))
        surface.blit(self._chart_surface(), (CHART.x - 10, CHART.y - 10))
        ended = self.ended_text()
        if ended:
            draw.blit_wrapped(surface, ended, ENDED, 20, TEXT_DIM, align="center")
        super().draw(surface)

    def ended_text(self) -> str | None:
        """Why the game ended, in words: the end die (its face and the tile's) or the last
        tile (game.rules.explain.game_end); None when the view cannot say."""
        from game.rules.explain import game_end

        end = game_end(self.seen)
        if end is None:
            return None
        if end.die is None:
            return tr("results.ended_last_tile", tile=end.tile)
        faces = ",\u00a0".join(str(f) for f in end.faces)  # a list never broken across lines
        return tr("results.ended_die", tile=end.tile, n=end.die, faces=faces)

    @staticmethod
    def _column_head(surface, text: str, x: int, bottom: int, width: int) -> None:
        """A column's heading wrapped to its width, its last line ending at `bottom` (the
        chart begins right of the rows: 'Deals closed as Boss' ran under it)."""
        lines = draw.wrap(text, 20, width)
        step = draw.line_height(20)
        y = bottom - step * len(lines)
        for line in lines:
            img = draw.fit(line, 20, width, TEXT_DIM)
            surface.blit(img, img.get_rect(midtop=(x + width // 2, y)))
            y += step

    def _chart_surface(self) -> pygame.Surface:
        from ..drawing.theme import THEME

        key = THEME.epoch
        if self._chart is None or key != self._chart_key:
            self._chart = self._render_chart()
            self._chart_key = key
        return self._chart

    def _render_chart(self) -> pygame.Surface:
        r = CHART
        surf = draw.panel_surface(r.width, r.height, alpha=230).copy()
        ox, oy = 10, 10
        title = draw.fit(tr("results.money_over_game"), 28, r.width - 40, TEXT, True)
        surf.blit(title, (ox + 24, oy + 16))
        pts = self.history.points
        n = len(self.names)
        if len(pts) < 2:
            pts = [tuple([0] * n), tuple(self.money)]
        plot = pygame.Rect(ox + 90, oy + 80, r.width - 250, r.height - 150)
        top = max(1, max(max(p) for p in pts))
        bottom = min(0, min(min(p) for p in pts))
        step = _nice_step((top - bottom) / 5)
        top = ((top + step - 1) // step) * step
        span = max(1, top - bottom)

        def px(i, m):
            x = plot.x + plot.width * i / max(1, len(pts) - 1)
            y = plot.bottom - plot.height * (m - bottom) / span
            return x, y

        val = bottom
        while val <= top:
            _, y = px(0, val)
            pygame.draw.line(surf, (60, 90, 76), (plot.x, y), (plot.right, y), 1)
            lab = draw.text(tr("money.amount", n=val), 18, TEXT_DIM)
            surf.blit(lab, lab.get_rect(midright=(plot.x - 10, y)))
            val += step
        every = max(1, (len(pts) - 1) // 8)
        for i in range(0, len(pts), every):
            x, _ = px(i, bottom)
            lab = draw.text(str(i), 18, TEXT_DIM)
            surf.blit(lab, lab.get_rect(midtop=(x, plot.bottom + 8)))
        xl = draw.fit(tr("results.deals_axis"), 18, 300, TEXT_DIM)
        surf.blit(xl, xl.get_rect(midtop=(plot.centerx, plot.bottom + 34)))
        ends = []
        for seat in range(n):
            col = seat_colour(seat)
            line = [px(i, p[seat]) for i, p in enumerate(pts)]
            pygame.draw.lines(surf, (0, 0, 0), False, [(x + 1, y + 2) for x, y in line], 6)
            pygame.draw.lines(surf, col, False, line, 4)
            for x, y in line:
                _marker(surf, seat, x, y, col)
            ends.append((line[-1][1], seat))
        # names at the line ends, nudged apart
        ends.sort()
        last = -100
        for y, seat in ends:
            y = max(y, last + 30)
            last = y
            nm = draw.fit(
                draw.ellipsize(self.names[seat], 20, 140, True), 20, 150, seat_colour(seat), True
            )
            surf.blit(nm, nm.get_rect(midleft=(plot.right + 18, y)))
        return surf


def _nice_step(x: float) -> int:
    for s in (1, 2, 5, 10, 20, 25, 50, 100, 200, 500):
        if s >= x:
            return s
    return 1000


def _marker(surf, seat: int, x: float, y: float, col) -> None:
    k = seat % 6
    r = 7
    if k == 0:
        pygame.draw.circle(surf, col, (x, y), r)
    elif k == 1:
        pygame.draw.rect(surf, col, (x - r, y - r, 2 * r, 2 * r))
    elif k == 2:
        pygame.draw.polygon(surf, col, [(x, y - r - 2), (x - r - 1, y + r), (x + r + 1, y + r)])
    elif k == 3:
        pygame.draw.polygon(
            surf, col, [(x, y - r - 2), (x + r + 2, y), (x, y + r + 2), (x - r - 2, y)]
        )
    elif k == 4:
        pygame.draw.polygon(surf, col, [(x, y + r + 2), (x - r - 1, y - r), (x + r + 1, y - r)])
    else:
        pygame.draw.circle(surf, col, (x, y), r, width=3)
