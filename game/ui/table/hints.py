"""The Hint button's side of the table: asks game/bots/hint.py for the viewer's hint, shows
its one line over the top of the log (beside the panel) and makes the suggested move's widget
glow. It never plays the move: the player still presses it. Asked for, the hint follows the
game (made again after every move of the others) until the player moves or presses H again.

Shown only while `available()`: the screen plays the viewer's seat (never in a replay or on
the public display), the player's setting (Config.hints) allows it and so does the session
(a LAN host may forbid hints at its table: `session.hints_allowed`). The hint is
for one view: any move (a new view version) or another viewer takes it away.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from game.bots.hint import Coach, Hint
from game.rules import (
    Accept,
    AcceptFormer,
    AcceptProposal,
    Discard,
    Draw,
    FailDeal,
    GoingOnce,
    LayClan,
    Offer,
    OpenDeal,
    Pass,
    PassFloor,
    PlaceMarker,
    PlayBoss,
    PlayStop,
    PlayTravel,
    Propose,
    Recruit,
    Roll,
    Withdraw,
)

from ..drawing import cardart, draw
from ..drawing.theme import CLAN_KEYS, CLAN_LETTERS, GOLD, TEXT
from ..i18n import list_of, tr
from . import layout as L
from .sentences import and_list, money

HINT_GLOW = (255, 214, 90)
HINT_PULSE = draw.Pulse(170, 85, 1.6)
HINT_RING = (255, 248, 200)
BOX_FILL = (30, 48, 40)
BOX_PAD = 14
SIDE = 48  # the log's right column (its history button) stays visible


def _clans(v, names) -> str:
    return and_list([CLAN_LETTERS[c] for c in v])


def _needs(v, names) -> str:
    """'C and G', '2 of C, D, L and 2 of G, S, W'."""
    parts = []
    for count, clans in v:
        letters = [CLAN_LETTERS[c] for c in clans]
        if count >= len(clans):
            parts.append(and_list(letters))
        else:
            parts.append(tr("hint.n_of", n=count, clans=list_of(letters)))
    return and_list(parts)


# how each hint parameter is worded (game/bots/hint.py lists them)
PARAM_TEXT = {
    "space": lambda v, names: v + 1,
    "clans": _clans,
    "held": _clans,
    "needs": _needs,
    "seat": lambda v, names: names[v],
    "amount": lambda v, names: money(v),
    "left": lambda v, names: money(v),
    "card": lambda v, names: cardart.card_in_text(v),
}


def hint_text(hint: Hint, names: list[str]) -> str:
    """The hint's reason in the current language."""
    params = {k: PARAM_TEXT[k](v, names) for k, v in hint.params.items()}
    return tr(hint.reason.value, **params)


@dataclass(frozen=True)
class Target:
    """What to make glow: a widget by name, a card of the hand by key, or a board space."""

    widget: str | None = None
    card: str | None = None
    space: int | None = None


def _card_of_clan(clan) -> str:
    return "clan_" + CLAN_KEYS[int(clan)]


# the widget (or card, or space) each kind of move is made with
TARGETS = {
    OpenDeal: lambda a: Target(widget="turn.deal"),
    Roll: lambda a: Target(widget="turn.roll"),
    Draw: lambda a: Target(widget="turn.draw"),
    PlaceMarker: lambda a: Target(space=a.space),
    Discard: lambda a: Target(card=a.card.key),
    Recruit: lambda a: Target(widget=f"recruit.{int(a.clan)}", card="recruit"),
    LayClan: lambda a: Target(card=_card_of_clan(a.clan)),
    PlayTravel: lambda a: Target(card=a.card.key),
    PlayBoss: lambda a: Target(card="boss"),
    PlayStop: lambda a: Target(widget="win.stop", card="stop"),
    Pass: lambda a: Target(widget="win.pass"),
    GoingOnce: lambda a: Target(widget="neg.going_once"),
    FailDeal: lambda a: Target(widget="neg.fail"),
    AcceptFormer: lambda a: Target(widget="neg.accept_former"),
    Withdraw: lambda a: Target(
        widget="neg.withdraw.self" if a.player == a.seat else f"neg.withdraw.{a.player}"
    ),
    PassFloor: lambda a: Target(widget="neg.pass_floor"),
    Accept: lambda a: Target(widget=f"neg.accept.{a.of}"),
    Propose: lambda a: Target(widget=f"neg.counter.{a.to}"),
    Offer: lambda a: Target(widget="bar.offer"),
    AcceptProposal: lambda a: Target(widget="neg.accept_proposal"),
}


def target_of(hint: Hint | None) -> Target | None:
    if hint is None or hint.action is None:
        return None
    make = TARGETS.get(type(hint.action))
    return make(hint.action) if make is not None else None


class TableHints:
    """The table's hint: computed on demand, for the view it was asked in."""

    def __init__(self, table, seats: int) -> None:
        self.table = table
        self.coach = Coach(seats)
        self.hint: Hint | None = None
        self.active = False  # the player asked for hints and has not moved since
        self._for: tuple | None = None  # (viewer, view version) the hint was made for

    def available(self) -> bool:
        t = self.table
        s = t.session
        return (
            s.viewer is not None
            and s.viewer in s.seats_local  # a seat this screen plays (not a replay's)
            and not t.seen.over
            and t.app.config.hints
            and s.hints_allowed
        )

    def off_reason(self) -> str | None:
        """Why a player at their own seat gets no hint (a translation key), else None."""
        t = self.table
        s = t.session
        if s.viewer is None or s.viewer not in s.seats_local or t.seen.over:
            return None
        if not s.hints_allowed:
            return s.hints_off_reason  # a LAN host's choice, or the lesson
        if not t.app.config.hints:
            return "hint.off_setting"
        return None

    def observe(self, events: list[dict]) -> None:
        self.coach.observe(events)

    def toggle(self) -> None:
        """Show the coach's hint (kept up to date while others move), or hide it."""
        if self.shown():
            self.hide()
            return
        if self.available():
            self.active = True
            self._update()

    def hide(self) -> None:
        """The player moved (or pressed H again): the hint goes until asked for again."""
        self.active = False
        self.hint = None
        self._for = None

    def _update(self) -> None:
        t = self.table
        self.hint = self.coach.hint(t.seen, t.legal)
        self._for = (t.session.viewer, t.seen.version)

    def shown(self) -> bool:
        """Whether a hint is up; after someone else's move it is made again for the new view
        (another viewer, or hints no longer available, take it away)."""
        t = self.table
        if not self.active:
            return False
        if not self.available() or (self._for is not None and self._for[0] != t.session.viewer):
            self.hide()
            return False
        if self._for != (t.session.viewer, t.seen.version):
            self._update()
        return True

    def suggested_terms(self, choice) -> tuple[set, int] | None:
        """The shown hint's offer or proposal for this editor choice, as (sources, amount):
        the editor opens dialled to it (the player still sends it, or not)."""
        if not self.shown():
            return None
        a = self.hint.action
        if not isinstance(a, (Offer, Propose)) or not choice.covers(a):
            return None
        return set(a.sources), a.amount

    def text(self) -> str | None:
        return hint_text(self.hint, self.table.names) if self.shown() else None

    # -- drawing -----------------------------------------------------------------------------

    def box_rect(self, lines: int) -> pygame.Rect:
        h = BOX_PAD * 2 + draw.line_height(20, True) + lines * draw.line_height(22) + 6
        return pygame.Rect(L.HINT.x, L.HINT.y, L.HINT.width - SIDE, min(L.HINT.height, h))

    def target_rect(self) -> pygame.Rect | None:
        """Where the suggested move is made, if it is on screen now."""
        target = target_of(self.hint)
        if target is None:
            return None
        t = self.table
        a = self.hint.action
        if a in t.card_actions:  # the selected card's pop-up offers the move
            return t.card_buttons[t.card_actions.index(a)].rect
        if isinstance(a, PlayTravel) and t.panel.travel_choice == a.card.key:
            ref = a.target.ref  # the Travel card chosen: now its target
            rects = (
                t.plates.placard_rects if a.target.kind.value == "placard" else t.panel.card_rects
            )
            if ref in rects:
                return rects[ref]
        names = [target.widget] if target.widget is not None else []
        if isinstance(self.hint.action, (Offer, Propose)):
            names.append("editor.send")  # the editor is open (on these terms or others)
        for name in names:
            w = t.find(name)
            if w is not None and getattr(w, "enabled", True):
                return w.rect
        if target.card is not None and target.card in t.hand.cards:
            return t.hand.card_rect(t.hand.cards.index(target.card))
        if target.space is not None:
            return L.SPACES[target.space]
        return None

    def draw(self, surface, t: float) -> None:
        text = self.text()
        if text is None:
            return
        target = self.target_rect()
        if target is not None:
            alpha = HINT_PULSE.alpha(t)
            draw.draw_glow(surface, target, HINT_GLOW, radius=12, spread=16, alpha=alpha)
            ring = target.inflate(10, 10)  # a ring outside the widget, never over its label
            pygame.draw.rect(surface, HINT_RING, ring, width=4, border_radius=14)
        width = L.HINT.width - SIDE - 2 * BOX_PAD
        lines = draw.wrap(text, 22, width)
        box = self.box_rect(len(lines))
        pygame.draw.rect(surface, BOX_FILL, box, border_radius=14)  # opaque: the log is under it
        pygame.draw.rect(surface, GOLD, box, width=3, border_radius=14)
        y = box.y + BOX_PAD
        head = draw.fit(tr("hint.heading"), 20, width, GOLD, True)
        surface.blit(head, (box.x + BOX_PAD, y))
        y += head.get_height() + 6
        for line in lines:
            img = draw.fit(line, 22, width, TEXT)
            surface.blit(img, (box.x + BOX_PAD, y))
            y += draw.line_height(22)
