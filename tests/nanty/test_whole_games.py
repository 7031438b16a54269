"""Whole games of Nanty Narking to the end: through the CLI's commands, and through the play pages behind the
players' links (forms posted as a browser would), with the mails each player receives."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

from click.testing import CliRunner

from cli.main import cli
from pbem.service import Player, Service
from pbem.web import create_app
from tests.nanty.checks import read_draft

PLAYERS = [Player("ann@example.org", "Ann"), Player("ben@example.org", "Ben"), Player("cid@example.org", "Cid"),
           Player("dot@example.org", "Dot")]


def choose(legal: list[dict], pick: random.Random) -> str:  # type: ignore[type-arg]
    """A player who plays cards and uses their symbols, so that the game moves on."""
    doing = [e for e in legal if e["action"]["kind"] not in ("skip",)] or legal
    return str(pick.choice(doing)["text"])


def test_a_whole_classic_game_through_the_cli(tmp_path: Path) -> None:
    instance = ["--instance", str(tmp_path / "inst")]

    def invoke(*args: str) -> str:
        result = CliRunner().invoke(cli, [*instance, *args])
        assert result.exit_code == 0, result.output
        return result.output

    invoke("init")
    out = invoke("game", "new", "nanty", "--player", "Ann <ann@example.org>", "--player", "Ben <ben@example.org>",
                 "--option", "personalities=classic", "--seed", "cli-game")
    game_id = re.search(r"\b([0-9a-f]{10})\b", out)[1]  # type: ignore[index]
    pick = random.Random(2)
    for moves in range(1000):
        shown = json.loads(invoke("game", "show", game_id, "--json"))
        if shown["status"] == "ended":
            break
        email = PLAYERS[shown["waiting_for"][0]["seat"]].email
        legal = json.loads(invoke("game", "legal", game_id, "--as", email, "--json"))
        invoke("game", "act", game_id, "--as", email, choose(legal, pick))
    assert shown["status"] == "ended" and moves > 50
    raw = json.loads(invoke("game", "show", game_id, "--json", "--raw"))  # the view's data, for the operator
    assert shown["outcome"]["winners"] and raw["view"]["players"][0]["personality"]["name"]
    assert invoke("game", "verify", game_id).rstrip().endswith("OK")


def test_a_whole_four_player_game_through_the_play_pages(tmp_path: Path) -> None:
    # every decision mailed at once, as to players who are not at the game (``idle_minutes``: 0)
    app = create_app({"instance": tmp_path / "inst", "secret_key": "whole-game-key", "TESTING": True,
                      "idle_minutes": 0})
    client, links = app.test_client(), app.extensions["pbem.links"]
    service = Service.open(app.config["PBEM_SETTINGS"])
    try:
        game_id = service.create_game("nanty", PLAYERS, seed="pages").after.game_id
        pick = random.Random(4)
        for moves in range(2000):
            shown = service.show(game_id)
            if shown["status"] == "ended":
                break
            seat = shown["waiting_for"][0]["seat"]
            token = links.play(game_id, seat, service.store.last(game_id)[0])
            page = client.get(f"/play/{token}").get_data(as_text=True)
            assert "<svg" in page and "Your hand" in page
            command = choose(service.legal(game_id, PLAYERS[seat].email), pick)
            response = client.post(f"/play/{token}", data={"csrf": links.csrf(token), "text": command})
            assert response.status_code == 200, (command, response.get_data(as_text=True)[:500])
        assert service.show(game_id)["status"] == "ended" and moves > 50
        assert service.verify(game_id).ok
        service.write_owed_mail()  # as the worker does before it sends: the pages' moves owe their mails
        rows = service.store.query("SELECT to_addr, draft FROM outbox WHERE game_id = ?", (game_id,))
        for player in PLAYERS:
            templates = {read_draft(r)["template"] for r in rows if r["to_addr"] == player.email}
            assert "turn" in templates and "ended" in templates, (player.email, templates)
        final = client.get(f"/games/{game_id}").get_data(as_text=True)
        assert "The game is over." in final and re.search(r"win[s]? \(", final)
        last = service.store.last(game_id)[0]
        for at in (1, 40, last // 2, last):     # the replay draws London at every point, everything revealed
            page = client.get(f"/games/{game_id}/replay?as=all&at={at}").get_data(as_text=True)
            assert "<svg" in page and "Thames" in page, at
        assert "You are <strong>" not in client.get(f"/games/{game_id}/replay?at={last // 2}").get_data(as_text=True)
    finally:
        service.close()
