"""A tiny HTTP server for edge cases no well-behaved server shows: /redirect?to=URL answers 302 to URL,
/echo-auth tells which Authorization header it received, /plain/NAME serves a file from --serve DIR
ignoring Range (always 200, no Accept-Ranges), /busy answers 503 to any method and /count says how many requests
it had. Binds 127.0.0.1, prints "listening on http://127.0.0.1:PORT"."""
import argparse
import asyncio
import email.utils
import os
import sys

from aiohttp import web

import loopback


async def redirect(request):
    raise web.HTTPFound(request.query["to"])


async def echo_auth(request):
    return web.json_response({"authorization": request.headers.get("Authorization")})


BUSY = {"count": 0}


async def busy(request):
    BUSY["count"] += 1
    return web.Response(status=503, text="busy")


async def count(request):
    return web.Response(text=str(BUSY["count"]))


def plain_handler(folder):
    async def plain(request):
        path = os.path.join(folder, os.path.basename(request.match_info["name"]))
        if not os.path.isfile(path):
            raise web.HTTPNotFound()
        with open(path, "rb") as f:
            body = f.read()
        modified = email.utils.formatdate(os.stat(path).st_mtime, usegmt=True)
        return web.Response(body=body, headers={"Last-Modified": modified, "Content-Type": "application/octet-stream"})
    return plain


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--serve", default=".")
    args = parser.parse_args()
    app = web.Application()
    app.add_routes([web.get("/redirect", redirect), web.get("/echo-auth", echo_auth),
                    web.get("/plain/{name}", plain_handler(args.serve)), web.route("*", "/busy", busy),
                    web.get("/count", count)])
    await loopback.serve(app, shutdown_timeout=1.0)


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
