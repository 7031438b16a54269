"""Replies by mail: find the game and seat from the signed token, read the commands, apply them.

A reply to a talk mail (its token made for talk, ``Links.talk``) is no command: the player's words, the quote cut
off, are recorded as a message to the table, or to the writer the token names (``pbem.post.talk_mail``).

The token travels in the reply address (``play+TOKEN@...``) or, if a mail program drops the
``+`` part, in the play link of the quoted mail. The commands are the lines the player wrote
(``pbem.post.mail.replytext``: quotes, greetings and signatures cut off, however the mail program quotes),
applied in order through the same service path as a web form, stopping at the first error, which is
mailed back with what was applied and the legal choices.
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
from pathlib import Path
from typing import Any, Protocol

from events.handling import Cause, CommandResult, StaleCommand
from events.rules import ActionError
from events.store import Row, write_row
from pbem.table import seatlife, talk
from pbem.instance.links import LinkError, TalkClaims
from pbem.post import undelivered
from pbem.post.mail import bounces, inbound_claims
from pbem.post.mail.replytext import commands_of, new_lines, written_text
from pbem.table.replacing import link_refusal
from pbem.errors import ServiceError
from pbem.post.desk import Desk


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
    words: str = ""  # every line the player wrote, as one paragraph: a reply to a talk mail says it at the table


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
    """Read a reply mail; raises ``UnknownReply`` if it carries no token, or was written by a machine."""
    message = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(message, EmailMessage)
    automatic = str(message.get("Auto-Submitted", "no")).strip().lower()
    if automatic != "no" or message.get("X-Autoreply") or message.get("X-Autorespond") \
            or str(message.get("Precedence", "")).strip().lower() in ("auto_reply", "bulk", "junk"):
        # an out-of-office answer (RFC 3834): read as commands, it would be answered with an error, and so on
        raise UnknownReply("an automatic answer (out of office, an autoresponder): not read as commands")
    text = written_text(message)
    full_text = text
    if not message.get_body(preferencelist=("plain",)):
        part = message.get_body(preferencelist=("html",))
        full_text += str(part.get_content()) if part is not None else ""
    token = find_token(message, reply_address.partition("@")[0], full_text)
    if not token:
        raise UnknownReply("this mail carries no game link: reply to a game mail, keeping its reply address")
    sender = getaddresses([str(message.get("From", ""))])[0][1]
    written = new_lines(text)
    return Reply(sender=sender.lower(), message_id=str(message.get("Message-ID", "")).strip(), token=token,
                 commands=commands_of(written), words=" ".join(line for line in written if line))


@dataclass
class Outcome:
    """What became of one reply: the commands applied, and the error that stopped the rest."""

    applied: list[str]
    error: str | None
    duplicate: bool = False  # this Message-ID was read before: nothing was done this time
    message_id: str = ""
    earlier_applied: int = 0  # for a duplicate: how many commands its first delivery applied
    busy: bool = False  # another reader is applying this message now: left to it

    @property
    def refused(self) -> bool:
        """Nothing could be applied (an illegal command, a stale one, none at all); a duplicate is not refused."""
        return not self.applied and not self.duplicate and not self.busy

    def summary(self) -> str:
        """One line for the operator: what was done."""
        if self.busy:
            return f"being read by another process (Message-ID {self.message_id}): left to it"
        if self.duplicate:
            then = "already applied" if self.earlier_applied else "already read, and refused then"
            return f"{then} (duplicate Message-ID {self.message_id}): nothing done"
        if not self.applied:
            return f"nothing applied: {self.error} (mailed back to the player)"
        done = f"applied {len(self.applied)} command(s)"
        return done + (f"; then refused: {self.error} (mailed back to the player)" if self.error else "")


def apply_reply(service: Inbox, reply: Reply, *, claim_seconds: float = inbound_claims.CLAIM_SECONDS) -> Outcome:
    """Apply a reply's commands in order; on the first error mail it back. Each message counts once.

    A message with a Message-ID is claimed first (``pbem.post.mail.inbound_claims``): read once however many readers
    meet it, and finished, not repeated, by the next reader if its first reader died while applying it.
    """
    if service.notifier is None:
        raise ServiceError("replies need the instance's secret key")
    try:
        answer = service.notifier.links.read_talk(reply.token)
    except LinkError:
        answer = None
    if answer is not None:
        return answer_talk(service, reply, answer, claim_seconds=claim_seconds)
    try:
        claims = service.notifier.links.read_play(reply.token)
    except LinkError as err:
        raise UnknownReply(str(err)) from None
    refused = link_refusal(service.store, claims.game_id, claims.seat, claims.seq)
    if refused:  # the seat has another player now: nothing is applied, and nobody is mailed
        raise UnknownReply(refused)
    expected = claims.seq
    commands = list(enumerate(reply.commands, start=1))
    applied: list[str] = []
    if reply.message_id:
        held = inbound_claims.claim(service.store, reply.message_id, inbound_claims.owner(), seconds=claim_seconds)
        if held is inbound_claims.Claim.DONE:  # the same message delivered twice: it was read once already
            seen = service.store.query("SELECT applied FROM inbound_messages WHERE message_id = ?",
                                       (reply.message_id,))
            return Outcome([], None, duplicate=True, message_id=reply.message_id,
                           earlier_applied=int(seen[0]["applied"] or 0) if seen else 0)
        if held is inbound_claims.Claim.BUSY:
            return Outcome([], None, message_id=reply.message_id, busy=True)
        if held is inbound_claims.Claim.TAKEN_OVER:  # its reader died: go on after what it applied
            done = inbound_claims.earlier(service.store, claims.game_id, claims.seq, reply.message_id)
            applied = [text for number, text in commands[:done.lines]]
            commands = commands[done.lines:]
            expected = done.last_seq or expected
    error: str | None = None
    received = datetime.now(timezone.utc).isoformat(timespec="seconds")
    if not reply.commands:
        error = "the reply had no command in it (write each command on its own line, above the quoted mail)"
    names = [p["name"] for p in sorted(service.players(claims.game_id), key=lambda p: int(p["seat"]))]
    for line, text in commands:
        detail = {**claims.cause(), "message_id": reply.message_id, "from": reply.sender, "received_at": received,
                  "line": line}
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
    if error is not None:  # the player reads what was understood, the error, and (in the mail) the legal commands
        done_text = f" (the lines before it were applied: {', '.join(repr(a) for a in applied)})" if applied else ""
        _mail_error(service, claims.game_id, claims.seat, error + done_text)
    return Outcome(applied, error, message_id=reply.message_id)


def answer_talk(service: Inbox, reply: Reply, answer: TalkClaims, *,
                claim_seconds: float = inbound_claims.CLAIM_SECONDS) -> Outcome:
    """Record a reply to a talk mail as a message from its seat (to the table, or to the writer the token names);
    a reply that cannot be said (no words, the game over) is mailed back. Each message counts once."""
    refused = link_refusal(service.store, answer.game_id, answer.seat, answer.seq)
    if refused:  # the seat has another player now: their words are not the new player's
        raise UnknownReply(refused)
    if reply.message_id:
        held = inbound_claims.claim(service.store, reply.message_id, inbound_claims.owner(), seconds=claim_seconds)
        if held is inbound_claims.Claim.BUSY:
            return Outcome([], None, message_id=reply.message_id, busy=True)
        if held is inbound_claims.Claim.DONE:  # the same message delivered twice: it was read once already
            seen = service.store.query("SELECT applied FROM inbound_messages WHERE message_id = ?",
                                       (reply.message_id,))
            return Outcome([], None, duplicate=True, message_id=reply.message_id,
                           earlier_applied=int(seen[0]["applied"] or 0) if seen else 0)
        if held is inbound_claims.Claim.TAKEN_OVER and _said_already(service, answer.game_id, reply.message_id):
            _record(service, reply, [reply.words], None)  # its reader died after saying it: only mark it read
            return Outcome([reply.words], None, message_id=reply.message_id)
    detail = {**answer.cause(), "message_id": reply.message_id, "from": reply.sender,
              "received_at": datetime.now(timezone.utc).isoformat(timespec="seconds")}
    error: str | None = None
    try:
        said = talk.Talk("say", talk.words(reply.words), (answer.to,) if answer.to is not None else None)
        service.say(answer.game_id, answer.seat, said, cause=Cause("mail", detail))
    except (ActionError, ServiceError) as err:
        error = f"your reply could not be said at the table: {err}"
    applied = [reply.words] if error is None else []
    _record(service, reply, applied, error)
    if error is not None:
        _mail_error(service, answer.game_id, answer.seat, error)
    return Outcome(applied, error, message_id=reply.message_id)


def _said_already(service: Inbox, game_id: str, message_id: str) -> bool:
    """Whether a message of the game was recorded from this mail (its reader died before marking the mail read)."""
    return any(e.type == talk.SAID and e.cause.get("message_id") == message_id
               for e in service.store.read(game_id, max(0, service.store.last(game_id)[0] - 50)))


def _record(service: Inbox, reply: Reply, applied: list[str], error: str | None) -> None:
    if not reply.message_id:
        return
    with service.store.transaction() as conn:
        write_row(conn, Row("inbound_messages", {
            "message_id": reply.message_id, "sender": reply.sender,
            "received_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "applied": len(applied), "error": error}, pk=("message_id",)))
        inbound_claims.release(conn, reply.message_id)


def _mail_error(service: Inbox, game_id: str, seat: int, error: str) -> None:
    assert service.notifier is not None
    state = service.load(game_id)
    player = next(p for p in service.players(game_id) if p["seat"] == seat)
    prompt = service.kernel.rules(state).prompts(state.game).get(seat) if not state.ended else None
    rows = service.notifier.compose(service, state, player, "reply_error", prompt, extra={"error": error})
    with service.store.transaction() as conn:
        for row in rows:
            write_row(conn, row)


def process(service: Inbox, raw: bytes, reply_address: str) -> Outcome | bounces.Noticed:
    """Read one message from a pipe: a delivery report is noticed, anything else applied as a reply.

    :raises UnknownReply: a message that is neither a report nor carries a valid game link.
    """
    noticed = notice(service, raw)
    if noticed is not None:
        return noticed
    return apply_reply(service, parse_reply(raw, reply_address))


def notice(service: Inbox, raw: bytes) -> bounces.Noticed | None:
    """Notice a delivery report (None: the message is none), and tell the tables of the addresses it marked."""
    noticed = bounces.read_and_notice(service.store, raw, bounce_address(service))
    if noticed is not None and noticed.marked:
        undelivered.tell(service)
    return noticed


def bounce_address(service: Inbox) -> str:
    settings = getattr(service, "settings", None)
    return str(settings["bounce_address"]) if settings is not None else ""


@dataclass
class Report:
    """What reading a mailbox (a Maildir, an IMAP folder) did, message by message, counted."""

    read: int = 0
    applied: int = 0  # messages with at least one command applied
    duplicates: int = 0
    refused: int = 0  # a game link, but nothing applied: the reason was mailed back
    unknown: int = 0  # no valid game link: dropped
    busy: int = 0  # being read by another process: left to it
    reports: int = 0  # delivery reports (bounces), noticed

    def count(self, outcome: Outcome | bounces.Noticed | None) -> None:
        """Count one message read: its outcome, or None for one without a valid game link."""
        self.read += 1
        if outcome is None:
            self.unknown += 1
            return
        if isinstance(outcome, bounces.Noticed):
            self.reports += 1
            return
        self.duplicates += outcome.duplicate
        self.refused += outcome.refused
        self.applied += bool(outcome.applied)
        self.busy += outcome.busy

    def summary(self) -> str:
        return (f"{self.read} messages read: {self.applied} applied, {self.duplicates} duplicate(s), "
                f"{self.refused} refused, {self.unknown} without a valid game link"
                + (f", {self.reports} delivery report(s)" if self.reports else "")
                + (f", {self.busy} left to another reader" if self.busy else ""))


def read_message(service: Inbox, raw: bytes, reply_address: str, *, fallback_id: str = "",
                 claim_seconds: float = inbound_claims.CLAIM_SECONDS) -> Outcome | bounces.Noticed | None:
    """Read one message that arrived by any route: a delivery report is noticed (``pbem.post.mail.bounces``), a reply
    applied; None if it is neither (no valid game link).

    ``fallback_id`` identifies a message that has no Message-ID of its own (an IMAP folder's UID), so that it too
    is read once.
    """
    noticed = notice(service, raw)
    if noticed is not None:
        return noticed
    try:
        reply = parse_reply(raw, reply_address)
    except UnknownReply:
        return None
    if not reply.message_id and fallback_id:
        reply = Reply(reply.sender, fallback_id, reply.token, reply.commands, reply.words)
    try:
        return apply_reply(service, reply, claim_seconds=claim_seconds)
    except UnknownReply:
        return None


def process_maildir(service: Inbox, folder: Path) -> Report:
    """Read every message in a Maildir once; each is removed after it was recorded (left if another reader has
    it)."""
    box = mailbox.Maildir(folder, create=False)
    report = Report()
    reply_address = service.notifier.reply_address if service.notifier else "play@localhost"
    for key in list(box.keys()):
        outcome = read_message(service, box.get_bytes(key), reply_address)
        report.count(outcome)  # a mail without a game link: nothing to do with it; a real mailbox gets spam too
        if not isinstance(outcome, Outcome) or not outcome.busy:
            box.remove(key)
    return report
