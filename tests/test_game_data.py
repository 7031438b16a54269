"""A game's data is recorded by its digest: GameCreated stays small, the data is stored once per instance, and a
record carries it so it verifies anywhere (``events.gamedata``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Iterator

import pytest

from delivery import make_settings, own_database
from events.envelope import canonical_json, sha256_hex
from events.schema import GAME_CREATED
from pbem.service import GameDamaged, Player, Service, ServiceError

PLAYERS = [Player("ann@example.org", "Ann"), Player("ben@example.org", "Ben")]


@pytest.fixture
def service(tmp_path: Path, database: str | None) -> Iterator[Service]:
    s = Service.open(make_settings(tmp_path / "one"))
    yield s
    s.close()


@pytest.fixture
def other(tmp_path: Path, service: Service) -> Iterator[Service]:
    s = Service.open(make_settings(tmp_path / "two", **own_database()))
    yield s
    s.close()


def test_game_created_names_its_data_by_digest_and_the_data_is_stored_once(service: Service) -> None:
    first = service.create_game("emerald", PLAYERS, seed="d1").after.game_id
    second = service.create_game("emerald", PLAYERS, seed="d2").after.game_id
    created = [service.store.read(g, 0, 1)[0] for g in (first, second)]
    assert all(e.type == GAME_CREATED and "data" not in e.payload for e in created)
    digest = created[0].payload["data_digest"]
    assert created[1].payload["data_digest"] == digest
    assert len(canonical_json(created[0].payload)) < 1_000  # was 19 KB with the data inline
    [row] = service.store.query("SELECT digest, data FROM game_data")
    assert row["digest"] == digest == sha256_hex(row["data"])
    assert json.loads(row["data"]) == service.load(first).config.data


def test_another_override_is_other_data_with_its_own_digest(service: Service) -> None:
    plain = service.create_game("emerald", PLAYERS, seed="o1").after.game_id
    changed = service.create_game("emerald", PLAYERS, seed="o2",
                                  data_override={"cities": [{"id": "london", "defence": 6}]}).after.game_id
    digests = {service.store.read(g, 0, 1)[0].payload["data_digest"] for g in (plain, changed)}
    assert len(digests) == 2 and service.store.query("SELECT count(*) AS n FROM game_data")[0]["n"] == 2
    london = [c for c in service.load(changed).config.data["cities"] if c["id"] == "london"]
    assert london and london[0]["defence"] == 6


def test_a_record_carries_the_data_and_imports_into_an_instance_that_never_saw_it(service: Service,
                                                                                   other: Service) -> None:
    game = service.create_game("emerald", PLAYERS, seed="rec").after.game_id
    lines = list(service.export(game, with_secrets=True))
    header = json.loads(lines[0])
    digest = service.store.read(game, 0, 1)[0].payload["data_digest"]
    assert list(header["data"]) == [digest]
    assert other.store.query("SELECT count(*) AS n FROM game_data")[0]["n"] == 0
    state = other.import_record(lines)
    assert state.config.data == service.load(game).config.data
    assert other.store.game_data(digest) is not None and other.verify(game).ok


def test_a_record_whose_data_was_altered_or_left_out_is_refused(service: Service, other: Service) -> None:
    game = service.create_game("emerald", PLAYERS, seed="bad").after.game_id
    lines = list(service.export(game, with_secrets=True))
    header = json.loads(lines[0])
    [(digest, data)] = header["data"].items()
    altered = json.loads(json.dumps(data))
    altered["game"] = {**altered.get("game", {}), "sneaky": 1}
    for bad, said in (({**header, "data": {digest: altered}}, "does not match its digest"),
                      ({k: v for k, v in header.items() if k != "data"}, "does not carry it")):
        with pytest.raises(ServiceError, match=said):
            other.import_record([json.dumps(bad)] + lines[1:])
    assert other.store.game_ids() == []


def test_a_store_whose_data_row_was_altered_or_lost_says_the_game_is_damaged(service: Service) -> None:
    game = service.create_game("emerald", PLAYERS, seed="dmg").after.game_id
    for damage, said in (("UPDATE game_data SET data = replace(data, 'Berlin', 'Bonn')", "does not match its digest"),
                         ("DELETE FROM game_data", "is not in this store")):
        with service.store.transaction() as conn:
            conn.execute(damage)
            conn.execute("DELETE FROM snapshots")  # a cache: a replay from the events reads the data
        fresh = Service.open(make_settings(service.settings.instance))  # nothing cached
        try:
            with pytest.raises(GameDamaged, match=said):
                fresh.load(game)
        finally:
            fresh.close()


@pytest.mark.usefixtures("highdie_registered")
def test_a_game_recorded_with_its_data_inline_still_replays_and_verifies(service: Service) -> None:
    record = Path(__file__).parent / "records"
    inline = [p for p in sorted(record.glob("*.jsonl"))
              if '"data": {' in p.read_text().splitlines()[1] or '"data":{' in p.read_text().splitlines()[1]]
    assert inline, "a recorded game of before, with its data inline"
    state = service.import_record(inline[0].read_text().splitlines())
    assert service.verify(state.game_id).ok
