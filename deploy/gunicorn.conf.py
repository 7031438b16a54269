# gunicorn settings for the pbem web pages: gunicorn -c deploy/gunicorn.conf.py 'pbem.web:create_app()'
# The scheduler does not run here: run `pbem worker` beside it (deploy/pbem-worker.service).
#
# Processes of one thread each, gunicorn's plain "sync" worker: a move is Python work around one short write
# transaction, and a thread that holds the database's write lock must not wait for the interpreter lock while other
# threads of its process run Python. The "gthread" worker with one thread still has two threads a process (one
# accepts and polls, one serves), and on the same two cores it served 337-403 moves/s at p99 124-152 ms where "sync"
# served 415-492 at p99 45-54 ms (docs/benchmarks.md, "Requests per second under gunicorn"). The reverse proxy
# (deploy/nginx.conf) buffers requests and answers, so a slow client never holds a worker; PBEM_WEB_THREADS above 1
# switches to "gthread" (gunicorn does so for any threads > 1).
import os

bind = os.environ.get("PBEM_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("PBEM_WEB_WORKERS", str(2 * (os.cpu_count() or 1) + 1)))
threads = int(os.environ.get("PBEM_WEB_THREADS", "1"))
worker_class = "sync" if threads == 1 else "gthread"
timeout = 30
graceful_timeout = 20
accesslog = "-"
errorlog = "-"
# Access lines name each request's path, and a link's token is its bearer's key: the lines keep what names the link
# (its game, seat and move, its id as audits give it) and drop what opens it (pbem/web/requestlog.py).
logger_class = "pbem.web.gunicorn_log.RedactingLogger"
# Behind the reverse proxy: trust its X-Forwarded-* headers only from loopback.
forwarded_allow_ips = "127.0.0.1"
