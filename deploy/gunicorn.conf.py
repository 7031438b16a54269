# gunicorn settings for the pbem web pages: gunicorn -c deploy/gunicorn.conf.py 'pbem.web:create_app()'
# The scheduler does not run here: run `pbem worker` beside it (deploy/pbem-worker.service).
import os

bind = os.environ.get("PBEM_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("PBEM_WEB_WORKERS", "2"))
threads = int(os.environ.get("PBEM_WEB_THREADS", "4"))
worker_class = "gthread"
timeout = 30
graceful_timeout = 20
accesslog = "-"
errorlog = "-"
# Behind the reverse proxy: trust its X-Forwarded-* headers only from loopback.
forwarded_allow_ips = "127.0.0.1"
