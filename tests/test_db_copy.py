"""``pbem db copy``: an instance moved from SQLite to PostgreSQL and back, every game verified on arrival."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cli.main import cli
from delivery import ANN, BEN, CY, make_settings
from events.handling import Cause
from pbem.instance.dbcopy import table_names
from pbem.service import Service

pytestmark = pytest.mark.usefixtures("highdie_registered")
CLI = Cause("cli")


def play(service: Service, game: str, moves: int) -> None:
    for _ in range(moves):
        state = service.load(game)
        if state.ended:
            return
        seat = next(iter(service.kernel.rules(state).prompts(state.game)))
        service.act_as(game, seat, "bet 1", cause=CLI)


def contents(service: Service) -> dict[str, Any]:
    """Everything a copy must carry: every table's rows (but the snapshots, a cache), in a stable order."""
    found: dict[str, Any] = {}
    for table in table_names(service.store):
        if table == "snapshots":
            continue
        rows = service.store.query(f'SELECT * FROM "{table}"')
        found[table] = sorted((tuple(sorted((k, bytes(v) if isinstance(v, memoryview) else v)
                                            for k, v in r.items())) for r in rows), key=repr)
    return found


def test_an_instance_moves_to_postgresql_and_back_with_every_game_and_row(tmp_path: Path, pg_server: Any) -> None:
    settings = make_settings(tmp_path / "inst")
    service = Service.open(settings)
    games = [service.create_game("highdie", [ANN, BEN], seed="copy-1").after.game_id,
             service.create_game("highdie", [ANN, BEN, CY], seed="copy-2").after.game_id,
             service.create_game("emerald", [ANN, BEN, CY], seed="copy-3").after.game_id]
    play(service, games[0], 30)
    play(service, games[1], 4)
    before = contents(service)
    service.close()
    url = pg_server.url(pg_server.create_database())
    runner = CliRunner()
    done = runner.invoke(cli, ["--instance", str(tmp_path / "inst"), "db", "copy", "--to", url])
    assert done.exit_code == 0, done.output
    assert "copied 3 games" in done.output and "every game's chain verified" in done.output

    moved = Service.open(make_settings(tmp_path / "inst", database=url))
    try:
        assert contents(moved) == before
        assert all(moved.verify(g).ok for g in games)
        play(moved, games[1], 2)  # the service goes on there
        after = contents(moved)
    finally:
        moved.close()

    again = runner.invoke(cli, ["--instance", str(tmp_path / "inst"), "db", "copy", "--to", url])
    assert again.exit_code == 1 and "is not empty" in again.output

    back = tmp_path / "back.sqlite3"
    done = runner.invoke(cli, ["--instance", str(tmp_path / "inst"), "db", "copy", "--to", str(back)],
                         env={"PBEM_DATABASE": url})
    assert done.exit_code == 0, done.output
    home = Service.open(make_settings(tmp_path / "back", database=str(back)))
    try:
        assert contents(home) == after and all(home.verify(g).ok for g in games)
    finally:
        home.close()
        from events import pgstore
        pgstore.close_shared()
