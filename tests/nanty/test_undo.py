"""Undo in Nanty Narking: a card played from a hand has been shown to everyone, so it cannot be taken back."""

from __future__ import annotations

from pathlib import Path

from events.handling import Cause
from pbem.service import Player, Service
from pbem.web import create_app

PLAYERS = [Player("ann@example.org", "Ann"), Player("ben@example.org", "Ben")]
CLI = Cause("cli")


def test_a_card_once_shown_cannot_be_taken_back(tmp_path: Path) -> None:
    app = create_app({"instance": tmp_path / "inst", "secret_key": "undo-key", "TESTING": True})
    service = Service.open(app.config["PBEM_SETTINGS"])
    try:
        game_id = service.create_game("nanty", PLAYERS, seed="undo").after.game_id
        seat = service.show(game_id)["waiting_for"][0]["seat"]
        email = PLAYERS[seat].email
        card = next(e["text"] for e in service.legal(game_id, email) if e["action"]["kind"] == "play")
        service.act(game_id, email, card, cause=CLI)
        shown = service.show(game_id, email)
        assert shown["can_undo"] is False and "reveal" in shown["undo_refused_because"]
    finally:
        service.close()
