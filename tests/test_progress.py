"""Long commands are never silent: ``pbem game verify`` and ``pbem db copy`` show a bar on a terminal, a count in
lines otherwise (both on stderr, so the printed result stays as it was)."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from cli import progress
from cli.main import cli
from events.handling import Cause
from pbem.instance import config
from pbem.service import Service

pytestmark = pytest.mark.usefixtures("highdie_registered")

from delivery import ANN, BEN


class Screen(io.StringIO):
    """A terminal as a bar sees it."""

    def isatty(self) -> bool:
        return True


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.delenv("PBEM_INSTANCE", raising=False)
    instance = tmp_path / "inst"

    def invoke(*args: str) -> Result:
        result = CliRunner().invoke(cli, ["--instance", str(instance), *args])
        assert result.exit_code == 0, result.output
        return result

    invoke("init")
    invoke.instance = instance  # type: ignore[attr-defined]
    return invoke


@pytest.fixture
def ended(run: Any) -> str:
    """A game of High Die played to its end (so verification decides every command again)."""
    service = Service.open(config.load(run.instance, environ={}))
    try:
        game = service.create_game("highdie", [ANN, BEN], seed="meter").after.game_id
        for _ in range(200):
            state = service.load(game)
            if state.ended:
                return game
            seat, prompt = next(iter(service.kernel.rules(state).prompts(state.game).items()))
            service.act_as(game, seat, "bet 3" if prompt.kind == "turn" else "accept", cause=Cause("cli"))
    finally:
        service.close()
    raise AssertionError("the game did not end")


def test_verify_counts_commands_in_about_ten_lines_when_not_on_a_terminal(run: Any, ended: str) -> None:
    result = run("game", "verify", ended)
    counts = re.findall(rf"^verifying {ended}: (\d+) of (\d+) commands checked$", result.stderr, re.M)
    assert counts, result.stderr
    done = [int(d) for d, _ in counts]
    total = int(counts[0][1])
    assert done == sorted(done) and done[-1] == total and 2 <= len(done) <= 11 and total > 10
    assert all(int(t) == total for _, t in counts)
    assert result.stdout.strip().endswith("OK") and "commands checked" not in result.stdout


def test_verify_draws_a_bar_on_a_terminal_and_prints_no_count(run: Any, ended: str,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    screen = Screen()
    monkeypatch.setattr(progress, "terminal", lambda: screen)
    result = run("game", "verify", ended)
    drawn = screen.getvalue()
    total = int(re.findall(r"(\d+)/(\d+)", drawn)[-1][1])
    assert f"verifying {ended}" in drawn and f"{total}/{total}" in drawn and "#" * 36 + "]" in drawn, drawn
    assert "commands checked" not in result.output and result.stdout.strip().endswith("OK")


def test_db_copy_prints_a_line_per_game_and_table_when_not_on_a_terminal(run: Any, ended: str,
                                                                         tmp_path: Path) -> None:
    other = str(run("game", "new", "highdie", "--player", ANN.email, "--player", BEN.email, "--seed", "two")
                .stdout.strip())
    result = run("db", "copy", "--to", str(tmp_path / "copy.sqlite3"))
    for game in (ended, other):
        assert re.search(rf"^game {game}: \d+ events copied$", result.stderr, re.M), result.stderr
        assert re.search(rf"^game {game}: its chain of \d+ events verified on the target$", result.stderr, re.M)
    assert re.search(r"^table games: 2 rows$", result.stderr, re.M)
    assert "copied 2 games" in result.stdout and "every game's chain verified" in result.stdout


def test_db_copy_draws_a_bar_on_a_terminal(run: Any, ended: str, tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    screen = Screen()
    monkeypatch.setattr(progress, "terminal", lambda: screen)
    result = run("db", "copy", "--to", str(tmp_path / "copy.sqlite3"))
    drawn = screen.getvalue()
    total = int(re.findall(r"(\d+)/(\d+)", drawn)[-1][1])
    assert "copying" in drawn and f"{total}/{total}" in drawn and f"verified on the target" in drawn, drawn
    assert "events copied" not in result.output and "copied 1 games" in result.stdout
