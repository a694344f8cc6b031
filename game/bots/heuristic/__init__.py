"""A rule-based negotiator in the spirit of JSettlers' robot negotiator: every choice is
weighed against the best alternative (another source, another space, drawing, failing).

The bot decides from an `Obs` (its seat's view plus the money it has tracked from public
payments); the same `Policy` drives the search bot's rollouts on sampled states. Everything
is valued in $M of the seat's own money, with a markup against the money leader.

One module a job (docs/BOTS.md): `personality` (the styles' numbers), `planning` (deal
plans), `moves` (picking legal moves, shared reckonings), `valuation`, `cards` (card plays),
`speech` (saying terms), `boss` and `investor` (the two sides of a negotiation), `policy`
(`Policy`, the decisions) and `bot` (`HeuristicBot`, registered as `heuristic`).
"""

from .boss import REFUSE_ALOUD, WAIT_FOR_OFFERS, BossPlay
from .bot import HeuristicBot
from .cards import MAX_NEW_BOSSES, V2_HAND, CardPlay
from .investor import FEE_WHEN_NEEDING, NEEDED, InvestorPlay
from .moves import (
    boss_reserve,
    brings,
    far_off,
    fee_asked,
    find_move,
    first_of,
    laid_owner,
    my_sources,
    nothing_to_do,
    offer_move,
    passive_move,
    reprice,
    sources_for,
)
from .personality import PERSONALITIES, Personality, personality
from .planning import (
    BITS,
    CARD_COST,
    CLANS_,
    EST,
    OFFERED,
    PRICE,
    SETTLE_SHARED,
    SETTLE_SOLE,
    SOLE,
    Plan,
    clans_in,
    deals_left,
    expected_deals_left,
    minimal_covers,
    placard_use,
    plan_deal,
    plan_open_deal,
    turn_plan,
)
from .policy import Policy
from .speech import MAX_WORDS, TABLE_TALK, TALK_BASE, TALK_PER_SEAT, Speaker, talk_progress
from .valuation import (
    BOSS_VALUE,
    CLAN_OWN_VALUE,
    CLAN_VALUE,
    DRAW_COUNT,
    GREY_VALUE,
    REASONABLE,
    RECRUIT_SPARE_VALUE,
    RECRUIT_VALUE,
    STOP_VALUE,
    TRAVEL_VALUE,
    Valuation,
)

__all__ = ["HeuristicBot", "Personality", "PERSONALITIES", "Policy", "personality", "plan_deal"]
