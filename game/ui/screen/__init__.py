"""The screen and what runs on it: the app loop, the real window and its sizes, the
scene stack, routes to scenes, and key bindings."""
