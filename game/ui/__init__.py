"""The pygame-ce client: app loop, scenes, widgets, tweens, theme, sound, i18n."""

import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
