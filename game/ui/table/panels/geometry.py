"""Where the panel's controls sit: the turn's two big buttons, the bottom bar, the
recruitment buttons, the negotiation's rows and the laid cards (shared by the panel's
parts, the table's travel targets and its animations)."""

from __future__ import annotations

import pygame

from game.rules.seat_view import SeatView

from ...drawing import draw, fonts
from ...drawing.theme import THEME
from ...i18n import tr
from .. import layout as L

ROW_H = 38  # a player's row, at most (row_step: six players' five rows are lower)
SLOT_STEP = 80  # a deal's slots, spaced so a name like "Player 1" fits under each at 20 px
LAID_STEP = 84  # cards laid on the table, likewise
ROW_BUTTON_MAX = 124  # a row's buttons (at most three) leave the pending terms their room
ACCEPT_BUTTON_MAX = 212  # an Accept button says what it pays ("Accept: pay $18M")
BAR_SLOT_W = 290  # one of the bottom bar's two big buttons
BAR_SHRINK = 0.9  # the most a bar label shrinks to share the bar; below, its short form
SHORT_LABELS = {"action.fail_deal": "action.fail_deal.short", "table.pass_floor": "table.pass_floor.short"}


def grown(width: int) -> int:
    """A width sized for a text at Normal, grown with Large text (never shrunk at Small)."""
    return round(width * max(1.0, THEME.text_scale))


def main_rect(i: int, n: int) -> pygame.Rect:
    """The turn's big buttons (deal / roll / draw, see the results), side by side."""
    x0, w = L.RIGHT.x + 24, L.RIGHT.width - 48
    gap = 14
    bw = (w - gap * (n - 1)) // n
    y = L.RIGHT.bottom - 136
    return pygame.Rect(x0 + i * (bw + gap), y, bw, 64)


def recruit_rect(i: int, n: int) -> pygame.Rect:
    """Recruitment buttons over the hand limit: rows of three, the last row lowest, all
    inside the panel below the marker's space and over the discard's confirm row (kept
    free before a card is marked, so nothing moves when Discard appears)."""
    per_row = 3
    rows = (n + per_row - 1) // per_row + 1
    row, col = divmod(i, per_row)
    gap, h = 12, 56
    bw = (L.RIGHT.width - 48 - gap * (per_row - 1)) // per_row
    y = L.RIGHT.bottom - 140 - (rows - 1 - row) * (h + 8)
    return pygame.Rect(L.RIGHT.x + 24 + col * (bw + gap), y, bw, h)


def marker_box(recruiting: bool = False, below: int = 0) -> pygame.Rect:
    """The turn panel's box with the marker's space, lower (not taller) where the prompt
    above it ends at `below` (two lines at Large text ran under it); while recruitment
    buttons may show (over the hand limit) it ends above their highest row (they sat on
    its border)."""
    top = max(L.RIGHT.y + 170, below)
    box = pygame.Rect(L.RIGHT.x + 24, top, L.RIGHT.width - 48, L.RIGHT.y + 470 - top)
    if recruiting:
        box.height = recruit_rect(0, 6).top - 10 - box.y
    return box


def discard_rect(i: int) -> pygame.Rect:
    """Over the hand limit, once a card is marked: Keep all, then Discard N (the
    turn's big buttons' row, which has no roll or draw then)."""
    r = main_rect(i, 2)
    return pygame.Rect(r.x, r.y + 8, r.width, 56)


def bar_rect(i: int, n: int) -> pygame.Rect:
    """The bottom bar: the Boss's calls, an investor's Offer / Pass, a window's answers."""
    x0, w = L.RIGHT.x + 24, L.RIGHT.width - 48
    if n <= 2 and THEME.text_scale <= 1:  # one or two big buttons sit on the right, under
        w = 2 * BAR_SLOT_W + 14  # the thumb of the eye; at Large text they take the bar
        x0 = L.RIGHT.right - 24 - w
    gap = 12
    bw = (w - gap * (n - 1)) // n
    return pygame.Rect(x0 + i * (bw + gap), L.RIGHT.bottom - 112, bw, 50)


BAR_LABEL_ROOM = 48  # a bar button's width besides its label: its key cap and margins


def bar_rects(labels: list[str], size: int) -> list[pygame.Rect]:
    """The bottom bar's buttons for these labels (more than two): equal while every label
    fits at `size`, else each as wide as its label needs, the longest shrinking first, no
    label below the readable minimum ("Declare the deal failed" ran under its key cap)."""
    n = len(labels)
    first = bar_rect(0, n)
    gap = bar_rect(1, n).x - first.right if n > 1 else 0
    room = bar_rect(n - 1, n).right - first.x - gap * (n - 1)
    want = [draw.text_width(s, size, True) + BAR_LABEL_ROOM for s in labels]
    if max(want) <= first.width:
        return [bar_rect(i, n) for i in range(n)]
    least = [_least(s, size) for s in labels]
    if sum(want) <= room:
        extra = (room - sum(want)) / n
        widths = [w + extra for w in want]
    elif sum(least) < room:
        k = (room - sum(least)) / (sum(want) - sum(least))
        widths = [lo + (w - lo) * k for lo, w in zip(least, want, strict=True)]
    else:  # nothing fits: the audit names the label
        widths = [room * lo / sum(least) for lo in least]
    out, x = [], float(first.x)
    for w in widths:
        out.append(pygame.Rect(round(x), first.y, round(x + w) - round(x), first.height))
        x += w + gap
    return out


def _least(label: str, size: int) -> int:
    """A bar button's least width: its label shrunk by BAR_SHRINK at most."""
    px = max(THEME.min_px, round(THEME.font_px(size) * BAR_SHRINK))
    return fonts.text_size(label, THEME.lang, px, True)[0] + BAR_LABEL_ROOM


def bar_labels(keys: list[str], size: int) -> list[str]:
    """The bar's labels: each in full where they share the bar shrunk by BAR_SHRINK at
    most, else in their short forms ("Fail deal"), as a bar too short for the words at
    Large text gives way."""
    labels = [tr(k) for k in keys]
    n = len(keys)
    room = bar_rect(n - 1, n).right - bar_rect(0, n).x - (bar_rect(1, n).x - bar_rect(0, n).right) * (n - 1)
    if n < 3 or sum(_least(s, size) for s in labels) <= room:
        return labels
    return [tr(SHORT_LABELS[k]) if k in SHORT_LABELS else s for k, s in zip(keys, labels, strict=True)]


def rows_top() -> int:
    """The top of the negotiation's first player row."""
    return L.RIGHT.y + 322


def banner_top() -> int:
    """The top of the window's banner / the status line, above the bottom bar."""
    return L.RIGHT.bottom - 164


def row_step(n_rows: int) -> int:
    """From one player's row to the next: ROW_H, or less so the last row ends above the
    banner (with six players it sat under it, and the countdown's seconds on its button)."""
    return min(ROW_H, (banner_top() - 2 - rows_top()) // max(1, n_rows))


def row_seats(v: SeatView) -> list[int]:
    """The negotiation's rows: every player but the Boss, in turn order after the Boss."""
    boss = v.negotiation.boss
    n = len(v.players)
    return [(boss + k) % n for k in range(1, n)]


def ink(s: str, size: int, bold: bool = False) -> pygame.Rect:
    """Where s's ink lies in its line drawn at `size` (measured, not recorded as drawn)."""
    return fonts.render_text(s, THEME.lang, THEME.font_px(size), (255, 255, 255), bold).get_bounding_rect()


def rows_header() -> tuple[str, str]:
    """The rows' header: the agreement's column, the pending terms' column."""
    return tr("term.agreement"), tr("table.pending")


def rows_header_y(labels: tuple[str, ...]) -> int:
    """Where the rows' header line ("Agreement", "Offer / proposal") is drawn: on one
    line, its ink above the first row's band however large the text."""
    low = max(ink(s, 18).bottom for s in labels)
    return min(rows_top() - 24, rows_top() - 4 - low)


def table_x() -> int:
    """Where the cards on the table begin: right of their label ("On the table")."""
    return L.RIGHT.x + 24 + max(150, draw.text_width(tr("table.on_table"), 20) + 12)


def rows_header_ink() -> int:
    """The top of the rows' header's ink: what the cards on the table stay above."""
    header = rows_header()
    return rows_header_y(header) + min(ink(s, 18).top for s in header)


def laid_rects(v: SeatView) -> dict[int, pygame.Rect]:
    """Laid card id -> its rect on the table (travel targets, animations): short enough
    that the owner's name under it stays clear of the rows' header at Large text."""
    out = {}
    neg = v.negotiation
    if neg is None:
        return out
    top = L.RIGHT.y + 200
    h = 64
    header_ink = rows_header_ink()
    name_ink = 2 + draw.text_height("Ag", 18)  # the owner's name under the card
    h = max(40, min(h, header_ink - 3 - name_ink - top))
    x = table_x()
    for c in neg.laid:
        out[c.id] = pygame.Rect(x, top, 46, h)
        x += LAID_STEP
    return out
