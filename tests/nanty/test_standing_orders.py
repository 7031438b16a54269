"""The interrupt question is answered by standing orders without a round trip: "always" plays an interrupt card
when the targeted player holds one (and lets it happen when they do not), "never" lets it happen."""

from __future__ import annotations

import random
from pathlib import Path

from events.handling import Cause
from pbem.games.nanty import RULES
from pbem.service import Player, Service
from pbem.web import create_app

PLAYERS = [Player("ann@example.org", "Ann"), Player("ben@example.org", "Ben"), Player("cid@example.org", "Cid")]


def test_standing_orders_answer_every_interrupt_question(tmp_path: Path) -> None:
    assert "nanty.interrupt" in RULES.standing_order_topics
    app = create_app({"instance": tmp_path / "inst", "secret_key": "orders-key", "TESTING": True})
    service = Service.open(app.config["PBEM_SETTINGS"])
    try:
        game_id = service.create_game("nanty", PLAYERS, seed="orders").after.game_id
        for seat, answer in ((0, "always"), (1, "never"), (2, "always")):
            service.set_standing_order(game_id, seat, "nanty.interrupt", answer, cause=Cause("cli"))
        pick = random.Random(8)
        while not service.load(game_id).ended:
            state = service.load(game_id)
            prompts = RULES.prompts(state.game)
            assert all(p.topic != "nanty.interrupt" for p in prompts.values()), "an order should have answered"
            seat = sorted(prompts)[0]
            legal = RULES.legal_actions(state.game, seat)
            service.act_as(game_id, seat, pick.choice([a for a in legal if a["kind"] != "skip"] or legal),
                           cause=Cause("cli"))
        answers = [e for e in service.store.read(game_id, 0) if e.type == "nanty.InterruptAnswered"]
        assert answers, "the game had no interrupt question: choose another seed"
        assert all(not e.payload["used"] for e in answers if e.payload["seat"] == 1)
        used = [e for e in answers if e.payload["used"]]
        assert used and all(e.payload["seat"] in (0, 2) for e in used)
    finally:
        service.close()
