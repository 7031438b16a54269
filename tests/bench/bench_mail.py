"""Mail dispatch rate to a loopback SMTP server, rendering included, against plain smtplib over one connection.

    python tests/bench/bench_mail.py [--count N] [--runs N]

The mail is an A Study in Emerald turn mail of a three-player game 30 moves in (the board, the hand, what
happened, the commands). To the same aiosmtpd server in the same run: the baseline sends the rendered
message with ``smtplib.SMTP.sendmail`` in a loop over one connection; pbem renders the outbox's drafts
as it sends them, with ``pbem.post.mail.dispatch.dispatch`` (which also claims each row and records each attempt in
SQLite, on the sender's own connection: ``sender_store``). Goal: pbem, rendering included, at least 0.5 of the
baseline's rate. Rendering alone (``build`` of the same draft) is also given.
"""

from __future__ import annotations

import argparse
import random
import smtplib
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent))

from delivery import ANN, BEN, CY, Inbox, free_port, make_settings, smtp_server  # noqa: E402
from events.handling import Cause  # noqa: E402
from kernelgame import RULES  # noqa: E402
from pbem import games  # noqa: E402
from pbem.post.mail.dispatch import dispatch, sender_store  # noqa: E402
from pbem.post.mail.outbox import draft_of, message_of  # noqa: E402
from pbem.post.mail.render import build  # noqa: E402
from pbem.post.mail.transport import SMTPTransport  # noqa: E402
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
        game = service.create_game("emerald", [ANN, BEN, CY], seed="bench").after.game_id
        pick = random.Random(1)
        for _ in range(30):
            state = service.load(game)
            rules = service.kernel.rules(state)
            seat = sorted(rules.prompts(state.game))[0]
            service.act_as(game, seat, pick.choice(rules.legal_actions(state.game, seat)), cause=Cause("bench"))
        # the newest turn mail: its draft, rendered on sending
        template = service.store.query("SELECT * FROM outbox WHERE kind = 'turn' ORDER BY created_at DESC LIMIT 1")[0]
        rendered = message_of(template)
        draft = draft_of(template)
        messages = [rendered.replace("\n", "\r\n").encode("utf-8")] * args.count
        base_rates, render_rates, both_rates = [], [], []
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
            for _ in range(100):
                build(draft)
            render_rates.append(100 / (time.perf_counter() - start))
            start = time.perf_counter()
            sender = sender_store(service.store)  # as the worker sends: its own connection (see sender_store)
            report = dispatch(sender, SMTPTransport("127.0.0.1", port, "none"), "pbem <pbem@localhost>",
                              max_attempts=3, retry_seconds=1, batch=args.count)
            sender.close()
            end = time.perf_counter()
            assert report.sent == args.count, report
            both_rates.append(args.count / (end - start))
        service.close()
        compose_rate = composing(Path(tmp) / "owed")
    server.stop()
    base, both = statistics.median(base_rates), statistics.median(both_rates)
    print(f"mail dispatch to loopback SMTP, an Emerald turn mail of {len(rendered):,} bytes, "
          f"{args.count} mails x {args.runs} runs (median)")
    print(f"  plain smtplib, one connection, pre-rendered:     {base:8.0f} mails/s")
    print(f"  pbem dispatch, rendering each mail as it sends it:  {both:8.0f} mails/s")
    print(f"  ratio {both / base:.2f} (goal >= 0.5): {'PASS' if both / base >= 0.5 else 'MISS'}")
    print(f"  rendering alone: {statistics.median(render_rates):8.0f} mails/s")
    whole = 1 / (1 / compose_rate + 1 / both)
    print(f"  composing the mails a web page's moves owe (the worker, before it sends): {compose_rate:8.0f} mails/s")
    print(f"  composing, rendering and sending: {whole:8.0f} mails/s, {whole / base:.2f} of the baseline")


def composing(folder: Path, moves: int = 240) -> float:
    """Mails composed per second by the worker (``pbem.post.owed_mail``): a game played by moves whose mails are owed."""
    service = Service.open(make_settings(folder))
    service.defer_mail = True  # as a web page's move
    game = service.create_game("emerald", [ANN, BEN, CY], seed="bench-owed").after.game_id
    pick = random.Random(2)
    for _ in range(moves):
        state = service.load(game)
        if state.ended:
            break
        rules = service.kernel.rules(state)
        seat = sorted(rules.prompts(state.game))[0]
        service.act_as(game, seat, pick.choice(rules.legal_actions(state.game, seat)), cause=Cause("bench"))
    service.states = type(service.states)()  # the worker's own process: nothing of the game cached
    start = time.perf_counter()
    composed = service.write_owed_mail()
    elapsed = time.perf_counter() - start
    service.close()
    return composed / elapsed

if __name__ == "__main__":
    main()
