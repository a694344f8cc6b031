"""Sound effects from assets/sounds (CC0, synthesized by make_sounds.py).

Never crashes: without an audio device (or with SDL's dummy driver) the mixer may fail to
open, and then every play() is a no-op. Volume and mute apply live.
"""

from __future__ import annotations

from pathlib import Path

import pygame

SOUND_DIR = Path(__file__).resolve().parents[3] / "assets" / "sounds"
NAMES = (
    "boss_fanfare",
    "card_flick",
    "card_place",
    "coin_clink",
    "coins_pour",
    "deal_closed",
    "deal_failed",
    "dice_roll",
    "shuffle",
    "ui_click",
    "window_tick",
)


class Sounds:
    def __init__(self, volume: float = 0.7, mute: bool = False, enabled: bool = True) -> None:
        self.volume = volume
        self.mute = mute
        self.sounds: dict[str, pygame.mixer.Sound] = {}
        self.played: list[str] = []  # the last names played (tests and the benchmark look)
        self.available = False
        if enabled:
            self._open()

    def _open(self) -> None:
        try:
            if not pygame.mixer.get_init():
                pygame.mixer.init(22050, -16, 1, 512)
            for name in NAMES:
                path = SOUND_DIR / f"{name}.wav"
                if path.exists():
                    self.sounds[name] = pygame.mixer.Sound(path)
            pygame.mixer.set_num_channels(16)
            self.available = True
        except (pygame.error, OSError):
            self.sounds.clear()
            self.available = False

    def set_volume(self, volume: float, mute: bool | None = None) -> None:
        self.volume = min(1.0, max(0.0, volume))
        if mute is not None:
            self.mute = mute

    def play(self, name: str, gain: float = 1.0) -> None:
        self.played.append(name)
        del self.played[:-32]
        if self.mute or self.volume <= 0:
            return
        snd = self.sounds.get(name)
        if snd is None:
            return
        try:
            snd.set_volume(min(1.0, self.volume * gain))
            snd.play()
        except pygame.error:
            pass
