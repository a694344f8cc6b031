"""A kept hot-seat game back on the table: `restore` replays its files into a
`LocalSession` where it stopped, `continue_game` opens it (the title's Continue and the
saved-games list). The files themselves are autosave.py's."""

from __future__ import annotations

from pathlib import Path

from game.bots import is_bot_spec
from game.rules import Game, SaveError
from game.rules.replay import LogError, game_from_data, replay_log
from game.table.bot_schedule import timing_from_data

from . import autosave
from .autosave import AutosaveError, read_files
from .seating import default_seat_name
from .session import HUMAN, LocalSession, SeatSpec


def continue_game(app, path) -> str | None:
    """Open the kept game in `path` at the table where it stopped (the title's Continue and
    the saved-games list): None, or the key of the message saying why not (its files are
    set aside when it cannot be replayed)."""
    from ..scenes.newgame import start_game
    from ..table.scene import TableScene

    writer = autosave.writer_for(app)
    try:
        session = restore(path)
    except autosave.AutosaveError:
        autosave.set_aside(path)
        return "title.autosave_corrupt"
    if session.over:  # the window closed on its last move: kept for its replay instead
        session.keep_finished()
        writer.discard(path)
        return "title.already_over"
    session.attach_autosave(writer, path)
    app.replace(TableScene(app, session, on_exit=lambda: start_game(app), catch_up=True))
    return None


def restore(game_path: Path):
    """The kept hot-seat session, replayed to where it stopped (its events queued for the
    table's log and money history); AutosaveError when it cannot be replayed."""
    data, seats = read_files(game_path)
    try:
        start: Game = game_from_data({**data, "actions": []}, game_path.name)
        specs = _seat_specs(seats)
        for spec in specs:
            if spec.kind != HUMAN and not is_bot_spec(spec.kind):
                raise AutosaveError(f"unknown bot kind {spec.kind!r}")
        timing = timing_from_data(seats.get("timing") or {})
        clocks = _clocks(seats.get("clocks"))
        session = LocalSession(specs, start.seed, start.settings, start.setup, timing=timing)
        try:  # through the session's Master: its table hears every action, as it was played
            for _ in replay_log(session.game, data["actions"], session.apply_scripted):
                pass
        except LogError as exc:
            raise AutosaveError(str(exc)) from None
        session.resume_countdowns(clocks)
    except AutosaveError:
        raise
    except (SaveError, TypeError, ValueError, KeyError, AttributeError) as exc:
        raise AutosaveError(str(exc) or type(exc).__name__) from None
    return session


def _clocks(data) -> dict[str, float]:
    """The saved clocks: {"negotiation": seconds left}. Saves made before clocks were
    recorded have none, and their clocks start from full."""
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise AutosaveError("clocks must be a map")
    out = {}
    for kind, left in data.items():
        if kind != "negotiation":
            raise AutosaveError(f"unknown clock {kind!r}")
        if isinstance(left, bool) or not isinstance(left, (int, float)) or not left >= 0:
            raise AutosaveError(f"clock {kind!r} must be seconds left, not {left!r}")
        out[kind] = float(left)
    return out


def _seat_specs(seats: dict) -> list:
    """The saved seats as SeatSpecs, a default name in the current language."""
    out = []
    for i, s in enumerate(seats["seats"]):
        default = s.get("default_name", False)
        name = default_seat_name(i, s["kind"]) if default else s["name"]
        out.append(SeatSpec(name, s["kind"], default_name=default))
    return out
