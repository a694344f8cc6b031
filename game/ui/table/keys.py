"""The table's keys, one keymap per context: what the panel shows (a turn, a reaction
window, a negotiation, the end of the game) and what lies over it (nothing, the whole
history, the terms editor). The table's dispatcher and its buttons' key caps both read
these maps; docs/UI.md's key table is checked against them (tests/ui/test_ui_keys.py).

The editor is modal: its map has the clan letters (C S W D G L tick sources) and not the
log's L; the history covers the hand, so its maps have no hand keys.
"""

from __future__ import annotations

from enum import Enum

import pygame

from game.rules import Phase
from game.rules.seat_view import SeatView

from ..drawing.theme import CLAN_LETTERS
from ..screen.keys import Binding, Keymap


class Overlay(Enum):
    NONE = "table"
    HISTORY = "history"
    EDITOR = "editor"
    HOST_AWAY = "host_away"  # the LAN host went away: Wait or Leave (table/host_away.py)


class PanelState(Enum):
    TURN = "turn"  # placing the marker, deal or roll, draw
    DISCARD = "discard"  # over the hand limit: mark cards, then confirm
    WINDOW = "window"  # a reaction window (Let it pass / Stop!)
    NEGOTIATION = "negotiation"
    GAME_OVER = "game_over"


def panel_state(v: SeatView) -> PanelState:
    if v.phase is Phase.GAME_OVER:
        return PanelState.GAME_OVER
    if v.window is not None:
        return PanelState.WINDOW
    if v.phase is Phase.NEGOTIATION:
        return PanelState.NEGOTIATION
    if v.phase is Phase.DISCARD:
        return PanelState.DISCARD
    return PanelState.TURN


def _b(command: str, *keys: int) -> Binding:
    return Binding(command, keys)


LOG_SCROLL = (
    _b("log.latest", pygame.K_END),
    _b("log.page_back", pygame.K_PAGEUP),
    _b("log.page_on", pygame.K_PAGEDOWN),
)
LOG = (_b("log.history", pygame.K_l), *LOG_SCROLL)
HINT = (_b("hint", pygame.K_h),)
TABLE = (_b("table.escape", pygame.K_ESCAPE), *HINT)
HISTORY = (_b("log.close", pygame.K_ESCAPE), *HINT)
HAND = (
    _b("hand.prev", pygame.K_LEFT),
    _b("hand.next", pygame.K_RIGHT),
    _b("hand.play", pygame.K_RETURN, pygame.K_KP_ENTER),  # the card's first option
    _b("hand.travel", pygame.K_TAB),  # the selected Travel card's first target
)
PANEL = {
    PanelState.TURN: (
        _b("turn.deal", pygame.K_d),
        _b("turn.roll", pygame.K_r),
        _b("turn.draw", pygame.K_SPACE),
    ),
    PanelState.DISCARD: (_b("discard.confirm", pygame.K_d),),
    PanelState.WINDOW: (_b("win.pass", pygame.K_SPACE), _b("win.stop", pygame.K_s)),
    PanelState.NEGOTIATION: (
        _b("neg.going_once", pygame.K_g),
        _b("neg.fail", pygame.K_f),
        _b("neg.accept_former", pygame.K_a),
        _b("neg.pass_floor", pygame.K_p),
        _b("bar.offer", pygame.K_o),
    ),
    PanelState.GAME_OVER: (_b("results", pygame.K_RETURN, pygame.K_KP_ENTER),),
}
EDITOR = (
    *(_b(f"editor.clan.{c}", getattr(pygame, f"K_{c.lower()}")) for c in CLAN_LETTERS),
    _b("editor.minus", pygame.K_DOWN),
    _b("editor.plus", pygame.K_UP),
    _b("editor.dividend", pygame.K_1),
    _b("editor.send", pygame.K_RETURN, pygame.K_KP_ENTER),
    _b("editor.cancel", pygame.K_ESCAPE),
    *LOG_SCROLL,
)
HOST_AWAY = (_b("host_away.wait", pygame.K_ESCAPE), _b("host_away.leave", pygame.K_q))
COACH = (_b("coach.next", pygame.K_n),)  # the lesson's Next (Space is Draw / Let it pass)
REPLAY = (
    _b("replay.play", pygame.K_SPACE),
    _b("replay.back", pygame.K_LEFT),
    _b("replay.forward", pygame.K_RIGHT),
    _b("replay.prev_deal", pygame.K_UP),
    _b("replay.next_deal", pygame.K_DOWN),
)

Context = tuple[Overlay, PanelState]


def table_keymaps(name: str, *extra: tuple[Binding, ...]) -> dict[Context, Keymap]:
    """Every context of a table (`extra`: the keys of what a scene adds on top)."""
    out: dict[Context, Keymap] = {}
    for state in PanelState:
        hand = () if state is PanelState.GAME_OVER else HAND
        panel = PANEL[state]
        out[Overlay.NONE, state] = Keymap(f"{name}/{state.value}", TABLE, LOG, hand, panel, *extra)
        out[Overlay.HISTORY, state] = Keymap(
            f"{name}/history/{state.value}", HISTORY, LOG, panel, *extra
        )
        out[Overlay.EDITOR, state] = Keymap(f"{name}/editor", EDITOR, *extra)
        out[Overlay.HOST_AWAY, state] = Keymap(f"{name}/host_away", HOST_AWAY)
    return out


TABLE_KEYMAPS = table_keymaps("table")
LESSON_KEYMAPS = table_keymaps("lesson", COACH)
REPLAY_KEYMAPS = {
    Overlay.NONE: Keymap("replay", (_b("replay.leave", pygame.K_ESCAPE),), LOG, REPLAY),
    Overlay.HISTORY: Keymap("replay/history", (_b("log.close", pygame.K_ESCAPE),), LOG, REPLAY),
}
