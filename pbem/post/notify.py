"""After each command: which player must be told what, as outbox rows in the command's transaction."""

from __future__ import annotations

import re
from datetime import datetime, timezone
from typing import Any, Mapping, Sequence

from events.envelope import Event, actor_seat
from events.handling import is_delivery
from events.replay import GameState
from events.store import Row
from pbem.post.desk import Desk
from pbem.table import autopilot, undo_requests
from pbem.proof import logbook, takeback
from pbem.post import held, owed_mail, story, talk_mail, webhooks
from pbem.table.delivery import DEADLINE_SET, TIMED_OUT, UNDO_EVENTS, UNDO_REQUEST_CLOSED, UNDO_REQUESTED
from pbem.instance.links import Links
from pbem.post.mail.outbox import mail_rows
from pbem.post.mail.render import address, domain_of, new_message_id
from pbem.post.people import MailSettings, mail_settings, readers
from pbem.instance.times import DEFAULT_ZONE, short_time, zone_in, zone_of
from pbem.games.presentation import turn_label
from pbem.table import naming
from pbem.table.seat_events import AUTOPILOT_ON
from pbem.table.talk import is_talk


HISTORY_LINES = 400  # the seat's log in a welcome mail: the latest lines; the replay has all of it
SUBJECT_WORDS = 64  # a decision's words in a subject, at most (cut at a word)

SUBJECTS = {
    "turn": "Your turn",
    "prompt": "A decision for you",
    "reminder": "Reminder: your turn",
    "timeout": "Your time ran out",
    "receipt": "Move recorded",
    "ended": "Game over",
    "reply_error": "Your reply could not be applied",
    "undone": "A move was taken back",
    "undo_request": "Take back a move? Your answer is asked",
    "undo_closed": "No move taken back",
    "welcome": "Welcome: this seat is yours now",
}


class Notifier:
    """Composes the mails of a command; knows the templates, the links and the addresses."""

    @classmethod
    def of(cls, settings: Mapping[str, Any], links: Links) -> Notifier:
        """The notifier an instance's settings describe."""
        return cls(links, base_url=str(settings["base_url"]), sender=str(settings["mail_from"]),
                   reply_address=str(settings["reply_address"]), timezone=str(settings["timezone"]),
                   idle_minutes=float(settings["idle_minutes"]))

    def __init__(self, links: Links, *, base_url: str, sender: str, reply_address: str,
                 timezone: str = DEFAULT_ZONE, idle_minutes: float = 10.0) -> None:
        self.links = links
        self.timezone = timezone  # of players who chose none
        self.idle_minutes = idle_minutes  # how long a player who just acted is left alone (``pbem.post.held``)
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

    def unsubscribe_url(self, game_id: str, seat: int, seq: int = 0) -> str:
        """The seq (the move it was made at) ends the link when the seat changes hands (``pbem.table.replacing``)."""
        return f"{self.base_url}/unsubscribe/{self.links.make('unsubscribe', f'{game_id}.{seat}.{seq}')}"

    def undo_url(self, game_id: str, request: str, seat: int) -> str:
        return f"{self.base_url}/undo/{self.links.undo(game_id, request, seat)}"

    def reply_to(self, game_id: str, seat: int, seq: int, play_url: str | None = None) -> str:
        """The reply address: the play link's token after a ``+`` (``play_url``'s, if it is given)."""
        local, _, domain = self.reply_address.partition("@")
        token = play_url.rsplit("/", 1)[-1] if play_url else self.links.play(game_id, seat, seq)
        return f"{local}+{token}@{domain}"

    def thread_root(self, game_id: str, seat: int) -> str:
        return f"<{game_id}.{seat}.pbem@{domain_of(self.sender)}>"

    # ---- the mails of one command --------------------------------------------------------

    def for_command(self, service: Desk, before: GameState[Any] | None, after: GameState[Any],
                    events: list[Event], players: list[dict[str, Any]]) -> list[Row]:
        if is_talk(events):  # a mail soon for who wants one (``pbem.post.talk_mail``); else their next mail, or digest
            return talk_mail.wait(service.store, after, events, players)
        rules = service.kernel.rules(after)
        prompts = rules.prompts(after.game) if not after.ended else {}
        deadlines = {e.payload["seat"]: e.payload for e in events if e.type == DEADLINE_SET}
        timed_out = {e.payload["seat"] for e in events if e.type == TIMED_OUT}
        actor = actor_seat(str(events[0].cause.get("actor", "")))
        undo = any(e.type == "pbem.ActionsUndone" for e in events)
        asked = any(e.type in UNDO_EVENTS for e in events)
        delivery = is_delivery(events)  # an absence, a pause, an order: no move, so no decision is new
        if asked and delivery:
            return self.undo_request_mails(service, after, events, players)  # all that a request or answer causes
        # the player's own command (not a time-out, an order, autopilot): they are at the game now, and so, for
        # ``idle_minutes`` after it, is anyone who acted a moment ago (``pbem.post.held``)
        own = actor is not None and events[0].cause.get("via") in held.OWN and self.idle_minutes > 0
        rows: list[Row] = story.rows(service.store, rules, after)
        if own:
            assert actor is not None
            rows.append(held.hold(after, actor, events[-1].recorded_at, self.idle_minutes))
        at_it = held.active(service.store, after.game_id, datetime.now(timezone.utc)) \
            if prompts and self.idle_minutes > 0 else set()
        agreed = next((e.payload for e in events if e.type == UNDO_REQUEST_CLOSED), None)
        extra = None
        if agreed is not None and agreed["result"] == "approved":
            asker = after.config.seats[agreed["seat"]].name
            extra = {"agreement": f"at {asker}'s request ({agreed['reason']})"}
        known = readers(service.store, [str(p["email"]) for p in players])
        piloted = autopilot.piloted(service.store, after.game_id, events) if prompts else set()
        for player in players:
            seat = int(player["seat"])
            row = known.get(str(player["email"]))
            chosen = MailSettings.of(row)
            again = seat == actor and not delivery and seat in prompts  # the mover (or the undoer) decides again at once
            if after.ended:
                kind = "ended"
            elif seat in deadlines or again:
                if seat in piloted:
                    continue  # the scheduler plays it at once: "your turn" would be wrong (docs/playing.md)
                kind = "turn" if (deadlines.get(seat, {}).get("kind") or prompts[seat].kind) == "turn" else "prompt"
                if (own and seat == actor) or seat in at_it:
                    continue  # they are at the game: one mail later, if they leave it waiting (``pbem.post.held``)
            elif seat in timed_out:
                kind = "timeout"
            elif seat == actor and not undo and not delivery:
                kind = "receipt"  # the move ended the mover's part: they saw the result on the page
            elif undo and not (own and seat == actor):
                kind = "undone"
            else:
                continue
            if not player.get("mail", 1):
                continue
            if kind == "receipt" and not chosen.receipts:
                continue  # folded into their next mail
            if kind in ("turn", "prompt") and chosen.mode == "daily":
                continue  # the digest lists it
            if kind != "receipt" and not (own and seat == actor):
                rows.append(held.drop(after.game_id, seat))  # this mail tells all that a held one would
            rows.append(owed_mail.owe(after, len(rows), player, kind, deadline=deadlines.get(seat, {}).get("due_at"),
                                      extra=extra, tz=zone_in(row, self.timezone)))  # composed after the command
        if asked:  # a move that lapsed a request, or the undo that an approval applied
            rows += self.undo_request_mails(service, after, events, players, start=len(rows))
        return rows + self.game_posts(service, after, events, prompts, deadlines)

    def game_posts(self, service: Desk, after: GameState[Any], events: list[Event], prompts: Mapping[int, Any],
                   deadlines: Mapping[int, Mapping[str, Any]]) -> list[Row]:
        """The posts to the game's webhooks, if the command is news for the table (``pbem.post.webhooks``)."""
        rules = service.kernel.rules(after)
        return webhooks.game_posts(service.store, after, events, title=rules.title, prompts=prompts,
                                   due=lambda seat: (deadlines.get(seat, {}).get("due_at")
                                                     or service.deadline_of(after.game_id, seat)),
                                   base_url=self.base_url,
                                   label=lambda: turn_label(after.game_type, rules.view(after.game, None)),
                                   describe_event=lambda e, seat, ended, names: "" if logbook.left_out(
                                       rules, e, seat, ended) else logbook.describe_event(rules, e, seat, ended, names))

    def undo_request_mails(self, service: Desk, after: GameState[Any], events: list[Event],
                           players: list[dict[str, Any]], start: int = 0) -> list[Row]:
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
                    told = takeback.told(service, after, request, seat)
                    extra = {"asker": names[request.seat], "request": request.to_json(names),
                             "moves": list(told.lines), "told": told.to_json(),
                             "others": [names[s] for s in request.approvers if s != seat], "undo_url": url,
                             "approve_url": f"{url}?answer=approve", "refuse_url": f"{url}?answer=refuse"}
                    rows.append(owed_mail.owe(after, start + len(rows), player, "undo_request", deadline=None,
                                              extra=extra,
                                              tz=zone_of(service.store, str(player["email"]), self.timezone)))
            elif event.type == UNDO_REQUEST_CLOSED and event.payload["result"] != "approved":
                p = event.payload
                for player in players:
                    seat = int(player["seat"])
                    if (seat == actor and p["result"] == "refused") or not player.get("mail", 1):
                        continue  # who refused knows
                    extra = {"asker": names[p["seat"]], "asked_by_you": seat == p["seat"], "result": p["result"],
                             "closed_reason": p["reason"]}
                    rows.append(owed_mail.owe(after, start + len(rows), player, "undo_closed", deadline=None,
                                              extra=extra,
                                              tz=zone_of(service.store, str(player["email"]), self.timezone)))
        return rows

    # ---- a seat's life: the organiser asked for a substitute, a seat given to another player ------------

    def substitute_wanted(self, service: Desk, state: GameState[Any], seat: int,
                          events: Sequence[Event]) -> list[Row]:
        """Ask the game's organiser to find a substitute for a seat on autopilot (no organiser: no mail)."""
        organiser = autopilot.organiser_of(service.store, state.game_id)
        if not organiser:
            return []
        reason = next((e.payload["reason"] for e in events if e.type == AUTOPILOT_ON and e.payload["seat"] == seat),
                      "")
        title = service.kernel.rules(state).title
        name = state.config.seats[seat].name
        subject = f"[{naming.name_of(state, title)}] {name} is on autopilot: a substitute is wanted"
        stamp = datetime.now(timezone.utc).isoformat(timespec="microseconds")
        context = {"title": title, "game_id": state.game_id, "name": name, "reason": reason,
                   "organise_url": self.organiser_url(state.game_id), "seat": seat}
        message_id = new_message_id(self.sender)
        draft = {"template": "substitute", "context": context, "sender": self.sender, "subject": subject,
                 "to": organiser, "message_id": message_id, "thread_root": message_id, "reply_to": None,
                 "date": stamp, "unsubscribe_url": None}
        return mail_rows(game_id=state.game_id, seat=None, to_addr=organiser, kind="substitute", subject=subject,
                         message_id=message_id, draft=draft, now=stamp)

    def seat_replaced(self, service: Desk, state: GameState[Any], seat: int, old: Mapping[str, Any],
                      new: Mapping[str, Any], since: int) -> list[Row]:
        """The new holder's welcome (the seat's view and its log as the seat saw it) and the old holder's notice."""
        rules = service.kernel.rules(state)
        prompt = rules.prompts(state.game).get(seat) if not state.ended else None
        # the seat's log in words: what a new player needs to take it over, without the words of their
        # predecessor's private notes and kept reasons, which were that player's own
        history = [str(line["text"]) for line in logbook.log(service, state.game_id, seat, holder_since=since)
                   if not line.get("undone") and not line.get("repeats")]
        welcome = self.compose(service, state, new, "welcome", prompt, holder_since=since,
                               extra={"history": history[-HISTORY_LINES:],
                                      "history_more": max(0, len(history) - HISTORY_LINES),
                                      "previous": old["name"]},
                               told=since - 1)  # they were told nothing before: the seat's history is above
        return welcome + self.seat_given(service, state, old, str(new["name"]))

    def seat_given(self, service: Desk, state: GameState[Any], old: Mapping[str, Any], new_name: str) -> list[Row]:
        """The old player's mail: their seat went to another player; no view, no link to the seat."""
        title = service.kernel.rules(state).title
        subject = f"[{naming.name_of(state, title)}] Your seat was given to another player"
        stamp = datetime.now(timezone.utc).isoformat(timespec="microseconds")
        context = {"title": title, "game_id": state.game_id, "player": old["name"], "new_name": new_name,
                   "home_url": self.home_url(service.player_id(str(old["email"])))}
        message_id = new_message_id(self.sender)
        draft = {"template": "seat_given", "context": context, "sender": self.sender, "subject": subject,
                 "to": address(str(old["name"]), str(old["email"])), "message_id": message_id,
                 "thread_root": self.thread_root(state.game_id, int(old["seat"])), "reply_to": None, "date": stamp,
                 "unsubscribe_url": None}
        return mail_rows(game_id=state.game_id, seat=None, to_addr=str(old["email"]), kind="seat_given",
                         subject=subject, message_id=message_id, draft=draft, now=stamp)

    def context(self, service: Desk, state: GameState[Any], player: Mapping[str, Any], kind: str, prompt: Any, *,
                told: int, deadline: str | None, now: datetime, tz: str,
                extra: Mapping[str, Any] | None = None, holder_since: int | None = None) -> dict[str, Any]:
        """What a mail to this player says at ``state``: the story since their last own turn (``pbem.post.story``),
        what to do, the table, and the proof of their own moves since their last mail (at ``told``)."""
        game_id, seat = state.game_id, int(player["seat"])
        rules = service.kernel.rules(state)
        told_story = story.tell(service, state, seat, told, holder_since)
        view = dict(rules.view(state.game, seat))
        if view.get("assumed"):  # a mail says it in one sentence with a link (the page lists them): not the list
            view["uses_assumed_data"] = True
            del view["assumed"]
        play_url = self.play_url(game_id, seat, state.seq)  # signed once: the page, its replay and audit pages
        own = told_story.own
        return {
            "kind": kind, "game_id": game_id, "title": rules.title, "name": naming.name_of(state, rules.title),
            "label": turn_label(state.game_type, view), "player": player["name"], "seat": seat,
            "seats": [s.name for s in state.config.seats], "prompt": prompt.to_json() if prompt else None,
            "deadline": deadline, "now": now.isoformat(timespec="minutes"),
            "story": told_story.groups, "story_more": told_story.cut, "since": told_story.lines, "view": view,
            "play_url": play_url if prompt else None,
            "reply_to": self.reply_to(game_id, seat, state.seq, play_url) if prompt else None,
            "home_url": self.home_url(service.player_id(str(player["email"]))),
            "commands": service.legal_texts(state, seat, 12) if prompt else [],
            # the proof of their own moves since their last mail: one witness line, not a list of hashes
            "recorded": {"seq": own[-1][0], "hash": own[-1][1], "count": len(own)} if own else None,
            "audit_url": f"{play_url}/audit/{own[0][0]}" if own else None,
            "replay_url": f"{play_url}/replay",
            "verify_url": f"{self.base_url}/games/{game_id}/verify",
            "outcome": state.outcome, "seed": state.seed, "seq": state.seq,
            "witness": {"game_id": game_id, "seq": state.seq, "hash": state.last_hash},
            "tz": tz,
            "game_type": state.game_type, "assumed_url": f"{self.base_url}/games/{game_id}/assumed",
            "default_text": self.default_text(rules, state, prompt),
            **(extra or {}),
        }

    def compose(self, service: Desk, state: GameState[Any], player: Mapping[str, Any], kind: str, prompt: Any, *,
                deadline: str | None = None, extra: Mapping[str, Any] | None = None, tz: str | None = None,
                told: int | None = None, holder_since: int | None = None) -> list[Row]:
        """One mail to one player, and the update of what they have been told.

        The mail tells everything since the player's last own turn (``pbem.post.story``, read from the store as the
        log gives it to them) and, in one witness line, the last event their own moves recorded since their last
        mail (a move that ended their part sent no mail of its own). The player's time zone (``tz``, if the caller
        read it) is fixed in the draft now: a zone chosen later applies to later mails. ``told``: the last seq the
        player was told of, if the caller knows it (``pbem.post.owed_mail`` composes several mails of one player
        before writing any). ``holder_since``: where a replacement's hold of the seat began (their welcome).
        """
        game_id, seat = state.game_id, int(player["seat"])
        if told is None:
            found = service.store.query("SELECT last_seq FROM seat_mail WHERE game_id = ? AND seat = ?",
                                        (game_id, seat))
            told = int(found[0]["last_seq"]) if found else 0
        sent = told > 0
        now = datetime.now(timezone.utc)
        tz = tz or zone_of(service.store, str(player["email"]), self.timezone)
        context = self.context(service, state, player, kind, prompt, told=told,
                               deadline=deadline or service.deadline_of(game_id, seat), now=now, tz=tz, extra=extra,
                               holder_since=holder_since)
        subject = self.subject(kind, state, context["name"], context["label"], prompt, context["deadline"], tz)
        root = self.thread_root(game_id, seat)
        message_id = root if not sent else new_message_id(self.sender)
        stamp = now.isoformat(timespec="microseconds")
        draft = {"template": kind, "context": context, "sender": self.sender, "subject": subject,
                 "to": address(str(player["name"]), str(player["email"])), "message_id": message_id,
                 "thread_root": root, "reply_to": context["reply_to"], "date": stamp,
                 "unsubscribe_url": self.unsubscribe_url(game_id, seat, state.seq)}
        return [
            *mail_rows(game_id=game_id, seat=seat, to_addr=str(player["email"]), kind=kind, subject=subject,
                      message_id=message_id, draft=draft, now=stamp),
            Row("seat_mail", {"game_id": game_id, "seat": seat, "last_seq": max(told, state.seq)},
                pk=("game_id", "seat")),
        ] + webhooks.for_mail(service.store, draft, email=str(player["email"]), game_id=game_id, seat=seat,
                              kind=kind, base_url=self.base_url)

    def digest(self, service: Desk, player: Mapping[str, Any], now: datetime) -> list[Row]:
        """A player's daily digest: every game where it is their move, with its deadline and current link (if they
        chose the digest for their decisions), and the table talk not mailed to them yet (if they chose it for talk).

        No mail when nothing is to be told. Written apart from any game: it names no game's record
        (no witness) and moves no game's "since your last mail". A seat on autopilot is left out: the
        scheduler plays its prompt, not the player (as its turn mails are held, ``for_command``).
        """
        email = str(player["email"])
        chosen = mail_settings(service.store, email)
        rows = service.games_of(str(player["player_id"]))
        games = []
        decisions = chosen.mode == "daily" or chosen.talk != "digest"  # not a digest of talk alone
        for row in rows if decisions else []:
            if row["status"] != "running" or not row["due_at"]:
                continue
            if autopilot.status(service.store, str(row["game_id"]), int(row["seat"]))["autopilot"]:
                continue
            games.append({"title": row["title"], "game_id": row["game_id"], "name": row["name"],
                          "what": "your turn" if row["kind"] == "turn" else "a decision for you",
                          "due_at": row["due_at"], "last_seq": row["last_seq"],
                          "play_url": self.play_url(row["game_id"], int(row["seat"]), int(row["last_seq"]))})
        talk, told = talk_mail.digest_lines(service, rows) if chosen.talk == "digest" else ([], [])
        if not games and not talk:
            return []
        games.sort(key=lambda g: str(g["due_at"]))
        tz = zone_of(service.store, email, self.timezone)
        count = f"{len(games)} game{'s' if len(games) != 1 else ''}"
        said = sum(len(t["lines"]) for t in talk)
        messages = f"{said} message{'s' if said != 1 else ''} at your tables"
        subject = f"[pbem] Your move in {count} (first due {short_time(games[0]['due_at'], tz)})" if games else \
            f"[pbem] {messages[:1].upper()}{messages[1:]}"
        if games and talk:
            subject += f"; {messages}"
        stamp = now.isoformat(timespec="microseconds")
        context = {"player": games[0]["name"] if games else (rows[0]["name"] if rows else player["name"]),
                   "games": games, "tz": tz, "count": count, "talk": talk,
                   "home_url": self.home_url(str(player["player_id"]))}
        message_id = new_message_id(self.sender)
        draft = {"template": "digest", "context": context, "sender": self.sender, "subject": subject,
                 "to": address(str(context["player"]), email), "message_id": message_id, "thread_root": message_id,
                 "reply_to": None, "date": stamp, "unsubscribe_url": None, "list": ("Your daily digest", "digest"),
                 "settings_url": context["home_url"] + "#mail-h"}
        return mail_rows(game_id=None, seat=None, to_addr=email, kind="digest", subject=subject,
                         message_id=message_id, draft=draft, now=stamp) + told + webhooks.for_mail(
            service.store, draft, email=email, game_id=None, seat=None, kind="digest", base_url=self.base_url)

    @staticmethod
    def subject(kind: str, state: GameState[Any], name: str, label: str | None, prompt: Any, deadline: str | None,
                tz: str) -> str:
        """``[Friday game] Your turn (turn 6, action 2 of 2)``: the game's name, what to do, where the game stands.

        Subjects show in notification previews: they say what the mail's decision is in its own words (its first
        sentence, never a card in the hand), so two mails of two decisions differ.
        """
        at = f" ({label})" if label else ""
        if kind in ("turn", "prompt") and prompt is not None:
            words = decision_words(str(prompt.text)) + at
        elif kind == "reminder":
            what = "your turn" if prompt is None or prompt.kind == "turn" else "a decision for you"
            due = f"due {short_time(deadline, tz)}" if deadline else ""
            words = f"Reminder: {what}" + (f" ({'; '.join(w for w in (label, due) if w)})" if label or due else "")
        elif kind == "ended" and state.outcome:
            names = [s.name for s in state.config.seats]
            winners = [names[int(w)] for w in state.outcome.get("winners", []) if 0 <= int(w) < len(names)]
            words = f"Game over: {' and '.join(winners)} win{'s' if len(winners) == 1 else ''}" if winners \
                else SUBJECTS[kind]
        elif kind in ("timeout", "receipt", "undone", "reply_error"):
            words = SUBJECTS[kind] + at
        else:
            words = SUBJECTS[kind]
        return f"[{name}] {words}"

    @staticmethod
    def default_text(rules: Any, state: GameState[Any], prompt: Any) -> str | None:
        """What a time-out plays, as the command the player would type."""
        if prompt is None or prompt.default is None:
            return None
        try:
            return str(rules.format(state.game, prompt.default))
        except Exception:  # a default the syntax cannot say: the mail falls back to its kind
            return None


def decision_words(text: str) -> str:
    """What a prompt asks, as a subject says it: ``Your turn``, or the prompt's first sentence without its asides
    (``Continue your action: move your agents, or stop``), cut at a word after ``SUBJECT_WORDS`` characters."""
    if text.strip().lower().startswith("your turn"):
        return "Your turn"  # the turn's label says which action
    first = re.split(r"(?<=[.?!])\s", text.strip(), maxsplit=1)[0]
    first = re.sub(r"\s*\([^)]*\)", "", first).rstrip(" .")
    if len(first) > SUBJECT_WORDS:
        first = first[:SUBJECT_WORDS].rsplit(" ", 1)[0].rstrip(",;:") + "…"
    return first[:1].upper() + first[1:] if first else "A decision for you"
