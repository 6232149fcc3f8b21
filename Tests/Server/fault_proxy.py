"""A TCP proxy that injects faults between a client and a server, for tests and bench/faults.

It resets connections after N bytes, stalls, throttles, or answers request number N with an HTTP error
instead of forwarding it; with --count-file it counts the bytes sent upstream (re-sent bytes show there).
It binds 127.0.0.1, prints "listening on http://127.0.0.1:PORT" first, and stops by itself after --lifetime seconds."""
import argparse
import asyncio
import os
import signal
import sys


class Faults:
    def __init__(self, args):
        self.args = args
        self.connections = 0
        self.requests = 0
        self.corrupted = False
        self.up_bytes = 0  # every byte forwarded in --count-direction (default client -> server), for --count-file
        self.link_free_at = 0.0  # --link-rate: when the shared link has sent what was queued so far

    def write_count(self):
        if self.args.count_file:
            with open(self.args.count_file + ".tmp", "w") as f:
                f.write(str(self.up_bytes))
            os.replace(self.args.count_file + ".tmp", self.args.count_file)


def retry_after(args):
    return b"Retry-After: %d\r\n" % args.retry_after if args.retry_after is not None else b""


async def pump(reader, writer, faults, direction, counter):
    args = faults.args
    sent = 0
    stalled = False
    try:
        while True:
            data = await reader.read(64 * 1024)
            if not data:
                break
            if direction == "up" and data[:4] in (b"GET ", b"POST", b"PUT ", b"PATC", b"HEAD", b"DELE", b"OPTI"):
                faults.requests += 1
                if args.fail_request and faults.requests in args.fail_request:
                    body = b'{"error": {"code": "injected", "message": "fault-proxy injected failure"}}'
                    counter["respond"].write(
                        b"HTTP/1.1 %d Injected\r\nContent-Type: application/json\r\nContent-Length: %d\r\n%s"
                        b"Connection: close\r\n\r\n%s" % (args.status, len(body), retry_after(args), body))
                    await counter["respond"].drain()
                    break
            applies = args.direction in (direction, "both")
            if applies and args.corrupt_at is not None and not faults.corrupted and sent + len(data) > args.corrupt_at:
                # Flip one byte once: a checksum must catch it.
                index = args.corrupt_at - sent
                data = data[:index] + bytes([data[index] ^ 0xFF]) + data[index + 1:]
                faults.corrupted = True
            if applies and args.reset_after is not None and sent + len(data) > args.reset_after:
                cut = max(0, args.reset_after - sent)
                if cut:
                    writer.write(data[:cut])
                    await writer.drain()
                counter["reset"] = True
                break
            if applies and args.stall_after is not None and not stalled and sent + len(data) > args.stall_after:
                cut = max(0, args.stall_after - sent)
                writer.write(data[:cut])
                await writer.drain()
                await asyncio.sleep(args.stall_seconds)
                stalled = True
                data = data[cut:]
                sent += cut
            if direction == "down" and args.link_rate:
                # One link for every connection: each piece waits for the bytes queued before it, whoever sent them.
                loop = asyncio.get_running_loop()
                for i in range(0, len(data), 16384):
                    piece = data[i:i + 16384]
                    now = loop.time()
                    start = max(now, faults.link_free_at)
                    faults.link_free_at = start + len(piece) / args.link_rate
                    if faults.link_free_at > now:
                        await asyncio.sleep(faults.link_free_at - now)
                    writer.write(piece)
                    await writer.drain()
            elif applies and args.throttle:
                for i in range(0, len(data), 4096):
                    writer.write(data[i:i + 4096])
                    await writer.drain()
                    await asyncio.sleep(len(data[i:i + 4096]) / args.throttle)
            else:
                writer.write(data)
                await writer.drain()
            sent += len(data)
            if direction == args.count_direction:
                faults.up_bytes += len(data)
    except (ConnectionError, asyncio.CancelledError):
        pass
    finally:
        faults.write_count()
        for w in (writer, counter["respond"]):
            # A reset is an abort (RST), not an orderly close (FIN): the peer sees a broken connection.
            w.transport.abort() if counter.get("reset") else w.close()


async def handle(client_reader, client_writer, faults):
    faults.connections += 1
    host, _, port = faults.args.target.rpartition(":")
    try:
        server_reader, server_writer = await asyncio.open_connection(host, int(port))
    except OSError:
        client_writer.close()
        return
    counter = {"respond": client_writer}
    up = asyncio.ensure_future(pump(client_reader, server_writer, faults, "up", counter))
    down = asyncio.ensure_future(pump(server_reader, client_writer, faults, "down", counter))
    await asyncio.wait([up, down], return_when=asyncio.FIRST_COMPLETED)
    for task in (up, down):
        task.cancel()
    for w in (client_writer, server_writer):
        w.close()


async def serve(args):
    faults = Faults(args)
    server = await asyncio.start_server(lambda r, w: handle(r, w, faults), "127.0.0.1", args.listen)
    print(f"listening on http://127.0.0.1:{server.sockets[0].getsockname()[1]}", flush=True)
    faults.write_count()
    stop = asyncio.Event()

    async def count_often():
        while True:
            await asyncio.sleep(0.1)
            faults.write_count()

    counting = asyncio.ensure_future(count_often()) if args.count_file else None
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        await asyncio.wait_for(stop.wait(), args.lifetime)
    except asyncio.TimeoutError:
        pass
    if counting:
        counting.cancel()
    server.close()


def main(argv=None):
    p = argparse.ArgumentParser(prog="fault-proxy", description=__doc__.split("\n")[0])
    p.add_argument("--listen", type=int, default=0, help="port on 127.0.0.1 (0: any)")
    p.add_argument("--target", required=True, help="HOST:PORT to forward to")
    p.add_argument("--reset-after", type=int, help="reset each connection after this many bytes")
    p.add_argument("--direction", choices=["up", "down", "both"], default="down", help="which way faults apply")
    p.add_argument("--stall-after", type=int, help="stall each connection after this many bytes")
    p.add_argument("--stall-seconds", type=float, default=30)
    p.add_argument("--throttle", type=int, help="bytes per second, per connection")
    p.add_argument("--link-rate", type=int,
                   help="bytes per second server -> client shared by every connection (an emulated slow link)")
    p.add_argument("--fail-request", type=int, action="append", help="answer the Nth request with --status")
    p.add_argument("--status", type=int, default=503)
    p.add_argument("--retry-after", type=int, help="add Retry-After: N to injected failures")
    p.add_argument("--corrupt-at", type=int, help="flip the byte at this offset of one connection, once")
    p.add_argument("--count-file", help="keep the number of bytes forwarded in --count-direction in this file")
    p.add_argument("--count-direction", choices=["up", "down"], default="up",
                   help="count client -> server bytes (up: what was re-sent) or server -> client (down: what was fetched)")
    p.add_argument("--lifetime", type=float, default=600, help="seconds before the proxy stops by itself")
    args = p.parse_args(argv)
    asyncio.run(serve(args))


if __name__ == "__main__":
    sys.exit(main())
