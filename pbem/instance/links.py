"""Signed links: what a token in a URL or a reply address proves, and for how long.

A token is ``SUBJECT.TIMESTAMP.SIGNATURE`` (itsdangerous ``TimestampSigner``), short enough for
the local part of a reply address (``play+TOKEN@...``, at most 64 characters). Each purpose
has its own salt, so a token made for one purpose is worthless for another. Keys rotate:
tokens signed with any key in ``keys`` are accepted; new ones are signed with the last.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from itsdangerous import BadSignature, SignatureExpired, TimestampSigner

# newgame: an organiser's new-game page; invite: one invitation of a muster; muster: the organiser's muster page;
# address: a player's new address, confirmed (``pbem.post.new_address``); talk: the reply address of a talk mail
# (``pbem.post.talk_mail``: a reply is a message, not a command)
PURPOSES = ("play", "home", "organiser", "unsubscribe", "csrf", "undo", "newgame", "invite", "muster", "address",
            "talk")
TOKEN = re.compile(r"^[A-Za-z0-9_.\-]{1,200}$")
# The end of a token: its timestamp (6 characters) and its signature (HMAC-SHA1, 27 characters), of which the first
# 12 are the link's id (``Claims.link_id``, as audits name it). What opens the link is the whole signature.
SIGNED = re.compile(r"(\.[A-Za-z0-9_\-]{6}\.[A-Za-z0-9_\-]{12})[A-Za-z0-9_\-]{15}(?![A-Za-z0-9_\-])")


def redact(text: str) -> str:
    """``text`` (a path, a request line, a log message) with every token in it cut after its link id: what names
    the link stays (its subject, when it was issued, its id), what opens it goes. For logs, where a link's bearer
    would otherwise read a player's private view, or act for them."""
    return SIGNED.sub(r"\1...", text) if "." in text else text


class LinkError(Exception):
    """A link that cannot be used; the message is for the person who followed it."""


class ForgedLink(LinkError):
    pass


class ExpiredLink(LinkError):
    pass


@dataclass(frozen=True)
class Claims:
    purpose: str
    subject: str
    issued_at: datetime
    link_id: str      # the first characters of the signature: names this link in audits and logs

    def cause(self) -> dict[str, str]:
        """What an audit records about the link that carried a command."""
        return {"link": self.link_id, "link_issued_at": self.issued_at.isoformat(timespec="seconds")}


@dataclass(frozen=True)
class PlayClaims:
    game_id: str
    seat: int
    seq: int
    claims: Claims

    def cause(self) -> dict[str, Any]:
        """What an audit records about the link: its id, when it was issued, at which move."""
        return {**self.claims.cause(), "link_issued_seq": self.seq}


@dataclass(frozen=True)
class UndoClaims:
    """An undo link: one seat's answer to one undo request of one game."""

    game_id: str
    request: str
    seat: int
    claims: Claims

    def cause(self) -> dict[str, Any]:
        return {**self.claims.cause(), "undo_request": self.request}


@dataclass(frozen=True)
class TalkClaims:
    """A talk mail's reply address: a message from ``seat`` of the game to ``to`` (None: the whole table)."""

    game_id: str
    seat: int
    to: int | None
    seq: int
    claims: Claims

    def cause(self) -> dict[str, Any]:
        return {**self.claims.cause(), "link_issued_seq": self.seq, "talk_reply": True}


class Links:
    def __init__(self, keys: list[str], max_age_seconds: int) -> None:
        if not keys or not all(keys):
            raise ValueError("links need at least one non-empty secret key")
        self.keys = keys
        self.max_age = max_age_seconds
        self._signers = {p: TimestampSigner(keys, salt=f"pbem.link.{p}") for p in PURPOSES}

    def make(self, purpose: str, subject: str) -> str:
        return self._signers[purpose].sign(subject).decode("ascii")

    def read(self, purpose: str, token: str, max_age: int | None = None) -> Claims:
        """The claims of a token made for ``purpose``.

        :raises ForgedLink: tampered, forged, or made for another purpose.
        :raises ExpiredLink: older than the allowed age.
        """
        if not TOKEN.match(token or ""):
            raise ForgedLink("this link is not one of ours: it may have been cut short or changed")
        try:
            subject, signed_at = self._signers[purpose].unsign(
                token, max_age=self.max_age if max_age is None else max_age, return_timestamp=True)
        except SignatureExpired:
            raise ExpiredLink("this link has expired; use the link in your latest mail, "
                              "or the link to your games page") from None
        except BadSignature:
            raise ForgedLink("this link is not valid: it may have been cut short or changed; "
                             "use the link in your latest mail") from None
        issued = signed_at if signed_at.tzinfo else signed_at.replace(tzinfo=timezone.utc)
        return Claims(purpose, subject.decode("utf-8"), issued, token.rsplit(".", 1)[1][:12])

    # ---- play links: a seat of a game, at a seq -----------------------------------------------

    def play(self, game_id: str, seat: int, seq: int) -> str:
        return self.make("play", f"{game_id}.{seat}.{seq}")

    def read_play(self, token: str) -> PlayClaims:
        claims = self.read("play", token)
        try:
            game_id, seat, seq = claims.subject.split(".")
            return PlayClaims(game_id, int(seat), int(seq), claims)
        except ValueError:
            raise ForgedLink("this link is not valid") from None

    # ---- talk replies: a seat's answer to the table, or to one player -----------------------------

    def talk(self, game_id: str, seat: int, to: int | None, seq: int) -> str:
        """The token of a talk mail's reply address: its reply is a message from ``seat`` to ``to`` (None: the
        table); ``seq``, the game's when it was made, ends it when the seat changes hands."""
        return self.make("talk", f"{game_id}.{seat}.{'t' if to is None else to}.{seq}")

    def read_talk(self, token: str) -> TalkClaims:
        claims = self.read("talk", token)
        try:
            game_id, seat, to, seq = claims.subject.split(".")
            return TalkClaims(game_id, int(seat), None if to == "t" else int(to), int(seq), claims)
        except ValueError:
            raise ForgedLink("this link is not valid") from None

    # ---- undo links: a seat's answer to an undo request ------------------------------------------

    def undo(self, game_id: str, request: str, seat: int) -> str:
        return self.make("undo", f"{game_id}.{request}.{seat}")

    def read_undo(self, token: str) -> UndoClaims:
        claims = self.read("undo", token)
        try:
            game_id, request, seat = claims.subject.split(".")
            return UndoClaims(game_id, request, int(seat), claims)
        except ValueError:
            raise ForgedLink("this link is not valid") from None

    def csrf(self, token: str) -> str:
        """A form's CSRF token: bound to the link it was shown for, valid for a day."""
        return self.make("csrf", token.rsplit(".", 1)[1])

    def check_csrf(self, token: str, csrf: str) -> None:
        claims = self.read("csrf", csrf, max_age=86_400)
        if claims.subject != token.rsplit(".", 1)[1]:
            raise ForgedLink("this form does not belong to this link; reload the page and try again")
