"""Settings: language (live), player names, colour-blind palette, text size, sound volume and
mute, window mode, animation speed, hints; the table rules (reaction windows, hidden money, first
player, short game, variants V1-V6) and the real-time timers. Saved on every change.
"""

from __future__ import annotations

import pygame

from .. import i18n
from ..drawing.widgets import Button, Slider, TextField, Toggle
from ..i18n import tr
from ..screen.scene import Scene
from ..sessions.seating import seat_name
from .common import LanguageButton, backdrop, section, title_bar
from .setting_fields import VARIANTS, setting_widget, variant_desc, variant_name


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

        def field(key, i, name=None, x=L, size=26):  # row i of the column at y (read now)
            return setting_widget(
                key, (x, y + i * row, W, 56), cfg, self._set, name=name or key, size=size
            )

        self.widgets += [
            field("text_size", 0),
            field("colour_blind", 1),
            Slider(
                (L, y + 2 * row, W, 56),
                lambda: tr("settings.volume"),
                lambda: cfg.volume,
                lambda v: self._set("volume", round(v, 2), relayout=False),
                name="volume",
                size=26,
            ),
            field("mute", 3),
            Toggle(
                (L, y + 4 * row, W, 56),
                lambda: tr("settings.fullscreen"),
                lambda: self.app.window.fullscreen,  # the window as it is (--windowed, F11)
                self._fullscreen,
                tip=lambda: tr("settings.fullscreen.desc"),
                name="fullscreen",
                size=26,
            ),
            field("speed", 5),
            field("hints", 6),
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
            field("window_mode", 0, x=R, size=24),
            field("hidden_money", 1, x=R, size=24),
            field("random_first_player", 2, name="random_first", x=R, size=24),
            field("short_game", 3, x=R, size=24),
        ]
        vy = y + 4 * row + 58
        vw = (W - 12) // 2
        for i, v in enumerate(VARIANTS):
            self.widgets.append(
                Toggle(
                    (R + (i % 2) * (vw + 12), vy + (i // 2) * 60, vw, 54),
                    lambda v=v: f"{v} · {variant_name(v)}",
                    lambda v=v: v in cfg.variants,
                    lambda on, v=v: self._variant(v, on),
                    tip=lambda v=v: variant_desc(v),
                    name=f"variant.{v}",
                    size=20,
                )
            )
        ty = vy + 3 * 60 + 64
        self.widgets += [
            *(
                setting_widget(key, (R, ty + k * 58, W, 54), cfg, self._set, name=key, size=22)
                for k, key in enumerate(("window", "going_once", "negotiation"))
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
