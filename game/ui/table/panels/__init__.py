"""The right-hand panel's parts, one file each: the turn, the negotiation (its controls and
the deal as drawn), the reaction window's banner and countdowns, and the terms editor.
`..panel.ActionPanel` composes them."""
