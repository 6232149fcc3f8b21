"""Background jobs: long operations answer 202 with a job that clients follow at /api/jobs/{id}.

A job's record is a JSON file in the state folder, rewritten on every change of state (and at most once a
second for progress), so jobs outlive a client and the server's restart. A job that was queued or running
when the server stopped comes back as failed (`server_restarted`): the work ran in this process and its
partial output was cleaned up with it, so claiming it resumes would be a lie.
"""
import asyncio
import json
import os
import secrets
import time

from aiohttp import web

from .errors import APIError, bad_request
from .files import json_response

STATES = ("queued", "running", "done", "failed", "cancelled")
FINISHED = ("done", "failed", "cancelled")
WAIT_LIMIT = 30.0
KEEP_SECONDS = 7 * 86400


class Progress:
    """What a job's work reports while it runs: done of total in a unit, and a message."""

    def __init__(self, jobs, job):
        self._jobs, self._job = jobs, job

    def update(self, done=None, total=None, unit=None, message=None):
        progress = self._job["progress"]
        if done is not None:
            progress["done"] = done
        if total is not None:
            progress["total"] = total
        if unit is not None:
            progress["unit"] = unit
        if message is not None:
            progress["message"] = message
        self._jobs.changed(self._job, persist=False)


class SilentProgress:
    """Progress nobody follows: the work runs within its request."""

    def update(self, done=None, total=None, unit=None, message=None):
        pass


class Jobs:
    def __init__(self, state_dir, owner_of, concurrency=2, async_after=20.0, synchronous=False):
        self.owner_of = owner_of
        # The seed's server has no jobs: every call answers when its work is done, however long it takes.
        self.synchronous = synchronous
        self.folder = os.path.join(state_dir, "jobs")
        os.makedirs(self.folder, exist_ok=True)
        self.async_after = async_after
        self.jobs = {}
        self.tasks = {}
        self.signals = {}
        self.last_saved = {}
        self.slots = None
        self.concurrency = concurrency
        self._load()

    def routes(self):
        return [web.get("/api/jobs", self.list), web.get("/api/jobs/{id}", self.get),
                web.delete("/api/jobs/{id}", self.cancel)]

    # MARK: records

    def _load(self):
        now = time.time()
        for name in os.listdir(self.folder):
            if not name.endswith(".json"):
                continue
            path = os.path.join(self.folder, name)
            try:
                with open(path) as f:
                    job = json.load(f)
            except (OSError, ValueError):
                os.unlink(path)
                continue
            if job["state"] in FINISHED and now - job["updated"] > KEEP_SECONDS:
                os.unlink(path)
                continue
            if job["state"] not in FINISHED:
                job["state"] = "failed"
                job["error"] = {"status": 500, "code": "server_restarted",
                                "message": "the server restarted while this job ran; nothing of it was kept, run it again"}
                job["updated"] = now
                job["revision"] += 1
                self._save(job)
            self.jobs[job["id"]] = job

    def _save(self, job):
        path = os.path.join(self.folder, job["id"] + ".json")
        tmp = path + ".tmp"
        with open(tmp, "w") as f:
            json.dump(job, f)
        os.replace(tmp, path)
        self.last_saved[job["id"]] = time.monotonic()

    def changed(self, job, persist=True):
        job["revision"] += 1
        job["updated"] = time.time()
        if persist or time.monotonic() - self.last_saved.get(job["id"], 0) >= 1.0:
            self._save(job)
        signal = self.signals.pop(job["id"], None)
        if signal:
            signal.set()

    def public(self, job):
        return {key: value for key, value in job.items() if key != "owner"}

    # MARK: running

    def start(self, owner, kind, target, work):
        """Starts `work(progress)` as a job; it returns the result body or raises APIError."""
        if self.slots is None:
            self.slots = asyncio.Semaphore(self.concurrency)
        now = time.time()
        job = {"id": secrets.token_hex(8), "owner": owner, "kind": kind, "target": target, "state": "queued",
               "created": now, "updated": now, "revision": 0,
               "progress": {"done": 0, "total": None, "unit": "percent", "message": "queued"}}
        self.jobs[job["id"]] = job
        self._save(job)
        self.tasks[job["id"]] = asyncio.get_running_loop().create_task(self._run(job, work))
        return job

    async def _run(self, job, work):
        try:
            async with self.slots:
                job["state"] = "running"
                job["progress"]["message"] = "running"
                self.changed(job)
                result = await work(Progress(self, job))
            job["state"], job["result"] = "done", result
            job["progress"]["message"] = "done"
        except asyncio.CancelledError:
            job["state"] = "cancelled"
            job["progress"]["message"] = "cancelled"
        except APIError as error:
            job["state"] = "failed"
            job["error"] = {"status": error.status, "code": error.code, "message": error.message}
        except Exception as error:  # the job's record must say it failed, whatever went wrong
            job["state"] = "failed"
            job["error"] = {"status": 500, "code": "job_failed", "message": f"{job['kind']}: {error}"}
        finally:
            self.tasks.pop(job["id"], None)
            self.changed(job)
        return job

    async def respond(self, request, kind, target, work, status=200, always=False):
        """Runs `work` as a job; answers with its result if it ends within `async_after` seconds (and not
        `always`), else 202 with the job so the client follows it. A synchronous server (`--api seed`) runs
        `work` within the request and answers with its result or error: no job is kept, none is followed."""
        if self.synchronous:
            return json_response(await work(SilentProgress()), status=status)
        job = self.start(self.owner_of(request), kind, target, work)
        if not always:
            task = self.tasks.get(job["id"])
            if task is not None:
                await asyncio.wait([task], timeout=self.async_after)
            if job["state"] == "done":
                self.forget(job)
                return json_response(job["result"], status=status)
            if job["state"] == "failed":
                self.forget(job)
                error = job["error"]
                raise APIError(error["status"], error["code"], error["message"])
        return web.json_response({"job": self.public(job)}, status=202, headers={"Location": "/api/jobs/" + job["id"]})

    def forget(self, job):
        """A job answered synchronously is nobody's to follow."""
        self.jobs.pop(job["id"], None)
        try:
            os.unlink(os.path.join(self.folder, job["id"] + ".json"))
        except FileNotFoundError:
            pass

    # MARK: endpoints

    def _owned(self, request):
        owner = self.owner_of(request)
        job = self.jobs.get(request.match_info["id"])
        if job is None or job["owner"] != owner:
            raise APIError(404, "not_found", f"job {request.match_info['id']}: no such job")
        return job

    async def list(self, request):
        owner = self.owner_of(request)
        jobs = sorted((j for j in self.jobs.values() if j["owner"] == owner), key=lambda j: j["created"])
        return json_response({"jobs": [self.public(j) for j in jobs]})

    async def get(self, request):
        job = self._owned(request)
        try:
            wait = min(float(request.query.get("wait", "0")), WAIT_LIMIT)
            seen = int(request.query.get("revision", "-1"))
        except ValueError:
            raise bad_request("invalid_field", "wait must be seconds and revision a number")
        if wait > 0 and job["revision"] <= seen and job["state"] not in FINISHED:
            signal = self.signals.setdefault(job["id"], asyncio.Event())
            try:
                await asyncio.wait_for(signal.wait(), wait)
            except asyncio.TimeoutError:
                pass
        return json_response({"job": self.public(job)})

    async def cancel(self, request):
        job = self._owned(request)
        task = self.tasks.get(job["id"])
        if task is not None:
            task.cancel()
            try:
                await task
            except asyncio.CancelledError:
                pass
        return json_response({"job": self.public(job)})
