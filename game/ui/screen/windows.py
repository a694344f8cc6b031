"""The windows the command line opens (game/cli/): `run_app` for `main.py play` (the title),
and for the LAN (game/cli/lan.py) `run_lobby` (`join` without an address), `run_client`
(`join ADDR`: that table's room, then its game) and `run_hosted` (`host`: this screen hosts
and plays; `table`: it hosts and shows the fullscreen public table display). The title
lies under every one of them, so Back and leaving always end there."""

from __future__ import annotations

import contextlib
import os

import pygame

from ..config import Config
from ..scenes.title import TitleScene
from .app import App, parse_size


def run_app(args) -> int:
    """`python main.py play`: the title screen, hot-seat games against bots or friends."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    config = Config.load()
    if getattr(args, "lang", None):
        config.language = args.lang
    size = parse_size(getattr(args, "size", None))
    windowed = bool(getattr(args, "windowed", False)) or size is not None
    try:
        app = App(config, windowed=windowed, window_size=size)
    except pygame.error as exc:
        print(f"error: cannot open a window: {exc}")
        return 1
    if app.window.notice:
        print(app.window.notice)
    app.push(TitleScene(app))
    try:
        return app.run()
    finally:
        if app.persist:
            with contextlib.suppress(OSError):
                app.config.save()
        app.shutdown()


def _open_app(args, *, fullscreen: bool | None = None) -> App | None:
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    config = Config.load()
    if getattr(args, "lang", None):
        config.language = args.lang
    want = config.fullscreen
    if fullscreen is not None:
        config.fullscreen = fullscreen
    try:
        app = App(config, windowed=bool(getattr(args, "windowed", False)))
    except pygame.error as exc:
        print(f"error: cannot open a window: {exc}")
        return None
    config.fullscreen = want  # a forced fullscreen (the table display) is not saved
    return app


def _run(app: App) -> int:
    from ..sessions.lan import close_link

    try:
        return app.run()
    finally:
        close_link(app)
        if app.persist:
            with contextlib.suppress(OSError):
                app.config.save()
        app.shutdown()


def run_lobby(args) -> int:
    """`main.py join` without an address: the lobby (host or join; Back: the title)."""
    app = _open_app(args)
    if app is None:
        return 1
    from ..scenes.lobby import LobbyScene

    cfg = app.config
    if getattr(args, "name", None):
        cfg.lan_name = args.name[:24]
    app.push(TitleScene(app))
    app.push(LobbyScene(app, code=getattr(args, "code", None)))
    return _run(app)


def run_client(client, args) -> int:
    """`main.py join ADDR`: the room of that table, then its game."""
    app = _open_app(args)
    if app is None:
        return 1
    from ..sessions.lan import open_room, remember_name, remember_table
    from ..sessions.net_session import NetSession

    app.push(TitleScene(app))
    if getattr(args, "name", None) and not getattr(args, "token", None):
        remember_name(app, args.name)
    session = NetSession(
        client,
        code=getattr(args, "code", None),
        remember=lambda s, tok: remember_table(app, s, tok),
    )
    open_room(app, session)
    return _run(app)


def run_hosted(host_thread, client, args, *, display: bool = False) -> int:
    """`main.py host` (this screen plays at the table) or, `display`, `main.py table` (the
    fullscreen public table display of it). game/cli/lan.py started the host thread (and
    stops it after); leaving the room or the table here stops it at once."""
    app = _open_app(args, fullscreen=True if display else None)
    if app is None:
        return 1
    from ..sessions.lan import keep_own_seat, open_room
    from ..sessions.net_session import NetSession

    app.push(TitleScene(app))
    session = NetSession(
        client,
        host=host_thread,
        owns_host=True,  # leaving the room or the table ends the table hosted here
        code=host_thread.code,
        address=f"{_shown(args)}:{host_thread.port}",
        remember=None if display else keep_own_seat(host_thread.config),
    )
    open_room(app, session)
    return _run(app)


def _shown(args) -> str:
    from ..sessions.lan import lan_address

    bind = getattr(args, "bind", None) or "0.0.0.0"
    return lan_address() if bind in ("0.0.0.0", "") else bind
