"""The "Watch a replay" list, newest first: the kept finished hot-seat games and the save files found
in the saves folders (`<config>/saves/`, a LAN host's `<config>/autosave/lan-*.json`,
`./saves/`), each with its date, players, winner and score, and a field for any save file's
path. Opening one starts the replay viewer;
a file that cannot be replayed shows a message, never a crash."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pygame

from ..config import config_dir
from ..drawing import draw
from ..drawing.theme import TEXT_DIM, WARN
from ..drawing.widgets import Button, TextField
from ..i18n import and_list, tr, tr_names
from ..screen.scene import Scene
from .common import backdrop, title_bar, when

PER_COLUMN = 8
ROW_H, ROW_GAP = 60, 10
COLUMNS = (pygame.Rect(120, 190, 820, 0), pygame.Rect(980, 190, 820, 0))


@dataclass(frozen=True)
class ReplayEntry:
    path: Path
    label: str


def save_folders() -> list[tuple[Path, str]]:
    """Where save files are looked for: (folder, glob)."""
    return [
        (config_dir() / "saves", "*.json"),
        (config_dir() / "autosave", "lan-*.json"),
        (Path("saves"), "*.json"),
    ]


def saved_at(path: Path) -> float:
    """When a save file was last written: the file's or its journal's (a LAN host's save
    grows in its journal), whichever is newer; 0 when neither can be read."""
    stamps = []
    for p in (path, path.with_name(path.name + ".journal")):
        try:
            stamps.append(p.stat().st_mtime)
        except OSError:
            continue
    return max(stamps, default=0.0)


def describe(path: Path) -> str:
    """"2025-03-04 18:22 · Mei, Ada, Bruno · Mei won with $58M": when the game was last
    saved, its players, and its winner and score (replayed, with a host's journal; a few
    milliseconds a game). A file that cannot be replayed is shown by its name."""
    from game.rules import SaveError
    from game.rules.state import Phase

    from ..sessions.replay_session import load_replay

    try:
        state = load_replay(path).state
    except (SaveError, OSError):
        return path.name
    if state.phase is Phase.GAME_OVER and state.winners:
        money = tr("money.amount", n=state.money[state.winners[0]])
        winners = [state.names[s] for s in state.winners]
        result = tr_names("replays.winners", winners, money=money)
    else:
        result = tr("replays.unfinished")
    return tr("replays.entry", when=when(saved_at(path)), players=and_list(state.names),
              result=result)  # fmt: skip


def entries(limit: int | None = None) -> list[ReplayEntry]:
    """The kept finished games and the save files found (a host's seats files beside its
    saves are not games), in one list by date, newest first; the first `limit` are
    described (replayed), the rest only dated."""
    from ..sessions.autosave import SEATS_SUFFIX, finished_games

    paths = [g.path for g in finished_games()]
    seen = {p.resolve() for p in paths}
    for folder, pattern in save_folders():
        for path in folder.glob(pattern):
            if path.resolve() not in seen and not path.name.endswith(SEATS_SUFFIX):
                seen.add(path.resolve())
                paths.append(path)
    paths.sort(key=saved_at, reverse=True)  # stable: the kept games' own order breaks ties
    return [ReplayEntry(p, describe(p)) for p in paths[:limit]]


class ReplayListScene(Scene):
    name = "replays"
    animated = False  # still unless an event, a tooltip or a glow says otherwise

    def __init__(self, app) -> None:
        super().__init__(app)
        self.entries = entries(PER_COLUMN * len(COLUMNS))
        self.path_text = ""
        self.notice: str | None = None

    def layout(self) -> None:
        self.widgets = []
        for i, entry in enumerate(self.entries[: PER_COLUMN * len(COLUMNS)]):
            col = COLUMNS[i // PER_COLUMN]
            y = col.y + (i % PER_COLUMN) * (ROW_H + ROW_GAP)
            self.widgets.append(
                Button(
                    (col.x, y, col.width, ROW_H),
                    draw.ellipsize(entry.label, 24, col.width - 40),
                    lambda e=entry: self.open(e.path),
                    size=24,
                    name=f"replays.entry.{i}",
                    tip=str(entry.path),
                )
            )
        self.widgets += [
            TextField(
                (120, 790, 1300, 64),
                lambda: self.path_text,
                self._set_path,
                placeholder=lambda: tr("replays.path"),
                max_len=240,
                name="replays.path",
            ),
            Button(
                (1440, 790, 360, 64),
                lambda: tr("replays.open"),
                lambda: self.open(Path(self.path_text.strip())),
                style="primary",
                size=28,
                name="replays.open",
                hotkey=pygame.K_RETURN,
                tip=lambda: tr("replays.path"),
            ),
            Button(
                (120, 960, 360, 70),
                lambda: tr("ui.back"),
                self.back,
                size=28,
                name="replays.back",
                hotkey=pygame.K_ESCAPE,
                tip=lambda: tr("ui.back"),
            ),
        ]

    def _set_path(self, text: str) -> None:
        self.path_text = text

    def open(self, path: Path) -> None:
        from game.rules import SaveError

        from ..sessions.replay_session import ReplaySession
        from ..table.replay import ReplayScene

        try:
            session = ReplaySession.from_file(path)
        except (SaveError, OSError):
            self.notice = tr("replays.unreadable")
            return
        self.app.push(ReplayScene(self.app, session, on_back=self.app.pop))

    def back(self) -> None:
        self.app.pop()

    def draw(self, surface) -> None:
        backdrop(surface, self.t, cards=False)
        title_bar(surface, tr("replays.title"), y=30)
        if not self.entries:
            img = draw.fit(tr("replays.empty"), 26, 1600, TEXT_DIM)
            surface.blit(img, img.get_rect(center=(960, 400)))
        if self.notice:
            img = draw.fit(self.notice, 24, 1600, WARN, True)
            surface.blit(img, img.get_rect(center=(960, 900)))
        super().draw(surface)
