"""Kill/rejoin soak (bench/soak.py), sized for CI: clients killed mid-negotiation, inside a
reaction window and while a hand-limit discard is pending come back with their tokens; a
host process killed with SIGKILL at every kind of moment resumes from its autosave at (at
least) the last action any client saw. The long runs are ``python -m bench.soak clients
--kills 100`` and ``python -m bench.soak host --kills 60``."""

from __future__ import annotations

from collections import Counter

import pytest

from bench.soak import client_soak_game, host_kill_game
from tests.net_helpers import run

pytestmark = [pytest.mark.slow, pytest.mark.timeout(420)]


def test_clients_killed_at_hard_moments_rejoin_and_the_game_finishes(tmp_path):
    """Six kills, over as many games as it takes (at most four): kills are paced in
    wall-clock time, so on a quick machine one game may end before all six have happened;
    the next game takes the rest instead of the test asking a game to last long enough."""
    wanted, games = 6, 0
    figures: Counter = Counter()
    problems: list[str] = []
    while figures["kills"] < wanted and games < 4:
        games += 1
        result = run(
            client_soak_game(
                games, 5, wanted - figures["kills"], grace=1.0,
                autosave=tmp_path / f"g{games}.json", seats=4, short_game=False,
                discard_wait=3.0, think=0.01,
            ),
            timeout=100,
        )  # fmt: skip
        problems += [f"game {games}: {p}" for p in result["problems"]]
        figures.update(result["figures"])
    assert problems == []
    assert figures["kills"] == wanted
    # a kill in a game's last moments may meet a finished game instead of a rejoin
    assert wanted - games <= figures["rejoins"] <= wanted
    assert figures["kills.negotiation"] + figures["kills.window"] >= 2
    assert figures["bad_snapshot_hash"] == 0


def test_a_host_killed_at_any_moment_resumes_where_its_clients_are(tmp_path):
    """SIGKILL just before an action reaches the journal, just after (no frame sent yet),
    halfway through sending its updates, while the save is compacted (before and after its
    rename) and from outside; each time the save + journal hold every action a client has
    seen and each client's view is that of the saved game at its version."""
    plan = ("before_journal", "mid_broadcast", "compaction_after_rename", "after_journal",
            "compaction_before_rename", "outside")  # fmt: skip
    result = run(
        host_kill_game(3, 9, len(plan), tmp_path, plan=plan, seats=3, short=False), timeout=140
    )
    assert result["problems"] == []
    fig = result["figures"]
    assert fig["host_kills"] == len(plan) and fig["host_resumes"] == fig["host_kills"]
    assert all(fig[f"kills.{point}"] == 1 for point in plan)
    assert fig["client_views_checked"] >= 3 * fig["host_kills"]
