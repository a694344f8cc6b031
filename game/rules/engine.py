"""The rules engine: `new_game`, `legal_actions(state, seat)`, `apply(state, action) -> events`.

Rendering, bots and the network all go through these three calls (and `view`). `apply`
refuses anything that is not in `legal_actions` with an `IllegalAction` naming the rule, and
in that case leaves the state untouched.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from . import negotiation as nego
from .actions import (
    HOST,
    Accept,
    AcceptFormer,
    AcceptProposal,
    Action,
    Discard,
    Draw,
    FailDeal,
    GoingOnce,
    LayClan,
    LegalActions,
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
    SetAskPreference,
    TermsChoice,
    TimeUp,
    Withdraw,
)
from .actions import interned as _a
from .board import CLANS, DEFAULT_BOARD, FIRST_PLAYER_ORDER, MASK_CLANS, Board, Clan, load_board
from .cards import CARDS, Card, clan_card, full_deck, travel_card
from .errors import IllegalAction
from .events import (
    BANK,
    AgreementMade,
    AgreementsFellBack,
    Asked,
    AskPreferenceSet,
    BossChanged,
    CallCancelled,
    CardDiscarded,
    CardPlayed,
    CardsDrawn,
    CardsReturned,
    ClanLaid,
    DealClosed,
    DealFailed,
    DealOpened,
    DeckReshuffled,
    DieRolled,
    Event,
    FloorPassed,
    GameOver,
    GameStarted,
    GoingOnceCalled,
    HandDealt,
    HandLimitReached,
    MarkerMoved,
    MarkerPlaced,
    NegotiationLimitReached,
    OfferMade,
    Paid,
    Passed,
    PlacardRecruited,
    Proposed,
    QuietRound,
    Stopped,
    TableCleared,
    TilePlaced,
    TravelSent,
    TurnStarted,
    WindowClosed,
    WindowOpened,
    Withdrawn,
)
from .legality import (
    QUIET_LAST_MADE,
    QUIET_LAST_SPENT,
    QUIET_LAST_UNUSED,
    asked_seats,
    can_call,
    former_total,
    legal_now,
    may_draw,
    may_fail,
    may_open,
    recruit_moves,
)
from .state import (
    PLACARD_SOURCES,
    POOL,
    GameState,
    LaidCard,
    Negotiation,
    Phase,
    Rng,
    Source,
    SourceKind,
    Terms,
    Window,
    WindowKind,
    empty_hand,
    laid,
)
from .variants import Settings, Variant, WindowMode

HAND_SIZE = 5
TRAVEL_RED = int(Card.TRAVEL_RED)
TRAVEL_GREY = int(Card.TRAVEL_GREY)
BOSS = int(Card.BOSS)
RECRUIT = int(Card.RECRUIT)
STOP = int(Card.STOP)
# Enum members the legal-action path tests on every move, read once: in CPython 3.11 looking
# a member up on its class (`Phase.NEGOTIATION`) costs ~0.1 µs, as EnumType defines __getattr__.
_GAME_OVER = Phase.GAME_OVER
_NEGOTIATION = Phase.NEGOTIATION
_V3 = Variant.V3
_REAL_TIME = WindowMode.REAL_TIME
SHORT_GAME_REMOVED = (3, 6, 9)


# --------------------------------------------------------------------------- setup


@dataclass(frozen=True)
class Setup:
    """An explicit starting position for scenarios and tests (any field left None is dealt
    from the seed as usual). `deck` lists the draw pile from the top."""

    placards: tuple[int, ...] | None = None  # owner seat per clan, -1 = pool
    hands: tuple[tuple[Card, ...], ...] | None = None
    deck: tuple[Card, ...] | None = None
    first_player: int | None = None
    marker: int | None = None  # skip the marker placement: the first player starts here
    tiles: tuple[int, ...] | None = None  # deal tiles still stacked, top first
    covered: dict[int, int] | None = None  # space -> tile already placed
    money: tuple[int, ...] | None = None


class SetupError(ValueError):
    """An explicit setup that breaks the components (cards not 98, unknown clan, ...)."""


def board_for(settings: Settings) -> Board:
    return load_board(settings.board_file) if settings.board_file else DEFAULT_BOARD


def new_game(
    players: list[str] | int,
    seed: int,
    settings: Settings | None = None,
    setup: Setup | None = None,
) -> GameState:
    """A new game dealt from `seed` (RULES §2). `players` is a list of names or a count."""
    names = (
        [f"Player {i + 1}" for i in range(players)] if isinstance(players, int) else list(players)
    )
    if settings is None:
        settings = Settings(players=len(names))
    if settings.players != len(names):
        raise SetupError(f"settings are for {settings.players} players, got {len(names)} names")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise SetupError("the seed must be a whole number")
    setup = setup or Setup()
    n = len(names)
    rng = Rng(seed)
    board = board_for(settings)

    # Placards: 2 players 3 each, 3 players 2 each, 4-6 players 1 each (the rest to the pool).
    if setup.placards is not None:
        placards = list(setup.placards)
        if len(placards) != 6 or any(not (p == POOL or 0 <= p < n) for p in placards):
            raise SetupError("placards: one owner (seat or -1 for the pool) per clan")
    else:
        clans = list(range(6))
        rng.shuffle(clans)
        per_seat = {2: 3, 3: 2}.get(n, 1)
        placards = [POOL] * 6
        for i, clan in enumerate(clans[: per_seat * n]):
            placards[clan] = i // per_seat

    deck = full_deck()
    hands = [empty_hand() for _ in range(n)]
    if setup.hands is not None or setup.deck is not None:
        if setup.hands is None or setup.deck is None or len(setup.hands) != n:
            raise SetupError("an explicit setup gives both every hand and the deck order")
        counts = empty_hand()
        for seat, cards in enumerate(setup.hands):
            for c in cards:
                hands[seat][Card(c)] += 1
                counts[Card(c)] += 1
        for c in setup.deck:
            counts[Card(c)] += 1
        full = empty_hand()
        for c in deck:
            full[c] += 1
        if counts != full:
            raise SetupError("hands and deck together must be exactly the 98 influence cards")
        pile = [Card(c) for c in reversed(setup.deck)]
    else:
        rng.shuffle(deck)
        for _ in range(HAND_SIZE):
            for seat in range(n):
                hands[seat][deck.pop()] += 1
        pile = deck

    if setup.tiles is not None:
        tiles = list(setup.tiles)
    else:
        tiles = [t for t in range(1, 16) if not (settings.short_game and t in SHORT_GAME_REMOVED)]
    covered = dict(setup.covered or {})

    if setup.first_player is not None:
        first = setup.first_player
    elif settings.random_first_player:
        first = rng.below(n)
    else:
        first = next(placards[c] for c in FIRST_PLAYER_ORDER if placards[c] != POOL)
    if not 0 <= first < n:
        raise SetupError("first_player must be a seat")

    state = GameState(
        settings=settings,
        board=board,
        seed=seed,
        rng=rng,
        names=names,
        hands=hands,
        money=list(setup.money) if setup.money is not None else [0] * n,
        placards=placards,
        deck=pile,
        discard=[],
        tiles=tiles,
        covered=covered,
        phase=Phase.PLACE_MARKER,
        turn=(first - 1) % n,  # the player to the first player's right places the marker
        first_player=first,
        ask_only_when_touched=list(settings.ask_only_when_touched),
    )
    if setup.marker is not None:
        if not 0 <= setup.marker < 16 or setup.marker in covered:
            raise SetupError("marker must be on a free space")
        state.marker = setup.marker
        state.phase = Phase.TURN
        state.turn = first
    return state


def opening_events(state: GameState) -> list[Event]:
    """What a table shows when a game starts: the placards and tiles, then each hand being
    dealt (redact with `for_seat` like any event)."""
    out: list[Event] = [
        GameStarted(
            tuple(state.names), state.first_player, tuple(state.placards), tuple(state.tiles)
        )
    ]
    for seat in range(state.players):
        cards = tuple(Card(k) for k, n in enumerate(state.hands[seat]) for _ in range(n))
        out.append(HandDealt(seat, len(cards), cards))
    return out


# --------------------------------------------------------------------------- queries


def hand_limit(state: GameState) -> int:
    if state.settings.has(Variant.V6) and state.tiles and state.tiles[0] >= 10:
        return min(10, state.settings.hand_limit)
    return state.settings.hand_limit


def current_price(state: GameState) -> int:
    return state.board.tile(state.tiles[0]).price if state.tiles else 0


def free_spaces(state: GameState) -> list[int]:
    return [s for s in range(len(state.board.spaces)) if s not in state.covered]


def to_act(state: GameState) -> list[int]:
    """Seats that have a move now (meta actions aside). In ask-around mode at most one."""
    return [s for s in range(state.players) if legal_actions(state, s).moves()]


def legal_actions(state: GameState, seat: int) -> LegalActions:
    """Everything `seat` may do now, complete and exact (HOST: the host's clock)."""
    key = (state.actions_taken, seat)
    cached = state._legal_cache.get(key)
    if cached is None:
        cached = _legal(state, seat)
        state._legal_cache[key] = cached
    return cached


def _legal(state: GameState, seat: int) -> LegalActions:
    if state.phase is _GAME_OVER:
        return LegalActions()
    if seat == HOST:
        out = LegalActions()
        neg = state.negotiation
        if neg is not None and not neg.time_up:
            out.fixed.append(_a(TimeUp, HOST))
        return out
    if not 0 <= seat < len(state.names):  # (state.players, without the property's call)
        return LegalActions()
    moves = LegalActions()
    phase = state.phase
    if state.window is not None:
        if seat in asked_seats(state):
            _window_actions(state, seat, moves)
    elif seat == state.turn or phase is _NEGOTIATION:
        _PHASE_ACTIONS[phase](state, seat, moves)
    return LegalActions.with_meta(
        _a(SetAskPreference, seat, not state.ask_only_when_touched[seat]), moves
    )


def _marker_actions(state: GameState, seat: int, out: LegalActions) -> None:
    out.fixed.extend(_a(PlaceMarker, seat, s) for s in free_spaces(state))


def _turn_actions(state: GameState, seat: int, out: LegalActions) -> None:
    if may_open(state, seat):
        out.fixed.append(_a(OpenDeal, seat))
    out.fixed.append(_a(Roll, seat))


def _moved_actions(state: GameState, seat: int, out: LegalActions) -> None:
    can_open = may_open(state, seat)
    if can_open:
        out.fixed.append(_a(OpenDeal, seat))
    if may_draw(state, seat, can_open):
        out.fixed.append(_a(Draw, seat))


def _discard_actions(state: GameState, seat: int, out: LegalActions) -> None:
    hand = state.hands[seat]
    out.fixed.extend(_a(Discard, seat, CARDS[k]) for k in range(len(hand)) if hand[k])
    _recruit_actions(state, seat, out.fixed)


def _floor_actions(state: GameState, seat: int, out: LegalActions) -> None:
    _negotiation_actions(state, seat, out, in_call=False)


def _recruit_actions(state: GameState, seat: int, fixed: list[Action]) -> None:
    if state.hands[seat][RECRUIT] < 3:
        return
    fixed.extend(recruit_moves(seat, tuple(state.placards)))


def _window_actions(state: GameState, seat: int, out: LegalActions) -> None:
    out.fixed.append(_a(Pass, seat))
    if state.window.kind.stoppable:
        if state.hands[seat][STOP]:
            out.fixed.append(_a(PlayStop, seat))
    else:  # going once: any card played or offer made cancels the call
        _negotiation_actions(state, seat, out, in_call=True)


def _negotiation_actions(state: GameState, seat: int, out: LegalActions, in_call: bool) -> None:
    neg = state.negotiation
    boss = neg.boss
    settings = state.settings
    # nego.limit_spent and nego.is_real_time, inline: this runs for every negotiation move
    spent = neg.time_up or neg.actions >= settings.negotiation_limit
    real_time = settings.window_mode is _REAL_TIME
    if not in_call and not real_time and neg.floor != seat:
        return
    fixed = out.fixed
    if spent:
        if in_call:
            _card_plays(state, seat, fixed)
        elif seat == boss:
            if can_call(state):
                fixed.append(_a(GoingOnce, seat))
            if may_fail(state):
                fixed.append(_a(FailDeal, seat))
        return
    if seat == boss:
        if neg.quiet and not real_time:
            # A full round with nobody but the Boss acting: his own Clan cards, then close,
            # fail, or one last proposal (RULES §6.3).
            _lay_actions(state, seat, fixed)
            if can_call(state):
                fixed.append(_a(GoingOnce, seat))
            if may_fail(state):
                fixed.append(_a(FailDeal, seat))
            if neg.last_proposal == QUIET_LAST_UNUSED:
                _proposals(state, seat, out)
            elif neg.last_proposal == QUIET_LAST_MADE:
                fixed.append(_a(PassFloor, seat))
            return
        _lay_actions(state, seat, fixed)
        _card_plays(state, seat, fixed)
        _proposals(state, seat, out)
        cap = nego.agreed_total(neg)
        for p in sorted(neg.pending):
            terms = neg.pending[p]
            if (
                not terms.by_boss
                and cap + terms.amount <= neg.proceeds
                and nego.may_be_paid_amount(state, p, terms.amount)
            ):
                fixed.append(_a(Accept, seat, p))
            fixed.append(_a(Withdraw, seat, p))
        if former_total(state) is not None:
            fixed.append(_a(AcceptFormer, seat))
        if can_call(state):
            fixed.append(_a(GoingOnce, seat))
        if may_fail(state):
            fixed.append(_a(FailDeal, seat))
        if not real_time:
            fixed.append(_a(PassFloor, seat))
        return
    # anyone else
    _lay_actions(state, seat, fixed)
    _card_plays(state, seat, fixed)
    _offers(state, seat, out)
    terms = neg.pending.get(seat)
    if (
        terms is not None
        and terms.by_boss
        and nego.agreed_total(neg) + terms.amount <= neg.proceeds
        and nego.may_be_paid_amount(state, seat, terms.amount)
    ):
        fixed.append(_a(AcceptProposal, seat))
    if seat in neg.pending:
        fixed.append(_a(Withdraw, seat, seat))
    if not in_call and not real_time:
        fixed.append(_a(PassFloor, seat))


def _lay_actions(state: GameState, seat: int, fixed: list[Action]) -> None:
    """Clan cards of the clans the space uses; under V3 any clan, since laying one is how a
    player qualifies to be paid (RULES §8.1)."""
    hand = state.hands[seat]
    wanted = 63 if _V3 in state.settings.variants else state.board.clan_masks[state.negotiation.space]
    fixed.extend([_a(LayClan, seat, CLANS[c]) for c in MASK_CLANS[wanted] if hand[c]])


def _card_plays(state: GameState, seat: int, fixed: list[Action]) -> None:
    """Travel, Boss and Recruitment plays (they open a reaction window)."""
    neg = state.negotiation
    hand = state.hands[seat]
    grey = hand[TRAVEL_GREY] > 0
    if grey or any(hand[TRAVEL_RED:TRAVEL_GREY]):
        # Targets: the space's placards in play and not travelling, then its laid cards;
        # on each the Travel card of the target's clan, then a grey one.
        wanted = state.board.clan_masks[neg.space]
        placards = state.placards
        travel = neg.travel
        grey_card = CARDS[TRAVEL_GREY]
        for clan in MASK_CLANS[wanted]:
            if placards[clan] != POOL and clan not in travel:
                target = PLACARD_SOURCES[clan]
                if hand[TRAVEL_RED + clan]:
                    fixed.append(_a(PlayTravel, seat, CARDS[TRAVEL_RED + clan], target))
                if grey:
                    fixed.append(_a(PlayTravel, seat, grey_card, target))
        for card in neg.laid:
            clan = card.clan
            if wanted >> clan & 1:
                target = laid(card.id)
                if hand[TRAVEL_RED + clan]:
                    fixed.append(_a(PlayTravel, seat, CARDS[TRAVEL_RED + clan], target))
                if grey:
                    fixed.append(_a(PlayTravel, seat, grey_card, target))
    if hand[BOSS] and seat != neg.boss:
        fixed.append(_a(PlayBoss, seat))
    if hand[RECRUIT] >= 3:
        _recruit_actions(state, seat, fixed)


def _offers(state: GameState, seat: int, out: LegalActions) -> None:
    """Any of the seat's sources for up to the cap; under V3 a seat that may not be paid
    offers its sources at $0 only, and has nothing to offer without one (RULES §8.1)."""
    pool = tuple(sorted(nego.offerable(state, seat)))
    if _V3 not in state.settings.variants or seat in state.negotiation.played:  # may_be_paid
        hi = nego.offer_cap(state)
    elif pool:
        hi = 0
    else:
        return
    out.terms.append(_offer_choice(seat, pool, hi))


def _proposals(state: GameState, boss: int, out: LegalActions) -> None:
    cap = nego.offer_cap(state)
    pools = nego.offerable_by_seat(state)
    v3 = _V3 in state.settings.variants
    played = state.negotiation.played
    for p in range(len(pools)):
        if p == boss:
            continue
        if not v3 or p in played:  # nego.may_be_paid
            out.terms.append(_proposal_choice(boss, p, pools[p], cap))
        elif pools[p]:  # V3: "let me use your sources, unpaid"
            out.terms.append(_proposal_choice(boss, p, pools[p], 0))


# Offer ranges are frozen values like actions, shared the same way: building one cost more
# than the rest of an offer's legality. Bounded, as pools and caps vary from deal to deal.
@lru_cache(maxsize=4096)
def _offer_choice(seat: int, pool: tuple[Source, ...], hi: int) -> TermsChoice:
    return TermsChoice(_a(Offer, seat, (), 0), pool, 0, hi)


@lru_cache(maxsize=4096)
def _proposal_choice(boss: int, to: int, pool: tuple[Source, ...], hi: int) -> TermsChoice:
    return TermsChoice(_a(Propose, boss, to, (), 0), pool, 0, hi)


# --------------------------------------------------------------------------- apply


def apply(state: GameState, action: Action) -> list[Event]:
    """Play `action`; returns the events. Illegal actions raise IllegalAction, state untouched."""
    if not isinstance(action, Action):
        raise IllegalAction("action.unknown", f"not an action: {action!r}")
    if not is_legal(state, action):
        rule, message = explain_illegal(state, action)
        raise IllegalAction(rule, message)
    events: list[Event] = []
    state._legal_cache.clear()  # memos of this version must not outlive its changes
    _HANDLERS[type(action)](state, action, events)
    state.actions_taken += 1
    state._legal_cache.clear()
    return events


def is_legal(state: GameState, action: Action) -> bool:
    """`action in legal_actions(state, action.seat)`: from that list when it is built
    already (a bot chose from it), else without building it (`legality.legal_now`: the LAN
    host checks each action a client sends, most of them on a version nobody listed)."""
    cache = state._legal_cache
    listed = cache.get((state.actions_taken, action.seat))
    if listed is not None:
        return action in listed
    key = ("legal", state.actions_taken)
    if cache.get(key) is action:  # checked already at this version (the host, then apply)
        return True
    try:
        ok = bool(legal_now(state, action))
    except (TypeError, ValueError, IndexError, KeyError, AttributeError):
        # a field of another type than declared: the list's answer, whatever it makes of it
        return action in legal_actions(state, action.seat)
    if ok:
        cache[key] = action
    return ok


def waiting_for(state: GameState) -> list[int]:
    """The seats the game cannot go on without: window answerers, the floor, the turn
    player; in real time the Boss once the limit is spent. Others may act but need not."""
    if state.phase is _GAME_OVER:
        return []
    if state.window is not None:
        return asked_seats(state)
    neg = state.negotiation
    if neg is None:
        return [state.turn]
    if not nego.is_real_time(state):
        return [neg.floor]
    return [neg.boss] if nego.limit_spent(state) else []


def default_action(state: GameState, seat: int) -> Action | None:
    """The passive choice when the game waits for `seat` and its clock runs out: pass, pass
    the floor, draw, close if covered else fail, discard the card held most. None when the
    game is not waiting for this seat (nobody else's move is ever made for them)."""
    if seat not in waiting_for(state):
        return None
    legal = legal_actions(state, seat).moves()
    for kind in (Pass, PassFloor, Draw, GoingOnce, FailDeal, Roll):
        for a in legal.fixed:
            if type(a) is kind:
                return a
    discards = [a for a in legal.fixed if isinstance(a, Discard)]
    if discards:
        hand = state.hands[seat]
        return max(discards, key=lambda a: (hand[a.card], -int(a.card)))
    for a in legal.fixed:
        if isinstance(a, (PlaceMarker, OpenDeal)):
            return a
    # A quiet-round Boss who may only make a last proposal: propose nothing, i.e. fail is
    # not available only under two-player rules, where a covered deal must close.
    return next(iter(legal), None)


def _count(state: GameState, seat: int, events: list[Event]) -> None:
    """A negotiation move: spend one of the limit; someone other than the Boss acting keeps
    the ask-around round alive."""
    neg = state.negotiation
    neg.actions += 1
    if seat != neg.boss:
        neg.round_active = True
        neg.quiet = False
        neg.last_proposal = QUIET_LAST_UNUSED
    _check_limit(state, events, "actions")


def _check_limit(state: GameState, events: list[Event], reason: str) -> None:
    neg = state.negotiation
    if neg is None:
        return
    if reason == "time" or neg.actions == state.settings.negotiation_limit:
        events.append(NegotiationLimitReached(reason))
        if not nego.is_real_time(state):
            neg.floor = neg.boss


def _cancel_call(state: GameState, seat: int, events: list[Event]) -> None:
    """Any card played or offer made during "going once" cancels the call."""
    win = state.window
    if win is not None and win.kind is WindowKind.GOING_ONCE:
        state.window = None
        events.append(CallCancelled(seat))
        events.append(WindowClosed(WindowKind.GOING_ONCE.value))
        if not nego.is_real_time(state):
            state.negotiation.floor = seat


def _place_marker(state: GameState, a: PlaceMarker, events: list[Event]) -> None:
    state.marker = a.space
    events.append(MarkerPlaced(a.seat, a.space))
    _start_turn(state, state.first_player, events)


def _start_turn(state: GameState, seat: int, events: list[Event]) -> None:
    state.phase = Phase.TURN
    state.turn = seat
    state.last_roll = None
    events.append(TurnStarted(seat))


def _open_deal(state: GameState, a: OpenDeal, events: list[Event]) -> None:
    space = state.marker
    price = current_price(state)
    proceeds = state.board.spaces[space].dividends * price
    state.negotiation = Negotiation(
        space=space,
        price=price,
        proceeds=proceeds,
        opener=a.seat,
        boss=a.seat,
        floor=None if nego.is_real_time(state) else a.seat,
    )
    state.phase = Phase.NEGOTIATION
    events.append(DealOpened(a.seat, space, price, proceeds))


def _roll(state: GameState, a: Roll, events: list[Event]) -> None:
    value = state.rng.die()
    state.last_roll = value
    events.append(DieRolled(a.seat, value, "move"))
    path = []
    pos = state.marker
    steps = value
    n = len(state.board.spaces)
    if len(state.covered) < n - 1:
        while steps:
            pos = (pos + 1) % n
            path.append(pos)
            if pos not in state.covered:
                steps -= 1
    state.marker = pos
    events.append(MarkerMoved(tuple(path)))
    state.phase = Phase.MOVED


def draw_count(state: GameState, seat: int) -> int:
    if state.settings.has(Variant.V4):
        owned = sum(1 for p in state.placards if p == seat)
        return (4, 3, 2)[owned] if owned < 3 else 1
    return 3


def _draw_cards(state: GameState, seat: int, count: int, events: list[Event]) -> None:
    drawn: list[Card] = []
    for _ in range(count):
        if not state.deck:
            if not state.discard:
                break
            state.deck = state.discard
            state.discard = []
            state.rng.shuffle(state.deck)
            events.append(DeckReshuffled(len(state.deck)))
        card = state.deck.pop()
        state.hands[seat][card] += 1
        drawn.append(card)
    events.append(CardsDrawn(seat, len(drawn), tuple(drawn)))


def _draw(state: GameState, a: Draw, events: list[Event]) -> None:
    _draw_cards(state, a.seat, draw_count(state, a.seat), events)
    limit = hand_limit(state)
    excess = state.hand_size(a.seat) - limit
    if excess > 0:
        state.phase = Phase.DISCARD
        events.append(HandLimitReached(a.seat, excess, limit))
    else:
        _start_turn(state, (a.seat + 1) % state.players, events)


def _discard(state: GameState, a: Discard, events: list[Event]) -> None:
    state.hands[a.seat][a.card] -= 1
    state.discard.append(a.card)
    events.append(CardDiscarded(a.seat, a.card))
    _after_discard_step(state, events)


def _after_discard_step(state: GameState, events: list[Event]) -> None:
    if state.hand_size(state.turn) <= hand_limit(state):
        _start_turn(state, (state.turn + 1) % state.players, events)


def _recruit(state: GameState, a: Recruit, events: list[Event]) -> None:
    _cancel_call(state, a.seat, events)
    state.hands[a.seat][Card.RECRUIT] -= 3
    events.append(CardPlayed(a.seat, Card.RECRUIT, 3, None, a.clan))
    if state.negotiation is not None:
        state.negotiation.played.add(a.seat)
        _count(state, a.seat, events)
    _open_window(state, WindowKind.RECRUIT, a.seat, events, recruit=a.clan)


def _lay_clan(state: GameState, a: LayClan, events: list[Event]) -> None:
    _cancel_call(state, a.seat, events)
    neg = state.negotiation
    state.hands[a.seat][clan_card(a.clan)] -= 1
    card = LaidCard(neg.next_card_id, a.seat, a.clan)
    neg.next_card_id += 1
    neg.laid.append(card)
    neg.played.add(a.seat)
    events.append(ClanLaid(a.seat, a.clan, card.id))
    _count(state, a.seat, events)


def _play_travel(state: GameState, a: PlayTravel, events: list[Event]) -> None:
    _cancel_call(state, a.seat, events)
    state.hands[a.seat][a.card] -= 1
    state.negotiation.played.add(a.seat)
    events.append(CardPlayed(a.seat, a.card, 1, a.target, None))
    _count(state, a.seat, events)
    _open_window(state, WindowKind.TRAVEL, a.seat, events, card=a.card, target=a.target)


def _play_boss(state: GameState, a: PlayBoss, events: list[Event]) -> None:
    _cancel_call(state, a.seat, events)
    state.hands[a.seat][Card.BOSS] -= 1
    state.negotiation.played.add(a.seat)
    events.append(CardPlayed(a.seat, Card.BOSS, 1, None, None))
    _count(state, a.seat, events)
    _open_window(state, WindowKind.BOSS, a.seat, events)


def _offer(state: GameState, a: Offer, events: list[Event]) -> None:
    _cancel_call(state, a.seat, events)
    state.negotiation.pending[a.seat] = Terms(tuple(sorted(a.sources)), a.amount, by_boss=False)
    events.append(OfferMade(a.seat, tuple(sorted(a.sources)), a.amount))
    _count(state, a.seat, events)


def _propose(state: GameState, a: Propose, events: list[Event]) -> None:
    neg = state.negotiation
    nego.touch(state, a.to)
    neg.pending[a.to] = Terms(tuple(sorted(a.sources)), a.amount, by_boss=True)
    events.append(Proposed(a.seat, a.to, tuple(sorted(a.sources)), a.amount))
    if neg.quiet and not nego.is_real_time(state):
        neg.last_proposal = QUIET_LAST_MADE
    _count(state, a.seat, events)


def _agree(state: GameState, seat: int, terms: Terms, events: list[Event]) -> None:
    neg = state.negotiation
    agreed = neg.agreements[seat] = nego.merged_terms(neg.agreements.get(seat), terms)
    events.append(AgreementMade(seat, neg.boss, agreed.sources, agreed.amount))


def _accept(state: GameState, a: Accept, events: list[Event]) -> None:
    terms = state.negotiation.pending.pop(a.of)
    nego.touch(state, a.of)
    _agree(state, a.of, terms, events)
    _count(state, a.seat, events)


def _accept_former(state: GameState, a: AcceptFormer, events: list[Event]) -> None:
    neg = state.negotiation
    for seat in sorted(neg.pending):
        terms = neg.pending[seat]
        if terms.was_agreed and not terms.by_boss:
            del neg.pending[seat]
            nego.touch(state, seat)
            _agree(state, seat, terms, events)
    _count(state, a.seat, events)


def _accept_proposal(state: GameState, a: AcceptProposal, events: list[Event]) -> None:
    _cancel_call(state, a.seat, events)
    terms = state.negotiation.pending.pop(a.seat)
    _agree(state, a.seat, terms, events)
    _count(state, a.seat, events)


def _withdraw(state: GameState, a: Withdraw, events: list[Event]) -> None:
    _cancel_call(state, a.seat, events)
    del state.negotiation.pending[a.player]
    nego.touch(state, a.player)
    events.append(Withdrawn(a.seat, a.player))
    _count(state, a.seat, events)


def _pass_floor(state: GameState, a: PassFloor, events: list[Event]) -> None:
    neg = state.negotiation
    if a.seat == neg.boss:
        neg.round_active = False
    else:
        neg.floor_passed.add(a.seat)
    n = state.players
    nxt = (neg.floor + 1) % n
    events.append(FloorPassed(a.seat, nxt))
    while nxt != neg.boss and nego.floor_skips(state, nxt):  # ends at the Boss at the latest
        events.append(FloorPassed(nxt, (nxt + 1) % n, True))
        nxt = (nxt + 1) % n
    neg.floor = nxt
    if nxt == neg.boss and not neg.round_active:
        if neg.last_proposal == QUIET_LAST_MADE:
            neg.last_proposal = QUIET_LAST_SPENT
        neg.quiet = True
        events.append(QuietRound(neg.boss))


def _going_once(state: GameState, a: GoingOnce, events: list[Event]) -> None:
    events.append(GoingOnceCalled(a.seat))
    _open_window(state, WindowKind.GOING_ONCE, a.seat, events)


def _fail_deal(state: GameState, a: FailDeal, events: list[Event]) -> None:
    neg = state.negotiation
    state.deals_failed += 1
    events.append(DealFailed(neg.boss, neg.space))
    _clear_table(state, events, involved_cards=set())
    _end_negotiation(state, neg, events)


def _time_up(state: GameState, a: TimeUp, events: list[Event]) -> None:
    state.negotiation.time_up = True
    _check_limit(state, events, "time")


def _set_pref(state: GameState, a: SetAskPreference, events: list[Event]) -> None:
    state.ask_only_when_touched[a.seat] = a.only_when_touched
    events.append(AskPreferenceSet(a.seat, a.only_when_touched))


# --------------------------------------------------------------------------- windows


def _open_window(state: GameState, kind: WindowKind, actor: int, events: list[Event], **kw) -> None:
    win = Window(kind, actor, **kw)
    state.window = win
    order = nego.ask_order(state, actor)
    events.append(WindowOpened(kind.value, actor, tuple(order)))
    if nego.is_real_time(state):
        for s in order:
            if state.ask_only_when_touched[s] and not nego.touches(state, s):
                events.append(Passed(s, True))
            else:
                win.waiting.append(s)
        if not win.waiting:
            _resolve_window(state, events)
    else:
        win.queue = order
        _advance_queue(state, events)


def _advance_queue(state: GameState, events: list[Event]) -> None:
    """Skip the players whose preference says this window does not concern them."""
    win = state.window
    while win.queue:
        s = win.queue[0]
        if state.ask_only_when_touched[s] and not nego.touches(state, s):
            win.queue.pop(0)
            events.append(Passed(s, True))
            continue
        events.append(Asked(s))
        return
    _resolve_window(state, events)


def _pass(state: GameState, a: Pass, events: list[Event]) -> None:
    win = state.window
    events.append(Passed(a.seat, False))
    if nego.is_real_time(state):
        win.waiting.remove(a.seat)
        if not win.waiting:
            _resolve_window(state, events)
    else:
        win.queue.pop(0)
        _advance_queue(state, events)


def _window_cards(win: Window) -> tuple[Card, ...]:
    if win.kind is WindowKind.TRAVEL:
        return (win.card,)
    if win.kind is WindowKind.BOSS:
        return (Card.BOSS,)
    if win.kind is WindowKind.RECRUIT:
        return (Card.RECRUIT,) * 3
    return ()


def _play_stop(state: GameState, a: PlayStop, events: list[Event]) -> None:
    win = state.window
    state.window = None
    state.hands[a.seat][Card.STOP] -= 1
    cancelled = _window_cards(win)
    state.discard.extend(cancelled)
    state.discard.append(Card.STOP)
    if state.negotiation is not None:
        state.negotiation.played.add(a.seat)
        if a.seat != state.negotiation.boss:
            state.negotiation.round_active = True
    events.append(Stopped(a.seat, win.kind.value, cancelled))
    events.append(WindowClosed(win.kind.value))
    _after_window(state, win, events)


def _resolve_window(state: GameState, events: list[Event]) -> None:
    """Everyone passed: the play takes effect (or the deal closes)."""
    win = state.window
    state.window = None
    events.append(WindowClosed(win.kind.value))
    kind = win.kind
    if kind is WindowKind.GOING_ONCE:
        _close_deal(state, events)
        return
    neg = state.negotiation
    if kind is WindowKind.TRAVEL:
        target = win.target
        owner = nego.source_owner(state, target)
        nego.touch_clan(state, int(nego.source_clan(state, target)))
        if target.kind is SourceKind.PLACARD:
            neg.travel[target.ref] = win.card
            events.append(TravelSent(win.actor, win.card, target, owner, False))
        else:
            card = neg.card(target.ref)
            neg.laid.remove(card)
            state.discard.extend((clan_card(card.clan), win.card))
            events.append(TravelSent(win.actor, win.card, target, owner, True))
        nego.lapse(state, target, events)
    elif kind is WindowKind.BOSS:
        state.discard.append(Card.BOSS)
        _change_boss(state, win.actor, events)
    elif kind is WindowKind.RECRUIT:
        state.discard.extend((Card.RECRUIT,) * 3)
        clan = int(win.recruit)
        old = state.placards[clan]
        if neg is not None:
            nego.touch_clan(state, clan)
            if old != POOL:
                nego.touch(state, old)
        state.placards[clan] = win.actor
        events.append(PlacardRecruited(Clan(clan), old, win.actor))
        if neg is not None:
            nego.lapse(state, Source(SourceKind.PLACARD, clan), events)
    _after_window(state, win, events)


def _after_window(state: GameState, win: Window, events: list[Event]) -> None:
    if state.phase is Phase.DISCARD:
        _after_discard_step(state, events)
        return
    neg = state.negotiation
    if neg is None or nego.is_real_time(state):
        return
    if win.kind is WindowKind.BOSS and neg.boss == win.actor:
        return  # the new Boss has the floor (set by _change_boss)
    neg.floor = neg.boss if nego.limit_spent(state) else win.actor


def _change_boss(state: GameState, new: int, events: list[Event]) -> None:
    """RULES §5.3: agreements fall back to pending offers the new Boss may accept as they
    stand; the old Boss's proposals lapse; the old Boss negotiates like anyone else."""
    neg = state.negotiation
    old = neg.boss
    neg.boss = new
    fell = []
    pending: dict[int, Terms] = {}
    for seat, terms in neg.pending.items():
        if not terms.by_boss and seat != new:
            pending[seat] = terms
    for seat, terms in neg.agreements.items():
        if seat != new:
            pending[seat] = Terms(terms.sources, terms.amount, by_boss=False, was_agreed=True)
            fell.append(seat)
    neg.pending = pending
    neg.agreements = {}
    neg.floor_passed.clear()  # a new Boss touches everyone (RULES §6.4)
    events.append(BossChanged(old, new))
    if fell:
        events.append(AgreementsFellBack(tuple(sorted(fell))))
    if not nego.is_real_time(state):
        neg.floor = new
        neg.round_active = False
        neg.quiet = False
        neg.last_proposal = QUIET_LAST_UNUSED


# --------------------------------------------------------------------------- closing


def _close_deal(state: GameState, events: list[Event]) -> None:
    neg = state.negotiation
    chosen, _auto = nego.involved(state)
    boss = neg.boss
    tile = state.tiles.pop(0)
    involved_sources = tuple(e[1] for e in chosen)
    clans = tuple([CLANS[e[0]] for e in chosen])
    events.append(DealClosed(boss, neg.space, tile, neg.proceeds, involved_sources, clans))
    money = state.money
    for pay in nego.settlement(state):  # the one account of a deal's payments (the ledger's)
        if pay.payer != BANK:
            money[pay.payer] -= pay.amount
        money[pay.payee] += pay.amount
        events.append(Paid(pay.payer, pay.payee, pay.amount, pay.reason))
    _clear_table(state, events, {s.ref for s in involved_sources if s.kind is SourceKind.CARD})
    state.covered[neg.space] = tile
    state.deals_closed += 1
    events.append(TilePlaced(tile, neg.space))
    nxt = _next_free(state, neg.space)
    if nxt is not None:
        state.marker = nxt
        events.append(MarkerMoved(_path(state, neg.space, nxt)))
    faces = state.board.tile(tile).end_faces
    over = not state.tiles or tile == 15
    if not over and faces:
        value = state.rng.die()
        state.last_roll = value
        events.append(DieRolled(boss, value, "end"))
        over = value in faces
    if over:
        _game_over(state, events)
        return
    _end_negotiation(state, neg, events)


def _next_free(state: GameState, space: int) -> int | None:
    n = len(state.board.spaces)
    for i in range(1, n + 1):
        s = (space + i) % n
        if s not in state.covered:
            return s
    return None


def _path(state: GameState, start: int, end: int) -> tuple[int, ...]:
    n = len(state.board.spaces)
    out = []
    s = start
    while s != end:
        s = (s + 1) % n
        out.append(s)
    return tuple(out)


def _clear_table(state: GameState, events: list[Event], involved_cards: set[int]) -> None:
    """Involved Clan cards and every other played card go to the discard pile; laid Clan
    cards not involved go back to their owners' hands (RULES §7)."""
    neg = state.negotiation
    returned: dict[int, list[Card]] = {}
    discarded: list[Card] = []
    for card in neg.laid:
        kind = clan_card(card.clan)
        if card.id in involved_cards:
            discarded.append(kind)
        else:
            state.hands[card.owner][kind] += 1
            returned.setdefault(card.owner, []).append(kind)
    discarded.extend(neg.travel[c] for c in sorted(neg.travel))
    state.discard.extend(discarded)
    neg.laid = []
    neg.travel = {}
    for seat in sorted(returned):
        events.append(CardsReturned(seat, tuple(returned[seat])))
    events.append(TableCleared(tuple(discarded)))


def _end_negotiation(state: GameState, neg: Negotiation, events: list[Event]) -> None:
    state.negotiation = None
    state.window = None
    last = neg.opener if state.settings.has(Variant.V1) else neg.boss
    _start_turn(state, (last + 1) % state.players, events)


def _game_over(state: GameState, events: list[Event]) -> None:
    state.negotiation = None
    state.window = None
    state.phase = Phase.GAME_OVER
    top = max(state.money)
    state.winners = [s for s in range(state.players) if state.money[s] == top]
    events.append(GameOver(tuple(state.winners), tuple(state.money)))


# --------------------------------------------------------------------------- explanations


def explain_illegal(state: GameState, action: Action) -> tuple[str, str]:
    """Why `action` is not legal now, as (rule id, sentence). Only used on the error path."""
    seat = action.seat
    neg = state.negotiation
    name = type(action).__name__
    if state.phase is Phase.GAME_OVER:
        return "game.over", "the game is over"
    if seat == HOST:
        if not isinstance(action, TimeUp):
            return "seat.host_only_clock", "the host only runs the negotiation clock"
        return "negotiation.none", "there is no negotiation whose time could run out"
    if not 0 <= seat < state.players:
        return "seat.unknown", f"there is no seat {seat}"
    if isinstance(action, SetAskPreference):
        return "preference.unchanged", "that preference is already set"
    if isinstance(action, TimeUp):
        return "seat.host_only_clock", "only the host's clock can end negotiation time"
    if state.window is not None:
        asked = asked_seats(state)
        if seat not in asked:
            return "window.not_asked", f"a reaction window is open and seat {seat} is not asked now"
        if isinstance(action, PlayStop):
            if not state.window.kind.stoppable:
                return (
                    "stop.only_after_play",
                    "Stop answers only a Travel, Boss or Recruitment play",
                )
            return "card.not_in_hand", "you hold no Stop card"
        if state.window.kind.stoppable:
            return "window.answer_only", "answer the open window first: pass or play Stop"
    elif isinstance(action, (Pass, PlayStop)):
        if isinstance(action, PlayStop):
            return (
                "stop.only_after_play",
                "Stop is played only right after a Travel, Boss or Recruitment play",
            )
        return "window.none", "no reaction window is open"
    phase = state.phase
    turn_actions = (PlaceMarker, OpenDeal, Roll, Draw)
    if isinstance(action, turn_actions + (Discard,)) and seat != state.turn:
        return "turn.not_yours", f"it is seat {state.turn}'s turn, not seat {seat}'s"
    if isinstance(action, PlaceMarker):
        if phase is not Phase.PLACE_MARKER:
            return "setup.marker_placed", "the marker is already on the board"
        return "setup.space_free", f"space {action.space} is not a free space"
    if isinstance(action, OpenDeal):
        if phase not in (Phase.TURN, Phase.MOVED):
            return "turn.phase", "a deal is opened at the start of a turn or after rolling"
        return "variant.V5", "V5: no deal may be opened with fewer than 3 cards in hand"
    if isinstance(action, Roll):
        return "turn.phase", "roll only at the start of your turn"
    if isinstance(action, Draw):
        if phase is not Phase.MOVED:
            return "turn.draw_after_roll", "draw only after rolling"
        return "variant.V2", "V2: starting a turn with 10 or more cards, you must attempt a deal"
    if isinstance(action, Discard):
        if phase is not Phase.DISCARD:
            return "hand.no_discard", "discard only down to the hand limit after drawing"
        return "card.not_in_hand", f"you hold no {action.card.key} card"
    if isinstance(action, Recruit):
        if state.hands[seat][Card.RECRUIT] < 3:
            return "recruit.triple", "Recruitment cards are played only as a triple"
        if phase is Phase.DISCARD and seat != state.turn:
            return "turn.not_yours", "only the player over the hand limit may recruit now"
        if phase not in (Phase.DISCARD, Phase.NEGOTIATION):
            return "card.only_in_negotiation", "influence cards are played only during negotiation"
        owner = state.placards[action.clan]
        if owner == seat:
            return "recruit.own_placard", "you already hold that placard"
        if owner != POOL and POOL in state.placards:
            return "recruit.pool_first", "while the pool holds placards, a triple must take from it"
        return _negotiation_reason(state, action)
    if phase is not Phase.NEGOTIATION or neg is None:
        return "negotiation.none", f"{name}: no negotiation is open"
    return _negotiation_reason(state, action)


def _negotiation_reason(state: GameState, action: Action) -> tuple[str, str]:
    seat = action.seat
    neg = state.negotiation
    in_call = state.window is not None and state.window.kind is WindowKind.GOING_ONCE
    if isinstance(action, PassFloor) and (nego.is_real_time(state) or in_call):
        return "floor.none", "there is no floor to pass now"
    if not in_call and not nego.is_real_time(state) and neg.floor != seat:
        return "floor.not_yours", f"seat {neg.floor} has the floor"
    spent = nego.limit_spent(state)
    boss_only = (GoingOnce, FailDeal, Propose, Accept, AcceptFormer)
    if isinstance(action, boss_only) and seat != neg.boss:
        return "boss.only", "only the Boss may do that"
    if isinstance(action, (PlayBoss, AcceptProposal)) and seat == neg.boss:
        return "boss.already", "the Boss cannot do that"
    card_play = in_call and isinstance(action, (PlayTravel, PlayBoss, Recruit))
    if spent and not card_play and not isinstance(action, (GoingOnce, FailDeal)):
        return (
            "negotiation.limit",
            "the negotiation limit is spent: the Boss may only close or fail",
        )
    if neg.quiet and seat == neg.boss and not nego.is_real_time(state) and not spent:
        closing = (GoingOnce, FailDeal, LayClan)
        if neg.last_proposal == QUIET_LAST_SPENT and not isinstance(action, closing):
            return (
                "floor.quiet_again",
                "the last proposal found no taker in another quiet round: the Boss may only"
                " lay his own Clan cards, close or fail",
            )
        if not isinstance(action, closing + (Propose, PassFloor)):
            return (
                "floor.quiet_round",
                "after a quiet round the Boss may only lay his own Clan cards, close, fail or"
                " make a last proposal",
            )
        if isinstance(action, Propose) and neg.last_proposal == QUIET_LAST_MADE:
            return (
                "floor.last_proposal_made",
                "the last proposal has been made: pass the floor so that it can be answered",
            )
        if isinstance(action, PassFloor) and neg.last_proposal != QUIET_LAST_MADE:
            return (
                "floor.quiet_round",
                "after a quiet round the Boss may only close, fail or make a last proposal",
            )
    if isinstance(action, GoingOnce):
        if not nego.is_covered(state):
            return "close.not_covered", "the committed sources do not cover the space"
        return "close.unpaid", "the agreements and two-player payments exceed the proceeds"
    if isinstance(action, FailDeal):
        return "two_player.must_close", "two-player rules: a covered deal must be closed"
    hand = state.hands[seat]
    if isinstance(action, LayClan):
        if not hand[clan_card(action.clan)]:
            return "card.not_in_hand", f"you hold no {action.clan.key} Clan card"
        return "clan.not_on_space", "that clan has no slot on this space"
    if isinstance(action, PlayTravel):
        if not action.card.is_travel or not hand[action.card]:
            return "card.not_in_hand", f"you hold no {action.card.key} card"
        clan = nego.source_clan(state, action.target)
        if clan is None or not nego.usable(state, action.target):
            return "travel.target", "a Travel card goes on a placard or laid Clan card in play"
        if action.card is not Card.TRAVEL_GREY and action.card is not travel_card(clan):
            return "travel.colour", "a coloured Travel card only matches its own clan"
        return "clan.not_on_space", "that clan has no slot on this space"
    if isinstance(action, PlayBoss):
        return "card.not_in_hand", "you hold no Boss card"
    if isinstance(action, Recruit):
        return "recruit.target", "that placard cannot be recruited"
    if isinstance(action, Offer) and seat == neg.boss:
        return "boss.proposes", "the Boss does not offer: the Boss proposes terms to a player"
    if isinstance(action, (Offer, Propose)):
        target = action.to if isinstance(action, Propose) else seat
        if not 0 <= target < state.players:
            return "seat.unknown", f"there is no seat {target}"
        if isinstance(action, Propose) and target == neg.boss:
            return "agreement.self", "the Boss does not negotiate with themself"
        if not nego.may_be_paid(state, target) and not nego.offerable(state, target):
            return (
                "variant.V3",
                "V3: a player who has played no influence card takes part only with a source",
            )
        if not nego.may_be_paid_amount(state, target, action.amount):
            return (
                "variant.V3",
                "V3: a player who has played no influence card may only take part for $0",
            )
        if action.amount > nego.offer_cap(state):
            return (
                "agreement.total_exceeds_proceeds",
                "all agreements together may not exceed the deal's proceeds",
            )
        offerable = set(nego.offerable(state, target))
        if any(s not in offerable for s in action.sources):
            return "agreement.sources", "those are not usable sources of that player for this deal"
        return "agreement.offer", "that offer is not possible now"
    if isinstance(action, Accept):
        terms = neg.pending.get(action.of)
        if terms is None or terms.by_boss:
            return "agreement.no_offer", f"seat {action.of} has no pending offer"
        if not nego.may_be_paid_amount(state, action.of, terms.amount):
            return "variant.V3", "V3: only players who played an influence card may be paid"
        return (
            "agreement.total_exceeds_proceeds",
            "all agreements together may not exceed the deal's proceeds",
        )
    if isinstance(action, AcceptFormer):
        return "agreement.no_former", "there are no former agreements to accept as they stand"
    if isinstance(action, AcceptProposal):
        terms = neg.pending.get(seat)
        if terms is None or not terms.by_boss:
            return "agreement.no_proposal", "the Boss has proposed nothing to you"
        if not nego.may_be_paid_amount(state, seat, terms.amount):
            return "variant.V3", "V3: only players who played an influence card may be paid"
        return (
            "agreement.total_exceeds_proceeds",
            "all agreements together may not exceed the deal's proceeds",
        )
    if isinstance(action, Withdraw):
        if action.player not in neg.pending:
            return "agreement.nothing_pending", "nothing is pending with that player"
        return "agreement.not_party", "only the Boss or that player may withdraw it"
    return "action.not_now", f"{type(action).__name__} is not possible now"


_HANDLERS = {
    PlaceMarker: _place_marker,
    OpenDeal: _open_deal,
    Roll: _roll,
    Draw: _draw,
    Discard: _discard,
    Recruit: _recruit,
    LayClan: _lay_clan,
    PlayTravel: _play_travel,
    PlayBoss: _play_boss,
    Offer: _offer,
    Propose: _propose,
    Accept: _accept,
    AcceptFormer: _accept_former,
    AcceptProposal: _accept_proposal,
    Withdraw: _withdraw,
    PassFloor: _pass_floor,
    GoingOnce: _going_once,
    FailDeal: _fail_deal,
    Pass: _pass,
    PlayStop: _play_stop,
    SetAskPreference: _set_pref,
    TimeUp: _time_up,
}

# The moves of the seat whose turn it is (or, in a negotiation, of anyone), by phase.
_PHASE_ACTIONS = {
    Phase.PLACE_MARKER: _marker_actions,
    Phase.TURN: _turn_actions,
    Phase.MOVED: _moved_actions,
    Phase.DISCARD: _discard_actions,
    Phase.NEGOTIATION: _floor_actions,
}
