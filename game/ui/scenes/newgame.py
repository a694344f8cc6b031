"""New game: 2-6 seats, each a human on this screen or a bot kind, names, each human's
private "ask me only when it touches me" preference, and the main table rules. The defaults
(one human, three bots) make the first game two clicks away: Play, Start.
"""

from __future__ import annotations

import random
import time

import pygame

from game.bots import is_bot_spec
from game.rules import Settings, Variant, WindowMode
from game.table.bot_schedule import Timing

from ..drawing import draw
from ..drawing.theme import TEXT_DIM, WARN, seat_colour
from ..drawing.widgets import Button, Stepper, TextField, Toggle
from ..i18n import tr
from ..screen.scene import Scene
from ..sessions.seating import bot_kinds, default_bot, kind_label, seat_name, typed_name
from ..sessions.session import HUMAN, LocalSession, SeatSpec
from .common import backdrop, section, title_bar
from .setting_fields import setting_widget


def build_session(cfg, seed: int | None = None) -> LocalSession:
    """A hot-seat session from the settings (the new-game screen's choices)."""
    n = cfg.seats
    kinds = (cfg.seat_kinds + ["bot"] * 6)[:n]
    kinds = [
        default_bot() if k == "bot" or (k != HUMAN and not is_bot_spec(k)) else k
        for k in kinds
    ]
    seats = [
        SeatSpec(seat_name(cfg, i), kinds[i], default_name=typed_name(cfg, i) is None)
        for i in range(n)
    ]
    humans = sum(1 for s in seats if s.is_human)
    mode = WindowMode(cfg.window_mode)
    if humans > 1:
        mode = WindowMode.ASK_AROUND  # one shared screen: players are asked one by one
    ask = (cfg.ask_only_when_touched + [False] * 6)[:n]
    settings = Settings(
        players=n,
        variants=frozenset(Variant(v) for v in cfg.variants),
        short_game=cfg.short_game,
        hidden_money=cfg.hidden_money,
        window_mode=mode,
        negotiation_limit=cfg.negotiation_limit,
        random_first_player=cfg.random_first_player,
        ask_only_when_touched=tuple(ask[i] and seats[i].is_human for i in range(n)),
    )
    timing = Timing(
        window=float(cfg.window),
        going_once=float(cfg.going_once),
        negotiation=float(cfg.negotiation),
        bot_pace=cfg.speed_factor,
    )
    if seed is None:
        seed = random.Random(time.time_ns()).randrange(1 << 31)
    return LocalSession(seats, seed, settings, timing=timing)


def start_game(app, seed: int | None = None) -> None:
    from ..sessions.autosave import writer_for
    from ..table.scene import TableScene

    session = build_session(app.config, seed)
    if app.persist:  # saved after every action: "Continue" on the title after a crash
        session.attach_autosave(writer_for(app))
    app.replace(TableScene(app, session, on_exit=lambda: start_game(app)))


class NewGameScene(Scene):
    name = "newgame"
    animated = False  # still unless an event, a tooltip or a glow says otherwise

    def layout(self) -> None:
        cfg = self.app.config
        while len(cfg.seat_kinds) < 6:
            cfg.seat_kinds.append("bot")
        while len(cfg.names) < 6:
            cfg.names.append("")
        while len(cfg.ask_only_when_touched) < 6:
            cfg.ask_only_when_touched.append(False)
        kinds = [HUMAN] + bot_kinds()
        x0, y0 = 120, 200
        self.widgets = [
            Stepper(
                (x0, y0, 760, 60),
                lambda: tr("newgame.seats"),
                [2, 3, 4, 5, 6],
                lambda: cfg.seats,
                self._set_seats,
                name="seats",
                size=28,
            ),
        ]
        for i in range(cfg.seats):
            y = y0 + 100 + i * 84
            self.widgets.append(
                TextField(
                    (x0 + 60, y, 330, 62),
                    lambda i=i: cfg.names[i],
                    lambda s, i=i: self._set_name(i, s),
                    placeholder=lambda i=i: seat_name(cfg, i) if not cfg.names[i] else "",
                    name=f"name.{i}",
                    size=26,
                )
            )
            self.widgets.append(
                Stepper(
                    (x0 + 400, y, 420, 62),
                    "",
                    kinds,
                    lambda i=i: self._kind(i, kinds),
                    lambda k, i=i: self._set_kind(i, k),
                    show=kind_label,
                    name=f"kind.{i}",
                    size=24,
                    value_w=416,
                    tip=lambda: tr("tip.bot_kind"),
                )
            )
            if cfg.seat_kinds[i] == HUMAN:
                self.widgets.append(
                    Toggle(
                        (x0 + 830, y + 4, 400, 54),
                        lambda: tr("newgame.ask_short"),
                        lambda i=i: cfg.ask_only_when_touched[i],
                        lambda val, i=i: self._set_ask(i, val),
                        tip=lambda: tr("table.ask_pref.desc"),
                        name=f"ask.{i}",
                        size=24,
                    )
                )
        rx = 1380
        self.widgets += [
            setting_widget(
                "window_mode", (rx, 290, 480, 60), cfg, lambda _field, m: self._set_mode(m),
                name="mode", size=24, enabled=self._humans() <= 1,
                disabled_reason=lambda: tr("why_off.ui.mode_humans"),
            ),  # fmt: skip
            setting_widget(
                "hidden_money", (rx, 366, 480, 56), cfg, self._set, name="hidden_money", size=24
            ),
            setting_widget(
                "short_game", (rx, 430, 480, 56), cfg, self._set, name="short_game", size=24
            ),
            Button(
                (rx, 510, 480, 60),
                lambda: tr("newgame.more_rules"),
                self._more,
                size=24,
                name="more",
            ),
            Button(
                (rx, 880, 480, 96),
                lambda: tr("newgame.start"),
                self.start,
                style="primary",
                size=40,
                icon="crown",
                name="start",
                hotkey=pygame.K_RETURN,
            ),
            Button(
                (x0, 960, 240, 60),
                lambda: tr("ui.back"),
                self.app.pop,
                style="ghost",
                size=26,
                name="back",
                hotkey=pygame.K_ESCAPE,
            ),
        ]

    def _humans(self) -> int:
        cfg = self.app.config
        return sum(1 for k in cfg.seat_kinds[: cfg.seats] if k == HUMAN)

    def _kind(self, i, kinds):
        k = self.app.config.seat_kinds[i]
        if k == "bot" or k not in kinds:
            return default_bot()
        return k

    def _set_seats(self, n) -> None:
        self.app.config.seats = n
        self._save()

    def _set_name(self, i, s) -> None:
        self.app.config.names[i] = s
        self.app.config.sanitize()

    def _set_kind(self, i, k) -> None:
        self.app.config.seat_kinds[i] = k
        self._save()

    def _set_ask(self, i, val) -> None:
        self.app.config.ask_only_when_touched[i] = val
        self._save()

    def _set_mode(self, m) -> None:
        self.app.config.window_mode = m
        self._save()

    def _set(self, name, val) -> None:
        setattr(self.app.config, name, val)
        self._save()

    def _save(self) -> None:
        self.app.apply_config()
        self.layout()

    def _more(self) -> None:
        from .settings import SettingsScene

        self.app.push(SettingsScene(self.app))

    def start(self) -> None:
        TextField.focused_field = None
        self.app.apply_config()
        start_game(self.app)

    def exit(self) -> None:
        TextField.focused_field = None

    def draw(self, surface) -> None:
        backdrop(surface, self.t, cards=False)
        title_bar(surface, tr("newgame.title"))
        cfg = self.app.config
        section(surface, tr("newgame.players"), 120, 150 - 12, 1110)
        for i in range(cfg.seats):
            y = 300 + i * 84
            pygame.draw.rect(surface, seat_colour(i), (120, y + 6, 44, 50), border_radius=10)
            num = draw.text(str(i + 1), 26, (20, 20, 20), True)
            surface.blit(num, num.get_rect(center=(142, y + 31)))
        section(surface, tr("newgame.table_rules"), 1380, 210, 480)
        notes = []
        if cfg.seats == 2:
            notes.append(tr("settings.two_player.desc"))
        if self._humans() > 1:
            notes.append(tr("newgame.handoff_note"))
        elif self._humans() == 0:
            notes.append(tr("newgame.watch_note"))
        if cfg.variants:
            notes.append(
                tr(
                    "newgame.variants_on",
                    list=", ".join(tr(f"variant.{v.lower()}") for v in cfg.variants),
                )
            )
        y = 600
        for note in notes:
            y += (
                draw.blit_wrapped(
                    surface,
                    note,
                    pygame.Rect(1380, y, 480, 200),
                    22,
                    WARN if note == notes[0] and cfg.seats == 2 else TEXT_DIM,
                )
                + 14
            )
        super().draw(surface)
