"""DKIM signing (dkimpy), for operators who send directly rather than through a provider that signs for them.

``pbem mail dkim-key`` makes an RSA key (2048 bits, with dkimpy's key tool) and prints the TXT record to publish at
``SELECTOR._domainkey.DOMAIN``; with ``dkim_key`` set, every mail sent over SMTP is signed as it leaves
(relaxed/simple, RSA-SHA256), over the headers a receiver checks, the one-click unsubscribe headers among them
(RFC 8058 asks that they be signed).
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from email.utils import getaddresses
from pathlib import Path

import dkim
from dkim import dknewkey

from pbem.instance.config import ConfigError, Settings
from pbem.instance.addresses import ascii_domain

SIGNED = (b"from", b"to", b"subject", b"date", b"message-id", b"reply-to", b"in-reply-to", b"references",
          b"list-id", b"list-unsubscribe", b"list-unsubscribe-post", b"mime-version", b"content-type",
          b"auto-submitted")


@dataclass(frozen=True)
class Signer:
    selector: str
    domain: str
    key: bytes

    def sign(self, message: bytes) -> bytes:
        """The message (CRLF line ends, as it goes on the wire) with its DKIM-Signature header first."""
        header = dkim.sign(message, self.selector.encode(), self.domain.encode(), self.key,
                           include_headers=list(SIGNED))
        return bytes(header) + message


def domain_of(settings: Settings) -> str:
    """The signing domain: ``dkim_domain``, else the domain of ``mail_from`` (which DMARC wants them to match)."""
    if settings["dkim_domain"]:
        return ascii_domain(str(settings["dkim_domain"]).lower())
    address = getaddresses([str(settings["mail_from"])])[0][1]
    return ascii_domain(address.rpartition("@")[2].lower())


def key_path(settings: Settings) -> Path:
    return settings.instance / str(settings["dkim_key"])


def signer_of(settings: Settings) -> Signer | None:
    """The instance's signer; None without ``dkim_key``.

    :raises ConfigError: the key cannot be read.
    """
    if not settings["dkim_key"]:
        return None
    path = key_path(settings)
    try:
        key = path.read_bytes()
    except OSError as err:
        raise ConfigError(f"dkim_key {path}: {err.strerror}; make one with `pbem mail dkim-key`") from None
    return Signer(str(settings["dkim_selector"]), domain_of(settings), key)


def make_key(path: Path) -> str:
    """Write a new private key to ``path`` (readable by its owner only); the public key's DNS TXT value.

    :raises ConfigError: ``path`` exists already (a key in use is never overwritten).
    """
    if path.exists():
        raise ConfigError(f"{path} exists already: a key in use is never replaced; give another --file (and a new "
                          "selector) to rotate keys")
    path.parent.mkdir(parents=True, exist_ok=True)
    old = os.umask(0o077)
    try:
        dknewkey.GenRSAKeys(str(path), verbose=False)
    finally:
        os.umask(old)
    path.chmod(0o600)
    return public_record(path)


def public_record(path: Path) -> str:
    """The TXT value that publishes the public half of the key in ``path``."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "dns.txt"
        dknewkey.ExtractRSADnsPublicKey(str(path), str(out), verbose=False)
        return out.read_text(encoding="ascii").strip()


def txt_record(selector: str, domain: str, value: str) -> str:
    """The zone-file line: the value cut into strings of at most 255 characters, as DNS TXT records need."""
    chunks = [value[i:i + 255] for i in range(0, len(value), 255)]
    return f'{selector}._domainkey.{domain}. IN TXT ( ' + " ".join(f'"{c}"' for c in chunks) + " )"
