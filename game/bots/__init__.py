"""Bots: they see only `view(state, seat)` and choose from `legal_actions`."""

from .base import BOT_KINDS, Bot, UnknownBot, check_bot_spec, is_bot_spec, make_bot, parse_bot_specs

__all__ = [
    "BOT_KINDS",
    "Bot",
    "UnknownBot",
    "check_bot_spec",
    "is_bot_spec",
    "make_bot",
    "parse_bot_specs",
]
