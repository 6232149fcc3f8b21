"""An Officer server that misbehaves on purpose, one way per --mode, for the client's hostile-server tests.

It speaks enough of the contract (plugins, signin, me, ls, stat, tree, raw, tus) for the CLI to reach the
misbehaviour, and runs a second listener, the bystander: another origin that records every request it gets
(method, path, Authorization, body length), so a test can tell whether a token or a file's bytes went there.
GET /_hostile/other gives the bystander's URL, GET /_hostile/recorded what it received.

Binds 127.0.0.1 on ephemeral ports and prints "listening on http://127.0.0.1:PORT" first.
"""
import argparse
import asyncio
import json
import sys

from aiohttp import web

import loopback

TOKEN = "hostile-token.abc_DEF-123"
ESCAPE_NAMES = ["\x1b]0;owned\x07", "\x1b[2J", "plain.txt"]
MODES = [
    "tus-elsewhere", "token-inject", "token-huge", "escapes", "endless", "cursor-stuck", "trickle",
    "tree-trickle", "redirect-elsewhere", "huge-header", "html-error", "mixed-names", "tus-conflict",
]


def entry(path, kind="file", size=6, mime="text/plain"):
    name = path.rsplit("/", 1)[-1]
    return {"name": name, "path": path, "type": kind, "size": size, "mtime": 1700000000.5, "mode": 0o644, "mime": mime}


def error(status, code, message):
    return web.json_response({"error": {"code": code, "message": message}}, status=status)


class Hostile:
    def __init__(self, mode):
        self.mode = mode
        self.other = None  # the bystander's base URL
        self.recorded = []

    # The bystander: another origin that should never see a token or a byte meant for the server.
    async def bystander(self, request):
        body = await request.read()
        self.recorded.append({"method": request.method, "path": request.path_qs,
                              "authorization": request.headers.get("Authorization"), "bytes": len(body)})
        if request.path.startswith("/steal-listing"):
            return web.json_response({"root": "home", "path": "/", "entries": [entry("/STOLEN-LISTING.txt")]})
        if request.path.startswith("/steal-bytes"):
            return web.Response(body=b"bytes from another server\n", content_type="application/octet-stream")
        if request.method == "HEAD":
            return web.Response(status=200, headers={"Upload-Offset": "0", "Tus-Resumable": "1.0.0"})
        return web.Response(status=204, headers={"Upload-Offset": str(len(body)), "Tus-Resumable": "1.0.0"})

    async def other_url(self, request):
        return web.json_response({"url": self.other})

    async def recorded_requests(self, request):
        return web.json_response(self.recorded)

    # The contract, bent per mode.
    async def plugins(self, request):
        return web.json_response({"server": {"name": "officer", "version": "hostile", "apiVersion": 1, "features": ["tus", "tree"]},
                                  "plugins": []})

    def user(self):
        name = "Mallory \x1b[31mred\x1b[0m" if self.mode == "escapes" else "Mallory"
        return {"id": "u1", "email": "m@example.org", "name": name, "role": "admin\x1b]0;t\x07" if self.mode == "escapes" else "admin"}

    async def signin(self, request):
        token = TOKEN
        if self.mode == "token-inject":
            token = TOKEN + "\r\nX-Injected: yes"
        elif self.mode == "token-huge":
            token = "A" * (10 << 20)
        return web.json_response({"token": token, "expiresAt": 4102444800, "user": self.user()})

    async def me(self, request):
        return web.json_response({"user": self.user()})

    def checked(self, request):
        return request.headers.get("Authorization") == "Bearer " + TOKEN

    async def ls(self, request):
        if self.mode == "redirect-elsewhere":
            raise web.HTTPFound(self.other + "/steal-listing")
        if self.mode == "trickle":
            return await self.trickle(request, b'{"root":"home","path":"/","entries":[' + b" " * 100000)
        if self.mode == "huge-header":
            return web.json_response({"root": "home", "path": "/", "entries": []}, headers={"X-Big": "x" * (10 << 20)})
        path = request.query.get("path", "/")
        if self.mode == "html-error" and path != "/":
            return web.Response(status=404, body=b"<html><body>Not here</body></html>", content_type="text/html")
        names = ESCAPE_NAMES if self.mode == "escapes" else ["a.txt"]
        mime = "text/plain\x1b[2J" if self.mode == "escapes" else "text/plain"
        return web.json_response({"root": "home", "path": path,
                                  "entries": [entry(path.rstrip("/") + "/" + n, mime=mime) for n in names]})

    async def stat(self, request):
        path = request.query.get("path", "/")
        if self.mode == "html-error":
            return web.Response(status=404, body=b"<html><body>Not here</body></html>", content_type="text/html")
        if self.mode == "escapes" and "missing" in path:
            return error(404, "not_found", f"{path}: no such file \x1b]0;owned\x07")
        if path.rstrip("/") in ("", "/Pull", "/Sync", "/Mixed"):
            return web.json_response({"entry": entry(path, kind="directory", size=0)})
        return web.json_response({"entry": entry(path, size=1 << 20 if self.mode == "endless" else 6)})

    async def tree(self, request):
        base = request.query.get("path", "/").rstrip("/")
        if self.mode == "cursor-stuck":
            entries = [entry(f"{base}/f{i:04d}.txt") for i in range(1000)]
            return web.json_response({"root": "home", "path": base, "entries": entries, "nextCursor": f"{base}/f0999.txt"})
        if self.mode == "tree-trickle":
            return await self.trickle(request, b'{"root":"home","path":"/","entries":[' + b",".join(
                json.dumps(entry(f"{base}/n{i:06d}")).encode() for i in range(100000)), chunk=100, interval=0.2)
        if self.mode == "escapes":
            names = ESCAPE_NAMES
        elif self.mode == "mixed-names":
            # Two that escape, one file and one folder with the same name, and plain files around them.
            return web.json_response({"root": "home", "path": base, "entries": [
                entry(f"{base}/a.txt"), entry(f"{base}/../escape1.txt"), entry("/elsewhere/escape2.txt"),
                entry(f"{base}/same"), entry(f"{base}/same", kind="directory", size=0), entry(f"{base}/z.txt")]})
        else:
            names = ["a.bin", "b.bin"]
        return web.json_response({"root": "home", "path": base, "entries": [entry(f"{base}/{n}") for n in names]})

    async def raw(self, request):
        if self.mode == "redirect-elsewhere":
            raise web.HTTPFound(self.other + "/steal-bytes")
        name = request.query.get("path", "").rsplit("/", 1)[-1]
        if self.mode == "escapes":
            return web.Response(body=b"\x1b]0;owned\x07first line\n\x1b[2Jsecond\n", content_type="text/plain")
        if self.mode == "endless":
            if request.method == "HEAD":
                return web.Response(headers={"Content-Length": str(1 << 20), "Accept-Ranges": "bytes", "ETag": '"e1"',
                                             "Content-Type": "application/octet-stream"})
            if name == "b.bin":
                # The listing says 6 bytes; the answer is longer, with an honest Content-Length.
                return web.Response(body=b"x" * 28, content_type="application/octet-stream")
            if "Range" in request.headers:
                start = int(request.headers["Range"].split("=")[1].split("-")[0])
                return await self.endless(request, 206, {"Content-Range": f"bytes {start}-{(1 << 20) - 1}/{1 << 20}", "ETag": '"e1"'})
            return await self.endless(request, 200, {"ETag": '"e1"'})
        return web.Response(body=b"hello\n", content_type="text/plain")

    async def endless(self, request, status, headers):
        response = web.StreamResponse(status=status, headers=headers)
        response.content_type = "application/octet-stream"
        response.enable_chunked_encoding()
        await response.prepare(request)
        block = b"z" * 65536
        try:
            for _ in range(1 << 16):  # 4 GiB at most, should a client never stop
                await response.write(block)
        except (ConnectionError, asyncio.CancelledError):
            pass
        return response

    async def trickle(self, request, body, chunk=2, interval=1.0):
        response = web.StreamResponse(status=200)
        response.content_type = "application/json"
        response.enable_chunked_encoding()
        await response.prepare(request)
        try:
            for i in range(0, len(body), chunk):
                await response.write(body[i:i + chunk])
                await asyncio.sleep(interval)
        except (ConnectionError, asyncio.CancelledError):
            pass
        return response

    async def tus(self, request):
        headers = {"Tus-Resumable": "1.0.0", "Tus-Version": "1.0.0", "Tus-Extension": "creation,termination"}
        if request.method == "OPTIONS":
            return web.Response(status=204, headers=headers)
        await request.read()
        if self.mode == "tus-conflict":
            return web.Response(status=409, headers=headers, text="an upload with this name is in progress")
        return web.Response(status=201, headers={**headers, "Location": self.other + "/files/stolen", "Upload-Offset": "0"})

    async def fallback(self, request):
        return error(404, "not_found", f"{request.path}: not in this hostile server")


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", choices=MODES, required=True)
    args = parser.parse_args()
    hostile = Hostile(args.mode)

    other_app = web.Application(client_max_size=1 << 30)
    other_app.router.add_route("*", "/{tail:.*}", hostile.bystander)
    hostile.other = await loopback.start(other_app, shutdown_timeout=0.5)

    app = web.Application(client_max_size=1 << 30)
    app.add_routes([
        web.get("/_hostile/other", hostile.other_url), web.get("/_hostile/recorded", hostile.recorded_requests),
        web.get("/api/server-settings/plugins", hostile.plugins), web.post("/api/auth/signin", hostile.signin),
        web.get("/api/auth/me", hostile.me), web.get("/api/file-browser/ls", hostile.ls),
        web.get("/api/file-browser/stat", hostile.stat), web.get("/api/file-browser/tree", hostile.tree),
        web.get("/api/file-browser/raw", hostile.raw),
        web.route("*", "/api/file-browser/tus", hostile.tus), web.route("*", "/api/file-browser/tus/{id}", hostile.tus),
        web.route("*", "/files/", hostile.tus),
        web.route("*", "/{tail:.*}", hostile.fallback),
    ])
    await loopback.serve(app, shutdown_timeout=0.5, max_field_size=1 << 24, max_line_size=1 << 24)


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
