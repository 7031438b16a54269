"""A recorded game of Nanty Narking (rules version 1, three players, standard personalities) must keep
replaying: every later version of the code imports it, verifies it whole, and folds it to the same end."""

from __future__ import annotations

import gzip
from pathlib import Path

from pbem.service import Service
from pbem.web import create_app

RECORD = Path(__file__).with_name("records") / "nanty-v1.jsonl.gz"


def test_the_recorded_game_imports_verifies_and_ends_as_it_did(tmp_path: Path) -> None:
    app = create_app({"instance": tmp_path / "inst", "secret_key": "record-key", "TESTING": True})
    service = Service.open(app.config["PBEM_SETTINGS"])
    try:
        lines = gzip.decompress(RECORD.read_bytes()).decode("utf-8").splitlines()
        state = service.import_record(lines)
        assert state.ended
        shown = service.show(state.game_id)
        assert shown["outcome"]["winners"] == [1]
        assert shown["outcome"]["scores"] == {"0": 51, "1": 79, "2": 59}
        assert shown["outcome"]["summary"] == "Ben wins: a player could not refill their hand."
        assert service.verify(state.game_id).ok
    finally:
        service.close()
