"""Mail dispatch rate to a loopback SMTP server, against plain smtplib over one connection.

    python tests/bench/bench_mail.py [--count N]

Both send the same pre-rendered messages: pbem's drafts are rendered first (``render_pending``, the scheduler's
step before sending, timed on its own) to the same aiosmtpd server in the same run:
the baseline with ``smtplib.SMTP.sendmail`` in a loop over one connection, pbem with
``pbem.mail.dispatch.dispatch`` (which also reads each row and records each attempt in
SQLite, durably). Goal: pbem at least 0.5 of the baseline's rate.
"""

from __future__ import annotations

import argparse
import smtplib
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent))

from delivery import ANN, BEN, Inbox, free_port, make_settings, smtp_server  # noqa: E402
from events.handling import Cause  # noqa: E402
from kernelgame import RULES  # noqa: E402
from pbem import games  # noqa: E402
from pbem.mail.dispatch import dispatch, render_pending  # noqa: E402
from pbem.mail.outbox import message_of  # noqa: E402
from pbem.mail.transport import SMTPTransport  # noqa: E402
from pbem.service import Service  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=500, help="mails per run")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    games.register(RULES)
    inbox, port = Inbox(), free_port()
    server = smtp_server(inbox, port)
    with tempfile.TemporaryDirectory() as tmp:
        service = Service.open(make_settings(Path(tmp) / "inst"))
        game = service.create_game("highdie", [ANN, BEN], seed="bench").after.game_id
        service.act(game, ANN.email, "bet 1", cause=Cause("bench"))
        template = service.store.query("SELECT * FROM outbox LIMIT 1")[0]  # its draft, rendered on sending
        rendered = message_of(template)
        messages = [rendered.replace("\n", "\r\n").encode("utf-8")] * args.count
        base_rates, pbem_rates, render_rates = [], [], []
        for _ in range(args.runs):
            start = time.perf_counter()
            smtp = smtplib.SMTP("127.0.0.1", port)
            for message in messages:
                smtp.sendmail("pbem@localhost", [template["to_addr"]], message)
            smtp.quit()
            base_rates.append(args.count / (time.perf_counter() - start))

            with service.store.transaction() as conn:
                conn.execute("DELETE FROM outbox")
                conn.executemany(
                    "INSERT INTO outbox (id, game_id, seat, to_addr, kind, subject, message_id, draft, status, "
                    "attempts, due_at, created_at) VALUES (?,?,?,?,?,?,?,?,'pending',0,?,?)",
                    [(f"m{i}", game, 0, template["to_addr"], "turn", template["subject"], f"<m{i}@x>",
                      template["draft"], template["due_at"], template["created_at"]) for i in range(args.count)])
            start = time.perf_counter()
            assert render_pending(service.store, batch=args.count) == args.count
            render_rates.append(args.count / (time.perf_counter() - start))
            start = time.perf_counter()
            report = dispatch(service.store, SMTPTransport("127.0.0.1", port, "none"), "pbem <pbem@localhost>",
                              max_attempts=3, retry_seconds=1, batch=args.count)
            elapsed = time.perf_counter() - start
            assert report.sent == args.count, report
            pbem_rates.append(args.count / elapsed)
        service.close()
    server.stop()
    base, ours = statistics.median(base_rates), statistics.median(pbem_rates)
    ratio = ours / base
    print(f"mail dispatch to loopback SMTP, {args.count} mails x {args.runs} runs (median)")
    print(f"  plain smtplib, one connection: {base:8.0f} mails/s")
    print(f"  pbem dispatch (outbox, attempts recorded, synchronous=FULL): {ours:8.0f} mails/s")
    print(f"  ratio {ratio:.2f} (goal >= 0.5): {'PASS' if ratio >= 0.5 else 'MISS'}")
    print(f"  rendering drafts into messages beforehand (the scheduler's step before sending): "
          f"{statistics.median(render_rates):8.0f} mails/s")


if __name__ == "__main__":
    main()
