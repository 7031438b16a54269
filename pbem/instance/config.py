"""Settings: an instance folder with ``pbem.toml``, overridden by ``PBEM_*`` environment variables.

Every setting is listed in ``SETTINGS`` with its default and meaning; ``docs/configuration.md``
documents each one (a test checks).
"""

from __future__ import annotations

import ipaddress
import json
import os
import secrets
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from pbem.instance.times import ZoneError, check_zone

DEFAULT_INSTANCE = "instance"
CONFIG_FILE = "pbem.toml"

# name -> (default, meaning). Paths are relative to the instance folder.
SETTINGS: dict[str, tuple[Any, str]] = {
    "secret_key": ("", "Key that signs links and tokens. `pbem init` writes a random one. Keep it secret."),
    "old_secret_keys": ([], "Earlier secret keys, still accepted for links already sent (key rotation)."),
    "database": ("pbem.sqlite3", "The SQLite database file (relative to the instance folder), or a PostgreSQL "
                                 "address `postgresql://user:password@host:5432/dbname` for several web and "
                                 "worker nodes on one database (docs/operations.md)."),
    "synchronous": ("FULL", "SQLite `synchronous` setting: FULL survives power loss; NORMAL is faster."),
    "pool_size": (4, "PostgreSQL only: the most connections each process (a web server process, a worker) keeps "
                     "open to the database. The server's `max_connections` must cover the sum over all processes."),
    "database_timeout": (10.0, "PostgreSQL only: seconds a command waits for a database connection (e.g. while "
                               "the server restarts) before it fails with a clear error, writing nothing."),
    "base_url": ("", "The address players reach the web pages at; links in mails start with it. Default: "
                     "http://HOST:PORT from the `host` and `port` settings (127.0.0.1 for a host of 0.0.0.0)."),
    "host": ("127.0.0.1", "The address `pbem serve` listens on; with `base_url` unset, the host of every link."),
    "port": (8000, "The port `pbem serve` listens on; with `base_url` unset, the port of every link."),
    "dev_mode": (None, "Show the sent mails at /dev/mail. Default: on with the file mailbox, off with SMTP."),
    "dev_mail_remote": (False, "Show /dev/mail to requests from other machines too. Default: only to this machine "
                               "(loopback, not through a proxy). Development on a trusted network only."),
    "mail_from": ("pbem <pbem@localhost>", "The From address of every mail."),
    "reply_address": ("play@localhost", "Replies go to this address with the link's token after a + (play+TOKEN@...)."),
    "mail_transport": ("file", "`file` (each mail an .eml file in `mailbox`) or `smtp`."),
    "mailbox": ("mailbox", "Folder of the file mailbox, relative to the instance folder."),
    "smtp_host": ("localhost", "SMTP server."),
    "smtp_port": (587, "SMTP port."),
    "smtp_security": ("starttls", "`starttls`, `tls` (implicit TLS, usually port 465) or `none` (only on loopback)."),
    "smtp_user": ("", "SMTP user name; empty for no authentication."),
    "smtp_password": ("", "SMTP password."),
    "smtp_timeout": (30, "Seconds before an SMTP connection attempt or command gives up."),
    "mail_max_attempts": (8, "Attempts before a mail is marked failed (`pbem mail status` lists failed mails)."),
    "mail_retry_seconds": (30, "Wait before the first retry; it doubles with each attempt."),
    "mail_retention_days": (30, "Days a sent mail's body is kept; then only its row stays (to, subject, Message-ID, "
                                "when sent). 0 keeps bodies forever."),
    "link_days": (60, "Days a link in a mail stays valid."),
    "turn_hours": (72.0, "Hours a player has for a turn before the default action is taken."),
    "interrupt_hours": (24.0, "Hours a player has for an out-of-turn decision (e.g. an interrupt card)."),
    "undo_request_hours": (24.0, "Hours the other players have to answer a request to take back a move; "
                                 "no answer by then refuses it."),
    "reminders": ([0.5, 0.9], "When to remind, as fractions of the time allowed."),
    "dispatch_seconds": (5, "How often the scheduler sends due mails."),
    "deadline_seconds": (30, "How often the scheduler checks deadlines and reminders."),
    "timezone": ("UTC", "The time zone of players who have not chosen their own on their home page: an IANA name "
                        "such as Europe/Berlin. Times are shown in UTC too."),
    "organisers": ("invited", "Who may create games from the web: `invited` (only whoever holds a new-game link the "
                              "operator sent with `pbem organiser invite EMAIL`) or `open` (anyone may ask for a "
                              "link by mail at /new; one mail an hour per address)."),
    "invitation_days": (7.0, "Days a player has to accept or decline an invitation to a game; then the scheduler "
                             "marks it expired and tells the organiser."),
    "webhook_limit": (3, "Webhooks a game (its organiser) or a player may have at once."),
    "webhook_timeout": (10, "Seconds before posting to a webhook gives up (connecting, and each read); a post that "
                            "times out is retried like a mail."),
    "webhook_loopback": (False, "Allow webhooks to this machine (http:// or https:// to 127.0.0.1, ::1 or "
                                "localhost): for tests and development only. Other webhooks must be https:// to "
                                "a public address."),
    "inbound_maildir": ("", "A Maildir folder that `pbem inbound --maildir` (and the scheduler, if set) reads replies from."),
    "inbound_imap": ("", "An IMAP mailbox replies arrive in, `imaps://USER@HOST/FOLDER` (or `imap://` on this machine "
                         "or with STARTTLS): the worker reads it (IDLE, else polling), `pbem inbound --imap` once."),
    "inbound_imap_password": ("", "The password of the `inbound_imap` mailbox (better: the PBEM_INBOUND_IMAP_PASSWORD "
                                  "variable). Never in the address."),
    "inbound_imap_done": ("pbem-read", "The folder read messages are moved to (made if missing); empty: they stay "
                                       "where they are, flagged read."),
    "inbound_imap_poll_seconds": (60, "How often the worker looks for new replies when the IMAP server offers no IDLE."),
    "bounce_address": ("", "The envelope sender of every mail over SMTP, as `bounces@DOMAIN`: each mail goes out from "
                           "`bounces+MAILID@DOMAIN` (VERP), so a delivery report names the mail it is about. Empty: "
                           "the address of `mail_from`, and reports are matched by the Message-ID they quote."),
    "dkim_key": ("", "A DKIM private key (PEM, relative to the instance folder) to sign every mail sent over SMTP "
                     "with; `pbem mail dkim-key` makes one. Empty: no signing (a provider that relays signs)."),
    "dkim_selector": ("pbem", "The DKIM selector: the key is published at SELECTOR._domainkey.DOMAIN."),
    "dkim_domain": ("", "The domain DKIM signs for (`d=`). Default: the domain of `mail_from`."),
}


class ConfigError(Exception):
    pass


@dataclass(frozen=True)
class Settings:
    instance: Path
    values: Mapping[str, Any]

    def __getitem__(self, name: str) -> Any:
        return self.base_url if name == "base_url" else self.values[name]

    @property
    def base_url(self) -> str:
        """The address players reach: ``base_url`` if set, else ``http://HOST:PORT`` from ``host`` and ``port``.

        Every process (``serve``, ``worker``, ``inbound``, each command that composes mail) reads it here,
        so the links they mail agree.
        """
        if self.values.get("base_url"):
            return str(self.values["base_url"]).rstrip("/")
        return address_of(str(self.values["host"]), int(self.values["port"]))

    @property
    def database(self) -> Path:
        """The SQLite database file (``database_url`` says whether the instance uses PostgreSQL instead)."""
        return self.instance / str(self.values["database"])

    @property
    def database_url(self) -> str:
        """The database: a PostgreSQL address (``postgresql://...``) as set, else the SQLite file's path."""
        value = str(self.values["database"])
        return value if is_postgres(value) else str(self.database)

    @property
    def mailbox(self) -> Path:
        return self.instance / str(self.values["mailbox"])

    @property
    def dev(self) -> bool:
        if self.values["dev_mode"] is None:
            return bool(self.values["mail_transport"] == "file")
        return bool(self.values["dev_mode"])

    @property
    def secret_keys(self) -> list[str]:
        """Every key links may be signed with, the current one last (itsdangerous' order)."""
        if not self.values["secret_key"]:
            raise ConfigError("no secret_key: run `pbem init` or set PBEM_SECRET_KEY")
        return [str(k) for k in self.values["old_secret_keys"]] + [str(self.values["secret_key"])]


def is_postgres(database: str) -> bool:
    """Whether a ``database`` setting names a PostgreSQL server (anything else is a SQLite file)."""
    return database.startswith(("postgresql://", "postgres://"))


def loopback_url(host: str, port: int) -> str | None:
    """The address this machine reaches a server listening on ``host`` at; None if not over loopback."""
    if host in ("", "0.0.0.0", "localhost"):
        return f"http://{host if host == 'localhost' else '127.0.0.1'}:{port}"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return None
    if address.version == 6 and (address.is_unspecified or address.is_loopback):
        return f"http://[::1]:{port}"
    return f"http://{host}:{port}" if address.is_loopback else None


def address_of(host: str, port: int) -> str:
    """The URL of a server listening on ``host`` and ``port``: over loopback when it listens there or everywhere."""
    return loopback_url(host, port) or f"http://{f'[{host}]' if ':' in host else host}:{port}"


def serving(settings: Settings, host: str | None = None, port: int | None = None) -> Settings:
    """The settings of ``pbem serve`` listening on ``host`` and ``port`` (default: the settings').

    With ``base_url`` unset, the links follow the address served (``Settings.base_url``).
    """
    values = {**settings.values}
    if host is not None:
        values["host"] = host
    if port is not None:
        values["port"] = port
    return Settings(settings.instance, values)


def links_disagree(settings: Settings, served: Settings) -> bool:
    """Whether ``pbem serve``'s command-line address moves its links away from every other process's.

    Other processes (``pbem worker``, ``pbem inbound``, ``pbem game ...``) do not see ``--host`` or ``--port``.
    """
    return not settings.values.get("base_url") and served.base_url != settings.base_url


def instance_path(explicit: str | os.PathLike[str] | None = None) -> Path:
    """The instance folder: the one given, else ``$PBEM_INSTANCE``, else ``./instance``."""
    return Path(explicit or os.environ.get("PBEM_INSTANCE") or DEFAULT_INSTANCE)


def is_instance(settings: Settings) -> bool:
    """Whether the instance folder exists and holds a config file or the database (``pbem init`` made it),
    or the settings name a PostgreSQL database."""
    folder = settings.instance
    if is_postgres(str(settings["database"])):
        return True  # the database is the instance; the folder (mailbox, lock file) is made when needed
    return folder.is_dir() and ((folder / CONFIG_FILE).is_file() or settings.database.is_file())


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
    for name, (default, _) in SETTINGS.items():
        env = environ.get(f"PBEM_{name.upper()}")
        if env is not None:
            values[name] = _coerce(name, env, default)
    if values["organisers"] not in ("invited", "open"):
        raise ConfigError(f"organisers is invited or open, not {values['organisers']!r}")
    try:
        values["timezone"] = check_zone(values["timezone"])
    except ZoneError as err:
        raise ConfigError(f"timezone: {err}") from None
    return Settings(instance, values)


def _coerce(name: str, text: str, default: Any) -> Any:
    """An environment variable's text as the setting's type."""
    try:
        if isinstance(default, bool) or default is None:
            if text.lower() in ("1", "true", "yes", "on"):
                return True
            if text.lower() in ("0", "false", "no", "off"):
                return False
            raise ValueError(text)
        if isinstance(default, int):
            return int(text)
        if isinstance(default, float):
            return float(text)
        if isinstance(default, list):
            value = json.loads(text)
            if not isinstance(value, list):
                raise ValueError(text)
            return value
    except ValueError:
        raise ConfigError(f"PBEM_{name.upper()}={text!r} is not a valid {name}") from None
    return text


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
