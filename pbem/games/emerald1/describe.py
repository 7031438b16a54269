from __future__ import annotations
from events.envelope import Event


def describe(event: Event, seat: int | None) -> str:
    return event.type
