"""Bots: they see only `view(state, seat)` and choose from `legal_actions`."""

# The kinds register themselves in base.BOT_KINDS when imported; they are imported here, not
# in base (which they import), so that no import circle runs through the registry.
from . import heuristic, random_bot, search  # noqa: F401
from .base import (
    BOT_KINDS,
    TABLE_BOT,
    Bot,
    UnknownBot,
    check_bot_spec,
    is_bot_spec,
    make_bot,
    parse_bot_specs,
)

__all__ = [
    "BOT_KINDS",
    "TABLE_BOT",
    "Bot",
    "UnknownBot",
    "check_bot_spec",
    "is_bot_spec",
    "make_bot",
    "parse_bot_specs",
]
