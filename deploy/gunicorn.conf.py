# gunicorn settings for the pbem web pages: gunicorn -c deploy/gunicorn.conf.py 'pbem.web:create_app()'
# The scheduler does not run here: run `pbem worker` beside it (deploy/pbem-worker.service).
#
# Processes, one thread each: a move is Python work around one short write transaction, and a thread that
# holds the database's write lock must not wait for the interpreter lock while its own process's other
# threads run Python (docs/benchmarks.md, "Requests per second under gunicorn": 2 workers x 4 threads served
# 0.29x the bare app's requests, 5 workers x 1 thread 0.4-0.5x, on the same two cores). The reverse proxy
# (deploy/nginx.conf) buffers slow clients, so a worker is never held by one.
import os

bind = os.environ.get("PBEM_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("PBEM_WEB_WORKERS", str(2 * (os.cpu_count() or 1) + 1)))
threads = int(os.environ.get("PBEM_WEB_THREADS", "1"))
worker_class = "gthread"
timeout = 30
graceful_timeout = 20
accesslog = "-"
errorlog = "-"
# Behind the reverse proxy: trust its X-Forwarded-* headers only from loopback.
forwarded_allow_ips = "127.0.0.1"
