"""After each command: which player must be told what, as outbox rows in the command's transaction."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from events.envelope import Event, actor_seat
from events.handling import is_delivery
from events.replay import GameState, undone_seqs
from events.store import Row
from pbem import undo_requests
from pbem.delivery import DEADLINE_SET, TIMED_OUT, UNDO_EVENTS, UNDO_REQUEST_CLOSED, UNDO_REQUESTED
from pbem.links import Links
from pbem.mail.outbox import mail_row
from pbem.mail.render import address, domain_of, new_message_id

if TYPE_CHECKING:
    from pbem.service import Service

SUBJECTS = {
    "turn": "Your turn",
    "prompt": "A decision for you",
    "reminder": "Reminder: your move is due",
    "timeout": "Your time ran out",
    "receipt": "Move recorded",
    "ended": "The game is over",
    "reply_error": "Your reply could not be applied",
    "undone": "A move was taken back",
    "undo_request": "Take back a move? Your answer is asked",
    "undo_closed": "No move taken back",
}


class Notifier:
    """Composes the mails of a command; knows the templates, the links and the addresses."""

    def __init__(self, links: Links, *, base_url: str, sender: str, reply_address: str) -> None:
        self.links = links
        self.base_url = base_url.rstrip("/")
        self.sender = sender
        self.reply_address = reply_address

    # ---- links and addresses -------------------------------------------------------------

    def play_url(self, game_id: str, seat: int, seq: int) -> str:
        return f"{self.base_url}/play/{self.links.play(game_id, seat, seq)}"

    def home_url(self, player_id: str) -> str:
        return f"{self.base_url}/home/{self.links.make('home', player_id)}"

    def organiser_url(self, game_id: str) -> str:
        return f"{self.base_url}/organise/{self.links.make('organiser', game_id)}"

    def unsubscribe_url(self, game_id: str, seat: int) -> str:
        return f"{self.base_url}/unsubscribe/{self.links.make('unsubscribe', f'{game_id}.{seat}')}"

    def undo_url(self, game_id: str, request: str, seat: int) -> str:
        return f"{self.base_url}/undo/{self.links.undo(game_id, request, seat)}"

    def reply_to(self, game_id: str, seat: int, seq: int) -> str:
        local, _, domain = self.reply_address.partition("@")
        return f"{local}+{self.links.play(game_id, seat, seq)}@{domain}"

    def thread_root(self, game_id: str, seat: int) -> str:
        return f"<{game_id}.{seat}.pbem@{domain_of(self.sender)}>"

    # ---- the mails of one command --------------------------------------------------------

    def for_command(self, service: Service, before: GameState[Any] | None, after: GameState[Any],
                    events: list[Event], players: list[dict[str, Any]]) -> list[Row]:
        rules = service.kernel.rules(after)
        prompts = rules.prompts(after.game) if not after.ended else {}
        deadlines = {e.payload["seat"]: e.payload for e in events if e.type == DEADLINE_SET}
        timed_out = {e.payload["seat"] for e in events if e.type == TIMED_OUT}
        actor = actor_seat(str(events[0].cause.get("actor", "")))
        undo = any(e.type == "pbem.ActionsUndone" for e in events)
        asked = any(e.type in UNDO_EVENTS for e in events)
        if asked and is_delivery(events):
            return self.undo_request_mails(service, after, events, players)  # all that a request or answer causes
        rows: list[Row] = []
        agreed = next((e.payload for e in events if e.type == UNDO_REQUEST_CLOSED), None)
        extra = None
        if agreed is not None and agreed["result"] == "approved":
            asker = after.config.seats[agreed["seat"]].name
            extra = {"agreement": f"at {asker}'s request ({agreed['reason']})"}
        for player in players:
            seat = int(player["seat"])
            if after.ended:
                kind = "ended"
            elif seat in deadlines:
                kind = "turn" if deadlines[seat]["kind"] == "turn" else "prompt"
            elif seat in timed_out:
                kind = "timeout"
            elif seat == actor and not undo:
                kind = "receipt"
            elif undo:
                kind = "undone"
            else:
                continue
            if not player.get("mail", 1):
                continue
            rows += self.compose(service, after, events, player, kind, prompts.get(seat),
                                 deadline=deadlines.get(seat, {}).get("due_at"),
                                 receipt=[e for e in events if seat == actor], extra=extra)
        if asked:  # a move that lapsed a request, or the undo that an approval applied
            rows += self.undo_request_mails(service, after, events, players)
        return rows

    def undo_request_mails(self, service: Service, after: GameState[Any], events: list[Event],
                           players: list[dict[str, Any]]) -> list[Row]:
        """The asked players' mails of a new undo request, and everyone's of a request closed without an undo.

        An approved request needs no mail of its own: its undo is mailed like any other.
        """
        names = [s.name for s in after.config.seats]
        actor = actor_seat(str(events[0].cause.get("actor", "")))
        rows: list[Row] = []
        for event in events:
            if event.type == UNDO_REQUESTED:
                request = undo_requests.from_event(event)
                for player in players:
                    seat = int(player["seat"])
                    if seat not in request.approvers or not player.get("mail", 1):
                        continue
                    url = self.undo_url(after.game_id, request.request, seat)
                    extra = {"asker": names[request.seat], "request": request.to_json(names),
                             "moves": undo_requests.moves(service, after, request, seat),
                             "others": [names[s] for s in request.approvers if s != seat], "undo_url": url,
                             "approve_url": f"{url}?answer=approve", "refuse_url": f"{url}?answer=refuse"}
                    rows += self.compose(service, after, events, player, "undo_request", None, extra=extra)
            elif event.type == UNDO_REQUEST_CLOSED and event.payload["result"] != "approved":
                p = event.payload
                for player in players:
                    seat = int(player["seat"])
                    if (seat == actor and p["result"] == "refused") or not player.get("mail", 1):
                        continue  # who refused knows
                    extra = {"asker": names[p["seat"]], "asked_by_you": seat == p["seat"], "result": p["result"],
                             "closed_reason": p["reason"]}
                    rows += self.compose(service, after, events, player, "undo_closed", None, extra=extra)
        return rows

    def compose(self, service: Service, state: GameState[Any], new_events: Sequence[Event],
                player: Mapping[str, Any], kind: str, prompt: Any, *, deadline: str | None = None,
                receipt: Sequence[Event] = (), extra: Mapping[str, Any] | None = None) -> list[Row]:
        """One mail to one player, and the update of what they have been told."""
        game_id, seat = state.game_id, int(player["seat"])
        rules = service.kernel.rules(state)
        sent = service.store.query("SELECT last_seq FROM seat_mail WHERE game_id = ? AND seat = ?",
                                   (game_id, seat))
        last_seq = int(sent[0]["last_seq"]) if sent else 0
        history = {e.seq: e for e in service.store.read(game_id, last_seq)}
        history.update({e.seq: e for e in new_events if e.seq > last_seq})
        since = self.describe(service, state, [history[k] for k in sorted(history)], seat)[-60:]
        now = datetime.now(timezone.utc)
        context = {
            "kind": kind, "game_id": game_id, "title": rules.title, "player": player["name"], "seat": seat,
            "seats": [s.name for s in state.config.seats], "prompt": prompt.to_json() if prompt else None,
            "deadline": deadline or service.deadline_of(game_id, seat), "now": now.isoformat(timespec="minutes"),
            "since": since, "view": rules.view(state.game, seat),
            "play_url": self.play_url(game_id, seat, state.seq) if prompt else None,
            "reply_to": self.reply_to(game_id, seat, state.seq) if prompt else None,
            "home_url": self.home_url(service.player_id(str(player["email"]))),
            "commands": service.legal_texts(state, seat)[:12] if prompt else [],
            "receipt": [{"seq": e.seq, "hash": e.hash, "type": e.type} for e in receipt],
            "audit_url": f"{self.play_url(game_id, seat, state.seq)}/audit/{receipt[0].seq}" if receipt else None,
            "replay_url": f"{self.play_url(game_id, seat, state.seq)}/replay",
            "verify_url": f"{self.base_url}/games/{game_id}/verify",
            "outcome": state.outcome, "seed": state.seed, "seq": state.seq,
            **(extra or {}),
        }
        subject = f"[{rules.title} {game_id}] {SUBJECTS[kind]}"
        if kind in ("turn", "prompt") and prompt:
            subject += f": {prompt.text}"
        root = self.thread_root(game_id, seat)
        message_id = root if not sent else new_message_id(self.sender)
        stamp = now.isoformat(timespec="microseconds")
        draft = {"template": kind, "context": context, "sender": self.sender, "subject": subject,
                 "to": address(str(player["name"]), str(player["email"])), "message_id": message_id,
                 "thread_root": root, "reply_to": context["reply_to"], "date": stamp,
                 "unsubscribe_url": self.unsubscribe_url(game_id, seat)}
        return [
            mail_row(game_id=game_id, seat=seat, to_addr=str(player["email"]), kind=kind, subject=subject,
                     message_id=message_id, draft=draft, now=stamp),
            Row("seat_mail", {"game_id": game_id, "seat": seat, "last_seq": state.seq}, pk=("game_id", "seat")),
        ]

    @staticmethod
    def describe(service: Service, state: GameState[Any], events: Sequence[Event], seat: int) -> list[str]:
        """What happened, in words, as this seat may read it (the delivery layer's own events left out)."""
        rules = service.kernel.rules(state)
        names = [s.name for s in state.config.seats]
        skipped = undone_seqs(events)
        lines = []
        for event in events:
            if event.type.startswith("pbem.") and event.type not in ("pbem.ActionsUndone", "pbem.GameEnded"):
                continue
            if event.type == "pbem.RandomDrawn":
                continue
            text = service.describe_event(rules, event, seat, state.ended, names)
            lines.append(f"{event.seq}. {text}" + (" (taken back)" if event.seq in skipped else ""))
        return lines
