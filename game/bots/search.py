"""Information-set Monte Carlo: sample the hidden cards consistently with the seat's view,
play each candidate move out with the heuristic policy, keep the move with the best mean
money rank.

* Candidates come from the heuristic (`Policy.candidates`): its own choice first, then a
  few sensible alternatives (deal or roll, accept or counter, a higher or lower ask, play a
  card or keep it), and more amounts where a price is set (`more_prices`: ask more,
  propose less). A decision with one candidate costs no search at all.
* Each sample (`determinize.state_from_view`) deals the unseen cards into the other hands
  and the draw pile at the sizes the view shows, pins the Clan cards the bot saw go back to
  a hand, and puts the money the bot tracked from public payments where it is hidden.
* Every candidate is played on a copy of the same sample with the same dice and the same
  policy randomness (common random numbers), up to the end of the next deal (the game's
  clock), and scored by rank on money plus the worth of cards and placards still held.
  Every seat of a rollout keeps a talk memory as the heuristic bots at the table do
  (`rollout_talks`): without one, the rollouts' bots never concede or walk away.
* The budget counts simulated actions (`steps`, deterministic: same seed, same choice),
  under a wall-clock cap (`ms`, 220 by default, so a table never waits long; a round of
  rollouts is only begun if it fits). `ms=0` removes the cap and makes the bot
  deterministic whatever the machine's load (tests and tournaments that must replay).
* My own moves keep the heuristic's talk memory (`talk.py`): the heuristic's choice
  converges like a heuristic bot's, and `remark()` says its phrase (see `_speak`).

Spec: `search`, `search:steps=3000+ms=0`, `search:ms=150`, `search:steps=6000+rollout=greedy`,
`search:pick=2`, `search:talk=0`.
"""

from __future__ import annotations

import math
import random
import time

from game.rules import (
    Accept,
    AcceptProposal,
    Action,
    GoingOnce,
    LegalActions,
    Offer,
    PassFloor,
    Phase,
    Propose,
    apply,
    legal_actions,
    waiting_for,
)
from game.rules.actions import HOST, TimeUp
from game.rules.cards import CARD_KINDS, Card
from game.rules.determinize import ViewError, state_from_view
from game.rules.engine import default_action
from game.rules.events import BossChanged, DealClosed, DealFailed, DealOpened, OfferMade, Proposed
from game.rules.seat_view import SeatView
from game.rules.state import GameState
from game.rules.variants import WindowMode

from .base import Bot, Remark, register, spec_parts
from .heuristic import (
    BOSS_VALUE,
    CLAN_VALUE,
    GREY_VALUE,
    RECRUIT_VALUE,
    STOP_VALUE,
    TRAVEL_VALUE,
    Policy,
    expected_deals_left,
    first_of,
    nothing_to_do,
    offer_move,
    passive_move,
    personality,
)
from .obs import Memory, Obs
from .talk import Talk

DEFAULT_STEPS = 3000  # simulated actions per searched decision
# Wall-clock cap per decision by default, so a table never waits on a slow or busy machine
# (the bar: p99 <= 300 ms on 2 cores; the room above the cap is for the round in flight and
# a busy machine's delays: at load 14, a 250 ms cap gave p99 316 ms). `ms=0` removes it:
# then the bot is deterministic.
DEFAULT_MS = 220.0
MAX_ROLLOUT = 300  # actions in one rollout, a safety net (a deal takes a few dozen)
SAMPLE_COST = 3  # a sampled state costs about as much as this many simulated actions
PRUNE_EVERY = 4  # samples between prunings of clearly worse candidates
PRUNE_Z = 2.5  # ... "clearly": this many standard errors below the leader
PICK_Z = 1.0  # an alternative must beat the heuristic's choice by this many standard errors
MIN_GAIN = 0.01  # ... and by at least this much utility
MAX_WAITS = 2  # floor passes chosen over the heuristic's move in one negotiation
# Weight of the chance of finishing first in the utility (the rest: the share of the other
# seats finished ahead of). `search:win=0` gives the plain rank.
WIN_WEIGHT = 0.5
RANK_SPREAD = 4.0  # $M of money still to move per sqrt(deal left), for the soft rank

# Worth of a card still in hand at the end of a rollout, in $M early in the game.
_CARD_WORTH = [CLAN_VALUE] * 6 + [TRAVEL_VALUE] * 6 + [GREY_VALUE, RECRUIT_VALUE, BOSS_VALUE]
_CARD_WORTH += [STOP_VALUE]
assert len(_CARD_WORTH) == CARD_KINDS
PLACARD_WORTH = 1.5  # $M per placard per deal still expected
# Cards still in hand at a rollout's end, x their worth. Lower than the heuristic's own
# `card_keep` (2.5), which makes it hoard: 4-player search vs three heuristic at steps=300,
# seeds 11-510, gave 28.2% (3.5), 30.5% (2.5), 33.1% (1.8, 400 games, +1.8 $M mean money).
CARD_SCALE = 1.8


def parse_params(param: str | None) -> dict:
    out = {
        "steps": DEFAULT_STEPS,
        "ms": DEFAULT_MS,
        "rollout": None,
        "style": None,
        "cards": None,
        "win": WIN_WEIGHT,
        "pick": PICK_Z,
        "talk": True,
    }
    if not param:
        return out
    for key, value in spec_parts(param):
        if value is None:
            out["style"] = key  # a bare name: the personality of the bot's own moves
            continue
        if key in ("steps", "iters", "budget"):
            out["steps"] = max(1, int(value))
        elif key == "ms":
            ms = float(value)
            out["ms"] = None if ms <= 0 else max(1.0, ms)
        elif key == "rollout":
            out["rollout"] = value
        elif key == "style":
            out["style"] = value
        elif key == "cards":
            out["cards"] = float(value)
        elif key == "win":
            out["win"] = min(1.0, max(0.0, float(value)))
        elif key == "pick":
            out["pick"] = max(0.0, float(value))
        elif key == "talk":
            out["talk"] = value not in ("0", "no", "off", "false")
        else:
            raise ValueError(
                f"unknown search parameter {key!r} "
                "(steps, ms, rollout, style, cards, win, pick, talk)"
            )
    return out


@register("search")
class SearchBot(Bot):
    needs_view = True
    wants_events = True

    def __init__(self, seat: int, seed: int = 0, param: str | None = None) -> None:
        super().__init__(seat, seed)
        cfg = parse_params(param)
        self.steps = cfg["steps"]
        self.ms = cfg["ms"]
        self.rng = random.Random(f"search/{seed}/{seat}")
        self.policy = Policy(personality(cfg["style"]), random.Random(f"own/{seed}/{seat}"))
        self.rollout_personality = personality(cfg["rollout"])
        self.card_scale = CARD_SCALE if cfg["cards"] is None else cfg["cards"]
        self.win_weight = cfg["win"]
        self.pick_z = cfg["pick"]
        self.talk_rollouts = cfg["talk"]
        self.memory = Memory(seat)
        # The heuristic's talk memory for my own moves: its choice (candidate 0) converges
        # like a heuristic bot's, and my chosen move says the heuristic's phrase.
        self.talk = self.policy.talk = Talk(seat)
        self._said_with: Action | None = None  # the move of the last `choose`
        self._boss: int | None = None  # the Boss of the open deal at the last `choose`
        self.last_stats: list | None = None  # (action, mean utility, rollouts) of the last search
        self.last_steps = 0  # simulated actions the last search used (0: no search)
        self._waits: tuple = (None, 0)  # (the talks, passes chosen over the heuristic's move)

    def observe(self, events: list[dict]) -> None:
        self.memory.observe(events)
        self.talk.observe(events)

    def choose(
        self, view: dict | None, legal: LegalActions, must_act: bool = True
    ) -> Action | None:
        a = self._choose(view, legal, must_act)
        self._said_with = a
        return a

    def remark(self) -> Remark | None:
        return self.talk.remark(self._said_with)

    def _speak(self, a: Action | None, heuristic_choice: Action | None) -> Action | None:
        """Set what `a` says aloud, as a heuristic bot would: the heuristic's own phrase
        and remembered terms when the search kept its choice; for another move, only what
        the move itself says ("Deal!" on accepting, the reason on failing a deal)."""
        talk = self.talk
        if a != heuristic_choice:
            talk.hush()
            if isinstance(a, (Offer, Propose)):
                counterpart = a.to if isinstance(a, Propose) else self._boss
                talk.intend(counterpart, a.sources, a.amount, False)
        talk.goes_with(a)
        return a

    def _choose(
        self, view: dict | None, legal: LegalActions, must_act: bool
    ) -> Action | None:
        self.talk.hush()
        seen = SeatView.from_data(view)
        money = self.memory.money_for(seen)
        failed = self.memory.failed
        o = Obs.of(seen, money, failed)
        self.last_stats = None
        self.last_steps = 0
        self._boss = o.neg.boss if o.neg is not None else None
        if not must_act:
            # Real time, nobody waiting on me: move only when the heuristic sees a reason.
            if self.policy.decide(o, legal, False) is None:
                self.talk.hush()
                return None
            o = Obs.of(seen, money, failed)
            self.talk.hush()
        cands = more_prices(self.policy, o, legal, self.policy.candidates(o, legal, must_act))
        if not cands:
            return self._speak(passive_move(legal) if must_act else None, None)
        heuristic_choice = cands[0]
        talks = None
        if o.neg is not None and o.win is None and not isinstance(cands[0], PassFloor):
            # Waiting instead of the heuristic's move looks good in a rollout, where I act
            # the next time round; but a search that waits every time drags the talks out.
            talks = (o.view.deals_closed, o.view.turn, o.neg.space, o.neg.boss, o.neg.opener)
            if self._waits[0] != talks:
                self._waits = (talks, 0)
            if self._waits[1] >= MAX_WAITS:
                cands = [a for a in cands if not isinstance(a, PassFloor)]
        if len(cands) == 1 or not worth_searching(o, cands[0]):
            return self._speak(cands[0], heuristic_choice)
        a = self._search(seen, cands, money)
        if talks is not None and isinstance(a, PassFloor):
            self._waits = (talks, self._waits[1] + 1)
        return self._speak(a, heuristic_choice)

    # -- the search ------------------------------------------------------------------------

    def _sample(self, seen: SeatView, money: list[int]) -> GameState:
        known = self.memory.known_cards(seen)
        try:
            return state_from_view(seen, self.rng, known=known, money=money)
        except ViewError:
            return state_from_view(seen, self.rng, money=money)

    def _search(self, seen: SeatView, cands: list[Action], money: list[int]) -> Action:
        """Paired comparison on common samples: every live candidate is played out on the
        same sampled state with the same dice. Candidates clearly worse than the leader are
        dropped as the samples come in; an alternative replaces the heuristic's own choice
        (candidate 0) only when it is better by more than the noise."""
        k = len(cands)
        utils: list[list[float]] = [[] for _ in range(k)]
        live = list(range(k))
        used = 0
        rounds = 0
        deadline = None if self.ms is None else time.perf_counter() + self.ms / 1000.0
        policy = Policy(self.rollout_personality, random.Random(0))
        slowest = 0.0  # the longest round so far: a round is only begun if it fits
        while used < self.steps:
            began = time.perf_counter()
            if deadline is not None and rounds and began + slowest > deadline:
                break
            base = self._sample(seen, money)
            used += SAMPLE_COST
            seed = self.rng.getrandbits(32)
            for i in range(k):
                if i not in live:
                    utils[i].append(None)
                    continue
                u, n = self.play_out(base, cands[i], i == 0, policy, seed)
                utils[i].append(u)
                used += n + 1
            rounds += 1
            slowest = max(slowest, time.perf_counter() - began)
            if rounds % PRUNE_EVERY == 0 and len(live) > 2:
                lead = max(live, key=lambda i: _mean_of(utils[i]))
                for i in list(live):
                    if i in (0, lead):
                        continue
                    m, se = _paired(utils[i], utils[lead])
                    if m + PRUNE_Z * se < 0:
                        live.remove(i)
        means = [_mean_of(u) for u in utils]
        best = 0
        best_gain = 0.0
        for i in live:
            if i == 0:
                continue
            m, se = _paired(utils[i], utils[0])
            if m > max(MIN_GAIN, self.pick_z * se) and m > best_gain:
                best, best_gain = i, m
        self.last_stats = [
            (cands[i], means[i], sum(1 for x in utils[i] if x is not None)) for i in range(k)
        ]
        self.last_steps = used
        return cands[best]


    def play_out(
        self, base: GameState, a: Action, heuristic: bool, policy: Policy, seed: int
    ) -> tuple[float, int]:
        """My utility after `a` on a copy of the sample `base`, played on by `policy` (seeded
        with `seed`), and the actions that took. With `talk` (the default) every seat of the
        rollout keeps a talk memory as the bots at the table do (`rollout_talks`)."""
        st = base.clone()
        talks = None
        if self.talk_rollouts:
            boss = st.negotiation.boss if st.negotiation is not None else None
            talks = rollout_talks(self.talk, st.players, a, heuristic, boss)
            witness(talks, apply(st, a))
        else:
            apply(st, a)
        policy.rng.seed(seed)
        return rollout(st, self.seat, policy, seed, self.card_scale, self.win_weight, talks)


def rollout_talks(
    own: Talk, players: int, a: Action, heuristic: bool, boss: int | None
) -> list[Talk]:
    """Talk memories for the seats of a rollout that begins with my move `a`. Mine is a copy
    of my own; the others start from what the whole table knows (offers and proposals made
    in this deal, Boss cards played, a fee asked), without the terms they said before: a
    heuristic bot at the table concedes, says "last offer" and walks away by its memory, so
    the rollouts' bots must too, or the search prices against bots that never give up."""
    out = []
    for s in range(players):
        if s == own.seat:
            t = Talk(
                s,
                {k: list(v) for k, v in own.said.items()},
                {k: list(v) for k, v in own.current.items()},
                set(own.final),
                own.floor_passed,
                own.fee_asked,
                own.table_words,
                own.new_bosses,
                own.situation,
            )
            if heuristic:
                t.unsaid = own.unsaid
            elif isinstance(a, (Offer, Propose)):
                counterpart = a.to if isinstance(a, Propose) else boss
                t.intend(counterpart, a.sources, a.amount, False)
        else:
            t = Talk(s)
            t.fee_asked = own.fee_asked
            t.table_words = own.table_words
            t.new_bosses = own.new_bosses
        out.append(t)
    return out


_DEAL_ENDS = (DealOpened, DealClosed, DealFailed)


def witness(talks: list[Talk], events: list) -> None:
    """`Talk.observe` for every seat of a rollout, on the engine's events themselves."""
    for e in events:
        kind = type(e)
        if kind is OfferMade:
            speaker = e.seat
            fee = not e.sources
            for t in talks:
                t.table_words += 1
                if fee:
                    t.fee_asked = True
        elif kind is Proposed:
            speaker = e.boss
            for t in talks:
                t.table_words += 1
        elif kind is BossChanged:
            for t in talks:
                t.new_bosses += 1
            continue
        elif kind in _DEAL_ENDS:
            for t in talks:
                t.reset()
            continue
        else:
            continue
        t = talks[speaker]
        if t.unsaid is not None:
            counterpart, sources, amount, final = t.unsaid
            if e.amount == amount and getattr(e, "to", counterpart) == counterpart:
                t.record(counterpart, sources, amount)
                if final:
                    t.final.add(counterpart)
            t.unsaid = None


def _mean_of(xs) -> float:
    vals = [x for x in xs if x is not None]
    return sum(vals) / len(vals) if vals else -1e9


def _paired(a: list, b: list) -> tuple[float, float]:
    """Mean and standard error of a - b over the samples where both were played."""
    d = [x - y for x, y in zip(a, b, strict=True) if x is not None and y is not None]
    n = len(d)
    if n == 0:
        return 0.0, 1e9
    m = sum(d) / n
    if n == 1:
        return m, abs(m) + 1.0
    var = sum((x - m) ** 2 for x in d) / (n - 1)
    return m, math.sqrt(var / n)


# Extra price candidates (factors of the heuristic's own amount). The rollouts play the other
# seats with the heuristic itself, so a search can find the price a Boss or a seller will
# still take: sellers ask more of a Boss who accepts anything within its reserve, Bosses
# propose less to sellers who accept anything above their floor.
ASK_MORE = (1.2, 1.7)  # an investor's offer: more than its ask (0.7x and 1.4x are there)
PROPOSE_LESS = (0.8, 0.9)  # a Boss's proposal or counter: less (1.3x is there)
COUNTER_PROPOSAL = (1.25, 1.5)  # an investor offered a proposal: counter it higher
MAX_CANDIDATES = 7


def more_prices(policy: Policy, o: Obs, legal: LegalActions, cands: list) -> list:
    """The heuristic's candidates, with a few more amounts where a price is being set."""
    if not cands or o.neg is None or o.win is not None or o.view.phase is not Phase.NEGOTIATION:
        return cands
    first = cands[0]
    extra: list = []
    if o.neg.boss == o.seat:
        if isinstance(first, Propose):
            extra = [policy.variant(first, legal, f) for f in PROPOSE_LESS]
        elif isinstance(first, Accept):
            t = o.neg.pending.get(first.of)
            if t is not None and t.amount > 1 and t.sources:
                clans = 0
                for src in t.sources:
                    c = o.neg.source_clan(src)
                    if c is not None:
                        clans |= 1 << c
                extra = [
                    policy.proposal(legal, first.of, clans, int(t.amount * f), o.neg)
                    for f in PROPOSE_LESS
                ]
    elif isinstance(first, Offer) and first.amount > 0:
        extra = [policy.variant(first, legal, f) for f in ASK_MORE]
    elif isinstance(first, AcceptProposal):
        mine = o.neg.pending.get(o.seat)
        if mine is not None and mine.by_boss and mine.amount > 0:
            extra = [
                offer_move(legal, mine.sources, max(mine.amount + 1, round(mine.amount * f)))
                for f in COUNTER_PROPOSAL
            ]
    out = [first]
    for a in extra + cands[1:]:
        if a is not None and a not in out:
            out.append(a)
    return out[:MAX_CANDIDATES]


def worth_searching(o: Obs, first: Action) -> bool:
    """Decisions where the search has been seen to find better moves than the heuristic.
    A covered deal is closed at once, and the Boss's own proposals and floor passes were
    (almost) never changed by a search: those are left to the heuristic, which saves a third
    of the thinking time."""
    if o.neg is not None and o.neg.boss == o.seat and o.win is None:
        return not isinstance(first, (GoingOnce, PassFloor))
    return True


def rollout(
    st: GameState,
    me: int,
    policy: Policy,
    seed: int,
    card_scale: float = CARD_SCALE,
    win_weight: float = 0.0,
    talks: list[Talk] | None = None,
) -> tuple[float, int]:
    """Play on with `policy` for every seat until a turn begins after the next deal has
    ended, or after a full round of turns without a deal (or the game is over); return my
    utility and the actions taken. `talks`: each seat's talk memory (see `rollout_talks`),
    kept up to date along the way; None: the seats talk without memory."""
    start = st.deals_closed + st.deals_failed
    real_time = st.settings.window_mode is WindowMode.REAL_TIME
    order = random.Random(seed ^ 0x9E3779B9) if real_time else None
    n = st.players
    steps = 0
    turns = 0
    in_turn = st.phase is Phase.TURN
    while st.phase is not Phase.GAME_OVER and steps < MAX_ROLLOUT:
        if st.phase is Phase.TURN:
            if not in_turn:
                turns += 1
                in_turn = True
                if turns >= n or st.deals_closed + st.deals_failed > start:
                    break
        else:
            in_turn = False
        if not real_time:
            seat = waiting_for(st)[0]
            legal = legal_actions(st, seat).moves()
            neg = st.negotiation
            if len(legal.fixed) == 1 and not legal.terms:
                a = legal.fixed[0]  # nothing to decide (a pass without a Stop card)
            elif (
                neg is not None
                and st.window is None
                and seat != neg.boss
                and nothing_to_do(legal)
                and (a := first_of(legal, PassFloor)) is not None
            ):
                pass  # an investor with nothing to sell and no card to play
            else:
                if talks is not None:
                    policy.talk = t = talks[seat]
                    t.hush()
                a = policy.decide(Obs.from_state(st, seat), legal, True)
        else:
            a = _real_time_step(st, policy, order, n, talks)
        if talks is None:
            apply(st, a)
        else:
            witness(talks, apply(st, a))
        steps += 1
    return utility(st, me, card_scale, win_weight), steps


def _real_time_step(
    st: GameState, policy: Policy, order: random.Random, n: int, talks: list[Talk] | None
) -> Action:
    waiting = waiting_for(st)
    if waiting and st.window is not None:
        seat = waiting[order.randrange(len(waiting))]
        _talk_as(policy, talks, seat)
        return policy.decide(Obs.from_state(st, seat), legal_actions(st, seat).moves(), True)
    start = order.randrange(n)
    for i in range(n):
        seat = (start + i) % n
        legal = legal_actions(st, seat).moves()
        if not legal:
            continue
        _talk_as(policy, talks, seat)
        a = policy.decide(Obs.from_state(st, seat), legal, seat in waiting)
        if a is not None:
            return a
    if st.negotiation is not None and not st.negotiation.time_up:
        return TimeUp(HOST)
    return default_action(st, waiting[0])


def _talk_as(policy: Policy, talks: list[Talk] | None, seat: int) -> None:
    if talks is not None:
        policy.talk = talks[seat]
        policy.talk.hush()


def utility(
    st: GameState, me: int, card_scale: float = CARD_SCALE, win_weight: float = 0.0
) -> float:
    """My expected share of the other seats I finish ahead of (ties half): a soft money
    rank, sharp at the end of the game, blurred by the deals still to come. `win_weight`
    mixes in the chance of finishing first (a shared first place counts as a fraction),
    which is what a tournament counts."""
    scores = score(st, card_scale)
    mine = scores[me]
    n = len(scores)
    if st.phase is Phase.GAME_OVER:
        beat = sum(1.0 if x < mine else 0.5 if x == mine else 0.0 for x in scores)
        share = (beat - 0.5) / (n - 1)
        if not win_weight:
            return share
        top = max(scores)
        first = 0.0 if mine < top else 1.0 / sum(1 for x in scores if x == top)
        return (1.0 - win_weight) * share + win_weight * first
    spread = RANK_SPREAD * math.sqrt(max(0.25, _deals_left(st)))
    beat = 0.0
    p_first = 1.0
    for s, x in enumerate(scores):
        if s != me:
            p = 1.0 / (1.0 + math.exp((x - mine) / spread))
            beat += p
            p_first *= p
    return (1.0 - win_weight) * beat / (n - 1) + win_weight * p_first


def score(st: GameState, card_scale: float = CARD_SCALE) -> list[float]:
    """Money, plus what the cards and placards still held should bring in (valued like the
    heuristic values them, fading as the game runs out of deals)."""
    if st.phase is Phase.GAME_OVER:
        return [float(m) for m in st.money]
    left = _deals_left(st)
    fade = min(1.0, left / 7.0)
    out = []
    placards = st.placards
    for s, hand in enumerate(st.hands):
        v = float(st.money[s])
        if fade > 0:
            cards = 0.0
            for k, x in enumerate(hand):
                if x:
                    cards += x * _CARD_WORTH[k]
            v += fade * card_scale * cards
            v += PLACARD_WORTH * left * sum(1 for p in placards if p == s) * 0.3
        out.append(v)
    return out


def _deals_left(st: GameState) -> float:
    alive, total = 1.0, 0.0
    tiles = st.board.tiles
    for t in st.tiles:
        total += alive
        if t == 15:
            break
        alive *= 1.0 - len(tiles[t - 1].end_faces) / 6.0
    return total


__all__ = ["SearchBot", "rollout", "utility", "score", "expected_deals_left", "Card"]
