"""Drawing and its caches: text in every language, the widgets, card faces, colours,
tweens, sounds and the QR code."""
