"""Email addresses: the one check every door calls, and their forms on the wire.

An address is kept as its owner would write it, in lower case: a local part that may hold letters beyond ASCII
(``dé@example.org``, RFC 6531) and a domain in Unicode (``d@exämple.org``, not ``d@xn--exmple-cua.org``), so one
person is one player however they typed it. A mail goes out with the domain in IDNA (``xn--...``), which every
server takes; only a local part beyond ASCII needs the server's SMTPUTF8 (``needs_smtputf8``).
"""

from __future__ import annotations

import re
import unicodedata
from email.headerregistry import Address

import idna

from pbem.errors import ServiceError

MAX_LENGTH = 254  # RFC 5321's limit on a path, less the angle brackets
MAX_LOCAL = 64
# RFC 5322 atext; letters beyond ASCII are allowed as well (RFC 6532's UTF8-non-ascii)
_ATEXT = re.compile(r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+")


class AddressError(ServiceError):
    """Not an address mail can be sent to; the message says what is wrong in plain words."""


def check_address(text: str) -> str:
    """The address ``text`` names, in the form pbem keeps (lower case, Unicode domain).

    :raises AddressError: saying what is wrong (``ServiceError``, so every door shows it as it shows its others).
    """
    given = (text or "").strip()
    address = unicodedata.normalize("NFC", given).lower()
    local, at, domain = address.rpartition("@")
    example = "write it like alice@example.org"
    if not at or not local or not domain or any(c.isspace() or c in "<>()[]\\,;:\"@" for c in local + domain):
        raise AddressError(f"{given[:100]!r} is not an email address ({example})")
    if len(local.encode("utf-8")) > MAX_LOCAL or any(not part or not _local_part_ok(part)
                                                     for part in local.split(".")):
        raise AddressError(f"{given[:100]!r} is not an email address: the part before the @ may hold letters, "
                           f"digits and . _ + - (not two dots in a row, nor one at either end), {MAX_LOCAL} bytes "
                           f"at most ({example})")
    try:
        ascii_domain = idna.encode(domain, uts46=True).decode("ascii")
        domain = idna.decode(ascii_domain)
    except (idna.IDNAError, UnicodeError):
        raise AddressError(f"{given[:100]!r} is not an email address: {domain!r} after the @ is not a domain name "
                           f"that mail can be sent to ({example})") from None
    labels = ascii_domain.split(".")
    if len(labels) < 2 or labels[-1].isdigit():
        raise AddressError(f"{given[:100]!r} is not an email address: the part after the @ must be a domain name "
                           f"such as example.org ({example})")
    kept = f"{local}@{domain}"
    if len(f"{local}@{ascii_domain}".encode("utf-8")) > MAX_LENGTH:
        raise AddressError(f"{given[:60]!r}... is too long to be an email address ({MAX_LENGTH} characters at most)")
    return kept


def _local_part_ok(part: str) -> bool:
    for char in part:
        if char.isascii():
            if not _ATEXT.fullmatch(char):
                return False
        elif unicodedata.category(char)[0] in "CZ":  # controls, format characters, separators
            return False
    return True


def split(address: str) -> tuple[str, str]:
    """The local part and the domain of a checked address."""
    local, _, domain = address.rpartition("@")
    return local, domain


def ascii_domain(domain: str) -> str:
    """The domain as DNS and every mail server know it (IDNA A-labels); an ASCII domain as it is."""
    if domain.isascii():
        return domain
    return idna.encode(domain, uts46=True).decode("ascii")


def needs_smtputf8(address: str) -> bool:
    """Whether mail to (or from) this address needs a server that offers SMTPUTF8: a local part beyond ASCII."""
    return not split(address)[0].isascii()


def wire(address: str) -> str:
    """The address as the envelope and the headers carry it: the domain in IDNA, the local part as it is."""
    local, domain = split(address)
    return f"{local}@{ascii_domain(domain)}" if domain else address


def header_address(name: str, address: str) -> Address:
    """The address with its display name, for a header (``email.headerregistry``), domain in IDNA."""
    local, domain = split(wire(address))
    return Address(display_name=name, username=local, domain=domain)
