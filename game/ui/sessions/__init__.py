"""The ways of playing as the table sees them: a `Session` (session_api) for hot-seat, a LAN
seat or the public display, the replay, kept games and their autosave, who sits where."""
