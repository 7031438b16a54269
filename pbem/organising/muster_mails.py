"""The mails a muster sends: the invitations, the organiser's news and the notices to invitees
(``templates/mail/notice``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, Mapping, Protocol, Sequence

from events.envelope import Event
from events.store import Row
from pbem.post.mail.outbox import mail_rows
from pbem.post.mail.render import address, new_message_id
from pbem.organising.muster_events import INVITED
from pbem.organising.organisers import described
from pbem.table.naming import default_name

if TYPE_CHECKING:
    from pbem.post.notify import Notifier

FROM_POSITION = ("The game begins from a position the organiser set up (a game to go on with, or a situation to "
                 "play), not from a new deal.")


class Mailer(Protocol):
    """What a muster's mails need of the service: its notifier (none: no mail is written)."""

    notifier: Notifier | None


@dataclass(frozen=True)
class Head:
    """What every mail of a muster names: its id, the game's title, the organiser, the players' names, and what the
    invitations say of the game (its type, name, options and data)."""

    muster_id: str
    title: str
    organiser: str
    organiser_name: str
    names: list[str]
    options: Mapping[str, Any] = field(default_factory=dict)
    from_position: bool = False
    game_type: str = ""
    name: str | None = None  # the organiser's name for the game; None: named after the game and its players
    data_override: Mapping[str, Any] | None = None

    def called(self) -> str:
        """The game's name as the mails give it: the organiser's, or the game and its players."""
        return self.name or (default_name(self.game_type, self.title, self.names) if self.game_type else self.title)


def listed(names: Sequence[str]) -> str:
    """``Ann, Ben and Cy``."""
    return " and ".join([", ".join(names[:-1]), names[-1]]) if len(names) > 1 else "".join(names)


def shown_time(stamp: str) -> str:
    """An ISO time as a mail shows it: ``2026-11-30 16:25 UTC``."""
    return stamp.replace("T", " ")[:16] + " UTC"


def invitation_mails(host: Mailer, head: Head, events: Sequence[Event]) -> list[Row | None]:
    """The invitation of each ``pbem.MusterInvited`` among the events: its link names the event's seq."""
    notifier = host.notifier
    if notifier is None:
        return []
    rows: list[Row | None] = []
    for event in (e for e in events if e.type == INVITED):
        p = event.payload
        token = notifier.links.make("invite", f"{head.muster_id}.{p['slot']}.{event.seq}")
        url = f"{notifier.base_url}/invitation/{token}"
        others = [n for i, n in enumerate(head.names) if i != p["slot"]]
        rows.append(notice(host, head.muster_id, p["name"], p["email"], f"Invitation: {head.called()}", [
            f"{head.organiser_name} invites you to play {head.title} by mail, with {listed(others)}: "
            f"\u201c{head.called()}\u201d.",
            f"Answer by {shown_time(p['expires_at'])}. The game starts when everyone has accepted; then each turn "
            "comes to you by mail, with a link to play it on the web or to answer by reply.",
            f"The other players see your name, {p['name']}, never your address.",
            *([FROM_POSITION] if head.from_position else []),
        ], [("Accept", f"{url}?answer=accept"), ("Decline", f"{url}?answer=decline")],
            footer="Following a link only shows the invitation; you answer with the button on its page.",
            facts=[("Game", head.title)] + described(head.game_type, head.options, head.data_override)))
    return rows


def organiser_mail(host: Mailer, head: Head, heading: str, paragraphs: list[str],
                   actions: list[tuple[str, str]] | None = None) -> Row | None:
    notifier = host.notifier
    if notifier is None:
        return None
    page = f"{notifier.base_url}/muster/{notifier.links.make('muster', head.muster_id)}"
    return notice(host, head.muster_id, head.organiser_name, head.organiser, heading, paragraphs,
                  (actions or []) + [("The muster page", page)])


def notice(host: Mailer, muster_id: str, name: str, email: str, heading: str, paragraphs: list[str],
           actions: list[tuple[str, str]] | None = None, footer: str = "",
           facts: Sequence[tuple[str, str]] = ()) -> Row | None:
    """One short mail (``templates/mail/notice``): a heading, a few paragraphs, facts (a label and its words each),
    links as buttons."""
    notifier = host.notifier
    if notifier is None:
        return None
    stamp = datetime.now(timezone.utc).isoformat(timespec="microseconds")
    subject = f"[pbem] {heading}"
    message_id = new_message_id(notifier.sender)
    context = {"heading": heading, "name": name, "paragraphs": paragraphs, "footer": footer,
               "facts": [{"label": label, "words": words} for label, words in facts],
               "actions": [{"label": label, "url": url} for label, url in actions or []]}
    draft = {"template": "notice", "context": context, "sender": notifier.sender, "subject": subject,
             "to": address(name, email), "message_id": message_id, "thread_root": message_id, "reply_to": None,
             "date": stamp, "unsubscribe_url": None, "list": ("Game invitations", "muster")}
    return next(iter(mail_rows(game_id=muster_id, seat=None, to_addr=email, kind="muster", subject=subject,
                               message_id=message_id, draft=draft, now=stamp)), None)
