"""``pbem mail send`` sends every due mail in one run, a batch of 200 at a time; the worker sends a batch a run."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cli.main import cli
from pbem.post.mail.dispatch import status
from pbem.scheduler import Jobs
from pbem.service import Service
from test_mail_claims import queue_mails

pytestmark = pytest.mark.usefixtures("highdie_registered")


def sent_files(service: Service) -> list[Path]:
    return sorted(service.settings.mailbox.glob("*.eml"))


def test_pbem_mail_send_sends_every_due_mail_in_one_run(service: Service, monkeypatch: pytest.MonkeyPatch) -> None:
    """450 due mails: three batches of at most 200, one command; each mail once, none left for another run."""
    monkeypatch.delenv("PBEM_INSTANCE", raising=False)
    ids = queue_mails(service, 450)
    result = CliRunner().invoke(cli, ["--instance", str(service.settings.instance), "mail", "send"])
    assert result.exit_code == 0, result.output
    assert result.output.strip() == "0 pending, 450 sent, 0 failed"
    assert status(service.store)["counts"] == {"sent": 450}
    assert len(sent_files(service)) == len(ids) == 450
    attempts = service.store.query("SELECT count(*) AS n, count(DISTINCT sender) AS senders FROM mail_attempts")[0]
    assert attempts["n"] == 450 and attempts["senders"] == 3  # one sender per batch of 200


def test_the_workers_run_sends_one_batch_and_leaves_the_rest_to_its_next_run(service: Service) -> None:
    """So that one long queue does not hold up the worker's other jobs (deadlines, reminders) between runs."""
    queue_mails(service, 250)
    jobs: Any = Jobs(service.settings)
    jobs.send_mail()
    assert status(service.store)["counts"] == {"sent": 200, "pending": 50}
    jobs.send_mail()
    assert status(service.store)["counts"] == {"sent": 250}
