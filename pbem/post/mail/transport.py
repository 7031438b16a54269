"""Transports: SMTP (STARTTLS, implicit TLS, or plain on loopback) and a file mailbox."""

from __future__ import annotations

import os
import smtplib
import ssl
from functools import lru_cache
from email import message_from_string
from email.utils import getaddresses
from pathlib import Path
from typing import Any, Protocol

from pbem.instance.addresses import needs_smtputf8, wire


class PermanentFailure(Exception):
    """The server refused the mail for good (a 5xx reply): retrying will not help.

    ``code`` is the server's reply code, if it gave one; ``recipient_refused`` says the server refused the
    recipient's address itself (a 5xx to RCPT), which counts against the address (``pbem.post.mail.bounces``).
    """

    def __init__(self, message: str, *, code: int | None = None, recipient_refused: bool = False) -> None:
        super().__init__(message)
        self.code = code
        self.recipient_refused = recipient_refused


NO_SMTPUTF8 = ("the mail server does not accept addresses with letters beyond ASCII before the @ (it does not "
               "offer SMTPUTF8): this mail cannot reach {address}; give the player an address in plain ASCII, or "
               "send through a server that offers SMTPUTF8")


class Transport(Protocol):
    def send(self, sender: str, recipient: str, message: str, name: str) -> None:
        """Deliver one message; raises ``PermanentFailure`` or any other error (retried)."""
        ...

    def close(self) -> None: ...


class FileTransport:
    """Each mail becomes ``NAME.eml`` in a folder: the embedded default, browsable at /dev/mail."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def send(self, sender: str, recipient: str, message: str, name: str) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        final = self.folder / f"{name}.eml"
        partial = self.folder / f".{name}.tmp"
        with open(partial, "w", encoding="utf-8") as out:
            out.write(message)
            out.flush()
            os.fsync(out.fileno())
        os.replace(partial, final)  # a reader never sees half a mail

    def close(self) -> None:
        pass


@lru_cache(maxsize=8)
def _envelope(sender: str) -> str:
    """The envelope sender of a ``From`` value (``pbem <pbem@example.org>`` -> ``pbem@example.org``)."""
    return getaddresses([sender])[0][1] or sender


class SMTPTransport:
    """One connection per dispatch batch, opened on the first mail, reused for the rest."""

    def __init__(self, host: str, port: int, security: str = "starttls", user: str = "", password: str = "",
                 timeout: float = 30, bounce_address: str = "", signer: Any = None) -> None:
        if security not in ("starttls", "tls", "none"):
            raise ValueError(f"smtp_security must be starttls, tls or none, not {security!r}")
        self.host, self.port, self.security = host, port, security
        self.user, self.password, self.timeout = user, password, timeout
        self.bounce_address = bounce_address  # bounces@DOMAIN: each mail goes out from bounces+NAME@DOMAIN (VERP)
        self.signer = signer  # a DKIM signer (``pbem.post.mail.dkim_signing.Signer``), or None
        self._smtp: smtplib.SMTP | None = None

    def _connect(self) -> smtplib.SMTP:
        context = ssl.create_default_context()
        smtp: smtplib.SMTP
        if self.security == "tls":
            smtp = smtplib.SMTP_SSL(self.host, self.port, timeout=self.timeout, context=context)
        else:
            smtp = smtplib.SMTP(self.host, self.port, timeout=self.timeout)
            if self.security == "starttls":
                smtp.starttls(context=context)
        if self.user:
            smtp.login(self.user, self.password)
        return smtp

    def send(self, sender: str, recipient: str, message: str, name: str) -> None:
        if self._smtp is None:
            self._smtp = self._connect()
        envelope_from = wire(verp(self.bounce_address, name) if self.bounce_address else _envelope(sender))
        # a domain beyond ASCII goes out in IDNA, which every server takes; a local part beyond ASCII needs SMTPUTF8
        international = needs_smtputf8(envelope_from) or needs_smtputf8(recipient)
        if international:
            self._smtp.ehlo_or_helo_if_needed()
            if not self._smtp.has_extn("smtputf8"):  # this server cannot reach the address: it counts as refused
                raise PermanentFailure(NO_SMTPUTF8.format(address=recipient), recipient_refused=True)
        try:
            # smtplib sends bytes as they are: SMTP wants CRLF line ends
            data = message.replace("\r\n", "\n").replace("\n", "\r\n").encode("utf-8")
            if self.signer is not None:  # signed as it goes on the wire: the bytes the receiver checks
                data = self.signer.sign(data)
            self._smtp.sendmail(envelope_from, [wire(recipient)], data,
                                mail_options=["SMTPUTF8"] if international else [])
        except smtplib.SMTPRecipientsRefused as err:
            codes = [code for code, _ in err.recipients.values()]
            if all(code >= 500 for code in codes):
                code, reply = next(iter(err.recipients.values()))
                raise PermanentFailure(f"the server refused the address: {code} {_text(reply)}", code=code,
                                       recipient_refused=True) from err
            raise
        except smtplib.SMTPResponseException as err:
            if err.smtp_code >= 500:
                raise PermanentFailure(f"{err.smtp_code} {_text(err.smtp_error)}", code=err.smtp_code) from err
            self.close()
            raise
        except (smtplib.SMTPServerDisconnected, OSError):
            self._smtp = None
            raise

    def close(self) -> None:
        if self._smtp is not None:
            try:
                self._smtp.quit()
            except (smtplib.SMTPException, OSError):
                pass
            self._smtp = None


def verp(bounce_address: str, name: str) -> str:
    """The envelope sender that names one mail: ``bounces+NAME@DOMAIN`` for ``bounces@DOMAIN``."""
    local, _, domain = bounce_address.partition("@")
    return f"{local}+{name}@{domain}"


def _text(reply: bytes | str) -> str:
    return reply.decode("utf-8", "replace") if isinstance(reply, bytes) else str(reply)


def recipients(message: str) -> list[str]:
    parsed = message_from_string(message)
    return [addr for _, addr in getaddresses(parsed.get_all("To", []))]
