"""A game's data, recorded by its digest: ``GameCreated`` names it, a ``game_data`` row holds it once.

A game's data (every card, city and number its rules use, with an owner's override applied) is about
19 KB for A Study in Emerald, the same for every game created with the same data and override. Games
created since this change record in ``GameCreated`` only ``data_digest``: the sha256 of the data's
canonical JSON. The data itself is written once per instance in the ``game_data`` table (keyed by that
digest, in the game's first transaction), and a game's record carries it in its header
(``pbem.proof.records``), so an exported game still verifies anywhere. The digest enters the event's hash like
any payload, so the chain proves which data the game was played with; reading it back checks the
digest again. Games created before keep their data inline in ``GameCreated`` and replay as before.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from events.envelope import canonical_json, sha256_hex
from events.store import Row


class MissingData(LookupError):
    """A game names data (by digest) that this store does not hold, or holds altered."""


def digest_of(data: Mapping[str, Any]) -> str:
    return sha256_hex(canonical_json(data))


def data_row(data: Mapping[str, Any]) -> Row:
    """The ``game_data`` row of this data (written with the game that first uses it; a second write is a no-op)."""
    return Row("game_data", {"digest": digest_of(data), "data": canonical_json(data)}, pk=("digest",))


class DataSource:
    """The data of a digest, read from the store once per process and checked against its digest."""

    def __init__(self, read: Callable[[str], str | None]) -> None:
        self.read = read
        self._known: dict[str, Mapping[str, Any]] = {}

    def add(self, data: Mapping[str, Any]) -> str:
        """Know this data already (a game being created, its row not yet committed); returns its digest."""
        digest = digest_of(data)
        self._known[digest] = json.loads(canonical_json(data))  # as it will read back: plain JSON values
        return digest

    def __call__(self, digest: str) -> Mapping[str, Any]:
        found = self._known.get(digest)
        if found is None:
            text = self.read(digest)
            if text is None:
                raise MissingData(f"the game's data {digest[:16]}... is not in this store")
            if sha256_hex(text) != digest:
                raise MissingData(f"the game's data {digest[:16]}... does not match its digest")
            found = json.loads(text)
            self._known[digest] = found
        return found
