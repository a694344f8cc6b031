"""How soon a bot Boss answers a person's offer (issue 14: "within 1-3 s of table time, and
never leaves it unanswered").

    python -m bench.bots --answers [--games 6] [--bot heuristic]

A scripted person (`OfferingPerson`) sits at a table of bots and, in every deal a bot Boss
opens, makes up to two offers of the kinds in `OFFER_KINDS` (a fair price, too expensive,
absurd, terms the deal has no use for), then hands the floor on (ask-around) or waits (real
time). The answer is the Boss's first move that settles it: takes it, counters it, refuses
it (withdraws it, with a phrase), fails the deal or calls "going once". Its delay is counted
from the moment the Boss could answer (real time: the offer; ask-around: the floor leaving
the person). An offer whose wait a card play (a reaction window for everybody, the person
included), a new Boss or the negotiation clock running out broke into is counted apart.

`run_local` drives the hot-seat session (game/ui/sessions/session.py) on its table clock; the LAN
host's test drives `OfferingPerson` the same way on the host's manual clock.
"""

from __future__ import annotations

import statistics
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from game.rules import (
    Accept,
    FailDeal,
    GoingOnce,
    Offer,
    Pass,
    PassFloor,
    Phase,
    Propose,
    Settings,
    TimeUp,
    WindowMode,
    Withdraw,
    asked_seats,
    default_action,
    legal_actions,
    waiting_for,
)

OFFER_KINDS = ("fair", "too_expensive", "absurd", "unneeded")
OFFERS_PER_DEAL = 2
# moves by others that break into a wait: a reaction window, a new Boss, the clock
_INTERRUPTS = frozenset({"play_travel", "play_boss", "recruit", "play_stop", "time_up"})


@dataclass
class Answer:
    kind: str  # one of OFFER_KINDS
    since: float  # when the Boss could answer
    delay: float | None = None  # None: never answered
    how: str = ""  # the answering move's type
    interrupted: bool = False


class TimedLog(list):
    """A game's action log that notes the clock's time of every action appended."""

    def __init__(self, items, now: Callable[[], float], on_action: Callable) -> None:
        super().__init__(items)
        self._now = now
        self._on_action = on_action

    def append(self, action) -> None:
        super().append(action)
        self._on_action(self._now(), action)


def person_offer(state, me: int, kind: str) -> Offer | None:
    """The person's offer of `kind` in the open deal, or None if they have nothing to offer."""
    neg = state.negotiation
    for t in legal_actions(state, me).moves().terms:
        if not isinstance(t.action, Offer):
            continue
        if kind == "unneeded":
            return t.make((), max(t.lo, min(t.hi, neg.proceeds // 4)))  # a fee for nothing
        if not t.pool:
            return None
        share = {"fair": neg.proceeds / state.players, "too_expensive": neg.proceeds * 0.75}
        amount = t.hi if kind == "absurd" else int(share[kind])
        return t.make(t.pool, max(t.lo, min(t.hi, amount)))
    return None


@dataclass
class OfferingPerson:
    """Seat `me`, played by a script as a person would: passes windows and turns, and makes
    offers to bot Bosses (see the module docstring). `recorded(time, action)` must see every
    action the table applies (a `TimedLog`)."""

    me: int
    state: Callable  # () -> the game state now
    send: Callable  # (action) -> None: the person's move
    bot_boss: Callable[[int], bool]  # is this seat a bot
    answers: list[Answer] = field(default_factory=list)
    _open: Answer | None = None
    _made: int = 0  # offers in this deal
    _kinds: int = 0

    def recorded(self, now: float, action) -> None:
        a = self._open
        st = self.state()
        if action.type == "open_deal":
            self._made = 0
        if a is None:
            return
        if action.type in _INTERRUPTS or isinstance(action, TimeUp):
            a.interrupted = True
            return
        boss = st.negotiation.boss if st.negotiation is not None else action.seat
        answered = action.seat == boss and (
            (isinstance(action, Accept) and action.of == self.me)
            or (isinstance(action, Propose) and action.to == self.me)
            or (isinstance(action, Withdraw) and action.player == self.me)
            or isinstance(action, (FailDeal, GoingOnce))
        )
        if answered and a.delay is None:
            a.delay = now - a.since
            a.how = action.type
            self._open = None

    def step(self, now: float) -> None:
        """The person's move now, if any (called once a frame)."""
        st = self.state()
        me = self.me
        if st.phase is Phase.GAME_OVER:
            return
        if st.window is not None:
            if me in asked_seats(st):
                self.send(Pass(me))
            return
        neg = st.negotiation
        waited = me in waiting_for(st)
        real_time = st.settings.window_mode is WindowMode.REAL_TIME
        if neg is not None and neg.boss != me and self.bot_boss(neg.boss):
            if self._open is not None:
                if not real_time and waited:
                    self._hand_on(now)
                return
            mine = neg.pending.get(me)
            may = real_time or waited
            if may and not neg.time_up and self._made < OFFERS_PER_DEAL and (
                mine is None or mine.by_boss
            ):
                kind = OFFER_KINDS[self._kinds % len(OFFER_KINDS)]
                offer = person_offer(st, me, kind)
                if offer is not None:
                    self._kinds += 1
                    self._made += 1
                    self.send(offer)
                    if self.state().negotiation is not None and offer in self._pending():
                        self._open = Answer(kind, now)
                        self.answers.append(self._open)
                        if not real_time:
                            self._hand_on(now)
                    return
        if waited:
            action = default_action(st, me)
            if action is not None:
                self.send(action)

    def _pending(self):
        t = self.state().negotiation.pending.get(self.me)
        return [] if t is None or t.by_boss else [Offer(self.me, t.sources, t.amount)]

    def _hand_on(self, now: float) -> None:
        """Ask-around: pass the floor; the Boss can answer from now on."""
        st = self.state()
        if PassFloor(self.me) in legal_actions(st, self.me):
            if self._open is not None:
                self._open.since = now
            self.send(PassFloor(self.me))

    def finish(self) -> None:
        """The game is over: an offer still open was never answered (unless broken into)."""
        self._open = None


def run_local(
    mode: str, seed: int, players: int = 4, bot: str = "heuristic", frame: float = 0.05
) -> list[Answer]:
    """One short hot-seat game, the person in seat 0 and bots elsewhere, on the table clock
    moved a frame at a time as the window does."""
    from game.ui.sessions.session import LocalSession, SeatSpec

    seats = [SeatSpec("You")] + [SeatSpec(f"Bot {i}", bot) for i in range(1, players)]
    settings = Settings(players=players, window_mode=WindowMode(mode), short_game=True)
    s = LocalSession(seats, seed=seed, settings=settings)
    person = OfferingPerson(0, lambda: s.state, s.send, lambda seat: seat in s.bots)
    s.game.log = TimedLog(s.game.log, lambda: s.clock, person.recorded)
    try:
        for _ in range(int(3600 / frame)):  # an hour of table time at most
            if s.over:
                break
            person.step(s.clock)
            s.wait_for_bots()
            s.update(frame)
            s.poll()
    finally:
        s.close()
    person.finish()
    return person.answers


def summarize_answers(answers: list[Answer]) -> dict:
    clean = [a for a in answers if not a.interrupted]
    delays = sorted(a.delay for a in clean if a.delay is not None)

    def q(x: float) -> float | None:
        return delays[min(len(delays) - 1, int(len(delays) * x))] if delays else None

    return {
        "offers": len(answers),
        "interrupted": len(answers) - len(clean),
        "unanswered": sum(a.delay is None for a in clean),
        "min": delays[0] if delays else None,
        "median": statistics.median(delays) if delays else None,
        "p90": q(0.9),
        "max": delays[-1] if delays else None,
        "how": dict(Counter(a.how for a in clean if a.delay is not None)),
        "kinds": dict(Counter(a.kind for a in clean)),
    }


def run_answers(games: int, bot: str, seed: int) -> list[dict]:
    rows = []
    for players in (3, 4, 6):
        for mode in ("ask_around", "real_time"):
            answers = [a for i in range(games) for a in run_local(mode, seed + i, players, bot)]
            row = summarize_answers(answers)
            row.update(players=players, window_mode=mode, bot=bot, games=games)
            rows.append(row)
    return rows


def print_answers(rows: list[dict], out=sys.stdout) -> None:
    def f(x):
        return "-" if x is None else f"{x:.2f}"

    print("\na bot Boss answering a person's offers (hot seat, table time, seconds)", file=out)
    print(
        "| players | mode | offers | broken into | unanswered | min | median | p90 | max "
        "| answers |",
        file=out,
    )
    print("|---|---|---|---|---|---|---|---|---|---|", file=out)
    for r in rows:
        how = ", ".join(f"{k} {v}" for k, v in sorted(r["how"].items()))
        print(
            f"| {r['players']} | {r['window_mode']} | {r['offers']} | {r['interrupted']} "
            f"| {r['unanswered']} | {f(r['min'])} | {f(r['median'])} | {f(r['p90'])} "
            f"| {f(r['max'])} | {how} |",
            file=out,
        )
