"""The pure rules engine: no pygame, no sockets, no threads, no clock.

The package re-exports what most callers need, starting with the four calls everything
goes through:
    new_game(players, seed, settings, setup) -> GameState
    legal_actions(state, seat) -> LegalActions
    apply(state, action) -> list[Event]          (IllegalAction names the broken rule)
    view(state, seat) -> plain data               (the only way state leaves the engine)
and `is_legal(state, action)` / `explain_illegal(state, action)`: what the action's rule
answers (allowed, or the rule it breaks and why), the same rules the list is built from.

Its modules are public as well, each for what it defines; a name the package re-exports
may be imported from either place. Names starting with "_" are private to the engine.
    actions       the actions, LegalActions, their wire form
    board         clans, deal spaces and tiles, the board file
    cards         the influence cards and their keys
    closing       after a negotiation: a deal settled, the table cleared, the next turn or the end
    deal_moves    the negotiation moves: cards laid and played, offers, agreements, the floor
    deal_rules    the negotiation moves' rules: the floor's gate and each move's check
    determinize   a full state rebuilt from one seat's view (search bots, LAN clients)
    engine        apply, is_legal, explain_illegal, whose turn it is; the front re-exporting the rest
    errors        IllegalAction
    events        what apply reports, and each seat's redacted copy
    explain       why a card in a hand has no play now
    game          Game: a game with its log, and its save form
    invariants    the checks that hold after every action (tests, the sweep)
    legal_list    legal_actions: the seat's list, generated from the rules phase by phase
    legality      Rule and Refusal, the predicates rules share, the turn's and windows' rules
    ledger        a deal's account from one seat's view: payments, what the Boss keeps
    negotiation   sources, coverage and agreements of a deal
    replay        save files and replays read back into a Game; replay_log, the one rebuild from a log
    rulebook      every action type's rule, and refusal(): the one answer all three read
    seat_view     SeatView: a seat's view typed, read from and back into its wire map
    setup         new_game, Setup: the deal of a new game or an explicit starting position
    state         GameState and its parts, the seeded RNG
    turn          the turn: the marker, rolling, opening a deal, drawing, discarding
    variants      Settings, variants, window modes
    view          what a seat may see, built section by section
    windows       reaction windows: who is asked, passing, Stop, what a play does after them

tests/test_layers.py holds this to the modules present and to the names exported here.
"""

from .actions import (
    ACTION_TYPES,
    HOST,
    Accept,
    AcceptFormer,
    AcceptProposal,
    Action,
    ActionFormatError,
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
    action_from_data,
    legal_from_data,
)
from .board import CLANS, DEFAULT_BOARD, Board, Clan, load_board
from .cards import Card
from .determinize import hidden_twin, state_from_view
from .engine import (
    Setup,
    SetupError,
    apply,
    asked_seats,
    default_action,
    explain_illegal,
    is_legal,
    legal_actions,
    new_game,
    opening_events,
    to_act,
    waiting_for,
)
from .errors import IllegalAction
from .events import Event
from .game import Game
from .replay import SaveError, game_from_data, load, replay
from .state import POOL, GameState, Phase, Source, SourceKind, WindowKind, laid, placard
from .variants import Settings, SettingsError, Variant, WindowMode, parse_variants
from .view import events_for, view

__all__ = [name for name in dir() if not name.startswith("_")]
