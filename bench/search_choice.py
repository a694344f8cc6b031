"""How good is the search bot's choice, given its own model? Offline, on recorded decisions.

A win-rate run needs hundreds of games to see a few points; this asks a sharper question.
It records the decisions a search bot searched in a few games (its view, candidates, tracked
money and memory), estimates every candidate's utility with many more samples than a
decision gets (the *ground truth* of the search's model: the same sampling, rollouts and
utility), then replays each decision with a given search spec and reports the ground-truth
utility its choice gains over the heuristic's own (candidate 0), and what it leaves on the
table (the best candidate's utility minus the chosen one's).

    python -m bench.search_choice                                  # default budget, ms=0
    python -m bench.search_choice --games 6 --samples 80 --spec search:ms=0 \\
        --spec search:ms=0+steps=3000 --spec search:ms=0+pick=2
    python -m bench.search_choice --agreement 10 --seed 40001    # the rollouts' bots

Every spec should carry `ms=0` (deterministic: the replay then measures the step budget,
not the machine's load).
"""

from __future__ import annotations

import argparse
import copy
import math
import random
import sys
import time
from dataclasses import dataclass

from game.bots import make_bot
from game.bots.heuristic import Policy
from game.bots.obs import Memory, Obs
from game.bots.search import SearchBot
from game.bots.talk import Talk
from game.rules import Action, Game, Settings
from game.rules.seat_view import SeatView
from game.table.simulate import play


@dataclass
class Decision:
    """One searched decision, enough to replay it: what the bot saw and remembered."""

    view: SeatView
    candidates: list[Action]
    money: list[int]
    memory: Memory
    talk: Talk  # my talk memory, its intention for the heuristic's choice included


def record(seeds: list[int], spec: str = "search:steps=200+ms=0") -> list[Decision]:
    """The decisions a search bot (seat 0) searched in 4-player games against heuristics."""
    out: list[Decision] = []
    for seed in seeds:
        game = Game([f"P{i}" for i in range(4)], seed, Settings(players=4))
        bots = [make_bot(s, i, seed) for i, s in enumerate([spec] + ["heuristic"] * 3)]
        searcher = bots[0]
        search = searcher._search

        def recording(view, cands, money, searcher=searcher, search=search):
            memory = copy.deepcopy(searcher.memory)
            talk = copy.deepcopy(searcher.talk)
            out.append(Decision(copy.deepcopy(view), list(cands), list(money), memory, talk))
            return search(view, cands, money)

        searcher._search = recording
        play(game, bots)
    return out


def ground_truth(
    decisions: list[Decision], samples: int, seed: int = 10_000, spec: str = "search:ms=0"
) -> list[list]:
    """Mean utility of every candidate over `samples` common samples (no pruning), by the
    model of the search bot `spec`."""
    bot = make_bot(spec, 0, 1)
    policy = Policy(bot.rollout_personality, random.Random(0))
    truth = []
    for j, d in enumerate(decisions):
        bot.memory = d.memory
        bot.talk = d.talk
        bot.seat = d.view.seat
        bot.rng.seed(seed + j)
        totals = [0.0] * len(d.candidates)
        for _ in range(samples):
            base = bot._sample(d.view, d.money)
            s = bot.rng.getrandbits(32)
            for i, a in enumerate(d.candidates):
                u, _n = bot.play_out(base, a, i == 0, policy, s)
                totals[i] += u
        truth.append([t / samples for t in totals])
    return truth


@dataclass
class Verdict:
    spec: str
    decisions: int
    gain: float  # mean ground-truth utility over the heuristic's choice
    gain_se: float
    left: float  # mean ground-truth utility of the best candidate minus the chosen one's
    overrides: float  # share of decisions where another move than the heuristic's was chosen
    ms: float  # mean time per decision


def evaluate(
    decisions: list[Decision], truth: list[list], spec: str, reps: int = 1
) -> Verdict:
    """Replay every decision `reps` times (fresh sampling seeds) with the bot `spec`."""
    bot = make_bot(spec, 0, 1)
    assert isinstance(bot, SearchBot), spec
    gains, left, overrides = [], [], 0
    t0 = time.perf_counter()
    for j, (d, means) in enumerate(zip(decisions, truth, strict=True)):
        for r in range(reps):
            bot.memory = d.memory
            bot.talk = d.talk
            bot.seat = d.view.seat
            bot.rng.seed(777 + 1000 * r + j)
            i = d.candidates.index(bot._search(d.view, d.candidates, d.money))
            gains.append(means[i] - means[0])
            left.append(max(means) - means[i])
            overrides += i != 0
    n = len(gains)
    g = sum(gains) / n
    se = math.sqrt(sum((x - g) ** 2 for x in gains) / max(1, n - 1) / n)
    ms = 1000 * (time.perf_counter() - t0) / n
    return Verdict(spec, n, g, se, sum(left) / n, overrides / n, ms)


def talk_agreement(seeds: list[int]) -> dict[str, float]:
    """How well the rollouts' bots stand for the heuristic bots at the table: at every
    negotiation decision of four heuristic bots, the share where the same policy (same RNG
    state, same view) chooses the bot's own move without a talk memory (`none`, the rollouts
    before `rollout_talks`) and with the memory a rollout gives another seat (`table`: the
    table's counters, not the terms the seat said before)."""
    agree = {"none": 0, "table": 0}
    n = 0
    for seed in seeds:
        bots = [make_bot("heuristic", i, seed) for i in range(4)]

        def wrap(b):
            orig = b.choose

            def choose(view, legal, must_act=True):
                nonlocal n
                if view is None or not view.get("negotiation"):
                    return orig(view, legal, must_act)
                table = Talk(b.seat)
                table.table_words = b.talk.table_words
                table.new_bosses = b.talk.new_bosses
                table.fee_asked = b.talk.fee_asked
                guesses = {}
                for name, talk in (("none", None), ("table", table)):
                    p = copy.deepcopy(b.policy)
                    p.talk = talk
                    seen = SeatView.from_data(view)
                    o = Obs.of(seen, b.memory.money_for(seen), b.memory.failed)
                    guesses[name] = p.decide(o, legal, must_act)
                a = orig(view, legal, must_act)
                n += 1
                for name, g in guesses.items():
                    agree[name] += g == a
                return a

            b.choose = choose

        for b in bots:
            wrap(b)
        play(Game([f"P{i}" for i in range(4)], seed, Settings(players=4)), bots)
    return {"decisions": n, **{k: v / max(1, n) for k, v in agree.items()}}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=6, help="games to record decisions from")
    ap.add_argument("--seed", type=int, default=21)
    ap.add_argument("--samples", type=int, default=80, help="samples per ground truth")
    ap.add_argument("--reps", type=int, default=1, help="replays of every decision")
    ap.add_argument("--spec", action="append", help="search specs to compare (repeat)")
    ap.add_argument(
        "--agreement",
        type=int,
        default=0,
        metavar="GAMES",
        help="only: how often the rollouts' bots choose what heuristic bots at a table do",
    )
    args = ap.parse_args(argv)
    if args.agreement:
        r = talk_agreement(list(range(args.seed, args.seed + args.agreement)))
        print(
            f"{r['decisions']} negotiation decisions of heuristic bots in {args.agreement} "
            f"games: the rollouts' bot chooses the same move {r['none']:.3f} without a talk "
            f"memory, {r['table']:.3f} with the table's counters"
        )
        return 0
    specs = args.spec or ["search:ms=0"]
    decisions = record(list(range(args.seed, args.seed + args.games)))
    t0 = time.perf_counter()
    truth = ground_truth(decisions, args.samples)
    best = sum(max(m) - m[0] for m in truth) / len(truth)
    print(
        f"{len(decisions)} searched decisions from {args.games} games; ground truth from "
        f"{args.samples} samples in {time.perf_counter() - t0:.0f} s; the best candidate "
        f"beats the heuristic's choice by {1000 * best:.2f}e-3 on average"
    )
    print(f"{'spec':<36}{'gain e-3':>10}{'(se)':>7}{'left e-3':>10}{'overrides':>11}{'ms':>7}")
    for spec in specs:
        v = evaluate(decisions, truth, spec, args.reps)
        print(
            f"{v.spec:<36}{1000 * v.gain:>10.2f}{1000 * v.gain_se:>7.2f}"
            f"{1000 * v.left:>10.2f}{v.overrides:>11.3f}{v.ms:>7.0f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
