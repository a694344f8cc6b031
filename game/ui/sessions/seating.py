"""Who sits where, as the screens say it: a seat's name (typed in the settings, else its
default in the language shown now) and the bot kinds a seat can take, with their labels.
Used by the new-game screen, the settings, the lobby and the room, the lesson and the
autosave (a default name is saved as such and shown in the language of the day)."""

from __future__ import annotations

from game.bots import BOT_KINDS
from game.bots.names import bot_name

from ..i18n import tr
from .bot_styles import bot_specs, style_name
from .session_api import HUMAN


def bot_kinds() -> list[str]:
    """The bot specs a seat can take (bot_styles.bot_specs: personalities included)."""
    return bot_specs()


def default_bot() -> str:
    """The style a bot seat has until the player picks one (game.bots.TABLE_BOT)."""
    return bot_kinds()[0] if BOT_KINDS else "random"


def kind_label(kind: str) -> str:
    if kind == HUMAN:
        return tr("newgame.human")
    return tr("newgame.bot", kind=style_name(kind))


def typed_name(cfg, seat: int) -> str | None:
    """The name typed for this seat in the settings, or None (the seat's default)."""
    names = cfg.names
    if seat < len(names) and names[seat].strip():
        return names[seat].strip()
    return None


def default_seat_name(seat: int, kind: str) -> str:
    """A seat's name when none was typed: a bot's table name, else "Player n" in the
    language shown now."""
    if kind != HUMAN:
        return bot_name(seat)
    return tr("player.default_name", n=seat + 1)


def seat_name(cfg, seat: int) -> str:
    kinds = cfg.seat_kinds
    kind = kinds[seat] if seat < len(kinds) else HUMAN
    return typed_name(cfg, seat) or default_seat_name(seat, kind)
