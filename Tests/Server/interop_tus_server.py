"""A tus 1.0 server that is not ours: aiohttp-tus from PyPI, for interoperability tests.
Binds 127.0.0.1, serves uploads at /uploads, stores files in --dir, prints "listening on http://127.0.0.1:PORT"."""
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
    args = parser.parse_args()
    app = web.Application(client_max_size=1 << 40)
    setup_tus(app, upload_url="/uploads", upload_path=Path(args.dir))
    await loopback.serve(app, shutdown_timeout=1.0)


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
