"""Kill/rejoin soak (bench/soak.py), sized for CI: clients killed mid-negotiation, inside a
reaction window and while a hand-limit discard is pending come back with their tokens; a
host process killed with SIGKILL at every kind of moment resumes from its autosave at (at
least) the last action any client saw. The long runs are ``python -m bench.soak clients
--kills 100`` and ``python -m bench.soak host --kills 60``."""

from __future__ import annotations

import pytest

from bench.soak import client_soak_game, host_kill_game
from tests.net_helpers import run

pytestmark = pytest.mark.timeout(150)


def test_clients_killed_at_hard_moments_rejoin_and_the_game_finishes(tmp_path):
    result = run(
        client_soak_game(
            1, 5, 6, grace=1.0, autosave=tmp_path / "g.json", seats=4, short_game=False,
            discard_wait=3.0, think=0.01,
        ),
        timeout=140,
    )  # fmt: skip
    assert result["problems"] == []
    fig = result["figures"]
    # Kills are paced in wall-clock time: on a quick machine the game may end after fewer
    # than the 6 wanted (the clients' think time makes that unlikely below 3), and a kill
    # in the last moments may meet a finished game instead of a rejoin.
    assert fig["kills"] >= 3
    assert fig["kills"] - 1 <= fig["rejoins"] <= fig["kills"]
    assert fig.get("kills.negotiation", 0) + fig.get("kills.window", 0) >= 2
    assert fig["bad_snapshot_hash"] == 0


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
