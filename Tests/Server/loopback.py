"""Serving an aiohttp app on 127.0.0.1 at an ephemeral port, for the tests' helper servers."""
import asyncio

from aiohttp import web


async def start(app, **runner_options):
    """Starts `app` on a free loopback port and returns its base URL, `http://127.0.0.1:PORT`."""
    runner_options.setdefault("shutdown_timeout", 1.0)
    runner = web.AppRunner(app, access_log=None, **runner_options)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    return f"http://127.0.0.1:{site._server.sockets[0].getsockname()[1]}"


async def serve(app, seconds=7200, **runner_options):
    """Starts `app`, prints `listening on URL` first (what the tests wait for), and serves for `seconds`: a net
    for a server its test never stopped, long enough for the slowest loaded run (the test kills it when done)."""
    url = await start(app, **runner_options)
    print(f"listening on {url}", flush=True)
    await asyncio.sleep(seconds)
