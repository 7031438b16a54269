"""Rendering mails from ``templates/mail``: a plain-text part readable on its own, and an HTML part."""

from __future__ import annotations

import re
import uuid
from functools import lru_cache
from email.headerregistry import Address
from email.utils import format_datetime
from datetime import datetime
from pathlib import Path
from typing import Any, Mapping

import jinja2

from pbem.instance.times import utc
from pbem.post.mail.mime import assemble
from pbem.instance.times import reader_time
from pbem.games.presentation import present
from pbem.proof.witness import HEADER as WITNESS_HEADER, header_value

TEMPLATES = Path(__file__).resolve().parents[3] / "templates"


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    """The Jinja2 environment of mails; HTML is autoescaped, text is not.

    One per process, so that each template is compiled once, not once per request.
    """
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=jinja2.select_autoescape(enabled_extensions=("html",), default_for_string=False),
        trim_blocks=True, lstrip_blocks=True, undefined=jinja2.StrictUndefined,
    )
    env.filters["label"] = lambda key: str(key).replace("_", " ")
    env.filters["utc"] = reader_time  # the reader's zone (``tz``) and UTC
    env.filters["utc_only"] = utc     # the record: the log's lines
    env.filters["unnumbered"] = unnumbered
    env.globals["present"] = present
    env.tests["mapping"] = lambda value: isinstance(value, Mapping)
    env.tests["sequence"] = lambda value: isinstance(value, (list, tuple))
    return env


def unnumbered(line: str) -> str:
    """A "since your last mail" line without its event number: players count turns, not events."""
    return re.sub(r"^[0-9]+\. ", "", str(line))


def domain_of(address: str) -> str:
    return address.rsplit("@", 1)[-1].strip(" >") or "localhost"


def new_message_id(sender: str) -> str:
    # short enough never to be folded: some mail programs lose a folded Message-ID
    return f"<{uuid.uuid4().hex[:20]}@{domain_of(sender)}>"


def build(draft: Mapping[str, Any]) -> str:
    """Render a mail's draft (written with the command) into an RFC 5322 message: a text and an HTML part.

    Rendering happens when the mail is sent, off the player's request; the draft holds
    everything the mail says, fixed at the moment of the move.
    """
    env = environment()
    template, context = draft["template"], draft["context"]
    scenes: dict[tuple[str, int], Any] = {}

    def present_once(game_type: Any, view: Any) -> Any:  # the board drawn once for both parts
        key = (str(game_type), id(view))
        if key not in scenes:
            scenes[key] = present(game_type, view)
        return scenes[key]

    text = env.get_template(f"mail/{template}.txt").render(**context, present=present_once)
    html = env.get_template(f"mail/{template}.html").render(**context, present=present_once)
    headers = [("From", draft["sender"]), ("To", draft["to"]), ("Subject", draft["subject"]),
               ("Date", format_datetime(datetime.fromisoformat(draft["date"]))), ("Message-ID", draft["message_id"])]
    if draft["message_id"] != draft["thread_root"]:
        headers += [("In-Reply-To", draft["thread_root"]), ("References", draft["thread_root"])]
    if draft.get("reply_to"):
        headers.append(("Reply-To", draft["reply_to"]))
    witness = context.get("witness")
    if witness:  # the chain head when the mail was written: the player's own proof of the log (pbem.proof.witness)
        headers.append((WITNESS_HEADER, header_value(witness["game_id"], witness["seq"], witness["hash"])))
    if context.get("game_id") and context.get("title"):  # one list per game: mail programs filter and mute by it
        headers.append(("List-Id", f"{context['title']} <{context['game_id']}.pbem.{domain_of(draft['sender'])}>"))
    elif draft.get("list"):  # a mail of no one game (the digest): its own list
        name, key = draft["list"]
        headers.append(("List-Id", f"{name} <{key}.pbem.{domain_of(draft['sender'])}>"))
    if draft.get("unsubscribe_url"):
        headers += [("List-Unsubscribe", f"<{draft['unsubscribe_url']}>"),
                    ("List-Unsubscribe-Post", "List-Unsubscribe=One-Click")]
    elif draft.get("settings_url"):  # no one-click: the link opens the page where the player chooses their mails
        headers.append(("List-Unsubscribe", f"<{draft['settings_url']}>"))
    headers.append(("Auto-Submitted", "auto-generated"))
    return assemble(headers, text, html)


def address(name: str, email: str) -> str:
    """A display name and an address as a header value: the name quoted where it must be, nothing encoded yet
    (``pbem.post.mail.mime`` encodes what the wire needs, and writes the domain in IDNA)."""
    local, _, domain = email.rpartition("@")
    return str(Address(display_name=name, username=local, domain=domain))
