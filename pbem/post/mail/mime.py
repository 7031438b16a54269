"""A mail's MIME text, written directly: a ``multipart/alternative`` of a plain-text and an HTML part.

The standard library's ``EmailMessage`` builds the same message, but its header registry and folding
took about three quarters of a mail's rendering (3.7 of 4.6 ms for an Emerald turn mail); a mail of
ours always has the same shape, so it is written here in a tenth of that:

* headers: ASCII values are written as they are (none of ours is near the 998-octet line limit);
  in a value with other characters each run of such words becomes RFC 2047 encoded words (UTF-8, Q) and
  the plain words stay plain, folded at 76 columns; an address's display name is encoded whole
  (``email.utils.formataddr``);
* each part: UTF-8, quoted-printable (``binascii.b2a_qp``: lines of at most 76 characters, so a long
  HTML line reaches every server intact, and plain ASCII text stays readable in the raw message).

``tests/test_mail.py`` parses what is written here with the standard library's parser and checks every
header and both parts.
"""

from __future__ import annotations

import binascii
import uuid
from email import quoprimime
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
    width = min(75, 76 - len(name) - 2)  # an encoded word fits on the header's first line too
    tokens: list[str] = []  # plain words stay plain (readable in the raw mail); each run of other words encoded
    run: list[str] = []
    for word in value.split(" "):
        if word.isascii() and "=?" not in word:
            if run:
                tokens += _encoded_words(" ".join(run), width)
                run = []
            tokens.append(word)
        else:
            run.append(word)
    if run:
        tokens += _encoded_words(" ".join(run), width)
    lines = [f"{name}:"]
    for token in tokens:  # folded between tokens at 76 columns
        if len(lines[-1]) + 1 + len(token) > 76 and lines[-1] != f"{name}:":
            lines.append("")
        lines[-1] += " " + token
    return "\n".join(lines)


def _encoded_words(text: str, width: int) -> list[str]:
    """``text`` as RFC 2047 encoded words (UTF-8, Q encoding) of at most ``width`` characters each, split between
    characters; the whitespace between them is not part of the text when read back."""
    words: list[str] = []
    chunk = ""
    for char in text:
        if chunk and len(quoprimime.header_encode((chunk + char).encode("utf-8"), "utf-8")) > width:
            words.append(quoprimime.header_encode(chunk.encode("utf-8"), "utf-8"))
            chunk = ""
        chunk += char
    if chunk:
        words.append(quoprimime.header_encode(chunk.encode("utf-8"), "utf-8"))
    return words

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
