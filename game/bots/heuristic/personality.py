"""Negotiating styles: the numbers behind the heuristic, and `heuristic:<style>` specs.

Personalities change the numbers, not the logic.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..base import spec_parts


@dataclass(frozen=True)
class Personality:
    """The numbers behind a negotiating style. The balanced defaults were tuned in 4-player
    self-play (bench/bots.py): ask for a good share, hold out near it, keep cards for the
    rich deals at the end of the game, draw rather than deal cheaply."""

    name: str = "balanced"
    ask_sole: float = 1.35  # investor's first ask as sole source, x fair share
    ask_shared: float = 1.1  # ... when the Boss has another source for the slot
    floor: float = 0.85  # lowest price accepted, x first ask
    boss_margin: float = 0.2  # the Boss keeps at least this share of the proceeds
    boss_first: float = 0.7  # the Boss's first counter, x its estimate of the fair price
    leader_markup: float = 0.4  # extra asked of (and refused to) the money leader late on
    draw_bias: float = 2.5  # x the value of drawing cards
    turn_draw: float = 0.2  # x that value against opening a deal, before the table warms up
    warm_up: float = 2.0  # deals closed until drawing weighs in full again
    card_keep: float = 2.5  # x the value of cards in hand (higher: plays them less)
    steal: float = 1.0  # x the appetite for Boss cards
    fee: float = 0.08  # a blocker's fee ask, x proceeds (0: never asks one)
    noise: float = 0.0  # random jitter on every valuation (chaotic)
    # gentle with people (Bot.meet): for this many rounds' worth of closed deals (x players)
    # it takes nothing from a person's seat: no Recruitment of their placard, no Stop on
    # their play, no Travel that discards their laid Clan card
    gentle: float = 0.0
    spare_last: float = 0.0  # 1: never recruits the only placard a person holds


PERSONALITIES = {
    "balanced": Personality(),
    # turn_draw 0.1: opens early deals like Friendly (it drew through the first rounds: a
    # person waited 3 bot turns for a deal, median, in 4-6 players; bench/deal_runs.py)
    "tight": Personality(
        "tight", ask_sole=1.1, ask_shared=0.8, floor=0.9, boss_margin=0.3, boss_first=0.55,
        turn_draw=0.1, card_keep=3.0, steal=0.7, fee=0.0,
    ),
    "greedy": Personality(
        "greedy", ask_sole=1.7, ask_shared=1.35, floor=0.85, boss_margin=0.3, boss_first=0.6,
        leader_markup=0.6, steal=1.3, fee=0.15,
    ),
    "chaotic": Personality(
        "chaotic", ask_sole=1.2, ask_shared=0.9, floor=0.6, card_keep=1.2, draw_bias=1.5,
        steal=1.5, fee=0.12, noise=0.35,
    ),
    # for beginners: deals often, asks about a fair share and offers one, rarely takes a deal
    # away with a Boss card, asks no blocker's fee, no markup on the money leader; takes
    # nothing from a person until a round's worth of deals has closed (the person's first two
    # turns, as measured), and never a person's last placard (a
    # newcomer lost both placards and a Boss card to it in two turns: issue 32,
    # bench/newcomer_losses.py)
    "friendly": Personality(
        "friendly", ask_sole=1.0, ask_shared=0.8, floor=0.9, boss_margin=0.15, boss_first=0.9,
        leader_markup=0.0, draw_bias=1.8, turn_draw=0.1, card_keep=2.0, steal=0.4, fee=0.0,
        gentle=1.0, spare_last=1.0,
    ),
}  # fmt: skip


def personality(spec: str | None) -> Personality:
    """A personality by name ("greedy"), optionally with numbers changed
    ("greedy+fee=0", "ask_sole=1.2+floor=0.7": changes to the balanced one)."""
    if not spec:
        return PERSONALITIES["balanced"]
    base = PERSONALITIES["balanced"]
    changes: dict[str, float] = {}
    for key, value in spec_parts(spec):
        if value is None:
            if key not in PERSONALITIES:
                raise ValueError(
                    f"unknown personality {key!r} (known: {', '.join(sorted(PERSONALITIES))})"
                )
            base = PERSONALITIES[key]
            continue
        if key not in Personality.__dataclass_fields__ or key == "name":
            raise ValueError(f"unknown personality number {key!r}")
        try:
            changes[key] = float(value)
        except ValueError:
            raise ValueError(f"{key} must be a number, not {value!r}") from None
    if changes:
        base = replace(base, name=spec, **changes)
    return base
