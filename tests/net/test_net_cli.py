"""``main.py host``: the reaction-window mode flag, and the address it prints pastes back
into ``join`` (IPv6 in brackets)."""

from __future__ import annotations

import asyncio
import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

import main
from game.cli.lan import config_from_args, shown_address
from game.cli.options import UsageError
from game.rules import WindowMode
from net import protocol as P
from net.client.session import parse_address
from tests.net_helpers import CODE, Peer, run

ROOT = Path(__file__).resolve().parents[2]


def _host_config(*flags: str):
    args = main.build_parser().parse_args(["host", "--autosave", "none", *flags])
    return config_from_args(args)


def test_window_mode_flag():
    assert _host_config().window_mode is WindowMode.ASK_AROUND
    assert _host_config("--window-mode", "ask_around").window_mode is WindowMode.ASK_AROUND
    assert _host_config("--window-mode", "real_time").window_mode is WindowMode.REAL_TIME
    with pytest.raises(SystemExit) as exc:
        _host_config("--window-mode", "sometimes")
    assert exc.value.code == 2


def test_a_table_with_people_asks_around_with_time_to_read_the_banner(tmp_path, monkeypatch):
    """`main.py host` and the lobby's Host, untouched, ask around with 10 s to answer a
    window: more than a slow reader needs to read the longest Stop banner in any language
    and press Stop (bench/banner_reading.py)."""
    monkeypatch.setenv("IMTHEBOSS_CONFIG_DIR", str(tmp_path))
    from bench.banner_reading import banners
    from game.ui.config import Config
    from game.ui.sessions import lan as lan_ui

    longest = max(seconds for *_, seconds in banners())
    for table in (_host_config(), lan_ui.host_config(Config())):
        assert table.window_mode is WindowMode.ASK_AROUND
        assert table.timing.window == 10.0 >= 1.25 * longest
        assert table.timing.going_once == 3.0
    assert _host_config("--window", "6").timing.window == 6.0


@pytest.mark.parametrize(
    "flags, message",
    [
        (["--seats", "9"], "--seats must be 2..6"),
        (["--code", "AB"], "--code must be 4 letters A-Z"),
        (["--port", "70000"], "--port must be 0..65535"),
        (["--bots", "nobody"], "--bots: unknown bot 'nobody'"),
        (["--bots", "random,random,random"], "--bots: 3 bots named for 4 seats"),
        (["--turn", "-1"], "--turn must be >= 0"),
        (["--negotiation", "-5"], "--negotiation must be >= 0"),
        (["--window", "0"], "--window must be > 0"),
        (["--window", "100000"], "--window must be > 0 and <= 86400"),
        (["--bot-delay", "-1"], "--bot-delay must be >= 0"),
        (["--negotiation-limit", "0"], "--negotiation-limit must be >= 1"),
        (["--variant", "V9"], "unknown variant 'V9'"),
    ],
)
def test_a_bad_host_flag_is_named(flags, message):
    with pytest.raises(UsageError) as exc:
        _host_config(*flags)
    assert str(exc.value).startswith(message), exc.value


def test_the_flags_and_the_lobby_build_the_same_table(tmp_path, monkeypatch):
    """One builder (net.host.config): the same choices give the same HostConfig."""
    monkeypatch.setenv("IMTHEBOSS_CONFIG_DIR", str(tmp_path))
    from game.ui.config import Config
    from game.ui.sessions import lan as lan_ui

    cfg = Config(
        lan_seats=3, lan_bot="heuristic", window=7, going_once=4,
        negotiation=120, turn=30, variants=["V1", "V4"], short_game=True,
        negotiation_limit=80,
    )  # fmt: skip
    lobby = lan_ui.host_config(cfg, code="QXRT")
    flags = _host_config(
        "--seats", "3", "--bots", "heuristic", "--window", "7", "--going-once", "4",
        "--negotiation", "120", "--turn", "30", "--variant", "V1,V4", "--short",
        "--negotiation-limit", "80", "--code", "QXRT",
    )  # fmt: skip
    for field in ("seats", "bots", "code", "variants", "short_game", "hidden_money",
                  "negotiation_limit", "window_mode", "timing"):  # fmt: skip
        assert getattr(lobby, field) == getattr(flags, field), field
    assert lobby.timing.window == 7.0 and lobby.bots == ["heuristic"] * 3


@pytest.mark.parametrize(
    "bind, shown",
    [
        ("127.0.0.1", "127.0.0.1:4000"),
        ("::1", "[::1]:4000"),
        ("fe80::1%eth0", "[fe80::1%eth0]:4000"),
    ],
)
def test_shown_addresses_parse_back(bind, shown):
    assert shown_address(bind, 4000) == shown
    host, port = parse_address(shown)
    assert (host, port) == (bind, 4000)


def _ipv6_loopback() -> bool:
    try:
        with socket.socket(socket.AF_INET6) as s:
            s.bind(("::1", 0))
        return True
    except OSError:
        return False


@pytest.mark.timeout(60)
@pytest.mark.skipif(not _ipv6_loopback(), reason="no IPv6 loopback here")
def test_a_host_bound_to_ipv6_loopback_prints_an_address_join_accepts():
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONUNBUFFERED="1")
    cmd = [sys.executable, str(ROOT / "main.py"), "host", "--headless", "--bind", "::1",
           "--port", "0", "--seats", "2", "--code", CODE, "--autosave", "none",
           "--window-mode", "ask_around"]  # fmt: skip
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        m = re.search(r" at (\S+)\s+room code ([A-Z]{4})", line)
        assert m, line
        assert re.fullmatch(r"\[::1\]:\d+", m.group(1)), line
        host, port = parse_address(m.group(1))

        async def join():
            reader, writer = await asyncio.open_connection(host, port)
            peers = [Peer(reader, writer)]
            await peers[0].hello("Mei")
            reader, writer = await asyncio.open_connection(host, port)
            peers.append(Peer(reader, writer))
            await peers[1].hello("Ann")
            snap = await peers[0].expect("snapshot")
            for p in peers:
                await p.close()
            return snap

        snap = run(join(), timeout=30)
        assert snap["view"]["settings"]["window_mode"] == "ask_around"
        assert P.view_hash(snap["view"]) == snap["hash"]
    finally:
        proc.terminate()
        proc.communicate(timeout=20)


def test_a_table_serving_phones_plays_real_time_windows_by_default():
    """`main.py table` with phones: every hand is on a phone, so every phone shows a window
    at once (net.host.config.PHONE_TABLE_WINDOW_MODE); without phones, or as `host`, the
    table asks around; a given --window-mode always wins."""

    def table(*flags):
        args = main.build_parser().parse_args(["table", "--autosave", "none", *flags])
        return config_from_args(args, display=True)

    assert table().window_mode is WindowMode.REAL_TIME and table().phone_port == 8700
    assert table().timing.window == 10.0
    assert table("--no-phones").window_mode is WindowMode.ASK_AROUND
    assert table("--no-phones").phone_port is None
    assert table("--window-mode", "ask_around").window_mode is WindowMode.ASK_AROUND
    assert _host_config().window_mode is WindowMode.ASK_AROUND
    assert _host_config("--phone-port", "0").phone_port == 0


def test_a_headless_join_names_its_seat_as_the_room_does():
    """The line a headless `join` prints counts seats from 1, as the room and the refusals do
    (Mei in the room's seat 2 read "seat 1")."""
    from game.cli.lan import joined_words

    line = joined_words(1, "Ann's table", "ab" * 16)
    assert line.startswith("seat 2 at \"Ann's table\"") and line.endswith("--token " + "ab" * 16)
