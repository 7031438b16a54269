"""`pbem serve` as a real process: one command starts the pages, the scheduler and the mailbox."""

from __future__ import annotations

import email
import email.policy
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from delivery import free_port

ROOT = Path(__file__).parent.parent


def pbem(*args: str, env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "cli.main", *args], cwd=ROOT, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)


def wait_for(url: str, seconds: float = 30) -> str:
    deadline = time.time() + seconds
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                return str(response.read().decode("utf-8"))
        except OSError:
            if time.time() > deadline:
                raise
            time.sleep(0.2)


def test_serve_demo_starts_everything_and_a_second_scheduler_refuses(tmp_path: Path) -> None:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("PBEM_PORT", "PBEM_HOST", "PBEM_BASE_URL")}
    env.update({"PBEM_INSTANCE": str(tmp_path / "inst"), "PBEM_DISPATCH_SECONDS": "1"})
    server = pbem("serve", "--demo", "--host", "127.0.0.1", "--port", str(port), env=env)
    try:
        deadline = time.time() + 90
        while not list((tmp_path / "inst" / "mailbox").glob("*.eml")) and time.time() < deadline:
            assert server.poll() is None, server.communicate()[0]
            time.sleep(0.2)
        [mail] = list((tmp_path / "inst" / "mailbox").glob("*.eml"))
        text = mail.read_text()
        subject = str(email.message_from_string(text, policy=email.policy.default)["Subject"]).strip()
        assert subject.startswith("[Emerald with Alice, Bob and Carol] ") and subject.endswith("(setup)") \
            and "@example.org>" in text, "the scheduler mailed the first player their setup decision"
        assert f"http://127.0.0.1:{port}/play/" in text, "the links follow the port served"
        listing = wait_for(f"http://127.0.0.1:{port}/dev/mail")
        assert mail.stem in listing, listing
        second = pbem("worker", env=env)
        out, _ = second.communicate(timeout=60)
        assert second.returncode == 1 and "already running" in out
    finally:
        server.send_signal(signal.SIGTERM)  # as systemd or `kill` stops it
        out, _ = server.communicate(timeout=60)
    assert server.returncode == 0 and out.rstrip().endswith("pbem stopped"), out
    assert "pbem serving" in out and "Created A Study in Emerald" in out
    assert (tmp_path / "inst" / "pbem.toml").is_file(), "serve creates the instance on first run"
    assert f"Dev mailbox: http://127.0.0.1:{port}/dev/mail (this machine only)" in out
    assert f"warning: this process links to http://127.0.0.1:{port}, but every other pbem command" in out
    assert f"port = {port}" in out, "serve says how to make every process link to the port served"
