"""The muster through the service: its own event stream, expiry by the scheduler, the CLI, and who sees addresses."""

from __future__ import annotations

import json
import threading
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cli.main import cli
from delivery import make_settings, mails_to
from events.handling import Cause
from pbem.instance import config
from pbem.organising import muster, organisers
from pbem.post.mail.outbox import message_of
from pbem.scheduler import Jobs
from pbem.service import Player, Service

CLI = Cause("cli")
PLAYERS = [Player("ann@example.org", "Ann"), Player("ben@example.org", "Ben"), Player("cy@example.org", "Cy")]


def open_one(service: Service, game_type: str = "nanty", players: list[Player] = PLAYERS,
             days: float = 7) -> muster.Muster:
    asked = organisers.check(service.kernel.games, game_type, [(p.name, p.email) for p in players],
                             {"personalities": "classic"}, {"turn_hours": 48.0}, None)
    return muster.open_muster(service, organiser="olive@example.org", organiser_name="Olive", game_type=game_type,
                              title=asked.title, players=asked.players, options=asked.options,
                              data_override=None, days=days, cause=CLI)


def accept(service: Service, found: muster.Muster, slot: int, choice: str = "accept") -> muster.Muster:
    current = muster.get(service.store, found.muster_id)
    return muster.answer(service, found.muster_id, slot, current.invitations[slot].invitation, choice, cause=CLI)


def test_the_muster_is_an_event_stream_that_verifies_and_no_game(service: Service) -> None:
    found = open_one(service)
    accept(service, found, 0)
    accept(service, found, 1, "decline")
    muster.replace(service, found.muster_id, 1, Player("dee@example.org", "Dee"), days=7, cause=CLI)
    accept(service, found, 1)
    done = accept(service, found, 2)
    events = service.store.read(found.muster_id)
    assert [e.type for e in events] == [muster.OPENED] + [muster.INVITED] * 3 + [
        muster.ANSWERED, muster.ANSWERED, muster.INVITED, muster.ANSWERED, muster.ANSWERED, muster.STARTED]
    assert events[0].visibility.kind == "server"  # the organiser's address
    assert [e.visibility.seats for e in events if e.type == muster.INVITED] == [(0,), (1,), (2,), (1,)]
    assert events[6].payload["replaces"] == events[2].seq
    assert muster.verify(service.store, found.muster_id) is None
    assert done.status == "started" and done.game_id and service.load(done.game_id).config.options["personalities"] \
        == "classic"
    assert [s.name for s in service.load(done.game_id).config.seats] == ["Ann", "Dee", "Cy"]
    with pytest.raises(Exception, match="game being mustered"):
        service.load(found.muster_id)
    # altered by hand: the chain says where
    with service.store.transaction() as conn:
        conn.execute("UPDATE events SET payload = ? WHERE game_id = ? AND seq = 5",
                     (json.dumps({"slot": 0, "invitation": 2, "answer": "decline"}), found.muster_id))
    broken = muster.verify(service.store, found.muster_id)
    assert broken is not None and broken.seq == 5


def test_an_unanswered_invitation_expires_on_the_schedulers_tick_and_the_organiser_is_told(service: Service) -> None:
    found = open_one(service, days=7)
    accept(service, found, 0)
    settings = make_settings(service.settings.instance)
    jobs = Jobs(settings, lambda: Service.open(settings))
    due = datetime.fromisoformat(found.invitations[1].expires_at)
    jobs.musters(due - timedelta(seconds=1))
    assert [i.status for i in muster.get(service.store, found.muster_id).invitations] == ["accepted", "invited",
                                                                                       "invited"]
    jobs.musters(due + timedelta(seconds=1))
    after = muster.get(service.store, found.muster_id)
    assert [i.status for i in after.invitations] == ["accepted", "expired", "expired"]
    expired = [e for e in service.store.read(found.muster_id) if e.type == muster.EXPIRED]
    assert len(expired) == 2 and {e.actor for e in expired} == {"scheduler"}
    told = [m["subject"] for m in mails_to(service, "olive@example.org")]
    assert "[pbem] Ben did not answer" in told and "[pbem] Cy did not answer" in told
    jobs.musters(due + timedelta(seconds=2))  # again: nothing more
    assert len(service.store.read(found.muster_id)) == after.last_seq
    with pytest.raises(muster.InvitationRefused, match="expired"):
        accept(service, found, 1)
    assert len(service.store.read(found.muster_id)) == after.last_seq
    # the organiser fills both places; the game starts
    muster.replace(service, found.muster_id, 1, Player("dee@example.org", "Dee"), days=7, cause=CLI)
    muster.replace(service, found.muster_id, 2, Player("eve@example.org", "Eve"), days=7, cause=CLI)
    accept(service, found, 1)
    assert accept(service, found, 2).status == "started"


def test_replacing_is_only_for_decliners_and_never_to_an_address_or_name_already_there(service: Service) -> None:
    found = open_one(service)
    with pytest.raises(Exception, match="only a player who declined"):
        muster.replace(service, found.muster_id, 0, Player("dee@example.org", "Dee"), days=7, cause=CLI)
    accept(service, found, 0, "decline")
    with pytest.raises(Exception, match="invited already"):
        muster.replace(service, found.muster_id, 0, Player("ben@example.org", "Bo"), days=7, cause=CLI)
    with pytest.raises(Exception, match="called cy already"):
        muster.replace(service, found.muster_id, 0, Player("cy2@example.org", "cy"), days=7, cause=CLI)
    assert len(service.store.read(found.muster_id)) == 5


def test_the_last_two_acceptances_racing_start_the_game_once(service: Service) -> None:
    found = open_one(service, players=PLAYERS[:2])
    settings = make_settings(service.settings.instance)
    results: list[Any] = []

    def take(slot: int) -> None:
        other = Service.open(settings)
        try:
            results.append(accept(other, found, slot))
        except Exception as err:  # noqa: BLE001 - the test reports what happened
            results.append(err)
        finally:
            other.close()

    threads = [threading.Thread(target=take, args=(slot,)) for slot in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(isinstance(r, muster.Muster) for r in results), results
    events = service.store.read(found.muster_id)
    assert [e.type for e in events].count(muster.STARTED) == 1
    assert service.store.query("SELECT count(*) AS n FROM games")[0]["n"] == 1


def test_a_game_whose_creation_was_interrupted_is_created_by_the_scheduler(service: Service,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    found = open_one(service, players=PLAYERS[:2])
    accept(service, found, 0)
    monkeypatch.setattr(muster, "start", lambda host, found: None)  # the process stops right after the append
    started = accept(service, found, 1)
    monkeypatch.undo()
    assert started.status == "started" and muster.stalled(service.store) == [found.muster_id]
    settings = make_settings(service.settings.instance)
    Jobs(settings, lambda: Service.open(settings)).musters()
    assert muster.stalled(service.store) == []
    assert service.load(str(started.game_id)).config.seats[1].name == "Ben"


def test_each_invitee_reads_only_their_own_address(service: Service) -> None:
    found = open_one(service)
    for player in PLAYERS:
        for row in mails_to(service, player.email):
            text = message_of(row)
            assert not [p.email for p in PLAYERS if p.email != player.email and p.email in text]
            assert "olive@example.org" not in text  # the organiser is named, not addressed
    assert [i["email"] for i in found.to_json(with_emails=True)["invitations"]] == [p.email for p in PLAYERS]
    assert all("email" not in i for i in found.to_json(with_emails=False)["invitations"])


def test_the_organiser_setting_is_invited_or_open(tmp_path: Path) -> None:
    assert config.load(tmp_path, environ={})["organisers"] == "invited"
    assert config.load(tmp_path, environ={"PBEM_ORGANISERS": "open"})["organisers"] == "open"
    with pytest.raises(config.ConfigError, match="invited or open"):
        config.load(tmp_path, environ={"PBEM_ORGANISERS": "anyone"})


def test_signup_links_open_the_page_only_when_sign_up_is_open(service: Service) -> None:
    assert service.notifier is not None
    now = datetime.now(timezone.utc)
    assert organisers.signup(service.store, service.notifier, "sam@example.org", now)
    assert not organisers.signup(service.store, service.notifier, "SAM@example.org", now + timedelta(minutes=59))
    assert organisers.signup(service.store, service.notifier, "sam@example.org", now + timedelta(minutes=61))
    oid = organisers.organiser_id("sam@example.org")
    assert organisers.organiser_of(service.store, oid, "invited") is None
    assert organisers.organiser_of(service.store, oid, "open") == "sam@example.org"
    organisers.invite(service.store, service.notifier, "sam@example.org")
    assert organisers.organiser_of(service.store, oid, "invited") == "sam@example.org"


def test_the_cli_invites_an_organiser_and_lists_shows_and_cancels_musters(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PBEM_INSTANCE", raising=False)
    instance = str(tmp_path / "inst")

    def run(*args: str, ok: bool = True) -> str:
        result = CliRunner().invoke(cli, ["--instance", instance, *args])
        assert (result.exit_code == 0) == ok, result.output
        return result.output

    run("init")
    link = run("organiser", "invite", "olive@example.org").strip()
    assert "/new/" in link and "olive" not in link
    assert "is not an email address" in run("organiser", "invite", "olive", ok=False)
    assert "no musters yet" in run("muster", "list")
    service = Service.open(config.load(Path(instance), environ={}))
    try:
        found = open_one(service)
        accept(service, found, 0)
    finally:
        service.close()
    assert "open      1 of 3 accepted  Nanty Narking" in run("muster", "list")
    shown = run("muster", "show", found.muster_id)
    assert "Ann <ann@example.org>: accepted" in shown and "record: verified" in shown
    assert json.loads(run("muster", "show", found.muster_id, "--json"))["invitations"][1]["status"] == "invited"
    assert "cancelled" in run("muster", "cancel", found.muster_id, "--reason", "too few")
    assert "cancelled already" in run("muster", "cancel", found.muster_id, ok=False)
    assert "no muster" in run("muster", "show", "muster-0000000000", ok=False)


def test_an_invitation_past_its_expiry_is_refused_before_the_scheduler_marks_it(service: Service) -> None:
    found = open_one(service, days=-1)  # expired the moment it was sent
    with pytest.raises(muster.InvitationRefused, match="expired"):
        accept(service, found, 0)
    assert len(service.store.read(found.muster_id)) == found.last_seq
    with pytest.raises(Exception, match="there is no game"):
        service.verify(found.muster_id)
