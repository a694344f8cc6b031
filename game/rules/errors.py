"""The error an illegal action raises: it names the rule it breaks."""

from __future__ import annotations


class IllegalAction(Exception):
    """An action the rules do not allow now. `rule` is a short, stable identifier
    (e.g. "agreement.total_exceeds_proceeds"); the message says it in words."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{message} [{rule}]")
        self.rule = rule
        self.message = message
