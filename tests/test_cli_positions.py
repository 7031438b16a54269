"""A game's position through the command line: written at an event with ``pbem game position``, begun again with
``pbem game new --position``, the same game for every seat, played on to an end that ``pbem game verify`` passes;
and the options a table chooses, given as the new-game page gives them or as JSON.
"""

from __future__ import annotations

import json
import random
import re
import tomllib
from pathlib import Path
from typing import Any, Iterator

import pytest
import tomli_w
from click.testing import CliRunner, Result

from cli.main import cli
from events.handling import Cause
from events.schema import POSITION_GIVEN
from pbem.instance import config
from pbem.instance.database import open_store
from pbem.service import Service

PLAYERS = ("Ann <ann@example.org>", "Ben <ben@example.org>", "Cy <cy@example.org>")
EMAILS = [re.sub(r".*<(.*)>", r"\1", p) for p in PLAYERS]


@pytest.fixture
def instance(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("PBEM_INSTANCE", raising=False)
    path = tmp_path / "inst"
    assert CliRunner().invoke(cli, ["--instance", str(path), "init"]).exit_code == 0
    return path


@pytest.fixture
def run(instance: Path) -> Any:
    def invoke(*args: str, ok: bool = True) -> Result:
        result = CliRunner().invoke(cli, ["--instance", str(instance), *args])
        assert (result.exit_code == 0) == ok, result.output
        return result
    return invoke


@pytest.fixture
def service(instance: Path) -> Iterator[Service]:
    """The instance's service without mail: it plays the moves the players would."""
    found = Service(open_store(config.load(instance)))
    yield found
    found.close()


def play(service: Service, game_id: str, commands: int, seed: int) -> int:
    """Random legal moves (``choose``) for whoever is asked, to the end at most; the last event's number."""
    pick = random.Random(seed)
    for _ in range(commands):
        state = service.load(game_id)
        if state.ended:
            break
        rules = service.kernel.rules(state)
        seat = pick.choice(sorted(rules.prompts(state.game)))
        service.act_as(game_id, seat, choose(rules.legal_actions(state.game, seat), pick), cause=Cause("test"))
    return service.store.last(game_id)[0]


def choose(legal: list[dict[str, Any]], pick: random.Random) -> dict[str, Any]:
    """A kind of action first, then one of that kind; passing and discarding only when nothing else is legal (a
    game of uniformly random moves can go on for thousands)."""
    doing = [a for a in legal if a["kind"] not in ("pass", "discard", "skip")] or legal
    kind = pick.choice(sorted({a["kind"] for a in doing}))
    return pick.choice([a for a in doing if a["kind"] == kind])


def new_game(run: Any, game_type: str, *extra: str) -> str:
    args = ["game", "new", game_type, "--seed", f"cli-{game_type}", *extra]
    for player in PLAYERS:
        args += ["--player", player]
    return str(run(*args).output.strip())


def as_json(value: Any) -> Any:
    return json.loads(json.dumps(value))


@pytest.mark.parametrize("game_type, options", [
    ("emerald", ("--option", "cthulhu_takes_royalty=yes", "--option", "action_card_with_points=identity")),
    ("emerald1", ("--option", "zombie_kill_card=discarded")),
    ("nanty", ("--option", "personalities=classic", "--option", "ties=money")),
])
def test_a_position_written_at_an_event_begins_the_same_game_which_plays_on_to_a_verified_end(
        run: Any, service: Service, tmp_path: Path, game_type: str, options: tuple[str, ...]) -> None:
    original = new_game(run, game_type, *options)
    at = play(service, original, 25, seed=1)
    play(service, original, 15, seed=2)  # the game goes on: the position is of the past
    assert service.store.last(original)[0] > at

    written = tmp_path / "position.toml"
    run("game", "position", original, "--at", str(at), "--out", str(written))
    text = written.read_text(encoding="utf-8")
    assert f"the position of game {original} just after event {at} (Ann, Ben, Cy)" in text
    assert "every secret of the game" in text
    then = service.load(original, upto_seq=at)
    rules = service.kernel.rules(then)
    assert tomllib.loads(text) == as_json(rules.position(then.game))  # type: ignore[attr-defined]

    # the header gives the options the game was played under, as --option flags the command takes back
    flags = re.findall(r"^#\s+(--option \S+)$", text, re.M)
    assert flags and all(f"--option {key}=" in text for key in then.config.options if key != "revision")
    again = new_game(run, game_type, "--position", str(written), *[p for f in flags for p in f.split(" ", 1)])
    first = service.store.read(again, 0, 2)
    assert first[0].payload["from_position"] is True and first[0].payload["options"] == then.config.options
    assert first[1].type == POSITION_GIVEN and first[1].visibility.kind == "server"

    # every seat is offered the same commands and sees the same table; so does a spectator
    for seat, email in enumerate(EMAILS):
        legal = json.loads(run("game", "legal", again, "--as", email, "--json").output)
        assert [a["text"] for a in legal] == service.legal_texts(then, seat), seat
        shown = json.loads(run("game", "show", again, "--as", email, "--json").output)
        assert shown["view"] == as_json(rules.view(then.game, seat)), seat
    assert json.loads(run("game", "show", again, "--json").output)["view"] == as_json(rules.view(then.game, None))

    play(service, again, 3000, seed=3)
    assert service.load(again).ended
    verified = run("game", "verify", again)
    assert verified.output.strip().endswith("OK")
    assert "every command decided again from its recorded action gives the recorded events" in verified.output


def test_a_position_is_written_to_standard_output_by_default_and_at_the_last_event(run: Any, service: Service) -> None:
    game_id = new_game(run, "nanty")
    last = play(service, game_id, 6, seed=4)
    text = run("game", "position", game_id).output
    assert f"just after event {last} " in text and "[[players]]" in text


def test_an_event_inside_a_command_is_refused_naming_where_the_command_ends(run: Any, service: Service,
                                                                            tmp_path: Path) -> None:
    game_id = new_game(run, "emerald")
    setup = service.store.read(game_id)
    end = max(e.seq for e in setup if e.command_id == setup[0].command_id)
    written = tmp_path / "never.toml"
    refused = run("game", "position", game_id, "--at", "2", "--out", str(written), ok=False)
    assert f"event 2 is in the middle of a command (events 1 to {end})" in refused.output
    assert f"take the position at event {end}" in refused.output and not written.exists()
    beyond = run("game", "position", game_id, "--at", str(end + 50), ok=False)
    assert f"has events 1 to {end}; there is no event {end + 50}" in beyond.output
    assert "no game 'nope'" in run("game", "position", "nope", ok=False).output


def test_the_deadlines_of_a_command_do_not_make_its_last_move_a_half(run: Any, service: Service) -> None:
    game_id = new_game(run, "emerald1")
    events = service.store.read(game_id)
    deadline = next(e for e in events if e.type == "pbem.DeadlineSet")
    rules_end = max(e.seq for e in events if e.command_id == deadline.command_id and not e.type.startswith("pbem."))
    assert rules_end < deadline.seq  # the setup's own events, then the deadline it leads to
    assert f"just after event {rules_end} " in run("game", "position", game_id, "--at", str(rules_end)).output


def test_a_refused_position_names_the_field_and_creates_nothing(run: Any, service: Service, tmp_path: Path) -> None:
    game_id = new_game(run, "emerald")
    play(service, game_id, 8, seed=5)
    written = tmp_path / "position.toml"
    run("game", "position", game_id, "--out", str(written))
    position = tomllib.loads(written.read_text(encoding="utf-8"))
    position["players"][0]["hand"][0] = "Sherlock"
    bad = tmp_path / "bad.toml"
    bad.write_text(tomli_w.dumps(position), encoding="utf-8")
    before = len(service.list_games())
    refused = new_game_refused(run, "emerald", "--position", str(bad))
    assert "players[0].hand[0]: must be a whole number, not 'Sherlock'" in refused
    not_toml = tmp_path / "not.toml"
    not_toml.write_text("players = [", encoding="utf-8")
    assert "not.toml: the position file is not valid TOML" in new_game_refused(run, "emerald", "--position",
                                                                              str(not_toml))
    four = new_game_refused(run, "emerald", "--position", str(written), players=PLAYERS + ("Dee <dee@example.org>",))
    assert "players: must hold 4 entries (one for each player, in seat order), not 3" in four
    assert len(service.list_games()) == before


def new_game_refused(run: Any, game_type: str, *extra: str, players: tuple[str, ...] = PLAYERS) -> str:
    args = ["game", "new", game_type, *extra]
    for player in players:
        args += ["--player", player]
    result = run(*args, ok=False)
    assert result.exit_code == 1 and "Traceback" not in result.output
    return str(result.output)


def test_an_option_is_given_as_the_page_sends_it_or_as_its_json(run: Any, service: Service) -> None:
    as_page = new_game(run, "emerald", "--option", "cthulhu_takes_royalty=yes", "--option",
                       "free_actions_after_last_action=no", "--option", "turn_hours=48")
    as_json_ = new_game(run, "emerald", "--option", "cthulhu_takes_royalty=true", "--option",
                        "free_actions_after_last_action=false", "--option", "turn_hours=48")
    recorded = [service.store.read(g, 0, 1)[0].payload["options"] for g in (as_page, as_json_)]
    assert recorded[0] == recorded[1]
    assert recorded[0]["cthulhu_takes_royalty"] is True and recorded[0]["free_actions_after_last_action"] is False
    assert recorded[0]["turn_hours"] == 48
    nanty = new_game(run, "nanty", "--option", "interrupts=any_time")
    assert service.store.read(nanty, 0, 1)[0].payload["options"]["interrupts"] == "any_time"


def test_a_bad_option_is_refused_naming_the_option_and_its_choices(run: Any, service: Service) -> None:
    refused = new_game_refused(run, "emerald", "--option", "cthulhu_takes_royalty=maybe")
    assert ("the option cthulhu_takes_royalty (Cthulhu and the Royalty card of its city) is one of: no (The Royalty "
            "card stays in its Royalty slot); yes (Cthulhu removes the Royalty card with the other cards); "
            "not 'maybe'") in refused
    assert "is one of: yes" in new_game_refused(run, "emerald", "--option", "free_actions_after_last_action=1")
    typo = new_game_refused(run, "emerald", "--option", "cthulu_takes_royalty=yes")
    assert "there is no option 'cthulu_takes_royalty'" in typo and "cthulhu_takes_royalty" in typo
    assert "turn_hours" in typo
    assert service.list_games() == []
