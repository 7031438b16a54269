"""Settings: an instance folder with ``pbem.toml``, overridden by ``PBEM_*`` environment variables.

Every setting is listed in ``SETTINGS`` with its default and meaning; ``docs/configuration.md``
documents each one (a test checks).
"""

from __future__ import annotations

import os
import secrets
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

DEFAULT_INSTANCE = "instance"
CONFIG_FILE = "pbem.toml"

# name -> (default, meaning). Paths are relative to the instance folder.
SETTINGS: dict[str, tuple[Any, str]] = {
    "secret_key": ("", "Key that signs links and tokens. `pbem init` writes a random one. Keep it secret."),
    "database": ("pbem.sqlite3", "The SQLite database file."),
    "synchronous": ("FULL", "SQLite `synchronous` setting: FULL survives power loss; NORMAL is faster."),
}


class ConfigError(Exception):
    pass


@dataclass(frozen=True)
class Settings:
    instance: Path
    values: Mapping[str, Any]

    def __getitem__(self, name: str) -> Any:
        return self.values[name]

    @property
    def database(self) -> Path:
        return self.instance / str(self.values["database"])


def instance_path(explicit: str | os.PathLike[str] | None = None) -> Path:
    """The instance folder: the one given, else ``$PBEM_INSTANCE``, else ``./instance``."""
    return Path(explicit or os.environ.get("PBEM_INSTANCE") or DEFAULT_INSTANCE)


def load(instance: Path, environ: Mapping[str, str] | None = None) -> Settings:
    """Defaults, then ``pbem.toml`` in the instance folder, then ``PBEM_<NAME>`` variables."""
    environ = os.environ if environ is None else environ
    values = {name: default for name, (default, _) in SETTINGS.items()}
    path = instance / CONFIG_FILE
    if path.exists():
        try:
            found = tomllib.loads(path.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as err:
            raise ConfigError(f"{path}: {err}") from err
        unknown = sorted(set(found) - set(SETTINGS))
        if unknown:
            raise ConfigError(f"{path}: unknown setting(s) {', '.join(unknown)}")
        values.update(found)
    for name in SETTINGS:
        env = environ.get(f"PBEM_{name.upper()}")
        if env is not None:
            values[name] = env
    return Settings(instance, values)


def init_instance(instance: Path) -> tuple[Path, bool]:
    """Create the instance folder and a config file with a random secret key, if missing."""
    instance.mkdir(parents=True, exist_ok=True)
    path = instance / CONFIG_FILE
    if path.exists():
        return path, False
    lines = ["# pbem settings: see docs/configuration.md", f'secret_key = "{secrets.token_urlsafe(32)}"',
             f'database = "{SETTINGS["database"][0]}"', ""]
    path.write_text("\n".join(lines), encoding="utf-8")
    path.chmod(0o600)
    return path, True
