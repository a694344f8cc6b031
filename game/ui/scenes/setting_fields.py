"""The choices kept in the settings (`Config` fields) as the screens edit them, each written
once: its label, its values and how one reads, its tooltip. The settings screen, the new-game
screen and the LAN lobby's host pane place them (`setting_widget`); where the lobby's
half-width rows leave little room it shows the compact form: a short label with the full one
as its tooltip, and a LAN table's own explanations where it has them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from game.rules import WindowMode

from ..drawing.widgets import Stepper, Toggle, Widget
from ..i18n import tr

VARIANTS = ("V1", "V2", "V3", "V4", "V5", "V6")
#: The negotiation clock's choices in seconds (Timing's unit), shown in minutes.
NEGOTIATION_CHOICES = (0, 60, 120, 180, 300, 600)


def negotiation_shown(none_key: str) -> Callable[[int], str]:
    """How a negotiation clock of ``v`` seconds reads: minutes, or ``none_key`` for 0."""

    def show(v: int) -> str:
        if v == 0:
            return tr(none_key)
        return tr("settings.minutes", m=v // 60 if v % 60 == 0 else round(v / 60, 1))

    return show


def seconds(v: int) -> str:
    return tr("window.countdown", s=v)


def keyed(prefix: str) -> Callable[[object], str]:
    """A value that reads as its own translation: ``prefix.<value>``."""
    return lambda v: tr(f"{prefix}.{v}")


@dataclass(frozen=True)
class SettingField:
    """One choice kept in the settings: a Stepper through `choices`, or (no choices) an
    on/off Toggle. `desc` is the tooltip's key ("{value}": the value chosen now)."""

    field: str  # the Config attribute
    label: str  # the label's translation key
    choices: tuple = ()
    show: Callable[[object], str] = str
    desc: str | None = None
    short: str | None = None  # the compact form's label (its tooltip: the full label)
    compact_desc: str | None = None  # the compact form's tooltip, for a LAN table
    compact_show: Callable[[object], str] | None = None  # the compact form's value words


SETTING_FIELDS = {
    f.field: f
    for f in (
        # the table's rules: the settings, a new game, the lobby
        SettingField(
            "window_mode", "settings.window_mode", tuple(m.value for m in WindowMode),
            keyed("settings.window_mode"), "settings.window_mode.{value}.desc",
            compact_desc="lobby.window_mode.{value}.desc",
        ),
        SettingField("hidden_money", "settings.hidden_money", desc="settings.hidden_money.desc"),
        SettingField("short_game", "settings.short_game", desc="settings.short_game.desc"),
        SettingField(
            "random_first_player", "settings.random_first", desc="settings.random_first.desc"
        ),
        # the real-time clocks
        SettingField(
            "window", "settings.timer.stop_label", (3, 4, 5, 6, 8, 10, 15), seconds,
            short="lobby.timer.stop",
        ),
        SettingField(
            "going_once", "settings.timer.going_once_label", (2, 3, 4, 5, 8), seconds,
            short="lobby.timer.going_once",
        ),
        SettingField(
            "negotiation", "settings.timer.negotiation_label", NEGOTIATION_CHOICES,
            negotiation_shown("settings.timer.none"), short="lobby.timer.negotiation",
            compact_show=negotiation_shown("settings.off"),
        ),
        SettingField(
            "turn", "lobby.timer.turn", (0, 20, 30, 45, 60, 90),
            lambda v: tr("settings.off") if v == 0 else seconds(v), "lobby.timer.turn.desc",
        ),
        # this screen
        SettingField(
            "text_size", "settings.text_size", ("small", "normal", "large"),
            keyed("settings.text_size"),
        ),
        SettingField("colour_blind", "settings.colour_blind", desc="settings.colour_blind.desc"),
        SettingField("mute", "settings.mute"),
        SettingField(
            "speed", "settings.speed", ("relaxed", "normal", "fast"), keyed("settings.speed")
        ),
        SettingField("hints", "settings.hints", desc="settings.hints.desc"),
        # a table this screen hosts
        SettingField("lan_seats", "newgame.seats", (2, 3, 4, 5, 6)),
        SettingField(
            "lan_display", "lobby.this_screen", (False, True),
            lambda v: tr("lobby.display") if v else tr("lobby.also_play"), "lobby.display.desc",
        ),
        SettingField("lan_hints", "lobby.hints", desc="lobby.hints.desc"),
        SettingField(
            "lan_open_bot_seats", "lobby.open_bot_seats", desc="lobby.open_bot_seats.desc"
        ),
    )
}  # fmt: skip


def setting_widget(
    field: str,
    rect,
    cfg,
    on_set: Callable[[str, object], None],
    *,
    name: str,
    size: int,
    compact: bool = False,
    **extra,
) -> Widget:
    """The widget for `field` at `rect`, reading `cfg` and writing through
    `on_set(field, value)`; `extra` goes to the widget (value_w, enabled...)."""
    f = SETTING_FIELDS[field]
    label = f.short if compact and f.short else f.label
    desc = f.compact_desc if compact and f.compact_desc else f.desc
    if compact and f.short:
        tip = lambda: tr(f.label)  # noqa: E731
    elif desc is not None:
        tip = lambda: tr(desc.format(value=getattr(cfg, f.field)))  # noqa: E731
    else:
        tip = None

    def get():
        return getattr(cfg, f.field)

    def set_(value) -> None:
        on_set(f.field, value)

    if not f.choices:
        return Toggle(rect, lambda: tr(label), get, set_, tip=tip, name=name, size=size, **extra)
    show = f.compact_show if compact and f.compact_show else f.show
    return Stepper(
        rect, lambda: tr(label), list(f.choices), get, set_, show=show, name=name, size=size,
        tip=tip, **extra,
    )  # fmt: skip


def variant_name(v: str) -> str:
    return tr("variant." + v.lower())


def variant_desc(v: str) -> str:
    return tr(f"variant.{v.lower()}.desc")
