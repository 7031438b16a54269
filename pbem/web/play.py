"""The play page behind a mail's link: the private view, the action forms, preview, confirm, undo, standing orders.

Beyond the undo horizon the page offers to ask the other players instead (an undo request);
an open request is shown with its answers, and an asked player gets a link to answer it.

GET only shows. Every POST carries the page's CSRF token, and is refused unless the link's
seq is still the game's seq, so a replayed or outdated form changes nothing.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, render_template, request, url_for

from events.handling import Cause, CommandResult, StaleCommand
from events.rules import ActionError
from events.store import ConcurrencyError
from pbem.table.delivery import STANDING_ANSWERS
from pbem.games.presentation import choices, focus, picks, said, turn_label
from pbem.service import ServiceError
from pbem.organising import organisers
from pbem.table import autopilot
from pbem.post import undelivered
from pbem.proof import logbook, takeback
from pbem.table.talk import NOTE_KEPT, TALK_TYPES
from pbem.table.undo_requests import MAX_REASON
from pbem.web.common import (PageError, Seat, action_refused, board_template, check_csrf, command_text, home_token,
                             links, posted_seq, read_play, reader_zone, recorded_since, service)

bp = Blueprint("play", __name__, url_prefix="/play")

Refusal = ActionError | ServiceError | ConcurrencyError


def standing_orders(seat: Seat, shown: dict[str, Any]) -> list[dict[str, str]]:
    """The out-of-turn topics this player can set an order for, with the current answer."""
    game_id, index = seat.claims.game_id, seat.claims.seat
    current = {r["topic"]: r["answer"] for r in service().store.query(
        "SELECT topic, answer FROM standing_orders WHERE game_id = ? AND seat = ?", (game_id, index))}
    topics: dict[str, str] = {}
    rules = service().kernel.rules(service().load(game_id))
    topics.update(getattr(rules, "standing_order_topics", {}) or {})
    prompt = shown.get("your_prompt")
    if prompt and prompt.get("topic") and prompt.get("answers"):
        topics.setdefault(prompt["topic"], prompt["text"])
    for topic in current:
        topics.setdefault(topic, topic)
    return [{"topic": t, "text": text, "answer": current.get(t, "ask")} for t, text in sorted(topics.items())]


def undo_answer_url(seat: Seat, shown: dict[str, Any]) -> str | None:
    """A link to answer the open undo request, if it asks this seat and they have not answered yet."""
    asked = shown.get("undo_request")
    if not asked or not any(a["seat"] == seat.claims.seat and a["answer"] is None for a in asked["approvers"]):
        return None
    return url_for("undo.show", token=links().undo(seat.claims.game_id, asked["request"], seat.claims.seat))


def undo_told(seat: Seat, shown: dict[str, Any]) -> takeback.TakeBack | None:
    """What the open undo request takes back, in the game's count, as this seat may read it."""
    found = service().undo_request(seat.claims.game_id) if shown.get("undo_request") else None
    if found is None:
        return None
    return takeback.told(service(), service().load(seat.claims.game_id), found, seat.claims.seat)


def default_text(game_id: str, prompt: dict[str, Any] | None) -> str | None:
    """What a time-out would play, as the command the player would type."""
    if not prompt or not prompt.get("default"):
        return None
    state = service().load(game_id)
    try:
        return str(service().kernel.rules(state).format(state.game, prompt["default"]))
    except ActionError:
        return None


RECENT_LINES = 20  # the play page's folded log: its last lines; the replay has them all
SINCE_AT_MOST = 200  # "since your last turn" reads at most this many events (the page shows the last 40 of them)


def since_last_turn(log: list[dict[str, Any]], seat: int) -> list[dict[str, Any]]:
    """The game's events after this seat last acted, in words (deliveries left out): what they have not seen play."""
    actor = f"seat:{seat}"
    last = max((line["seq"] for line in log if line.get("actor") == actor and not line.get("undone")), default=0)
    return [line for line in log if line["seq"] > last
            and (not str(line.get("type", "")).startswith("pbem.")
                 or line.get("type") in ("pbem.ActionsUndone", *TALK_TYPES))]


TALK_KEPT = 20  # messages in the play page's conversation panel: the newest; the replay and the log have them all


def conversation(game_id: str, email: str, seat: int, acted: int) -> list[dict[str, Any]]:
    """The table talk this reader may read, newest first: each line as the log gives it to them (who to whom and the
    words, or only that a private message went by), ``new`` when another player's and after the reader last acted.

    Only which events are talk is read here (their type and number); what a line says is the log's, for this
    reader (``Service.log``)."""
    svc = service()
    found = svc.store.query(f"SELECT seq FROM events WHERE game_id = ? AND type IN ({', '.join('?' * len(TALK_TYPES))})"
                            " ORDER BY seq DESC LIMIT ?", (game_id, *TALK_TYPES, TALK_KEPT))
    mine = f"seat:{seat}"
    lines = []
    for row in found:
        at = int(row["seq"])
        for line in svc.log(game_id, email, at - 1, at):
            if line["type"] not in TALK_TYPES or line["undone"]:
                continue
            if line["type"] == NOTE_KEPT and line.get("actor") != mine:  # another's private note: nothing to read
                continue
            lines.append({"seq": at, "when": line["recorded_at"], "text": line["text"],
                          "new": at > acted and line.get("actor") != mine})
    return lines


def clickable(token: str, shown: dict[str, Any], legal: list[dict[str, Any]], groups: list[dict[str, Any]],
              on: str | None) -> dict[str, Any]:
    """What the player can click on the board and in the hand (``picks``: key -> link) and, after a click
    (``?on=KEY``), the choices about that thing (``focus``; ``focus_missed`` when nothing is)."""
    found = picks(shown["game_type"], shown["view"], legal)
    links_to = {key: url_for("play.page", token=token, on=key) + "#prompt-h" for key in found}
    chosen = focus(shown["game_type"], shown["view"], groups, legal, on) if on else None
    return {"picks": links_to, "focus": chosen, "focus_missed": bool(on) and chosen is None,
            "all_choices_url": url_for("play.page", token=token) + "#prompt-h"}


def page_context(token: str, seat: Seat, on: str | None = None) -> dict[str, Any]:
    svc = service()
    game_id, index = seat.claims.game_id, seat.claims.seat
    shown = svc.show(game_id, seat.email)
    legal = svc.legal(game_id, seat.email) if shown["your_prompt"] else []
    acted = svc.last_acted(game_id, index)
    # the log read from the store by range: since this seat last acted (at most SINCE_AT_MOST events) and enough
    # for the last RECENT_LINES (twice as many events: a line that only repeats another is left out), so the page
    # costs the same at move 40 or 4,000
    last = int(shown["seq"])
    start = max(0, min(acted - 1, last - 2 * RECENT_LINES), last - SINCE_AT_MOST)
    log = [line for line in svc.log(game_id, seat.email, start) if not line["repeats"]]
    groups = choices(shown["game_type"], shown["view"], legal)
    talk = conversation(game_id, seat.email, index, acted)
    return {
        **clickable(token, shown, legal, groups, on),
        "default_text": default_text(game_id, shown["your_prompt"]),
        "token": token, "csrf": links().csrf(token), "game": shown, "name": seat.name,
        "legal": legal, "groups": groups,
        "log": log, "recent": log[-RECENT_LINES:], "since": since_last_turn(log, index),
        "acted_before": acted > 0,
        "deadline": svc.deadline_of(game_id, index),
        "orders": standing_orders(seat, shown) if shown["status"] == "running" else [],
        "answers": STANDING_ANSWERS, "board": board_template(shown["game_type"]),
        "home_url": url_for("home.page", token=home_token(seat.email)),
        "public_url": url_for("games.page", game_id=game_id),
        "undo_answer_url": undo_answer_url(seat, shown), "undo_told": undo_told(seat, shown),
        "max_reason": MAX_REASON, "seq": shown["seq"],
        "tz": reader_zone(seat.email),
        "status": 200, "title": "", "message": None, "notice": None,
        "talk_to": [s for s in shown["seats"] if s["seat"] != index] if shown["status"] == "running" else [],
        "talk": talk, "unread": sum(1 for m in talk if m["new"]), "talk_kept": TALK_KEPT,
        "seat_state": autopilot.status(svc.store, game_id, index),
        "mail_trouble": mail_trouble(seat.email),
        "played_under": organisers.played_under(shown["game_type"], svc.load(game_id).config.options),
    }


def mail_trouble(email: str) -> dict[str, Any] | None:
    """The banner of a player whose mail comes back (``pbem.post.undelivered``), with the way to their games page."""
    found = undelivered.trouble_of(service().store, email)
    return {**found, "here": False, "home_url": url_for("home.page", token=home_token(email))} if found else None


def stale_page(seat: Seat, api: bool = False, meanwhile: bool = False) -> PageError:
    """The game moved on since the link was issued (or, ``meanwhile``, since the page): say so, show it now,
    and give the current link."""
    game_id, index = seat.claims.game_id, seat.claims.seat
    current = service().store.last(game_id)[0]
    token = links().play(game_id, index, current)
    game = service().show_seat(game_id, index)
    where = turn_label(game["game_type"], game["view"])  # the game's count: event numbers are the proof pages'
    now = f" (it is {where} now)" if where else ""
    said = (f"The game moved on while you were deciding{now}, and what you sent was made for an earlier "
            "moment." if meanwhile else
            f"This link was made before the latest moves: the game has moved on since{now}.")
    return PageError(
        409, "The game has moved on",
        f"{said} Nothing was changed. Below is the game as it is now; act from the current page.", "stale",
        {"current_seq": current, "issued_seq": seat.claims.seq, "current_token": token,
         "current_url": url_for("api.play" if api else "play.page", token=token),
         "game": game, "board": board_template(game["game_type"]), "name": seat.name, "where": where,
         "tz": reader_zone(seat.email)},
        template="web/stale.html")


def refuse_on_page(token: str, seat: Seat, err: Refusal) -> PageError:
    """A refused command: the play page again, with the reason on top; or the stale page, for a write that lost
    the race (refused after anything was recorded since the page: ``pbem.web.common.recorded_since``)."""
    shown = posted_seq(required=False)
    if isinstance(err, (StaleCommand, ConcurrencyError)) or \
            recorded_since(seat.claims.game_id, seat.claims.seq if shown is None else shown):
        return stale_page(seat, meanwhile=True)
    refusal = action_refused(err)
    context = page_context(token, seat)
    context.update(status=refusal.status, title=refusal.title, message=refusal.message)
    return PageError(refusal.status, refusal.title, refusal.message, refusal.code,
                     {k: v for k, v in context.items() if k not in ("status", "title", "message")},
                     template="web/play.html")


def posted_seat(token: str) -> Seat:
    """The link of a POST: valid, with a valid CSRF token, and not outdated."""
    seat = read_play(token)
    check_csrf(token, request.form.get("csrf"))
    posted_seq(required=False)  # a malformed seq is a 400 before anything else is looked at
    if seat.stale:
        raise stale_page(seat)
    return seat


def expected_seq(seat: Seat) -> int:
    """The move a POST is bound to: the link's, or the page's ``seq`` field if it is older.

    A play page is shown at the game's move, at or after the link's, with only delivery
    records between; either binds the write the same, and an older one only binds it harder.
    """
    shown = posted_seq(required=False)
    return seat.claims.seq if shown is None else min(shown, seat.claims.seq)


def chosen_command() -> str:
    text = command_text(request.form.get("text", ""))
    choice = command_text(request.form.get("choice", ""))
    chosen = text or choice
    if not chosen:
        raise PageError(400, "No action chosen", "Choose one of the actions, or type a command.", "no_command")
    return chosen


def done_page(seat: Seat, heading: str, result: CommandResult | None) -> str:
    svc = service()
    game_id, index = seat.claims.game_id, seat.claims.seat
    state = svc.load(game_id)  # as the command left it, or later (a standing order may have answered since)
    shown = svc.headline(state, index)
    token = links().play(game_id, index, shown["seq"])
    rules = svc.kernel.rules(state)
    names = [s["name"] for s in shown["seats"]]
    ended = shown["status"] == "ended"
    receipt = [{"seq": e.seq, "type": e.type, "hash": e.hash, "text": svc.describe_event(rules, e, index, ended, names),
                "repeats": logbook.left_out(rules, e, index, ended)} for e in (result.events if result else [])]
    where = turn_label(state.game_type, rules.view(state.game, index))  # the game's count, not the event's number
    return render_template("web/done.html", heading=heading, game=shown, name=seat.name, receipt=receipt, where=where,
                           tz=reader_zone(seat.email),
                           next_url=url_for("play.page", token=token),
                           audit_url=url_for("proof.player_audit", token=token, seq=receipt[0]["seq"])
                           if receipt else None,
                           verify_url=url_for("proof.verify", game_id=game_id),
                           home_url=url_for("home.page", token=home_token(seat.email)))


@bp.get("/<token>")
def page(token: str) -> Any:
    seat = read_play(token)
    if seat.stale:
        raise stale_page(seat)
    on = request.args.get("on", "")[:80] or None
    return render_template("web/play.html", **page_context(token, seat, on))


@bp.post("/<token>/preview")
def preview(token: str) -> Any:
    seat = posted_seat(token)
    text = chosen_command()
    svc = service()
    game_id, index = seat.claims.game_id, seat.claims.seat
    try:
        state = svc.load(game_id)
        rules = svc.kernel.rules(state)
        action = rules.parse(state.game, text)
        previewed = svc.kernel.preview(game_id, index, action)
    except (ActionError, ServiceError) as err:
        raise refuse_on_page(token, seat, err) from None
    view, hidden = None, ""
    if previewed is None:
        hidden = "This action involves chance (a die roll or a shuffle); its result appears once you confirm."
    elif any(draft.reveals for draft in previewed[1]):
        # a preview must not show a card before the player is committed to drawing it
        hidden = "This action reveals hidden information; its result appears once you confirm."
    else:
        after = previewed[0]
        view = svc.kernel.rules(after).view(after.game, index)
    shown = svc.show(game_id, seat.email)
    formatted = rules.format(state.game, action)
    legal = svc.legal(game_id, seat.email)
    return render_template("web/preview.html", token=token, csrf=links().csrf(token), text=text,
                           seq=expected_seq(seat), formatted=formatted,
                           in_words=said(choices(shown["game_type"], shown["view"], legal), formatted),
                           view=view, hidden=hidden, game=shown, name=seat.name,
                           where=turn_label(shown["game_type"], shown["view"]),
                           board=board_template(shown["game_type"]), tz=reader_zone(seat.email))


@bp.post("/<token>")
def act(token: str) -> Any:
    seat = posted_seat(token)
    text = chosen_command()
    try:
        result = service().act_as(seat.claims.game_id, seat.claims.seat, text,
                                  cause=Cause("link", seat.claims.cause()), expected_seq=expected_seq(seat))
    except (ActionError, ServiceError, ConcurrencyError) as err:
        raise refuse_on_page(token, seat, err) from None
    return done_page(seat, f"Done: {text}", result)


@bp.post("/<token>/undo")
def undo(token: str) -> Any:
    seat = posted_seat(token)
    try:
        result = service().undo(seat.claims.game_id, seat.email, cause=Cause("link", seat.claims.cause()),
                                expected_seq=expected_seq(seat))
    except (ActionError, ServiceError, ConcurrencyError) as err:
        raise refuse_on_page(token, seat, err) from None
    return done_page(seat, "Your last action was taken back", result)


@bp.post("/<token>/undo-request")
def undo_request(token: str) -> Any:
    seat = posted_seat(token)
    reason = request.form.get("reason", "")
    if not isinstance(reason, str) or len(reason) > MAX_REASON:
        raise PageError(400, "Reason too long", f"A reason has at most {MAX_REASON} characters.", "bad_field")
    try:
        result = service().request_undo(seat.claims.game_id, seat.claims.seat, reason,
                                        cause=Cause("link", seat.claims.cause()), expected_seq=expected_seq(seat))
    except (ActionError, ServiceError, ConcurrencyError) as err:
        raise refuse_on_page(token, seat, err) from None
    return done_page(seat, "Your request was sent to the other players", result)


@bp.post("/<token>/orders")
def orders(token: str) -> Any:
    seat = posted_seat(token)
    topic, answer = request.form.get("topic", ""), request.form.get("answer", "")
    allowed = {o["topic"] for o in standing_orders(seat, service().show(seat.claims.game_id, seat.email))}
    if topic not in allowed:
        raise PageError(400, "Unknown decision", "There is no such out-of-turn decision to set an order for.",
                        "bad_field")
    if answer not in STANDING_ANSWERS:
        raise PageError(400, "Bad answer", f"A standing order is one of {', '.join(STANDING_ANSWERS)}.",
                        "bad_field")
    try:
        result = service().set_standing_order(seat.claims.game_id, seat.claims.seat, topic, answer,
                                              cause=Cause("link", seat.claims.cause()),
                                              expected_seq=expected_seq(seat))
    except (ActionError, ServiceError, ConcurrencyError) as err:
        raise refuse_on_page(token, seat, err) from None
    return done_page(seat, f"Standing order saved: {answer}", result)
