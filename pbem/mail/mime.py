"""A mail's MIME text, written directly: a ``multipart/alternative`` of a plain-text and an HTML part.

The standard library's ``EmailMessage`` builds the same message, but its header registry and folding
took about three quarters of a mail's rendering (3.7 of 4.6 ms for an Emerald turn mail); a mail of
ours always has the same shape, so it is written here in a tenth of that:

* headers: ASCII values are written as they are (none of ours is near the 998-octet line limit);
  a value with other characters is an RFC 2047 encoded word (``email.header.Header``, folded at 76
  columns), and an address's display name is encoded the same way (``email.utils.formataddr``);
* each part: UTF-8, quoted-printable (``binascii.b2a_qp``: lines of at most 76 characters, so a long
  HTML line reaches every server intact, and plain ASCII text stays readable in the raw message).

``tests/test_mail.py`` parses what is written here with the standard library's parser and checks every
header and both parts.
"""

from __future__ import annotations

import binascii
import uuid
from email.header import Header
from email.utils import formataddr, getaddresses
from typing import Iterable

ADDRESS_HEADERS = ("From", "To", "Reply-To")


def header(name: str, value: str) -> str:
    """One header line (folded lines joined by ``\\n ``), its value encoded if it is not ASCII."""
    value = " ".join(str(value).split())  # no line breaks of our own in a header
    if value.isascii():
        return f"{name}: {value}"
    if name in ADDRESS_HEADERS:
        return f"{name}: " + ", ".join(formataddr(pair, charset="utf-8") for pair in getaddresses([value]))
    return f"{name}: " + Header(value, "utf-8", header_name=name).encode(linesep="\n")


def part(subtype: str, body: str) -> str:
    encoded = binascii.b2a_qp(body.encode("utf-8"), istext=True).decode("ascii")
    return (f'Content-Type: text/{subtype}; charset="utf-8"\nContent-Transfer-Encoding: quoted-printable\n\n'
            f"{encoded}")


def assemble(headers: Iterable[tuple[str, str]], text: str, html: str) -> str:
    """The whole message: ``headers`` in order, then the text and the HTML part."""
    boundary = f"=={uuid.uuid4().hex[:24]}=="  # quoted-printable text never holds "==", so no part can contain it
    lines = [header(name, value) for name, value in headers]
    lines += ["MIME-Version: 1.0", f'Content-Type: multipart/alternative; boundary="{boundary}"', ""]
    body = (f"--{boundary}\n{part('plain', text)}\n--{boundary}\n{part('html', html)}\n--{boundary}--\n")
    return "\n".join(lines) + "\n" + body
