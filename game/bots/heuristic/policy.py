"""The heuristic's decisions: `Policy.decide` picks one action; `Policy.candidates` lists the
few sensible alternatives a search bot compares (the heuristic's own choice first)."""

from __future__ import annotations

from game.rules import (
    Accept,
    AcceptProposal,
    Action,
    Discard,
    Draw,
    FailDeal,
    GoingOnce,
    LegalActions,
    Offer,
    OpenDeal,
    Pass,
    PassFloor,
    PlaceMarker,
    PlayBoss,
    PlayStop,
    Propose,
    Roll,
)
from game.rules.state import Phase

from ..obs import Obs
from .boss import BossPlay
from .investor import InvestorPlay
from .moves import find_move, first_of, passive_move
from .planning import clans_in


class Policy(BossPlay, InvestorPlay):
    """The heuristic's decisions: the turn, the marker, discards, and the negotiation (as
    Boss or investor); valuations, card plays and talk come from the bases."""

    def candidates(self, o: Obs, legal: LegalActions, must_act: bool = True, limit: int = 5):
        """The heuristic's own choice first, then a few sensible alternatives."""
        first = self.decide(o, legal, must_act)
        out: list[Action] = []

        def add(a):
            if a is not None and a not in out:
                out.append(a)

        add(first)
        if o.win is not None:
            add(first_of(legal, Pass))
            add(first_of(legal, PlayStop))
            if o.win.kind == "going_once":
                add(first_of(legal, PlayBoss))
                add(self.best_travel(o, legal))
        elif o.view.phase is Phase.TURN or o.view.phase is Phase.MOVED:
            add(first_of(legal, OpenDeal))
            add(first_of(legal, Roll))
            add(first_of(legal, Draw))
        elif o.view.phase is Phase.DISCARD:
            add(self.best_recruit(o, legal))
            ranked = sorted(
                (a for a in legal.fixed if isinstance(a, Discard)),
                key=lambda a: (self.card_value(o, a.card), int(a.card)),
            )
            for a in ranked[:2]:
                add(a)
        elif o.view.phase is Phase.NEGOTIATION and o.neg is not None:
            neg = o.neg
            if neg.boss == o.seat:
                add(first_of(legal, GoingOnce))
                add(self.variant(first, legal, 1.3))
                pend = [q for q, t in neg.pending.items() if not t.by_boss]
                for q in sorted(pend, key=lambda q: neg.pending[q].amount)[:1]:
                    add(find_move(legal, Accept, of=q))
                add(first_of(legal, FailDeal))
                add(first_of(legal, PassFloor))
            else:
                add(self.variant(first, legal, 0.7))
                add(self.variant(first, legal, 1.4))
                add(first_of(legal, AcceptProposal))
                add(first_of(legal, PlayBoss))
                add(self.best_travel(o, legal))
                add(first_of(legal, PassFloor))
        return out[:limit]

    def variant(self, a, legal: LegalActions, factor: float):
        """The same offer or proposal for a different amount."""
        if not isinstance(a, (Offer, Propose)):
            return None
        amount = int(round(a.amount * factor))
        if amount == a.amount:
            amount += 1 if factor > 1 else -1
        for t in legal.terms:
            if t.covers(a):
                amount = max(t.lo, min(t.hi, amount))
                return t.make(a.sources, amount)
        return None

    def decide(self, o: Obs, legal: LegalActions, must_act: bool = True) -> Action | None:
        fixed = legal.fixed
        if not fixed and not legal.terms:
            return None
        if o.win is not None:
            return self.answer_window(o, legal)
        phase = o.view.phase
        if phase is Phase.NEGOTIATION:
            a = self._negotiate(o, legal, must_act)
            if a is None and must_act:
                a = passive_move(legal)
            return a
        if phase is Phase.TURN or phase is Phase.MOVED:
            return self._turn(o, legal)
        if phase is Phase.DISCARD:
            return self._discard(o, legal)
        if phase is Phase.PLACE_MARKER:
            return self._place_marker(o, legal)
        return passive_move(legal)  # pragma: no cover - every phase is handled above

    def _turn(self, o: Obs, legal: LegalActions) -> Action:
        opn = first_of(legal, OpenDeal)
        if opn is not None and self.reasonable_at_hand_limit(o):
            return opn  # rather than draw and discard
        draw = self.draw_value(o) * self.draw_weight(o)
        if o.view.phase is Phase.TURN:
            roll = first_of(legal, Roll)
            outs = [self._at_least(o, s, draw) for s in self.roll_targets(o)]
            roll_value = sum(outs) / len(outs)
            if opn is not None and self._at_least(o, o.view.marker, roll_value, 0.0) >= roll_value:
                return opn
            return roll
        dr = first_of(legal, Draw)
        if opn is not None and (dr is None or self._at_least(o, o.view.marker, draw, 0.0) >= draw):
            return opn
        return dr if dr is not None else opn

    def _at_least(self, o: Obs, space: int, floor: float, positive: float | None = None):
        """max(value of dealing on `space`, floor), without planning a deal that could not
        beat the floor even if nobody had to be paid. With `positive`, a deal worth no more
        than that counts as nothing."""
        bound = o.view.board.spaces[space].dividends * o.view.price * (1.0 + self.p.noise)
        if bound < floor or bound <= 0:
            return floor if positive is None else -1e9
        v = self.boss_value(o, space)
        if positive is not None:
            return v if v > positive else -1e9
        return v if v > floor else floor

    def _place_marker(self, o: Obs, legal: LegalActions) -> Action:
        # The first player deals next: put the marker where it needs me most.
        best, best_v = None, -1e9
        first = (o.seat + 1) % o.n
        for a in legal.fixed:
            if not isinstance(a, PlaceMarker):
                continue
            sp = o.view.board.spaces[a.space]
            v = 0.0
            for c in clans_in(o.view.board.clan_masks[a.space]):
                if o.placards[c] == o.seat:
                    v += sp.dividends * (2.0 if c in sp.required else 1.0)
                elif o.placards[c] == first:
                    v -= sp.dividends * 0.5
            v += self.rng.random() * 0.01
            if v > best_v:
                best, best_v = a, v
        return best

    def _discard(self, o: Obs, legal: LegalActions) -> Action:
        rec = self.best_recruit(o, legal)
        if rec is not None:
            return rec
        best, best_v = None, 1e9
        for a in legal.fixed:
            if isinstance(a, Discard):
                v = self.jit(self.card_value(o, a.card)) + int(a.card) * 1e-6
                if v < best_v:
                    best, best_v = a, v
        return best if best is not None else passive_move(legal)

    def _negotiate(self, o: Obs, legal: LegalActions, must_act: bool) -> Action | None:
        neg = o.neg
        if self.talk is not None:
            self.talk.enter(o)
        shed = self.shed_under_v2(o, legal)
        if shed is not None:
            return shed
        if neg.boss == o.seat:
            return self.as_boss(o, legal, must_act)
        return self.as_investor(o, legal, must_act)
