"""tus 1.0 servers that are not ours, from PyPI, for interoperability tests, each in its stock configuration:
  aiohttp-tus  (aiohttp; with --stock, aiohttp's own 1 MiB request body limit stays, as a default install has it)
  tuspyserver  (FastAPI on uvicorn)
  drf-tus      (Django REST framework on Django's development server; Django's 2.5 MB body limit)
Each binds 127.0.0.1 on a free port, prints "listening on http://127.0.0.1:PORT" and takes uploads at
/uploads/. A finished upload appears in --dir under the `filename` it was sent with, so a test compares bytes
the same way for all three; unfinished state stays where the server keeps it (a hidden folder in --dir)."""
import argparse
import asyncio
import os
import shutil
import socket
import sys
from pathlib import Path


def free_socket():
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    return sock


def aiohttp_tus(folder, stock):
    from aiohttp import web
    from aiohttp_tus import setup_tus

    import loopback

    app = web.Application() if stock else web.Application(client_max_size=1 << 40)
    setup_tus(app, upload_url="/uploads", upload_path=Path(folder))
    return asyncio.run(loopback.serve(app, shutdown_timeout=1.0))


def tuspyserver(folder):
    import uvicorn
    from fastapi import FastAPI
    from tuspyserver import create_tus_router

    state = os.path.join(folder, ".tuspyserver")

    def finished(path, metadata):
        shutil.copyfile(path, os.path.join(folder, os.path.basename(metadata["filename"])))

    app = FastAPI()
    app.include_router(create_tus_router(prefix="uploads", files_dir=state, on_upload_complete=finished))
    sock = free_socket()
    print(f"listening on http://127.0.0.1:{sock.getsockname()[1]}", flush=True)
    config = uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=1)
    uvicorn.Server(config).run(sockets=[sock])


def drf_tus(folder):
    import django
    from django.conf import settings

    state = os.path.join(folder, ".drf-tus")
    os.makedirs(state, exist_ok=True)
    settings.configure(
        DEBUG=False, ALLOWED_HOSTS=["127.0.0.1"], SECRET_KEY="interop-only", ROOT_URLCONF=__name__, USE_TZ=True,
        BASE_DIR=state, MEDIA_ROOT=folder,
        INSTALLED_APPS=["django.contrib.contenttypes", "django.contrib.auth", "rest_framework", "rest_framework_tus"],
        MIDDLEWARE=["rest_framework_tus.middleware.TusMiddleware"],
        DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": os.path.join(state, "db.sqlite3")}},
        REST_FRAMEWORK={"DEFAULT_AUTHENTICATION_CLASSES": [], "DEFAULT_PERMISSION_CLASSES": []},
        REST_FRAMEWORK_TUS={"UPLOAD_DIR": os.path.join(state, "parts"), "TUS_UPLOAD_DESTINATION": ""},
    )
    django.setup()
    from django.core.management import call_command
    from django.core.servers.basehttp import ThreadedWSGIServer, WSGIRequestHandler
    from django.core.wsgi import get_wsgi_application
    from django.urls import include, path

    global urlpatterns
    urlpatterns = [path("uploads/", include("rest_framework_tus.urls"))]
    call_command("migrate", verbosity=0)

    class QuietHandler(WSGIRequestHandler):
        def log_message(self, *args):
            pass

    server = ThreadedWSGIServer(("127.0.0.1", 0), QuietHandler)
    server.set_app(get_wsgi_application())
    print(f"listening on http://127.0.0.1:{server.server_address[1]}", flush=True)
    server.serve_forever()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dir", required=True)
    parser.add_argument("--kind", choices=["aiohttp-tus", "tuspyserver", "drf-tus"], default="aiohttp-tus")
    parser.add_argument("--stock", action="store_true", help="aiohttp-tus: keep aiohttp's 1 MiB body limit")
    args = parser.parse_args()
    if args.kind == "aiohttp-tus":
        return aiohttp_tus(args.dir, args.stock)
    if args.kind == "tuspyserver":
        return tuspyserver(args.dir)
    return drf_tus(args.dir)


if __name__ == "__main__":
    sys.exit(main())
