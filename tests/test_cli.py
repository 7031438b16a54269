"""Every ``pbem`` command, its output and its error paths, run in-process on a real instance folder."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from cli.main import cli

pytestmark = pytest.mark.usefixtures("highdie_registered")

ANN = "Ann <ann@example.org>"
BEN = "ben@example.org"


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.delenv("PBEM_INSTANCE", raising=False)
    instance = tmp_path / "inst"

    def invoke(*args: str, ok: bool = True, stdin: str | None = None) -> Result:
        result = CliRunner().invoke(cli, ["--instance", str(instance), *args], input=stdin)
        if ok:
            assert result.exit_code == 0, result.output
        else:
            assert result.exit_code != 0, result.output
        return result

    invoke("init")
    return invoke


@pytest.fixture
def game(run: Any) -> str:
    return str(run("game", "new", "highdie", "--player", ANN, "--player", BEN, "--seed", "cli").output.strip())


def test_init_creates_a_config_with_a_secret_key_and_keeps_it(tmp_path: Path) -> None:
    instance = tmp_path / "fresh"
    first = CliRunner().invoke(cli, ["--instance", str(instance), "init"])
    assert first.exit_code == 0 and "created" in first.output
    text = (instance / "pbem.toml").read_text()
    assert "secret_key" in text and (instance / "pbem.sqlite3").exists()
    again = CliRunner().invoke(cli, ["--instance", str(instance), "init"])
    assert "kept" in again.output and (instance / "pbem.toml").read_text() == text


def test_the_instance_comes_from_the_environment(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["init"], env={"PBEM_INSTANCE": str(tmp_path / "env")})
    assert result.exit_code == 0 and (tmp_path / "env" / "pbem.toml").exists()


def test_a_broken_config_file_is_one_clear_line(tmp_path: Path) -> None:
    (tmp_path / "pbem.toml").write_text("secret_key = \n")
    result = CliRunner().invoke(cli, ["--instance", str(tmp_path), "game", "list"])
    assert result.exit_code == 1 and "pbem.toml" in result.output and "Traceback" not in result.output


def test_new_prints_the_id_and_list_shows_the_game(run: Any, game: str) -> None:
    assert len(game) == 10
    listed = run("game", "list").output
    assert game in listed and "highdie" in listed and "running" in listed
    rows = json.loads(run("game", "list", "--json").output)
    assert rows[0]["game_id"] == game and rows[0]["seats"] == 2 and rows[0]["status"] == "running"


@pytest.mark.parametrize("args, message", [
    (["game", "new", "chess", "--player", "a@x.org", "--player", "b@x.org"], "unknown game type 'chess'"),
    (["game", "new", "highdie", "--player", "a@x.org"], "needs 2 to 4 players"),
    (["game", "new", "highdie", "--player", "a@x.org", "--player", "a@x.org"], "different email"),
    (["game", "new", "highdie", "--player", "not-an-email", "--player", "b@x.org"], "not an email address"),
    (["game", "new", "highdie", "--player", "a@x.org", "--player", "b@x.org", "--option", "novalue"], "KEY=VALUE"),
])
def test_new_refuses_bad_input_plainly_and_creates_nothing(run: Any, args: list[str], message: str) -> None:
    result = run(*args, ok=False)
    assert message in result.output and "Traceback" not in result.output
    assert json.loads(run("game", "list", "--json").output) == []


def test_new_with_a_data_override_file(run: Any, tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    good.write_text(json.dumps({"target": 12}))
    game = run("game", "new", "highdie", "--player", "a@x.org", "--player", "b@x.org", "--data", str(good)).output.strip()
    assert json.loads(run("game", "log", game, "--json").output)[0]["payload"]["data_override"] == {"target": 12}
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"target": "high", "colour": 1}))
    result = run("game", "new", "highdie", "--player", "a@x.org", "--player", "b@x.org", "--data", str(bad), ok=False)
    assert "unknown key 'colour'" in result.output and "whole number" in result.output
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    assert "is not JSON" in run("game", "new", "highdie", "--player", "a@x.org", "--player", "b@x.org",
                                "--data", str(broken), ok=False).output


def test_show_as_a_player_shows_only_their_hand(run: Any, game: str) -> None:
    mine = json.loads(run("game", "show", game, "--as", "ann@example.org", "--json", "--raw").output)
    assert mine["seat"] == 0 and "hand" in mine["view"]["players"][0]
    assert "hand" not in mine["view"]["players"][1]
    assert mine["your_prompt"]["kind"] == "turn"
    public = json.loads(run("game", "show", game, "--json", "--raw").output)
    assert all("hand" not in p for p in public["view"]["players"]) and public["seat"] is None
    assert "view" not in json.loads(run("game", "show", game, "--json").output)  # the raw view: --raw only
    assert "ann@example.org" not in json.dumps(public) and "ben@example.org" not in json.dumps(public)
    text = run("game", "show", game).output
    assert "waiting for: Ann" in text


def test_show_refuses_unknown_games_and_strangers(run: Any, game: str) -> None:
    assert "no game 'nope'" in run("game", "show", "nope", ok=False).output
    assert "is not playing" in run("game", "show", game, "--as", "eve@example.org", ok=False).output


def test_legal_lists_text_commands_that_act_accepts(run: Any, game: str) -> None:
    actions = json.loads(run("game", "legal", game, "--as", "ann@example.org", "--json").output)
    assert {"text": "roll", "action": {"kind": "roll"}} in actions
    assert run("game", "legal", game, "--as", "ann@example.org").output.splitlines() == [a["text"] for a in actions]
    assert run("game", "legal", game, "--as", BEN).output.strip() == "nothing to do now"
    out = run("game", "act", game, "--as", "ann@example.org", actions[-1]["text"]).output
    assert "dice.TurnEnded" in out


def test_act_errors_are_one_line_and_change_nothing(run: Any, game: str) -> None:
    before = run("game", "log", game, "--json").output
    assert "cannot read 'fly'" in run("game", "act", game, "--as", "ann@example.org", "fly", ok=False).output
    assert "not your turn" in run("game", "act", game, "--as", BEN, "pass", ok=False).output
    assert "you may:" in run("game", "act", game, "--as", "ann@example.org", "bet 7", ok=False).output
    assert run("game", "log", game, "--json").output == before


def test_undo_takes_back_a_bet_and_refuses_beyond_the_horizon(run: Any, game: str) -> None:
    run("game", "act", game, "--as", "ann@example.org", "bet 2")
    assert "took back your last move (turn 1); recorded as event" in run("game", "undo", game, "--as",
                                                                        "ann@example.org").output
    log = json.loads(run("game", "log", game, "--json").output)
    tail = [(line["type"], line["undone"]) for line in log][-5:]
    assert tail == [("dice.Bet", True), ("dice.TurnEnded", True), ("pbem.DeadlineSet", True),
                    ("pbem.ActionsUndone", False), ("pbem.DeadlineSet", False)]
    assert log[-2]["text"] == "Ann took back their last move" and "Ann is to act by" in log[-1]["text"]
    run("game", "act", game, "--as", "ann@example.org", "roll")
    assert "chance" in run("game", "undo", game, "--as", "ann@example.org", ok=False).output


def test_undo_with_an_expected_seq_is_refused_once_a_move_or_an_undo_came_since(run: Any, game: str) -> None:
    run("game", "act", game, "--as", "ann@example.org", "bet 2")
    seen = str(json.loads(run("game", "show", game, "--json").output)["seq"])
    run("game", "pause", game)                                   # a record: the undo still fits
    assert "took back your last move" in run("game", "undo", game, "--as", "ann@example.org", "--expected-seq",
                                             seen).output
    run("game", "act", game, "--as", "ann@example.org", "bet 3")
    refused = run("game", "undo", game, "--as", "ann@example.org", "--expected-seq", seen, ok=False).output
    assert "moved on" in refused


def test_beyond_the_horizon_undo_is_a_request_the_others_answer(run: Any, game: str) -> None:
    ann = ("--as", "ann@example.org")
    run("game", "act", game, *ann, "bet 3")
    run("game", "act", game, "--as", BEN, "bet 2")
    refused = run("game", "undo", game, *ann, ok=False).output
    assert "not yours" in refused and f"pbem game undo {game} --as ann@example.org --request" in refused
    asked = run("game", "undo", game, *ann, "--request", "--reason", "a slip").output
    request = re.search(r"request ([0-9a-f]{10}),", asked).group(1)  # type: ignore[union-attr]
    assert asked.startswith("asked ben to take back your last move (turn 1) and the 1 move played after it: request")
    assert "open until" in asked
    assert json.loads(run("game", "show", game, "--json").output)["undo_request"]["reason"] == "a slip"
    assert f"undo request {request}: Ann asks" in run("game", "show", game).output
    assert "not one of the players" in run("game", "undo-answer", game, request, "approve", *ann, ok=False).output
    assert run("game", "undo-answer", game, request, "approve", ok=False).exit_code == 2
    before = run("game", "log", game, "--json").output
    assert "no undo request" in run("game", "undo-answer", game, "0" * 10, "approve", "--as", BEN, ok=False).output
    assert run("game", "log", game, "--json").output == before
    done = run("game", "undo-answer", game, request, "approve", "--as", BEN).output
    assert f"request {request} closed, approved: approved by ben" in done and "pbem.ActionsUndone" in done
    assert "closed already" in run("game", "undo-answer", game, request, "refuse", "--as", BEN, ok=False).output
    run("game", "act", game, *ann, "bet 1")
    run("game", "act", game, "--as", BEN, "bet 1")
    again = re.search(r"request ([0-9a-f]{10}),",  # type: ignore[union-attr]
                      run("game", "undo", game, *ann, "--request").output).group(1)
    decided = run("game", "undo-answer", game, again, "refuse", "--organiser", "--reason", "play on").output
    assert "closed, refused: refused by the organiser: play on" in decided


def test_log_hides_what_the_reader_may_not_see(run: Any, game: str) -> None:
    ann = json.loads(run("game", "log", game, "--as", "ann@example.org", "--json").output)
    dealt = [line for line in ann if line["type"] == "dice.HandDealt"]
    assert dealt[0]["payload"] is not None and dealt[1]["payload"] is None
    assert len(dealt[1]["payload_commitment"]) == 64 and "payload_sha256" not in dealt[1]
    assert len(dealt[0]["payload_salt"]) == 64  # her own hand comes with its salt, so she can check it
    assert "was dealt 2 cards" in dealt[1]["text"]
    public = json.loads(run("game", "log", game, "--json").output)
    assert all(line["payload"] is None for line in public if line["visibility"] != "public")
    text = run("game", "log", game).output
    assert "hidden until the end" in text


def test_export_import_verify_and_audit_round_trip(run: Any, game: str, tmp_path: Path) -> None:
    for _ in range(40):
        shown = json.loads(run("game", "show", game, "--json").output)
        if shown["status"] == "ended":
            break
        who = ["ann@example.org", BEN][shown["waiting_for"][0]["seat"]]
        run("game", "act", game, "--as", who, "bet 3" if shown["waiting_for"][0]["kind"] == "turn" else "accept")
    assert json.loads(run("game", "show", game, "--json").output)["status"] == "ended"
    verified = run("game", "verify", game).output
    assert verified.strip().endswith("OK") and "every draw recomputed" in verified
    record = run("game", "export", game, "--with-secrets").output  # the whole record: only it can be imported
    path = tmp_path / "game.jsonl"
    path.write_text(record)
    other = tmp_path / "other"
    assert CliRunner().invoke(cli, ["--instance", str(other), "init"]).exit_code == 0
    result = CliRunner().invoke(cli, ["--instance", str(other), "game", "import", str(path)])
    assert result.exit_code == 0 and "verified" in result.output, result.output
    again = CliRunner().invoke(cli, ["--instance", str(other), "game", "export", game, "--with-secrets"])
    assert again.output.splitlines()[1:] == record.splitlines()[1:]
    assert "already exists" in run("game", "import", str(path), ok=False).output
    audit = json.loads(run("game", "audit", game, "7").output)
    assert audit["event"]["seq"] == 7 and audit["rule_check"].startswith("accepted")
    assert audit["player"]["email"] in ("ann@example.org", BEN)
    assert "no event 999" in run("game", "audit", game, "999", ok=False).output


def test_verify_fails_with_the_first_bad_event(run: Any, game: str, tmp_path: Path) -> None:
    import sqlite3
    conn = sqlite3.connect(tmp_path / "inst" / "pbem.sqlite3")
    conn.execute("UPDATE events SET actor = 'seat:1' WHERE seq = 3")
    conn.commit()
    conn.close()
    result = run("game", "verify", game, "--json", ok=False)
    assert json.loads(result.output)["failure"]["seq"] == 3


def test_a_running_game_exports_without_its_seed_unless_asked(run: Any, game: str, tmp_path: Path) -> None:
    plain = run("game", "export", game).output
    assert '"seed":' not in plain.splitlines()[0] and "ann@example.org" not in plain
    path = tmp_path / "running.jsonl"
    path.write_text(plain)
    other = ["--instance", str(tmp_path / "other")]
    assert CliRunner().invoke(cli, [*other, "init"]).exit_code == 0
    refused = CliRunner().invoke(cli, [*other, "game", "import", str(path)])
    assert refused.exit_code == 1 and "with-secrets" in refused.output
    full = run("game", "export", game, "--with-secrets").output
    path.write_text(full)
    moved = CliRunner().invoke(cli, [*other, "game", "import", str(path)])
    assert moved.exit_code == 0, moved.output
    went_on = CliRunner().invoke(cli, [*other, "game", "act", game, "--as", "ann@example.org", "roll"])
    assert went_on.exit_code == 0, went_on.output


def test_import_refuses_a_broken_record_plainly(run: Any, tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text("not json\n")
    assert "line 1 is not JSON" in run("game", "import", str(path), ok=False).output
    path.write_text('{"format": "pbem-game-record", "format_version": 1, "game_id": "x", "seats": []}\n{"seq": 1}\n')
    assert "line 2 is not a valid event" in run("game", "import", str(path), ok=False).output


def test_games_lists_the_game_types(run: Any) -> None:
    assert "highdie" in run("games").output


def test_demo_sets_up_an_instance_and_a_game_to_play(tmp_path: Path) -> None:
    instance = tmp_path / "demo"
    result = CliRunner().invoke(cli, ["--instance", str(instance), "demo", "--game", "highdie"])
    assert result.exit_code == 0, result.output
    assert (instance / "pbem.toml").exists()
    assert "Waiting for Alice" in result.output and "pbem game legal" in result.output
    listed = CliRunner().invoke(cli, ["--instance", str(instance), "game", "list", "--json"])
    assert json.loads(listed.output)[0]["seats"] == 3


def test_organiser_link_prints_a_signed_link_to_the_organiser_page(run: Any, game: str) -> None:
    url = run("game", "organiser-link", game).output.strip()
    assert url.startswith("http://127.0.0.1:8000/organise/") and game in url
    assert "no game 'nope'" in run("game", "organiser-link", "nope", ok=False).output


def test_show_as_a_player_prints_what_their_mail_prints(tmp_path: Path) -> None:
    from delivery import parse, text_of
    from pbem.instance import config
    from pbem.post.mail.outbox import message_of
    from pbem.service import Service
    instance = ["--instance", str(tmp_path / "e")]
    assert CliRunner().invoke(cli, [*instance, "init"]).exit_code == 0
    game = CliRunner().invoke(cli, [*instance, "game", "new", "emerald", "--player", "a@x.org", "--player",
                                    "b@x.org", "--player", "c@x.org", "--seed", "s"]).output.strip()
    shown = CliRunner().invoke(cli, [*instance, "game", "show", game, "--as", "a@x.org"])
    assert shown.exit_code == 0, shown.output
    service = Service.open(config.load(tmp_path / "e", environ={}))
    try:
        [mail] = service.store.query("SELECT * FROM outbox WHERE game_id = ? AND to_addr = 'a@x.org'", (game,))
    finally:
        service.close()
    text = text_of(parse(message_of(mail)))
    # from the story to the board, the hand and the witness, the lines are the mail's (its links are signed anew;
    # the draft's stored view lists the points by kind in another order)
    for part in (text[text.index("SINCE YOUR LAST TURN"):text.index("Act on the web page")],
                 text[text.index("Or reply to this mail"):text.index("RULES CHOSEN FOR THIS GAME")],  # first mail only
                 text[text.index("THE TABLE, AS YOU SEE IT"):text.index("YOU: ")],
                 text[text.index("YOUR HAND"):text.index("Replay the game")],
                 text[text.index("Witness: "):]):
        assert part.strip() in shown.output
    assert "YOUR HAND (commands use the number on the left):" in shown.output
    assert "S0" not in shown.output and "sanity_sane" not in shown.output  # no state keys, no card ids
    words = json.loads(CliRunner().invoke(cli, [*instance, "game", "show", game, "--as", "a@x.org", "--json"]).output)
    numbers = [card["number"] for card in words["scene"]["you"]["hand"]]
    assert len(numbers) == 5
    for number in numbers:
        assert re.search(rf"^  {number}  \S", shown.output, re.M)  # the printed numbers, as commands take them
    assert words["name"] == "Emerald with a, b and c" and "YOUR HAND" in words["text"]  # --json: the same words


def test_show_says_plainly_which_values_are_assumed(tmp_path: Path) -> None:
    instance = ["--instance", str(tmp_path / "e")]
    assert CliRunner().invoke(cli, [*instance, "init"]).exit_code == 0
    game = CliRunner().invoke(cli, [*instance, "game", "new", "emerald", "--player", "a@x.org", "--player",
                                    "b@x.org", "--seed", "s"]).output.strip()
    shown = CliRunner().invoke(cli, [*instance, "game", "show", game])
    assert shown.exit_code == 0 and "values of this game are assumed" in shown.output
