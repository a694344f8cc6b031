"""Drawing and its caches: text in every language, the widgets, card faces, colours,
tweens, sounds, the QR code, and the layout probe the audit reads."""
