"""Scenario helper: set placards, hands and deck order explicitly, then script actions.

    t = Scenario(["Ann", "Bo", "Cy", "Di"], placards={"red": 0, "blue": 1, ...},
                 hands=[["clan_red", "stop"], ...], marker=0)
    t.open(0); t.lay(0, "yellow"); t.offer(1, [t.placard("red")], 8); t.accept(0, 1)

Every helper goes through `apply`, so a scenario can only do what the rules allow.
"""

from __future__ import annotations

from collections import Counter

from game.rules import (
    Accept,
    AcceptFormer,
    AcceptProposal,
    Card,
    Clan,
    Discard,
    Draw,
    FailDeal,
    Game,
    GoingOnce,
    LayClan,
    Offer,
    OpenDeal,
    Pass,
    PassFloor,
    PlayBoss,
    PlayStop,
    PlayTravel,
    Propose,
    Recruit,
    Roll,
    Settings,
    Setup,
    Withdraw,
    asked_seats,
    laid,
    legal_actions,
    placard,
)
from game.rules.board import clan_from_key
from game.rules.cards import DECK_COUNTS, card_from_key
from game.rules.state import POOL


def _card(c) -> Card:
    return c if isinstance(c, Card) else card_from_key(c)


def _clan(c) -> Clan:
    return c if isinstance(c, Clan) else clan_from_key(c)


class Scenario:
    def __init__(
        self,
        names,
        placards: dict,
        hands: list[list],
        deck_top: list | None = None,
        marker: int | None = 0,
        first_player: int = 0,
        tiles: list[int] | None = None,
        covered: dict[int, int] | None = None,
        seed: int = 1,
        money: list[int] | None = None,
        **settings,
    ) -> None:
        n = len(names)
        owners = [POOL] * 6
        for clan, seat in placards.items():
            owners[_clan(clan)] = seat
        hand_cards = [tuple(_card(c) for c in h) for h in hands]
        used = Counter(c for h in hand_cards for c in h)
        top = [_card(c) for c in (deck_top or [])]
        used.update(top)
        rest = []
        for kind in Card:
            left = DECK_COUNTS[kind] - used[kind]
            if left < 0:
                raise ValueError(f"scenario uses too many {kind.key} cards")
            rest.extend([kind] * left)
        setup = Setup(
            placards=tuple(owners),
            hands=tuple(hand_cards),
            deck=tuple(top + rest),
            first_player=first_player,
            marker=marker,
            tiles=tuple(tiles) if tiles is not None else None,
            covered=covered,
            money=tuple(money) if money is not None else None,
        )
        self.game = Game(list(names), seed, Settings(players=n, **settings), setup)
        self.events: list = []

    # -- plumbing --
    @property
    def state(self):
        return self.game.state

    @property
    def neg(self):
        return self.state.negotiation

    def do(self, action):
        ev = self.game.apply(action)
        self.events.extend(ev)
        return ev

    def legal(self, seat):
        return legal_actions(self.state, seat)

    def hand(self, seat) -> dict[str, int]:
        return {Card(k).key: n for k, n in enumerate(self.state.hands[seat]) if n}

    def event_types(self) -> list[str]:
        return [e.type for e in self.events]

    @staticmethod
    def placard(clan):
        return placard(_clan(clan))

    def card(self, owner: int, clan) -> object:
        """The Source of `owner`'s laid Clan card of `clan` (the first one laid)."""
        for c in self.neg.laid:
            if c.owner == owner and c.clan == _clan(clan):
                return laid(c.id)
        raise AssertionError(f"seat {owner} has no laid {clan} card")

    # -- turn --
    def open(self, seat):
        return self.do(OpenDeal(seat))

    def roll(self, seat):
        return self.do(Roll(seat))

    def draw(self, seat):
        return self.do(Draw(seat))

    def discard(self, seat, card):
        return self.do(Discard(seat, _card(card)))

    # -- negotiation --
    def lay(self, seat, clan):
        return self.do(LayClan(seat, _clan(clan)))

    def travel(self, seat, card, target):
        return self.do(PlayTravel(seat, _card(card), target))

    def boss(self, seat):
        return self.do(PlayBoss(seat))

    def recruit(self, seat, clan):
        return self.do(Recruit(seat, _clan(clan)))

    def offer(self, seat, sources, amount):
        return self.do(Offer(seat, tuple(sorted(sources)), amount))

    def propose(self, boss, to, sources, amount):
        return self.do(Propose(boss, to, tuple(sorted(sources)), amount))

    def accept(self, boss, of):
        return self.do(Accept(boss, of))

    def accept_former(self, boss):
        return self.do(AcceptFormer(boss))

    def accept_proposal(self, seat):
        return self.do(AcceptProposal(seat))

    def withdraw(self, seat, player):
        return self.do(Withdraw(seat, player))

    def pass_floor(self, seat):
        return self.do(PassFloor(seat))

    def going_once(self, seat):
        return self.do(GoingOnce(seat))

    def fail(self, seat):
        return self.do(FailDeal(seat))

    def stop(self, seat):
        return self.do(PlayStop(seat))

    def pass_(self, seat):
        return self.do(Pass(seat))

    def all_pass(self):
        """Everyone still asked in the open window passes."""
        out = []
        while self.state.window is not None:
            asked = asked_seats(self.state)
            out.extend(self.do(Pass(asked[0])))
        return out

    def floor_round(self):
        """Ask-around: everyone but the floor's holder passes it until it is back with the
        Boss."""
        while self.neg is not None and self.neg.floor != self.neg.boss:
            self.pass_floor(self.neg.floor)
