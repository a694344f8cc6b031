"""Settings: language (live), player names, colour-blind palette, text size, sound volume and
mute, window mode, animation speed, hints; the table rules (reaction windows, hidden money, first
player, short game, variants V1-V6) and the real-time timers. Saved on every change.
"""

from __future__ import annotations

import pygame

from .. import i18n
from ..i18n import tr
from ..scene import Scene
from ..seating import seat_name
from ..widgets import Button, Slider, Stepper, TextField, Toggle
from .common import LanguageButton, backdrop, section, title_bar

VARIANTS = ("V1", "V2", "V3", "V4", "V5", "V6")
#: The negotiation clock's choices in seconds (Timing's unit), shown in minutes.
NEGOTIATION_CHOICES = [0, 60, 120, 180, 300, 600]


def negotiation_shown(none_key: str):
    """How a negotiation clock of ``v`` seconds reads: minutes, or ``none_key`` for 0."""

    def show(v: int) -> str:
        if v == 0:
            return tr(none_key)
        return tr("settings.minutes", m=v // 60 if v % 60 == 0 else round(v / 60, 1))

    return show


class SettingsScene(Scene):
    name = "settings"
    animated = False  # still unless an event, a tooltip or a glow says otherwise
    opaque = True

    def layout(self) -> None:
        app = self.app
        cfg = app.config
        L = 100  # left column
        R = 1000  # right column
        W = 820
        self.widgets = []
        y = 190
        lw = (W - 3 * 12) // 4
        for i, lang in enumerate(i18n.LANGUAGES):
            self.widgets.append(
                LanguageButton(
                    (L + i * (lw + 12), y + 44, lw, 58),
                    lang,
                    lambda lang=lang: app.set_language(lang),
                    cfg.language == lang,
                    f"lang.{lang}",
                )
            )
        y = 370
        row = 60
        self.widgets += [
            Stepper(
                (L, y, W, 56),
                lambda: tr("settings.text_size"),
                ["small", "normal", "large"],
                lambda: cfg.text_size,
                lambda v: self._set("text_size", v),
                show=lambda v: tr(f"settings.text_size.{v}"),
                name="text_size",
                size=26,
            ),
            Toggle(
                (L, y + row, W, 56),
                lambda: tr("settings.colour_blind"),
                lambda: cfg.colour_blind,
                lambda v: self._set("colour_blind", v),
                tip=lambda: tr("settings.colour_blind.desc"),
                name="colour_blind",
                size=26,
            ),
            Slider(
                (L, y + 2 * row, W, 56),
                lambda: tr("settings.volume"),
                lambda: cfg.volume,
                lambda v: self._set("volume", round(v, 2), relayout=False),
                name="volume",
                size=26,
            ),
            Toggle(
                (L, y + 3 * row, W, 56),
                lambda: tr("settings.mute"),
                lambda: cfg.mute,
                lambda v: self._set("mute", v),
                name="mute",
                size=26,
            ),
            Toggle(
                (L, y + 4 * row, W, 56),
                lambda: tr("settings.fullscreen"),
                lambda: self.app.window.fullscreen,  # the window as it is (--windowed, F11)
                self._fullscreen,
                tip=lambda: tr("settings.fullscreen.desc"),
                name="fullscreen",
                size=26,
            ),
            Stepper(
                (L, y + 5 * row, W, 56),
                lambda: tr("settings.speed"),
                ["relaxed", "normal", "fast"],
                lambda: cfg.speed,
                lambda v: self._set("speed", v),
                show=lambda v: tr(f"settings.speed.{v}"),
                name="speed",
                size=26,
            ),
            Toggle(
                (L, y + 6 * row, W, 56),
                lambda: tr("settings.hints"),
                lambda: cfg.hints,
                lambda v: self._set("hints", v),
                tip=lambda: tr("settings.hints.desc"),
                name="hints",
                size=26,
            ),
        ]
        # player names
        ny = y + 7 * row + 64
        fw = (W - 2 * 12) // 3
        for i in range(6):
            while len(cfg.names) < 6:
                cfg.names.append("")
            self.widgets.append(
                TextField(
                    (L + (i % 3) * (fw + 12), ny + (i // 3) * 66, fw, 56),
                    lambda i=i: cfg.names[i],
                    lambda s, i=i: self._name(i, s),
                    placeholder=lambda i=i: seat_name(cfg, i),
                    name=f"name.{i}",
                    size=24,
                )
            )
        # table rules
        y = 190 + 44
        self.widgets += [
            Stepper(
                (R, y, W, 56),
                lambda: tr("settings.window_mode"),
                ["ask_around", "real_time"],
                lambda: cfg.window_mode,
                lambda v: self._set("window_mode", v),
                show=lambda v: tr(f"settings.window_mode.{v}"),
                tip=lambda: tr(f"settings.window_mode.{cfg.window_mode}.desc"),
                name="window_mode",
                size=24,
            ),
            Toggle(
                (R, y + row, W, 56),
                lambda: tr("settings.hidden_money"),
                lambda: cfg.hidden_money,
                lambda v: self._set("hidden_money", v),
                tip=lambda: tr("settings.hidden_money.desc"),
                name="hidden_money",
                size=24,
            ),
            Toggle(
                (R, y + 2 * row, W, 56),
                lambda: tr("settings.random_first"),
                lambda: cfg.random_first_player,
                lambda v: self._set("random_first_player", v),
                tip=lambda: tr("settings.random_first.desc"),
                name="random_first",
                size=24,
            ),
            Toggle(
                (R, y + 3 * row, W, 56),
                lambda: tr("settings.short_game"),
                lambda: cfg.short_game,
                lambda v: self._set("short_game", v),
                tip=lambda: tr("settings.short_game.desc"),
                name="short_game",
                size=24,
            ),
        ]
        vy = y + 4 * row + 58
        vw = (W - 12) // 2
        for i, v in enumerate(VARIANTS):
            self.widgets.append(
                Toggle(
                    (R + (i % 2) * (vw + 12), vy + (i // 2) * 60, vw, 54),
                    lambda v=v: f"{v} · {tr('variant.' + v.lower())}",
                    lambda v=v: v in cfg.variants,
                    lambda on, v=v: self._variant(v, on),
                    tip=lambda v=v: tr(f"variant.{v.lower()}.desc"),
                    name=f"variant.{v}",
                    size=20,
                )
            )
        ty = vy + 3 * 60 + 64
        self.widgets += [
            Stepper(
                (R, ty, W, 54),
                lambda: tr("settings.timer.stop_label"),
                [3, 4, 5, 6, 8, 10, 15],
                lambda: cfg.window,
                lambda v: self._set("window", v),
                show=lambda v: tr("window.countdown", s=v),
                name="window",
                size=22,
            ),
            Stepper(
                (R, ty + 58, W, 54),
                lambda: tr("settings.timer.going_once_label"),
                [2, 3, 4, 5, 8],
                lambda: cfg.going_once,
                lambda v: self._set("going_once", v),
                show=lambda v: tr("window.countdown", s=v),
                name="going_once",
                size=22,
            ),
            Stepper(
                (R, ty + 116, W, 54),
                lambda: tr("settings.timer.negotiation_label"),
                NEGOTIATION_CHOICES,
                lambda: cfg.negotiation,
                lambda v: self._set("negotiation", v),
                show=negotiation_shown("settings.timer.none"),
                name="negotiation",
                size=22,
            ),
            Button(
                (L, 990, 260, 62),
                lambda: tr("ui.back"),
                self.back,
                style="primary",
                size=28,
                name="back",
                hotkey=pygame.K_ESCAPE,
            ),
        ]

    def _set(self, name, value, relayout=True) -> None:
        setattr(self.app.config, name, value)
        if relayout:
            self.app.apply_config()
        else:
            self.app.sounds.set_volume(self.app.config.volume, self.app.config.mute)

    def _variant(self, v, on) -> None:
        cfg = self.app.config
        s = set(cfg.variants)
        s.add(v) if on else s.discard(v)
        cfg.variants = sorted(s)
        self.app.apply_config()

    def _name(self, i, s) -> None:
        self.app.config.names[i] = s
        self.app.config.sanitize()

    def _fullscreen(self, on) -> None:
        if on != self.app.window.fullscreen:
            self.app.toggle_fullscreen()

    def back(self) -> None:
        TextField.focused_field = None
        self.app.apply_config()
        self.app.pop()

    def exit(self) -> None:
        TextField.focused_field = None

    def draw(self, surface) -> None:
        backdrop(surface, self.t, cards=False)
        title_bar(surface, tr("title.settings"), y=30)
        section(surface, tr("settings.language"), 100, 180, 820)
        section(surface, tr("settings.display_sound"), 100, 318, 820)
        section(surface, tr("settings.names"), 100, 370 + 7 * 60 + 14, 820)
        section(surface, tr("newgame.table_rules"), 1000, 180, 820)
        section(surface, tr("settings.variants"), 1000, 190 + 44 + 4 * 62 + 4, 820)
        section(surface, tr("settings.timers"), 1000, 190 + 44 + 4 * 62 + 58 + 3 * 60 + 8, 820)
        super().draw(surface)
