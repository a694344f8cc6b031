"""Key bindings as data: each scene, or each state of the table, has one `Keymap` (key ->
command). The scene's dispatcher looks a pressed key up in it, and a button shows the key
cap of the key bound to its command, so tests/ui/test_ui_keys.py checks the tables that really
drive the keys.

A command is a button's `command` (by default its name: the key clicks that button while it
is shown) or a command of the scene that has no button (moving through the hand, paging the
log). A key bound twice in one keymap is a bug and raises `KeyClash` when the map is built.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import pygame


class KeyClash(ValueError):
    """One key bound to two commands in the same context."""


@dataclass(frozen=True)
class Binding:
    """The keys of one command; the first is the one its button's key cap shows."""

    command: str
    keys: tuple[int, ...]


class Keymap:
    """One context's keys: each key means one command."""

    def __init__(self, context: str, *layers: Iterable[Binding]) -> None:
        self.context = context
        self._command: dict[int, str] = {}
        self._cap: dict[str, int] = {}
        for layer in layers:
            for b in layer:
                for k in b.keys:
                    if k in self._command:
                        raise KeyClash(
                            f"{context}: {pygame.key.name(k)!r} is bound to both "
                            f"{self._command[k]!r} and {b.command!r}"
                        )
                    self._command[k] = b.command
                self._cap.setdefault(b.command, b.keys[0])

    @classmethod
    def of_buttons(cls, context: str, widgets: Iterable) -> Keymap:
        """The keys of a simple scene: its shown buttons' own hotkeys."""
        return cls(
            context,
            [
                Binding(w.command, (w.hotkey,))
                for w in widgets
                if getattr(w, "hotkey", None) is not None and w.visible
            ],
        )

    def command(self, key: int) -> str | None:
        return self._command.get(key)

    def cap_key(self, command: str) -> int | None:
        """The key shown on the key cap of the button with this command."""
        return self._cap.get(command)

    def items(self) -> list[tuple[int, str]]:
        return list(self._command.items())

    def show_caps(self, widgets: Iterable) -> None:
        """Give each button the key cap of its command (none if its command has no key)."""
        for w in widgets:
            if hasattr(w, "hotkey"):
                w.hotkey = self.cap_key(w.command)
