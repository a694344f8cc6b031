"""Save files replay bit for bit; corrupt saves are refused with file, index and rule; the
command line prints the promised JSON."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from game.bots import make_bot
from game.rules import Game, SaveError, Settings, Variant, legal_actions, load, waiting_for
from game.rules.engine import Setup
from game.rules.replay import game_from_data
from game.table.simulate import simulate_game

ROOT = Path(__file__).resolve().parents[2]


def run_main(*args, check=True):
    proc = subprocess.run(
        [sys.executable, str(ROOT / "main.py"), *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    if check:
        assert proc.returncode == 0, proc.stderr
    return proc


def test_save_and_replay_reproduce_the_state_hash(tmp_path):
    settings = Settings(players=5, variants=frozenset({Variant.V1, Variant.V4}))
    game, _ = simulate_game(5, 77, ["random"] * 5, settings)
    path = tmp_path / "g.json"
    game.save(path)
    again = load(path)
    assert again.state.hash() == game.state.hash()
    assert len(again.log) == len(game.log)
    # and a half-played game too, with an explicit setup
    g2 = Game(["A", "B", "C"], 5, Settings(players=3), Setup(first_player=2, marker=7))
    bots = [make_bot("random", s, 1) for s in range(3)]
    for _ in range(40):
        seat = waiting_for(g2.state)[0]
        g2.apply(bots[seat].choose(None, legal_actions(g2.state, seat).moves()))
    g2.save(path)
    half = load(path)
    assert half.state.hash() == g2.state.hash() and half.state.turn == g2.state.turn


def test_corrupt_saves_name_the_problem(tmp_path):
    game, _ = simulate_game(3, 5, ["random"] * 3)
    data = game.to_data()
    path = tmp_path / "bad.json"

    def refused(d) -> str:
        path.write_text(json.dumps(d) if not isinstance(d, str) else d)
        with pytest.raises(SaveError) as err:
            load(path)
        return str(err.value)

    assert "not valid JSON" in refused("{oops")
    assert "not an I'm the Boss! save" in refused({"format": "other"})
    d = json.loads(json.dumps(data))
    d["actions"][10] = {"type": "roll", "seat": 9}
    assert "action 10: [action.format]" in refused(d)
    d = json.loads(json.dumps(data))
    d["actions"].insert(3, {"type": "play_stop", "seat": 0})
    msg = refused(d)
    assert str(path) in msg and "action 3: [" in msg
    d = json.loads(json.dumps(data))
    d["settings"]["players"] = 9
    assert "players must be 2-6" in refused(d)
    with pytest.raises(SaveError, match="No such file"):
        load(tmp_path / "missing.json")
    assert game_from_data(json.loads(json.dumps(data))).state.hash() == game.state.hash()


def test_cli_simulate_json_and_replay(tmp_path):
    out = run_main(
        "simulate",
        "--games",
        "3",
        "--players",
        "4",
        "--seed",
        "10",
        "--json",
        "--save",
        str(tmp_path),
    )
    data = json.loads(out.stdout)
    assert data["summary"]["games"] == 3
    assert set(data["summary"]) >= {"games", "games_per_second", "mean_actions"}
    for g in data["games"]:
        assert set(g) == {
            "seed",
            "players",
            "winners",
            "money",
            "deals_closed",
            "deals_failed",
            "actions",
            "seconds",
        }
        assert g["players"] == 4 and len(g["money"]) == 4
    first = data["games"][0]
    saved = json.loads((tmp_path / "game-10.json").read_text())
    assert saved["seat_kinds"] == ["random"] * 4  # the replay viewer shows bots as bots
    rep = json.loads(run_main("replay", str(tmp_path / "game-10.json"), "--json").stdout)
    for key in ("seed", "players", "winners", "money", "deals_closed", "deals_failed", "actions"):
        assert rep[key] == first[key]
    # the same seed gives the same game
    again = json.loads(
        run_main("simulate", "--games", "1", "--players", "4", "--seed", "10", "--json").stdout
    )
    assert again["games"][0]["money"] == first["money"]


def test_cli_errors_are_one_line(tmp_path):
    bad = tmp_path / "x.json"
    bad.write_text("[]")
    proc = run_main("replay", str(bad), check=False)
    assert proc.returncode == 1 and proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    proc = run_main("simulate", "--players", "9", check=False)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    proc = run_main("simulate", "--variant", "V9", check=False)
    assert proc.returncode != 0 and "unknown variant" in proc.stderr
    proc = run_main("simulate", "--bots", "nobody", check=False)
    assert proc.returncode == 2 and "unknown bot" in proc.stderr


def test_a_game_is_rebuilt_from_its_log_in_one_place():
    """`replay_log` rebuilds a game step by step with the very events it had live (the opening
    first); a bad action stops it with its index and rule; and no module of the game or the
    host makes a fresh game from another's start by hand."""
    import re

    from game.rules import opening_events
    from game.rules.replay import LogError, fresh_start, replay_log
    from game.table.simulate import play

    game = Game(["A", "B", "C", "D"], 41, Settings(players=4))
    live = [(0, opening_events(game.state))]
    bots = [make_bot("random", s, 41) for s in range(4)]
    play(game, bots, on_step=lambda g, action, events: live.append((len(g.log), events)))
    start = fresh_start(game)
    assert list(replay_log(start, game.log)) == live
    assert start.state.hash() == game.state.hash() and start.log == game.log
    raw = [a.to_data() for a in game.log[:5]] + [{"type": "nonsense"}]
    with pytest.raises(LogError) as bad:
        list(replay_log(fresh_start(game), raw))
    assert (bad.value.index, bad.value.rule) == (5, "action.format")
    illegal = [game.log[1].to_data()]  # the second action first: not legal at the start
    with pytest.raises(LogError) as refused:
        list(replay_log(fresh_start(game), illegal))
    assert refused.value.index == 0 and refused.value.rule != "action.format"
    by_hand = re.compile(r"Game\(\s*list\([\w.]+\.names\)")
    for path in [*(ROOT / "game").rglob("*.py"), *(ROOT / "net").rglob("*.py")]:
        if path.name == "replay.py" and path.parent.name == "rules":
            continue
        assert not by_hand.search(path.read_text(encoding="utf-8")), path
