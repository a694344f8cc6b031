"""LAN play in the window: hosting and joining (from the lobby, and for the windows
game/ui/screen/windows.py opens for `main.py join | host | table`), the names a table and its
player go by, the room and the table of a connection.

The screen's connection is a `NetSession` (net_session.py) kept in `app.lan`; the room
(scenes/room.py) shows it before and between games, the table scene during a game. Going
back to the title or the lobby ends it (`close_link`), and so does closing the window.
"""

from __future__ import annotations

import contextlib
import os
import socket

from game.files import host_autosave_path

from ..config import Config
from ..i18n import Translator, tr
from ..screen import router
from ..screen.router import Route
from .net_session import NetSession
from .seating import default_bot

# Where a table hosted from the lobby listens (tests bind to loopback).
HOST_BIND = "0.0.0.0"
ANNOUNCE = True


def lan_address() -> str:
    """This machine's address on the LAN, to show to people joining (no packet is sent)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.connect(("10.255.255.255", 1))
        return s.getsockname()[0]
    except OSError:
        return "127.0.0.1"
    finally:
        s.close()


def chosen_name(cfg: Config) -> str:
    """The name the player gave in the settings (empty: none given)."""
    return (cfg.lan_name.strip() or (cfg.names[0].strip() if cfg.names else ""))[:24]


def player_name(cfg: Config) -> str:
    """The name this player takes at a LAN table: the one given, the login's, or the
    word for "player" in the player's language (the network layer invents none)."""
    name = chosen_name(cfg)
    if name:
        return name
    user = os.environ.get("USER") or os.environ.get("USERNAME") or ""
    return user.title()[:24] or tr("player.default_lan_name")


def host_player_name() -> str:
    """`main.py host` without --player-name: the host's seat takes the settings' name."""
    return player_name(Config.load())


def table_name(cfg: Config, player: str | None = None) -> str:
    """The name of a table this screen hosts: the settings' one, else "<player>'s table" in
    the settings' language, from the player's own name (``player``, else the settings'),
    never the computer's account name."""
    if cfg.lan_table_name.strip():
        return cfg.lan_table_name.strip()[:40]
    say = Translator(cfg.language)  # the settings' language, before a window sets it
    name = (player or "").strip()[:24] or chosen_name(cfg)
    return (say("lobby.table_of", name=name) if name else say("lobby.table_unnamed"))[:40]


# --------------------------------------------------------------------------- the link


def remember_table(app, session: NetSession, token: str | None) -> None:
    """Persist (or forget) the last table joined, for "Rejoin" after a restart."""
    cfg = app.config
    if token is None:
        cfg.last_table_address = cfg.last_table_token = cfg.last_table_name = ""
        cfg.last_table_player = ""
    else:
        cfg.last_table_address = session.address
        cfg.last_table_token = token
        cfg.last_table_name = (session.table_name or session.address)[:40]
        cfg.last_table_player = (getattr(session.client, "name", None) or "")[:24]
    cfg.sanitize()
    if app.persist:
        with contextlib.suppress(OSError):
            cfg.save()


def kept_token(cfg: Config, address: str, name: str | None) -> str | None:
    """The token this screen kept for its seat at the table at ``address`` (HOST:PORT), as
    the lobby's "Rejoin" uses it: `main.py join ADDRESS --name NAME` run again takes the
    same seat back. None: no seat kept there, or kept under another name (another person
    at this computer joining the same table gets a seat of their own)."""
    from net.client.session import parse_address

    if not cfg.last_table_token or not cfg.last_table_address:
        return None
    try:
        wanted, kept = parse_address(address), parse_address(cfg.last_table_address)
    except ValueError:
        return None
    if wanted != kept:
        return None
    if name and name.strip() and cfg.last_table_player and name.strip() != cfg.last_table_player:
        return None
    return cfg.last_table_token


def remember_name(app, name: str) -> None:
    """The name joined with is the lobby's name next time (saved at once)."""
    cfg = app.config
    cfg.lan_name = name.strip()[:24]
    cfg.sanitize()
    if app.persist:
        with contextlib.suppress(OSError):
            cfg.save()


def close_link(app) -> None:
    """End the screen's LAN connection (and the table it hosts), if any."""
    session = getattr(app, "lan", None)
    app.lan = None
    if session is not None:
        session.disconnect()


def join(app, address: str, *, code: str | None = None, name: str | None = None, token=None):
    """Connect to a table as a player (a token takes a seat back); returns the session."""
    from net.client.session import Client, parse_address

    host, port = parse_address(address)
    if name and name.strip():
        remember_name(app, name)
    client = Client((host, port), name=name, code=code, token=token).start()
    session = NetSession(
        client,
        code=code,
        address=f"{host}:{port}",
        remember=lambda s, tok: remember_table(app, s, tok),
    )
    return session


def host_config(cfg: Config, code: str | None = None):
    """A HostConfig from the lobby's choices (saved in the settings), built where the command
    line builds one (net.host.config)."""
    from game.bots import is_bot_spec
    from game.rules import Variant
    from net.host.config import build_host_config

    return build_host_config(
        seats=cfg.lan_seats,
        bots=[cfg.lan_bot if is_bot_spec(cfg.lan_bot) else default_bot()],
        code=code,
        name=table_name(cfg),
        bind=HOST_BIND,
        variants=frozenset(Variant(v) for v in cfg.variants),
        short_game=cfg.short_game,
        hidden_money=cfg.hidden_money,
        negotiation_limit=cfg.negotiation_limit,
        window_mode=cfg.window_mode,
        window=cfg.window,
        going_once=cfg.going_once,
        negotiation=cfg.negotiation,
        turn=cfg.turn,
        hints=cfg.lan_hints,
        open_bot_seats=cfg.lan_open_bot_seats,
        # the host's own autosave, where "Watch a replay" finds it (`main.py host --resume`)
        autosave=host_autosave_path(),
        announce=ANNOUNCE,
    )


def host(app, code: str | None = None, display: bool = False) -> NetSession:
    """Host a table from the lobby (HostError if it cannot listen): this screen plays at it,
    or shows it as the public table display."""
    from net.client.session import Client
    from net.host.thread import HostThread

    ht = HostThread(host_config(app.config, code)).start()
    try:
        role = "spectator" if display else "player"
        name = None if display else player_name(app.config)
        client = Client(("127.0.0.1", ht.port), name=name, code=ht.code, role=role).start()
    except BaseException:
        ht.stop()
        raise
    return NetSession(
        client,
        host=ht,
        owns_host=True,
        code=ht.code,
        address=f"{lan_address()}:{ht.port}",
        remember=None if display else keep_own_seat(ht.config),
    )


def keep_own_seat(config):
    """The host window's session keeps its seat's token beside the autosave (net.host.saved_table.
    OwnSeat), so `main.py host --resume` seats this player in the same seat; None: no autosave.
    Leaving keeps it too: the resumed host gives the seat back."""
    from net.host.saved_table import OwnSeat

    if config.autosave is None:
        return None
    own = OwnSeat(config.autosave)

    def keep(session: NetSession, token: str | None) -> None:
        if token is not None:
            own.keep(token)

    return keep


def open_room(app, session: NetSession, *, push: bool = True) -> None:
    """Show the room for this connection (it moves on to the table when a game runs)."""
    close_link(app)
    app.lan = session
    room = router.scene(Route.ROOM, app, session)
    if push:
        app.push(room)
    else:
        app.replace(room)


def make_table(app, session: NetSession):
    """The table scene for the game the session is in: a player's table, or the display."""
    from ..table.display import TableDisplayScene
    from ..table.scene import TableScene

    cls = TableDisplayScene if session.spectator else TableScene
    return cls(
        app,
        session,
        on_exit=lambda: back_to_room(app, session),
        results=lambda table: lan_results(app, session, table),
    )


def back_to_room(app, session: NetSession) -> None:
    app.lan = session
    app.replace(router.scene(Route.ROOM, app, session))


def lan_results(app, session: NetSession, table):
    """The results of a LAN game (the link stays up for a rematch)."""
    return router.scene(Route.LAN_RESULTS, app, session, table)
