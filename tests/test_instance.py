"""No instance by accident: only `init`, `serve` and `demo` create one; every other command says there is none."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import cli
from test_docs import command_paths

CREATORS = {"pbem init", "pbem serve", "pbem demo"}
NO_INSTANCE = {"pbem games", "pbem bot duel"}  # the game types this code holds; bots playing offline

# The arguments each command needs to get as far as opening the instance.
ARGS: dict[str, list[str]] = {
    "pbem game new": ["emerald", "--player", "a@example.org", "--player", "b@example.org"],
    "pbem game list": [],
    "pbem game show": ["3f9a1c22d0"],
    "pbem game legal": ["3f9a1c22d0", "--as", "a@example.org"],
    "pbem game act": ["3f9a1c22d0", "pass", "--as", "a@example.org"],
    "pbem game say": ["3f9a1c22d0", "hello", "--as", "a@example.org"],
    "pbem game away": ["3f9a1c22d0", "2026-12-01", "2026-12-08", "--as", "a@example.org"],
    "pbem game back": ["3f9a1c22d0", "--as", "a@example.org"],
    "pbem game take-back": ["3f9a1c22d0", "--as", "a@example.org"],
    "pbem game resign": ["3f9a1c22d0", "--as", "a@example.org"],
    "pbem game replace": ["3f9a1c22d0", "1", "c@example.org"],
    "pbem game undo": ["3f9a1c22d0", "--as", "a@example.org"],
    "pbem game undo-answer": ["3f9a1c22d0", "5be2c0a1d4", "approve", "--as", "a@example.org"],
    "pbem game log": ["3f9a1c22d0"],
    "pbem game position": ["3f9a1c22d0", "--at", "5"],
    "pbem player show": ["a@example.org"],
    "pbem player mail": ["a@example.org", "--talk", "soon"],
    "pbem game replay": ["3f9a1c22d0"],
    "pbem game export": ["3f9a1c22d0"],
    "pbem game import": ["RECORD"],
    "pbem game verify": ["3f9a1c22d0"],
    "pbem game audit": ["3f9a1c22d0", "1"],
    "pbem game pause": ["3f9a1c22d0"],
    "pbem game resume": ["3f9a1c22d0"],
    "pbem game extend": ["3f9a1c22d0", "--hours", "1"],
    "pbem game organiser-link": ["3f9a1c22d0"],
    "pbem game order": ["3f9a1c22d0", "emerald.interrupt", "always", "--as", "a@example.org"],
    "pbem worker": [],
    "pbem inbound": [],
    "pbem mail status": [],
    "pbem mail send": [],
    "pbem mail retry": [],
    "pbem mail dkim-key": [],
    "pbem organiser invite": ["olive@example.org"],
    "pbem muster list": [],
    "pbem muster show": ["muster-3f9a1c22d0"],
    "pbem muster cancel": ["muster-3f9a1c22d0"],
    "pbem webhook add": ["https://example.org/hook", "--game", "3f9a1c22d0"],
    "pbem webhook list": ["--player", "a@example.org"],
    "pbem webhook remove": ["5c0e2a9b41d7", "--game", "3f9a1c22d0"],
    "pbem db copy": ["--to", "elsewhere.sqlite3"],
}


def test_every_command_is_checked_here() -> None:
    missing = set(command_paths(cli)) - CREATORS - NO_INSTANCE - set(ARGS)
    assert not missing, f"add the arguments of {sorted(missing)} to ARGS"


def run_on(folder: Path, path: str, tmp_path: Path) -> tuple[int, str]:
    record = tmp_path / "game.jsonl"
    record.write_text("{}\n")
    args = [str(record) if a == "RECORD" else a for a in ARGS[path]]
    result = CliRunner().invoke(cli, ["--instance", str(folder), *path.split()[1:], *args], input=b"")
    return result.exit_code, result.output


@pytest.mark.parametrize("path", sorted(ARGS))
def test_a_command_on_a_missing_folder_says_so_and_creates_nothing(path: str, tmp_path: Path) -> None:
    folder = tmp_path / "typo"
    code, output = run_on(folder, path, tmp_path)
    assert code == 1 and f"no pbem instance at {folder}: run `pbem init` (or `pbem serve`) first" in output, output
    assert not folder.exists()


@pytest.mark.parametrize("path", ["pbem game list", "pbem game new", "pbem worker", "pbem inbound", "pbem mail send"])
def test_a_folder_without_config_or_database_is_no_instance_either(path: str, tmp_path: Path) -> None:
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    code, output = run_on(folder, path, tmp_path)
    assert code == 1 and "no pbem instance at" in output, output
    assert list(folder.iterdir()) == []


def test_init_and_demo_still_create_the_instance(tmp_path: Path) -> None:
    made = CliRunner().invoke(cli, ["--instance", str(tmp_path / "a"), "init"])
    assert made.exit_code == 0 and (tmp_path / "a" / "pbem.toml").is_file()
    listed = CliRunner().invoke(cli, ["--instance", str(tmp_path / "a"), "game", "list"])
    assert listed.exit_code == 0 and "no games yet" in listed.output
    demo = CliRunner().invoke(cli, ["--instance", str(tmp_path / "b"), "demo"])
    assert demo.exit_code == 0 and (tmp_path / "b" / "pbem.sqlite3").is_file()


def test_an_instance_configured_only_by_its_database_is_found(tmp_path: Path) -> None:
    CliRunner().invoke(cli, ["--instance", str(tmp_path / "a"), "init"])
    secret = (tmp_path / "a" / "pbem.toml").read_text().split('secret_key = "')[1].split('"')[0]
    (tmp_path / "a" / "pbem.toml").unlink()
    listed = CliRunner().invoke(cli, ["--instance", str(tmp_path / "a"), "game", "list"],
                                env={"PBEM_SECRET_KEY": secret})
    assert listed.exit_code == 0, listed.output
