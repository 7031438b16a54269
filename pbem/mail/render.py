"""Rendering mails from ``templates/mail``: a plain-text part readable on its own, and an HTML part."""

from __future__ import annotations

import uuid
from email.message import EmailMessage
from email.utils import format_datetime, formataddr
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Mapping

import jinja2

TEMPLATES = Path(__file__).resolve().parent.parent.parent / "templates"


def environment() -> jinja2.Environment:
    """The Jinja2 environment of mails and pages; HTML is autoescaped, text is not."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=jinja2.select_autoescape(enabled_extensions=("html",), default_for_string=False),
        trim_blocks=True, lstrip_blocks=True, undefined=jinja2.StrictUndefined,
    )
    env.filters["label"] = lambda key: str(key).replace("_", " ")
    env.tests["mapping"] = lambda value: isinstance(value, Mapping)
    env.tests["sequence"] = lambda value: isinstance(value, (list, tuple))
    return env


def domain_of(address: str) -> str:
    return address.rsplit("@", 1)[-1].strip(" >") or "localhost"


def build(env: jinja2.Environment, template: str, context: Mapping[str, Any], *, sender: str, to: str,
          subject: str, thread_root: str, first: bool, reply_to: str | None,
          unsubscribe_url: str | None) -> tuple[str, str]:
    """Render ``mail/TEMPLATE.txt`` and ``.html`` into an RFC 5322 message; returns (Message-ID, message text)."""
    text = env.get_template(f"mail/{template}.txt").render(**context)
    html = env.get_template(f"mail/{template}.html").render(**context)
    message = EmailMessage()
    message["From"] = sender
    message["To"] = to
    message["Subject"] = subject
    message["Date"] = format_datetime(datetime.now(timezone.utc))
    # short enough never to be folded: some mail programs lose a folded Message-ID
    message_id = thread_root if first else f"<{uuid.uuid4().hex[:20]}@{domain_of(sender)}>"
    message["Message-ID"] = message_id
    if not first:
        message["In-Reply-To"] = thread_root
        message["References"] = thread_root
    if reply_to:
        message["Reply-To"] = reply_to
    if unsubscribe_url:
        message["List-Unsubscribe"] = f"<{unsubscribe_url}>"
        message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    message["Auto-Submitted"] = "auto-generated"
    message.set_content(text)
    message.add_alternative(html, subtype="html")
    return message_id, message.as_string()


def address(name: str, email: str) -> str:
    return formataddr((name, email))
