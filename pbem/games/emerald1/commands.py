"""Text commands: ``parse`` turns a reply line into an action, ``format`` writes the line for an action."""

from __future__ import annotations

import json
from typing import Any

from events.rules import InvalidAction
from pbem.games.emerald1.state import State

Action = dict[str, Any]


def format_action(s: State, a: Action) -> str:
    return json.dumps(a, sort_keys=True)


def parse_command(s: State, text: str) -> Action:
    try:
        a = json.loads(text)
    except ValueError as bad:
        raise InvalidAction(f"Not a command: {text!r}") from bad
    return dict(a)
