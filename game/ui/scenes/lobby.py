"""The LAN lobby: host a table (left, scenes/lobby_host.py) or join one (right,
scenes/lobby_join.py). This scene lays the two panes side by side, keeps their choices in
the settings and shows the message line either of them leaves (a bad code, a host that
cannot listen). Hosting or joining opens the room (scenes/room.py) on top; coming back here
ends that connection.
"""

from __future__ import annotations

import contextlib

import pygame

from net import protocol as P

from ..drawing import draw
from ..drawing.theme import BAD, TEXT
from ..drawing.widgets import Button, TextField
from ..i18n import tr
from ..screen import router
from ..screen.router import Route
from ..screen.scene import Scene
from ..sessions import lan
from .common import backdrop, section, title_bar
from .lobby_host import HOST_W, HOST_X, LABELS, STEP, TOP, HostPane
from .lobby_join import JOIN_W, JOIN_X, LABEL_W, LIST_BOTTOM, JoinPane


class LobbyScene(Scene):
    name = "lobby"

    def __init__(self, app, browser=None, code: str | None = None) -> None:
        """`browser`: something with start() / poll() / close() (default: a
        BackgroundBrowser, started on first entry); `code`: a room code to fill in."""
        super().__init__(app)
        self.hosting = HostPane(self)
        self.joining = JoinPane(self, browser, code)
        self.message: tuple[str, tuple] | None = None
        self._started = False

    # -- lifecycle -------------------------------------------------------------------------

    def enter(self) -> None:
        lan.close_link(self.app)  # back from a room: that connection is over
        if not self._started:
            self._started = True
            self.joining.start()
        super().enter()

    def exit(self) -> None:
        TextField.focused_field = None
        if self not in self.app.stack.scenes:
            self.joining.close()

    def layout(self) -> None:
        self.widgets = [
            *self.hosting.widgets(),
            *self.joining.widgets(),
            Button(
                (HOST_X, 980, 300, 66),
                lambda: tr("ui.back"),
                self.back,
                style="ghost",
                size=26,
                name="back",
                hotkey=pygame.K_ESCAPE,
            ),
        ]

    def set_config(self, field: str, value) -> None:
        """A choice into the settings. Every widget reads its value back through a
        callable: no relayout (which would also take the focus from a field being typed in)."""
        setattr(self.app.config, field, value)
        self.app.config.sanitize()

    def room_code(self, text: str) -> str | None:
        """A pane's code made ready to host or join with: normalised, the choices saved and
        the message cleared; None (and the message says why) when it is not a room code."""
        code = P.normalize_code(text)
        if code is None:
            self.message = (tr("lobby.bad_code"), BAD)
            return None
        TextField.focused_field = None
        self.message = None
        self.save()
        return code

    def save(self) -> None:
        if self.app.persist:
            with contextlib.suppress(OSError):  # a read-only home never stops the lobby
                self.app.config.save()

    def update(self, dt: float) -> None:
        super().update(dt)
        if self.joining.poll():
            self.layout()

    def handle(self, event) -> bool:
        if event.type == pygame.MOUSEWHEEL and self.joining.list_rect.collidepoint(self.mouse):
            self.joining.scroll_by(event.y)
            self.layout()
            return True
        return super().handle(event)

    def back(self) -> None:
        TextField.focused_field = None
        self.save()
        if len(self.app.stack.scenes) > 1:
            self.app.pop()
        else:
            self.app.replace(router.scene(Route.TITLE, self.app))

    # -- drawing ------------------------------------------------------------------------------

    def draw(self, surface) -> None:
        backdrop(surface, self.t, cards=False)
        title_bar(surface, tr("lobby.title"), y=30)
        section(surface, tr("lobby.host_pane"), HOST_X, 140, HOST_W)
        section(surface, tr("lobby.join_pane"), JOIN_X, 140, JOIN_W)
        # labels of the fields that have none of their own
        labels = [(tr(key), HOST_X + 10, TOP + row * STEP) for key, row in LABELS]
        labels += [
            (tr("lobby.address"), JOIN_X + 10, LIST_BOTTOM + 24),
            (tr("lobby.room_code"), JOIN_X + 10, LIST_BOTTOM + 88),
            (tr("lobby.your_name"), JOIN_X + 10, LIST_BOTTOM + 152),
        ]
        for text, x, y in labels:
            img = draw.fit(text, 24, LABEL_W - 20, TEXT)
            surface.blit(img, img.get_rect(midleft=(x, y + 27)))
        self.joining.draw_list(surface, self.t)
        if self.message is not None:
            text, colour = self.message
            draw.blit_wrapped(
                surface,
                text,
                pygame.Rect(JOIN_X, LIST_BOTTOM + 310, JOIN_W, 80),
                24,
                colour,
                True,
            )
        super().draw(surface)
