"""The selected card's pop-up: one button for each way to play the card now (lay, recruit,
Stop, the Boss, discard, pick a Travel target), or the rule that stands in the way; a
Travel aimed at the viewer's own source asks first; over the hand limit the pile's
discard marks. The table owns one and rebuilds it with every refresh.

It reads the table's view, legal moves, hand, panel and discard marks, and acts through
`table.send` and `table._refresh` (the hook the lesson, the replay and the display
extend); the table reads back `buttons` and `actions`.
"""

from __future__ import annotations

import pygame

from game.rules import (
    Discard,
    LayClan,
    PlayBoss,
    PlayStop,
    PlayTravel,
    Recruit,
    Source,
    SourceKind,
)
from game.rules.cards import card_from_key
from game.rules.explain import card_play_reason
from game.rules.seat_view import SeatView

from .. import i18n
from ..drawing.theme import CLAN_KEYS, CLAN_LETTERS, THEME
from ..drawing.widgets import Button
from ..i18n import tr
from . import layout as L
from .discard import cards_to_discard
from .log import clan_word
from .panel import fill_slots
from .sentences import recruit_tip

#: the moves that play the one card of their kind
CARD_MOVES = {PlayBoss: "boss", Recruit: "recruit", PlayStop: "stop"}


def not_playable_text(v: SeatView, key: str) -> str:
    """Why the selected card has no play now, from the rule the engine names."""
    reason = card_play_reason(v, key)
    text_key = f"reason.{reason}"
    return tr(text_key) if reason and i18n.has(text_key) else tr("table.cannot_play")


def card_key_of(action) -> str | None:
    """The kind of card a move plays from the hand ("clan_c", "travel_grey", "boss"...), the
    fan's key for it; None for a move that uses no card."""
    if isinstance(action, LayClan):
        return "clan_" + CLAN_KEYS[int(action.clan)]
    if isinstance(action, (PlayTravel, Discard)):
        return action.card.key
    return CARD_MOVES.get(type(action))


def playable(legal) -> set[str]:
    """The kinds of card some legal move plays (the fan lifts them)."""
    return {key for a in legal.fixed if (key := card_key_of(a)) is not None}


class CardPopup:
    """The pop-up over the selected card, and the Travel choice it opens."""

    def __init__(self, table) -> None:
        self.table = table
        self.buttons: list[Button] = []
        self.actions: list = []  # the move of each button (None: not a move)
        self.travel_confirm: PlayTravel | None = None  # a Travel on one's own source, asked
        self._key = None
        self._no_enter: set = set()  # options Enter never plays ("Keep it")

    def forget(self) -> None:
        """Build the buttons again at the next rebuild (a new layout, a new question)."""
        self._key = None

    def options_for(self, key: str) -> list:
        """Every legal action that uses a card of this kind."""
        return [a for a in self.table.legal.fixed if card_key_of(a) == key]

    def option_rect(self, wanted) -> pygame.Rect | None:
        """The pop-up button whose move `wanted(action)` accepts."""
        for b, a in zip(self.buttons, self.actions, strict=True):
            if a is not None and wanted(a):
                return b.rect
        return None

    def rebuild(self) -> None:
        t = self.table
        hand = t.hand
        sel = hand.selected
        key = None if sel is None or sel >= len(hand.cards) else hand.cards[sel]
        if self.travel_confirm is not None and (
            key is None or card_from_key(key) != self.travel_confirm.card
        ):
            self.travel_confirm = None  # the card it asked about is no longer selected
        confirm = self.travel_confirm
        sig = (key, sel, t.seen.version, THEME.epoch, t.panel.travel_choice, confirm)
        sig += (tuple(t.discard.marked),)
        if sig == self._key:
            return
        self._key = sig
        self.buttons = []
        self.actions = []
        self._no_enter = set()
        if key is None:
            return
        x, y = hand.anchor(sel)
        labels = self._confirm_labels(confirm) if confirm else self._option_labels(key)
        w = 300
        # above the raised card, clear of its frame (and of the back row's titles)
        bottom = min(L.HAND.y - 20, hand.rest_top() - 12, hand.raised_rect(sel).top - 16)
        top = bottom + 8 - 56 * len(labels)
        enter = next(
            (i for i, (_, a, _, _) in enumerate(labels) if a is not None and a not in self._no_enter),
            None,
        )
        for i, (label, a, tip, style) in enumerate(labels):
            r = pygame.Rect(0, top + i * 56, w, 48)
            # over the board, never over the panel's buttons on the right
            r.centerx = int(min(max(x, L.HAND.x + w // 2), L.RIGHT.x - 8 - w // 2))
            act = a if callable(a) else (lambda a=a: t.send(a))
            b = Button(
                r,
                label,
                act if a is not None else None,
                style=style,
                size=22,
                enabled=a is not None,
                name=f"card.opt.{i}",
                tip=tip,
                # Enter plays the first option that can be played, never "Keep it" (Enter
                # after Enter on a pile took the last mark back: a discard that seemed lost)
                command="hand.play" if i == enter else "",
                disabled_reason=tip,  # a label, not a move: it says what stands in the way
            )
            self.buttons.append(b)
            self.actions.append(None if a is None or callable(a) else a)

    def _option_labels(self, key: str) -> list[tuple[str, object, str, str]]:
        """(label, action or None, tooltip, button style) for each way to use the selected card; a card
        with none says which rule stands in the way."""
        t = self.table
        opts = self.options_for(key)
        labels = []
        unneeded = []  # a Clan card the deal does not need: offered last, and says so
        pool_first = bool(t.seen.pool)
        for a in opts:
            if isinstance(a, LayClan) and not self.clan_needed(int(a.clan)):
                unneeded.append((tr("table.lay_card_unneeded"), a, tr("tip.lay_card"), "normal"))
            elif isinstance(a, LayClan):
                labels.append((tr("table.lay_card"), a, tr("tip.lay_card")))
            elif isinstance(a, PlayBoss):
                labels.append((tr("table.play_boss"), a, tr("tip.card.boss")))
            elif isinstance(a, Recruit):
                if any(isinstance(o, Discard) for o in opts):
                    self._no_enter.add(a)  # over the limit, Enter marks a discard, never recruits
                tip = recruit_tip(t.seen, int(a.clan))
                if pool_first:
                    tip += "\n" + tr("tip.recruit_pool_first")
                labels.append((tr("table.recruit_clan", clan=clan_word(int(a.clan))), a, tip))
            elif isinstance(a, PlayStop):
                labels.append((tr("table.play_stop"), a, tr("tip.card.stop")))
            elif isinstance(a, Discard):
                labels += self._discard_labels(t.hand.selected)
        labels = [(*entry, "primary") for entry in labels] + unneeded
        if any(isinstance(a, PlayTravel) for a in opts):
            t.panel.travel_choice = key
            own = any(self.own_target(tg) for tg in self.travel_targets())
            hint = tr("tip.pick_target") + ("\n" + tr("tip.travel_own") if own else "")
            labels.insert(0, (tr("table.pick_target"), None, hint, "ghost"))
        if not opts:
            text = not_playable_text(t.seen, key)
            labels.append((text, None, tr("table.cannot_play_what", what=text), "ghost"))
        return labels

    # -- over the hand limit: marks, sent by the panel's button ------------------------------

    def _discard_labels(self, i: int) -> list[tuple[str, object, str]]:
        """Over the hand limit: mark a copy of the selected pile, keep a marked one again, or
        both (a pile with some of its copies marked while more are needed)."""
        mark, keep = self._pile_choices(i)
        out = []
        if mark is not None:
            out.append((tr("action.discard"), lambda: self.toggle_discard(mark), tr("tip.discard")))
        more = self._pile_room(i)
        if more >= 2:  # the whole pile's worth in one go, not a pop-up per copy
            out.append(
                (tr("table.discard_pile", n=more), lambda: self.mark_pile(i), tr("tip.discard"))
            )
        if keep is not None:
            def keep_one() -> None:
                self.toggle_discard(keep)

            self._no_enter.add(keep_one)
            out.append((tr("table.discard_keep"), keep_one, tr("tip.discard")))
        return out

    def _pile_choices(self, i: int) -> tuple[int | None, int | None]:
        t = self.table
        copies = t.hand.groups[t.hand.group_index(i)].indices
        return t.discard.choices(copies, cards_to_discard(t.seen, t.session.viewer))

    def _pile_room(self, i: int) -> int:
        """How many more copies of card i's pile could be marked now."""
        t = self.table
        copies = t.hand.groups[t.hand.group_index(i)].indices
        free = sum(1 for j in copies if j not in t.discard.marked)
        need = cards_to_discard(t.seen, t.session.viewer)
        return min(free, max(0, need - len(t.discard.marked)))

    def mark_pile(self, i: int) -> None:
        """Mark as many copies of card i's pile as are still to discard, and close the
        pop-up: left open with "Keep it" and the pile's other plays, it seemed to ask more."""
        t = self.table
        copies = t.hand.groups[t.hand.group_index(i)].indices
        if t.discard.mark_pile(copies, cards_to_discard(t.seen, t.session.viewer)):
            t.hand.selected = None
            t._refresh()

    def mark_discard(self, i: int) -> None:
        """A click on card i's pile: mark one more copy to discard; on a pile all marked,
        keep one again (nothing leaves the hand yet). Enough marked while the pile has
        copies left: say so, never take a mark back unasked (a click that seems lost)."""
        mark, keep = self._pile_choices(i)
        if mark is None and keep is not None and self._pile_left(i):
            t = self.table
            t.toast = (tr("table.discard_enough", n=cards_to_discard(t.seen, t.session.viewer)),
                       3.0, "info")  # fmt: skip
            t._refresh()
            return
        self.toggle_discard(mark if mark is not None else keep)

    def _pile_left(self, i: int) -> bool:
        """Card i's pile has copies not marked."""
        t = self.table
        copies = t.hand.groups[t.hand.group_index(i)].indices
        return any(j not in t.discard.marked for j in copies)

    def toggle_discard(self, i: int) -> None:
        """Mark card `i` (one copy) to discard, or keep it again if marked."""
        t = self.table
        need = cards_to_discard(t.seen, t.session.viewer)
        if not need:
            return
        if not t.discard.toggle(i, need):
            t.toast = (tr("table.discard_enough", n=need), 3.0, "info")
        t._refresh()

    # -- Travel ------------------------------------------------------------------------------

    def _confirm_labels(self, a: PlayTravel) -> list[tuple[str, object, str, str]]:
        """Travel aimed at the viewer's own placard or laid card: ask first."""
        if a.target.kind is SourceKind.CARD:
            what = tr("table.your_card")
        else:
            what = tr("log.src.placard", clans=CLAN_LETTERS[a.target.ref])
        question = tr("table.travel_own_ask", target=what)

        def cancel():
            self.travel_confirm = None
            self.table._refresh()

        return [
            (question, None, question, "ghost"),
            (tr("table.travel_own_yes"), a, tr("tip.travel_own"), "primary"),
            (tr("ui.cancel"), cancel, tr("tip.travel_own_cancel"), "ghost"),
        ]

    def own_target(self, target) -> bool:
        """Whether a travel target (kind, ref) is the viewer's own placard or laid card."""
        me = self.table.session.viewer
        if me is None:
            return False
        kind, ref = target
        src = Source(SourceKind.PLACARD if kind == "placard" else SourceKind.CARD, ref)
        return self.table.seen.source_owner(src) == me

    def play_travel(self, a: PlayTravel) -> None:
        """Send a Travel play, asking first when it aims at the viewer's own source."""
        if self.own_target((a.target.kind.value, a.target.ref)) and self.travel_confirm != a:
            self.travel_confirm = a
            self._key = None
            self.table._refresh()
            return
        self.table.send(a)

    def travel_targets(self) -> dict[tuple, PlayTravel]:
        """The (kind, ref) sources the chosen Travel card can aim at, and each one's move."""
        key = self.table.panel.travel_choice
        if key is None:
            return {}
        card = card_from_key(key)
        out = {}
        for a in self.table.legal.fixed:
            if isinstance(a, PlayTravel) and a.card == card:
                out[(a.target.kind.value, a.target.ref)] = a
        return out

    def clan_needed(self, clan: int) -> bool:
        """Whether the open deal still wants a source of this clan: its space uses the clan
        and no committed source fills that slot yet (a Clan card laid otherwise is wasted)."""
        v = self.table.seen
        neg = v.negotiation
        if neg is None:
            return True
        space = v.board.spaces[neg.space]
        committed = set(neg.committed)
        for _kind, clans, k, got in fill_slots(space, committed, None):
            if clan in clans and clan not in committed and len(got) < k:
                return True
        return False
