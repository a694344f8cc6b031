"""The Boss's ledger (game/rules/ledger.py) against the engine: every figure it shows before
an agreement is what the engine has after it, and what the engine pays when the deal closes;
the issue-24 table (space 7, "1 of S/L" already covered) warns and ticks nothing more."""

from __future__ import annotations

import pytest

from game.rules import Accept, AcceptProposal, Settings, WindowMode, view
from game.rules.ledger import Cover, ledger, needed_sources, preview
from game.rules.seat_view import SeatView
from game.table.simulate import simulate_game
from tests.scenario import Scenario


def _figures(led) -> tuple:
    return (led.proceeds, led.payments, led.reserved, led.keeps, led.rows, led.covered)


class LedgerAudit:
    """Watches a bot game: before each accepted agreement, the ledger's "after" from the
    Boss's and the investor's views; at each close, the last prediction still standing
    against the engine's payments and the Boss's money change."""

    def __init__(self) -> None:
        self.before: dict[int, SeatView] = {}  # seat -> its view before the next action
        self.money_before: list[int] = []
        self.standing = None  # the last prediction, while the Boss's ledger still shows it
        self.accepts = self.closes = self.predicted_closes = 0
        self.reasons: set[str] = set()  # the kinds of payment seen at the closes

    def on_step(self, game, action, events) -> None:
        st = game.state
        if isinstance(action, (Accept, AcceptProposal)):
            self._accepted(st, action)
        closed = [e for e in events if e.type == "deal_closed"]
        if closed:
            self._closed(st, events)
        elif self.standing is not None and st.negotiation is not None:
            now = ledger(SeatView.of(st, st.negotiation.boss))
            self.standing = self.standing if _figures(now) == _figures(self.standing) else None
        # read back from the wire map: a view built from the state reads it lazily
        self.before = {s: SeatView.from_data(view(st, s)) for s in range(st.players)}
        self.money_before = list(st.money)
        if st.negotiation is None:
            self.standing = None

    def _accepted(self, st, action) -> None:
        seat = action.of if isinstance(action, Accept) else action.seat
        boss_view = self.before[st.negotiation.boss]
        terms = boss_view.negotiation.pending[seat]
        pred = preview(boss_view, seat, terms.sources, terms.amount)
        theirs = preview(self.before[seat], seat, terms.sources, terms.amount)
        now = ledger(SeatView.of(st, st.negotiation.boss))
        assert _figures(pred.after) == _figures(now)
        assert pred.after.keeps == pred.before.keeps - terms.amount or st.settings.two_player
        assert theirs.after.paid_to(seat) == ledger(SeatView.of(st, seat)).paid_to(seat)
        self.standing = pred.after
        self.accepts += 1

    def _closed(self, st, events) -> None:
        boss = next(e for e in events if e.type == "deal_closed").boss
        last = ledger(self.before[boss])
        paid = [e for e in events if e.type == "paid" and e.reason != "dividends"]
        got = [(e.payer, e.payee, e.amount, e.reason) for e in paid]
        want = [(p.payer, p.payee, p.amount, p.reason) for p in last.payments]
        assert got == want
        self.reasons.update(e.reason for e in paid)
        assert st.money[boss] - self.money_before[boss] == last.keeps
        for seat in range(st.players):
            if seat != boss:
                change = st.money[seat] - self.money_before[seat]
                assert change == ledger(self.before[seat]).paid_to(seat)
        if self.standing is not None:
            assert self.standing.payments == last.payments
            assert self.standing.keeps == st.money[boss] - self.money_before[boss]
            self.predicted_closes += 1
        self.closes += 1
        self.standing = None


@pytest.mark.parametrize(
    ("players", "seed", "bots", "mode"),
    [
        (4, 3, ["heuristic"] * 4, WindowMode.REAL_TIME),
        (5, 8, ["heuristic", "random", "heuristic", "random", "heuristic"], WindowMode.ASK_AROUND),
        (3, 21, ["random"] * 3, WindowMode.REAL_TIME),
        (2, 7, ["heuristic", "heuristic"], WindowMode.REAL_TIME),
    ],
)
def test_ledger_figures_are_the_engines_settlement(players, seed, bots, mode):
    audit = LedgerAudit()
    settings = Settings(players=players, window_mode=mode)
    simulate_game(players, seed, bots, settings=settings, on_step=audit.on_step)
    assert audit.closes >= 3 and audit.accepts >= 1
    assert audit.predicted_closes >= 1  # some prediction lasted until its deal closed
    assert "agreement" in audit.reasons
    if players == 2:  # the opponent's placards, used without consent
        assert "two_player" in audit.reasons


def issue_24_table() -> Scenario:
    """Space 7 (index 6: 1 of C/D, 1 of S/L, 1 of W/G): the Boss holds C and W, Dara S and
    D, Bruno L; the deal is worth 4 x $2M."""
    t = Scenario(
        ["Boss", "Dara", "Bruno"],
        placards={"red": 0, "yellow": 0, "blue": 1, "magenta": 1, "green": 2},
        hands=[["stop"], ["stop"], ["stop"]],
        marker=6,
        window_mode=WindowMode.REAL_TIME,
    )
    t.open(0)
    return t


def test_an_agreement_for_a_covered_group_is_flagged_and_not_ticked():
    t = issue_24_table()
    v = SeatView.from_data(view(t.state, 0))  # as the table reads it
    assert ledger(v).keeps == 8
    first = preview(v, 1, (t.placard("blue"),), 5)
    assert not first.adds_nothing and first.after.keeps == 3 and first.after.covered
    t.propose(0, 1, [t.placard("blue")], 5)
    t.accept_proposal(1)
    v = SeatView.from_data(view(t.state, 0))  # as the table reads it
    led = ledger(v)
    assert led.keeps == 3 and led.paid_to(1) == 5
    s_l = led.rows[1]
    assert [(p.cover, p.seat) for p in s_l.places] == [(Cover.AGREED, 1)] and s_l.full
    second = preview(v, 2, (t.placard("green"),), 2)
    assert second.adds_nothing and second.redundant == (s_l,)
    assert second.after.keeps == 1 and not second.over
    assert preview(v, 2, (), 4).over  # $5M + $4M is more than the $8M the deal brings
    assert needed_sources(v, 2, (t.placard("green"),)) == ()


def test_the_editor_default_is_what_the_deal_lacks():
    t = issue_24_table()
    v = SeatView.from_data(view(t.state, 0))  # as the table reads it
    s, d = t.placard("blue"), t.placard("magenta")
    assert ledger(v).rows[0].places[0].cover is Cover.OWN  # C/D: the Boss's own C
    assert needed_sources(v, 1, tuple(sorted((s, d)))) == (s,)
    assert preview(v, 1, (d,), 1).redundant == (ledger(v).rows[0],)
