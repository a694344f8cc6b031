"""The panel's parts on their own: the terms editor (a class holding an EditorState)."""

from game.rules import LegalActions, Offer, Source, SourceKind, TermsChoice
from game.ui.table.panels.editor import TermsEditor


def test_terms_editor_opens_from_pending_terms_and_follows_the_legal_actions():
    c_placard, w_placard = Source(SourceKind.PLACARD, 0), Source(SourceKind.PLACARD, 6)
    choice = TermsChoice(Offer(1, (), 0), (c_placard, w_placard), 0, 20)
    changes = []
    editor = TermsEditor(table=None, on_change=lambda: changes.append(1))
    editor.open(choice, 0, {"sources": [["placard", 6]], "amount": 99})
    ed = editor.state
    assert ed.sources == {w_placard} and ed.amount == 20  # the pending terms, clamped to hi
    assert ed.id == ("Offer", 0) and changes == [1]
    narrower = TermsChoice(Offer(1, (), 0), (c_placard,), 2, 10)
    editor.refresh(LegalActions([], [narrower]))
    assert editor.state is ed and ed.choice is narrower
    assert ed.sources == set() and ed.amount == 10  # W left the pool; amount in 2..10
    editor.refresh(LegalActions([], []))  # no offer possible any more: the editor closes
    assert editor.state is None
    editor.open(choice, 0, None)  # fresh terms: every source ticked, the lowest amount
    assert editor.state.sources == {c_placard, w_placard} and editor.state.amount == 0
    editor.close()
    assert editor.state is None and len(changes) == 3
