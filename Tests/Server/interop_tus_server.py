"""A tus 1.0 server that is not ours: aiohttp-tus from PyPI, for interoperability tests.
Binds 127.0.0.1, serves uploads at /uploads, stores files in --dir, prints "listening on http://127.0.0.1:PORT"."""
import argparse
import asyncio
import sys
from pathlib import Path

from aiohttp import web
from aiohttp_tus import setup_tus


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dir", required=True)
    args = parser.parse_args()
    app = web.Application(client_max_size=1 << 40)
    setup_tus(app, upload_url="/uploads", upload_path=Path(args.dir))
    runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    print(f"listening on http://127.0.0.1:{site._server.sockets[0].getsockname()[1]}", flush=True)
    await asyncio.sleep(600)


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
