"""Serving an aiohttp app on 127.0.0.1 at an ephemeral port, for the tests' helper servers."""
import asyncio
import os
import time

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
    """Starts `app`, prints `listening on URL` first (what the tests wait for), and serves until its parent process
    (the test that started it) ends, or for `seconds` at most: a net for a server its test never stopped, long
    enough for the slowest loaded run (the test kills it when done; a test process killed itself cannot)."""
    url = await start(app, **runner_options)
    print(f"listening on {url}", flush=True)
    parent = os.getppid()
    deadline = time.monotonic() + seconds
    # Asked every half second: no signal tells a process its parent ended (PR_SET_PDEATHSIG follows the parent's
    # thread, and a Swift test starts it from any thread of its pool, which may end first).
    while os.getppid() == parent and time.monotonic() < deadline:
        await asyncio.sleep(0.5)
