"""Webhooks (``pbem.post.webhooks``, ``pbem.post.webhook_post``): a game's public news and a player's own posted to a real
HTTP receiver on loopback, through the outbox, with the mail's claims, retries and backoff."""

from __future__ import annotations

import json
import random
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Iterator

import pytest

from delivery import ANN, BEN, CY, free_port, make_settings
from events.handling import Cause
from pbem.post import webhooks
from pbem.errors import NotFound
from pbem.post.mail.dispatch import dispatch, status
from pbem.post.mail.outbox import draft_of
from pbem.post.mail.transport import FileTransport
from pbem.service import Service
from pbem.table.talk import Talk
from pbem.post.webhook_post import Poster, signature, verify
from receiver import Receiver

CLI = Cause("cli")
OPEN = webhooks.Policy(limit=3, allow_loopback=True)  # the tests' receiver is on this machine


@pytest.fixture
def service(tmp_path: Path, database: str | None) -> Iterator[Service]:
    opened = Service.open(make_settings(tmp_path / "inst"))
    yield opened
    opened.close()


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    found = Receiver(free_port())
    yield found
    found.stop()


@pytest.fixture
def game(service: Service) -> str:
    return service.create_game("emerald", [ANN, BEN, CY], seed="hooks").after.game_id


def play(service: Service, game_id: str, moves: int, seed: int = 1) -> None:
    pick = random.Random(seed)
    for _ in range(moves):
        state = service.load(game_id)
        rules = service.kernel.rules(state)
        seat = sorted(rules.prompts(state.game))[0]
        service.act_as(game_id, seat, pick.choice(rules.legal_actions(state.game, seat)), cause=CLI)


def send(service: Service, tmp: Path, now: datetime | None = None, poster: Poster | None = None) -> object:
    return dispatch(service.store, FileTransport(tmp / "mailbox"), "pbem@example.org", max_attempts=5,
                    retry_seconds=10, now=now, poster=poster or Poster(timeout=2, allow_loopback=True))


def posts(service: Service) -> list[dict[str, object]]:
    return service.store.query("SELECT * FROM outbox WHERE channel = 'webhook' ORDER BY created_at")


def test_posts_wait_while_the_receiver_is_down_and_arrive_once_when_it_is_up(service: Service, game: str,
                                                                             receiver: Receiver,
                                                                             tmp_path: Path) -> None:
    service.add_webhook(("game", game), receiver.url("/table"), None, OPEN, cause=CLI)
    service.add_webhook(("player", ANN.email), receiver.url("/ann"), "json", OPEN, cause=CLI)
    play(service, game, 8)
    queued = posts(service)
    assert len(queued) > 8 and {r["to_addr"] for r in queued} == {f"webhook:{w['id']}" for w in
                                                                  webhooks.owned(service.store, "game", game)
                                                                  + webhooks.owned(service.store, "player",
                                                                                   ANN.email)}
    start = datetime.now(timezone.utc)
    report = send(service, tmp_path, start)  # nobody listens: connection refused, each post retried later
    assert report.retried == len(queued) and report.sent > 0  # the mails went; the posts wait
    again = send(service, tmp_path, start + timedelta(seconds=5))  # not due yet (backoff of 10 s)
    assert again.retried == 0 and not receiver.posts
    send(service, tmp_path, start + timedelta(seconds=11))  # still down: second attempt
    assert {r["attempts"] for r in posts(service)} == {2}
    receiver.start()
    report = send(service, tmp_path, start + timedelta(seconds=60))
    assert report.sent == len(queued) and report.failed == 0
    assert send(service, tmp_path, start + timedelta(hours=1)).sent == 0
    ids = [p.headers["x-pbem-delivery"] for p in receiver.posts]
    assert sorted(ids) == sorted(str(r["id"]) for r in queued)  # every post once, none twice
    assert all(r["status"] == "sent" and r["attempts"] == 3 for r in posts(service))
    table = [p.json for p in receiver.posts if p.path == "/table"]
    assert [t["kind"] for t in table][0] == "added" and all(t["to"] == "game" and t["game"] == game for t in table)
    assert [t["seq"] for t in table] == sorted(t["seq"] for t in table)  # in the order they were written


def test_a_generic_post_is_signed_and_a_changed_body_or_an_old_timestamp_fails(service: Service, game: str,
                                                                               receiver: Receiver,
                                                                               tmp_path: Path) -> None:
    added = service.add_webhook(("game", game), receiver.url(), "json", OPEN, cause=CLI)
    assert added.secret and len(added.secret) >= 40
    receiver.start()
    play(service, game, 2)
    send(service, tmp_path)
    assert len(receiver.posts) == 3
    for post in receiver.posts:
        stamp, signed = post.headers["x-pbem-timestamp"], post.headers["x-pbem-signature"]
        assert post.headers["content-type"] == "application/json"
        assert verify(added.secret, post.body, stamp, signed)
        assert signed == signature(added.secret, stamp, post.body)
        tampered = post.body.replace(b'"kind": "', b'"kind": "x')
        assert tampered != post.body and not verify(added.secret, tampered, stamp, signed)
        assert not verify(added.secret, post.body, str(int(stamp) + 1), signed)  # the time is signed too
        assert not verify("another-secret", post.body, stamp, signed)
        assert not verify(added.secret, post.body, stamp, signed, now=int(stamp) + 3600)  # a replay, later
    # the secret is shown once: no list shows it, nor the address
    listed = json.dumps(webhooks.owned(service.store, "game", game))
    assert added.secret not in listed and receiver.url() not in listed


def test_discord_and_slack_get_short_text_in_their_own_shape_and_mention_nobody(service: Service, game: str,
                                                                                receiver: Receiver,
                                                                                tmp_path: Path) -> None:
    service.add_webhook(("player", BEN.email), receiver.url("/discord"), "discord", OPEN, cause=CLI)
    service.add_webhook(("player", BEN.email), receiver.url("/slack"), "slack", OPEN, cause=CLI)
    receiver.start()
    service.say(game, 0, Talk("say", "@everyone <!channel> look at Ben's <b>move</b> & more", (1,)), cause=CLI)
    play(service, game, 2)
    send(service, tmp_path)
    discord = [p.json for p in receiver.posts if p.path == "/discord"]
    slack = [p.json for p in receiver.posts if p.path == "/slack"]
    assert len(discord) == len(slack) >= 2
    assert all(set(d) == {"content", "allowed_mentions"} and d["allowed_mentions"] == {"parse": []}
               for d in discord)
    assert all(set(s) == {"text"} for s in slack)
    assert all("x-pbem-signature" not in p.headers for p in receiver.posts)  # their services do not check one
    said = next(d["content"] for d in discord if "@everyone" in d["content"])
    assert "Ann to Ben" in said and len(said) < 2000
    slack_said = next(s["text"] for s in slack if "everyone" in s["text"])
    assert "&lt;!channel&gt;" in slack_said and "&lt;b&gt;move&lt;/b&gt; &amp; more" in slack_said
    assert "<!channel>" not in slack_said


def test_a_refusal_for_good_fails_at_once_and_a_busy_or_broken_endpoint_is_retried(service: Service, game: str,
                                                                                    receiver: Receiver,
                                                                                    tmp_path: Path) -> None:
    gone = service.add_webhook(("player", ANN.email), receiver.url("/gone"), "json", OPEN, cause=CLI)
    receiver.answers = [404]
    receiver.start()
    start = datetime.now(timezone.utc)
    report = send(service, tmp_path, start)
    assert report.failed == 1
    failed = posts(service)[0]
    assert failed["status"] == "failed" and failed["attempts"] == 1 and "404" in failed["last_error"]
    assert "127.0.0.1" in failed["last_error"] and "/gone" not in failed["last_error"]
    assert status(service.store)["trouble"][0]["to_addr"] == f"webhook:{gone.webhook['id']}"  # pbem mail status
    assert webhooks.owned(service.store, "player", ANN.email)[0]["failed"] == 1
    service.remove_webhook(("player", ANN.email), gone.webhook["id"], cause=CLI)

    busy = service.add_webhook(("player", ANN.email), receiver.url("/busy"), "json", OPEN, cause=CLI)
    receiver.answers = [429, 503]
    start = datetime.now(timezone.utc)
    assert send(service, tmp_path, start).retried == 1
    assert send(service, tmp_path, start + timedelta(seconds=11)).retried == 1
    assert send(service, tmp_path, start + timedelta(seconds=60)).sent == 1
    row = service.store.query("SELECT * FROM outbox WHERE to_addr = ?", (f"webhook:{busy.webhook['id']}",))[0]
    assert row["status"] == "sent" and row["attempts"] == 3
    assert [p.path for p in receiver.posts] == ["/busy"]


def test_a_post_that_times_out_is_retried(service: Service, game: str, tmp_path: Path) -> None:
    import socket
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(1)  # accepts the connection, never answers
    try:
        url = f"http://127.0.0.1:{silent.getsockname()[1]}/slow"
        service.add_webhook(("player", ANN.email), url, "json", OPEN, cause=CLI)
        report = send(service, tmp_path, poster=Poster(timeout=0.5, allow_loopback=True))
        assert report.retried == 1
        assert "timed out" in posts(service)[0]["last_error"]
    finally:
        silent.close()


def test_a_removed_webhook_posts_nothing_more(service: Service, game: str, receiver: Receiver,
                                              tmp_path: Path) -> None:
    added = service.add_webhook(("game", game), receiver.url(), None, OPEN, cause=CLI)
    play(service, game, 2)
    service.remove_webhook(("game", game), added.webhook["id"], cause=CLI)
    play(service, game, 2, seed=2)
    receiver.start()
    send(service, tmp_path)
    assert not receiver.posts
    assert {r["status"] for r in posts(service)} == {"failed"}
    assert webhooks.owned(service.store, "game", game) == []
    with pytest.raises(NotFound):
        service.remove_webhook(("game", game), added.webhook["id"], cause=CLI)
    row = webhooks.find(service.store, added.webhook["id"])
    assert row is not None and row["removed_at"]  # kept, never deleted


BAD = [
    ("", "give the webhook's address"),
    ("discord.com/api/webhooks/1/x", "starts with https://"),
    ("ftp://example.org/hook", "starts with https://"),
    ("http://example.org/hook", "must start with https://"),
    ("https://user:pw@example.org/hook", "user name or password"),
    ("https://example.org/hook#x", "fragment"),
    ("https://exa mple.org/hook", "without spaces"),
    ("https://example.org:99999/hook", "not a web address"),
    ("https://10.0.0.5/hook", "private network"),
    ("https://169.254.169.254/latest", "private network"),
    # an IPv6 form of an IPv4 address is decided on that address; a multicast group is never a webhook
    ("https://[::ffff:10.0.0.5]/hook", "private network"),
    ("https://[::ffff:169.254.169.254]/latest", "private network"),
    ("https://[64:ff9b::a00:5]/hook", "private network"),          # NAT64 of 10.0.0.5
    ("https://[64:ff9b::7f00:1]/hook", "private network"),         # NAT64 of 127.0.0.1: the translator's, not ours
    ("https://[64:ff9b:1::808:808]/hook", "private network"),      # a network's own NAT64 prefix
    ("https://[2002:a00:5::1]/hook", "private network"),           # 6to4 of 10.0.0.5
    ("https://[2002:7f00:1::]/hook", "private network"),           # 6to4 of 127.0.0.1
    ("https://[::127.0.0.1]/hook", "private network"),             # IPv4-compatible
    ("https://[::10.0.0.5]/hook", "private network"),
    ("https://224.0.0.1/hook", "multicast group"),
    ("https://239.255.255.250/hook", "multicast group"),
    ("https://[ff02::1]/hook", "multicast group"),
    ("https://[ff0e::1]/hook", "multicast group"),
    ("https://[::ffff:224.0.0.1]/hook", "multicast group"),
    ("https://[64:ff9b::e000:1]/hook", "multicast group"),
    ("https://[2002:e000:1::]/hook", "multicast group"),
    ("https://[::1]/hook", "own machine"),
    ("https://localhost/hook", "own machine"),
    ("https://intranet/hook", "full name"),
    ("https://b\u00fccher.example/hook", "ASCII form"),
    ("https://example.org/" + "x" * 2000, "at most 2000"),
]


@pytest.mark.parametrize("url,words", BAD)
def test_a_bad_address_is_refused_with_a_clear_error_and_nothing_written(service: Service, game: str, url: str,
                                                                         words: str) -> None:
    before = (service.store.last(game)[0], service.store.query("SELECT count(*) AS n FROM outbox")[0]["n"])
    strict = webhooks.Policy(limit=3, allow_loopback=False)
    for owner in (("game", game), ("player", ANN.email)):
        with pytest.raises(webhooks.WebhookError, match=words.replace("(", r"\(")):
            service.add_webhook(owner, url, None, strict, cause=CLI)
    assert service.store.query("SELECT count(*) AS n FROM webhooks")[0]["n"] == 0
    assert (service.store.last(game)[0], service.store.query("SELECT count(*) AS n FROM outbox")[0]["n"]) == before


@pytest.mark.parametrize("url,kind,words", [
    ("https://example.org/api/webhooks/1/x", "discord", "Discord webhook address looks like"),
    ("https://discord.com/other", "discord", "Discord webhook address looks like"),
    ("https://hooks.slack.com/other", "slack", "Slack incoming-webhook address"),
    ("https://example.org/hook", "teams", "discord, slack or json"),
])
def test_a_kind_that_does_not_fit_the_address_is_refused(service: Service, url: str, kind: str, words: str) -> None:
    with pytest.raises(webhooks.WebhookError, match=words):
        webhooks.check_url(url, kind)


@pytest.mark.parametrize("url", ["https://8.8.8.8/hook", "https://[2606:4700:4700::1111]/hook",
                                 "https://[::ffff:8.8.8.8]/hook", "https://[64:ff9b::808:808]/hook",
                                 "https://[2002:808:808::1]/hook", "https://93.184.215.14:8443/pbem"])
def test_an_address_of_the_internet_is_taken_in_any_form(url: str) -> None:
    assert webhooks.check_url(url).kind == "json"


@pytest.mark.parametrize("address, allowed", [
    ("8.8.8.8", True), ("2606:4700:4700::1111", True), ("::ffff:8.8.8.8", True), ("64:ff9b::808:808", True),
    ("2002:808:808::1", True),
    ("10.0.0.5", False), ("::ffff:10.0.0.5", False), ("64:ff9b::a00:5", False), ("2002:a00:5::1", False),
    ("::10.0.0.5", False), ("64:ff9b::7f00:1", False), ("2002:7f00:1::", False), ("64:ff9b:1::808:808", False),
    ("224.0.0.1", False), ("239.1.2.3", False), ("ff02::1", False), ("ff0e::1", False), ("::ffff:224.0.0.1", False),
    ("2002:e000:1::", False), ("127.0.0.1", False), ("::1", False), ("::ffff:127.0.0.1", False),
    ("fe80::1%eth0", False), ("100.64.0.1", False),
])
def test_a_resolved_address_is_posted_to_by_the_same_rule(address: str, allowed: bool) -> None:
    """The sender checks every address a host resolves to when it posts, as the address was checked when added:
    a name may resolve to an IPv6 form of a private or multicast address."""
    assert Poster(allow_loopback=False).allowed(address) is allowed
    this_machine = address in ("127.0.0.1", "::1", "::ffff:127.0.0.1")
    assert Poster(allow_loopback=True).allowed(address) is (allowed or this_machine)


def test_the_kind_is_guessed_from_the_host() -> None:
    assert webhooks.check_url("https://discord.com/api/webhooks/12/abc").kind == "discord"
    assert webhooks.check_url("https://hooks.slack.com/services/T0/B0/x").kind == "slack"
    assert webhooks.check_url("https://example.org/pbem").kind == "json"
    assert webhooks.check_url("https://example.org/pbem").host == "example.org"


def test_each_owner_has_a_limit(service: Service, game: str, receiver: Receiver) -> None:
    two = webhooks.Policy(limit=2, allow_loopback=True)
    for owner in (("game", game), ("player", ANN.email)):
        first = service.add_webhook(owner, receiver.url("/1"), None, two, cause=CLI)
        service.add_webhook(owner, receiver.url("/2"), None, two, cause=CLI)
        with pytest.raises(webhooks.WebhookError, match="at most 2 webhooks"):
            service.add_webhook(owner, receiver.url("/3"), None, two, cause=CLI)
        service.remove_webhook(owner, first.webhook["id"], cause=CLI)
        service.add_webhook(owner, receiver.url("/3"), None, two, cause=CLI)
    with pytest.raises(NotFound):
        service.add_webhook(("player", "nobody@example.org"), receiver.url(), None, two, cause=CLI)


def test_a_game_webhook_is_a_public_event_that_names_its_host_and_never_its_address(service: Service, game: str,
                                                                                      receiver: Receiver) -> None:
    url = receiver.url("/secret-path-token")
    added = service.add_webhook(("game", game), url, "json", OPEN, cause=CLI)
    service.remove_webhook(("game", game), added.webhook["id"], cause=CLI)
    lines = [e["text"] for e in service.log(game, BEN.email) if e["type"].startswith("pbem.Webhook")]
    assert lines == ["the organiser added a JSON webhook (127.0.0.1)",
                     "the organiser removed a JSON webhook (127.0.0.1)"]
    assert service.log(game)[-1]["visibility"] == "public"
    everything = "\n".join(service.export(game, with_secrets=True)) + json.dumps(service.log(game))
    assert "secret-path-token" not in everything and added.secret not in everything
    assert service.verify(game).ok


def test_an_ended_game_takes_no_webhook(service: Service, receiver: Receiver) -> None:
    from pbem.games import all_games
    assert "emerald" in all_games()
    short = {"game": {"victory_target": {str(n): 4 for n in range(2, 6)}}}  # a game of 92 moves, not 1,657
    game = service.create_game("emerald", [ANN, BEN], seed="end", data_override=short).after.game_id
    state = service.load(game)
    while not state.ended:
        rules = service.kernel.rules(state)
        seat = sorted(rules.prompts(state.game))[0]
        legal = rules.legal_actions(state.game, seat)
        service.act_as(game, seat, next((a for a in legal if a["kind"] not in ("pass", "discard")), legal[0]),
                       cause=CLI)
        state = service.load(game)
    with pytest.raises(webhooks.WebhookError, match="game is over"):
        service.add_webhook(("game", game), receiver.url(), None, OPEN, cause=CLI)


def test_an_https_post_checks_the_certificate_against_the_host_s_name(service: Service, game: str,
                                                                      tmp_path: Path) -> None:
    import shutil
    import ssl
    import subprocess
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed: no certificate to serve HTTPS with")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out",
                    str(cert), "-days", "1", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost"],
                   check=True, capture_output=True)
    server = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    server.load_cert_chain(cert, key)
    receiver = Receiver(free_port(), tls=server).start()
    try:
        service.add_webhook(("player", ANN.email), f"https://localhost:{receiver.port}/tls", "json", OPEN,
                            cause=CLI)
        start = datetime.now(timezone.utc)
        report = send(service, tmp_path, start, Poster(timeout=2, allow_loopback=True))  # the system's CAs only
        assert report.retried == 1 and "CERTIFICATE_VERIFY_FAILED" in str(posts(service)[0]["last_error"])
        trusting = Poster(timeout=2, allow_loopback=True, context=ssl.create_default_context(cafile=str(cert)))
        assert send(service, tmp_path, start + timedelta(seconds=60), trusting).sent == 1
        assert [p.path for p in receiver.posts] == ["/tls"] and receiver.posts[0].headers["host"].startswith(
            "localhost")
    finally:
        receiver.stop()


def test_a_host_that_resolves_to_this_machine_is_refused_at_post_time(service: Service, game: str,
                                                                      receiver: Receiver, tmp_path: Path) -> None:
    service.add_webhook(("player", ANN.email), f"http://localhost:{receiver.port}/x", "json", OPEN, cause=CLI)
    receiver.start()
    report = send(service, tmp_path, poster=Poster(timeout=2, allow_loopback=False))  # the operator turned it off
    assert report.failed == 1 and "does not post to" in str(posts(service)[0]["last_error"])
    assert not receiver.posts


def test_a_busy_endpoint_is_asked_again_no_sooner_than_its_retry_after(service: Service, game: str,
                                                                       receiver: Receiver, tmp_path: Path) -> None:
    service.add_webhook(("player", ANN.email), receiver.url("/later"), "json", OPEN, cause=CLI)
    receiver.answers = [(429, {"Retry-After": "120"})]
    receiver.start()
    start = datetime.now(timezone.utc)
    assert send(service, tmp_path, start).retried == 1
    assert str(posts(service)[0]["due_at"]) >= (start + timedelta(seconds=120)).isoformat(timespec="microseconds")
    assert send(service, tmp_path, start + timedelta(seconds=60)).sent == 0  # the backoff alone would be 10 s
    assert send(service, tmp_path, start + timedelta(seconds=121)).sent == 1
    assert [p.path for p in receiver.posts] == ["/later"]


def texts(service: Service, hook_id: str) -> list[str]:
    rows = service.store.query("SELECT * FROM outbox WHERE to_addr = ? ORDER BY created_at", (f"webhook:{hook_id}",))
    return [json.loads(draft_of(r)["body"])["text"] for r in rows]


def test_a_player_s_webhook_says_what_their_mails_say_and_carries_no_link_that_acts(service: Service, game: str,
                                                                                    receiver: Receiver) -> None:
    ann = service.add_webhook(("player", ANN.email), receiver.url("/ann"), "json", OPEN, cause=CLI).webhook["id"]
    ben = service.add_webhook(("player", BEN.email), receiver.url("/ben"), "json", OPEN, cause=CLI).webhook["id"]
    table = service.add_webhook(("game", game), receiver.url("/t"), "json", OPEN, cause=CLI).webhook["id"]
    service.say(game, 2, Talk("say", "Ann, the vampire card is mine, ssh", (0,)), cause=CLI)
    play(service, game, 4)
    ann_said = "\n".join(texts(service, ann))
    assert "Cy to Ann: \u201cAnn, the vampire card is mine, ssh\u201d" in ann_said  # her private message
    assert "Now: " in ann_said and "Due " in ann_said  # her decision and its deadline
    for other in (ben, table):
        said = "\n".join(texts(service, other))
        assert "vampire" not in said and "Cy sent a private message to Ann" in said
    # a reminder and the daily digest are posted like their mails
    waiting = service.show(game)["waiting_for"][0]["seat"]
    who = [ANN, BEN, CY][waiting]
    hook = {0: ann, 1: ben}.get(waiting) or service.add_webhook(("player", who.email), receiver.url("/cy"), "json",
                                                                OPEN, cause=CLI).webhook["id"]
    service.remind_due(datetime.now(timezone.utc) + timedelta(days=2.9))
    assert service.write_reminders() == 1
    assert texts(service, hook)[-1].startswith("[Emerald with Ann, Ben and Cy] Reminder: your turn")
    assert service.notifier is not None
    player = service.store.query("SELECT * FROM players WHERE email = ?", (who.email,))[0]
    digest = [r for r in service.notifier.digest(service, player, datetime.now(timezone.utc))
              if r.values.get("channel") == "webhook"]
    assert len(digest) == 1 and "your turn, due" in json.loads(draft_of(digest[0].values)["body"])["text"]
    everything = "\n".join(t for h in (ann, ben, table, hook) for t in texts(service, h))
    assert "/play/" not in everything and "/home/" not in everything and "/undo/" not in everything
    assert f"/games/{game}" in everything
