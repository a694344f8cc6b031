"""Why a bot Boss failed a deal reaches every LAN screen's log, as on one screen (issue 14:
"Dara gives up: too expensive"): the host's `gave_up` message (docs/PROTOCOL.md §4), sent
before the update that fails the deal, and the LAN screen's log line for it."""

from __future__ import annotations

from game.bots.talk import GiveUp
from game.rules import Game, Settings
from game.table.bot_schedule import Timing
from game.ui import i18n
from game.ui.table.log import Describer
from net import protocol as P
from net.client.session import GaveUp
from net.host.server import Host
from tests.net_helpers import Peer, config_for_tests, run
from tests.ui.test_ui_lan_edges import _net_session


def test_the_protocol_knows_every_reason_a_bot_gives():
    assert set(P.GAVE_UP_REASONS) == {r.value.removeprefix("reason.") for r in GiveUp}


def test_a_lan_host_tells_every_client_why_its_bot_boss_failed_a_deal():
    async def scenario():
        timing = Timing(
            bot_answer=0, bot_delay=0, bot_tick=0.005, start_after=0.3, bot_patience=0.5
        )
        # Bosses that keep 90% of the proceeds: most deals fail, "too expensive"
        bots = ["heuristic:boss_margin=0.9"]
        host = Host(config_for_tests(seats=4, bots=bots, timing=timing, seed=3))
        await host.start()
        peers = []
        for _ in range(2):
            peer = await Peer.connect(host.port)
            peer.send({"t": "hello", "v": 2, "role": "spectator"})
            await peer.expect("welcome")
            peers.append(peer)
        heard = []
        for peer in peers:
            said: list[dict] = []  # gave_up messages not yet followed by their deal_failed
            failed = 0
            while failed < 2:
                msg = await peer.recv(timeout=10.0)
                if msg["t"] == "gave_up":
                    P.check_host_message(msg)
                    said.append(msg)
                elif msg["t"] == "update":
                    for e in msg["events"]:
                        if e["type"] == "deal_failed":
                            # every deal a bot Boss fails comes with its reason, just before
                            assert [m["seat"] for m in said] == [e["boss"]], (said, e)
                            heard.append(said.pop())
                            failed += 1
        await host.close()
        return heard

    heard = run(scenario(), timeout=110)
    assert len(heard) == 4  # two failed deals, heard by both screens
    assert heard[:2] == heard[2:]
    assert all(m["reason"] in P.GAVE_UP_REASONS for m in heard)


def test_a_lan_screen_logs_a_bot_giving_up_as_one_screen_does():
    names = ["Mei", "Ann", "Dara"]
    g = Game(names, 3, Settings(players=3))
    s, stub = _net_session(g)
    s.update(0)
    s.poll()
    stub.inbox.append(GaveUp(2, "too_expensive"))
    s.update(0)
    events = [e for b in s.poll() for e in b.events]
    assert events == [{"type": "gave_up", "seat": 2, "reason": "reason.too_expensive"}]
    # the very line the hot-seat session logs for its _GaveUp event
    line = Describer(names)(events[0])
    assert line == i18n.tr("log.gives_up", name="Dara", reason=i18n.tr("reason.too_expensive"))
    assert "reason." not in line
