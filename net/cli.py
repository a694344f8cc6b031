"""``main.py host | join | table``: argument handling around net.host and net.client.

The windows (the lobby, a player's table, the host's own table, the public table display)
belong to the pygame UI; they are looked up in ``game.ui.lan``:

    run_lobby(args) -> int                         join without an address
    run_client(client, args) -> int                join ADDR (a started net.client.Client)
    run_host(host_thread, client, args) -> int     host without --headless (host plays too)
    run_table(host_thread, client, args) -> int    table (client is a spectator)

While one is missing, the command prints one error line and exits 2.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import json
import logging
import os
import signal
import sys
import time
from pathlib import Path

from . import protocol as P

EXIT_USAGE = 2
log = logging.getLogger("net")


def _err(text: str) -> None:
    print(f"error: {text}", file=sys.stderr)


def _ui_entry(name: str):
    """``game.ui.lan.<name>``, or None while the UI does not provide it."""
    try:
        mod = importlib.import_module("game.ui.lan")
    except ImportError as exc:
        if isinstance(exc, ModuleNotFoundError) and exc.name not in ("game.ui", "game.ui.lan"):
            raise
        return None
    return getattr(mod, name, None)


def _bot_specs(text: str | None, seats: int) -> list[str]:
    from game.bots import BOT_KINDS

    specs = [s.strip() for s in (text or "random").split(",") if s.strip()] or ["random"]
    for spec in specs:
        if spec.partition(":")[0] not in BOT_KINDS:
            raise ValueError(f"unknown bot {spec!r} (known: {', '.join(sorted(BOT_KINDS))})")
    if len(specs) not in (1, seats):
        raise ValueError(f"--bots names {len(specs)} bots for {seats} seats (give 1 or {seats})")
    return specs


def _variants(text: str | None):
    from game.rules import Variant

    out = set()
    for part in (text or "").split(","):
        part = part.strip().upper()
        if part:
            try:
                out.add(Variant(part))
            except ValueError:
                raise ValueError(f"unknown variant {part!r} (V1..V6)") from None
    return frozenset(out)


def default_autosave() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return Path(base) / "imtheboss" / "autosave" / f"lan-{stamp}.json"


def config_from_args(args):
    """HostConfig from the host/table arguments (ValueError names a bad one)."""
    from .host import HostConfig, Timing

    seats = args.seats
    if not 2 <= seats <= 6:
        raise ValueError("--seats must be 2..6")
    if args.code is not None and P.normalize_code(args.code) is None:
        raise ValueError(f"--code must be {P.CODE_LENGTH} letters A-Z")
    if not 0 <= args.port <= 65535:
        raise ValueError("--port must be 0..65535")
    g = lambda name, default=None: getattr(args, name, default)  # noqa: E731
    timing = Timing()
    for name, attr in (
        ("window", "window"),
        ("going_once", "going_once"),
        ("negotiation_time", "negotiation"),
        ("turn_time", "turn"),
        ("grace", "grace"),
    ):
        value = g(name)
        if value is not None:
            if value < 0:
                raise ValueError(f"--{name.replace('_', '-')} must be >= 0")
            setattr(timing, attr, float(value))
    if timing.window <= 0 or timing.going_once <= 0:
        raise ValueError("window lengths must be > 0")
    bot_delay = g("bot_delay")
    if bot_delay is not None:
        if bot_delay < 0:
            raise ValueError("--bot-delay must be >= 0")
        timing.bot_delay = timing.bot_answer = float(bot_delay)
        timing.bot_tick = max(0.005, float(bot_delay))
    start_after = g("start_after")
    if start_after is not None:
        if start_after < 0:
            raise ValueError("--start-after must be >= 0")
        timing.start_after = float(start_after)
    resume = Path(args.resume) if g("resume") else None
    autosave = g("autosave")
    if resume is not None:
        autosave_path = resume
    elif autosave in ("none", "off", ""):
        autosave_path = None
    elif autosave:
        autosave_path = Path(autosave)
    else:
        autosave_path = default_autosave()
    limit = g("negotiation_limit")
    if limit is not None and limit < 1:
        raise ValueError("--negotiation-limit must be >= 1")
    from game.rules import WindowMode

    try:
        window_mode = WindowMode(g("window_mode") or WindowMode.REAL_TIME.value)
    except ValueError:
        raise ValueError("--window-mode must be real_time or ask_around") from None
    return HostConfig(
        seats=seats,
        bots=_bot_specs(g("bots"), seats),
        code=args.code,
        name=g("name") or (None if resume else _default_table_name()),
        bind=g("bind") or "0.0.0.0",
        port=args.port,
        seed=g("seed"),
        variants=_variants(g("variant")),
        short_game=bool(g("short", False)),
        negotiation_limit=limit or 60,
        window_mode=window_mode,
        timing=timing,
        autosave=autosave_path,
        resume=resume,
        announce=not g("no_announce", False),
    )


def _default_table_name() -> str:
    import socket

    return f"{socket.gethostname().split('.')[0][:30]}'s table"


def shown_address(bind: str, port: int) -> str:
    """The address a player types into ``join`` (``parse_address`` reads it back): an
    IPv6 host in brackets, ``[::1]:PORT``; for all interfaces, this machine's LAN address."""
    host = bind
    if bind in ("0.0.0.0", "", "::"):
        from .discovery import _default_addresses

        try:
            host = _default_addresses(None)[0]
        except Exception:  # pragma: no cover
            host = "127.0.0.1"
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


async def _serve(config, once: bool) -> int:
    from .host import Host, HostError

    host = Host(config)
    try:
        await host.start()
    except HostError as exc:
        _err(str(exc))
        return 1
    print(
        f'table "{host.name}" at {shown_address(config.bind, host.port)}  room code {host.code}',
        flush=True,
    )
    if config.autosave is not None:
        print(f"autosave: {config.autosave}", file=sys.stderr, flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    stopper = asyncio.ensure_future(stop.wait())
    try:
        while True:
            finished = asyncio.ensure_future(host.finished.wait())
            done, _ = await asyncio.wait([stopper, finished], return_when=asyncio.FIRST_COMPLETED)
            if stopper in done:
                finished.cancel()
                await host.close("shutdown")
                return 0
            if once:
                await asyncio.sleep(0.05)  # let the last updates go out
                await host.close("game_over")
                print(json.dumps(host.result.to_data()), flush=True)
                return 0
            # stay up: the final table is shown until a rematch ("start") or Ctrl-C
            event = host.finished
            while host.finished is event and not stop.is_set():
                await asyncio.sleep(0.2)
    finally:
        stopper.cancel()


def _logging(verbose: bool = False) -> None:
    logging.basicConfig(
        level=logging.INFO if verbose else logging.WARNING,
        format="%(asctime)s %(name)s %(levelname)s %(message)s",
        stream=sys.stderr,
    )


def run_host(args) -> int:
    _logging(getattr(args, "verbose", False))
    try:
        config = config_from_args(args)
    except ValueError as exc:
        _err(str(exc))
        return EXIT_USAGE
    if not getattr(args, "headless", False):
        entry = _ui_entry("run_host")
        if entry is None:
            _err("the host's game window is not available in this version yet (use --headless)")
            return EXIT_USAGE
        return _run_windowed(entry, config, args, role="player")
    try:
        return asyncio.run(_serve(config, bool(getattr(args, "once", False))))
    except KeyboardInterrupt:  # pragma: no cover
        return 130


def run_table(args) -> int:
    _logging(getattr(args, "verbose", False))
    try:
        config = config_from_args(args)
    except ValueError as exc:
        _err(str(exc))
        return EXIT_USAGE
    entry = _ui_entry("run_table")
    if entry is None:
        _err("the table display is not available in this version yet")
        return EXIT_USAGE
    return _run_windowed(entry, config, args, role="spectator")


def _run_windowed(entry, config, args, role: str) -> int:  # pragma: no cover - needs the UI
    from .client import Client
    from .host import HostError, HostThread

    try:
        host = HostThread(config).start()
    except HostError as exc:
        _err(str(exc))
        return 1
    print(f'table "{host.host.name}" at port {host.port}  room code {host.code}', flush=True)
    name = None
    if role == "player":
        name = getattr(args, "player_name", None) or _settings_player_name()
    client = Client(("127.0.0.1", host.port), name=name, code=host.code, role=role).start()
    try:
        return entry(host, client, args)
    finally:
        client.close()
        host.stop()


def _settings_player_name() -> str:
    """The name the settings give this screen's player (``game.ui.lan.host_player_name``),
    or the login name while the UI does not provide it."""
    entry = _ui_entry("host_player_name")
    name = entry() if entry is not None else ""
    return name or os.environ.get("USER", "Host").title()


def run_join(args) -> int:
    _logging(getattr(args, "verbose", False))
    if getattr(args, "list", False):
        return _list_tables(args.timeout)
    if not args.address:
        entry = _ui_entry("run_lobby")
        if entry is None:
            _err("the lobby window is not available in this version yet (give HOST:PORT)")
            return EXIT_USAGE
        return entry(args)
    from .client import Client, parse_address

    try:
        host, port = parse_address(args.address)
    except ValueError as exc:
        _err(str(exc))
        return EXIT_USAGE
    if args.code is not None and P.normalize_code(args.code) is None and not args.token:
        _err(f"--code must be {P.CODE_LENGTH} letters A-Z")
        return EXIT_USAGE
    if args.token is not None and (
        len(args.token) != P.TOKEN_HEX or not all(c in "0123456789abcdef" for c in args.token)
    ):
        _err("--token must be 32 lower-case hex digits")
        return EXIT_USAGE
    if not args.headless:
        entry = _ui_entry("run_client")
        if entry is None:
            _err("the game window is not available in this version yet (use --bot KIND --headless)")
            return EXIT_USAGE
        client = Client((host, port), name=args.name, code=args.code, token=args.token).start()
        try:
            return entry(client, args)
        finally:
            client.close()
    if not args.bot:
        _err("--headless plays as a bot: give --bot KIND")
        return EXIT_USAGE
    from game.bots import BOT_KINDS

    if args.bot.partition(":")[0] not in BOT_KINDS:
        _err(f"unknown bot {args.bot!r} (known: {', '.join(sorted(BOT_KINDS))})")
        return EXIT_USAGE
    delay = getattr(args, "bot_delay", None)
    timing = {}
    if delay is not None:
        timing = {"answer_delay": delay, "think": delay, "idle": max(0.005, delay)}
    from .client import Joined, play_bot

    def show(msg) -> None:
        if isinstance(msg, Joined):
            print(f"seat {msg.seat} at {msg.table.name!r}; rejoin with --token {msg.token}",
                  file=sys.stderr, flush=True)  # fmt: skip

    try:
        outcome = asyncio.run(
            play_bot(
                host, port, kind=args.bot, name=args.name, code=args.code, token=args.token,
                retry_for=getattr(args, "retry_for", None) or 60.0, on_message=show, **timing,
            )
        )  # fmt: skip
    except KeyboardInterrupt:  # pragma: no cover
        return 130
    view = outcome.view or {}
    summary = {
        "seat": outcome.seat,
        "finished": outcome.finished,
        "reason": outcome.reason,
        "winners": view.get("winners"),
        "money": [p.get("money") for p in view.get("players", [])],
    }
    print(json.dumps(summary), flush=True)
    return 0 if outcome.finished else 1


def _list_tables(timeout: float) -> int:
    from .discovery import discover

    try:
        tables = discover(max(0.1, timeout))
    except Exception as exc:
        _err(f"LAN discovery failed: {exc}")
        return 1
    for t in tables:
        lock = "" if t.code_required else "  (no code)"
        print(f"{t.name}\t{t.host}:{t.port}\t{t.seats_free} seats free{lock}", flush=True)
    if not tables:
        print("no tables found", file=sys.stderr)
    return 0
