"""``pbem player show EMAIL [--json]``: a player's games, settings, reliability and mail status, with the last
delivery reports; an address the server never had is refused."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterator

import pytest
from click.testing import CliRunner

from cli.main import cli
from delivery import make_settings
from events.handling import Cause
from pbem.post import undelivered
from pbem.post.mail import bounces
from pbem.post.people import set_mail, set_zone
from pbem.service import Player, Service

pytestmark = pytest.mark.usefixtures("highdie_registered")

ANN, BEN, CY = Player("ann@example.org", "Ann"), Player("ben@example.org", "Ben"), Player("cy@example.org", "Cy")
REFUSED = "the server refused the address: 550 5.1.1 <ann@example.org>: user unknown"


@pytest.fixture
def service(tmp_path: Path, database: str | None) -> Iterator[Service]:
    opened = Service.open(make_settings(tmp_path / "inst"))
    yield opened
    opened.close()


def run(service: Service, *args: str) -> tuple[int, str]:
    assert service.settings is not None
    result = CliRunner().invoke(cli, ["--instance", str(service.settings.instance), "player", "show", *args])
    return result.exit_code, result.output


def test_a_player_with_mail_that_comes_back_is_shown_whole(service: Service) -> None:
    first = service.create_game("highdie", [ANN, BEN], seed="p1", organiser="org@example.org").after.game_id
    second = service.create_game("highdie", [CY, ANN], seed="p2").after.game_id
    service.act_as(first, 0, "bet 1", cause=Cause("cli"))  # a deadline met, on time
    pid = service.player_id(ANN.email)
    set_zone(service.store, pid, "Europe/Paris")
    set_mail(service.store, pid, "daily", "on")
    bounces.record(service.store, ANN.email, bounces.Kind.SOFT, "452 4.2.2 mailbox full",
                   now=datetime(2026, 3, 1, 9, tzinfo=timezone.utc))
    bounces.record(service.store, ANN.email, bounces.Kind.HARD, REFUSED, via="smtp",
                   now=datetime(2026, 3, 2, 9, tzinfo=timezone.utc))
    undelivered.tell(service)
    code, out = run(service, ANN.email)
    assert code == 0, out
    assert out.splitlines() == [
        f"Ann <ann@example.org>  (player id {pid})",
        "games: 2",
        f"  {first}  Highdie (test game)  seat 1 as Ann  running  (the table was told the mail is not arriving)",
        f"  {second}  Highdie (test game)  seat 2 as Ann  running  (the table was told the mail is not arriving)",
        "settings: time zone Europe/Paris; mails: a daily digest; receipts on; table talk with the next turn mail",
        "reliability: 1 on time, 0 missed; answers in 0 min on average",
        f"mail: bouncing (score 1.5): {REFUSED}",
        "  last reports (2 of 2, newest first):",
        f"    2026-03-02T09:00:00+00:00  hard  by smtp  {REFUSED}",
        "    2026-03-01T09:00:00+00:00  soft  by report  452 4.2.2 mailbox full",
    ]
    code, out = run(service, ANN.email, "--json")
    found = json.loads(out)
    assert code == 0 and set(found) == {"email", "name", "player_id", "games", "settings", "reliability", "mail"}
    assert [(g["game_id"], g["seat"], g["status"], g["title"]) for g in found["games"]] == [
        (first, 1, "running", "Highdie (test game)"), (second, 2, "running", "Highdie (test game)")]
    assert found["settings"] == {"timezone": "Europe/Paris", "timezone_chosen": True, "mail_mode": "daily",
                                 "receipts": True, "talk_mail": "turn"}
    assert (found["reliability"]["on_time"], found["reliability"]["missed"]) == (1, 0)
    mail = found["mail"]
    assert (mail["status"], mail["score"], mail["reason"]) == ("bouncing", 1.5, REFUSED)
    assert [(r["kind"], r["via"], r["counted"]) for r in mail["reports"]] == [("hard", "smtp", 1.0),
                                                                            ("soft", "report", 0.5)]


def test_a_player_whose_mail_arrives_and_an_unknown_address(service: Service) -> None:
    service.create_game("highdie", [ANN, BEN], seed="p3")
    code, out = run(service, BEN.email, "--json")
    found = json.loads(out)
    assert code == 0 and found["mail"]["status"] == "ok" and found["mail"]["reports"] == []
    assert found["settings"] == {"timezone": "UTC", "timezone_chosen": False, "mail_mode": "every",
                                 "receipts": False, "talk_mail": "turn"}
    assert run(service, BEN.email)[1].splitlines()[-1] == "mail: ok (nothing came back)"
    code, out = run(service, "nobody@example.org")
    assert code == 1 and "no player nobody@example.org on this server" in out
    code, out = run(service, "not an address")
    assert code == 1 and "Error:" in out
