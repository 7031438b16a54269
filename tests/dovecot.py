"""A throwaway IMAP server for the tests: Debian's Dovecot, run as the test's own process.

The server runs in the foreground (``dovecot -F -c CONF``) from a config file written into a temporary folder:
one IMAP listener on a free loopback port, plaintext login allowed (loopback only), users in a passwd file
(``add_user`` hands out the next), mail in Maildirs in the folder. It is stopped
and the folder deleted at the end.
"""

from __future__ import annotations

import grp
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

START_TIMEOUT = 15.0
USERS = 200


class Unavailable(Exception):
    """No Dovecot can be started here; the message says why."""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


CONFIG = """\
base_dir = {folder}/run
state_dir = {folder}/state
log_path = {folder}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
mail_location = maildir:{folder}/mail/%u
first_valid_uid = 0
first_valid_gid = 0
{users}
mailbox_idle_check_interval = 1 secs
imap_idle_notify_interval = 1 mins
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {folder}/passwd
}}
userdb {{
  driver = static
  args = uid={uid} gid={gid} home={folder}/home/%u
}}
service imap-login {{
  inet_listener imap {{
    address = 127.0.0.1
    port = {port}
  }}
  inet_listener imaps {{
    port = 0
  }}
}}
service anvil {{
  chroot =
}}
service imap-login {{
  chroot =
}}
"""


class Dovecot:
    """One running server; ``add_user`` makes a user with an empty mailbox."""

    def __init__(self) -> None:
        binary = shutil.which("dovecot") or ("/usr/sbin/dovecot" if Path("/usr/sbin/dovecot").exists() else None)
        if binary is None:
            raise Unavailable("Dovecot not found (Debian package 'dovecot-imapd')")
        self.folder = Path(tempfile.mkdtemp(prefix="pbem-dovecot-"))
        self.port = _free_port()
        self.users = 0
        uid, gid = os.getuid(), os.getgid()
        users = ""
        if uid == 0:  # Dovecot never reads mail as root: the mailboxes belong to nobody
            uid, gid = pwd.getpwnam("nobody").pw_uid, pwd.getpwnam("nobody").pw_gid
            for sub in ("mail", "home"):
                (self.folder / sub).mkdir()
                os.chown(self.folder / sub, uid, gid)
        else:  # a user's own server: every process runs as that user
            name, group = pwd.getpwuid(uid).pw_name, grp.getgrgid(gid).gr_name
            users = f"default_login_user = {name}\ndefault_internal_user = {name}\ndefault_internal_group = {group}"
        # Dovecot's auth process runs as its own user: it must reach the (test-only) passwd file
        self.folder.chmod(0o755)
        # every user is written before the start: Dovecot notices a changed passwd file only by its mtime in seconds
        (self.folder / "passwd").write_text("".join(f"user{n}:{{PLAIN}}secret{n}::::::\n" for n in range(1, USERS + 1)),
                                            encoding="utf-8")
        (self.folder / "passwd").chmod(0o644)
        self.config = self.folder / "dovecot.conf"
        self.config.write_text(CONFIG.format(folder=self.folder, port=self.port, uid=uid, gid=gid, users=users),
                               encoding="utf-8")
        try:
            self.process = subprocess.Popen([binary, "-F", "-c", str(self.config)], stdout=subprocess.DEVNULL,
                                            stderr=subprocess.PIPE)
        except OSError as err:
            shutil.rmtree(self.folder, ignore_errors=True)
            raise Unavailable(f"dovecot could not be started: {err}") from err
        self._await_listening()

    def _await_listening(self) -> None:
        """Wait until the listener answers with its greeting (Dovecot needs a moment to start its processes)."""
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                log = self.log()
                self.stop()
                raise Unavailable(f"dovecot stopped at once: {log[-600:]}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as conn:
                    if conn.recv(100).startswith(b"* OK"):
                        return
            except OSError:
                time.sleep(0.05)  # nothing to await but the listener itself
        self.stop()
        raise Unavailable(f"dovecot did not listen within {START_TIMEOUT} s")

    def log(self) -> str:
        path = self.folder / "dovecot.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def add_user(self) -> tuple[str, str]:
        """A user not handed out before, with an empty mailbox: its name and password."""
        self.users += 1
        if self.users > USERS:
            raise Unavailable(f"the test server has {USERS} users; give it more")
        return f"user{self.users}", f"secret{self.users}"

    def stop(self) -> None:
        """Stop the server and delete its folder."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.process.stderr is not None:
            self.process.stderr.close()
        shutil.rmtree(self.folder, ignore_errors=True)
