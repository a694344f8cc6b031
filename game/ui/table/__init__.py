"""The table scene and its parts: board, player plates, negotiation panel, hand, log and
the animation director. Everything here reads views, legal actions and events only."""
