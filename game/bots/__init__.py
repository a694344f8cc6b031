"""Bots: they see only `view(state, seat)` and choose from `legal_actions`."""

from .base import BOT_KINDS, Bot, make_bot

__all__ = ["Bot", "make_bot", "BOT_KINDS"]
