"""Hidden-information audit of LAN games: every frame the host sends, to every connection.

    .venv/bin/python -m bench.audit_lan --games 1000 [--workers 2] [--concurrency 6] [--seed 1] [--phones N]

Each game is a real LAN game on loopback: a host, a headless bot client (``BotPlayer``) on
every seat and a spectator (the table display), 2 to 6 seats, random variants, hidden or
open money, short and full games. The host's ``tap`` sees every frame at the moment it is
sent (``Connections.send`` is the only way out), with the host's state as it is then. Checks:

1. **Derivation** (the sound core): a frame is exactly what the seat may know. A snapshot's
   view is ``view(state, seat)``, its hash that view's hash, its events ``events_for(events,
   seat)`` of the game's opening; an update's delta holds values of ``view(state, seat)``,
   its hash is that view's, its events are ``events_for`` of the action just applied; legal
   actions (if asked for) are ``legal_actions(state, seat)``; a welcome's token is the
   seat's own (spectators: none). Spectators get ``seat=None``: the public view.
2. **Scan** (independent of the engine's redaction): no ``deck``, ``rng``, ``seed``,
   ``token_sha256`` key anywhere; a ``hand`` only in a seat's own view, equal to its hand;
   a ``cards`` list only in that seat's own ``cards_drawn``/``hand_dealt`` events (and the
   public ``cards_returned``); no integer equal to the RNG state or the seed; other seats'
   exact money only when the table shows money; spectators never see a hand or a card.
3. **Twin at send time** (every 7th frame): a copy of the state whose other hands and draw
   order are reshuffled (same hand sizes) and whose RNG differs gives the same view, the
   same legal actions and the same reasons for refusing a random illegal action.
4. **Twin replay** (after the game, for every seat and the spectator, from every 40th
   action): the same actions replayed on a copy with the other hands and the draw order
   reshuffled give byte-identical views and events for that seat, for as long as the game's
   path is the same (until an action is impossible in the copy, or the seat draws cards).

Prints one JSON line: games, frames and bytes audited, twin checks, leaks (must be 0).
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import multiprocessing as mp
import random
import sys
import time
import traceback
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from game.rules import (  # noqa: E402
    ACTION_TYPES,
    Game,
    IllegalAction,
    Variant,
    apply,
    hidden_twin,
    legal_actions,
    view,
)
from game.rules.engine import explain_illegal  # noqa: E402
from game.rules.events import CardsDrawn  # noqa: E402
from game.rules.view import events_for, hand_data  # noqa: E402
from net import protocol as P  # noqa: E402
from net.client.bot import BotPlayer  # noqa: E402
from net.client.session import ClientSession  # noqa: E402
from net.host.server import Host  # noqa: E402
from tests.net_helpers import config_for_tests  # noqa: E402

CODE = "SEEN"
SECRET_KEYS = frozenset({"deck", "rng", "seed", "token_sha256", "draw_order", "hands"})
PRIVATE_EVENTS = frozenset({"cards_drawn", "hand_dealt"})


def _random_action(rng: random.Random, seat: int):
    """A well-typed action of any type for ``seat`` (for refusal reasons)."""
    from game.rules import Card, Clan, Source, SourceKind

    cls = rng.choice(list(ACTION_TYPES.values()))
    values = {"seat": seat}
    for name in (f.name for f in dataclasses.fields(cls)):
        if name in ("seat", "type"):
            continue
        values[name] = {
            "space": lambda: rng.randrange(16),
            "to": lambda: rng.randrange(6),
            "of": lambda: rng.randrange(6),
            "player": lambda: rng.randrange(6),
            "amount": lambda: rng.randrange(30),
            "card": lambda: rng.choice(list(Card)),
            "clan": lambda: rng.choice(list(Clan)),
            "target": lambda: Source(SourceKind.PLACARD, rng.randrange(6)),
            "sources": lambda: (),
            "only_when_touched": lambda: rng.random() < 0.5,
        }[name]()
    return cls(**values)


class FrameAudit:
    """The host's ``tap``: audits every frame when it is sent."""

    def __init__(self, host: Host, rng: random.Random, twin_every: int = 7) -> None:
        self.host = host
        self.rng = rng
        self.twin_every = twin_every
        self.stats: Counter = Counter()
        self.leaks: list[str] = []
        self.events: list = []  # the events of the action being broadcast
        self.snapshot_events: list = []
        self._views: dict = {}  # (version, audience) -> (view, hash): one per audience

    # -- hooks ----------------------------------------------------------------------

    def install(self) -> None:
        hooks = self.host.hooks
        hooks.update = self._on_update
        hooks.snapshot = self._on_snapshot
        hooks.tap = self

    def _on_update(self, events: list) -> None:
        self.events = events

    def _on_snapshot(self, conn, events: list) -> None:
        self.snapshot_events = events

    def leak(self, conn, msg: dict, what: str) -> None:
        self.leaks.append(f"{what} | to {conn!r} | {json.dumps(msg)[:300]}")

    # -- per frame ------------------------------------------------------------------

    def __call__(self, conn, msg: dict, frame: bytes) -> None:
        try:
            self._audit(conn, msg, frame)
        except Exception as exc:  # an audit crash is a finding too
            self.leak(conn, msg, f"audit failed: {exc!r} {traceback.format_exc(limit=3)}")

    def _audit(self, conn, msg: dict, frame: bytes) -> None:
        st = self.stats
        st["frames"] += 1
        st["bytes"] += len(frame)
        st["frames." + msg["t"]] += 1
        (decoded,) = P.decode_all(frame)
        if decoded != msg:
            self.leak(conn, msg, "the frame's bytes are not the audited message")
        P.check_host_message(decoded)
        host = self.host
        aud = conn.seat if conn.role == "player" else None
        game = host.game
        state = game.state if game is not None else None
        self._scan(conn, decoded, aud, state)
        t = decoded["t"]
        if t == "welcome":
            if conn.role == "player":
                digest = host.seats[decoded["seat"]].token_digest
                if decoded["seat"] != conn.seat or P.token_digest(decoded["token"]) != digest:
                    self.leak(conn, decoded, "a welcome with another seat's token")
            elif decoded["token"] is not None or decoded["seat"] is not None:
                self.leak(conn, decoded, "a spectator got a seat or a token")
        elif t in ("snapshot", "update"):
            self._derived(conn, decoded, aud, state)

    def _view(self, state, aud) -> tuple[dict, str]:
        key = (state.actions_taken, aud)
        hit = self._views.get(key)
        if hit is None:
            if len(self._views) > 64:
                self._views.clear()
            v = view(state, aud)
            hit = self._views[key] = (v, P.view_hash(v))
        return hit

    def _derived(self, conn, msg: dict, aud, state) -> None:
        v, h = self._view(state, aud)
        if msg["hash"] != h:
            self.leak(conn, msg, "hash is not that of the seat's view")
        if msg["t"] == "snapshot":
            if msg["view"] != v:
                self.leak(conn, msg, "snapshot view is not view(state, seat)")
            want = events_for(self.snapshot_events, aud)
        else:
            if msg["version"] != state.actions_taken or msg["base"] != state.actions_taken - 1:
                self.leak(conn, msg, "update version is not the state's")
            for k, value in msg["delta"].items():
                if k not in v or v[k] != value:
                    self.leak(conn, msg, f"delta[{k!r}] is not view(state, seat)[{k!r}]")
            want = events_for(self.events, aud)
        if msg["events"] != want:
            self.leak(conn, msg, "events are not events_for(events, seat)")
        if "legal" in msg and (aud is None or msg["legal"] != legal_actions(state, aud).to_data()):
            self.leak(conn, msg, "legal actions are not legal_actions(state, seat)")
        self.stats["derived"] += 1
        if self.stats["derived"] % self.twin_every == 0:
            self._twin_now(conn, msg, aud, state, v)

    def _twin_now(self, conn, msg, aud, state, v) -> None:
        twin = hidden_twin(state, aud, self.rng)
        self.stats["twins_at_send"] += 1
        if view(twin, aud) != v:
            self.leak(conn, msg, "the view depends on hidden cards, the draw order or the RNG")
        if aud is not None:
            if legal_actions(twin, aud).to_data() != legal_actions(state, aud).to_data():
                self.leak(conn, msg, "legal actions depend on hidden information")
            action = _random_action(self.rng, aud)
            if action not in legal_actions(state, aud):
                self.stats["refusals_checked"] += 1
                if explain_illegal(twin, action) != explain_illegal(state, action):
                    self.leak(conn, msg, f"refusal reason depends on hidden info: {action}")

    def _scan(self, conn, msg, aud, state) -> None:
        """Look for secrets wherever they might hide, whatever the engine's redaction."""
        secrets_ints = set()
        if state is not None:  # 64-bit secrets: a small number would match by chance
            secrets_ints = {x for x in (state.rng.state, state.seed) if abs(x) >= 1 << 32}
        own_hand = hand_data(state.hands[aud]) if state is not None and aud is not None else None
        money_open = state is not None and (
            not state.settings.hidden_money or state.phase.value == "game_over"
        )
        stack = [(msg, None, ())]
        while stack:
            node, parent, path = stack.pop()
            if isinstance(node, dict):
                for key, value in node.items():
                    if key in SECRET_KEYS:
                        self.leak(conn, msg, f"secret key {key!r} at {path}")
                    if key == "hand" and (aud is None or value != own_hand):
                        self.leak(conn, msg, f"a hand that is not the seat's own at {path}")
                    if key == "cards" and value is not None:
                        etype = node.get("type")
                        if etype in PRIVATE_EVENTS and node.get("seat") != aud:
                            self.leak(conn, msg, f"another seat's {etype} cards at {path}")
                        elif etype not in PRIVATE_EVENTS and etype != "cards_returned":
                            self.leak(conn, msg, f"cards in {etype!r} at {path}")
                    hidden = not money_open and "money_pile" in node and node.get("seat") != aud
                    if key == "money" and hidden:
                        self.leak(conn, msg, "another seat's hidden money")
                    if key == "token" and msg.get("t") != "welcome":
                        self.leak(conn, msg, "a token outside a welcome")
                    if key != "board":  # static public data (checked whole by derivation)
                        stack.append((value, node, (*path, key)))
            elif isinstance(node, list):
                for i, value in enumerate(node):
                    stack.append((value, node, (*path, i)))
            elif isinstance(node, int) and not isinstance(node, bool) and node in secrets_ints:
                self.leak(conn, msg, f"the RNG state or the seed at {path}")
        self.stats["scanned"] += 1


def twin_replay(game: Game, rng: random.Random, every: int = 40) -> tuple[Counter, list[str]]:
    """Replay ``game`` from every ``every``-th action on a copy whose hidden cards are
    reshuffled; compare each audience's encoded views and events byte for byte."""
    stats: Counter = Counter()
    leaks: list[str] = []
    log = game.log
    players = game.state.players
    for start in range(0, len(log), every):
        base = Game(list(game.names), game.seed, game.settings, game.setup)
        for a in log[:start]:
            base.apply(a)
        for aud in [None, *range(players)]:
            orig = base.state.clone()
            orig._legal_cache.clear()
            twin = hidden_twin(orig, aud, rng, keep_rng=True)
            steps = 0
            for a in log[start:]:
                ev_o = apply(orig, a)
                try:
                    ev_t = apply(twin, a)
                except IllegalAction:
                    stats["paths_diverged"] += 1  # a hidden card is played: the paths part
                    break
                if aud is not None and any(
                    isinstance(e, CardsDrawn) and e.seat == aud for e in ev_o
                ):
                    stats["stopped_at_own_draw"] += 1  # the seat learns new cards
                    break
                vo, vt = P.encode({"v": view(orig, aud)}), P.encode({"v": view(twin, aud)})
                eo = P.encode({"e": events_for(ev_o, aud)})
                et = P.encode({"e": events_for(ev_t, aud)})
                if vo != vt or eo != et:
                    leaks.append(
                        f"twin replay: seat {aud} at action {start + steps}: "
                        f"{'view' if vo != vt else 'events'} differ with only hidden cards changed"
                    )
                    break
                steps += 1
            stats["twin_replays"] += 1
            stats["twin_steps"] += steps
    return stats, leaks


# --------------------------------------------------------------------------- a game


def game_settings(game_no: int, base_seed: int) -> dict:
    rng = random.Random(base_seed * 7_919 + game_no)
    return {
        "seats": rng.randint(2, 6),
        "seed": rng.randrange(1 << 40),
        "variants": frozenset(v for v in Variant if rng.random() < 0.25),
        "short_game": rng.random() < 0.6,
        "hidden_money": rng.random() < 0.8,
        "legal": rng.random() < 0.3,  # clients without the engine: legal actions sent
    }


def _tap_web_frames(host: Host) -> dict:
    """Keep every frame the host sends to a phone's WebSocket, per connection, in order
    (beside the audit's own tap)."""
    frames: dict = {}
    audit_tap = host.hooks.tap

    def tap(conn, msg, frame) -> None:
        if conn.via == "web":
            frames.setdefault(conn.id, []).append((msg["t"], frame))
        audit_tap(conn, msg, frame)

    host.hooks.tap = tap
    return frames


def _web_problems(sent: dict, received: list[list[bytes]]) -> list[str]:
    """What phones received must be what the audit saw sent to them: in order, nothing
    added, and every snapshot and update (a WebSocket closed at the end may lose a bye)."""
    problems = []
    sent_lists = list(sent.values())
    for got in received:
        match = [s for s in sent_lists if [f for _, f in s[: len(got)]] == got]
        if not match:
            problems.append(f"a phone received {len(got)} messages the host's tap did not send")
            continue
        lost = [t for t, _ in match[0][len(got) :] if t in ("snapshot", "update")]
        if lost:
            problems.append(f"a phone never received {len(lost)} views the host sent")
    if len(received) < len(sent_lists):
        problems.append("a phone connection the bridge never saw")
    return problems


async def audited_game(game_no: int, base_seed: int, **overrides) -> dict:
    """One audited LAN game; ``phones=N``: the first N seats play through the phone
    WebSocket (tests.web_helpers.WebBridge), and what reached them is checked too."""
    cfg = {**game_settings(game_no, base_seed), **overrides}
    seats = cfg["seats"]
    phones = cfg.get("phones", 0)
    host = Host(
        config_for_tests(
            seats=seats, code=CODE, seed=cfg["seed"], variants=cfg["variants"],
            short_game=cfg["short_game"], hidden_money=cfg["hidden_money"],
            phone_port=0 if phones else None,
        )
    )  # fmt: skip
    audit = FrameAudit(host, random.Random(cfg["seed"]))
    audit.install()
    web_frames = _tap_web_frames(host) if phones else {}
    if cfg.get("sabotage"):  # tests: prove the audit sees a leak
        cfg["sabotage"](host)
    await host.start()
    bridge = None
    if phones:
        from tests.web_helpers import WebBridge

        bridge = await WebBridge(host).start()
    try:
        spectator = ClientSession("127.0.0.1", host.port, role="spectator", reconnect=False)
        watch = asyncio.ensure_future(spectator.run())
        while not spectator.joined:  # welcomed
            await asyncio.sleep(0.005)
        players = [
            BotPlayer(
                "127.0.0.1", bridge.port if i < phones else host.port, kind="random",
                name=f"Audit {i}", code=CODE,
                seed=cfg["seed"] + i, answer_delay=0.0, think=0.0, idle=0.005, backoff=0.05,
                want_legal=cfg["legal"] and i % 2 == 0,
            )
            for i in range(seats)
        ]  # fmt: skip
        outcomes = await asyncio.wait_for(asyncio.gather(*(p.run() for p in players)), 600)
        st = host.state
        problems = list(audit.leaks)
        for out in outcomes:
            if not out.finished:
                problems.append(f"seat {out.seat} did not finish: {out.reason}")
            elif out.view != view(st, out.seat):
                problems.append(f"seat {out.seat} ended with another view than the host's")
        await asyncio.sleep(0.05)
        if spectator.view != view(st, None):
            problems.append("the spectator's view is not the public view")
        await spectator.close()
        watch.cancel()
        tstats, tleaks = twin_replay(host.game, random.Random(cfg["seed"] ^ 1))
        problems += tleaks
        if phones:
            problems += _web_problems(web_frames, bridge.received)
            tstats["frames.web"] = sum(len(f) for f in web_frames.values())
            tstats["phones"] = len(bridge.received)
    finally:
        if bridge is not None:
            await bridge.close()
        await host.close()
    return {
        "game": game_no,
        "seats": seats,
        "actions": len(host.game.log),
        "stats": dict(audit.stats + tstats),
        "problems": problems,
    }


def run_batch(args: tuple[list[int], int, int, int]) -> list[dict]:
    games, base_seed, concurrency, phones = args

    async def main() -> list[dict]:
        sem = asyncio.Semaphore(concurrency)

        async def one(n: int) -> dict:
            async with sem:
                try:
                    return await audited_game(n, base_seed, phones=phones)
                except Exception as exc:
                    return {"game": n, "seats": 0, "actions": 0, "stats": {},
                            "problems": [f"game crashed: {exc!r} {traceback.format_exc(limit=5)}"]}  # fmt: skip

        return await asyncio.gather(*(one(n) for n in games))

    return asyncio.run(main())


def main(argv=None) -> int:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--concurrency", type=int, default=6, help="games at once per worker")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--phones", type=int, default=0, help="seats (the first N) played over the phone WebSocket"
    )
    args = p.parse_args(argv)
    t0 = time.perf_counter()
    batches = [list(range(i, min(args.games, i + 12))) for i in range(0, args.games, 12)]
    total: Counter = Counter()
    games = actions = 0
    leaks: list[str] = []
    by_seats: Counter = Counter()
    with mp.Pool(args.workers) as pool:
        jobs = [(b, args.seed, args.concurrency, args.phones) for b in batches]
        for results in pool.imap_unordered(run_batch, jobs):
            for r in results:
                games += 1
                actions += r["actions"]
                by_seats[r["seats"]] += 1
                total.update(r["stats"])
                for prob in r["problems"]:
                    leaks.append(f"game {r['game']}: {prob}")
                    print("LEAK", leaks[-1][:400], file=sys.stderr, flush=True)
            if games % 100 < 12:
                print(f"  {games} games, {len(leaks)} leaks, {time.perf_counter() - t0:.0f} s",
                      file=sys.stderr, flush=True)  # fmt: skip
    out = {
        "games": games,
        "games_by_seats": dict(sorted(by_seats.items())),
        "actions": actions,
        "frames_audited": total["frames"],
        "bytes_audited": total["bytes"],
        "frames_by_type": {k[7:]: v for k, v in sorted(total.items()) if k.startswith("frames.")},
        "derivation_checks": total["derived"],
        "twins_at_send": total["twins_at_send"],
        "refusal_reasons_checked": total["refusals_checked"],
        "twin_replays": total["twin_replays"],
        "twin_replay_steps": total["twin_steps"],
        "leaks": len(leaks),
        "seconds": round(time.perf_counter() - t0, 1),
    }
    print(json.dumps(out))
    return 1 if leaks else 0


if __name__ == "__main__":
    raise SystemExit(main())
