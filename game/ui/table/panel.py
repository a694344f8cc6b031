"""The right-hand panel: the turn (deal / roll / draw, discards, placing the marker) or, once
a deal is open, the negotiation: the space's slots filling up as sources commit, the cards
on the table, every player's agreement and pending terms, and the buttons to accept,
counter, withdraw, offer or propose (with an amount dial and a "1 dividend" shortcut).

Every control is enabled from the viewer's LegalActions and nothing else: this panel
decides no rule. Offers and proposals come from `legal.terms` (tick sources from `pool`,
dial an amount in lo..hi).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import pygame

from game.rules import (
    Accept,
    AcceptFormer,
    AcceptProposal,
    Draw,
    FailDeal,
    GoingOnce,
    LayClan,
    LegalActions,
    Offer,
    OpenDeal,
    Pass,
    PassFloor,
    PlayStop,
    Propose,
    Recruit,
    Roll,
    SetAskPreference,
    Source,
    SourceKind,
    TermsChoice,
    Withdraw,
)

from .. import draw
from ..i18n import tr
from ..theme import (
    BAD,
    CLAN_KEYS,
    CLAN_LETTERS,
    GOLD,
    GOOD,
    TEXT,
    TEXT_DIM,
    THEME,
    seat_colour,
)
from ..widgets import Button, Toggle, Widget
from . import layout as L
from . import status
from .log import clan_word

# what each of the Boss's bottom-bar buttons does
BOSS_BAR_TIPS = {
    "neg.going_once": "tip.going_once",
    "neg.accept_former": "tip.accept_former",
    "neg.fail": "tip.fail_deal",
    "neg.pass_floor": "tip.pass_floor_boss",
}
PHRASES = ("phrase.too_expensive", "phrase.deal", "phrase.no_way", "phrase.last_offer")
ROW_H = 38
SLOT_STEP = 76  # a deal's slots, spaced so a name like "Player 1" fits under each
LAID_STEP = 84  # cards laid on the table, likewise
ROW_BUTTON_MAX = 124  # a row's buttons (at most three) leave the pending terms their room


@dataclass(frozen=True)
class EditorGeometry:
    sources: list[pygame.Rect]
    amount_y: int
    range_y: int
    summary_bottom: int
    buttons_y: int


def source_clan(v: dict, src) -> int | None:
    kind, ref = (src.kind.value, src.ref) if isinstance(src, Source) else src
    if kind == "placard":
        return int(ref)
    for c in (v.get("negotiation") or {}).get("laid", []):
        if c["id"] == ref:
            return CLAN_KEYS.index(c["clan"])
    return None


def fill_slots(space: dict, committed: set[int], involved: list[int] | None):
    """Which committed clan fills which slot: [(kind, clans, k, filled clans)] per row.

    Uses the engine's involved set when the deal is covered; otherwise the largest
    assignment of different clans to the choice groups (a small search)."""
    req = [CLAN_KEYS.index(k) for k in space["required"]]
    groups = [([CLAN_KEYS.index(k) for k in g["clans"]], g["count"]) for g in space["groups"]]
    pool = set(involved) if involved else set(committed)
    free = (pool - set(req)) if involved else (set(committed) - set(req))
    best: list[list[int]] = [[] for _ in groups]
    best_n = -1

    def search(i: int, left: set[int], acc: list[list[int]]) -> None:
        nonlocal best, best_n
        if i == len(groups):
            n = sum(len(a) for a in acc)
            if n > best_n:
                best, best_n = [list(a) for a in acc], n
            return
        clans, k = groups[i]
        avail = [c for c in clans if c in left]
        for m in range(min(k, len(avail)), -1, -1):
            for pick in combinations(avail, m):
                search(i + 1, left - set(pick), acc + [list(pick)])
                if best_n == sum(min(g[1], len(g[0])) for g in groups):
                    return

    search(0, free, [])
    rows = []
    if req:
        rows.append(("req", req, len(req), [c for c in req if c in committed]))
    for (clans, k), got in zip(groups, best, strict=True):
        rows.append(("grp", clans, k, got))
    return rows


def marker_preview(space: dict, players: list[dict]) -> list[tuple[str, int, list]]:
    """The marker's space as rows: ("req" | "grp", how many, [(clan, holder's name)]).

    Every group of the space, each clan with the player holding its placard; a placard in
    the pool has no holder (the pool takes no part in deals)."""
    holder = {c: p["name"] for p in players for c in p["placards"]}
    return [
        (kind, k, [(c, holder.get(c)) for c in clans])
        for kind, clans, k, _got in fill_slots(space, set(), None)
    ]


class ActionPanel:
    def __init__(self, table) -> None:
        self.table = table
        self.widgets: list[Widget] = []
        self.editor: dict | None = None
        self.card_rects: dict[int, pygame.Rect] = {}  # laid card id -> rect
        self._key = None
        self._static: pygame.Surface | None = None
        self._static_key = None
        self.travel_choice: str | None = None  # a Travel card waiting for its target

    # -- building widgets --------------------------------------------------------------

    def rebuild(self, v: dict, legal: LegalActions, viewer: int | None) -> list[Widget]:
        key = (
            v["version"],
            viewer,
            THEME.epoch,
            None
            if self.editor is None
            else (self.editor["id"], tuple(sorted(self.editor["sources"])), self.editor["amount"]),
            self.travel_choice,
        )
        if key == self._key:
            return self.widgets
        self._key = key
        send = self.table.send
        self.widgets = []
        self.card_rects = self._laid_rects(v)
        if self.editor is not None and not self._editor_valid(legal):
            self.editor = None
        if v["phase"] == "negotiation":
            self._negotiation_widgets(v, legal, viewer, send)
        elif v["phase"] == "game_over":
            self.widgets.append(
                Button(
                    self._main_rect(0, 1),
                    tr("table.see_results"),
                    self.table.show_results,
                    style="primary",
                    size=30,
                    name="results",
                    hotkey=pygame.K_RETURN,
                    tip=tr("tip.see_results"),
                )
            )
        else:
            self._turn_widgets(v, legal, viewer, send)
        self._common_widgets(v, legal, viewer)
        box = self.editor_rect() if self.editor is not None else L.RIGHT
        for w in self.widgets:
            w.panel = box
        return self.widgets

    def _main_rect(self, i: int, n: int, row: int = 0) -> pygame.Rect:
        x0, w = L.RIGHT.x + 24, L.RIGHT.width - 48
        gap = 14
        bw = (w - gap * (n - 1)) // n
        y = L.RIGHT.bottom - 136 + row * 0
        return pygame.Rect(x0 + i * (bw + gap), y, bw, 64)

    def _turn_widgets(self, v, legal, viewer, send) -> None:
        phase = v["phase"]
        me = viewer is not None
        if v.get("window") is not None:
            self._window_widgets(v, legal, viewer, send)
            return
        if phase in ("turn", "moved"):
            deal = OpenDeal(viewer) if me else None
            second = Roll(viewer) if phase == "turn" and me else Draw(viewer) if me else None
            second_label = (
                tr("action.roll") if phase == "turn" else tr("action.draw", n=v["draw_count"])
            )
            b1 = Button(
                self._main_rect(0, 2),
                lambda: tr("phrase.lets_make_a_deal"),
                lambda a=deal: send(a),
                style="primary",
                size=30,
                icon="crown",
                enabled=me and deal in legal,
                name="turn.deal",
                hotkey=pygame.K_d,
                tip=lambda: tr("tip.make_deal"),
            )
            b2 = Button(
                self._main_rect(1, 2),
                second_label,
                lambda a=second: send(a),
                style="good",
                size=30,
                icon="die" if phase == "turn" else None,
                enabled=me and second in legal,
                name="turn.roll" if phase == "turn" else "turn.draw",
                hotkey=pygame.K_r if phase == "turn" else pygame.K_SPACE,
                tip=lambda p=phase: tr("tip.roll" if p == "turn" else "tip.draw"),
            )
            self.widgets += [b1, b2]
        elif phase == "discard":
            recruits = [a for a in legal.fixed if isinstance(a, Recruit)]
            for i, a in enumerate(recruits):
                self.widgets.append(
                    Button(
                        self._recruit_rect(i, len(recruits)),
                        tr("table.recruit_clan", clan=clan_word(int(a.clan))),
                        lambda a=a: send(a),
                        size=24,
                        name=f"recruit.{int(a.clan)}",
                        tip=tr("tip.recruit_clan", clan=clan_word(int(a.clan))),
                    )
                )

    def _recruit_rect(self, i: int, n: int) -> pygame.Rect:
        """Recruitment buttons over the hand limit: rows of three, the last row lowest,
        all inside the panel below the marker's space."""
        per_row = 3
        rows = (n + per_row - 1) // per_row
        row, col = divmod(i, per_row)
        gap, h = 12, 56
        bw = (L.RIGHT.width - 48 - gap * (per_row - 1)) // per_row
        y = L.RIGHT.bottom - 140 - (rows - 1 - row) * (h + 8)
        return pygame.Rect(L.RIGHT.x + 24 + col * (bw + gap), y, bw, h)

    def _common_widgets(self, v, legal, viewer) -> None:
        if viewer is None or v["phase"] == "game_over" or self.editor is not None:
            return
        y = L.RIGHT.bottom - 54
        x = L.RIGHT.x + 24
        for key in PHRASES:
            w = min(170, max(110, draw.text_width(tr(key), 20, True) + 30))
            self.widgets.append(
                Button(
                    (x, y, w, 42),
                    lambda k=key: tr(k),
                    lambda k=key: self.table.say(k),
                    style="ghost",
                    size=20,
                    name=key,
                    sound=None,
                    tip=tr("tip.phrase"),
                )
            )
            x += w + 8
        pref = next((a for a in legal.fixed if isinstance(a, SetAskPreference)), None)
        current = v["players"][viewer].get("asks_only_when_touched", False)
        tog = Toggle(
            pygame.Rect(x + 6, y - 2, L.RIGHT.right - x - 30, 46),
            lambda: tr("table.ask_pref"),
            lambda c=current: c,
            lambda _val, a=pref: self.table.send(a) if a is not None else None,
            tip=lambda: tr("table.ask_pref.desc"),
            name="pref.toggle",
            size=20,
            enabled=pref is not None,
        )
        self.widgets.append(tog)

    def _negotiation_widgets(self, v, legal, viewer, send) -> None:
        if self.editor is not None:  # the editor is modal: only its own controls
            self._editor_widgets(v, legal)
            return
        neg = v["negotiation"]
        boss = neg["boss"]
        win = v.get("window")
        me = viewer
        names = [p["name"] for p in v["players"]]
        rows = self._row_seats(v)
        terms_by_target = {}
        offer_choice = None
        for t in legal.terms:
            if isinstance(t.action, Propose):
                terms_by_target[t.action.to] = t
            else:
                offer_choice = t
        # per-player rows
        for i, seat in enumerate(rows):
            y = self._rows_top() + i * ROW_H
            bx = L.RIGHT.right - 24
            buttons = []
            if me is not None and me == boss:
                pend = neg["pending"].get(str(seat))
                a_acc = Accept(me, seat)
                if pend and not pend["by_boss"]:
                    buttons.append(
                        (
                            tr("action.accept"),
                            lambda a=a_acc: send(a),
                            a_acc in legal,
                            f"neg.accept.{seat}",
                            "good",
                            tr("tip.accept_offer", name=names[seat]),
                        )
                    )
                choice = terms_by_target.get(seat)
                label = tr("action.counter") if pend else tr("table.propose")
                buttons.append(
                    (
                        label,
                        lambda c=choice, s=seat, p=pend: self.open_editor(c, s, p, v),
                        choice is not None,
                        f"neg.counter.{seat}",
                        "normal",
                        tr("tip.counter_offer" if pend else "tip.propose", name=names[seat]),
                    )
                )
                a_wd = Withdraw(me, seat)
                if pend:
                    buttons.append(
                        (
                            tr("action.withdraw"),
                            lambda a=a_wd: send(a),
                            a_wd in legal,
                            f"neg.withdraw.{seat}",
                            "ghost",
                            tr("tip.withdraw_to", name=names[seat]),
                        )
                    )
            elif me is not None and me == seat:
                pend = neg["pending"].get(str(seat))
                if pend and pend["by_boss"]:
                    a = AcceptProposal(me)
                    buttons.append(
                        (
                            tr("action.accept"),
                            lambda a=a: send(a),
                            a in legal,
                            "neg.accept_proposal",
                            "good",
                            tr("tip.accept_proposal", name=names[boss]),
                        )
                    )
                buttons.append(
                    (
                        tr("action.counter") if pend else tr("action.offer"),
                        lambda c=offer_choice, p=pend: self.open_editor(c, boss, p, v),
                        offer_choice is not None,
                        "neg.offer",
                        "primary" if not pend else "normal",
                        tr("tip.counter_proposal" if pend else "tip.offer", name=names[boss]),
                    )
                )
                if pend:
                    a = Withdraw(me, me)
                    buttons.append(
                        (
                            tr("action.withdraw"),
                            lambda a=a: send(a),
                            a in legal,
                            "neg.withdraw.self",
                            "ghost",
                            tr("tip.withdraw_own"),
                        )
                    )
            for label, fn, ok, name, style, tip in reversed(buttons):
                w = min(ROW_BUTTON_MAX, max(100, draw.text_width(label, 18, True) + 24))
                r = pygame.Rect(bx - w, y + 3, w, ROW_H - 8)
                self.widgets.append(
                    Button(r, label, fn, style=style, size=18, enabled=bool(ok), name=name, tip=tip)
                )
                bx -= w + 6
        # the bottom bar
        if win is not None:
            self._window_widgets(v, legal, me, send)
        elif me is not None and me == boss:
            opts = [
                (tr("phrase.going_once"), GoingOnce(me), "good", "neg.going_once", pygame.K_g),
                (tr("action.fail_deal"), FailDeal(me), "danger", "neg.fail", pygame.K_f),
            ]
            if any(isinstance(a, AcceptFormer) for a in legal.fixed):
                opts.insert(
                    1,
                    (
                        tr("table.accept_former"),
                        AcceptFormer(me),
                        "normal",
                        "neg.accept_former",
                        pygame.K_a,
                    ),
                )
            opts.append(
                (tr("table.pass_floor"), PassFloor(me), "normal", "neg.pass_floor", pygame.K_p)
            )
            for i, (label, a, style, name, key) in enumerate(opts):
                self.widgets.append(
                    Button(
                        self._bar_rect(i, len(opts)),
                        label,
                        lambda a=a: send(a),
                        style=style,
                        size=24,
                        enabled=a in legal,
                        name=name,
                        hotkey=key,
                        tip=tr(BOSS_BAR_TIPS[name]),
                    )
                )
        elif me is not None:
            a_pf = PassFloor(me)
            my_pending = neg["pending"].get(str(me))
            self.widgets.append(
                Button(
                    self._bar_rect(0, 2),
                    tr("action.offer"),
                    lambda c=offer_choice, p=my_pending: self.open_editor(c, boss, p, v),
                    style="primary",
                    size=26,
                    enabled=offer_choice is not None,
                    name="bar.offer",
                    hotkey=pygame.K_o,
                    tip=tr("tip.offer", name=names[boss]),
                )
            )
            self.widgets.append(
                Button(
                    self._bar_rect(1, 2),
                    tr("table.pass_floor"),
                    lambda a=a_pf: send(a),
                    style="normal",
                    size=26,
                    enabled=a_pf in legal,
                    name="neg.pass_floor",
                    hotkey=pygame.K_p,
                    tip=tr("tip.pass_floor"),
                )
            )

    def _window_widgets(self, v, legal, me, send) -> None:
        win = v["window"]
        asked = me is not None and me in (win.get("asked") or [])
        a_pass = Pass(me) if me is not None else None
        a_stop = PlayStop(me) if me is not None else None
        if win["kind"] == "going_once":
            self.widgets.append(
                Button(
                    self._bar_rect(0, 2),
                    tr("table.let_close"),
                    lambda a=a_pass: send(a),
                    style="good",
                    size=26,
                    enabled=asked and a_pass in legal,
                    name="win.pass",
                    hotkey=pygame.K_SPACE,
                    tip=tr("tip.let_close"),
                )
            )
        else:
            self.widgets.append(
                Button(
                    self._bar_rect(0, 2),
                    tr("table.let_pass"),
                    lambda a=a_pass: send(a),
                    style="good",
                    size=26,
                    enabled=asked and a_pass in legal,
                    name="win.pass",
                    hotkey=pygame.K_SPACE,
                    tip=tr("tip.let_pass"),
                )
            )
            self.widgets.append(
                Button(
                    self._bar_rect(1, 2),
                    tr("card.stop") + "!",
                    lambda a=a_stop: send(a),
                    style="danger",
                    size=28,
                    enabled=asked and a_stop in legal,
                    name="win.stop",
                    hotkey=pygame.K_s,
                    tip=lambda: tr("tip.card.stop"),
                )
            )

    def _bar_rect(self, i: int, n: int) -> pygame.Rect:
        x0, w = L.RIGHT.x + 24, L.RIGHT.width - 48
        if n <= 2:  # one or two big buttons sit on the right, under the thumb of the eye
            w = 2 * 270 + 14
            x0 = L.RIGHT.right - 24 - w
        gap = 12
        bw = (w - gap * (n - 1)) // n
        return pygame.Rect(x0 + i * (bw + gap), L.RIGHT.bottom - 112, bw, 50)

    def _rows_top(self) -> int:
        return L.RIGHT.y + 322

    def _row_seats(self, v) -> list[int]:
        boss = v["negotiation"]["boss"]
        n = len(v["players"])
        return [(boss + k) % n for k in range(1, n)]

    # -- the offer / proposal editor ---------------------------------------------------------

    def open_editor(
        self, choice: TermsChoice | None, seat: int, pending: dict | None, v: dict
    ) -> None:
        if choice is None:
            return
        sources = set()
        amount = choice.lo
        if pending:
            pend_srcs = {Source(SourceKind(k), r) for k, r in pending["sources"]}
            sources = {s for s in choice.pool if s in pend_srcs}
            amount = min(choice.hi, max(choice.lo, pending["amount"]))
        elif choice.pool:
            sources = set(choice.pool)
        self.editor = {
            "id": (type(choice.action).__name__, seat),
            "choice": choice,
            "sources": sources,
            "amount": amount,
            "seat": seat,
        }
        self._key = None

    def close_editor(self) -> None:
        self.editor = None
        self._key = None

    def _editor_valid(self, legal: LegalActions) -> bool:
        ed = self.editor
        for t in legal.terms:
            if type(t.action) is type(ed["choice"].action) and getattr(
                t.action, "to", None
            ) == getattr(ed["choice"].action, "to", None):
                fresh = set(t.pool) - set(ed["choice"].pool)
                ed["choice"] = t
                ed["sources"] = {s for s in ed["sources"] if s in t.pool}
                clan = ed.pop("lay_clan", None)
                if clan is not None:  # the card just laid from the editor: ticked
                    ed["sources"] |= {
                        s for s in fresh if s.kind is SourceKind.CARD and self._laid_clan(s) == clan
                    }
                ed["amount"] = min(t.hi, max(t.lo, ed["amount"]))
                return True
        return False

    def hints(self, v: dict) -> list[tuple[pygame.Rect, str]]:
        """Tooltips of drawn (not clickable) parts of the panel: the negotiation's move meter."""
        neg = v.get("negotiation")
        if v["phase"] != "negotiation" or neg is None or self.editor is not None:
            return []
        meter = pygame.Rect(L.RIGHT.x + 520, L.RIGHT.y + 60, 330, 28)
        text = tr(
            "tip.moves", n=neg["actions"], limit=neg["limit"], name=self.table.names[neg["boss"]]
        )
        return [(meter, text)]

    def _laid_clan(self, src) -> int | None:
        v = self.table.session.view(self.table.session.viewer)
        return source_clan(v, src)

    def editor_rect(self) -> pygame.Rect:
        return pygame.Rect(
            L.RIGHT.x + 16, L.RIGHT.y + 296, L.RIGHT.width - 32, L.RIGHT.height - 304
        )

    def _editor_widgets(self, v, legal) -> None:
        ed = self.editor
        choice: TermsChoice = ed["choice"]
        r = self.editor_rect()
        price = v["negotiation"]["price"]

        def set_amount(x):
            ed["amount"] = min(choice.hi, max(choice.lo, x))
            self._key = None

        def toggle(src):
            ed["sources"] ^= {src}
            self._key = None

        # sources: each ticked by its clan's letter on the keyboard too (the first source of
        # a clan, when a player holds both its placard and a laid card of it)
        # a Clan card of a needed clan still in the hand can be laid from here (offers only)
        ed["lays"] = (
            [a for a in legal.fixed if isinstance(a, LayClan)]
            if isinstance(choice.action, Offer)
            else []
        )
        geo = self._editor_geometry(self._editor_slots(ed))
        lettered: set[int] = set()
        for i, src in enumerate(choice.pool):
            on = src in ed["sources"]
            label = self._source_label(v, src)
            clan = source_clan(v, src)
            hotkey = None
            if clan is not None and clan not in lettered:
                lettered.add(clan)
                hotkey = getattr(pygame, f"K_{CLAN_LETTERS[clan].lower()}")
            b = Button(
                geo.sources[i],
                label,
                lambda s=src: toggle(s),
                style="primary" if on else "ghost",
                size=22,
                name=f"editor.src.{i}",
                hotkey=hotkey,
                tip=tr("tip.editor.source", source=label),
            )
            self.widgets.append(b)
        # a Clan card of a needed clan still in the hand: lay it from here, then offer it;
        # its button takes the slot after the sources
        for j, a in enumerate(ed["lays"]):
            word = clan_word(int(a.clan))
            self.widgets.append(
                Button(
                    geo.sources[len(choice.pool) + j],
                    tr("table.editor.lay", clan=word),
                    lambda a=a: self._lay_from_editor(a),
                    style="normal",
                    size=20,
                    name=f"editor.lay.{int(a.clan)}",
                    tip=tr("tip.editor.lay", clan=word),
                )
            )
        ay = geo.amount_y
        cx = r.x + 24
        amount = ed["amount"]
        self.widgets += [
            Button(
                (cx, ay, 64, 58),
                "–",
                lambda: set_amount(ed["amount"] - 1),
                size=34,
                enabled=amount > choice.lo,
                name="editor.minus",
                hotkey=pygame.K_DOWN,
                tip=tr("tip.editor.minus"),
            ),
            Button(
                (cx + 260, ay, 64, 58),
                "+",
                lambda: set_amount(ed["amount"] + 1),
                size=34,
                enabled=amount < choice.hi,
                name="editor.plus",
                hotkey=pygame.K_UP,
                tip=tr("tip.editor.plus"),
            ),
            Button(
                (cx + 340, ay, 220, 58),
                "+" + tr("phrase.one_dividend"),
                lambda: set_amount(ed["amount"] + price),
                size=22,
                enabled=amount + price <= choice.hi,
                name="editor.dividend",
                hotkey=pygame.K_1,
                tip=lambda: tr("tip.one_dividend", amount=tr("money.amount", n=price)),
            ),
            Button(
                (cx + 572, ay, 110, 58),
                tr("table.min", amount=tr("money.amount", n=choice.lo)),
                lambda: set_amount(choice.lo),
                size=20,
                enabled=amount != choice.lo,
                name="editor.zero",
                tip=tr("tip.editor.min", amount=tr("money.amount", n=choice.lo)),
            ),
            Button(
                (cx + 694, ay, r.right - 24 - cx - 694, 58),
                tr("table.max", amount=tr("money.amount", n=choice.hi)),
                lambda: set_amount(choice.hi),
                size=22,
                enabled=amount != choice.hi,
                name="editor.max",
                tip=tr("tip.editor.max", amount=tr("money.amount", n=choice.hi)),
            ),
        ]
        action = choice.make(tuple(ed["sources"]), ed["amount"])
        ok = action in legal

        def do_send(a=action):
            self.close_editor()
            self.table.send(a)

        label = tr("table.send_offer") if isinstance(action, Offer) else tr("table.send_proposal")
        self.widgets += [
            Button(
                (r.right - 24 - 260, geo.buttons_y, 260, 56),
                label,
                do_send,
                style="primary",
                size=26,
                enabled=ok,
                name="editor.send",
                hotkey=pygame.K_RETURN,
                tip=tr("tip.send_offer" if isinstance(action, Offer) else "tip.send_proposal"),
            ),
            Button(
                (r.right - 24 - 260 - 14 - 200, geo.buttons_y, 200, 56),
                tr("ui.cancel"),
                self.close_editor,
                style="ghost",
                size=24,
                name="editor.cancel",
                hotkey=pygame.K_ESCAPE,
                tip=tr("tip.editor.cancel"),
            ),
        ]

    def _lay_from_editor(self, a: LayClan) -> None:
        """Lay the card; the editor stays open and ticks the new source once it is laid."""
        self.editor["lay_clan"] = int(a.clan)
        self.table.send(a)

    @staticmethod
    def _editor_slots(ed: dict) -> int:
        """Slots in the editor's source rows: the sources, the Clan cards that can be laid
        from the editor, and with no source at all one more for the note saying so."""
        pool = ed["choice"].pool
        return len(pool) + len(ed.get("lays") or []) + (0 if pool else 1)

    def _editor_geometry(self, n_sources: int) -> EditorGeometry:
        """The editor's rows, top to bottom: title, the sources (rows of up to three: four
        go two by two; Clan cards to lay, or the note that there is nothing to offer, take
        the slots after them), the amount dial, the range and the summary line, Cancel and
        Send."""
        r = self.editor_rect()
        per_row = 2 if n_sources == 4 else min(3, max(1, n_sources))
        gap, h = 12, 50
        bw = (r.width - 48 - gap * (per_row - 1)) // per_row
        sources = []
        for i in range(n_sources):
            row, col = divmod(i, per_row)
            sources.append(
                pygame.Rect(r.x + 24 + col * (bw + gap), r.y + 62 + row * (h + 8), bw, h)
            )
        rows = max(1, (n_sources + per_row - 1) // per_row)
        amount_y = r.y + 62 + rows * (h + 8) + 6
        buttons_y = r.bottom - 64
        return EditorGeometry(sources, amount_y, amount_y + 62, buttons_y - 6, buttons_y)

    def _source_label(self, v, src) -> str:
        clan = source_clan(v, src)
        word = clan_word(clan) if clan is not None else "?"
        if src.kind is SourceKind.CARD:
            return tr("table.src_card", clan=word)
        return word

    # -- geometry of laid cards (travel targets, animations) -----------------------------------

    def _laid_rects(self, v) -> dict[int, pygame.Rect]:
        out = {}
        neg = v.get("negotiation")
        if not neg:
            return out
        x = L.RIGHT.x + 24 + 150
        for c in neg["laid"]:
            out[c["id"]] = pygame.Rect(x, L.RIGHT.y + 204, 50, 70)
            x += LAID_STEP
        return out

    # -- drawing ----------------------------------------------------------------------

    def static(self, v: dict, viewer: int | None) -> tuple[pygame.Surface, tuple[int, int]]:
        """The panel's unchanging parts for this view (cached), and where they go."""
        key = (v["version"], viewer, THEME.epoch, self.editor is not None)
        if key != self._static_key:
            self._static = self._render_static(v, viewer)
            self._static_key = key
        return self._static, (L.RIGHT.x - 10, L.RIGHT.y - 10)

    def draw_live(self, surface, v: dict, session, t: float, glow_targets: set) -> None:
        """What changes from frame to frame: countdowns, target glows, the editor, widgets."""
        for cid, r in self.card_rects.items():
            if ("card", cid) in glow_targets:
                draw.draw_glow(
                    surface, r, GOLD, radius=8, spread=8, alpha=int(140 + 115 * draw.pulse(t, 1.4))
                )
        for cd in session.countdowns():
            self._draw_countdown(surface, cd)
        if self.editor is not None:
            self._draw_editor(surface, v)
        for w in self.widgets:
            w.draw(surface, t)

    def _draw_countdown(self, surface, cd) -> None:
        if cd.kind == "window":
            r = pygame.Rect(L.RIGHT.x + 24, L.RIGHT.bottom - 126, L.RIGHT.width - 48, 10)
        elif cd.kind == "turn":  # LAN turn clock: a thin bar over the turn buttons
            r = pygame.Rect(L.RIGHT.x + 24, L.RIGHT.bottom - 158, L.RIGHT.width - 48, 8)
        else:
            r = pygame.Rect(L.RIGHT.x + 590, L.RIGHT.y + 90, 130, 6)
        frac = 0.0 if cd.total <= 0 else max(0.0, min(1.0, cd.remaining / cd.total))
        pygame.draw.rect(surface, (40, 50, 46), r, border_radius=6)
        fill = r.copy()
        fill.width = max(0, int(r.width * frac))
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
                slot = self._bar_rect(1, 2)
                word = draw.fit(tr(f"window.stage.{cd.stage}"), 28, slot.width - 20, GOLD, True)
                surface.blit(word, word.get_rect(center=slot.center))
        elif cd.kind == "turn":
            names = self.table.names
            who = ", ".join(names[s] for s in cd.seats if 0 <= s < len(names))
            label = tr("window.turn_clock", name=who, s=secs)
            s = draw.fit(label, 20, r.width, TEXT_DIM, True)
            surface.blit(s, s.get_rect(bottomright=(r.right, r.top - 4)))
        else:
            m, sec = divmod(secs, 60)
            s = draw.text(f"{m}:{sec:02d}", 18, TEXT_DIM)
            surface.blit(s, s.get_rect(midright=(r.left - 8, r.centery)))

    def _render_static(self, v: dict, viewer: int | None) -> pygame.Surface:
        r = L.RIGHT
        surf = draw.panel_surface(r.width, r.height, alpha=222).copy()
        ox, oy = 10 - r.x, 10 - r.y  # logical -> surface coordinates
        if v["phase"] == "negotiation":
            self._static_negotiation(surf, v, viewer, ox, oy)
        else:
            self._static_turn(surf, v, viewer, ox, oy)
        return surf

    def _static_turn(self, surf, v, viewer, ox, oy) -> None:
        r = L.RIGHT
        names = [p["name"] for p in v["players"]]
        turn = v["turn"]
        phase = v["phase"]
        if phase == "game_over":
            title = tr("results.game_over")
            prompt = ""
        else:
            title = status.turn_title(v, viewer, names)
            prompt = status.turn_prompt(v, viewer, names)
        if v.get("window") is not None:
            self._banner(surf, v, v["window"], names, r.x + ox, r.y + oy + r.height - 164)
        col = seat_colour(turn) if phase != "game_over" else GOLD
        pygame.draw.rect(surf, col, (r.x + ox + 24, r.y + oy + 26, 10, 52), border_radius=5)
        surf.blit(draw.fit(title, 40, r.width - 90, TEXT, True), (r.x + ox + 48, r.y + oy + 22))
        if prompt:
            draw.blit_wrapped(
                surf,
                prompt,
                pygame.Rect(r.x + ox + 48, r.y + oy + 80, r.width - 96, 80),
                26,
                TEXT_DIM,
            )
        # the marker's space, large
        m = v.get("marker")
        if m is None or phase == "game_over":
            return
        sp = v["board"]["spaces"][m]
        box = pygame.Rect(r.x + ox + 24, r.y + oy + 170, r.width - 48, 300)
        pygame.draw.rect(surf, (10, 30, 22, 200), box, border_radius=16)
        pygame.draw.rect(surf, (70, 110, 90), box, width=2, border_radius=16)
        head = draw.fit(tr("table.space_here", n=m + 1), 28, box.width - 260, TEXT, True)
        surf.blit(head, (box.x + 20, box.y + 16))
        value = tr("money.amount", n=sp["dividends"] * v["price"])
        val = draw.text(value, 44, GOLD, True)
        surf.blit(val, val.get_rect(topright=(box.right - 20, box.y + 8)))
        sub = draw.fit(f"{sp['dividends']} × {tr('money.amount', n=v['price'])}", 22, 240, TEXT_DIM)
        surf.blit(sub, sub.get_rect(topright=(box.right - 20, box.y + 62)))
        # the groups flow left to right, wrapping onto a second line: every group shows
        x, y = box.x + 20, box.y + 100
        chip, step, gap = 52, 100, 34
        for kind, k, holders in marker_preview(sp, v["players"]):
            lab = draw.text(tr("table.k_of", k=k), 24, TEXT, True) if kind == "grp" else None
            width = (lab.get_width() + 14 if lab else 0) + len(holders) * step - (step - chip)
            if x > box.x + 20 and x + width > box.right - 20:
                x, y = box.x + 20, y + 92
            if lab is not None:
                surf.blit(lab, lab.get_rect(midleft=(x, y + chip // 2 + 2)))
                x += lab.get_width() + 14
            for c, who in holders:
                surf.blit(draw.clan_chip(c, chip), (x, y))
                if who:
                    nm = draw.fit(draw.ellipsize(who, 16, 98), 16, 98, TEXT_DIM)
                    surf.blit(nm, nm.get_rect(midtop=(x + chip // 2, y + chip + 4)))
                x += step
            x += gap - (step - chip)

    def _static_negotiation(self, surf, v, viewer, ox, oy) -> None:
        r = L.RIGHT
        neg = v["negotiation"]
        names = [p["name"] for p in v["players"]]
        boss = neg["boss"]
        sp = v["board"]["spaces"][neg["space"]]
        X = r.x + ox
        Y = r.y + oy
        # header
        title = tr("table.deal_on", n=neg["space"] + 1)
        surf.blit(draw.fit(title, 34, 420, TEXT, True), (X + 24, Y + 18))
        sub = f"{tr('money.amount', n=neg['proceeds'])} = {neg['proceeds'] // max(1, neg['price'])} × {tr('money.amount', n=neg['price'])}"
        surf.blit(draw.fit(sub, 24, 420, GOLD, True), (X + 24, Y + 62))
        cr = draw.crown(40)
        bx = X + 470
        surf.blit(cr, (bx, Y + 22))
        bl = draw.fit(
            tr("table.boss_is", name=names[boss]), 28, r.width - 520 - 24, seat_colour(boss), True
        )
        surf.blit(bl, (bx + 50, Y + 24))
        used = neg["actions"]
        lim = neg["limit"]
        meter = pygame.Rect(bx + 50, Y + 70, 200, 8)
        pygame.draw.rect(surf, (40, 54, 48), meter, border_radius=5)
        f = meter.copy()
        f.width = int(meter.width * min(1.0, used / max(1, lim)))
        pygame.draw.rect(surf, BAD if neg["limit_spent"] else (120, 170, 220), f, border_radius=5)
        ml = draw.fit(tr("table.limit", n=used, limit=lim), 18, 200, TEXT_DIM)
        surf.blit(ml, ml.get_rect(midleft=(meter.right + 12, meter.centery)))
        # slots
        committed = set(neg["committed"])
        involved = [source_clan(v, s) for s in neg["involved"]] if neg["covered"] else None
        travel = {int(k) for k in neg["travel"]}
        owner_of = self._committed_owners(v)
        status = tr("table.covered") if neg["covered"] else tr("table.not_covered")
        st = draw.fit(status, 22, 300, GOOD if neg["covered"] else (240, 190, 90), True)
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
                    surf.blit(
                        draw.clan_chip(c, mini, "dim" if c in travel else "solid"), (mx, y - 1)
                    )
                    mx += mini + 3
                sy = y + 26
                for j in range(k):
                    c = got[j] if j < len(got) else None
                    self._slot(surf, x + j * SLOT_STEP, sy, size, c, owner_of.get(c), names)
                x = box.right + 16
            else:
                for c in clans:
                    self._slot(
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
        # cards on the table
        ty = Y + 200
        lab = draw.fit(tr("table.on_table"), 20, 140, TEXT_DIM)
        surf.blit(lab, (X + 24, ty + 26))
        if not neg["laid"] and not travel:
            surf.blit(
                draw.fit(tr("table.nothing_laid"), 20, 600, (120, 140, 130)), (X + 174, ty + 26)
            )
        for c in neg["laid"]:
            rr = self.card_rects[c["id"]].move(ox, oy)
            from .. import cardart

            surf.blit(cardart.face("clan_" + c["clan"], rr.width, rr.height), rr)
            nm = draw.fit(
                draw.ellipsize(names[c["owner"]], 18, LAID_STEP - 4), 18, LAID_STEP - 4, TEXT_DIM
            )
            surf.blit(nm, nm.get_rect(midtop=(rr.centerx, rr.bottom + 2)))
        tx = X + 174 + LAID_STEP * len(neg["laid"]) + (10 if neg["laid"] else 0)
        for k in sorted(travel):
            surf.blit(draw.clan_chip(k, 44, "dim"), (tx, ty + 12))
            surf.blit(draw.suitcase(34), (tx + 26, ty + 0))
            lbl = draw.fit(tr("term.travelling"), 14, 90, TEXT_DIM)
            surf.blit(lbl, lbl.get_rect(midtop=(tx + 22, ty + 62)))
            tx += 96
        # rows: each other player's agreement and pending terms
        top = self._rows_top() + oy
        head_y = top - 24
        cols = (X + 24, X + 200, X + 390)
        heads = (
            (tr("term.agreement"), cols[1], cols[2] - cols[1] - 8),
            (tr("table.pending"), cols[2], X + r.width - 24 - cols[2]),
        )
        for txt, cx, room in heads:
            surf.blit(draw.fit(txt, 18, room, TEXT_DIM), (cx, head_y))
        for i, seat in enumerate(self._row_seats(v)):
            y = top + i * ROW_H
            row = pygame.Rect(X + 16, y, r.width - 32, ROW_H - 4)
            if i % 2 == 0:
                pygame.draw.rect(surf, (255, 255, 255, 12), row, border_radius=8)
            pygame.draw.rect(
                surf, seat_colour(seat), (row.x + 4, row.y + 8, 6, row.height - 16), border_radius=3
            )
            nm = draw.fit(draw.ellipsize(names[seat], 22, 180, True), 22, 180, TEXT, True)
            surf.blit(nm, nm.get_rect(midleft=(cols[0] + 4, row.centery)))
            agr = neg["agreements"].get(str(seat))
            if agr:
                self._terms(surf, v, agr, cols[1], row.centery, GOOD, "✓", cols[2] - 8)
            else:
                surf.blit(draw.text("—", 20, (110, 130, 120)), (cols[1], row.centery - 12))
            pend = neg["pending"].get(str(seat))
            if pend:
                tag = (
                    tr("table.tag.proposal")
                    if pend["by_boss"]
                    else tr("table.tag.former")
                    if pend["was_agreed"]
                    else tr("table.tag.offer")
                )
                self._terms(
                    surf,
                    v,
                    pend,
                    cols[2],
                    row.centery,
                    (240, 200, 110),
                    tag,
                    X + r.width - 24 - 3 * (ROW_BUTTON_MAX + 6),
                )
        # the window banner / status line above the bottom bar
        win = v.get("window")
        by = Y + r.height - 164
        if win is not None:
            self._banner(surf, v, win, names, X, by)
        else:
            text = self._status_text(v, viewer, names)
            surf.blit(draw.fit(text, 22, r.width - 48, TEXT_DIM), (X + 24, by + 4))

    def _banner(self, surf, v, win, names, X, by) -> None:
        text = self._window_text(v, win, names)
        band = pygame.Rect(X + 16, by - 6, L.RIGHT.width - 32, 44)
        pygame.draw.rect(surf, (70, 50, 20, 200), band, border_radius=10)
        pygame.draw.rect(surf, GOLD, band, width=2, border_radius=10)
        surf.blit(draw.fit(text, 22, band.width - 24, TEXT, True), (band.x + 12, band.y + 9))

    def _slot(self, surf, x, y, size, clan, owner, names, want=None) -> None:
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
            nm = draw.fit(
                draw.ellipsize(names[owner], 18, SLOT_STEP - 4), 18, SLOT_STEP - 4, TEXT_DIM
            )
            surf.blit(nm, nm.get_rect(midtop=(x + size // 2, y + size + 1)))

    def _committed_owners(self, v) -> dict[int, int]:
        """clan -> seat providing it (Boss first, then agreements)."""
        neg = v["negotiation"]
        boss = neg["boss"]
        travel = {int(k) for k in neg["travel"]}
        out: dict[int, int] = {}
        for sp in neg["involved"]:
            c = source_clan(v, sp)
            if c is not None:
                out[c] = self._owner(v, sp)
        for c in v["players"][boss]["placards"]:
            if c not in travel:
                out.setdefault(c, boss)
        for card in neg["laid"]:
            if card["owner"] == boss:
                out.setdefault(CLAN_KEYS.index(card["clan"]), boss)
        for seat, agr in neg["agreements"].items():
            for s in agr["sources"]:
                c = source_clan(v, s)
                if c is not None:
                    out.setdefault(c, int(seat))
        return out

    def _owner(self, v, src) -> int | None:
        kind, ref = src
        if kind == "placard":
            for p in v["players"]:
                if ref in p["placards"]:
                    return p["seat"]
            return None
        for c in v["negotiation"]["laid"]:
            if c["id"] == ref:
                return c["owner"]
        return None

    def _terms(self, surf, v, terms, x, cy, colour, tag, max_x=None) -> None:
        chips = terms["sources"]
        for s in chips[:4]:
            c = source_clan(v, s)
            if c is None:
                continue
            chip = draw.clan_chip(c, 28)
            surf.blit(chip, (x, cy - 14))
            if s[0] == "card":
                pygame.draw.rect(
                    surf, (250, 250, 250), (x - 2, cy - 16, 32, 32), width=2, border_radius=6
                )
            x += 32
        if not chips:
            fee = draw.fit(tr("table.fee"), 18, 70, TEXT_DIM)
            surf.blit(fee, fee.get_rect(midleft=(x, cy)))
            x += fee.get_width() + 6
        amt = draw.text(tr("money.amount", n=terms["amount"]), 24, colour, True)
        surf.blit(amt, amt.get_rect(midleft=(x + 6, cy)))
        x += amt.get_width() + 12
        room = 110 if max_x is None else min(110, max_x - x)
        if room >= 36:
            t = draw.fit(tag, 16, room, colour, min_size=11)
            surf.blit(t, t.get_rect(midleft=(x, cy + 1)))

    def _window_text(self, v, win, names) -> str:
        actor = names[win["actor"]]
        kind = win["kind"]
        if kind == "travel":
            from .log import Describer

            d = Describer(names)
            for c in v["negotiation"]["laid"]:
                d.laid[c["id"]] = (c["owner"], c["clan"])
            text = tr("window.travel", name=actor, target=d.source(win["target"]))
        elif kind == "boss":
            text = tr("window.boss", name=actor)
        elif kind == "recruit":
            text = tr("window.recruit", name=actor, clan=clan_word(win["recruit"]))
        else:
            text = tr("window.going_once", name=actor)
        asked = win.get("asked") or []
        viewer = v["seat"]
        if viewer in asked:
            text += " — " + (
                tr("window.your_call_close") if kind == "going_once" else tr("window.your_call")
            )
        elif asked:
            text += " — " + tr("window.asking", names=", ".join(names[s] for s in asked))
        return text

    def _status_text(self, v, viewer, names) -> str:
        return status.negotiation_status(v, viewer, names)

    def _draw_editor(self, surface, v) -> None:
        ed = self.editor
        r = self.editor_rect()
        draw.draw_panel(surface, r, fill=(28, 46, 40), alpha=250, edge=GOLD, radius=16)
        choice = ed["choice"]
        names = [p["name"] for p in v["players"]]
        if isinstance(choice.action, Offer):
            title = tr("table.editor.offer", name=names[v["negotiation"]["boss"]])
        else:
            title = tr("table.editor.propose", name=names[choice.action.to])
        surface.blit(draw.fit(title, 28, r.width - 48, TEXT, True), (r.x + 24, r.y + 18))
        geo = self._editor_geometry(self._editor_slots(ed))
        if not choice.pool:  # the note takes the slot after any Clan cards to lay
            note = tr("table.editor.lay_first") if ed.get("lays") else tr("table.editor.no_sources")
            box = geo.sources[-1]
            text = draw.fit(note, 22, box.width, TEXT_DIM)
            surface.blit(text, text.get_rect(midleft=(box.x, box.centery)))
        amount = draw.text(tr("money.amount", n=ed["amount"]), 40, GOLD, True)
        surface.blit(amount, amount.get_rect(center=(r.x + 24 + 64 + 98, geo.amount_y + 29)))
        rng = tr(
            "table.editor.range",
            lo=tr("money.amount", n=choice.lo),
            hi=tr("money.amount", n=choice.hi),
        )
        surface.blit(draw.fit(rng, 20, r.width - 48, TEXT_DIM), (r.x + 24, geo.range_y))
        what = ", ".join(self._source_label(v, s) for s in sorted(ed["sources"])) or tr("table.fee")
        summary = draw.fit(
            tr("table.editor.summary", what=what, amount=tr("money.amount", n=ed["amount"])),
            22,
            r.width - 48,
            TEXT,
        )
        surface.blit(summary, summary.get_rect(bottomleft=(r.x + 24, geo.summary_bottom)))
