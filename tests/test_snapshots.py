"""Snapshots name the game's data by its digest instead of carrying it (``events.snapshots``): small, and a state
read from one equals the state replayed from the events."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Iterator

import pytest

from delivery import make_settings, play_moves as play
from events.envelope import canonical_json
from events.gamedata import digest_of
from events.rules import GameConfig, Seat
from events.snapshots import SnapshotCodec
from pbem.service import Player, Service

PLAYERS = [Player("ann@example.org", "Ann"), Player("ben@example.org", "Ben"), Player("cy@example.org", "Cy")]


@pytest.fixture
def service(tmp_path: Path) -> Iterator[Service]:
    s = Service.open(make_settings(tmp_path / "inst"))
    yield s
    s.close()


@pytest.mark.parametrize("game_type", ["emerald", "emerald1", "nanty"])
def test_a_snapshot_names_the_data_by_digest_and_reads_back_as_the_replayed_state(service: Service,
                                                                                  game_type: str) -> None:
    game_id = service.create_game(game_type, PLAYERS, seed=f"snap-{game_type}").after.game_id
    play(service, game_id, 40)
    snapshots = list(service.store.snapshots(game_id))
    assert snapshots
    data = service.load(game_id).config.data
    a_card = canonical_json(data)[-400:-200]  # some of the data's text, which a snapshot must not carry
    replayer = service.kernel.replayer
    for snapshot in snapshots:
        assert a_card.encode() not in snapshot.state
        assert len(snapshot.state) < len(canonical_json(data)) // 2
        state = replayer.codec.loads(snapshot.state, replayer.made_from_data(game_type))
        assert state == replayer.fold(service.store.read(game_id, 0, snapshot.seq))
        assert state.config.data == data
    fresh = Service.open(service.settings)  # another process: nothing of this game in memory
    try:
        assert fresh.load(game_id) == replayer.fold(service.store.read(game_id))
    finally:
        fresh.close()


def test_data_the_store_does_not_hold_is_pickled_whole_and_reads_back_without_a_store() -> None:
    data = {"cards": [{"number": n, "name": f"card {n}"} for n in range(50)]}
    config = GameConfig((Seat(0, "Ann"),), {}, data)
    missing = SnapshotCodec(None)
    blob = missing.dumps(config)
    assert b"card 49" in blob
    assert pickle.loads(blob) == config  # an ordinary pickle: nothing in it needs the store

    stored = {digest_of(data): data}
    codec = SnapshotCodec(lambda digest: stored[digest])
    named = codec.dumps(config)
    assert b"card 49" not in named and digest_of(data).encode() in named
    assert codec.loads(named) == config
    with pytest.raises(pickle.UnpicklingError, match="SnapshotCodec"):
        pickle.loads(named)  # read only through a codec that can ask for the data


def test_a_snapshot_whose_data_is_gone_is_passed_over_and_the_game_replayed(service: Service) -> None:
    game_id = service.create_game("emerald", PLAYERS, seed="gone").after.game_id
    play(service, game_id, 30)
    assert list(service.store.snapshots(game_id))
    truth = service.kernel.replayer.fold(service.store.read(game_id))
    codec = service.kernel.replayer.codec

    def nowhere(digest: str) -> dict[str, object]:
        raise LookupError(digest)

    service.kernel.replayer.codec = SnapshotCodec(nowhere)
    try:
        service.kernel.replayer.data_of = service.kernel.data  # the events still name data the store holds
        assert service.kernel.replayer.load(service.store, game_id) == truth
    finally:
        service.kernel.replayer.codec = codec
