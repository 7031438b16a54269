"""Replies from an IMAP mailbox, against a real Dovecot: read once for cron, watched with IDLE or by polling, and
never applied twice nor lost when a connection drops mid-fetch, a reader is killed, or two readers meet."""

from __future__ import annotations

import json
import queue
import socket
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

import pytest
from click.testing import CliRunner
from imapclient import IMAPClient

from cli.main import cli
from delivery import ANN, BEN, make_settings
from pbem.instance import config
from pbem.post.mail import imap, inbound
from pbem.post.mail.inbound import Report
from pbem.scheduler import Jobs, build
from pbem.service import Service
from test_inbound import latest_mail, reply_to

pytestmark = pytest.mark.usefixtures("highdie_registered")

SPAM = b"From: spam@example.com\r\nTo: play@localhost\r\nSubject: hi\r\nMessage-ID: <spam@example.com>\r\n\r\nbuy now\r\n"


@dataclass
class Box:
    """A user's mailbox on the session's Dovecot."""

    server: Any
    user: str
    password: str
    port: int

    def client(self) -> IMAPClient:
        client = IMAPClient("127.0.0.1", port=self.server.port, ssl=False, timeout=10)
        client.login(self.user, self.password)
        return client

    def append(self, *messages: bytes) -> None:
        client = self.client()
        for message in messages:
            client.append("INBOX", message)
        client.logout()

    def count(self, folder: str = "INBOX") -> int:
        client = self.client()
        try:
            if not client.folder_exists(folder):
                return 0
            return int(client.select_folder(folder, readonly=True)[b"EXISTS"])
        finally:
            client.logout()

    def settings(self, instance: Path, **values: Any) -> config.Settings:
        """An instance that reads this mailbox, in its settings file too (for the command line)."""
        values = {"inbound_imap": f"imap://{self.user}@127.0.0.1:{self.port}/INBOX",
                  "inbound_imap_password": self.password, **values}
        settings = make_settings(instance, **values)
        with open(instance / "pbem.toml", "a", encoding="utf-8") as out:
            out.writelines(f"{name} = {json.dumps(value)}\n" for name, value in values.items())
        return settings


@pytest.fixture
def box(dovecot_server: Any) -> Box:
    user, password = dovecot_server.add_user()
    return Box(dovecot_server, user, password, dovecot_server.port)


@pytest.fixture
def instance(tmp_path: Path, box: Box) -> Iterator[Service]:
    service = Service.open(box.settings(tmp_path / "inst"))
    yield service
    service.close()


def new_game(service: Service, seed: str = "i1") -> str:
    return service.create_game("highdie", [ANN, BEN], seed=seed).after.game_id


def bets(service: Service, game: str) -> int:
    return sum(e.type == "dice.Bet" for e in service.store.read(game))


def error_mails(service: Service) -> int:
    return int(service.store.query("SELECT count(*) AS n FROM outbox WHERE kind = 'reply_error'")[0]["n"])


def test_pbem_inbound_imap_reads_the_new_messages_once_and_moves_them(instance: Service, box: Box) -> None:
    game = new_game(instance)
    mail = latest_mail(instance, ANN.email)
    box.append(reply_to(mail, "bet 2", message_id="<r1@example.org>"), SPAM)
    run = lambda: CliRunner().invoke(cli, ["--instance", str(instance.settings.instance), "inbound", "--imap"])
    first = run()
    assert first.exit_code == 0, first.output
    assert first.output.strip() == "2 messages read: 1 applied, 0 duplicate(s), 0 refused, 1 without a valid game link"
    assert instance.load(game).game.scores == (2, 0)
    assert box.count("INBOX") == 0 and box.count("pbem-read") == 2
    box.append(reply_to(mail, "bet 2", message_id="<r1@example.org>"))  # delivered again
    again = run()
    assert again.output.strip() == "1 messages read: 0 applied, 1 duplicate(s), 0 refused, 0 without a valid game link"
    assert bets(instance, game) == 1 and error_mails(instance) == 0
    assert run().output.strip().startswith("0 messages read")


def test_without_a_done_folder_read_messages_stay_flagged(tmp_path: Path, box: Box) -> None:
    service = Service.open(box.settings(tmp_path / "inst", inbound_imap_done=""))
    try:
        game = new_game(service)
        box.append(reply_to(latest_mail(service, ANN.email), "bet 3"), SPAM)
        assert imap.read_once(service.settings, service).read == 2
        assert imap.read_once(service.settings, service).read == 0
        assert box.count("INBOX") == 2 and service.load(game).game.scores == (3, 0)
        client = box.client()
        client.select_folder("INBOX")
        assert all(b"$PbemRead" in flags and b"\\Seen" in flags for flags in client.get_flags(client.search()).values())
        client.logout()
    finally:
        service.close()


def test_a_message_without_a_message_id_is_read_once_by_its_uid(instance: Service, box: Box) -> None:
    game = new_game(instance)
    raw = reply_to(latest_mail(instance, ANN.email), "bet 1").replace(b"Message-ID: <reply-1@example.org>\n", b"")
    assert b"Message-ID" not in raw
    box.append(raw)
    settings = config.Settings(instance.settings.instance, {**instance.settings.values, "inbound_imap_done": ""})
    assert imap.read_once(settings, instance).applied == 1
    client = box.client()
    client.select_folder("INBOX")
    client.remove_flags(client.search(), [b"$PbemRead"])  # someone clears our flag: the UID still says it was read
    client.logout()
    assert imap.read_once(settings, instance).duplicates == 1 and bets(instance, game) == 1


def watch(settings: config.Settings, reports: queue.Queue[Report]) -> tuple[Jobs, Any]:
    """The worker's scheduler with its IMAP reader; each round's report goes to ``reports``."""
    jobs = Jobs(settings)
    jobs.imap = imap.Watcher(settings, jobs.open_service, jobs.leading, jobs.stopping, on_read=reports.put)
    scheduler = build(settings, blocking=False, jobs=jobs)
    scheduler.start()
    return jobs, scheduler


def stop(jobs: Jobs, scheduler: Any) -> None:
    jobs.stopping.set()
    scheduler.shutdown(wait=True)
    assert jobs.imap.thread is None or not jobs.imap.thread.is_alive()


def next_reading(reports: queue.Queue[Report], count: int = 1) -> Report:
    """The next round that read something (each round reads what arrived since the last)."""
    while True:
        report = reports.get(timeout=20)
        if report.read >= count:
            return report


@pytest.mark.parametrize("idle", [True, False], ids=["idle", "polling"])
def test_the_worker_reads_replies_as_they_arrive(tmp_path: Path, box: Box, idle: bool,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    if not idle:  # a server without IDLE: the reader polls
        real = IMAPClient.has_capability
        monkeypatch.setattr(IMAPClient, "has_capability", lambda self, name: name != "IDLE" and real(self, name))
    settings = box.settings(tmp_path / "inst", inbound_imap_poll_seconds=0.2)
    service = Service.open(settings)
    reports: queue.Queue[Report] = queue.Queue()
    jobs, scheduler = watch(settings, reports)
    try:
        assert reports.get(timeout=20).read == 0  # connected, nothing there yet
        game = new_game(service)
        box.append(reply_to(latest_mail(service, ANN.email), "bet 2"))
        assert next_reading(reports).applied == 1
        assert service.load(game).game.scores == (2, 0) and box.count("INBOX") == 0
    finally:
        stop(jobs, scheduler)
        service.close()


class Proxy:
    """A TCP proxy to the IMAP server that cuts its first connection once the server starts sending a message."""

    def __init__(self, port: int) -> None:
        self.target = port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.cut = threading.Event()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.create_connection(("127.0.0.1", self.target))
            threading.Thread(target=self._pipe, args=(client, server, False), daemon=True).start()
            threading.Thread(target=self._pipe, args=(server, client, True), daemon=True).start()

    def _pipe(self, source: socket.socket, sink: socket.socket, from_server: bool) -> None:
        try:
            while data := source.recv(65536):
                if from_server and not self.cut.is_set() and b"BODY[]" in data:
                    self.cut.set()
                    sink.sendall(data[:data.index(b"BODY[]") + 20])  # the start of the message, then nothing
                    break
                sink.sendall(data)
        except OSError:
            pass
        for end in (source, sink):
            try:
                end.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            end.close()

    def close(self) -> None:
        self.listener.close()


def test_a_connection_dropped_mid_fetch_loses_nothing_and_applies_once(tmp_path: Path, box: Box,
                                                                       caplog: pytest.LogCaptureFixture) -> None:
    proxy = Proxy(box.port)
    settings = make_settings(tmp_path / "inst", inbound_imap=f"imap://{box.user}@127.0.0.1:{proxy.port}/INBOX",
                             inbound_imap_password=box.password)
    service = Service.open(settings)
    reports: queue.Queue[Report] = queue.Queue()
    jobs = Jobs(settings)
    jobs.imap = imap.Watcher(settings, jobs.open_service, jobs.leading, jobs.stopping, on_read=reports.put)
    try:
        game = new_game(service)
        box.append(reply_to(latest_mail(service, ANN.email), "bet 2"))
        jobs.inbound_imap()
        jobs.imap.thread.join(20)  # the connection was cut mid-fetch: the reader ended
        assert proxy.cut.is_set() and reports.empty()
        assert "the inbound mailbox's connection was lost" in caplog.text
        assert bets(service, game) == 0 and box.count("INBOX") == 1  # nothing applied, nothing marked
        jobs.inbound_imap()  # within the pause after a failure: not yet
        assert not jobs.imap.thread.is_alive()
        jobs.imap.retry_at = 0  # the pause is over
        jobs.inbound_imap()
        assert next_reading(reports).applied == 1
        assert bets(service, game) == 1 and box.count("INBOX") == 0 and error_mails(service) == 0
    finally:
        jobs.stopping.set()
        jobs.imap.stop()
        proxy.close()
        service.close()


class Killed(BaseException):
    """The reader's process ends here, as a kill would end it: no handler runs."""


def test_a_reader_killed_after_applying_and_before_marking_only_marks_it_next_time(
        instance: Service, box: Box, monkeypatch: pytest.MonkeyPatch) -> None:
    game = new_game(instance)
    box.append(reply_to(latest_mail(instance, ANN.email), "bet 2"))

    def killed(*args: Any) -> None:
        raise Killed()
    with monkeypatch.context() as patch:
        patch.setattr(imap, "mark", killed)
        with pytest.raises(Killed):
            imap.read_once(instance.settings, instance)
    assert bets(instance, game) == 1 and box.count("INBOX") == 1  # applied, not marked
    report = imap.read_once(instance.settings, instance)
    assert (report.read, report.duplicates, report.applied) == (1, 1, 0)
    assert bets(instance, game) == 1 and box.count("INBOX") == 0 and error_mails(instance) == 0


def test_a_reader_killed_while_applying_is_finished_by_the_next_after_its_claim(
        instance: Service, box: Box, monkeypatch: pytest.MonkeyPatch) -> None:
    game = new_game(instance)
    box.append(reply_to(latest_mail(instance, ANN.email), "say good luck\nbet 2\nsay well played"))
    said = []

    def dies_at_the_last_line(service: Service, game_id: str, seat: int, text: Any, **kwargs: Any) -> Any:
        said.append(text)
        if len(said) == 2:
            raise Killed()
        return real_say(service, game_id, seat, text, **kwargs)
    real_say = Service.say
    with monkeypatch.context() as patch:
        patch.setattr(Service, "say", dies_at_the_last_line)
        with pytest.raises(Killed):
            imap.read_once(instance.settings, instance)
    assert bets(instance, game) == 1 and box.count("INBOX") == 1
    busy = imap.read_once(instance.settings, instance)  # its claim holds for a while: someone may still be at it
    assert busy.busy == 1 and box.count("INBOX") == 1
    with instance.store.transaction() as conn:  # the claim's lease runs out
        conn.execute("UPDATE inbound_claims SET until = '2000-01-01T00:00:00+00:00'")
    finished = imap.read_once(instance.settings, instance)
    assert finished.applied == 1 and box.count("INBOX") == 0 and error_mails(instance) == 0
    kinds = [e.type for e in instance.store.read(game) if (e.cause or {}).get("via") == "mail"]
    assert kinds.count("dice.Bet") == 1 and kinds.count("pbem.Said") == 2, kinds


@pytest.mark.parametrize("database", ["sqlite", "postgresql"], indirect=True)
def test_two_readers_at_once_apply_each_message_once(tmp_path: Path, box: Box, database: str | None) -> None:
    settings = box.settings(tmp_path / "inst")
    services = [Service.open(settings), Service.open(settings)]
    games = [new_game(services[0], seed=f"g{n}") for n in range(6)]
    mails = [m for m in services[0].store.query("SELECT * FROM outbox WHERE to_addr = ?", (ANN.email,))]
    assert len(mails) == 6
    from pbem.post.mail.outbox import message_of
    from delivery import parse
    box.append(*[reply_to(parse(message_of(m)), "bet 2", message_id=f"<two-{n}@example.org>")
                 for n, m in enumerate(mails)])
    reports: list[Report] = []
    start = threading.Barrier(2)

    def reader(service: Service) -> None:
        start.wait()
        reports.append(imap.read_once(settings, service))
    threads = [threading.Thread(target=reader, args=(s,)) for s in services]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    try:
        assert len(reports) == 2
        assert sum(r.applied for r in reports) == 6, [r.summary() for r in reports]
        assert all(bets(services[0], g) == 1 for g in games) and error_mails(services[0]) == 0
        leftover = box.count("INBOX")
        if leftover:  # a message one reader left to the other while it was applying it: read and marked next time
            assert imap.read_once(settings, services[0]).duplicates == leftover
        assert box.count("INBOX") == 0
    finally:
        for service in services:
            service.close()


def test_a_password_in_the_address_or_a_bad_address_is_refused(tmp_path: Path) -> None:
    with pytest.raises(config.ConfigError, match="inbound_imap_password"):
        imap.Mailbox.of(make_settings(tmp_path / "a", inbound_imap="imaps://u:pw@imap.example.org/INBOX"))
    with pytest.raises(config.ConfigError, match="not an IMAP mailbox"):
        imap.Mailbox.of(make_settings(tmp_path / "b", inbound_imap="pop3://u@example.org"))
    box = imap.Mailbox.of(make_settings(tmp_path / "c", inbound_imap="imaps://play@example.org@imap.example.org/Games"))
    assert (box.user, box.host, box.port, box.folder, box.tls) == ("play@example.org", "imap.example.org", 993,
                                                                   "Games", True)
    bad = CliRunner().invoke(cli, ["--instance", str(tmp_path / "c"), "inbound", "--imap"])
    assert bad.exit_code == 1 and "no inbound_imap mailbox is set" in bad.output
