"""The MIME text of a mail (``pbem.post.mail.mime``, built with the standard library's ``email`` package) reads back as the
message ``email.message.EmailMessage`` builds from the same headers and parts, with plain words left readable."""

from __future__ import annotations

import email
import email.policy
from email.header import decode_header, make_header
from email.message import EmailMessage
from email.utils import getaddresses

import pytest

from pbem.post.mail.mime import assemble
from pbem.post.mail.render import address

NAMES = {address(name, "zoe@example.org"): name for name in ("Zoë O'Brien, Jr.",)}  # encoded by ``address``

TEXT = ("Hello Zoë,\n\nIt is your move.  \n" + "x" * 300 + "\n.\n.starts with a dot\nFrom here on\n"
        "a = b; c == d; =3D is not an escape\n\ttabbed\nemoji ♛ and ünïcode\n")
HTML = ('<p style="color:#1f4d3a;font-size:13px">' + "long line " * 60 + "</p>\n<p>Zoë ♛ = 3</p>\n")

HEADERS = [
    [("From", "pbem <pbem@example.org>"), ("To", address("Ann", "ann@example.org")),
     ("Subject", "[Emerald · 3f9a1c22d0] Your turn (turn 6, action 2 of 2)")],
    # a display name with a comma: EmailMessage wrote it as two addresses ("Zoë O'Brien" and "Jr."); one it is
    [("From", "Spiele-Server Größe <pbem@example.org>"), ("To", address("Zoë O'Brien, Jr.", "zoe@example.org")),
     ("Subject", "ASCII only"), ("Reply-To", "pbem+abc.def@example.org"),
     ("List-Id", "A Study in Emerald (2nd edition) <3f9a1c22d0.pbem.example.org>"),
     ("List-Unsubscribe", "<https://pbem.example.org/unsubscribe/" + "t" * 150 + ">")],
    [("From", "pbem <pbem@example.org>"), ("To", address("Ann", "ann@example.org")),
     ("Subject", "Ünïcödé " * 20 + "— a very long subject that has to be folded over several lines")],
    # a plain word ending in ")" before an encoded one: the space between them must survive
    [("From", "pbem <pbem@example.org>"), ("To", address("Ann", "ann@example.org")),
     ("Subject", "[Highdie (test game) · 6b38b43147] Move recorded")],
]


def standard(headers: list[tuple[str, str]], text: str, html: str) -> EmailMessage:
    message = EmailMessage()
    for name, value in headers:
        message[name] = value
    message.set_content(text)
    message.add_alternative(html, subtype="html")
    return message


@pytest.mark.parametrize("headers", HEADERS)
def test_what_is_written_reads_back_as_the_standard_message(headers: list[tuple[str, str]]) -> None:
    ours = email.message_from_string(assemble(headers, TEXT, HTML), policy=email.policy.default)
    theirs = email.message_from_string(standard(headers, TEXT, HTML).as_string(), policy=email.policy.default)
    for name, value in headers:
        if name in ("From", "To", "Reply-To"):  # the addresses meant, display names decoded
            meant = [(n, a) for n, a in getaddresses([str(make_header(decode_header(value)))])] \
                if "=?" not in value else [(NAMES[value], value.rsplit("<", 1)[1].rstrip(">"))]
            assert [(a.display_name, a.addr_spec) for a in ours[name].addresses] == meant, name
        else:
            assert str(ours[name]) == str(theirs[name]), name
    assert ours.get_content_type() == "multipart/alternative" and not ours.defects
    for kind in ("plain", "html"):
        mine = ours.get_body((kind,))
        assert mine is not None and not mine.defects
        assert mine.get_content() == theirs.get_body((kind,)).get_content()  # type: ignore[union-attr]
    assert [p.get_content_type() for p in ours.iter_parts()] == ["text/plain", "text/html"]


def test_every_line_is_short_ascii_and_the_text_stays_readable_raw() -> None:
    raw = assemble(HEADERS[2], TEXT, HTML)
    assert raw.isascii()
    assert max(len(line) for line in raw.split("\n")) <= 78
    assert "It is your move." in raw and "From here on" in raw  # quoted-printable keeps plain words as they are
    subject = assemble(HEADERS[3], TEXT, HTML).split("\n")[2]
    assert subject == "Subject: [Highdie (test game) =?utf-8?q?=C2=B7?= 6b38b43147] Move recorded"  # words plain
