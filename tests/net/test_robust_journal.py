"""The host's save + action journal (net/host/journal.py): every applied action is in the journal
before anything is sent about it; resume = save + journal replay; torn or corrupt tails are
dropped; compaction never loses a record, whatever moment the process dies at."""

from __future__ import annotations

import asyncio
import json
import random

import pytest

from game.rules import Game, Settings, WindowMode, legal_actions, load
from game.table.simulate import simulate_game
from net.host.journal import (
    Autosaver,
    game_id,
    journal_path,
    load_game,
    parse_line,
    record_line,
)

pytestmark = pytest.mark.timeout(60)


@pytest.fixture(scope="module")
def played():
    """A finished 4-player real-time game (its log is what the host would journal)."""
    settings = Settings(players=4, window_mode=WindowMode.REAL_TIME, short_game=True)
    game, _ = simulate_game(4, 11, ["random"] * 4, settings)
    return game


def fresh(game: Game) -> Game:
    return Game(list(game.names), game.seed, game.settings, game.setup)


def write_through(path, game: Game, upto: int, **kw) -> Autosaver:
    """A saver that saw the first ``upto`` actions of ``game`` (no event loop: inline)."""
    g = fresh(game)
    store = Autosaver(path, g, **kw)
    store.start()
    for a in game.log[:upto]:
        g.apply(a)
        store.add(a)
    return store


def test_lines_carry_a_checksum():
    line = record_line({"i": 3, "a": {"type": "roll", "seat": 1}})
    assert line.endswith(b"\n") and parse_line(line[:-1]) == {
        "i": 3,
        "a": {"type": "roll", "seat": 1},
    }
    assert parse_line(line[:-2]) is None  # torn
    assert parse_line(line.replace(b'"seat":1', b'"seat":2')[:-1]) is None  # damaged
    assert parse_line(b"") is None and parse_line(b"{} zzzzzzzz") is None


def test_resume_replays_the_journal_exactly(tmp_path, played):
    path = tmp_path / "g.json"
    n = 300
    store = write_through(path, played, n, compact_every=10_000, sync="none")
    assert store.records == n and store.writes == 1
    assert len(load(path).log) == 0  # the save alone is the start of the game
    game, report = load_game(path)
    assert report.saved == 0 and report.replayed == n and report.problem is None
    assert [a.to_data() for a in game.log] == [a.to_data() for a in played.log[:n]]
    store.close()


def test_a_torn_or_damaged_tail_is_dropped(tmp_path, played):
    path = tmp_path / "g.json"
    store = write_through(path, played, 50, compact_every=10_000, sync="none")
    store.close()
    jp = journal_path(path)
    whole = jp.read_bytes()
    lines = whole.split(b"\n")
    # Torn anywhere inside the last record: that record is gone, nothing else.
    for cut in range(1, len(lines[-2]) + 1):
        jp.write_bytes(whole[: len(whole) - cut])
        game, report = load_game(path)
        assert len(game.log) == 49 and report.problem == "torn last line"
        assert report.dropped_lines == 1
    # A damaged record in the middle: replay stops there (a gap cannot be replayed).
    bad = lines[:]
    bad[20] = bad[20].replace(b'"seat":', b'"seat": ')
    jp.write_bytes(b"\n".join(bad))
    game, report = load_game(path)
    assert len(game.log) == 19 and report.problem == "corrupt line"
    assert report.dropped_lines == 31
    # Out of sequence (a record missing).
    jp.write_bytes(b"\n".join(lines[:10] + lines[11:]))
    game, report = load_game(path)
    assert len(game.log) == 9 and "expected" in report.problem
    # A record the rules refuse (a forged or foreign line with a valid checksum).
    rec = parse_line(lines[5])
    rec["a"]["seat"] = (rec["a"]["seat"] + 1) % 4
    jp.write_bytes(b"\n".join(lines[:5] + [record_line(rec)[:-1]] + lines[6:]))
    game, report = load_game(path)
    assert len(game.log) == 4 and "refused" in report.problem


def test_a_journal_of_another_game_is_ignored(tmp_path, played):
    path = tmp_path / "g.json"
    write_through(path, played, 30, sync="none").close()
    other = Game(list(played.names), played.seed + 1, played.settings)
    assert game_id(other) != game_id(played)
    other.save(path)  # a new game saved over the old one, its journal left behind
    game, report = load_game(path)
    assert len(game.log) == 0 and report.ignored == "the journal belongs to another game"


def test_compaction_keeps_every_record_at_any_crash_point(tmp_path, played):
    """Inline compaction every 7 records; after each step, the files on disk (as a process
    killed right then would leave them) give back exactly the actions applied so far.
    The crash points between writing the save and replacing the journal are simulated by
    restoring the journal as it was before the replacement."""
    path = tmp_path / "g.json"
    g = fresh(played)
    store = Autosaver(path, g, compact_every=7, sync="none")
    store.start()
    jp = journal_path(path)
    for i, a in enumerate(played.log[:80]):
        before = jp.read_bytes()
        g.apply(a)
        store.add(a)
        game, report = load_game(path)
        assert len(game.log) == i + 1 and report.problem is None, report
        if store._since == 0:  # a compaction just happened: crash before its rotation
            after = jp.read_bytes()
            jp.write_bytes(before + record_line({"i": i, "a": a.to_data()}))
            game, report = load_game(path)
            assert (
                len(game.log) == i + 1
                and report.skipped
                == i + 1 - json.loads(before.split(b"\n")[0].rpartition(b" ")[0])["base"]
            )
            jp.write_bytes(after)
    assert store.writes > 8
    store.close()


def test_background_compaction_and_a_newer_save_never_cross(tmp_path, played):
    """Compactions run in a worker thread; a full save written meanwhile (a rematch, a
    resume) must never be overwritten by the older one."""

    async def scenario():
        path = tmp_path / "g.json"
        g = fresh(played)
        store = Autosaver(path, g, compact_every=5, sync="batch")
        store.start()
        rng = random.Random(3)
        for i, a in enumerate(played.log[:120]):
            g.apply(a)
            store.add(a)
            if rng.random() < 0.3:
                await asyncio.sleep(0.001)
            if rng.random() < 0.05:
                store.start()  # a full save now, whatever is in flight
            if i % 3 == 0:
                game, report = load_game(path)
                assert len(game.log) == len(g.log) and report.problem is None
        await store.flush()
        assert len(load(path).log) == 120  # flush: the save alone is complete
        store.close()

    asyncio.run(scenario())


def test_every_journaled_action_was_legal(tmp_path, played):
    """Replaying a journal goes through the engine: what it holds is a legal game."""
    path = tmp_path / "g.json"
    write_through(path, played, 200, sync="none").close()
    game, _ = load_game(path)
    replay = fresh(played)
    for a in game.log:
        assert a in legal_actions(replay.state, a.seat)
        replay.apply(a)
    assert replay.state.hash() == game.state.hash()


def test_reading_while_the_host_compacts_never_loses_actions(tmp_path, played, monkeypatch):
    """Found by bench/soak.py: ``load_game`` read the save, then the journal; a host that
    compacted in between (new save, new journal continuing it) left the reader with the old
    save and a journal starting after it, so the last actions seemed lost. The journal is
    now read first: a save read later is never older than the journal's base."""
    import net.host.journal as J

    path = tmp_path / "g.json"
    store = write_through(path, played, 90, compact_every=10_000, sync="none")
    real_load = J.load

    def load_then_compact(p):
        game = real_load(p)
        store.start()  # the host compacts right after the reader got the save
        return game

    monkeypatch.setattr(J, "load", load_then_compact)
    game, report = load_game(path)
    assert len(game.log) == 90 and report.problem is None
    store.close()
