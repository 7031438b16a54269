"""Witnesses: the chain heads a player received, read back from their saved mails and receipts.

Every mail pbem sends names the game's chain head as it stood when the mail was written: in an
``X-Pbem-Witness`` header and in a line of the text (``Witness: game ID, event N, hash H``), and
a receipt lists the hash of each event it recorded. A player's mailbox is thus a record of the
log that whoever runs the server cannot reach: ``pbem game verify --witness`` and the verify
page compare the log with it (``events.audit.verify_witnesses``).
"""

from __future__ import annotations

import re
from email import policy
from email.parser import BytesParser
from typing import Iterable

from events.audit import Witness

HEADER = "X-Pbem-Witness"
HEAD = re.compile(r"game[= ]+([A-Za-z0-9_\-]{1,64})[;,]?\s+event[= ]+(\d{1,9})[;,]?\s+hash[= ]+([0-9a-f]{64})")
# A receipt's line: ``event N  sha256 H`` (older mails: ``event N  TYPE  sha256 H``)
RECEIPT_LINE = re.compile(r"^\s*event (\d{1,9})\s+(?:\S+\s+)?sha256 ([0-9a-f]{64})\s*$", re.MULTILINE)
MAX_BYTES = 2_000_000


def header_value(game_id: str, seq: int, digest: str) -> str:
    """The header a mail carries, and the words its text shows."""
    return f"game={game_id}; event={seq}; hash={digest}"


def _texts(raw: bytes) -> list[str]:
    """A saved mail's headers and its decoded text parts; anything else as text."""
    texts = [raw.decode("utf-8", errors="replace")]
    if b"\n\n" not in raw.replace(b"\r\n", b"\n") or b":" not in raw.split(b"\n", 1)[0]:
        return texts
    message = BytesParser(policy=policy.default).parsebytes(raw)
    texts += [str(v) for v in message.get_all(HEADER, [])]
    for part in message.walk():
        if part.get_content_maintype() == "text":
            try:
                texts.append(str(part.get_content()))
            except (LookupError, ValueError):
                continue
    return texts


def read(game_id: str, files: Iterable[tuple[str, bytes]]) -> list[Witness]:
    """Every chain head of ``game_id`` named in the files (saved mails, receipts, pasted text).

    A receipt's lines (``event N  sha256 H``) count too, in a file that names the game's
    head: they are the hashes of the events that receipt recorded.
    """
    found: dict[tuple[int, str], Witness] = {}
    for name, raw in files:
        for text in _texts(raw[:MAX_BYTES]):
            heads = [m for m in HEAD.finditer(text) if m.group(1) == game_id]
            for match in heads:
                seq, digest = int(match.group(2)), match.group(3)
                found.setdefault((seq, digest), Witness(seq, digest, name))
            if heads:
                for match in RECEIPT_LINE.finditer(text):
                    seq, digest = int(match.group(1)), match.group(2)
                    found.setdefault((seq, digest), Witness(seq, digest, name))
    return sorted(found.values(), key=lambda w: (w.seq, w.hash))
