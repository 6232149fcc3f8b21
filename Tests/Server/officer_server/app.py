"""Assembles the reference server: auth middleware, routes, and the command line."""
import argparse
import asyncio
import os
import secrets
import signal
import sys

from aiohttp import web

from .ai import AIActions
from .archives import Archives
from .attachments import Attachments
from .auth import PUBLIC, Auth
from .errors import NO_SPACE, APIError, bad_request, no_space
from .fetch import Fetch
from .files import FileBrowser, body_json, field, json_response
from .jobs import Jobs
from .media import Media
from .paths import Roots
from .thumbnails import Thumbnails
from .resumable import Resumable
from .tus import Tus
from .zips import Zips

VERSION = "1.0.0"
API_VERSION = 1
FEATURES = ["stat", "tus", "resumable", "tree", "sha256", "mtime", "ai", "jobs", "zip", "transcode", "fetch", "pages"]
PLUGINS = [{"name": "file-browser", "enabled": True}, {"name": "ai-actions", "enabled": True}]
APIS = ("full", "seed")
CLAIMS = web.RequestKey("claims", dict)
TEST_CLOCK = "/api/_test/clock"


def create_app(roots: dict, users: dict, state_dir: str, token_ttl=86400, tus_max_size=1 << 40, tus_expiry=86400,
               secret=None, hostile_names=False, thumbnails=True, async_after=20.0, fetch_allow_ports=(),
               extract_max_entries=100_000, extract_max_bytes=64 << 30, api="full", plain_404=False,
               bare_plugins=False, test_clock=False, attachments=True, false_features=False, tus=True,
               resumable_versions=(3, 5, 6)):
    """`api="seed"` serves only the endpoints of the Officer mobile plan, as our users' servers do (see
    docs/officer-api.md); `plain_404` answers unknown endpoints in plain text, `bare_plugins` leaves the
    `server` block out of the plugins answer: servers that are real but give a client nothing to lean on;
    `false_features` makes a seed server name every proposal (stat included) among its features all the same."""
    if api not in APIS:
        raise ValueError(f"api must be one of {', '.join(APIS)}")
    seed = api == "seed"
    auth = Auth(users, secret or secrets.token_hex(32), token_ttl)
    features = [f for f in FEATURES if tus or f != "tus"] + (["thumbnail"] if thumbnails else [])
    root_map = Roots(roots)
    public = PUBLIC | ({("POST", TEST_CLOCK)} if test_clock else set())

    def unknown_endpoint(request):
        if plain_404:
            return web.Response(status=404, text="404 Not Found", content_type="text/plain")
        return APIError(404, "not_found", f"{request.method} {request.path}: no such endpoint").response()

    @web.middleware
    async def middleware(request, handler):
        unmatched = getattr(request.match_info, "http_exception", None)
        # An endpoint the server does not have is 404 to anyone, signed in or not (the seed's server answers
        # a known path with another method 404 as well: a client probes with the method it would use).
        if unmatched is not None and (unmatched.status == 404 or seed):
            return unknown_endpoint(request)
        try:
            if (request.method, request.path) not in public and not (
                    request.method == "OPTIONS" and request.path.startswith(("/api/file-browser/tus",
                                                                              "/api/file-browser/resumable"))):
                request[CLAIMS] = auth.verify(request)
            return await handler(request)
        except APIError as error:
            return error.response()
        except web.HTTPException as error:
            if error.status >= 400:
                code = {404: "not_found", 405: "method_not_allowed", 413: "too_large"}.get(error.status, "http_error")
                return APIError(error.status, code, error.reason).response()
            raise
        except (ConnectionResetError, ConnectionError):
            # The client went away mid-request (a killed upload): nothing to answer, nothing to log.
            return web.Response(status=499)
        except PermissionError as error:
            return APIError(403, "permission_denied", f"permission denied: {os.path.basename(error.filename or '')}").response()
        except OSError as error:
            # Any write endpoint (mkdir, move, a folder copy) that runs out of space says so, rather than a bare 500.
            if error.errno in NO_SPACE:
                return no_space(request.query.get("path")).response()
            raise

    async def signin(request):
        data = await body_json(request)
        return json_response(auth.sign_in(field(data, "email"), field(data, "password")))

    async def signout(request):
        auth.revoke(request[CLAIMS])
        return json_response({"ok": True})

    async def me(request):
        return json_response({"user": auth.user(request[CLAIMS]["sub"])})

    async def plugins(request):
        if bare_plugins:
            return json_response({"plugins": PLUGINS})
        if seed and not false_features:
            return json_response({"server": {"name": "officer", "version": VERSION}, "plugins": PLUGINS})
        if seed:
            claimed = features
            return json_response({
                "server": {"name": "officer", "version": VERSION, "apiVersion": API_VERSION, "features": claimed},
                "plugins": PLUGINS})
        return json_response({
            "server": {"name": "officer", "version": VERSION, "apiVersion": API_VERSION, "features": features},
            "plugins": PLUGINS})

    async def advance_clock(request):
        data = await body_json(request)
        seconds = field(data, "advance", float)
        if seconds < 0:
            raise bad_request("invalid_field", "field 'advance' must not be negative: the clock only moves forward")
        auth.offset += seconds
        return json_response({"offset": auth.offset})

    app = web.Application(middlewares=[middleware], client_max_size=1 << 40)
    app.add_routes([
        web.post("/api/auth/signin", signin), web.post("/api/auth/signout", signout), web.get("/api/auth/me", me),
        web.get("/api/server-settings/plugins", plugins),
    ])
    if test_clock:
        app.add_routes([web.post(TEST_CLOCK, advance_clock)])
    files = FileBrowser(root_map, hostile_names=hostile_names, seed=seed)
    app.add_routes(files.routes())
    owner_of = lambda request: request[CLAIMS]["sub"]  # noqa: E731
    jobs = Jobs(state_dir, owner_of, async_after=async_after, synchronous=seed)
    app.add_routes(AIActions(root_map, jobs).routes())
    app.add_routes(Archives(root_map, jobs, extract_max_entries, extract_max_bytes).routes())
    app.add_routes(Media(root_map, jobs, seed=seed).routes())
    app.add_routes(Fetch(root_map, jobs, fetch_allow_ports).routes())
    if attachments:
        app.add_routes(Attachments(state_dir, owner_of).routes())
    if not seed:
        if thumbnails:
            app.add_routes(Thumbnails(files, state_dir).routes())
        app.add_routes(jobs.routes())
        app.add_routes(Zips(root_map).routes())
        if tus:
            app.add_routes(Tus(root_map, state_dir, tus_max_size, tus_expiry).routes())
        app.add_routes(Resumable(root_map, state_dir, tus_max_size, tus_expiry, resumable_versions).routes())
    return app


def main(argv=None):
    parser = argparse.ArgumentParser(prog="reference-server", description="Reference Officer server over a folder.")
    parser.add_argument("--root", required=True, help="folder served as the 'home' root")
    parser.add_argument("--extra-root", action="append", default=[], metavar="NAME=DIR", help="another named root")
    parser.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (0: any free port)")
    parser.add_argument("--user", action="append", default=[], metavar="EMAIL:PASSWORD")
    parser.add_argument("--state", help="folder for tus state (default: ROOT.officer-state beside the root)")
    parser.add_argument("--token-ttl", type=int, default=86400, help="seconds a token stays valid")
    parser.add_argument("--tus-max-size", type=int, default=1 << 40)
    parser.add_argument("--tus-expiry", type=int, default=86400, help="seconds an unfinished upload is kept")
    parser.add_argument("--secret", help="JWT signing secret (default: random per start)")
    parser.add_argument("--hostile-names", action="store_true",
                        help="for tests: folders named 'hostile' also list entries with unsafe names ('..', '/', NUL, absolute)")
    parser.add_argument("--no-thumbnails", action="store_true",
                        help="leave out the proposed thumbnail endpoint (clients then make thumbnails themselves)")
    parser.add_argument("--no-tus", action="store_true",
                        help="leave out tus (uploads resume in the IETF form at /api/file-browser/resumable only)")
    parser.add_argument("--resumable-versions", default="3,5,6", metavar="N,N",
                        help="the IETF resumable-upload interop versions served (default 3,5,6)")
    parser.add_argument("--no-attachments", action="store_true",
                        help="leave out the chat attachments endpoint (POST /api/upload), as an older server does")
    parser.add_argument("--async-after", type=float, default=20.0, metavar="SECONDS",
                        help="an AI action or extraction still running after this long answers 202 with a job")
    parser.add_argument("--fetch-allow-port", type=int, action="append", default=[], metavar="PORT",
                        help="for tests: let git-clone and download-video reach 127.0.0.1 on this port")
    parser.add_argument("--extract-max-entries", type=int, default=100_000)
    parser.add_argument("--extract-max-bytes", type=int, default=64 << 30)
    parser.add_argument("--api", choices=APIS, default="full",
                        help="seed: only the endpoints of the Officer mobile plan (no stat, tree, sha256, mtime, tus, "
                             "jobs, thumbnail, GET zip, POST transcode: 404), uploads keep no time and replace; "
                             "full (default): the proposals too")
    parser.add_argument("--plain-404", action="store_true",
                        help="answer unknown endpoints with a plain-text 404 instead of the contract's JSON error")
    parser.add_argument("--bare-plugins", action="store_true",
                        help="leave the server block (name, version, features) out of the plugins answer")
    parser.add_argument("--false-features", action="store_true",
                        help="with --api seed: name every proposal among the features all the same (and answer 404)")
    parser.add_argument("--test-clock", action="store_true",
                        help=f"for tests: POST {TEST_CLOCK} {{\"advance\": SECONDS}} moves the server's clock forward "
                             "(tokens expire without waiting)")
    args = parser.parse_args(argv)

    root = os.path.realpath(args.root)
    if not os.path.isdir(root):
        parser.error(f"--root {args.root}: not a folder")
    roots = {"home": root}
    for item in args.extra_root:
        name, _, folder = item.partition("=")
        if not name or not os.path.isdir(folder):
            parser.error(f"--extra-root {item}: expected NAME=DIR with an existing folder")
        roots[name] = folder
    users = {}
    for item in args.user or ["demo@officer.local:officer"]:
        email, _, password = item.partition(":")
        if not email or not password:
            parser.error(f"--user {item}: expected EMAIL:PASSWORD")
        users[email] = password
    state = args.state or root.rstrip("/") + ".officer-state"
    os.makedirs(state, exist_ok=True)
    app = create_app(roots, users, state, args.token_ttl, args.tus_max_size, args.tus_expiry, args.secret,
                     hostile_names=args.hostile_names, thumbnails=not args.no_thumbnails, async_after=args.async_after,
                     fetch_allow_ports=args.fetch_allow_port, extract_max_entries=args.extract_max_entries,
                     extract_max_bytes=args.extract_max_bytes, api=args.api, plain_404=args.plain_404,
                     bare_plugins=args.bare_plugins, test_clock=args.test_clock,
                     attachments=not args.no_attachments, false_features=args.false_features, tus=not args.no_tus,
                     resumable_versions=tuple(int(v) for v in args.resumable_versions.split(",")))
    asyncio.run(_serve(app, args.port))


async def _serve(app, port):
    runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", port)
    await site.start()
    actual = site._server.sockets[0].getsockname()[1]
    print(f"listening on http://127.0.0.1:{actual}", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    await runner.cleanup()


if __name__ == "__main__":
    sys.exit(main())
