"""Webhooks and table talk in the leak test: a game's webhook, each player's, and private messages between players.

The game's webhook reads as the spectator, each player's as that player; ``Whispers`` are messages sent to one
player during the game, each with words nobody else may read before the end (on any channel at all).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Any

from events.handling import Cause
from pbem.post import webhooks
from pbem.post.mail.outbox import draft_of
from pbem.service import Service
from pbem.table.talk import Talk

LOOPBACK = webhooks.Policy(limit=3, allow_loopback=True)  # rows only: nothing is posted in the leak test
LINE = re.compile(r"^(\d+)\. (.*)$")
WHISPER = re.compile(r"zq\d+x\d+to\d+")  # the words of a private message, as ``Whispers.maybe_say`` makes them


def add_hooks(service: Service, game_id: str, emails: list[str]) -> dict[int | None, str]:
    """A game webhook (for the spectator, None) and one per player (by seat); their ids."""
    hooks: dict[int | None, str] = {}
    for seat, owner in [(None, ("game", game_id)), *((s, ("player", e)) for s, e in enumerate(emails))]:
        kind = "json" if seat is None else ("discord", "slack", "json")[seat % 3]
        added = service.add_webhook(owner, f"http://127.0.0.1:9/{seat}", kind, LOOPBACK, cause=Cause("test"))
        hooks[seat] = str(added.webhook["id"])
    return hooks


@dataclass
class HookReader:
    """The posts to one webhook not yet read, as channels of the leak test."""

    service: Service
    webhook_id: str
    read: set[str] = field(default_factory=set)
    unchecked: list[tuple[str, int]] = field(default_factory=list)  # a game post's event lines: (line, seq)

    def posts(self) -> dict[str, tuple[str, Any]]:
        rows = self.service.store.query("SELECT id, draft FROM outbox WHERE to_addr = ? ORDER BY created_at",
                                        (f"webhook:{self.webhook_id}",))
        found: dict[str, tuple[str, Any]] = {}
        for row in (r for r in rows if r["id"] not in self.read):
            body = str(draft_of(row)["body"])
            found[f"webhook post {row['id']}"] = (body, None)
            self.read.add(str(row["id"]))
            for line in text_of(body).splitlines():
                match = LINE.match(line)
                if match:
                    self.unchecked.append((match.group(2), int(match.group(1))))
        return found

    def check_public(self, game_id: str) -> None:
        """Every event line the game's webhook posted is the public log's line of that event, word for word."""
        if not self.unchecked:
            return
        first = min(seq for _, seq in self.unchecked)  # the log from there on: each line as the whole log has it
        public = {int(e["seq"]): e["text"] for e in self.service.log(game_id, after_seq=first - 1)}
        for line, seq in self.unchecked:
            assert line.removesuffix(" (taken back)") == public[seq], f"the game webhook posted {line!r} at {seq}"
        self.unchecked.clear()


def text_of(body: str) -> str:
    import json
    data = json.loads(body)
    return str(data.get("text") or data.get("content") or "")


@dataclass
class Whispers:
    """Private messages sent during the game: each one's words, and the seats that may read them."""

    pick: random.Random
    said: dict[str, set[int]] = field(default_factory=dict)

    def maybe_say(self, service: Service, game_id: str, seats: int, move: int) -> bool:
        """Every few moves, a message from one random player to another; whether one was sent."""
        if move % 7 != 3:
            return False
        writer = self.pick.randrange(seats)
        to = self.pick.choice([s for s in range(seats) if s != writer])
        words = f"zq{move}x{writer}to{to} meet me in the crypt"
        service.say(game_id, writer, Talk("say", words, (to,)), cause=Cause("test"))
        self.said[words.split()[0]] = {writer, to}
        return True

    def hidden_from(self, seat: int | None) -> list[str]:
        return [w for w, readers in self.said.items() if seat not in readers]

    @staticmethod
    def found_in(text: str, words: list[str]) -> list[str]:
        """Which of these words a text holds (read once for every whisper's words, not once a word)."""
        said = set(WHISPER.findall(text)) if words else set()
        return [w for w in words if w in said]
