"""A tiny HTTP server for redirect tests: /redirect?to=URL answers 302 to URL, /echo-auth tells which
Authorization header it received. Binds 127.0.0.1 and prints "listening on http://127.0.0.1:PORT"."""
import asyncio
import sys

from aiohttp import web


async def redirect(request):
    raise web.HTTPFound(request.query["to"])


async def echo_auth(request):
    return web.json_response({"authorization": request.headers.get("Authorization")})


async def main():
    app = web.Application()
    app.add_routes([web.get("/redirect", redirect), web.get("/echo-auth", echo_auth)])
    runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    print(f"listening on http://127.0.0.1:{site._server.sockets[0].getsockname()[1]}", flush=True)
    await asyncio.sleep(600)


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
