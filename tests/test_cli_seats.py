"""``pbem game new --organiser --vacation --autopilot-after``, ``away``, ``back``, ``take-back``, ``resign``,
``replace``: run in-process on a real instance folder."""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from cli.main import cli

ANN = "Ann <ann@example.org>"
BEN = "ben@example.org"

pytestmark = pytest.mark.usefixtures("highdie_registered")


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.delenv("PBEM_INSTANCE", raising=False)
    instance = tmp_path / "inst"

    def invoke(*args: str, ok: bool = True) -> Result:
        result = CliRunner().invoke(cli, ["--instance", str(instance), *args])
        assert (result.exit_code == 0) == ok, result.output
        return result

    invoke("init")
    return invoke


def test_a_game_with_policies_an_absence_a_resignation_and_a_replacement(run: Any) -> None:
    run("game", "new", "highdie", "--player", ANN, "--player", BEN, "--vacation", "sometimes", ok=False)
    run("game", "new", "highdie", "--player", ANN, "--player", BEN, "--autopilot-after", "-1", ok=False)
    plain = run("game", "new", "highdie", "--player", ANN, "--player", BEN).output.strip()
    assert "no organiser address" in run("game", "show", plain).output
    game = run("game", "new", "highdie", "--player", ANN, "--player", BEN, "--organiser", "org@example.org",
               "--vacation", "pause", "--autopilot-after", "2").output.strip()
    shown = run("game", "show", game).output
    assert "organiser: org@example.org" in shown and "the game's clocks stop while anyone is away" in shown
    assert "autopilot after 2 missed deadlines in a row" in shown
    first, back = date.today() + timedelta(days=2), date.today() + timedelta(days=9)
    away = run("game", "away", game, str(first), str(back), "--as", BEN, "--reason", "skiing").output
    assert "pbem.AbsenceDeclared" in away and "ben will be away" in run("game", "show", game).output
    assert "already away" in run("game", "away", game, str(first), str(back), "--as", BEN, ok=False).output
    assert "pbem.AbsenceEnded" in run("game", "back", game, "--as", BEN).output
    assert "not on autopilot" in run("game", "take-back", game, "--as", BEN, ok=False).output
    resigned = run("game", "resign", game, "--as", BEN).output
    assert "pbem.SeatResigned" in resigned and "pbem.AutopilotOn" in resigned
    assert "not an email address" in run("game", "replace", game, "2", "nobody", ok=False).output
    assert "already plays" in run("game", "replace", game, "2", ANN, ok=False).output
    assert "numbered from 1" in run("game", "replace", game, "0", "cy@example.org", ok=False).output
    assert "pbem.SeatReplaced" in run("game", "replace", game, "2", "cy@example.org", "--name", "Cy").output
    assert "seats: 1: Ann, 2: ben" in run("game", "show", game, "--as", "cy@example.org").output
    assert "not playing" in run("game", "show", game, "--as", BEN, ok=False).output
