"""The pure rules engine: no pygame, no sockets, no threads, no clock.

The whole API other layers use:
    new_game(players, seed, settings, setup) -> GameState
    legal_actions(state, seat) -> LegalActions
    apply(state, action) -> list[Event]          (IllegalAction names the broken rule)
    view(state, seat) -> plain data               (the only way state leaves the engine)
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
    legal_actions,
    new_game,
    opening_events,
    to_act,
    waiting_for,
)
from .errors import IllegalAction
from .events import Event
from .replay import Game, SaveError, game_from_data, load, replay
from .state import POOL, GameState, Phase, Source, SourceKind, WindowKind, laid, placard
from .variants import Settings, SettingsError, Variant, WindowMode, parse_variants
from .view import events_for, view

__all__ = [name for name in dir() if not name.startswith("_")]
