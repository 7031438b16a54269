"""Every command, setting and event type is documented; CI runs the README's test command."""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest

from cli.main import cli
from events.schema import KERNEL_EVENT_TYPES
from kernelgame import EVENT_TYPES as TEST_GAME_TYPES
from pbem.instance.config import SETTINGS
from pbem.table.delivery import DELIVERY_EVENT_TYPES
from pbem.organising.muster import MUSTER_EVENT_TYPES
from pbem.table.seat_events import SEAT_EVENT_TYPES
from pbem.table.talk import TALK_EVENT_TYPES
from pbem.table.delivery import WEBHOOK_EVENT_TYPES
from pbem.games import all_games

ROOT = Path(__file__).parent.parent
DOCS = ROOT / "docs"


def command_paths(group: click.Group, prefix: str = "pbem") -> list[str]:
    paths = []
    for name, command in group.commands.items():
        path = f"{prefix} {name}"
        if isinstance(command, click.Group):
            paths += command_paths(command, path)
        else:
            paths.append(path)
    return paths


@pytest.mark.parametrize("path", command_paths(cli))
def test_every_command_has_a_section_in_the_cli_doc(path: str) -> None:
    headings = re.findall(r"^## `([^`]+)`", (DOCS / "cli.md").read_text(encoding="utf-8"), re.M)
    assert any(h == path or h.startswith(path + " ") for h in headings), f"docs/cli.md lacks `{path}`"


@pytest.mark.parametrize("path", command_paths(cli))
def test_every_command_help_ends_with_an_example(path: str) -> None:
    command: click.Command = cli
    for name in path.split()[1:]:
        command = command.commands[name]  # type: ignore[attr-defined]
    assert "Example: pbem" in (command.help or ""), f"`{path}` help has no example"


def test_every_option_of_every_command_is_in_the_cli_doc() -> None:
    text = (DOCS / "cli.md").read_text(encoding="utf-8")
    for path in command_paths(cli):
        command: click.Command = cli
        for name in path.split()[1:]:
            command = command.commands[name]  # type: ignore[attr-defined]
        for param in command.params:
            for opt in getattr(param, "opts", []):
                if opt.startswith("--"):
                    assert opt in text, f"docs/cli.md does not mention {opt} of `{path}`"


def test_every_setting_is_documented() -> None:
    text = (DOCS / "configuration.md").read_text(encoding="utf-8")
    for name in SETTINGS:
        assert f"| `{name}` |" in text, f"docs/configuration.md lacks {name}"


def test_every_event_type_is_documented() -> None:
    text = "\n".join(p.read_text(encoding="utf-8") for p in DOCS.glob("*.md"))
    names = [t.name for t in KERNEL_EVENT_TYPES + DELIVERY_EVENT_TYPES + TALK_EVENT_TYPES + MUSTER_EVENT_TYPES
             + SEAT_EVENT_TYPES + WEBHOOK_EVENT_TYPES]
    names += [t.name for t in TEST_GAME_TYPES]
    for rules in all_games().values():
        names += [t.name for t in rules.event_types]
    missing = [n for n in names if f"`{n}`" not in text]
    assert not missing, f"undocumented event types: {missing}"


def test_ci_runs_the_readme_test_command() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = re.findall(r"^    (python3 -m venv .*)$", readme, re.M)
    assert len(commands) == 2, "the README gives exactly two set-up commands"
    test_command = commands[1]
    assert "pytest" in test_command
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert test_command in ci
