"""A mail's MIME text, built with the standard library's ``email`` package: a ``multipart/alternative`` of a
plain-text and an HTML part.

The package writes encoded words, folds long headers and quotes display names; each part is UTF-8 in
quoted-printable (lines of at most 76 characters, so a long HTML line reaches every server intact, and plain ASCII
text stays readable in the raw message). Addresses go out with their domain in IDNA; a mail to or from an address
whose local part is beyond ASCII is written for SMTPUTF8 (its headers in UTF-8), the others in plain ASCII.
"""

from __future__ import annotations

from email.headerregistry import Address
from email.message import EmailMessage
from email.policy import EmailPolicy, default
from typing import Any, Iterable

from pbem.instance.addresses import needs_smtputf8, wire

ADDRESS_HEADERS = ("From", "To", "Reply-To", "Sender")
# Headers whose ASCII value is a link or a token: written on one line as they are. The email package would fold
# an unbreakable value longer than a line into encoded words, which no mail program opens as a link.
VERBATIM = frozenset({"list-unsubscribe", "list-unsubscribe-post", "list-id"})


class _Policy(EmailPolicy):
    """The SMTP policy (or SMTPUTF8, with ``utf8``), keeping the ``VERBATIM`` headers whole."""

    def header_store_parse(self, name: str, value: Any) -> tuple[str, Any]:
        if name.lower() in VERBATIM and isinstance(value, str) and value.isascii():
            return (name, value)  # stored as text: with refold_source "none" it is written as it is
        return super().header_store_parse(name, value)  # type: ignore[no-any-return]


ASCII = _Policy(linesep="\n", refold_source="none")
UTF8 = _Policy(linesep="\n", refold_source="none", utf8=True)


def addresses(value: str) -> list[Address]:
    """The addresses of a header value (encoded words decoded), each with its domain in IDNA."""
    parsed = default.header_factory("To", value)
    found: list[Address] = []
    for one in parsed.addresses:  # type: ignore[attr-defined]
        local, _, domain = wire(f"{one.username}@{one.domain}").rpartition("@")
        found.append(Address(display_name=one.display_name, username=local, domain=domain))
    return found


def assemble(headers: Iterable[tuple[str, str]], text: str, html: str) -> str:
    """The whole message: ``headers`` in order, then the text and the HTML part."""
    values: list[tuple[str, Any]] = []
    for name, value in headers:
        value = " ".join(str(value).split())  # no line breaks of our own in a header
        values.append((name, addresses(value) if name in ADDRESS_HEADERS else value))
    # SMTPUTF8 (headers in UTF-8) only when an address's local part is beyond ASCII
    international = any(needs_smtputf8(f"{one.username}@{one.domain}") for name, value in values
                        if name in ADDRESS_HEADERS for one in value)
    message = EmailMessage(policy=UTF8 if international else ASCII)
    for name, value in values:
        message[name] = value
    message.set_content(text, subtype="plain", charset="utf-8", cte="quoted-printable")
    message.add_alternative(html, subtype="html", charset="utf-8", cte="quoted-printable")
    return message.as_string()
