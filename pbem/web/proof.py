"""Replay, audit, verification and the game record: the pages that settle what happened.

- ``/games/<id>/replay``: anyone, as a spectator; once the game has ended also as any
  player or with everything revealed.
- ``/play/<token>/replay``: the player of a play link, as they saw the game at each move
  (an outdated link still shows: it only reads).
- ``/play/<token>/audit/<seq>``: that player's own moves and anything public.
- ``/organise/<token>/audit/<seq>``: the organiser, any event.
- ``/games/<id>/verify`` and ``/games/<id>/record.jsonl`` (once the game has ended).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, render_template, request, url_for

from pbem.proof import witness
from pbem.errors import NotFound
from pbem.service import ServiceError
from pbem.web.common import (PageError, board_template, check_game, number, optional_number, read_play, read_token,
                             reader_zone, service)

bp = Blueprint("proof", __name__)


def move_number(name: str) -> int | None:
    """A step number from the query (``at``, ``turn``, ``seq``), or None if not given."""
    return optional_number(request.args.get(name), name, "a step number, like 12")


def given(args: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in args.items() if v not in ("", None)}


def replay_page(game_id: str, seat: int | None, everything: bool, link: Any, **extra: Any) -> Any:
    """The replay page; ``link(**args)`` makes the URL of another step or perspective."""
    with_undone = request.args.get("undone") == "1"
    try:
        at = move_number("turn") or move_number("at")
        shown = service().replay(game_id, at, seat=seat, everything=everything, with_undone=with_undone)
    except ServiceError as err:
        raise PageError(404 if isinstance(err, NotFound) else 403, "Not available", str(err), "refused") from None
    return render_template("web/replay.html", r=shown, link=link, board=board_template(shown["game_type"]),
                           undone="1" if with_undone else "", **extra)


@bp.get("/games/<game_id>/replay")
def public_replay(game_id: str) -> Any:
    check_game(game_id)
    who = request.args.get("as", "public")
    seat, everything = None, who == "all"
    if who not in ("public", "all"):
        seat = number(who, "as", "public, all, or a seat number")
        if seat >= len(service().players(game_id)):
            raise PageError(400, "No such reader", "Choose public, all, or a seat number.", "bad_field")
    if (everything or seat is not None) and not service().timeline_ended(game_id):
        raise PageError(403, "Not while the game runs",
                        "A player's view and everything hidden are shown here only once the game has ended. "
                        "A player can replay their own view from the link on their play page.", "refused")

    def link(**args: Any) -> str:
        return url_for("proof.public_replay", game_id=game_id, **{"as": who, **given(args)})

    readers = [("public", "Spectator")]
    if service().timeline_ended(game_id):
        readers += [(str(p["seat"]), p["name"]) for p in service().players(game_id)] + [("all", "Everything")]
    return replay_page(game_id, seat, everything, link, readers=readers, current=who,
                       reader_link=lambda key, at: url_for("proof.public_replay", game_id=game_id, at=at,
                                                           **{"as": key}),
                       back_url=url_for("games.page", game_id=game_id))


@bp.get("/play/<token>/replay")
def player_replay(token: str) -> Any:
    player = read_play(token)  # an outdated link still shows the replay: it only reads
    game_id, index = player.claims.game_id, player.claims.seat
    public = request.args.get("as") == "public"

    def link(**args: Any) -> str:
        return url_for("proof.player_replay", token=token, **({"as": "public"} if public else {}), **given(args))

    return replay_page(game_id, None if public else index, False, link,
                       readers=[("me", player.name), ("public", "Spectator")], current="public" if public else "me",
                       reader_link=lambda key, at: url_for("proof.player_replay", token=token, at=at,
                                                           **({"as": "public"} if key == "public" else {})),
                       audit_link=lambda seq: url_for("proof.player_audit", token=token, seq=seq),
                       back_url=url_for("play.page", token=token), tz=reader_zone(player.email))


# ---- audit ------------------------------------------------------------------------------------

def audit_page(game_id: str, seq: int, reader: int | None, back_url: str, email: str | None = None,
               tz: str | None = None) -> Any:
    """One event explained; ``reader`` is a player's seat (their own moves and public events; ``email`` their
    address), None: organiser."""
    svc = service()
    try:
        found = svc.audit(game_id, seq, reader=reader, organiser=reader is None, email=email)
    except ServiceError as err:
        raise PageError(404 if isinstance(err, NotFound) else 403, "Not available", str(err), "refused") from None
    return render_template("web/audit.html", a=found, game_id=game_id, back_url=back_url,
                           **({"tz": tz} if tz else {}))


@bp.get("/play/<token>/audit/<seq>")
def player_audit(token: str, seq: str) -> Any:
    player = read_play(token)
    event = number(seq, "The event number", "a number, like 12")
    return audit_page(player.claims.game_id, event, player.claims.seat,
                      url_for("proof.player_replay", token=token, at=event), player.email,
                      reader_zone(player.email))


@bp.get("/organise/<token>/audit/<seq>")
@bp.get("/organise/<token>/audit")
def organiser_audit(token: str, seq: str | None = None) -> Any:
    claims = read_token("organiser", token)
    check_game(claims.subject)
    event = number(seq, "The event number", "a number, like 12") if seq is not None else move_number("seq")
    if event is None:
        raise PageError(400, "Which event?", "Give the number of the event to audit.", "bad_field")
    return audit_page(claims.subject, event, None, url_for("organise.show", token=token))


# ---- verification and the record ------------------------------------------------------------

WITNESS_BYTES = 4 * 1024 * 1024  # a few dozen saved mails; the rest of the site takes far less
WITNESS_FILES = 100


@bp.get("/games/<game_id>/verify")
def verify(game_id: str) -> Any:
    check_game(game_id, whole=False)  # it says where a damaged record breaks
    svc = service()
    return _verify_page(game_id, svc.verify(game_id))


@bp.post("/games/<game_id>/verify")
def verify_witnesses(game_id: str) -> Any:
    """Verification with the chain heads a player saved: uploaded mails or receipts, or their lines pasted.

    It only reads, so it needs no link and no CSRF token: anyone may check a game against their mail.
    """
    check_game(game_id, whole=False)
    request.max_content_length = WITNESS_BYTES
    uploads = request.files.getlist("witness")[:WITNESS_FILES]
    files = [(upload.filename or "upload", upload.read(witness.MAX_BYTES)) for upload in uploads if upload]
    pasted = request.form.get("pasted", "")
    if pasted.strip():
        files.append(("pasted text", pasted.encode("utf-8", errors="replace")))
    found = witness.read(game_id, files)
    if not found:
        raise PageError(400, "No witness found", f"Nothing you gave names a chain head of game {game_id}. Give saved "
                        "mails of this game, or paste their line 'Witness: game ..., event ..., hash ...'.",
                        "no_witness")
    return _verify_page(game_id, service().verify(game_id, found), witnesses=found)


def _verify_page(game_id: str, report: Any, witnesses: Any = ()) -> Any:
    svc = service()
    try:
        shown: dict[str, Any] | None = svc.show(game_id)
    except Exception:  # a log that cannot even be replayed: the report below says where it breaks
        shown = None
    return render_template("web/verify.html", game_id=game_id, game=shown, report=report, witnesses=witnesses,
                           back_url=url_for("games.page", game_id=game_id))


@bp.get("/games/<game_id>/record.jsonl")
def record(game_id: str) -> Any:
    check_game(game_id)
    svc = service()
    if not svc.timeline_ended(game_id):
        raise PageError(403, "Not yet", "The record of a game can be downloaded once the game has ended: "
                        "until then it holds secrets (hands, identities, the seed).", "running")
    body = "".join(line + "\n" for line in svc.export(game_id))
    return Response(body, mimetype="application/x-ndjson",
                    headers={"Content-Disposition": f'attachment; filename="pbem-{game_id}.jsonl"'})

