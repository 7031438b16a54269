"""A web server process over an instance folder, with the Highdie test game: for tests that race real processes.

Usage: ``python tests/web/serve_highdie.py INSTANCE PORT`` (loopback only; threaded werkzeug, no scheduler).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests/, for the Highdie rules

from werkzeug.serving import make_server  # noqa: E402

from kernelgame import RULES  # noqa: E402
from pbem import games  # noqa: E402
from pbem.web import create_app  # noqa: E402


def main() -> None:
    instance, port = Path(sys.argv[1]), int(sys.argv[2])
    games.register(RULES)
    app = create_app({"instance": instance, "dev_mode": False})
    make_server("127.0.0.1", port, app, threaded=True).serve_forever()


if __name__ == "__main__":
    main()
