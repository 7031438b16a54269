"""What a muster keeps from each reader: the other invitees' addresses, and the organiser's (``docs/organising.md``).

An invitee reads the others' names; only the organiser reads every address. A player replaced in their
place stays a reader of what reached them before, and may not learn their replacement's address either.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Addresses:
    """Every address of a muster that one reader may not read."""

    hidden: frozenset[str]

    @classmethod
    def of(cls, reader: str, organiser: str, invited: list[str]) -> Addresses:
        return cls(frozenset(a for a in [organiser, *invited] if a != reader))

    def find(self, text: str, data: Any = None) -> list[str]:
        seen = text.lower() + (json.dumps(data).lower() if data is not None else "")
        return sorted(a for a in self.hidden if a in seen)
