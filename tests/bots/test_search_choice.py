"""The offline check of the search's choice (bench/search_choice.py): it records searched
decisions and scores a spec's choices against a ground truth of the search's own model."""

from __future__ import annotations

import pytest

from bench.search_choice import evaluate, ground_truth, record, talk_agreement


@pytest.fixture(scope="module")
def recorded():
    decisions = record([21], "search:steps=40+ms=0")
    return decisions, ground_truth(decisions, samples=3)


def test_decisions_are_recorded_with_their_candidates(recorded):
    decisions, truth = recorded
    assert len(decisions) >= 10
    for d, means in zip(decisions, truth, strict=True):
        assert d.view.seat == 0 and len(d.candidates) >= 2
        assert len(means) == len(d.candidates)
        assert all(0.0 <= m <= 1.0 for m in means)


def test_a_search_that_keeps_the_heuristic_choice_gains_nothing(recorded):
    decisions, truth = recorded
    v = evaluate(decisions, truth, "search:steps=1+ms=0")
    assert v.gain == 0.0 and v.overrides == 0.0
    best = sum(max(m) - m[0] for m in truth) / len(truth)
    assert v.left == pytest.approx(best)


@pytest.mark.slow
def test_a_searching_spec_changes_some_choices_and_is_scored_on_each(recorded):
    decisions, truth = recorded
    v = evaluate(decisions, truth, "search:steps=300+ms=0", reps=2)
    assert v.decisions == 2 * len(decisions)
    assert 0.0 < v.overrides < 1.0
    assert v.left >= 0.0


def test_the_rollouts_bots_choose_what_the_tables_bots_choose_with_a_talk_memory():
    r = talk_agreement([21])
    assert r["decisions"] >= 50
    assert r["table"] >= 0.95 and r["table"] > r["none"]  # memoryless bots talk on
