"""The bots a player can seat, in the order the pickers list them, and their names on screen.

One list serves the New game screen, the LAN lobby and the player plates, so a bot's style
reads the same everywhere ("Bot · Friendly" in a picker, "Friendly" on its plate)."""

from __future__ import annotations

from game.bots import BOT_KINDS, TABLE_BOT

from .. import i18n
from ..i18n import tr

# the default (game.bots.TABLE_BOT, Friendly) first, then the standard bot and its other
# personalities (game/bots/heuristic/personality.py PERSONALITIES), the search bot, the random baseline last
PERSONALITY_ORDER = ("friendly", "tight", "greedy", "chaotic")


def bot_specs() -> list[str]:
    """Every bot spec a picker offers: the default (game.bots.TABLE_BOT) first."""
    kinds = sorted(BOT_KINDS)
    kinds.sort(key=lambda k: (k == "random", k))  # the strongest-sounding first
    out: list[str] = []
    for kind in kinds:
        out.append(kind)
        if kind == "heuristic":
            out += [f"heuristic:{p}" for p in PERSONALITY_ORDER]
    if TABLE_BOT in out:
        out.remove(TABLE_BOT)
        out.insert(0, TABLE_BOT)
    return out


def style_name(spec: str) -> str:
    """'Friendly' for heuristic:friendly, 'Shrewd' for heuristic, the spec itself if unknown."""
    kind, _, param = spec.partition(":")
    key = f"bot.personality.{param}" if kind == "heuristic" and param else f"bot.kind.{kind}"
    return tr(key) if i18n.has(key) else spec
