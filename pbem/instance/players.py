"""Who plays: a player is an email address with a display name, and a stable id (their home page's) in every game."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from pbem.instance.addresses import check_address


@dataclass(frozen=True)
class Player:
    email: str
    name: str

    @classmethod
    def parse(cls, text: str) -> Player:
        """``alice@example.org`` or ``Alice Liddell <alice@example.org>``."""
        text = text.strip()
        match = re.fullmatch(r"(.*?)\s*<([^<>]+)>", text)
        name, email = (match.group(1).strip(), match.group(2).strip()) if match else ("", text)
        email = check_address(email)
        return cls(email, name or email.split("@")[0])


def player_id(email: str) -> str:
    """A player's stable id (for their home page link), the same in every game."""
    return hashlib.sha256(f"pbem-player:{email.strip().lower()}".encode()).hexdigest()[:16]
