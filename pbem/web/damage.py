"""A damaged game's pages: its record checked before a page shows it, and a page that fails on it diagnosed.

A game whose record was edited by hand (a row that no longer reads back, an event altered, removed or moved) answers
every page but its verification with 503 and says where the record breaks, never a server error and never a page
built from an altered record. Each process checks a game's hash chain whole the first time it serves one of its
pages, then only the events recorded since, as long as the event it checked last still ends the chain it read
(``events.audit.verify_links``): a page costs one primary-key lookup more. An edit made while a process runs, behind
the events it checked, is found by the next process, by ``pbem game verify``, or when a page fails on it: a page
that fails on a game is diagnosed (the whole verification, and the game's rows in the read model) before it is
called a server error.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass

from typing import Sequence

from events.audit import causes_salted, first_damage, salted, verify_chain, verify_links
from events.envelope import Event, is_hidden
from events.schema import GAME_ENDED
from events.store import CorruptLog
from pbem.errors import GameDamaged
from pbem.service import Service

KEPT = 4096  # games whose checked head a process remembers; one forgotten is checked whole again


@dataclass(frozen=True)
class Head:
    """The last event of a game's chain this process checked, and what its later events are checked with."""

    seq: int
    hash: str
    salted: bool  # its hidden payloads enter the chain behind salted commitments
    causes: bool  # its causes too (``events.audit.causes_salted``)


class Chains:
    """The chains one process checked, by game: the last event checked of each (the newest ``KEPT`` games)."""

    def __init__(self, kept: int = KEPT) -> None:
        self.kept = kept
        self._heads: OrderedDict[str, Head] = OrderedDict()
        self._lock = threading.Lock()

    def check(self, service: Service, game_id: str, last: tuple[int, str] | None = None) -> None:
        """Refuse a game whose chain breaks anywhere up to its last event; ``last`` is its stored (seq, hash).

        :raises GameDamaged: an event altered, missing, moved, or removed from the end since this process read it.
        :raises events.store.CorruptLog: a row that cannot be read back at all.
        """
        seq, head = last or service.store.last(game_id)
        if seq == 0:
            return  # no such game: the page says so
        with self._lock:
            known = self._heads.get(game_id)
        if known is not None and (known.seq, known.hash) == (seq, head):
            return
        if known is not None and known.seq > seq:  # another thread may have checked events recorded since our read
            seq, head = service.store.last(game_id)
            if (known.seq, known.hash) == (seq, head):
                return
        if known is not None and known.seq > seq:
            self._forget(game_id)
            raise GameDamaged(game_id, f"it ends at event {seq}, but this server read event {known.seq} of it: "
                                       "events were removed from its end")
        found = self._tail(service, game_id, known, seq) if known is not None and known.seq < seq else None
        if found is None:
            found = self._whole(service, game_id)
        with self._lock:
            self._heads[game_id] = found
            self._heads.move_to_end(game_id)
            while len(self._heads) > self.kept:
                self._heads.popitem(last=False)

    def _tail(self, service: Service, game_id: str, known: Head, seq: int) -> Head | None:
        """The events after the one checked last, if that one still has its hash (else None: check it all)."""
        events = service.store.read(game_id, known.seq - 1)
        if not events or events[0].seq != known.seq or events[0].hash != known.hash:
            return None
        tail = events[1:]
        seed = _seed(service, game_id, bool(tail) and known.causes or
                     known.salted and any(is_hidden(e.visibility) for e in tail), tail)
        finding = verify_links(tail, known.seq, known.hash, game_id=game_id, seed=seed, salted_game=known.salted,
                               causes_game=known.causes)
        if finding is not None:
            self._forget(game_id)
            raise GameDamaged(game_id, str(finding))
        return Head(tail[-1].seq, tail[-1].hash, known.salted, known.causes) if tail else known

    def _whole(self, service: Service, game_id: str) -> Head:
        try:
            events = service.store.read(game_id)
        except CorruptLog as unreadable:  # said where the stream is first damaged, which may be before that row
            found, _ = first_damage(service.store, game_id, unreadable, _secret(service, game_id))
            raise GameDamaged(game_id, str(found)) from None
        if not events:
            raise GameDamaged(game_id, "its events are gone")
        hiding, causes = salted(events), causes_salted(events)
        seed = _seed(service, game_id, causes or hiding and any(is_hidden(e.visibility) for e in events), events)
        finding = verify_chain(events, game_id, seed)
        if finding is not None:
            self._forget(game_id)
            raise GameDamaged(game_id, str(finding))
        return Head(events[-1].seq, events[-1].hash, hiding, causes)

    def _forget(self, game_id: str) -> None:
        with self._lock:
            self._heads.pop(game_id, None)


def _seed(service: Service, game_id: str, needed: bool, events: Sequence[Event]) -> str | None:
    """The seed that opens a salted game's hidden payloads: revealed at the end, else the server's own."""
    if not needed:
        return None
    revealed = next((e.payload.get("seed") for e in events if e.type == GAME_ENDED), None)
    if revealed:
        return str(revealed)
    return _secret(service, game_id)


def _secret(service: Service, game_id: str) -> str | None:
    try:
        return service.kernel.seed(game_id)
    except LookupError:
        return None  # no seed kept: the chain check says the hidden payloads cannot be opened


def diagnose(service: Service, game_id: str) -> GameDamaged | None:
    """Why a page failed on a game, if its record or its rows are damaged: every check of ``pbem game verify``, then
    the game's rows in the read model (``games``, one ``seats`` row per seat); None if all is whole."""
    report = service.verify(game_id)
    if report.failure is not None:
        return GameDamaged(game_id, str(report.failure))
    created = service.store.read(game_id, 0, 1)
    seats = created[0].payload.get("seats") if created else None
    if not service.store.query("SELECT 1 FROM games WHERE game_id = ?", (game_id,)):
        return GameDamaged(game_id, "its row in the games table is missing")
    have = service.store.query("SELECT count(*) AS n FROM seats WHERE game_id = ?", (game_id,))[0]["n"]
    if isinstance(seats, list) and int(have) != len(seats):
        return GameDamaged(game_id, f"the seats table holds {have} of its {len(seats)} seats")
    return None
