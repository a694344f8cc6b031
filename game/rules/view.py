"""What one seat may see: the only way state leaves the engine.

`view(state, seat)` returns plain data (ints, strings, bools, None, lists and string-keyed
maps) ready for msgpack. It never contains another seat's hand, the draw order or the RNG;
`seat=None` is the public table (a spectator or the table display). Money is shown as a pile
unless it is the seat's own or the table shows exact figures.
"""

from __future__ import annotations

import hashlib
import json

from . import engine
from . import negotiation as nego
from .board import CLAN_KEYS, MASK_CLANS, Board, board_from_data
from .cards import CARD_KEYS, CARD_KINDS, Card
from .events import Event
from .state import POOL, GameState, Phase, SourceKind, Terms

VIEW_FORMAT = 1
_PLACARD = SourceKind.PLACARD
PILE_NOTE = 5  # a pile is drawn in $5M notes: its height, not its figure, is public


def money_pile(amount: int) -> int:
    return -(-amount // PILE_NOTE)


def hand_data(hand: list[int]) -> dict[str, int]:
    return {CARD_KEYS[k]: n for k, n in enumerate(hand) if n}


def _terms(t: Terms | None) -> dict | None:
    if t is None:
        return None
    return {
        # Source.to_data, inline: the random bot reads "pending" on most negotiation moves
        "sources": [["placard" if s.kind is _PLACARD else "card", s.ref] for s in t.sources],
        "amount": t.amount,
        "by_boss": t.by_boss,
        "was_agreed": t.was_agreed,
    }


def _players(state: GameState, seat: int | None) -> list[dict]:
    show_money = not state.settings.hidden_money or state.phase is Phase.GAME_OVER
    players = []
    placards = state.placards
    for s in range(state.players):
        p = {
            "seat": s,
            "name": state.names[s],
            "placards": [c for c in range(6) if placards[c] == s],
            "hand_count": sum(state.hands[s]),
            "money_pile": money_pile(state.money[s]),
            "asks_only_when_touched": state.ask_only_when_touched[s],
        }
        if show_money or s == seat:
            p["money"] = state.money[s]
        players.append(p)
    return players


# Each top-level key of a view and how to build it: `view` builds them all, `game.table.seat_view`
# only those a bot looks at (a bot deciding a pass needs no negotiation summary).
SECTIONS = {
    "format": lambda st, seat: VIEW_FORMAT,
    "seat": lambda st, seat: seat,
    "version": lambda st, seat: st.actions_taken,
    "phase": lambda st, seat: st.phase.value,
    "turn": lambda st, seat: st.turn,
    "first_player": lambda st, seat: st.first_player,
    "players": _players,
    "pool": lambda st, seat: [c for c in range(6) if st.placards[c] == POOL],
    "marker": lambda st, seat: st.marker,
    "covered": lambda st, seat: {str(k): v for k, v in sorted(st.covered.items())},
    "tiles": lambda st, seat: list(st.tiles),
    "price": lambda st, seat: engine.current_price(st),
    "hand_limit": lambda st, seat: engine.hand_limit(st),
    # how many cards the turn player would draw now (V4 makes it depend on placards)
    "draw_count": lambda st, seat: engine.draw_count(st, st.turn),
    "draw_pile": lambda st, seat: len(st.deck),
    "discard_pile": lambda st, seat: hand_data(_counts(st.discard)),
    "discard_top": lambda st, seat: None if not st.discard else CARD_KEYS[st.discard[-1]],
    "deals_closed": lambda st, seat: st.deals_closed,
    "deals_failed": lambda st, seat: st.deals_failed,
    "last_roll": lambda st, seat: st.last_roll,
    "winners": lambda st, seat: list(st.winners),
    "settings": lambda st, seat: st.settings.to_data(),
    "board_id": lambda st, seat: board_id(st.board),
    "board": lambda st, seat: st.board.to_data(),
    "waiting_for": lambda st, seat: engine.waiting_for(st),
    "negotiation": lambda st, seat: _negotiation(st),
    "window": lambda st, seat: _window(st),
}



def _own_hand(state: GameState, seat: int | None) -> bool:
    return seat is not None and 0 <= seat < state.players


def view(state: GameState, seat: int | None) -> dict:
    """The game as `seat` sees it (None: the public table)."""
    data = {key: build(state, seat) for key, build in SECTIONS.items()}
    if _own_hand(state, seat):
        data["hand"] = hand_data(state.hands[seat])
    return data


_BOARD_IDS: dict[int, str] = {}
_BOARDS: dict[str, Board] = {}


def board_id(board: Board) -> str:
    """A digest of the board's data: clients and bots rebuild a board once per id."""
    key = id(board)
    bid = _BOARD_IDS.get(key)
    if bid is None:
        blob = json.dumps(board.to_data(), sort_keys=True).encode()
        bid = hashlib.sha256(blob).hexdigest()[:12]
        _BOARD_IDS[key] = bid
        _BOARDS[bid] = board
    return bid


def board_of(view: dict) -> Board:
    """The board a view is played on (cached by its id)."""
    bid = view["board_id"]
    board = _BOARDS.get(bid)
    if board is None:
        board = board_from_data(view["board"], "view")
        _BOARDS[bid] = board
    return board


def _counts(cards: list[Card]) -> list[int]:
    out = [0] * CARD_KINDS
    for c in cards:
        out[c] += 1
    return out


def _negotiation(state: GameState) -> dict | None:
    neg = state.negotiation
    if neg is None:
        return None
    return {key: build(state, neg) for key, build in NEGOTIATION_FIELDS.items()}


def _involved_data(state: GameState) -> list:
    inv = nego.involved(state)
    return [] if inv is None else [e[1].to_data() for e in inv[0]]


# The negotiation summary, field by field (built all at once by `view`, one by one by
# `game.table.seat_view`).
NEGOTIATION_FIELDS = {
    "space": lambda st, neg: neg.space,
    "price": lambda st, neg: neg.price,
    "proceeds": lambda st, neg: neg.proceeds,
    "opener": lambda st, neg: neg.opener,
    "boss": lambda st, neg: neg.boss,
    "laid": lambda st, neg: [
        {"id": c.id, "owner": c.owner, "clan": CLAN_KEYS[c.clan]} for c in neg.laid
    ],
    "next_card_id": lambda st, neg: neg.next_card_id,
    "travel": lambda st, neg: {str(k): CARD_KEYS[v] for k, v in sorted(neg.travel.items())},
    "agreements": lambda st, neg: {str(k): _terms(v) for k, v in sorted(neg.agreements.items())},
    "pending": lambda st, neg: {str(k): _terms(v) for k, v in sorted(neg.pending.items())},
    "played": lambda st, neg: sorted(neg.played),
    "actions": lambda st, neg: neg.actions,
    "limit": lambda st, neg: st.settings.negotiation_limit,
    "limit_spent": lambda st, neg: nego.limit_spent(st),
    "time_up": lambda st, neg: neg.time_up,
    "floor": lambda st, neg: neg.floor,
    "quiet": lambda st, neg: neg.quiet,
    # 0 not made, 1 made, 2 spent (engine.QUIET_LAST_*); the state starts a deal with False
    "last_proposal": lambda st, neg: int(neg.last_proposal),
    "round_active": lambda st, neg: neg.round_active,
    "floor_passed": lambda st, neg: sorted(neg.floor_passed),
    "committed": lambda st, neg: list(MASK_CLANS[nego.committed_mask(st)]),
    "covered": lambda st, neg: nego.involved(st) is not None,
    "involved": lambda st, neg: _involved_data(st),
    "agreed_total": lambda st, neg: nego.agreed_total(neg),
    "cap": lambda st, neg: nego.offer_cap(st),
}


def _window(state: GameState) -> dict | None:
    win = state.window
    if win is None:
        return None
    return {
        "kind": win.kind.value,
        "actor": win.actor,
        "card": None if win.card is None else win.card.key,
        "target": None if win.target is None else win.target.to_data(),
        "recruit": None if win.recruit is None else win.recruit.key,
        "asked": engine.asked_seats(state),
        "queue": list(win.queue),
        "waiting": list(win.waiting),
    }


def events_for(events: list[Event], seat: int | None) -> list[dict]:
    """Events as `seat` may see them, as plain data."""
    return [e.for_seat(seat).to_data() for e in events]
