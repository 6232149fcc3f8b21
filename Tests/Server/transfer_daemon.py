"""A stand-in for the system's transfer daemon (nsurlsessiond), written for the tests of background transfers (#56):
it runs file-backed HTTP tasks to their end whatever happens to the process that handed them over, and tells a new
process which tasks it holds, by label, finished or still running, so that process can adopt them.

Control API on 127.0.0.1 (JSON):
- POST /tasks {label, method, url, headers: [[name, value]...], body: PATH|null, into: PATH|null}
  -> 201 {id, adopted: false}; a task with the same label and the same request (method, url, headers) that was not
  forgotten yet is returned instead (200 {id, adopted: true}): a relaunched app asking for the same piece gets the one
  already under way or done.
- GET /tasks -> [{id, label, state: running|finished|failed, status, headers, error}]
- GET /tasks/{id}/result -> waits for the task's end -> {state, status, headers, error, into, body}
  (body: a response kept in memory when no `into` was given, base64)
- DELETE /tasks/{id} -> 204: the task is forgotten (its result was taken).
- GET /log -> every request it sent: [{label, method, url, range, sent, received}], for "no byte sent twice".
Bodies go from files (read as they are sent) and responses into files (written as they come), as a background
session's do.
"""
import argparse
import asyncio
import base64
import itertools
import os

import aiohttp
from aiohttp import web


class Daemon:
    def __init__(self):
        self.tasks = {}  # id -> task record
        self.by_label = {}  # label -> id, until forgotten
        self.log = []
        self.ids = itertools.count(1)
        self.session = None

    async def start(self, app):
        self.session = aiohttp.ClientSession(auto_decompress=False)

    async def stop(self, app):
        for record in self.tasks.values():
            if record["runner"] and not record["runner"].done():
                record["runner"].cancel()
        await self.session.close()

    def routes(self):
        return [web.post("/tasks", self.submit), web.get("/tasks", self.list),
                web.get("/tasks/{id}/result", self.result), web.delete("/tasks/{id}", self.forget),
                web.get("/log", self.requests)]

    async def submit(self, request):
        spec = await request.json()
        label = spec.get("label")
        request_key = self.request_key(spec)
        held = self.tasks.get(self.by_label.get(label)) if label else None
        if held is not None and held["request_key"] == request_key:
            return web.json_response({"id": held["id"], "adopted": True})
        task_id = str(next(self.ids))
        record = {"id": task_id, "label": label, "state": "running", "status": None, "headers": [], "error": None,
                  "into": spec.get("into"), "body": None, "done": asyncio.Event(), "runner": None,
                  "request_key": request_key}
        self.tasks[task_id] = record
        if label:
            self.by_label[label] = task_id
        record["runner"] = asyncio.create_task(self.run(record, spec))
        return web.json_response({"id": task_id, "adopted": False}, status=201)

    @staticmethod
    def request_key(spec):
        """What must match for a task to be adopted under its label: the same request (a label kept from an earlier
        version of the file, asked with other conditions, starts a new task)."""
        return (spec["method"], spec["url"], tuple(sorted((k.lower(), v) for k, v in spec.get("headers", []))))

    async def run(self, record, spec):
        entry = {"label": record["label"], "method": spec["method"], "url": spec["url"], "sent": 0, "received": 0,
                 "range": next((v for k, v in spec.get("headers", []) if k.lower() == "range"), None)}
        self.log.append(entry)
        headers = [(k, v) for k, v in spec.get("headers", [])]
        body = open(spec["body"], "rb") if spec.get("body") else None
        try:
            if body is not None:
                entry["sent"] = os.fstat(body.fileno()).st_size
            async with self.session.request(spec["method"], spec["url"], headers=headers, data=body,
                                            allow_redirects=False) as response:
                record["status"] = response.status
                record["headers"] = [[k, v] for k, v in response.headers.items()]
                if record["into"]:
                    with open(record["into"], "wb") as out:
                        async for piece in response.content.iter_chunked(1 << 16):
                            out.write(piece)
                            entry["received"] += len(piece)
                else:
                    data = await response.read()
                    entry["received"] = len(data)
                    record["body"] = base64.b64encode(data).decode()
            record["state"] = "finished"
        except asyncio.CancelledError:
            record["state"], record["error"] = "failed", "cancelled"
            raise
        except Exception as error:  # the task's failure is its result, as a session's is
            record["state"], record["error"] = "failed", f"{type(error).__name__}: {error}"
        finally:
            if body is not None:
                body.close()
            record["done"].set()

    async def list(self, request):
        return web.json_response([self.public(r) for r in self.tasks.values()])

    async def result(self, request):
        record = self.tasks.get(request.match_info["id"])
        if record is None:
            return web.json_response({"error": "no such task"}, status=404)
        await record["done"].wait()
        return web.json_response({**self.public(record), "into": record["into"], "body": record["body"]})

    async def forget(self, request):
        record = self.tasks.pop(request.match_info["id"], None)
        if record is not None and record["label"]:
            self.by_label.pop(record["label"], None)
        return web.Response(status=204)

    async def requests(self, request):
        return web.json_response(self.log)

    @staticmethod
    def public(record):
        return {k: record[k] for k in ("id", "label", "state", "status", "headers", "error")}


def make_app():
    daemon = Daemon()
    app = web.Application()
    app.on_startup.append(daemon.start)
    app.on_cleanup.append(daemon.stop)
    app.add_routes(daemon.routes())
    return app


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()

    async def serve():
        runner = web.AppRunner(make_app())
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", args.port)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]
        print(f"listening on http://127.0.0.1:{port}", flush=True)
        await asyncio.Event().wait()

    asyncio.run(serve())


if __name__ == "__main__":
    main()
