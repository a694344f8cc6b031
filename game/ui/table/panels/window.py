"""The reaction window (a Stop window or "going once, going twice"): its answers on the
bottom bar, the banner saying what waits and who is asked, and the panel's countdowns
(the window's, the LAN turn clock, the negotiation clock)."""

from __future__ import annotations

from collections.abc import Callable

import pygame

from game.rules import LegalActions, Pass, PlayStop, WindowMode
from game.rules.seat_view import SeatView, WindowView
from game.rules.state import WindowKind

from ...drawing import draw
from ...drawing.theme import BAD, CLAN_KEYS, GOLD, GOOD, TEXT, TEXT_DIM, THEME
from ...drawing.widgets import Button, Widget, keycap
from ...i18n import list_of, tr, tr_names
from .. import layout as L
from ..reasons import why_off
from ..sentences import Describer, clan_word
from .geometry import BAR_LABEL_ROOM, BAR_SLOT_W, banner_top, bar_rect

# what the banner says a window waits for, by the window's kind
WINDOW_TEXTS = {
    "boss": lambda v, win, actor: tr("window.boss", name=actor),
    "recruit": lambda v, win, actor: tr(
        "window.recruit", name=actor, clan=clan_word(win.recruit)
    ),
    "going_once": lambda v, win, actor: tr("window.going_once", name=actor),
}


def window_widgets(v: SeatView, legal: LegalActions, me: int | None, send: Callable) -> list[Widget]:
    """Let it pass (or close), and outside a "going once" call a Stop card to play."""
    win = v.window
    asked = me is not None and me in win.asked
    a_pass = Pass(me) if me is not None else None
    a_stop = PlayStop(me) if me is not None else None
    closing = win.kind is WindowKind.GOING_ONCE
    out: list[Widget] = [
        Button(
            close_rect() if jump_in_shown(v, me) else bar_rect(0, 2),
            close_label() if jump_in_shown(v, me) else tr("table.let_close" if closing else "table.let_pass"),
            lambda a=a_pass: send(a),
            style="good",
            size=26,
            enabled=asked and a_pass in legal,
            name="win.pass",
            tip=tr("tip.let_close" if closing else "tip.let_pass"),
            disabled_reason=why_off(v, a_pass),
        )
    ]
    if not closing:
        out.append(
            Button(
                bar_rect(1, 2),
                tr("table.play_stop"),
                lambda a=a_stop: send(a),
                style="danger",
                size=28,
                enabled=asked and a_stop in legal,
                name="win.stop",
                tip=lambda: tr("tip.card.stop"),
                disabled_reason=why_off(v, a_stop),
            )
        )
    return out


def jump_in_shown(v: SeatView, viewer: int | None) -> bool:
    """Whether the bar says how to jump in: an investor asked about a "going once" call
    in ask-around mode (in real time the call's stage word stands there, for 3 s)."""
    win = v.window
    return (
        win is not None and win.kind is WindowKind.GOING_ONCE and viewer is not None
        and viewer in win.asked and v.settings.window_mode is WindowMode.ASK_AROUND
    )  # fmt: skip


def close_label() -> str:
    """"Let the deal close" beside the jump-in line; at Large text its short form ("Let it
    close"): the line beside it has the more words."""
    return tr("table.let_close.short" if THEME.text_scale > 1 else "table.let_close")


def close_rect() -> pygame.Rect:
    """"Let the deal close" beside the jump-in line: the bar's right place, no wider than
    its label needs at Large text."""
    bar = bar_rect(1, 2)
    cap = draw.text_width(keycap(pygame.K_SPACE), max(16, THEME.min_px), True)  # its key
    need = draw.text_width(close_label(), 26, True) + BAR_LABEL_ROOM + cap + 12
    w = min(bar.width, max(BAR_SLOT_W, need))
    return pygame.Rect(bar.right - w, bar.y, w, bar.height)


def jump_in_rect() -> pygame.Rect:
    """Left of "Let the deal close" (which then takes the bar's right place)."""
    bar = close_rect()
    left = L.RIGHT.x + 24
    top = banner_top() + 38 + 2  # under the banner's band, above the phrases' row
    return pygame.Rect(left, top, bar.x - 16 - left, L.RIGHT.bottom - 56 - top)


def draw_jump_in(surf, v: SeatView, viewer: int | None, ox: int, oy: int) -> None:
    """The line beside "Let the deal close": any card cancels the call (docs/RULES.md
    §4.4), and "I'm the Boss!" takes the deal."""
    if not jump_in_shown(v, viewer):
        return
    r = jump_in_rect().move(ox, oy)
    lines = draw.wrap(tr("window.jump_in", boss=tr("card.boss")), 20, r.width)
    step = draw.line_height(20)
    if step * len(lines) <= r.height:
        y = r.centery - step * len(lines) // 2
        for line in lines:
            surf.blit(draw.fit(line, 20, r.width, GOLD), (r.x, y))
            y += step
    else:  # Large text: the lines closer, by their ink
        draw.blit_stacked(surf, [(draw.fit(s, 20, r.width, GOLD), 20, False) for s in lines],
                          r.x, r.centery, gap=0)  # fmt: skip


def _travel_text(v: SeatView, win: WindowView, names: list[str]) -> str:
    d = Describer(names)
    for c in v.negotiation.laid:
        d.laid[c.id] = (c.owner, CLAN_KEYS[c.clan])
    return tr("window.travel", name=names[win.actor], target=d.source(win.target.to_data()))


def window_text(v: SeatView, win: WindowView, names: list[str], viewer: int | None) -> str:
    """What the window waits for, then whether it is the viewer's call or whom it asks
    (`viewer`: the seat the panel speaks to, None for a screen that only watches)."""
    kind = win.kind.value
    if kind == "travel":
        text = _travel_text(v, win, names)
    else:
        text = WINDOW_TEXTS.get(kind, WINDOW_TEXTS["going_once"])(v, win, names[win.actor])
    asked = win.asked
    if viewer is not None and viewer in asked:
        text += " — " + (
            tr("window.your_call_close") if kind == "going_once" else tr("window.your_call")
        )
    elif asked:
        text += " — " + tr_names("window.asking", [names[s] for s in asked])
    return text


def draw_banner(
    surf, v: SeatView, win: WindowView, names: list[str], viewer: int | None, X: int, by: int
) -> None:
    """The gold band above the bottom bar (X, by: the panel's left, the band's line)."""
    text = window_text(v, win, names, viewer)
    band = pygame.Rect(X + 16, by - 6, L.RIGHT.width - 32, 44)
    pygame.draw.rect(surf, (70, 50, 20, 200), band, border_radius=10)
    pygame.draw.rect(surf, GOLD, band, width=2, border_radius=10)
    surf.blit(draw.fit(text, 22, band.width - 24, TEXT, True), (band.x + 12, band.y + 9))


def countdown_rect(kind: str) -> pygame.Rect:
    if kind == "window":
        return pygame.Rect(L.RIGHT.x + 24, L.RIGHT.bottom - 126, L.RIGHT.width - 48, 10)
    if kind == "turn":  # LAN turn clock: a thin bar over the turn buttons
        return pygame.Rect(L.RIGHT.x + 24, L.RIGHT.bottom - 158, L.RIGHT.width - 48, 8)
    return pygame.Rect(L.RIGHT.x + 590, L.RIGHT.y + 114, 130, 6)  # under the move meter's
    # line saying what happens at the limit (panels/deal.py)


def countdown_area(kind: str) -> pygame.Rect:
    """All a countdown paints: its bar, the seconds beside or above it, a stage's word."""
    r = countdown_rect(kind)
    area = pygame.Rect(r.left - 110, r.top - 40, r.width + 110, r.height + 44)
    return area.union(bar_rect(1, 2)) if kind == "window" else area


def _countdown_fill(cd) -> tuple[float, int]:
    frac = 0.0 if cd.total <= 0 else max(0.0, min(1.0, cd.remaining / cd.total))
    return frac, max(0, int(countdown_rect(cd.kind).width * frac))


def countdown_look(cd) -> tuple:
    """What draw_countdown shows of cd: the same key, the same picture."""
    frac, width = _countdown_fill(cd)
    return cd.kind, width, frac > 0.5, frac > 0.2, max(0, int(cd.remaining + 0.999)), cd.stage, cd.seats


def draw_countdown(surface, cd, names: list[str]) -> None:
    """A shrinking bar, green to red, with the seconds left (and for a "going once" call
    its two halves: the stage's word on the bar's right)."""
    r = countdown_rect(cd.kind)
    frac, width = _countdown_fill(cd)
    pygame.draw.rect(surface, (40, 50, 46), r, border_radius=6)
    fill = r.copy()
    fill.width = width
    col = GOOD if frac > 0.5 else (240, 190, 60) if frac > 0.2 else BAD
    pygame.draw.rect(surface, col, fill, border_radius=6)
    secs = max(0, int(cd.remaining + 0.999))
    if cd.kind == "window":
        s = draw.text(tr("window.countdown", s=secs), 22, TEXT, True)
        surface.blit(s, s.get_rect(bottomright=(r.right, r.top - 4)))
        if cd.stage in ("going_once", "going_twice"):
            # "going once" then "going twice": the call's two halves, a tick between
            mid = r.x + r.width // 2
            pygame.draw.line(surface, TEXT, (mid, r.top - 3), (mid, r.bottom + 2), 2)
            slot = bar_rect(1, 2)
            word = draw.fit(tr(f"window.stage.{cd.stage}"), 28, slot.width - 20, GOLD, True)
            surface.blit(word, word.get_rect(center=slot.center))
    elif cd.kind == "turn":
        who = list_of(names[s] for s in cd.seats if 0 <= s < len(names))
        label = tr("window.turn_clock", name=who, s=secs)
        s = draw.fit(label, 20, r.width, TEXT_DIM, True)
        surface.blit(s, s.get_rect(bottomright=(r.right, r.top - 4)))
    else:
        m, sec = divmod(secs, 60)
        s = draw.text(f"{m}:{sec:02d}", 18, TEXT_DIM)
        surface.blit(s, s.get_rect(midright=(r.left - 8, r.centery)))
