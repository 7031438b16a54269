"""Each player reads times in their own zone (set on their home page) and in UTC; spectators and the record read UTC."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from flask import Flask
from flask.testing import FlaskClient

from delivery import html_of, mails_to, parse, text_of
from pbem.instance import config
from pbem.post.mail.outbox import message_of
from pbem.instance.times import in_zone
from pbem.service import Service
from pbem.web import create_app
from web.conftest import ANN, BEN, SECRET, Game, csrf_of, text
from web.test_web_undo import ann_asks

BERLIN, NEW_YORK = "Europe/Berlin", "America/New_York"


def home(game: Game, email: str) -> str:
    return f"/home/{game.links.make('home', game.service.player_id(email))}"


def choose_zone(client: FlaskClient, game: Game, email: str, zone: str) -> str:
    """The player sets their zone with the form on their home page; the page that answers."""
    path = home(game, email)
    response = client.post(f"{path}/timezone", data={"csrf": csrf_of(text(client.get(path))), "timezone": zone})
    assert response.status_code == 200, text(response)
    return text(response)


def local(moment: str, zone: str) -> str:
    """The time as a reader in ``zone`` should see it: the local day and time, then the UTC time."""
    when = datetime.fromisoformat(moment)
    there, utc = when.astimezone(ZoneInfo(zone)), when.astimezone(timezone.utc)
    utc_day = "" if there.date() == utc.date() else f"{utc:%a} {utc.day} {utc:%b}, "
    return f"{there:%a} {there.day} {there:%b %Y, %H:%M} ({zone}) — {utc_day}{utc:%H:%M} UTC"


def in_utc(moment: str) -> str:
    return f"{datetime.fromisoformat(moment).astimezone(timezone.utc):%Y-%m-%d %H:%M} UTC"


def latest_mail(game: Game, email: str, kind: str) -> tuple[str, str]:
    game.service.write_owed_mail()  # as the worker does before it sends: the pages' moves owe their mails
    rows = [m for m in mails_to(game.service, email) if m["kind"] == kind]
    message = parse(message_of(rows[-1]))
    return text_of(message), html_of(message)


def test_one_deadline_reads_in_each_players_zone_and_in_utc_on_the_public_page(client: FlaskClient,
                                                                               game: Game) -> None:
    assert f"Your time zone is now {BERLIN}." in choose_zone(client, game, ANN.email, BERLIN)
    choose_zone(client, game, BEN.email, NEW_YORK)
    ann_asks(client, game)  # Ann bets, Ben bets, Ann asks to take hers back: Ben must answer by a deadline
    asked = game.service.undo_request(game.id)
    assert asked is not None
    due = asked.due_at

    ann = text(client.get(f"/play/{game.token(0)}"))
    ben = text(client.get(f"/play/{game.token(1)}"))
    assert f"Open until {local(due, BERLIN)};" in ann and NEW_YORK not in ann
    assert f"Open until {local(due, NEW_YORK)};" in ben and BERLIN not in ben
    mail_text, mail_html = latest_mail(game, BEN.email, "undo_request")
    assert f"needs your answer by {local(due, NEW_YORK)}." in mail_text
    assert f"needs your answer by {local(due, NEW_YORK)}." in mail_html
    answer = text(client.get(f"/undo/{game.links.undo(game.id, asked.request, 1)}"))
    assert f"Answer by {local(due, NEW_YORK)}." in answer

    public = text(client.get(f"/games/{game.id}"))
    assert f"answer by {in_utc(due)}" in public
    assert BERLIN not in public and NEW_YORK not in public and "—" not in public
    # the log is the record: its lines stay in UTC on a player's page too
    stamp = game.service.log(game.id)[-1]["recorded_at"]
    assert in_utc(stamp) in ann and local(stamp, BERLIN) not in ann


def test_each_players_own_deadline_in_their_mail_and_on_their_pages(client: FlaskClient, game: Game) -> None:
    choose_zone(client, game, ANN.email, BERLIN)
    assert f"Your time zone is now {NEW_YORK}." in choose_zone(client, game, BEN.email, " america/new_york")
    response = client.post(f"/play/{game.token(0)}", data={"csrf": game.links.csrf(game.token(0)),
                                                            "text": "bet 2"})
    assert response.status_code == 200
    due = game.service.deadline_of(game.id, 1)
    assert due is not None
    mail_text, mail_html = latest_mail(game, BEN.email, "turn")
    assert f"Deadline: {local(due, NEW_YORK)}." in mail_text and f"Deadline: {local(due, NEW_YORK)}." in mail_html
    assert f"Deadline: {local(due, NEW_YORK)}." in text(client.get(f"/play/{game.token(1)}"))
    assert local(due, NEW_YORK) in text(client.get(home(game, BEN.email)))
    assert local(due, BERLIN) not in text(client.get(home(game, ANN.email))), "Ann has no move due"


def test_a_mail_keeps_the_zone_it_was_written_in_and_later_mails_take_the_new_one(client: FlaskClient,
                                                                                game: Game) -> None:
    due = game.service.deadline_of(game.id, 0)
    assert due is not None
    choose_zone(client, game, ANN.email, BERLIN)
    written_before, _ = latest_mail(game, ANN.email, "turn")  # drafted when the game was created, rendered now
    assert f"Deadline: {in_utc(due)}." in written_before and BERLIN not in written_before
    game.service.remind(game.id, 0)
    choose_zone(client, game, ANN.email, "Asia/Tokyo")  # after the reminder was written: it keeps Berlin
    reminder, _ = latest_mail(game, ANN.email, "reminder")
    assert f"Deadline: {local(due, BERLIN)}." in reminder


def test_an_unknown_zone_is_refused_with_a_clear_message_and_changes_nothing(client: FlaskClient,
                                                                             game: Game) -> None:
    choose_zone(client, game, ANN.email, BERLIN)
    path = home(game, ANN.email)
    before = game.service.store.query("SELECT * FROM players ORDER BY email")
    response = client.post(f"{path}/timezone", data={"csrf": csrf_of(text(client.get(path))),
                                                     "timezone": "Europe/Atlantis"})
    page = text(response)
    assert response.status_code == 400
    assert "&#39;Europe/Atlantis&#39; is not a time zone this server knows" in page and "Nothing was changed" in page
    assert f"shown in {BERLIN}; deadlines in UTC too." in page
    assert f"times are in your time zone, {BERLIN} (deadlines also in UTC)" in page
    forged = client.post(f"{path}/timezone", data={"csrf": "forged", "timezone": NEW_YORK})
    assert forged.status_code == 403
    blank = client.post(f"{path}/timezone", data={"csrf": csrf_of(page)})
    assert blank.status_code == 400 and "An empty name is not a time zone" in text(blank)
    assert game.service.store.query("SELECT * FROM players ORDER BY email") == before


def test_nobody_and_a_spectator_cannot_set_a_zone(client: FlaskClient, game: Game) -> None:
    token = game.links.make("home", "nobody")
    response = client.post(f"/home/{token}/timezone", data={"csrf": game.links.csrf(token), "timezone": BERLIN})
    assert response.status_code == 404 and "Nothing was changed" in text(response)
    play = game.token(0)
    assert client.post(f"/home/{play}/timezone", data={"csrf": game.links.csrf(play),
                                                       "timezone": BERLIN}).status_code == 403


def test_players_who_chose_no_zone_read_the_instance_default(tmp_path: Path, highdie_registered: None) -> None:
    app: Flask = create_app({"instance": tmp_path / "inst", "secret_key": SECRET, "dev_mode": True,
                             "TESTING": True, "timezone": "Asia/Tokyo"})
    service = Service.open(app.config["PBEM_SETTINGS"])
    try:
        game = Game(service.create_game("highdie", [ANN, BEN], seed="tokyo").after.game_id, service,
                    app.extensions["pbem.links"])
        client = app.test_client()
        due = service.deadline_of(game.id, 0)
        assert due is not None
        page = text(client.get(home(game, ANN.email)))
        assert "shown in Asia/Tokyo (this server&#39;s default); deadlines in UTC too." in page
        assert "times are in your time zone, Asia/Tokyo (deadlines also in UTC)" in page
        assert f"Deadline: {local(due, 'Asia/Tokyo')}." in text(client.get(f"/play/{game.token(0)}"))
        assert f"Deadline: {local(due, 'Asia/Tokyo')}." in latest_mail(game, ANN.email, "turn")[0]
        choose_zone(client, game, ANN.email, "UTC")
        assert f"Deadline: {in_utc(due)}." in text(client.get(f"/play/{game.token(0)}"))
    finally:
        service.close()


def test_the_timezone_setting_is_checked_when_read(tmp_path: Path) -> None:
    assert config.load(tmp_path, environ={})["timezone"] == "UTC"
    assert config.load(tmp_path, environ={"PBEM_TIMEZONE": " europe/berlin"})["timezone"] == BERLIN
    with pytest.raises(config.ConfigError, match="'Mars/Olympus' is not a time zone this server knows"):
        config.load(tmp_path, environ={"PBEM_TIMEZONE": "Mars/Olympus"})


@pytest.mark.parametrize(("moment", "zone", "shown"), [
    ("2026-11-24T08:18:00+00:00", BERLIN, "Tue 24 Nov 2026, 09:18 (Europe/Berlin) — 08:18 UTC"),
    ("2026-07-24T08:18:00+00:00", BERLIN, "Fri 24 Jul 2026, 10:18 (Europe/Berlin) — 08:18 UTC"),
    ("2026-11-24T03:18:00+00:00", NEW_YORK, "Mon 23 Nov 2026, 22:18 (America/New_York) — Tue 24 Nov, 03:18 UTC"),
    ("2026-11-24T03:18:00+00:00", "UTC", "2026-11-24 03:18 UTC"),
    ("2026-11-24T03:18:00", NEW_YORK, "Mon 23 Nov 2026, 22:18 (America/New_York) — Tue 24 Nov, 03:18 UTC"),
    (None, BERLIN, "none"),
])
def test_a_time_in_a_zone_names_the_zone_and_the_utc_time(moment: str | None, zone: str, shown: str) -> None:
    assert in_zone(moment, zone) == shown
