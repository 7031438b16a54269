"""The file mailbox in the browser (dev mode only): every mail sent, newest first, with its links clickable.

It shows every player's mail and links, so by default it answers only requests from this machine:
from a loopback address, and not passed on by a reverse proxy (which connects from loopback
itself, and says so with ``X-Forwarded-For`` or ``Forwarded``). The app does not rewrite the
client's address from those headers (no ``ProxyFix``), so a client cannot forge a loopback one.
``dev_mail_remote`` opens it to every address; it is for development, never production.
"""

from __future__ import annotations

import ipaddress
import re
from email import policy
from email.message import EmailMessage
from email.parser import BytesHeaderParser, BytesParser
from functools import lru_cache
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, abort, render_template, request
from markupsafe import Markup, escape

from pbem.instance import config
from pbem.web.common import settings

bp = Blueprint("dev", __name__, url_prefix="/dev")

NAME = re.compile(r"^[A-Za-z0-9_\-]{1,100}\.eml$")
URL = re.compile(r"https?://[^\s<>\"']+")


PROXY_HEADERS = ("X-Forwarded-For", "X-Real-IP", "Forwarded")


@bp.before_request
def dev_only() -> None:
    if not settings().dev:
        abort(404)
    if not settings()["dev_mail_remote"] and not from_this_machine():
        abort(404)  # the same page as outside dev mode: it tells nothing


def from_this_machine() -> bool:
    """The request came straight from a loopback address (127.0.0.0/8, ::1), not through a proxy."""
    if any(name in request.headers for name in PROXY_HEADERS):
        return False
    try:
        address = ipaddress.ip_address(request.remote_addr or "")
    except ValueError:  # no address at all, e.g. a Unix socket
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped.is_loopback
    return address.is_loopback


def notice(served: config.Settings) -> str:
    """Where the dev mailbox is, and who may see it: a line for ``pbem serve``'s start output."""
    if not served.dev:
        return "Dev mailbox: off (dev_mode)"
    if served["dev_mail_remote"]:
        return (f"Dev mailbox: {served['base_url']}/dev/mail (open to every address that reaches this server: "
                "dev_mail_remote is on; development only)")
    local = config.loopback_url(str(served["host"]), int(served["port"]))
    if local is None:
        return (f"Dev mailbox: this machine only, over loopback, but the server listens on {served['host']} only, "
                "so it is out of reach (listen on 127.0.0.1 or 0.0.0.0, or set dev_mail_remote = true)")
    return f"Dev mailbox: {local}/dev/mail (this machine only)"


def mail_files() -> list[Path]:
    folder = settings().mailbox
    if not folder.is_dir():
        return []
    found = [p for p in folder.iterdir() if NAME.match(p.name) and p.is_file()]
    return sorted(found, key=lambda p: (p.stat().st_mtime_ns, p.name), reverse=True)


def read_mail(path: Path) -> EmailMessage:
    with open(path, "rb") as handle:
        message: EmailMessage = BytesParser(policy=policy.default).parse(handle)
        return message


def unfolded(message: EmailMessage, name: str) -> str:
    """A header's value on one line, as a mail client shows it (a long one is folded over lines in the file)."""
    return " ".join(str(message.get(name, "")).split())


def part(message: EmailMessage, subtype: str) -> str:
    body = message.get_body(preferencelist=(subtype,))
    return str(body.get_content()) if body is not None and body.get_content_subtype() == subtype else ""


def linked(text: str) -> Markup:
    """Plain text, escaped, with every URL made a link."""
    pieces: list[str] = []
    last = 0
    for match in URL.finditer(text):
        pieces.append(str(escape(text[last:match.start()])))
        url = escape(match.group(0))
        pieces.append(f'<a href="{url}">{url}</a>')
        last = match.end()
    pieces.append(str(escape(text[last:])))
    return Markup("".join(pieces))


def find(name: str) -> Path:
    if not NAME.match(name):
        abort(404)
    path = settings().mailbox / name
    if not path.is_file():
        abort(404)
    return path


@bp.get("/mail")
def mailbox() -> Any:
    mails = []
    for path in mail_files():
        stat = path.stat()
        mails.append({"name": path.name, **listed(path, stat.st_mtime_ns, stat.st_size)})
    return render_template("web/dev_mail.html", mails=mails, folder=str(settings().mailbox))


@lru_cache(maxsize=4096)
def listed(path: Path, mtime_ns: int, size: int) -> dict[str, str]:
    """A mail's line in the list: its headers only, read once while the file stays as it is (the list is read again
    after every move, and a game's mailbox holds hundreds of mails)."""
    with open(path, "rb") as handle:
        message = BytesHeaderParser(policy=policy.default).parse(handle)
    return {name.lower(): unfolded(message, name) for name in ("To", "Subject", "Date")}


@bp.get("/mail/<name>")
def mail(name: str) -> Any:
    message = read_mail(find(name))
    headers = [(k, unfolded(message, k)) for k in ("From", "To", "Subject", "Date", "Reply-To",
                                                   "Message-ID", "In-Reply-To", "List-Unsubscribe")]
    return render_template("web/dev_mail_one.html", name=name, headers=[h for h in headers if h[1]],
                           text=linked(part(message, "plain")), has_html=bool(part(message, "html")))


@bp.get("/mail/<name>/html")
def mail_html(name: str) -> Any:
    html = part(read_mail(find(name)), "html")
    if not html:
        abort(404)
    return Response(html, mimetype="text/html")
