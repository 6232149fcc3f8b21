"""A TCP proxy that injects faults between a client and a server, for tests and bench/faults.

Byte faults: it resets connections after N bytes, stalls, throttles, flips a byte, or answers request number N
with an HTTP error instead of forwarding it; with --count-file it counts the bytes sent upstream (re-sent bytes
show there).

Write faults (--fail-writes-every, --fail-after-forward-every, --cut-before-answer-every) make it read HTTP/1.1:
requests and answers are told apart on keep-alive connections, pipelined or not, with bodies of any size framed by
Content-Length or chunked coding, streamed piece by piece (never held whole). Every Nth write request (POST, PUT,
PATCH, DELETE; counted over all connections, one count for the three) is then either answered by the proxy without
being forwarded, or forwarded whole with its answer replaced by a 500 or by a reset connection: the write was
applied but the client cannot know it. Byte faults still apply to what is forwarded.

It binds 127.0.0.1, prints "listening on http://127.0.0.1:PORT" first, and stops by itself after --lifetime seconds
or when the process that started it ends."""
import argparse
import asyncio
import contextlib
import http
import os
import signal
import socket
import struct
import sys


class Faults:
    def __init__(self, args):
        self.args = args
        self.connections = 0
        self.requests = 0
        self.writes = 0  # write requests seen (POST, PUT, PATCH, DELETE), for the --*-every faults
        self.injected = 0
        self.corrupted = False
        self.stalls = 0  # connections stalled so far, for --stall-once
        self.up_bytes = 0  # every byte forwarded in --count-direction (default client -> server), for --count-file
        self.link_free_at = 0.0  # --link-rate: when the shared link has sent what was queued so far
        self.forwarded = 0  # bytes forwarded in --direction over every connection, for --hold-after
        self.released = None  # --hold-after: an asyncio.Event set by SIGUSR1 (made in serve, on its loop)

    def write_count(self):
        if self.args.count_file:
            with open(self.args.count_file + ".tmp", "w") as f:
                f.write(str(self.up_bytes))
            os.replace(self.args.count_file + ".tmp", self.args.count_file)


def retry_after(args):
    return b"Retry-After: %d\r\n" % args.retry_after if args.retry_after is not None else b""


def injected(args, status, close=True, body=True):
    """An answer made up by the proxy (the request it answers was never forwarded, or its real answer was lost)."""
    content = b'{"error": {"code": "injected", "message": "fault-proxy injected failure"}}' if body else b""
    try:
        reason = http.HTTPStatus(status).phrase.encode()
    except ValueError:
        reason = b"Injected"
    return (b"HTTP/1.1 %d %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n%s%s\r\n%s"
            % (status, reason, len(content), retry_after(args), b"Connection: close\r\n" if close else b"", content))


class Link:
    """One direction of one connection: every forwarded byte goes through `send`, which applies the byte faults
    (--corrupt-at, --reset-after, --stall-after, --throttle, --link-rate) and counts for --count-file."""

    def __init__(self, faults, direction, writer, connection):
        self.faults = faults
        self.direction = direction
        self.writer = writer
        self.connection = connection  # {"writers": (client, server), "reset": bool}
        self.sent = 0
        self.stalled = False

    def reset(self, hard=False):
        # A reset is an abort, not an orderly close: the peer sees a broken connection. `hard` makes it an RST
        # even with nothing unread (SO_LINGER 0), as a crashed server's would be.
        self.connection["reset"] = True
        for w in self.connection["writers"]:
            sock = w.get_extra_info("socket")
            if hard and sock is not None:
                with contextlib.suppress(OSError):
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            w.transport.abort()

    async def send(self, data, count=True):
        """Forwards `data`; False once the connection has been reset (by --reset-after)."""
        faults, args, writer, direction = self.faults, self.faults.args, self.writer, self.direction
        if self.connection["reset"]:
            return False
        applies = args.direction in (direction, "both")
        if applies and args.corrupt_at is not None and not faults.corrupted and self.sent + len(data) > args.corrupt_at:
            # Flip one byte once: a checksum must catch it.
            index = args.corrupt_at - self.sent
            data = data[:index] + bytes([data[index] ^ 0xFF]) + data[index + 1:]
            faults.corrupted = True
        if applies and args.reset_after is not None and self.sent + len(data) > args.reset_after:
            cut = max(0, args.reset_after - self.sent)
            if cut:
                writer.write(data[:cut])
                await writer.drain()
            self.reset()
            return False
        if (applies and args.hold_after is not None and not faults.released.is_set()
                and faults.forwarded + len(data) > args.hold_after):
            # Held, every connection, once --hold-after bytes went: until the test says so (SIGUSR1), whatever the
            # machine's load; no rate decides what happens meanwhile.
            cut = max(0, args.hold_after - faults.forwarded)
            if cut:
                faults.forwarded += cut
                writer.write(data[:cut])
                await writer.drain()
                self.sent += cut
                if count and direction == args.count_direction:
                    faults.up_bytes += cut
            data = data[cut:]
            await faults.released.wait()
        if (applies and args.stall_after is not None and not self.stalled and self.sent + len(data) > args.stall_after
                and not (args.stall_once and faults.stalls > 0)):
            faults.stalls += 1
            cut = max(0, args.stall_after - self.sent)
            writer.write(data[:cut])
            await writer.drain()
            await asyncio.sleep(args.stall_seconds)
            self.stalled = True
            data = data[cut:]
            self.sent += cut
        if applies:
            faults.forwarded += len(data)  # counted before any await: another connection sees the mark at once
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
        self.sent += len(data)
        if count and direction == args.count_direction:
            faults.up_bytes += len(data)
        return True


async def pump(reader, link, faults, respond):
    """Byte mode: forwards whatever arrives, as it arrives (no HTTP parsing)."""
    args = faults.args
    try:
        while True:
            data = await reader.read(64 * 1024)
            if not data:
                break
            if link.direction == "up" and data[:4] in (b"GET ", b"POST", b"PUT ", b"PATC", b"HEAD", b"DELE", b"OPTI"):
                faults.requests += 1
                if args.fail_request and faults.requests in args.fail_request:
                    respond.write(injected(args, args.status or 503))
                    await respond.drain()
                    break
            if not await link.send(data):
                break
    except (ConnectionError, asyncio.CancelledError):
        pass
    finally:
        faults.write_count()
        for w in (link.writer, respond):
            w.transport.abort() if link.connection["reset"] else w.close()


# -- HTTP mode: requests and answers are told apart, so a fault can pick the Nth write request ------------------------

WRITES = {b"POST", b"PUT", b"PATCH", b"DELETE"}
PIECE = 64 * 1024


class BadMessage(Exception):
    pass


class Buffered:
    """A StreamReader with a buffer of its own: a read can be abandoned (cancelled) without losing a byte, and
    nothing larger than one piece is ever held, whatever the size of a body."""

    def __init__(self, reader):
        self.reader = reader
        self.buf = bytearray()

    async def fill(self):
        data = await self.reader.read(PIECE)
        self.buf += data
        return bool(data)

    async def until(self, marker, limit=PIECE):
        """Up to and including `marker`; b"" at the end of the stream with nothing pending."""
        while (end := self.buf.find(marker)) < 0:
            if len(self.buf) > limit:
                raise BadMessage("header too long")
            if not await self.fill():
                if self.buf:
                    raise BadMessage("stream ended inside a header")
                return b""
        data = bytes(self.buf[:end + len(marker)])
        del self.buf[:end + len(marker)]
        return data

    async def relay(self, count, send):
        """Passes on `count` bytes (None: up to the end of the stream) piece by piece; False if `send` stopped."""
        while count is None or count > 0:
            if not self.buf and not await self.fill():
                if count is None:
                    return True
                raise BadMessage("stream ended inside a body")
            size = len(self.buf) if count is None else min(count, len(self.buf))
            piece = bytes(self.buf[:size])
            del self.buf[:size]
            if count is not None:
                count -= size
            if not await send(piece):
                return False
        return True


def parse_head(head):
    lines = head.split(b"\r\n")
    headers = {}
    for line in lines[1:]:
        name, sep, value = line.partition(b":")
        if sep:
            headers[name.strip().lower()] = value.strip()
    return lines[0].split(b" "), headers


async def relay_body(stream, headers, send, to_end=False):
    """Passes on a message body framed by Content-Length, chunked coding, or (to_end) the end of the stream."""
    if b"chunked" in headers.get(b"transfer-encoding", b"").lower():
        while True:
            line = await stream.until(b"\r\n")
            if not line or not await send(line):
                return False
            try:
                size = int(line.split(b";")[0].strip(), 16)
            except ValueError:
                raise BadMessage("bad chunk size")
            if size == 0:
                while True:  # trailers, up to the empty line
                    line = await stream.until(b"\r\n")
                    if not line or not await send(line):
                        return False
                    if line == b"\r\n":
                        return True
            if not await stream.relay(size + 2, send):
                return False
    if b"content-length" in headers:
        try:
            return await stream.relay(int(headers[b"content-length"]), send)
        except ValueError:
            raise BadMessage("bad Content-Length")
    return await stream.relay(None, send) if to_end else True


async def discard(piece):
    return True


class Exchange:
    def __init__(self, method, fault=None, close=False):
        self.method = method
        self.fault = fault  # None (forward), "refuse", "fail", "fail-after-forward", "cut-before-answer"
        self.close = close


def fault_for(faults, method):
    args = faults.args
    faults.requests += 1
    if args.fail_request and faults.requests in args.fail_request:
        return "refuse"
    if method not in WRITES:
        return None
    faults.writes += 1
    for every, fault in ((args.fail_writes_every, "fail"), (args.fail_after_forward_every, "fail-after-forward"),
                         (args.cut_before_answer_every, "cut-before-answer")):
        if every and faults.writes % every == 0:
            faults.injected += 1
            return fault
    return None


async def requests_up(client, up, exchanges, faults):
    """Reads the client's requests one by one (keep-alive, pipelined, bodies over many reads) and forwards them,
    or answers one itself; each request is queued, in order, for the answer side."""
    try:
        while True:
            head = await client.until(b"\r\n\r\n")
            if not head:
                break
            (method, *_), headers = parse_head(head)
            fault = fault_for(faults, method)
            if fault in ("refuse", "fail"):
                # Not forwarded. A client waiting for 100 Continue sends no body: answer and close. Otherwise the
                # body is read and dropped, so the client reads the answer rather than a broken pipe.
                waiting = b"100-continue" in headers.get(b"expect", b"").lower()
                close = fault == "refuse" or waiting
                if not waiting and not await relay_body(client, headers, discard):
                    break
                await exchanges.put(Exchange(method, fault, close))
                if close:
                    break
                continue
            await exchanges.put(Exchange(method, fault))
            if not await up.send(head) or not await relay_body(client, headers, up.send):
                break
            if fault:
                break  # its answer is lost: nothing after it goes to the server on this connection
    except (ConnectionError, BadMessage, asyncio.IncompleteReadError):
        pass
    finally:
        await exchanges.put(None)


async def next_exchange(exchanges, server):
    """The next request to answer; while none is outstanding the server is watched, so its closing an idle
    keep-alive connection closes the client's too (None)."""
    if not exchanges.empty():
        return exchanges.get_nowait()
    waiting = asyncio.ensure_future(exchanges.get())
    watching = asyncio.ensure_future(server.fill())
    await asyncio.wait({waiting, watching}, return_when=asyncio.FIRST_COMPLETED)
    if waiting.done():
        watching.cancel()
        with contextlib.suppress(asyncio.CancelledError, ConnectionError):
            await watching  # a piece it read stays in the buffer
        return waiting.result()
    waiting.cancel()
    if not watching.result():
        return None
    return await exchanges.get()


async def answers_down(server, down, exchanges, faults):
    """Relays the server's answers in request order, or the proxy's own where a fault says so."""
    args = faults.args
    try:
        while (exchange := await next_exchange(exchanges, server)) is not None:
            if exchange.fault in ("refuse", "fail"):
                status = args.status or (503 if exchange.fault == "refuse" else 500)
                await down.send(injected(args, status, exchange.close, body=exchange.method != b"HEAD"), count=False)
                if exchange.close:
                    break
                continue
            while True:
                head = await server.until(b"\r\n\r\n")
                if not head:
                    return
                (_, status, *_), headers = parse_head(head)
                status = int(status)
                if not 100 <= status < 200 or status == 101:
                    break
                if not await down.send(head):  # 100 Continue: the client needs it to send its body
                    return
            if exchange.fault == "cut-before-answer":
                down.reset(hard=True)  # the request was applied; the client sees its connection broken, no answer
                return
            bodiless = exchange.method == b"HEAD" or status in (204, 304) or status < 200
            if exchange.fault == "fail-after-forward":
                if not bodiless:
                    await relay_body(server, headers, discard, to_end=True)
                await down.send(injected(args, args.status or 500), count=False)
                return
            if not await down.send(head):
                return
            if not bodiless and not await relay_body(server, headers, down.send, to_end=True):
                return
            if status == 101 or b"close" in headers.get(b"connection", b"").lower() or not (
                    bodiless or b"content-length" in headers or b"transfer-encoding" in headers):
                return
    except (ConnectionError, BadMessage, ValueError, asyncio.IncompleteReadError):
        pass


async def handle_http(client_reader, client_writer, server_reader, server_writer, faults):
    connection = {"writers": (client_writer, server_writer), "reset": False}
    up = Link(faults, "up", server_writer, connection)
    down = Link(faults, "down", client_writer, connection)
    exchanges = asyncio.Queue()
    reading = asyncio.ensure_future(requests_up(Buffered(client_reader), up, exchanges, faults))
    try:
        await answers_down(Buffered(server_reader), down, exchanges, faults)
    finally:
        reading.cancel()
        with contextlib.suppress(asyncio.CancelledError, ConnectionError):
            await reading
        faults.write_count()
        for w in (client_writer, server_writer):
            w.transport.abort() if connection["reset"] else w.close()


def http_mode(args):
    return bool(args.fail_writes_every or args.fail_after_forward_every or args.cut_before_answer_every)


async def handle(client_reader, client_writer, faults):
    faults.connections += 1
    host, _, port = faults.args.target.rpartition(":")
    try:
        server_reader, server_writer = await asyncio.open_connection(host, int(port))
    except OSError:
        client_writer.close()
        return
    if http_mode(faults.args):
        await handle_http(client_reader, client_writer, server_reader, server_writer, faults)
        return
    connection = {"writers": (client_writer, server_writer), "reset": False}
    up = asyncio.ensure_future(pump(client_reader, Link(faults, "up", server_writer, connection), faults, client_writer))
    down = asyncio.ensure_future(pump(server_reader, Link(faults, "down", client_writer, connection), faults, client_writer))
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
    parent = os.getppid()

    async def outlive_no_parent():
        # A test that waits long on a loaded machine keeps its proxy; one whose process died leaves none behind.
        while os.getppid() == parent:
            await asyncio.sleep(1)
        stop.set()

    watching = asyncio.ensure_future(outlive_no_parent())
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    faults.released = asyncio.Event()
    loop.add_signal_handler(signal.SIGUSR1, faults.released.set)
    # A parent may start it with SIGUSR1 blocked (seen: the Swift test runner's Process), and the mask is inherited.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGUSR1})
    try:
        await asyncio.wait_for(stop.wait(), args.lifetime)
    except asyncio.TimeoutError:
        pass
    if counting:
        counting.cancel()
    watching.cancel()
    server.close()


def main(argv=None):
    p = argparse.ArgumentParser(prog="fault-proxy", description=__doc__.split("\n")[0])
    p.add_argument("--listen", type=int, default=0, help="port on 127.0.0.1 (0: any)")
    p.add_argument("--target", required=True, help="HOST:PORT to forward to")
    p.add_argument("--reset-after", type=int, help="reset each connection after this many bytes")
    p.add_argument("--direction", choices=["up", "down", "both"], default="down", help="which way faults apply")
    p.add_argument("--stall-after", type=int, help="stall each connection after this many bytes")
    p.add_argument("--stall-seconds", type=float, default=30)
    p.add_argument("--stall-once", action="store_true",
                   help="stall only the first connection that passes --stall-after (later ones flow: a retry gets through)")
    p.add_argument("--throttle", type=int, help="bytes per second, per connection")
    p.add_argument("--hold-after", type=int,
                   help="once this many bytes went in --direction (over all connections), hold every connection's "
                        "bytes in that direction until the proxy gets SIGUSR1, then forward them as before")
    p.add_argument("--link-rate", type=int,
                   help="bytes per second server -> client shared by every connection (an emulated slow link)")
    p.add_argument("--fail-request", type=int, action="append",
                   help="answer the Nth request (counted over all connections) with --status (default 503), then close")
    p.add_argument("--fail-writes-every", type=int, metavar="N",
                   help="answer every Nth write request (POST, PUT, PATCH, DELETE) with --status (default 500) "
                        "without forwarding it; its body is read and dropped, the connection kept")
    p.add_argument("--fail-after-forward-every", type=int, metavar="N",
                   help="forward every Nth write request whole and read the server's answer, then give the client "
                        "--status (default 500) instead and close: the write was applied, its answer lost")
    p.add_argument("--cut-before-answer-every", type=int, metavar="N",
                   help="forward every Nth write request whole, then reset the client's connection as the server's "
                        "answer arrives, before any of it: the server failed after the last byte, as far as the client knows")
    p.add_argument("--status", type=int, help="status of injected answers")
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
