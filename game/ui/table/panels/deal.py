"""The open deal as drawn (cached with the panel's static parts): the header with the
proceeds, the Boss and the move meter, the space's slots filling up as sources commit, the
cards on the table and the travelling placards, each other player's agreement and pending
terms, and above the bottom bar the window's banner or the status line."""

from __future__ import annotations

import pygame

from game.rules.seat_view import SeatView

from ...drawing import cardart, draw
from ...drawing.theme import BAD, CLAN_KEYS, GOLD, GOOD, TEXT, TEXT_DIM, seat_colour
from ...i18n import tr
from .. import layout as L
from .. import status
from .geometry import (
    LAID_STEP,
    ROW_BUTTON_MAX,
    SLOT_STEP,
    banner_top,
    grown,
    row_seats,
    row_step,
    rows_header,
    rows_header_ink,
    rows_header_y,
    rows_top,
    table_x,
)
from .ledger import BOX_X, PENDING, LedgerBox, ledger_rect
from .rows import agreement_sentence, draw_sentence, fits, pending_sentence, row_columns
from .slots import committed_owners, fill_slots
from .window import countdown_rect, draw_banner, draw_jump_in

HEAD_RULE = (130, 160, 145)  # the line under the rows' header


def render_deal(
    surf,
    v: SeatView,
    viewer: int | None,
    card_rects: dict,
    ox: int,
    oy: int,
    status_line=True,
    buttons_left: dict[int, int] | None = None,
) -> pygame.Rect:
    """The whole deal onto the panel surface (ox, oy: logical -> surface coordinates;
    card_rects: where each laid card sits, logical). ``status_line`` False: the terms
    editor lies over it (its translucent panel let the line show through as a ghost), and
    draws the ledger box itself, live. ``buttons_left``: per row's seat where its buttons
    begin (logical; a seat not in it has none; None: room for three). Returns where the
    ledger box goes."""
    r = L.RIGHT
    names = [p.name for p in v.players]
    X = r.x + ox
    Y = r.y + oy
    _header(surf, v, names, X, Y)
    travel = set(v.negotiation.travel)
    slots_right = _slots(surf, v, names, travel, X, Y)
    table_right = _on_table(surf, v, names, travel, card_rects, X, Y, ox, oy)
    box = ledger_rect(slots_right - ox, table_right - ox)
    if viewer is not None and status_line:  # with the editor open, the editor draws it
        LedgerBox().draw(surf, v, viewer, box.move(ox, oy))
    _rows(surf, v, viewer, names, X, ox, oy, buttons_left)
    # the window banner / status line above the bottom bar
    win = v.window
    by = banner_top() + oy
    if win is not None:
        draw_banner(surf, v, win, names, viewer, X, by)
        draw_jump_in(surf, v, viewer, ox, oy)
    elif status_line:
        text = status.negotiation_status(v, viewer, names)
        surf.blit(draw.fit(text, 22, r.width - 48, TEXT_DIM), (X + 24, by + 4))
    return box


def _header(surf, v: SeatView, names: list[str], X: int, Y: int) -> None:
    """The space and its proceeds; the crown and the Boss; the negotiation's move meter."""
    r = L.RIGHT
    neg = v.negotiation
    boss = neg.boss
    title = tr("table.deal_on", n=neg.space + 1)
    head = draw.fit(title, 34, 420, TEXT, True)
    sub = f"{tr('money.amount', n=neg.proceeds)} = {neg.proceeds // max(1, neg.price)} × {tr('money.amount', n=neg.price)}"
    proceeds = draw.fit(sub, 24, 420, GOLD, True)
    # the proceeds under the title's ink, both above the slots (a choice group's box,
    # drawn over them, starts at Y + 92): at Large text the two rise to keep apart
    t_ink, p_ink = head.get_bounding_rect(), proceeds.get_bounding_rect()
    lift = max(0, min(16 + t_ink.y, Y + 18 + t_ink.bottom + 4 + p_ink.height + 2 - (Y + 92)))
    surf.blit(head, (X + 24, Y + 18 - lift))
    below = Y + 18 - lift + t_ink.bottom + 4 - p_ink.y
    surf.blit(proceeds, (X + 24, max(Y + 62, below)))
    cr = draw.crown(40)
    bx = X + 470
    surf.blit(cr, (bx, Y + 14))
    bl = draw.fit(
        tr("table.boss_is", name=names[boss]), 28, r.width - 520 - 24, seat_colour(boss), True
    )
    surf.blit(bl, (bx + 50, Y + 16))
    used = neg.actions
    lim = neg.limit
    right = X + r.width - 24
    ml = draw.fit(tr("table.limit", n=used, limit=lim), 18, right - 12 - (bx + 250), TEXT_DIM)
    # under the Boss's name however tall it is, the count's ink clear of the name's (Large
    # text, Thai)
    name_ink = Y + 16 + bl.get_bounding_rect().bottom
    mid = name_ink + 3 - ml.get_bounding_rect().y + ml.get_height() // 2
    meter = pygame.Rect(bx + 50, max(Y + 58, Y + 16 + bl.get_height() + 4, mid - 4), 200, 8)
    pygame.draw.rect(surf, (40, 54, 48), meter, border_radius=5)
    f = meter.copy()
    f.width = int(meter.width * min(1.0, used / max(1, lim)))
    pygame.draw.rect(surf, BAD if neg.limit_spent else (120, 170, 220), f, border_radius=5)
    at = ml.get_rect(midleft=(meter.right + 12, meter.centery))
    surf.blit(ml, at)
    # what happens at the limit, on a line of its own under the meter (the tooltip says
    # which moves count); the negotiation clock goes under it (window.countdown_rect)
    # (a line too long for the meter's width, as at a TV's 24 px, reaches left under the
    # crown, up to the proceeds)
    then = tr("table.limit_spent") if neg.limit_spent else tr("table.limit_then", limit=lim)
    img = draw.fit(then, 16, right - (X + 48 + proceeds.get_width()), TEXT_DIM)
    then_ink = img.get_bounding_rect()
    top = at.y + ml.get_bounding_rect().bottom + 3
    if top + then_ink.height + 2 <= _header_floor(Y):  # else (Large text) the tooltip says it
        surf.blit(img, (min(meter.x, right - img.get_width()), top - then_ink.y))


def _header_floor(Y: int) -> int:
    """The highest ink below the move meter's lines (surface y, Y the panel's top): the
    negotiation clock's digits and the "covered" word right of them."""
    clock = countdown_rect("negotiation").move(0, Y - L.RIGHT.y)
    digits = draw.text("0:00", 18, TEXT_DIM)
    at = digits.get_rect(midright=(clock.left - 8, clock.centery))
    word = draw.fit(covered_text(False), 22, 300, TEXT, True)
    return min(at.y + digits.get_bounding_rect().y, Y + 104 + word.get_bounding_rect().y)


def covered_text(covered: bool) -> str:
    return tr("table.covered") if covered else tr("table.not_covered")


def _slots(surf, v: SeatView, names: list[str], travel: set[int], X: int, Y: int) -> int:
    """Covered or not, and the space's required clans and choice groups as slots; returns
    where the slots end."""
    r = L.RIGHT
    neg = v.negotiation
    sp = v.board.spaces[neg.space]
    committed = set(neg.committed)
    involved = [v.source_clan(s) for s in neg.involved] if neg.covered else None
    owner_of = committed_owners(v)
    st = draw.fit(covered_text(neg.covered), 22, 300, GOOD if neg.covered else (240, 190, 90), True)
    surf.blit(st, st.get_rect(topright=(X + r.width - 24, Y + 104)))
    x = X + 24
    y = Y + 98
    size = 50
    for kind, clans, k, got in fill_slots(sp, committed, involved):
        if kind == "grp":
            mini = 22
            head = draw.text(tr("table.k_of", k=k), 20, TEXT, True)
            width = max(
                head.get_width() + 6 + len(clans) * (mini + 3),
                k * SLOT_STEP - (SLOT_STEP - size),
            )
            box = pygame.Rect(x - 8, y - 6, width + 16, size + 50)
            pygame.draw.rect(surf, (255, 255, 255, 18), box, border_radius=10)
            surf.blit(head, (x, y - 2))
            mx = x + head.get_width() + 6
            for c in clans:
                surf.blit(draw.clan_chip(c, mini, "dim" if c in travel else "solid"), (mx, y - 1))
                mx += mini + 3
            sy = y + 26
            for j in range(k):
                c = got[j] if j < len(got) else None
                draw_slot(surf, x + j * SLOT_STEP, sy, size, c, owner_of.get(c), names)
            x = box.right + 16
        else:
            for c in clans:
                draw_slot(
                    surf,
                    x,
                    y + 26,
                    size,
                    c if c in committed else None,
                    owner_of.get(c),
                    names,
                    want=c,
                )
                x += SLOT_STEP
            x += 16
    return x


def _on_table(surf, v, names, travel, card_rects, X: int, Y: int, ox: int, oy: int) -> int:
    """The laid Clan cards with their owners, then the placards sent travelling; returns
    where they end."""
    neg = v.negotiation
    ty = Y + 200
    x0 = table_x() - L.RIGHT.x  # right of the label, however large the text
    lab = draw.fit(tr("table.on_table"), 20, x0 - 34, TEXT_DIM)
    surf.blit(lab, (X + 24, ty + 26))
    if not neg.laid and not travel:  # on as many lines as it takes, up to the ledger box
        lines = draw.wrap(tr("table.nothing_laid"), 20, BOX_X - x0 - 12)
        lh = draw.line_height(20)
        y = ty + 26 + (lab.get_height() - lh) * (len(lines) > 1) // 2 - lh * (len(lines) - 1) // 2
        for line in lines:
            surf.blit(draw.fit(line, 20, BOX_X - x0 - 12, (120, 140, 130)), (X + x0, y))
            y += lh
    names_right = 0  # where the last laid card's owner's name ends
    for c in neg.laid:
        rr = card_rects[c.id].move(ox, oy)
        surf.blit(cardart.face("clan_" + CLAN_KEYS[c.clan], rr.width, rr.height), rr)
        nm = draw.fit_name(names[c.owner], 18, LAID_STEP - 4, TEXT_DIM)
        at = nm.get_rect(midtop=(rr.centerx, rr.bottom + 2))
        surf.blit(nm, at)
        names_right = at.right
    tx = X + x0 + LAID_STEP * len(neg.laid) + (10 if neg.laid else 0)
    step = max(96, draw.text_width(tr("term.travelling"), 14) + 8)  # the suitcases' step
    header_ink = rows_header_ink() + oy  # the labels' ink above the rows' header
    for k in sorted(travel):
        surf.blit(draw.clan_chip(k, 44, "dim"), (tx, ty + 12))
        surf.blit(draw.suitcase(34), (tx + 26, ty + 0))
        lbl = draw.fit(tr("term.travelling"), 14, step, TEXT_DIM)
        at = lbl.get_rect(midtop=(tx + 22, ty + 62))
        at.left = max(at.left, names_right + 4)  # clear of the last laid card's owner
        at.bottom = min(at.bottom, header_ink - 3 - (lbl.get_height() - lbl.get_bounding_rect().bottom))
        surf.blit(lbl, at)
        tx += step
    return tx


def _rows(surf, v: SeatView, viewer, names: list[str], X: int, ox: int, oy: int, buttons_left) -> None:
    """Each other player's row: name, agreement, and the pending terms as a sentence saying
    whose they are (rows.py); the buttons go on the right."""
    r = L.RIGHT
    top = rows_top() + oy
    cols = row_columns(v, X)
    agreement, pending = rows_header()
    heads = (
        (agreement, cols[1], cols[2] - cols[1] - 8),
        (pending, cols[2], X + r.width - 24 - cols[2]),
    )
    hy = rows_header_y(tuple(txt for txt, _, _ in heads)) + oy
    for txt, cx, room in heads:  # on one line, its ink above the first row's band
        surf.blit(draw.fit(txt, 18, room, TEXT_DIM), (cx, hy))
    # the header stands on a rule over the rows: without it, in the owners' size and colour
    # just under the laid cards, it read as their caption ("Ann / Agreement")
    rule_y = top - 2
    pygame.draw.line(surf, HEAD_RULE, (X + 16, rule_y), (X + r.width - 16, rule_y), 2)
    seats = row_seats(v)
    step = row_step(len(seats))
    full = X + r.width - 24  # a row without buttons: the whole width
    three = full - 3 * (grown(ROW_BUTTON_MAX) + 6) - 8  # where the buttons are not known
    for i, seat in enumerate(seats):
        y = top + i * step
        row = pygame.Rect(X + 16, y, r.width - 32, step - 4)
        if i % 2 == 0:
            pygame.draw.rect(surf, (255, 255, 255, 12), row, border_radius=8)
        pygame.draw.rect(
            surf, seat_colour(seat), (row.x + 4, row.y + 8, 6, row.height - 16), border_radius=3
        )
        nm = draw.fit_name(names[seat], 22, cols[1] - cols[0] - 12, TEXT, True)
        surf.blit(nm, nm.get_rect(midleft=(cols[0] + 4, row.centery)))
        agr = agreement_sentence(v, seat)
        pend = pending_sentence(v, viewer, seat)
        if buttons_left is None:
            right = three
        else:
            right = buttons_left[seat] + ox - 8 if seat in buttons_left else full
        x = cols[2]
        if agr is None and pend is not None and not fits(v, pend, right - x):
            x = cols[1]  # cramped (six players, Large text): into the empty agreement place
        if agr is not None:  # with no terms pending beside it, up to the row's end
            end = cols[2] - 8 if pend is not None else right
            room = end - cols[1] - draw.text_width("✓", 20) - 6
            end = draw_sentence(surf, v, agr, cols[1], row.centery, GOOD, room)
            tick = draw.text("✓", 20, GOOD)
            surf.blit(tick, tick.get_rect(midleft=(end + 6, row.centery)))
        elif x == cols[2]:
            surf.blit(draw.text("—", 20, (110, 130, 120)), (cols[1], row.centery - 12))
        if pend is not None:
            draw_sentence(surf, v, pend, x, row.centery, PENDING, right - x)


def draw_slot(surf, x, y, size, clan, owner, names, want=None) -> None:
    """One slot: the committed clan with who provides it, or the clan still wanted (a
    required clan) or a question mark (a choice group's open place)."""
    if clan is None:
        if want is not None:
            surf.blit(draw.clan_chip(want, size, "slot"), (x, y))
        else:
            box = pygame.Rect(x, y, size, size)
            pygame.draw.rect(surf, (255, 255, 255, 25), box, border_radius=10)
            pygame.draw.rect(surf, (160, 180, 170), box, width=2, border_radius=10)
            q = draw.text("?", 28, (160, 180, 170), True)
            surf.blit(q, q.get_rect(center=box.center))
        return
    surf.blit(draw.clan_chip(clan, size), (x, y))
    if owner is not None:
        nm = draw.fit_name(names[owner], 18, SLOT_STEP - 4, TEXT_DIM)
        surf.blit(nm, nm.get_rect(midtop=(x + size // 2, y + size + 1)))
