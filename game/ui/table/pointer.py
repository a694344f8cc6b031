"""The mouse on the table, past its widgets: pick up, click and drop the hand's cards, aim
a chosen Travel at a placard or a laid card, place the marker on a space; over the hand
limit a click marks a card that can only be discarded.

It reads the table's hand, legal moves, plates, panel and log, and acts through the
table's `send`, `_refresh` and its card pop-up (`table.popup`).
"""

from __future__ import annotations

from game.rules import Discard, LayClan, Phase, PlaceMarker, PlayTravel, Recruit, SourceKind

from . import layout as L

DRAG_START = 14  # pixels the pointer moves (with the button down) before a card is dragged


def space_at(pos) -> int | None:
    """The board's space under `pos`, if any."""
    if not L.BOARD.collidepoint(pos):
        return None
    for i, r in enumerate(L.SPACES):
        if r.collidepoint(pos):
            return i
    return None


def in_history(log, pos) -> bool:
    """Whether `pos` lies on the open history (it covers the board and the hand)."""
    return log.expanded and L.LOG_FULL.collidepoint(pos)


class TablePointer:
    """Presses, drags and drops on the table's hand, board, plates and panel."""

    def __init__(self, table) -> None:
        self.table = table

    def moved(self, pos) -> None:
        """A pressed card becomes a dragged one once the pointer leaves its spot."""
        hand = self.table.hand
        if hand.press is not None and hand.drag is None:
            i, start = hand.press
            if abs(pos[0] - start[0]) + abs(pos[1] - start[1]) > DRAG_START:
                hand.drag = i
        if hand.drag is not None:
            hand.drag_pos = pos

    def _source_rect(self, kind_is_placard: bool, ref):
        t = self.table
        return (t.plates.placard_rects if kind_is_placard else t.panel.card_rects).get(ref)

    def press(self, pos) -> bool:
        t = self.table
        if in_history(t.log, pos):
            return True  # the history lies over the board and the hand
        i = t.hand.at(pos)
        if i is not None:
            t.hand.press = (i, pos)
            return True
        # travel target?
        for (kind, ref), a in t.popup.travel_targets().items():
            r = self._source_rect(kind == "placard", ref)
            if r is not None and r.inflate(8, 8).collidepoint(pos):
                t.popup.play_travel(a)
                return True
        # place the marker?
        for a in t.legal.fixed:
            if isinstance(a, PlaceMarker) and L.SPACES[a.space].collidepoint(pos):
                t.send(a)
                return True
        if t.hand.selected is not None and not L.HAND.collidepoint(pos):
            t.hand.selected = None
            t.panel.travel_choice = None
            t._refresh()
        return False

    def release(self, pos) -> bool:
        t = self.table
        hand = t.hand
        press, hand.press = hand.press, None
        drag, hand.drag = hand.drag, None
        if press is None:
            return False
        i = press[0]
        if drag is None:
            if self._discard_at_once(i):
                return True
            if i < len(hand.cards):
                hand.focus = None  # the mouse took over
                hand.selected = None if hand.selected == i else i
                if hand.selected is None:
                    t.panel.travel_choice = None
                t._refresh()
            return True
        # dropped a card
        key = hand.cards[i] if i < len(hand.cards) else None
        if key is None:
            return True
        opts = t.popup.options_for(key)
        for a in opts:
            if isinstance(a, PlayTravel):
                r = self._source_rect(a.target.kind is SourceKind.PLACARD, a.target.ref)
                if r is not None and r.inflate(16, 16).collidepoint(pos):
                    hand.selected = i
                    t.popup.play_travel(a)
                    return True
        plain = [
            a
            for a in opts
            if not isinstance(a, (PlayTravel, Recruit))
            and not (isinstance(a, LayClan) and not t.popup.clan_needed(int(a.clan)))
        ]
        if (
            pos[1] < L.HAND.y - 30
            and len(plain) == 1
            and not any(isinstance(a, Recruit) for a in opts)
        ):
            t.send(plain[0])
            return True
        hand.selected = i
        t._refresh()
        return True

    def _discard_at_once(self, i: int) -> bool:
        """Over the hand limit a click on a card that can only be discarded marks it (or
        keeps it again): one click per card, no pop-up; the panel's button confirms."""
        t = self.table
        if t.seen.phase is not Phase.DISCARD or i >= len(t.hand.cards):
            return False
        opts = t.popup.options_for(t.hand.cards[i])
        if len(opts) != 1 or not isinstance(opts[0], Discard):
            return False
        t.popup.mark_discard(i)
        return True
