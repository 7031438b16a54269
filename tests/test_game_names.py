"""A game has a name: the organiser's, or the game and its players; recorded with the game, never shared by two."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cli.main import cli
from delivery import ANN, BEN, CY
from pbem.errors import ServiceError
from pbem.service import Player, Service

pytestmark = pytest.mark.usefixtures("highdie_registered")


def name_of(service: Service, game_id: str) -> Any:
    return service.store.query("SELECT name FROM games WHERE game_id = ?", (game_id,))[0]["name"]


def test_a_game_without_a_name_is_called_after_the_game_and_its_players(service: Service) -> None:
    created = service.create_game("emerald", [Player("alice@example.org", "Alice"), Player("bob@example.org", "Bob"),
                                              Player("carol@example.org", "Carol")], seed="names")
    game_id = created.after.game_id
    assert name_of(service, game_id) == "Emerald with Alice, Bob and Carol"
    assert created.events[0].payload["options"]["name"] == "Emerald with Alice, Bob and Carol"  # in the record
    assert [g["name"] for g in service.list_games()] == ["Emerald with Alice, Bob and Carol"]


def test_the_organisers_name_is_one_line_of_plain_words(service: Service) -> None:
    game_id = service.create_game("highdie", [ANN, BEN], title="  Friday \n game ").after.game_id
    assert name_of(service, game_id) == "Friday game"
    for bad, why in (("x" * 81, "at most 80 characters"), ("Friday\x07game", "plain text")):
        with pytest.raises(ServiceError, match=why):
            service.create_game("highdie", [ANN, BEN], title=bad)
    assert len(service.list_games()) == 1  # nothing was created by the refused names


def test_two_games_never_share_a_name(service: Service) -> None:
    first = service.create_game("highdie", [ANN, BEN]).after.game_id
    second = service.create_game("highdie", [ANN, BEN]).after.game_id
    third = service.create_game("highdie", [ANN, CY], title="Highdie (test game) with Ann and Ben").after.game_id
    assert [name_of(service, g) for g in (first, second, third)] == [
        "Highdie (test game) with Ann and Ben", "Highdie (test game) with Ann and Ben (2)",
        "Highdie (test game) with Ann and Ben (3)"]


def test_the_name_travels_with_the_record(service: Service, tmp_path: Path) -> None:
    from delivery import make_settings
    game_id = service.create_game("highdie", [ANN, BEN], title="Friday game").after.game_id
    record = list(service.export(game_id, with_secrets=True))
    other = Service.open(make_settings(tmp_path / "other", database="pbem.sqlite3"))  # another instance: its own SQLite file
    try:
        other.import_record(record)
        assert name_of(other, game_id) == "Friday game"
    finally:
        other.close()


def test_the_command_line_names_a_game_and_lists_it_by_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PBEM_INSTANCE", raising=False)
    instance = ["--instance", str(tmp_path / "inst")]
    assert CliRunner().invoke(cli, [*instance, "init"]).exit_code == 0
    made = CliRunner().invoke(cli, [*instance, "game", "new", "highdie", "--title", "Friday game",
                                    "--player", "Ann <ann@example.org>", "--player", "ben@example.org"])
    assert made.exit_code == 0, made.output
    listed = CliRunner().invoke(cli, [*instance, "game", "list"]).output
    assert listed.rstrip().endswith("Friday game") and "move " not in listed
    refused = CliRunner().invoke(cli, [*instance, "game", "new", "highdie", "--title", "x" * 81,
                                       "--player", "ann@example.org", "--player", "ben@example.org"])
    assert refused.exit_code == 1 and "at most 80 characters" in refused.output
