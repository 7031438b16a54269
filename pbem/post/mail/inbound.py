"""Replies by mail: find the game and seat from the signed token, read the commands, apply them.

The token travels in the reply address (``play+TOKEN@...``) or, if a mail program drops the
``+`` part, in the play link of the quoted mail. Quoted text and signatures are cut off; the
first lines that are left are the commands, applied in order through the same service path as
a web form, stopping at the first error, which is mailed back with the legal choices.
"""

from __future__ import annotations

import email
import email.policy
import mailbox
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from email.message import EmailMessage
from email.utils import getaddresses
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, Protocol

from events.handling import Cause, CommandResult, StaleCommand
from events.rules import ActionError
from events.store import Row, write_row
from pbem.table import seatlife, talk
from pbem.instance.links import LinkError
from pbem.table.replacing import link_refusal
from pbem.errors import ServiceError
from pbem.post.desk import Desk

MAX_COMMANDS = 20
QUOTE_HEADER = re.compile(
    r"^(on .{0,200}wrote:?|le .{0,200}a écrit ?:?|am .{0,200}schrieb .{0,80}:?|-+ ?original message ?-+|"
    r"_{5,}|from: .*|sent from my .*|-----.*)$", re.I)


class Inbox(Desk, Protocol):
    """What replies use of the service (which passes itself): besides the mails', its commands."""

    def act_as(self, game_id: str, seat: int, command: Any, *, cause: Cause,
               expected_seq: int | None = None) -> CommandResult: ...

    def say(self, game_id: str, seat: int, said: talk.Talk, *, cause: Cause) -> CommandResult: ...

    def declare_absence(self, game_id: str, seat: int, starts: Any, until: Any, reason: str = "",
                        share: bool = False, *, cause: Cause, now: datetime | None = None) -> CommandResult: ...

    def apply_standing_orders(self, game_id: str, limit: int = 20) -> list[CommandResult]: ...


class UnknownReply(Exception):
    """The message carries no valid token: nothing can be done with it."""


@dataclass
class Reply:
    sender: str
    message_id: str
    token: str
    commands: list[str] = field(default_factory=list)


class _TextFromHTML(HTMLParser):
    """Plain text from an HTML-only reply; quoted parts (blockquote, gmail_quote) are dropped."""

    BREAKS = {"br", "p", "div", "li", "tr", "h1", "h2", "h3", "table"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skip = 0
        self.depth_stack: list[bool] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        classes = " ".join(v or "" for k, v in attrs if k == "class")
        quoted = tag == "blockquote" or "quote" in classes or tag in ("style", "script", "head")
        if tag not in ("br", "img", "hr", "meta", "link", "input"):
            self.depth_stack.append(quoted)
            self.skip += quoted
        if tag in self.BREAKS:
            self.parts.append("\n")
        if tag == "a" and not self.skip:
            href = dict(attrs).get("href") or ""
            if "/play/" in href:
                self.parts.append(f" {href} ")

    def handle_endtag(self, tag: str) -> None:
        if tag not in ("br", "img", "hr", "meta", "link", "input") and self.depth_stack:
            self.skip -= self.depth_stack.pop()
        if tag in self.BREAKS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self.skip:
            self.parts.append(data)


def html_to_text(html: str) -> str:
    parser = _TextFromHTML()
    parser.feed(html)
    return "".join(parser.parts)


def body_text(message: EmailMessage) -> str:
    part = message.get_body(preferencelist=("plain",))
    if part is not None:
        return str(part.get_content())
    part = message.get_body(preferencelist=("html",))
    return html_to_text(str(part.get_content())) if part is not None else ""


def strip_quotes(text: str) -> list[str]:
    """The new lines of a reply: everything before the quote, the quote header or the signature."""
    kept: list[str] = []
    for line in text.replace("\r\n", "\n").split("\n"):
        bare = line.strip()
        if bare.startswith(">") or line == "-- " or bare == "--" or QUOTE_HEADER.match(bare):
            break
        kept.append(bare)
    return kept


def commands_of(lines: list[str]) -> list[str]:
    """The first block of non-empty lines: one command each."""
    found: list[str] = []
    for line in lines:
        if not line:
            if found:
                break
            continue
        found.append(line)
        if len(found) >= MAX_COMMANDS:
            break
    return found


def find_token(message: EmailMessage, reply_local: str, text: str) -> str | None:
    headers = []
    for name in ("To", "Cc", "Delivered-To", "X-Original-To", "Envelope-To"):
        headers += message.get_all(name, [])
    for _, address in getaddresses([str(h) for h in headers]):
        local = address.rsplit("@", 1)[0]
        prefix = f"{reply_local}+"
        if local.lower().startswith(prefix.lower()) and len(local) > len(prefix):
            return local[len(prefix):]
    match = re.search(r"/play/([A-Za-z0-9_.\-]+)", text)
    return match.group(1) if match else None


def parse_reply(raw: bytes, reply_address: str) -> Reply:
    """Read a reply mail; raises ``UnknownReply`` if it carries no token."""
    message = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(message, EmailMessage)
    text = body_text(message)
    full_text = text
    if not message.get_body(preferencelist=("plain",)):
        part = message.get_body(preferencelist=("html",))
        full_text += str(part.get_content()) if part is not None else ""
    token = find_token(message, reply_address.partition("@")[0], full_text)
    if not token:
        raise UnknownReply("this mail carries no game link: reply to a game mail, keeping its reply address")
    sender = getaddresses([str(message.get("From", ""))])[0][1]
    return Reply(sender=sender.lower(), message_id=str(message.get("Message-ID", "")).strip(), token=token,
                 commands=commands_of(strip_quotes(text)))


@dataclass
class Outcome:
    """What became of one reply: the commands applied, and the error that stopped the rest."""

    applied: list[str]
    error: str | None
    duplicate: bool = False  # this Message-ID was read before: nothing was done this time
    message_id: str = ""
    earlier_applied: int = 0  # for a duplicate: how many commands its first delivery applied

    @property
    def refused(self) -> bool:
        """Nothing could be applied (an illegal command, a stale one, none at all); a duplicate is not refused."""
        return not self.applied and not self.duplicate

    def summary(self) -> str:
        """One line for the operator: what was done."""
        if self.duplicate:
            then = "already applied" if self.earlier_applied else "already read, and refused then"
            return f"{then} (duplicate Message-ID {self.message_id}): nothing done"
        if not self.applied:
            return f"nothing applied: {self.error} (mailed back to the player)"
        done = f"applied {len(self.applied)} command(s)"
        return done + (f"; then refused: {self.error} (mailed back to the player)" if self.error else "")


def apply_reply(service: Inbox, reply: Reply) -> Outcome:
    """Apply a reply's commands in order; on the first error mail it back. Each message counts once."""
    if service.notifier is None:
        raise ServiceError("replies need the instance's secret key")
    try:
        claims = service.notifier.links.read_play(reply.token)
    except LinkError as err:
        raise UnknownReply(str(err)) from None
    refused = link_refusal(service.store, claims.game_id, claims.seat, claims.seq)
    if refused:  # the seat has another player now: nothing is applied, and nobody is mailed
        raise UnknownReply(refused)
    seen = service.store.query("SELECT applied FROM inbound_messages WHERE message_id = ?",
                               (reply.message_id,)) if reply.message_id else []
    if seen:  # the same message delivered twice: it was read once already
        return Outcome([], None, duplicate=True, message_id=reply.message_id,
                       earlier_applied=int(seen[0]["applied"] or 0))
    applied: list[str] = []
    error: str | None = None
    expected = claims.seq
    received = datetime.now(timezone.utc).isoformat(timespec="seconds")
    if not reply.commands:
        error = "the reply had no command in it (write each command on its own line, above the quoted mail)"
    names = [p["name"] for p in sorted(service.players(claims.game_id), key=lambda p: int(p["seat"]))]
    for text in reply.commands:
        detail = {**claims.cause(), "message_id": reply.message_id, "from": reply.sender, "received_at": received}
        try:
            mine = seatlife.parse_line(text)  # away ..., back, take back my seat, resign
            if mine is not None:
                seatlife.apply_line(service, claims.game_id, claims.seat, mine, cause=Cause("mail", detail))
                applied.append(text)
                continue
            said = talk.parse_line(text, names, claims.seat)  # say ..., tell NAME: ..., note ..., seal ...
            if said is not None:
                service.say(claims.game_id, claims.seat, said, cause=Cause("mail", detail))
                applied.append(text)
                continue
            service.act_as(claims.game_id, claims.seat, text, cause=Cause("mail", detail), expected_seq=expected)
        except StaleCommand:
            error = (f"the game has moved on since the mail you answered (your command {text!r} was not applied); "
                     "see the latest state below")
            break
        except (ActionError, ServiceError) as err:
            error = f"{text!r}: {err}"
            break
        applied.append(text)
        expected = service.load(claims.game_id).seq
    _record(service, reply, applied, error)
    if error is not None:
        _mail_error(service, claims.game_id, claims.seat, error)
    return Outcome(applied, error, message_id=reply.message_id)


def _record(service: Inbox, reply: Reply, applied: list[str], error: str | None) -> None:
    if not reply.message_id:
        return
    with service.store.transaction() as conn:
        write_row(conn, Row("inbound_messages", {
            "message_id": reply.message_id, "sender": reply.sender,
            "received_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "applied": len(applied), "error": error}, pk=("message_id",)))


def _mail_error(service: Inbox, game_id: str, seat: int, error: str) -> None:
    assert service.notifier is not None
    state = service.load(game_id)
    player = next(p for p in service.players(game_id) if p["seat"] == seat)
    prompt = service.kernel.rules(state).prompts(state.game).get(seat) if not state.ended else None
    rows = service.notifier.compose(service, state, [], player, "reply_error", prompt, extra={"error": error})
    with service.store.transaction() as conn:
        for row in rows:
            write_row(conn, row)


def process(service: Inbox, raw: bytes, reply_address: str) -> Outcome:
    return apply_reply(service, parse_reply(raw, reply_address))


@dataclass
class MaildirReport:
    """What reading a Maildir did, message by message, counted."""

    read: int = 0
    applied: int = 0  # messages with at least one command applied
    duplicates: int = 0
    refused: int = 0  # a game link, but nothing applied: the reason was mailed back
    unknown: int = 0  # no valid game link: dropped

    def summary(self) -> str:
        return (f"{self.read} messages read: {self.applied} applied, {self.duplicates} duplicate(s), "
                f"{self.refused} refused, {self.unknown} without a valid game link")


def process_maildir(service: Inbox, folder: Path) -> MaildirReport:
    """Read every message in a Maildir once; each is removed after it was recorded."""
    box = mailbox.Maildir(folder, create=False)
    report = MaildirReport()
    reply_address = service.notifier.reply_address if service.notifier else "play@localhost"
    for key in list(box.keys()):
        raw = box.get_bytes(key)
        try:
            outcome = apply_reply(service, parse_reply(raw, reply_address))
        except UnknownReply:
            report.unknown += 1  # nothing to do with it; a real mailbox gets spam too
        else:
            report.duplicates += outcome.duplicate
            report.refused += outcome.refused
            report.applied += bool(outcome.applied)
        box.remove(key)
        report.read += 1
    return report
