"""The LAN lobby's left half, **Host a table**: its name, 2-6 seats, the bot kind for empty
seats, the room code (4 random letters, editable), the reaction windows (ask around, the
default, or real time) and the clocks (Stop window, "going once", negotiation and turn
clocks), variants, hidden money, short game, hints, newcomers taking bots' seats, and what
this screen does: play too, or show the public table display. The settings' own fields
(setting_fields.py) in their compact form; the choices are kept in the settings."""

from __future__ import annotations

from net import protocol as P

from ..drawing.theme import BAD
from ..drawing.widgets import Button, Stepper, TextField, Widget
from ..i18n import tr
from ..sessions import lan
from ..sessions.seating import bot_kinds, default_bot, kind_label
from .lobby_join import LABEL_W
from .setting_fields import VARIANTS, setting_widget, variant_desc, variant_name

HOST_X, HOST_W = 80, 820
STEP = 60  # from one row of the host pane to the next
TOP = 205


class HostPane:
    """The table to host; `lobby` is the scene it lies in (its app, its message line)."""

    def __init__(self, lobby) -> None:
        self.lobby = lobby
        self.code = P.random_code()

    def widgets(self) -> list[Widget]:
        lobby = self.lobby
        cfg = lobby.app.config
        kinds = bot_kinds()
        y, step = TOP, STEP
        hx, hw = HOST_X, HOST_W
        half = (hw - 20) // 2
        full = hw - LABEL_W  # a full row's value box

        def field(key, x, row, width, **extra):
            return setting_widget(
                key, (x, y + row * step, width, 54), cfg, lobby.set_config,
                name=f"host.{key.removeprefix('lan_')}", size=22, compact=True, **extra,
            )  # fmt: skip

        w: list[Widget] = [
            TextField(
                (hx + LABEL_W, y, hw - LABEL_W, 54),
                lambda: cfg.lan_table_name,
                lambda s: lobby.set_config("lan_table_name", s),
                placeholder=lambda: tr("lobby.hint.if_empty", value=lan.table_name(cfg)),
                max_len=40,
                name="host.name",
                size=24,
            ),
            setting_widget(
                "lan_seats", (hx, y + step, hw, 54), cfg, lobby.set_config,
                name="host.seats", size=24, compact=True, value_w=full,
            ),  # fmt: skip
            Stepper(
                (hx, y + 2 * step, hw, 54),
                lambda: tr("lobby.empty_seats"),
                kinds,
                lambda: cfg.lan_bot if cfg.lan_bot in bot_kinds() else default_bot(),
                lambda v: lobby.set_config("lan_bot", v),
                show=kind_label,
                name="host.bots",
                size=22,
                value_w=full,
                tip=lambda: tr("lobby.empty_seats.desc"),
            ),
            TextField(
                (hx + LABEL_W, y + 3 * step, 200, 54),
                lambda: self.code,
                self._set_code,
                placeholder=lambda: tr("lobby.hint.example", value="ABCD"),
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
            field("window_mode", hx, 4, hw, value_w=full),
            field("window", hx, 5, half),
            field("going_once", hx + half + 20, 5, half),
            field("negotiation", hx, 6, half),
            field("turn", hx + half + 20, 6, half),
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
                    tip=lambda v=v: f"{variant_name(v)}\n{variant_desc(v)}",
                )
            )
        w += [
            field("hidden_money", hx, 8, half),
            field("short_game", hx + half + 20, 8, half),
            field("lan_display", hx, 9, hw, value_w=full),
            field("lan_hints", hx, 10, half),
            field("lan_open_bot_seats", hx + half + 20, 10, half),
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
        return w

    def _set_code(self, s: str) -> None:
        self.code = "".join(c for c in s.upper() if "A" <= c <= "Z")[:4]

    def _new_code(self) -> None:
        self.code = P.random_code()

    def _variant(self, v: str) -> None:
        cfg = self.lobby.app.config
        s = set(cfg.variants)
        s.symmetric_difference_update({v})
        cfg.variants = sorted(s)
        self.lobby.app.apply_config()

    def host(self) -> None:
        from net.host.config import HostError

        lobby = self.lobby
        code = lobby.room_code(self.code)
        if code is None:
            return
        try:
            session = lan.host(lobby.app, code, display=lobby.app.config.lan_display)
        except (HostError, OSError) as exc:
            lobby.message = (tr("lobby.host_failed", reason=str(exc)[:80]), BAD)
            return
        lan.open_room(lobby.app, session)


#: the labels of the host pane's fields that have none of their own: (key, row)
LABELS = (("lobby.table_name", 0), ("lobby.room_code", 3), ("settings.variants", 7))
