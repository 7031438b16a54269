"""Webhooks: a game's or a player's news posted to a Discord or Slack channel, or to any JSON endpoint.

A webhook belongs to a game (its organiser adds it) or to a player (by their address). Whatever is mail-worthy
for its owner is also posted there, as a row of the same outbox (``channel = 'webhook'``), claimed, retried and
backed off by the same sender as mail (``pbem.post.mail.dispatch``); ``pbem.post.webhook_post`` does the posting.

* **What it sees.** A game's webhook reads like a spectator: the public log's lines, who the game waits for (the
  kind of decision, never its text) and the outcome. A player's webhook gets what that player's mails say: their
  own lines (their messages, their cards), their prompt, their deadline.
* **No signed links.** A post carries the game's public page, never a play or home link: a chat channel is
  shared, its service keeps every message, and Slack and Discord fetch the links posted (previews), so a link
  that acts as the player would leave their hands. A player acts from their mail or home page.
* **The address is a secret** (a Discord or Slack webhook URL is its own password): it is kept in the
  ``webhooks`` table only, and pages, lists, logs and events show its host. Adding or removing a game's webhook
  is a public event of the game (``pbem.WebhookAdded`` / ``pbem.WebhookRemoved``: id, kind, host); a player's
  webhook concerns no one game and stays a row, never deleted (``removed_at``).
* **Generic endpoints are signed**: a per-webhook secret, shown once when it is added, signs
  ``TIMESTAMP.BODY`` with HMAC-SHA256 (``docs/web.md`` shows how to check it).
"""

from __future__ import annotations

import ipaddress
import json
import secrets
import uuid
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Callable, Mapping, Sequence
from urllib.parse import urlsplit

from events.envelope import ORGANISER, Event, NewEvent, Visibility
from events.handling import Cause, CommandResult
from events.replay import GameState, undone_seqs
from events.schema import ACTIONS_UNDONE, GAME_ENDED, RANDOM_DRAWN
from events.store import Row, SQLiteEventStore, write_row
from pbem.table.delivery import DEADLINE_SET, TIMED_OUT, WEBHOOK_ADDED, WEBHOOK_KINDS, WEBHOOK_REMOVED, public_prompt
from pbem.instance.times import utc
from pbem.table.hooks import WithRows
from pbem.errors import NotFound, ServiceError
from pbem.post.mail.outbox import OUTBOX, pack
from pbem.table.talk import TALK_TYPES
from pbem.post.desk import Desk


WEBHOOKS = "webhooks"
CHANNEL = "webhook"   # the outbox's channel of a post (a mail's is "mail")
KINDS = tuple(WEBHOOK_KINDS)
KIND_NAMES = WEBHOOK_KINDS
MAX_URL = 2000
MAX_TEXT = 1900       # characters of a post's text (Discord takes 2000)
SINCE_LINES = 12      # a game post's lines: the latest since its last post
DISCORD_HOSTS = ("discord.com", "discordapp.com", "ptb.discord.com", "canary.discord.com")
SLACK_HOSTS = ("hooks.slack.com",)
# A game's post: what makes a command news for the table (as it is for mail): a turn or a decision asked,
# a time-out, an undo, the end.
NEWS = (DEADLINE_SET, TIMED_OUT, ACTIONS_UNDONE, GAME_ENDED)


class WebhookError(ServiceError):
    """A webhook that cannot be added or removed; the message says why and what to give instead."""




def create_tables(store: SQLiteEventStore) -> None:
    # owner: the game's id (owner_kind game) or the player's address (owner_kind player); url and secret are
    # read by the sender only; last_seq: the event a game webhook's last post went up to
    store.ensure_table(WEBHOOKS, {"id": str, "owner_kind": str, "owner": str, "kind": str, "url": str, "host": str,
                                  "secret": str, "created_at": str, "removed_at": str, "last_seq": int},
                       pk="id", indexes=[("owner_kind", "owner")])


@dataclass(frozen=True)
class Policy:
    """The operator's rules for webhooks (settings ``webhook_limit`` and ``webhook_loopback``)."""

    limit: int = 3
    allow_loopback: bool = False

    @classmethod
    def of(cls, settings: Any) -> Policy:
        return cls(int(settings["webhook_limit"]), bool(settings["webhook_loopback"]))


@dataclass(frozen=True)
class Target:
    kind: str
    url: str
    host: str


Address = ipaddress.IPv4Address | ipaddress.IPv6Address

NAT64 = ipaddress.IPv6Network("64:ff9b::/96")              # the well-known prefix: the last 32 bits are the IPv4 host
NAT64_LOCAL = ipaddress.IPv6Network("64:ff9b:1::/48")      # a network's own translator: never the internet's
COMPATIBLE = ipaddress.IPv6Network("::/96")                 # ::a.b.c.d, IPv4-compatible (deprecated, still parsed)


def embedded_ipv4(address: Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 one carries, which a connection to it reaches: IPv4-mapped (``::ffff:a.b.c.d``),
    IPv4-compatible (``::a.b.c.d``), NAT64 (``64:ff9b::a.b.c.d``) and 6to4 (``2002:AABB:CCDD::``); else None."""
    if isinstance(address, ipaddress.IPv4Address):
        return None
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address.sixtofour is not None:
        return address.sixtofour
    if address in NAT64 or (address in COMPATIBLE and int(address) > 1):  # ::1 and :: are themselves
        return ipaddress.IPv4Address(int(address) & 0xFFFF_FFFF)
    return None


def postable(address: Address, *, allow_loopback: bool = False) -> bool:
    """Whether this server may post to an address: one of the internet's unicast addresses (``is_global``), decided
    on the IPv4 address an IPv6 form embeds; never a multicast group (which ``is_global`` lets through), never a
    network's own NAT64 prefix; this machine only if ``allow_loopback``."""
    if isinstance(address, ipaddress.IPv6Address) and address in NAT64_LOCAL:
        return False
    if allow_loopback and _this_machine(address):
        return True
    inner = embedded_ipv4(address)
    reached = address if inner is None else inner
    return reached.is_global and not reached.is_multicast


def _this_machine(address: Address) -> bool:
    """A loopback address, or one mapped onto IPv4's (``::ffff:127.0.0.1``): a NAT64 or 6to4 form of 127.0.0.1 is
    some translator's, not this machine's, and is refused as every embedded private address is."""
    mapped = address.ipv4_mapped if isinstance(address, ipaddress.IPv6Address) else None
    return address.is_loopback or (mapped is not None and mapped.is_loopback)


def is_loopback(host: str) -> bool:
    """``localhost``, or an address of this machine."""
    if host == "localhost":
        return True
    try:
        return _this_machine(ipaddress.ip_address(host))
    except ValueError:
        return False


def check_url(url: Any, kind: str | None = None, *, allow_loopback: bool = False) -> Target:
    """The webhook a URL names, checked: ``https://`` (``http://`` only to this machine, if allowed), no user or
    password, no address on a private network; Discord's and Slack's on their own hosts. ``kind`` None: guessed.

    :raises WebhookError: with what to give instead.
    """
    text = str(url or "").strip()
    if not text:
        raise WebhookError("give the webhook's address, e.g. https://discord.com/api/webhooks/...")
    if len(text) > MAX_URL or any(c.isspace() or ord(c) < 32 or ord(c) == 127 for c in text):
        raise WebhookError(f"a webhook address is one line of at most {MAX_URL} characters without spaces")
    try:
        parts = urlsplit(text)
        host = (parts.hostname or "").lower()
        parts.port  # a port that is not a number raises here
    except ValueError:
        raise WebhookError("that is not a web address; give one like https://example.org/hook") from None
    if parts.scheme not in ("https", "http") or not host:
        raise WebhookError("a webhook address starts with https:// and names a host")
    if not host.isascii():
        raise WebhookError("give the host in its ASCII form (an international name as xn--...)")
    if parts.username is not None or parts.password is not None:
        raise WebhookError("a webhook address may not hold a user name or password (user:pass@)")
    if parts.fragment:
        raise WebhookError("a webhook address has no #fragment")
    local = is_loopback(host)
    if local and not allow_loopback:
        raise WebhookError("this server does not post to addresses on its own machine")
    if parts.scheme == "http" and not local:
        raise WebhookError("a webhook address must start with https:// (the posts must not travel in the clear)")
    if not local:
        try:
            address = ipaddress.ip_address(host.strip("[]"))
        except ValueError:
            address = None
        if address is not None and not postable(address):
            raise WebhookError("a webhook address may not point into a private network, nor to a multicast group "
                               "(nor to either through an IPv6 form of an IPv4 address)")
        if "." not in host and address is None:
            raise WebhookError(f"{host!r} is not a host on the internet; give its full name, like example.org")
    guessed = "discord" if host in DISCORD_HOSTS else "slack" if host in SLACK_HOSTS else "json"
    chosen = (kind or guessed).strip().lower()
    if chosen not in KINDS:
        raise WebhookError(f"a webhook is of kind discord, slack or json, not {kind!r}")
    if not local:
        if chosen == "discord" and (host not in DISCORD_HOSTS or not parts.path.startswith("/api/webhooks/")):
            raise WebhookError("a Discord webhook address looks like https://discord.com/api/webhooks/ID/TOKEN "
                               "(the channel's Integrations settings show it)")
        if chosen == "slack" and (host not in SLACK_HOSTS or not parts.path.startswith("/services/")):
            raise WebhookError("a Slack incoming-webhook address looks like https://hooks.slack.com/services/... "
                               "(the app's Incoming Webhooks page shows it)")
    return Target(chosen, text, host)


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="microseconds")


def shown(row: Mapping[str, Any]) -> dict[str, Any]:
    """A webhook as lists and pages show it: never its address or secret."""
    return {"id": row["id"], "kind": row["kind"], "host": row["host"], "created_at": row["created_at"],
            "signed": bool(row.get("secret")), "pending": int(row.get("pending") or 0),
            "failed": int(row.get("failed") or 0), "last_error": row.get("last_error")}


def owned(store: SQLiteEventStore, owner_kind: str, owner: str) -> list[dict[str, Any]]:
    """The webhooks in use of a game or a player, with their posts waiting and failed (and the last error)."""
    rows = store.query(
        "SELECT w.id, w.kind, w.host, w.secret, w.created_at, "
        "(SELECT count(*) FROM outbox o WHERE o.to_addr = 'webhook:' || w.id AND o.status = 'pending') AS pending, "
        "(SELECT count(*) FROM outbox o WHERE o.to_addr = 'webhook:' || w.id AND o.status = 'failed') AS failed, "
        "(SELECT o.last_error FROM outbox o WHERE o.to_addr = 'webhook:' || w.id AND o.last_error IS NOT NULL "
        "ORDER BY o.created_at DESC LIMIT 1) AS last_error "
        "FROM webhooks w WHERE w.owner_kind = ? AND w.owner = ? AND w.removed_at IS NULL ORDER BY w.created_at",
        (owner_kind, owner))
    return [shown(r) for r in rows]


def find(store: SQLiteEventStore, webhook_id: str) -> dict[str, Any] | None:
    rows = store.query("SELECT * FROM webhooks WHERE id = ?", (str(webhook_id),))
    return rows[0] if rows else None


@dataclass(frozen=True)
class Added:
    """A webhook just added: how it is shown, and its signing secret (a json webhook's; shown this once)."""

    webhook: dict[str, Any]
    secret: str | None
    result: CommandResult | None = None


def _new(owner_kind: str, owner: str, target: Target, seq: int | None) -> dict[str, Any]:
    return {"id": uuid.uuid4().hex[:12], "owner_kind": owner_kind, "owner": owner, "kind": target.kind,
            "url": target.url, "host": target.host,
            "secret": secrets.token_urlsafe(32) if target.kind == "json" else None,
            "created_at": _now(), "removed_at": None, "last_seq": seq}


def _room(store: SQLiteEventStore, owner_kind: str, owner: str, policy: Policy) -> None:
    count = store.query("SELECT count(*) AS n FROM webhooks WHERE owner_kind = ? AND owner = ? AND removed_at IS NULL",
                        (owner_kind, owner))[0]["n"]
    if int(count) >= policy.limit:
        raise full(policy)


def full(policy: Policy) -> WebhookError:
    return WebhookError(f"at most {policy.limit} webhook{'s' if policy.limit != 1 else ''} each; remove one first")


def add_for_player(store: SQLiteEventStore, email: str, url: Any, kind: str | None, policy: Policy,
                   base_url: str = "") -> Added:
    """Add a webhook to a player (by address): their mails' news is posted there too; a greeting is posted now."""
    email = email.strip().lower()
    if not store.query("SELECT 1 FROM players WHERE email = ?", (email,)):
        raise NotFound(f"{email} plays no game here")
    target = check_url(url, kind, allow_loopback=policy.allow_loopback)
    row = _new("player", email, target, None)
    greeting = Post(None, None, None, "added", "This channel now gets your pbem news: each turn, decision, "
                    "reminder and result of your games, as your mails say it (without their links: act from "
                    "your mail or your home page).", base_url or None, "player")
    with store.transaction() as conn:
        count = conn.execute("SELECT count(*) FROM webhooks WHERE owner_kind = 'player' AND owner = ? "
                             "AND removed_at IS NULL", (email,)).fetchone()[0]
        if int(count) >= policy.limit:
            raise full(policy)
        write_row(conn, Row(WEBHOOKS, row))
        write_row(conn, post_row(row, greeting, seat=None))
    return Added(shown(row), row["secret"])


def add_for_game(service: Desk, game_id: str, url: Any, kind: str | None, policy: Policy, *, cause: Cause,
                 expected_seq: int | None = None, base_url: str = "") -> Added:
    """Add a webhook to a game: ``pbem.WebhookAdded`` (public: id, kind, host) and its row, in one command."""
    state = service.load(game_id)
    if state.ended:
        raise WebhookError("the game is over: nothing more will be posted, so it takes no webhook")
    target = check_url(url, kind, allow_loopback=policy.allow_loopback)
    _room(service.store, "game", game_id, policy)
    row = _new("game", game_id, target, state.seq)
    title = service.kernel.rules(state).title
    greeting = Post(game_id, title, state.seq, "added", f"This channel now gets the public news of {title} game "
                    f"{game_id} ({', '.join(s.name for s in state.config.seats)}): each turn, time-out, undo and "
                    "the result.", _game_link(base_url, game_id), "game")
    draft = NewEvent(WEBHOOK_ADDED, {"webhook": row["id"], "kind": target.kind, "host": target.host},
                     Visibility.public())
    extra = [Row(WEBHOOKS, row), post_row(row, greeting, seat=None)]
    result = service.kernel.record(game_id, [draft], actor=ORGANISER, cause=cause, hooks=WithRows(service, extra),
                                   expected_seq=expected_seq, exact=False, retries=3)
    return Added(shown(row), row["secret"], result)


def add(service: Desk, owner: tuple[str, str], url: Any, kind: str | None, policy: Policy, *, cause: Cause,
        expected_seq: int | None = None) -> Added:
    """A webhook for ``("game", game_id)`` (a command of the game) or ``("player", email)``."""
    base = service.notifier.base_url if service.notifier is not None else ""
    if owner[0] == "game":
        return add_for_game(service, owner[1], url, kind, policy, cause=cause, expected_seq=expected_seq,
                            base_url=base)
    return add_for_player(service.store, owner[1], url, kind, policy, base_url=base)


def remove(service: Desk, owner: tuple[str, str], webhook_id: str, *, cause: Cause,
           expected_seq: int | None = None) -> CommandResult | None:
    """Stop a webhook of this owner (a game's: ``pbem.WebhookRemoved``); its posts not yet sent are not sent."""
    owner_kind, owner_id = owner
    found = find(service.store, webhook_id)
    if found is None or found["owner_kind"] != owner_kind or found["owner"] != owner_id or found["removed_at"]:
        raise NotFound(f"there is no webhook {str(webhook_id)[:40]!r} here; the list of webhooks shows their ids")
    gone = {**found, "removed_at": _now()}
    if owner_kind == "player":
        with service.store.transaction() as conn:
            write_row(conn, Row(WEBHOOKS, gone, pk=("id",)))
        return None
    draft = NewEvent(WEBHOOK_REMOVED, {"webhook": found["id"], "kind": found["kind"], "host": found["host"]},
                     Visibility.public())
    return service.kernel.record(owner_id, [draft], actor=ORGANISER, cause=cause,
                                 hooks=WithRows(service, [Row(WEBHOOKS, gone, pk=("id",))]),
                                 expected_seq=expected_seq, exact=False, retries=3)


    def rows(self, before: Any, after: Any, events: list[Event]) -> list[Row]:
        return self.service.rows(before, after, events) + self.extra



# ---- what is posted ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Post:
    """One post's content, before it takes its webhook's shape (``body``)."""

    game_id: str | None
    title: str | None
    seq: int | None
    kind: str          # turn, prompt, reminder, timeout, ended, undone, digest, added, news, ...
    text: str
    link: str | None   # the game's public page: never a signed link
    to: str            # game or player


def body(kind: str, post: Post, post_id: str) -> str:
    """The exact JSON text posted: Discord's ``content``, Slack's ``text``, or the generic object."""
    text = post.text if len(post.text) <= MAX_TEXT else post.text[:MAX_TEXT - 1] + "\u2026"
    if kind == "discord":  # no pings: a player's message must not reach @everyone
        return json.dumps({"content": text, "allowed_mentions": {"parse": []}}, ensure_ascii=False)
    if kind == "slack":  # Slack reads <...> as links and mentions (<!channel>): escaped, as Slack asks
        escaped = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        return json.dumps({"text": escaped}, ensure_ascii=False)
    return json.dumps({"id": post_id, "to": post.to, "game": post.game_id, "title": post.title, "seq": post.seq,
                       "kind": post.kind, "text": text, "link": post.link}, ensure_ascii=False, sort_keys=True)


def post_row(hook: Mapping[str, Any], post: Post, *, seat: int | None) -> Row:
    """A post as a row of the outbox, due now, sent like a mail (``to_addr`` is ``webhook:ID``)."""
    post_id, now = uuid.uuid4().hex, _now()
    first = post.text.split("\n", 1)[0][:120]
    return Row(OUTBOX, {
        "id": post_id, "channel": CHANNEL, "game_id": post.game_id, "seat": seat,
        "to_addr": f"webhook:{hook['id']}", "kind": post.kind,
        "subject": f"{KIND_NAMES.get(hook['kind'], hook['kind'])} webhook ({hook['host']}): {first}",
        "message_id": None, "draft": pack({"webhook": hook["id"], "body": body(hook["kind"], post, post_id)}),
        "message": None, "status": "pending", "attempts": 0, "due_at": now, "created_at": now, "sent_at": None,
        "last_error": None, "claimed_by": None, "claim_until": None,
    })


def _game_link(base_url: str, game_id: str | None) -> str | None:
    return f"{base_url.rstrip('/')}/games/{game_id}" if base_url and game_id else None


def for_mail(store: SQLiteEventStore, draft: Mapping[str, Any], *, email: str, game_id: str | None,
             seat: int | None, kind: str, base_url: str) -> list[Row]:
    """The posts to a player's webhooks of a mail just composed for them: what it says, without its links."""
    hooks = store.query("SELECT id, kind, host FROM webhooks WHERE owner_kind = 'player' AND owner = ? "
                        "AND removed_at IS NULL", (email,))
    if not hooks:
        return []
    context = draft.get("context") or {}
    lines = [str(draft.get("subject") or "")]
    lines += [str(line) for line in context.get("since") or []]
    prompt = context.get("prompt")
    if prompt and prompt.get("text"):
        lines.append(f"Now: {prompt['text']}")
    if context.get("error"):
        lines.append(f"Your reply could not be applied: {context['error']}")
    for game in context.get("games") or []:  # a digest
        lines.append(f"{game['title']} {game['game_id']}: {game['what']}, due {utc(game['due_at'])}")
    if kind not in ("digest",) and context.get("deadline"):
        lines.append(f"Due {utc(context['deadline'])}.")
    lines.append("Act from your latest mail or your home page.")
    link = _game_link(base_url, game_id)
    if link:
        lines.append(link)
    post = Post(game_id, context.get("title"), context.get("seq"), kind, "\n".join(lines), link, "player")
    return [post_row(h, post, seat=seat) for h in hooks]


def game_posts(store: SQLiteEventStore, state: GameState[Any], events: Sequence[Event], *, title: str,
               prompts: Mapping[int, Any], due: Callable[[int], str | None], base_url: str,
               label: Callable[[], str | None],
               describe_event: Callable[[Event, int | None, bool, list[str]], str]) -> list[Row]:
    """The posts of a command to the game's webhooks, if it is news for the table: what the public log says
    happened since each webhook's last post, who the game waits for (the kind of decision), the result.

    ``due`` gives a seat's deadline and ``label`` the turn in words: asked only when the game has webhooks;
    ``describe_event`` gives "" for a line the log leaves out (``logbook.repeats``).
    """
    if not any(e.type in NEWS for e in events):
        return []
    hooks = store.query("SELECT * FROM webhooks WHERE owner_kind = 'game' AND owner = ? AND removed_at IS NULL",
                        (state.game_id,))
    if not hooks:
        return []
    where = None if state.ended else label()  # the turn in words (from the public view), once there are hooks
    since = min(int(h["last_seq"] or 0) for h in hooks)
    history = {e.seq: e for e in store.read(state.game_id, since)}
    history.update({e.seq: e for e in events if e.seq > since})
    names = [s.name for s in state.config.seats]
    kind = "ended" if state.ended else "timeout" if any(e.type == TIMED_OUT for e in events) else (
        "undone" if any(e.type == ACTIONS_UNDONE for e in events) else "news")
    rows: list[Row] = []
    for hook in hooks:
        shown_events = [history[k] for k in sorted(history) if k > int(hook["last_seq"] or 0)]
        skipped = undone_seqs(shown_events)
        lines = []
        for event in shown_events:
            if event.type == RANDOM_DRAWN or (event.type.startswith("pbem.") and event.type not in (
                    ACTIONS_UNDONE, GAME_ENDED, TIMED_OUT, *TALK_TYPES)):
                continue
            text = describe_event(event, None, state.ended, names)
            if not text:  # a line that repeats another of the same command (``logbook.repeats``)
                continue
            lines.append(f"{event.seq}. {text}" + (" (taken back)" if event.seq in skipped else ""))
        head = f"{title} {state.game_id}" + (f" ({where})" if where else "")
        out = [head] + lines[-SINCE_LINES:]
        if state.ended:
            winners = [names[int(w)] for w in (state.outcome or {}).get("winners", []) if 0 <= int(w) < len(names)]
            out.append("Game over" + (f": {' and '.join(winners)} win{'s' if len(winners) == 1 else ''}."
                                      if winners else "."))
        else:
            for seat, prompt in sorted(prompts.items()):
                by = due(seat)
                out.append(f"Waiting for {names[seat]} ({public_prompt(prompt.kind)})"
                           + (f", due {utc(by)}." if by else "."))
        link = _game_link(base_url, state.game_id)
        if link:
            out.append(link)
        post = Post(state.game_id, title, state.seq, kind, "\n".join(out), link, "game")
        rows.append(post_row(hook, post, seat=None))
        rows.append(Row(WEBHOOKS, {**hook, "last_seq": state.seq}, pk=("id",)))
    return rows
