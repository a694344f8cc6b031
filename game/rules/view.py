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
from .board import Board, board_from_data
from .cards import CARDS, Card
from .events import Event
from .state import POOL, GameState, Terms

VIEW_FORMAT = 1
PILE_NOTE = 5  # a pile is drawn in $5M notes: its height, not its figure, is public


def money_pile(amount: int) -> int:
    return -(-amount // PILE_NOTE)


def hand_data(hand: list[int]) -> dict[str, int]:
    return {CARDS[k].key: n for k, n in enumerate(hand) if n}


def _terms(t: Terms | None) -> dict | None:
    if t is None:
        return None
    return {
        "sources": [s.to_data() for s in t.sources],
        "amount": t.amount,
        "by_boss": t.by_boss,
        "was_agreed": t.was_agreed,
    }


def view(state: GameState, seat: int | None) -> dict:
    """The game as `seat` sees it (None: the public table)."""
    n = state.players
    show_money = not state.settings.hidden_money or state.phase.value == "game_over"
    players = []
    for s in range(n):
        p = {
            "seat": s,
            "name": state.names[s],
            "placards": [c for c in range(6) if state.placards[c] == s],
            "hand_count": state.hand_size(s),
            "money_pile": money_pile(state.money[s]),
            "asks_only_when_touched": state.ask_only_when_touched[s],
        }
        if show_money or s == seat:
            p["money"] = state.money[s]
        players.append(p)
    data: dict = {
        "format": VIEW_FORMAT,
        "seat": seat,
        "version": state.actions_taken,
        "phase": state.phase.value,
        "turn": state.turn,
        "first_player": state.first_player,
        "players": players,
        "pool": [c for c in range(6) if state.placards[c] == POOL],
        "marker": state.marker,
        "covered": {str(k): v for k, v in sorted(state.covered.items())},
        "tiles": list(state.tiles),
        "price": engine.current_price(state),
        "hand_limit": engine.hand_limit(state),
        "draw_pile": len(state.deck),
        "discard_pile": hand_data(_counts(state.discard)),
        "discard_top": None if not state.discard else state.discard[-1].key,
        "deals_closed": state.deals_closed,
        "deals_failed": state.deals_failed,
        "last_roll": state.last_roll,
        "winners": list(state.winners),
        "settings": state.settings.to_data(),
        "board_id": board_id(state.board),
        "board": state.board.to_data(),
        "waiting_for": engine.waiting_for(state),
        "negotiation": _negotiation(state),
        "window": _window(state),
    }
    if seat is not None and 0 <= seat < n:
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
    out = [0] * len(CARDS)
    for c in cards:
        out[c] += 1
    return out


def _negotiation(state: GameState) -> dict | None:
    neg = state.negotiation
    if neg is None:
        return None
    inv = nego.involved(state)
    return {
        "space": neg.space,
        "price": neg.price,
        "proceeds": neg.proceeds,
        "opener": neg.opener,
        "boss": neg.boss,
        "laid": [{"id": c.id, "owner": c.owner, "clan": c.clan.key} for c in neg.laid],
        "next_card_id": neg.next_card_id,
        "travel": {str(k): v.key for k, v in sorted(neg.travel.items())},
        "agreements": {str(k): _terms(v) for k, v in sorted(neg.agreements.items())},
        "pending": {str(k): _terms(v) for k, v in sorted(neg.pending.items())},
        "played": sorted(neg.played),
        "actions": neg.actions,
        "limit": state.settings.negotiation_limit,
        "limit_spent": nego.limit_spent(state),
        "time_up": neg.time_up,
        "floor": neg.floor,
        "quiet": neg.quiet,
        "last_proposal": neg.last_proposal,
        "round_active": neg.round_active,
        "committed": sorted({c for c, _s, _r, _o in nego.committed(state)}),
        "covered": inv is not None,
        "involved": [] if inv is None else [e[1].to_data() for e in inv[0]],
        "agreed_total": nego.agreed_total(neg),
        "cap": nego.offer_cap(state),
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
