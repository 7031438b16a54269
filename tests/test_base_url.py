"""One base URL for links: every process derives it from the same settings, so their mails agree."""

from __future__ import annotations

from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from cli.main import cli
from delivery import parse, text_of
from pbem.instance import config
from pbem.post.mail.outbox import message_of
from pbem.service import Service

pytestmark = pytest.mark.usefixtures("highdie_registered")


@pytest.fixture
def instance(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name in ("PBEM_INSTANCE", "PBEM_HOST", "PBEM_PORT", "PBEM_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    folder = tmp_path / "inst"
    assert CliRunner().invoke(cli, ["--instance", str(folder), "init"]).exit_code == 0
    return folder


def pbem(instance: Path, *args: str, env: dict[str, str] | None = None, stdin: bytes | None = None) -> Result:
    result = CliRunner().invoke(cli, ["--instance", str(instance), *args], env=env, input=stdin)
    assert result.exit_code == 0, result.output
    return result


def latest_mail(instance: Path, address: str) -> EmailMessage:
    service = Service.open(config.load(instance, environ={}))
    try:
        row = service.store.query("SELECT draft, message FROM outbox WHERE to_addr = ? "
                                  "ORDER BY created_at DESC, id DESC LIMIT 1", (address,))[0]
        return parse(message_of(row))
    finally:
        service.close()


def new_game(instance: Path, env: dict[str, str] | None = None) -> str:
    return pbem(instance, "game", "new", "highdie", "--player", "Ann <ann@example.org>", "--player",
                "ben@example.org", "--seed", "links", env=env).output.strip()


def test_the_default_base_url_is_made_of_the_host_and_port_settings(tmp_path: Path) -> None:
    assert config.load(tmp_path, environ={}).base_url == "http://127.0.0.1:8000"
    assert config.load(tmp_path, environ={"PBEM_PORT": "9123"})["base_url"] == "http://127.0.0.1:9123"
    assert config.load(tmp_path, environ={"PBEM_HOST": "0.0.0.0"}).base_url == "http://127.0.0.1:8000"
    assert config.load(tmp_path, environ={"PBEM_HOST": "192.0.2.7"}).base_url == "http://192.0.2.7:8000"
    given = {"PBEM_PORT": "9123", "PBEM_BASE_URL": "https://pbem.example.org/"}
    assert config.load(tmp_path, environ=given)["base_url"] == "https://pbem.example.org"


def test_a_game_created_from_the_command_line_links_to_the_port_setting(instance: Path) -> None:
    new_game(instance, env={"PBEM_PORT": "9123"})
    assert "http://127.0.0.1:9123/play/" in text_of(latest_mail(instance, "ann@example.org"))


def test_a_reply_read_by_pbem_inbound_is_answered_with_links_to_the_port_setting(instance: Path) -> None:
    with open(instance / config.CONFIG_FILE, "a", encoding="utf-8") as toml:
        toml.write("port = 9123\n")
    new_game(instance)
    turn = latest_mail(instance, "ann@example.org")
    reply = EmailMessage()
    reply["From"] = "Ann <ann@example.org>"
    reply["To"] = str(turn["Reply-To"])
    reply["Subject"] = "Re: " + str(turn["Subject"])
    reply["Message-ID"] = "<reply-9123@example.org>"
    reply.set_content("bet 2\n")
    assert "applied 1 command" in pbem(instance, "inbound", stdin=bytes(reply)).output
    answer = latest_mail(instance, "ben@example.org")
    assert "http://127.0.0.1:9123/" in text_of(answer) and "127.0.0.1:8000" not in text_of(answer)


def test_a_base_url_that_is_set_wins_over_host_and_port(instance: Path) -> None:
    new_game(instance, env={"PBEM_PORT": "9123", "PBEM_BASE_URL": "https://pbem.example.org"})
    text = text_of(latest_mail(instance, "ann@example.org"))
    assert "https://pbem.example.org/play/" in text and "9123" not in text


def test_serve_on_another_port_than_the_settings_is_told_that_other_commands_disagree(tmp_path: Path) -> None:
    settings: Any = config.load(tmp_path, environ={})
    assert config.links_disagree(settings, config.serving(settings, None, 9123))
    assert not config.links_disagree(settings, config.serving(settings, "0.0.0.0", 8000))
    fixed = config.load(tmp_path, environ={"PBEM_BASE_URL": "https://pbem.example.org"})
    assert not config.links_disagree(fixed, config.serving(fixed, None, 9123))


def test_the_worker_mails_links_to_the_port_setting(instance: Path) -> None:
    from datetime import datetime, timedelta, timezone

    from pbem.scheduler import Jobs

    new_game(instance)
    settings = config.load(instance, environ={"PBEM_PORT": "9123"})
    Jobs(settings).deadlines(datetime.now(timezone.utc) + timedelta(days=30))  # Ann's turn times out
    text = text_of(latest_mail(instance, "ben@example.org"))
    assert "http://127.0.0.1:9123/play/" in text and "127.0.0.1:8000" not in text
