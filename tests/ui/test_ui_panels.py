"""The panel's parts on their own: the terms editor (a class holding an EditorState)."""

import pytest

from game.rules import LegalActions, Offer, Source, SourceKind, TermsChoice
from game.rules.seat_view import SeatView
from game.rules.state import Terms
from game.ui.table.panels.editor import TermsEditor


def test_terms_editor_opens_from_pending_terms_and_follows_the_legal_actions():
    c_placard, w_placard = Source(SourceKind.PLACARD, 0), Source(SourceKind.PLACARD, 6)
    choice = TermsChoice(Offer(1, (), 0), (c_placard, w_placard), 0, 20)
    changes = []
    editor = TermsEditor(table=None, on_change=lambda: changes.append(1))
    editor.open(choice, 0, Terms((w_placard,), 99))
    ed = editor.state
    assert ed.sources == {w_placard} and ed.amount == 20  # the pending terms, clamped to hi
    assert ed.id == ("Offer", 0) and changes == [1]
    narrower = TermsChoice(Offer(1, (), 0), (c_placard,), 2, 10)
    editor.refresh(LegalActions([], [narrower]))
    assert editor.state is ed and ed.choice is narrower
    assert ed.sources == set() and ed.amount == 10  # W left the pool; amount in 2..10
    editor.refresh(LegalActions([], []))  # no offer possible any more: the editor closes
    assert editor.state is None
    editor.close()
    assert editor.state is None and len(changes) == 2


class _Seat:
    """A table seen by one seat: what the editor asks of its table, the seat's view."""

    def __init__(self, state, seat: int) -> None:
        self.seen = SeatView.of(state, seat)


def test_fresh_terms_tick_only_the_sources_the_deal_lacks():
    """Issue 24: on space 7 the Boss holds C (1 of C/D) and W; Dara's D would cover C/D a
    second time, so her fresh offer ticks S alone; once S is agreed, Bruno's L is needed
    by nothing and the proposal to him opens with nothing ticked."""
    from game.rules import Propose, legal_actions
    from tests.rules.test_rules_ledger import issue_24_table

    t = issue_24_table()
    s, d, l_ = t.placard("blue"), t.placard("magenta"), t.placard("green")
    offer = next(c for c in legal_actions(t.state, 1).terms if isinstance(c.action, Offer))
    assert set(offer.pool) == {s, d}
    editor = TermsEditor(table=_Seat(t.state, 1), on_change=lambda: None)
    editor.open(offer, 0, None)
    assert editor.state.sources == {s} and editor.state.amount == 0
    t.propose(0, 1, [s], 5)
    t.accept_proposal(1)
    to_bruno = next(
        c for c in legal_actions(t.state, 0).terms if isinstance(c.action, Propose) and c.action.to == 2
    )
    assert l_ in to_bruno.pool
    editor = TermsEditor(table=_Seat(t.state, 0), on_change=lambda: None)
    editor.open(to_bruno, 2, None)
    assert editor.state.sources == set()


def test_editor_rows_never_overlap_whatever_the_number_of_sources():
    """The range line ends above the summary line, which ends above Cancel and Send, and the
    source buttons end above the amount dial, for one to six sources (the screenshot of a
    4-source offer once showed the two lines on top of each other)."""
    from game.ui.table.panels.editor import editor_geometry, editor_rect

    for n in range(1, 7):
        geo = editor_geometry(n)
        assert max(r.bottom for r in geo.sources) <= geo.amount_y, n
        assert geo.range_y >= geo.amount_y + 58, n  # under the 58 px amount buttons
        assert geo.range_y + geo.range_h <= geo.summary_bottom - geo.summary_h, n
        assert geo.summary_bottom <= geo.buttons_y, n
        assert geo.buttons_y + 56 <= editor_rect().bottom, n
        if n <= 4:  # tall enough for the clan-letter key caps (widgets.py draws them from 44)
            assert all(r.height >= 44 for r in geo.sources), n


@pytest.mark.parametrize("lang", ["en", "zh_Hant", "zh_Hans", "th"])
def test_editor_lines_have_room_for_their_ink_at_large_text(lang):
    """At Large text the range (or the fair price) and the summary lines' inks fit between
    the amount dial and Cancel and Send without touching: Thai's stacked marks and tails
    took more than the fixed 24 + 28 px the lines had."""
    from game.ui import i18n
    from game.ui.config import TEXT_SIZES
    from game.ui.drawing import draw
    from game.ui.drawing.theme import THEME
    from game.ui.table.panels.editor import editor_geometry

    fair = i18n.table(lang)["fair.investor_alone"].format(amount="$14M")
    from game.ui.table.panels.editor import SUMMARY_KEYS

    words = {"name": "Player 5", "boss": "Player 5", "sources": "G Goldman", "amount": "$0M"}
    summaries = [i18n.table(lang)[key].format(**words) for key in SUMMARY_KEYS]
    before = i18n._default._table
    try:
        i18n._default._table = i18n.table(lang)  # the editor measures its lines' own words
        THEME.configure(lang=lang, text_scale=TEXT_SIZES["large"])
        top = draw.fit(fair, 20, 5000).get_bounding_rect().height
        bottom = max(draw.fit(s, 22, 5000).get_bounding_rect().height for s in summaries)
        for n in range(1, 7):
            geo = editor_geometry(n)
            assert top + 3 + bottom <= geo.summary_bottom - geo.range_y, (n, top, bottom)
            assert max(r.bottom for r in geo.sources) <= geo.amount_y, n
    finally:
        i18n._default._table = before
        THEME.configure(lang="en", text_scale=TEXT_SIZES["normal"])


def test_the_boss_reads_why_a_pending_offer_is_red_not_only_that_it_is():
    """Dara's agreement already covers 1 of S/L; Bruno then offers L: accepting it pays him
    and covers nothing new. The Boss's line says so (before: "Accept Bruno's offer: you keep
    $5M" in red, with no reason)."""
    from game.rules import placard
    from game.rules.board import Clan
    from game.ui import i18n
    from game.ui.table.panels.ledger import _offer_lines
    from tools import screenshot

    s = screenshot.ledger_session(agreed=True)
    s.apply_scripted(Offer(2, (placard(Clan.GREEN),), 2))
    lines = _offer_lines(SeatView.of(s.game.state, 0), ["Mei", "Dara", "Bruno"])
    nothing = i18n.tr("table.ledger.if_accept_nothing", name="Bruno", amount="$5M")
    assert [line.label for line in lines] == [nothing]


def test_an_investor_outside_the_deal_reads_that_he_has_no_agreement_not_a_zero_payment():
    """Dara has agreed to $5M; Bruno has no agreement: his box says so instead of "Your
    agreement pays you $0M", while Dara's still shows her $5M."""
    from game.rules.ledger import ledger
    from game.ui import i18n
    from game.ui.table.panels.ledger import investor_lines
    from tools import screenshot

    s = screenshot.ledger_session(agreed=True)
    names = ["Mei", "Dara", "Bruno"]
    bruno_view, dara_view = SeatView.of(s.game.state, 2), SeatView.of(s.game.state, 1)
    bruno = investor_lines(bruno_view, 2, ledger(bruno_view), None, names)
    dara = investor_lines(dara_view, 1, ledger(dara_view), None, names)
    assert bruno[0].label == i18n.tr("table.ledger.no_agreement") and bruno[0].value == ""
    assert (dara[0].label, dara[0].value) == (i18n.tr("table.ledger.paid_you"), "$5M")
