"""``host``, ``table`` and ``join``: the arguments around net.host.server and net.client.session, and the
windows of game.ui.sessions.lan (imported where a command opens one, so a headless host or bot never
loads pygame).

The HostConfig comes from net.host.config.build_host_config, which the lobby uses too.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from game.bots import TABLE_BOT, UnknownBot, check_bot_spec
from game.files import host_autosave_path

from .options import EXIT_USAGE, UsageError, bot_specs, error, variants

if TYPE_CHECKING:
    from net.host.config import HostConfig

# The net modules are imported by the functions that use them: the other commands
# (simulate, replay, play) then start without msgpack, zeroconf and the host (~0.07 s).


def _default_table_name(args) -> str:
    """The settings' table name, else "<player>'s table" in the settings' language, from
    ``--player-name`` or the settings' name: the player's, never the computer's."""
    from game.ui.config import Config
    from game.ui.sessions import lan as lan_ui

    return lan_ui.table_name(Config.load(), getattr(args, "player_name", None))


def _autosave_path(args, resume: Path | None) -> Path | None:
    """A resumed game saves back to its file; ``--autosave none`` saves nothing."""
    autosave = getattr(args, "autosave", None)
    if resume is not None:
        return resume
    if autosave in ("none", "off", ""):
        return None
    return Path(autosave) if autosave else host_autosave_path()


def config_from_args(args, display: bool = False) -> HostConfig:
    """HostConfig from the host/table arguments (UsageError names the bad flag);
    ``display``: ``table``, whose windows are real time while it serves phones."""
    from net.host.config import (
        DEFAULT_PHONE_PORT,
        PEOPLE_WINDOW_MODE,
        PHONE_TABLE_WINDOW_MODE,
        HostChoiceError,
        build_host_config,
    )

    g = lambda name, default=None: getattr(args, name, default)  # noqa: E731
    resume = Path(args.resume) if g("resume") else None
    seats = args.seats
    phone_port = None if g("no_phones", False) else g("phone_port")
    if phone_port is None and not g("no_phones", False):
        phone_port = DEFAULT_PHONE_PORT
    phones_at_the_tv = display and phone_port is not None
    default_mode = PHONE_TABLE_WINDOW_MODE if phones_at_the_tv else PEOPLE_WINDOW_MODE
    try:
        return build_host_config(
            seats=seats,
            bots=bot_specs(g("bots"), seats, TABLE_BOT),
            code=args.code,
            name=g("name") or (None if resume else _default_table_name(args)),
            bind=g("bind") or "0.0.0.0",
            port=args.port,
            seed=g("seed"),
            variants=variants(g("variant")),
            short_game=bool(g("short", False)),
            negotiation_limit=60 if g("negotiation_limit") is None else g("negotiation_limit"),
            window_mode=g("window_mode") or default_mode,
            window=g("window"),
            going_once=g("going_once"),
            negotiation=g("negotiation"),
            turn=g("turn"),
            grace=g("grace"),
            bot_delay=g("bot_delay"),
            start_after=g("start_after"),
            autosave=_autosave_path(args, resume),
            resume=resume,
            announce=not g("no_announce", False),
            hints=bool(g("hints", True)),
            open_bot_seats=bool(g("open_bot_seats", False)),
            phone_port=phone_port,
        )
    except HostChoiceError as exc:
        raise UsageError(f"--{exc.option.replace('_', '-')} {exc.requirement}") from None


def shown_address(bind: str, port: int) -> str:
    """The address a player types into ``join`` (``parse_address`` reads it back): an
    IPv6 host in brackets, ``[::1]:PORT``; for all interfaces, this machine's LAN address."""
    host = bind
    if bind in ("0.0.0.0", "", "::"):
        from net.discovery.announcer import default_addresses

        try:
            host = default_addresses(None)[0]
        except Exception:  # pragma: no cover
            host = "127.0.0.1"
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


async def _serve(config: HostConfig, once: bool) -> int:
    from net.host.config import HostError
    from net.host.server import Host

    host = Host(config)
    try:
        await host.start()
    except HostError as exc:
        error(str(exc))
        return 1
    print(
        f'table "{host.name}" at {shown_address(config.bind, host.port)}  room code {host.code}',
        flush=True,
    )
    _print_phone_url(host)
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


def _print_phone_url(host) -> None:
    """The phone page's address (what the QR code holds), when phones are served."""
    url = getattr(host, "phone_url", None)
    if url is not None:
        print(f"phones: {url}", flush=True)


def _logging(verbose: bool = False) -> None:
    logging.basicConfig(
        level=logging.INFO if verbose else logging.WARNING,
        format="%(asctime)s %(name)s %(levelname)s %(message)s",
        stream=sys.stderr,
    )


def _config_or_none(args, display: bool = False) -> HostConfig | None:
    _logging(getattr(args, "verbose", False))
    try:
        return config_from_args(args, display)
    except UsageError as exc:
        error(str(exc))
        return None


def run_host(args, *, display: bool = False) -> int:
    """``host``: this screen's window plays at the table (``--headless``: served here, no
    window); ``table`` (``display``): the window shows the fullscreen public table display."""
    config = _config_or_none(args, display)
    if config is None:
        return EXIT_USAGE
    if display or not getattr(args, "headless", False):
        return _run_windowed(config, args, display)
    try:
        return asyncio.run(_serve(config, bool(getattr(args, "once", False))))
    except KeyboardInterrupt:  # pragma: no cover
        return 130


def run_table(args) -> int:
    """``table``: host, and show the fullscreen public table display."""
    return run_host(args, display=True)


def _run_windowed(config: HostConfig, args, display: bool) -> int:
    """Start the host thread and this screen's client (a player, or the display's
    spectator), then the window (game.ui.screen.windows.run_hosted)."""
    from game.ui.screen.windows import run_hosted
    from net.client.session import Client
    from net.host.config import HostError
    from net.host.saved_table import OwnSeat
    from net.host.thread import HostThread

    try:
        host = HostThread(config).start()
    except HostError as exc:
        error(str(exc))
        return 1
    print(f'table "{host.host.name}" at port {host.port}  room code {host.code}', flush=True)
    _print_phone_url(host.host)
    name = token = None
    role = "spectator" if display else "player"
    if not display:
        name = getattr(args, "player_name", None) or _settings_player_name()
        if config.resume is not None:  # this window's own seat, not the first open one
            token = OwnSeat(config.resume).token()
    client = Client(
        ("127.0.0.1", host.port), name=name, code=host.code, role=role, token=token
    ).start()
    try:
        return run_hosted(host, client, args, display=display)
    finally:
        client.close()
        host.stop()


def _settings_player_name() -> str:
    """The name the settings give this screen's player (the login name if they give none)."""
    from game.ui.sessions import lan as lan_ui

    return lan_ui.host_player_name()


def _check_join(args) -> str | None:
    """What is wrong with ``join ADDR``'s code and token, if anything."""
    from net import protocol as P

    if args.code is not None and P.normalize_code(args.code) is None and not args.token:
        return f"--code must be {P.CODE_LENGTH} letters A-Z"
    if args.token is not None and not P.is_token(args.token):
        return "--token must be 32 lower-case hex digits"
    return None


def _token_for(args, host: str, port: int) -> tuple[str | None, bool]:
    """The token to say hello with: --token, else the one this screen kept for its seat at
    that table (the same `join` command run again rejoins, as the lobby's "Rejoin" does);
    and whether it was the kept one (a host that no longer knows it seats us by the code)."""
    if args.token:
        return args.token, False
    from game.ui.config import Config
    from game.ui.sessions.lan import kept_token

    token = kept_token(Config.load(), f"{host}:{port}", args.name)
    return token, token is not None


def joined_words(seat: int, table: str, token: str) -> str:
    """What a headless join tells its person: the seat as the room numbers it (from 1; it
    said "seat 1" for the room's seat 2), and the token that takes it back."""
    return f"seat {seat + 1} at {table!r}; rejoin with --token {token}"


def run_join(args) -> int:
    """``join``: the lobby (no address), a table's window, or ``--headless`` a bot."""
    _logging(getattr(args, "verbose", False))
    if getattr(args, "list", False):
        return _list_tables(args.timeout)
    if not args.address:
        from game.ui.screen.windows import run_lobby

        return run_lobby(args)
    from net.client.session import Client, parse_address

    try:
        host, port = parse_address(args.address)
    except ValueError as exc:
        error(str(exc))
        return EXIT_USAGE
    problem = _check_join(args)
    if problem:
        error(problem)
        return EXIT_USAGE
    if not args.headless:
        from game.ui.config import Config
        from game.ui.screen.windows import run_client
        from game.ui.sessions.lan import player_name

        name = args.name or player_name(Config.load())  # in the player's language
        token, kept = _token_for(args, host, port)
        client = Client(
            (host, port), name=name, code=args.code, token=token, kept_token=kept
        ).start()
        try:
            return run_client(client, args)
        finally:
            client.close()
    if not args.bot:
        error("--headless plays as a bot: give --bot KIND")
        return EXIT_USAGE
    try:
        check_bot_spec(args.bot)
    except UnknownBot as exc:
        error(str(exc))
        return EXIT_USAGE
    return _play_bot(host, port, args)


def _play_bot(host: str, port: int, args) -> int:
    """``join ADDR --headless --bot KIND``: play the seat as a bot, print a JSON summary."""
    from net.client.bot import play_bot
    from net.client.session import Joined

    delay = getattr(args, "bot_delay", None)
    timing = {}
    if delay is not None:
        timing = {"answer_delay": delay, "think": delay, "idle": max(0.005, delay)}

    def show(msg) -> None:
        if isinstance(msg, Joined):
            print(joined_words(msg.seat, msg.table.name, msg.token), file=sys.stderr, flush=True)

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
    from net.discovery.browse import discover

    try:
        tables = discover(max(0.1, timeout))
    except Exception as exc:
        error(f"LAN discovery failed: {exc}")
        return 1
    for t in tables:
        lock = "" if t.code_required else "  (no code)"
        print(f"{t.name}\t{t.host}:{t.port}\t{t.seats_free} seats free{lock}", flush=True)
    if not tables:
        print("no tables found", file=sys.stderr)
    return 0
