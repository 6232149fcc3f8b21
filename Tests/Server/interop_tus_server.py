"""A tus 1.0 server that is not ours: aiohttp-tus from PyPI, for interoperability tests.
Binds 127.0.0.1, serves uploads at /uploads, stores files in --dir, prints "listening on http://127.0.0.1:PORT".
With --stock, aiohttp's own 1 MiB request body limit stays, as a default install has it."""
import argparse
import asyncio
import sys
from pathlib import Path

from aiohttp import web

import loopback
from aiohttp_tus import setup_tus


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dir", required=True)
    parser.add_argument("--stock", action="store_true")
    args = parser.parse_args()
    app = web.Application() if args.stock else web.Application(client_max_size=1 << 40)
    setup_tus(app, upload_url="/uploads", upload_path=Path(args.dir))
    await loopback.serve(app, shutdown_timeout=1.0)


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
