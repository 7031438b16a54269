"""Helpers for delivery tests: an instance with the test game, and a real SMTP server on loopback."""

from __future__ import annotations

import email
import email.policy
import socket
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from aiosmtpd.controller import Controller

from pbem.instance import config
from pbem.service import Player, Service

ANN = Player("ann@example.org", "Ann")
BEN = Player("ben@example.org", "Ben")
CY = Player("cy@example.org", "Cy")


# The database of the test's engine (the ``database`` fixture): None for the instance's SQLite file.
DATABASE: str | None = None
PG_SERVER: Any = None  # the PostgreSQL server of the test, when it runs on PostgreSQL


def own_database() -> dict[str, Any]:
    """Settings that give a second instance a database of its own on the test's engine (on SQLite, its own
    folder does)."""
    if DATABASE is None:
        return {}
    return {"database": PG_SERVER.url(PG_SERVER.create_database())}


def make_settings(tmp: Path, **values: Any) -> config.Settings:
    config.init_instance(tmp)
    settings = config.load(tmp, environ={})
    if DATABASE is not None:
        values = {"database": DATABASE, **values}
    return config.Settings(settings.instance, {**settings.values, **values})


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Inbox:
    """What the loopback SMTP server received."""

    messages: list[EmailMessage] = field(default_factory=list)
    refuse: int | None = None  # reply code to refuse every message with, e.g. 550

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        if self.refuse:
            return f"{self.refuse} refused for the test"
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        assert isinstance(message, EmailMessage)
        self.messages.append(message)
        return "250 OK"


def smtp_server(inbox: Inbox, port: int) -> Controller:
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    return controller


def mails_to(service: Service, address: str) -> list[dict[str, Any]]:
    return service.store.query("SELECT * FROM outbox WHERE to_addr = ? ORDER BY created_at", (address,))


def parse(message: str) -> EmailMessage:
    parsed = email.message_from_string(message, policy=email.policy.default)
    assert isinstance(parsed, EmailMessage)
    return parsed


def text_of(message: EmailMessage) -> str:
    part = message.get_body(preferencelist=("plain",))
    assert part is not None
    return str(part.get_content())


def html_of(message: EmailMessage) -> str:
    part = message.get_body(preferencelist=("html",))
    assert part is not None
    return str(part.get_content())


def play_moves(service: Service, game_id: str, moves: int, seed: int = 1) -> None:
    """Up to ``moves`` random legal moves through the service, the lowest prompted seat first, as the command line
    makes them (each with its mails)."""
    import random

    from events.handling import Cause
    pick = random.Random(seed)
    for _ in range(moves):
        state = service.load(game_id)
        rules = service.kernel.rules(state)
        prompts = rules.prompts(state.game)
        if state.ended or not prompts:
            return
        seat = sorted(prompts)[0]
        service.act_as(game_id, seat, pick.choice(rules.legal_actions(state.game, seat)), cause=Cause("cli"))
