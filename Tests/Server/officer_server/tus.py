"""tus 1.0 resumable uploads (proposed in docs/officer-api.md): core, creation, creation-with-upload,
termination, checksum, expiration, concatenation. State lives on disk, so uploads survive a restart."""
import asyncio
import base64
import binascii
import contextlib
import email.utils
import errno
import hashlib
import json
import os
import queue
import threading
import time
import uuid

from aiohttp import web

from .errors import APIError, placement_error
from .files import atomic_write, place, valid_name
from .paths import child_path, entry

BASE = "/api/file-browser/tus"
EXTENSIONS = "creation,creation-with-upload,creation-defer-length,termination,checksum,expiration,concatenation"
# How long a request waits for the upload's previous request to end before answering 423 Locked.
LOCK_WAIT = 10.0
ALGORITHMS = {"sha1": hashlib.sha1, "sha256": hashlib.sha256, "md5": hashlib.md5}


class Hasher:
    """Updates `digest` with the pieces fed to it, in a thread of its own (hashlib releases the GIL). Pieces go to
    the thread in batches of about 4 MiB: a hand-off per ~256 KiB piece cost a third as much CPU as the hashing."""

    BATCH = 4 << 20

    def __init__(self, digest):
        self.digest = digest
        self.queue = queue.Queue(maxsize=4)  # at most ~16 MiB waits; beyond, the loop waits for the hash
        self.pending, self.pending_bytes = [], 0
        self.done = asyncio.get_running_loop().create_future()
        loop = asyncio.get_running_loop()

        def run():
            while (batch := self.queue.get()) is not None:
                for piece in batch:
                    self.digest.update(piece)
            loop.call_soon_threadsafe(lambda: self.done.done() or self.done.set_result(None))

        threading.Thread(target=run, daemon=True).start()

    def feed(self, piece):
        self.pending.append(piece)
        self.pending_bytes += len(piece)
        if self.pending_bytes >= self.BATCH:
            self.queue.put(self.pending)
            self.pending, self.pending_bytes = [], 0

    async def result(self):
        if self.pending:
            self.queue.put(self.pending)
        self.queue.put(None)
        await self.done

    def abandon(self):
        self.queue.put(None)


class Tus:
    def __init__(self, roots, state_dir, max_size, expiry):
        self.roots = roots
        self.dir = os.path.join(state_dir, "tus")
        os.makedirs(self.dir, exist_ok=True)
        self.max_size = max_size
        self.expiry = expiry
        # Terminated while a PATCH may still be running: that PATCH must not bring the upload back.
        self.terminated = set()
        # One request at a time per upload, as tusd does: a client that reconnects after losing its
        # connection must not read an offset while the old PATCH body is still being written.
        self.locks = {}
        self.writers = {}
        self.lock_wait = LOCK_WAIT

    def routes(self):
        return [
            web.options(BASE, self.options), web.post(BASE, self.create),
            web.head(BASE + "/{id}", self.head), web.patch(BASE + "/{id}", self.patch),
            web.delete(BASE + "/{id}", self.terminate), web.options(BASE + "/{id}", self.options),
        ]

    def headers(self, extra=None):
        h = {"Tus-Resumable": "1.0.0", "Cache-Control": "no-store"}
        h.update(extra or {})
        return h

    def error(self, status, code, message):
        return APIError(status, code, message, self.headers())

    def check_version(self, request):
        if request.headers.get("Tus-Resumable") != "1.0.0":
            raise APIError(412, "unsupported_version", "Tus-Resumable: 1.0.0 required",
                           {"Tus-Version": "1.0.0", "Tus-Resumable": "1.0.0"})

    async def options(self, request):
        return web.Response(status=204, headers=self.headers({
            "Tus-Version": "1.0.0", "Tus-Extension": EXTENSIONS, "Tus-Max-Size": str(self.max_size),
            "Tus-Checksum-Algorithm": ",".join(ALGORITHMS)}))

    @contextlib.asynccontextmanager
    async def locked(self, upload_id, writing=False):
        """Holds the upload's lock. A PATCH still holding it belongs to a client that has since come back
        (a client never sends two requests for one upload at once), so it is asked to stop, keeping what
        it verified, as tusd's lock release does; if the lock is still not free in time the answer is 423."""
        self._paths(upload_id)
        lock = self.locks.setdefault(upload_id, asyncio.Lock())
        if lock.locked() and upload_id in self.writers:
            self.writers[upload_id].cancel()
        try:
            await asyncio.wait_for(lock.acquire(), timeout=self.lock_wait)
        except asyncio.TimeoutError:
            raise self.error(423, "locked", "another request for this upload is still running; retry")
        if writing:
            self.writers[upload_id] = asyncio.current_task()
        try:
            yield
        finally:
            self.writers.pop(upload_id, None)
            lock.release()

    # -- state ---------------------------------------------------------------------------------------
    def _paths(self, upload_id):
        if not upload_id or any(c not in "0123456789abcdef" for c in upload_id):
            raise self.error(404, "not_found", "no such upload")
        return os.path.join(self.dir, upload_id + ".json"), os.path.join(self.dir, upload_id + ".part")

    def load(self, upload_id):
        meta_path, part_path = self._paths(upload_id)
        if not os.path.exists(meta_path):
            raise self.error(404, "not_found", "no such upload")
        with open(meta_path) as f:
            state = json.load(f)
        if state["expires"] < time.time() and not state.get("done"):
            self._delete(upload_id)
            raise self.error(410, "expired", "upload expired; start a new one")
        state["offset"] = os.path.getsize(part_path) if os.path.exists(part_path) else state.get("offset", 0)
        return state

    def save(self, state):
        if state["id"] in self.terminated:
            raise self.error(404, "not_found", "upload terminated")
        meta_path, _ = self._paths(state["id"])
        tmp = meta_path + ".tmp"
        with open(tmp, "w") as f:
            json.dump(state, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, meta_path)

    def _delete(self, upload_id):
        for path in self._paths(upload_id):
            if os.path.exists(path):
                os.unlink(path)

    def parse_metadata(self, header):
        meta = {}
        if not header:
            return meta
        for pair in header.split(","):
            pair = pair.strip()
            if not pair:
                continue
            key, _, value = pair.partition(" ")
            try:
                meta[key] = base64.b64decode(value, validate=True).decode("utf-8") if value else ""
            except (binascii.Error, UnicodeDecodeError):
                raise self.error(400, "invalid_metadata", f"Upload-Metadata value of '{key}' is not base64 UTF-8")
        return meta

    def destination(self, meta):
        root = meta.get("root", "home")
        folder = meta.get("path", "/")
        name = valid_name(meta.get("filename", ""))
        path, local = self.roots.resolve(root, child_path(self.roots.normalize(folder), name))
        return root, path, local

    def expires_header(self, state):
        return email.utils.formatdate(state["expires"], usegmt=True)

    # -- handlers ------------------------------------------------------------------------------------
    async def create(self, request):
        self.check_version(request)
        concat = request.headers.get("Upload-Concat", "")
        meta = self.parse_metadata(request.headers.get("Upload-Metadata"))
        upload_id = uuid.uuid4().hex
        state = {"id": upload_id, "meta": meta, "expires": time.time() + self.expiry, "partial": concat == "partial",
                 "offset": 0}
        if concat.startswith("final;"):
            return await self._create_final(request, state, concat[6:].split())
        if "Upload-Length" in request.headers:
            length = self._length(request.headers["Upload-Length"], 0)
        elif request.headers.get("Upload-Defer-Length") == "1" and not state["partial"]:
            # creation-defer-length: a stream of unknown length (a pipe); its PATCHes say the length once known.
            length = None
        else:
            raise self.error(400, "missing_length", "Upload-Length (or Upload-Defer-Length: 1) required")
        state["length"] = length
        if not state["partial"]:
            root, path, local = self.destination(meta)
            self._check_target(path, local, meta)
            state["target"] = {"root": root, "path": path}
        open(self._paths(upload_id)[1], "wb").close()
        self.save(state)
        headers = {"Location": f"{BASE}/{upload_id}", "Upload-Expires": self.expires_header(state)}
        if request.content_length and request.content_type == "application/offset+octet-stream":
            try:
                state = await self._append(request, state, self.digest(request))
            except BaseException:
                # Refused (a checksum that does not match, no room) or cut: the client got no Location, so the
                # upload could never be continued or terminated; it goes now rather than when it expires.
                self._delete(upload_id)
                raise
            headers["Upload-Offset"] = str(state["offset"])
        elif length == 0:
            state = self._finish(state, 0)
            headers["Upload-Offset"] = "0"
        return web.Response(status=201, headers=self.headers(headers))

    def _length(self, header, offset):
        try:
            length = int(header)
        except ValueError:
            raise self.error(400, "invalid_length", "Upload-Length must be a number")
        if length < offset:
            raise self.error(400, "invalid_length", f"Upload-Length must be at least {offset}")
        if length > self.max_size:
            raise self.error(413, "too_large", f"Upload-Length exceeds Tus-Max-Size {self.max_size}")
        return length

    def _check_target(self, path, local, meta):
        if not os.path.isdir(os.path.dirname(local)):
            raise self.error(404, "parent_not_found", f"{path}: parent folder does not exist")
        if os.path.isdir(local):
            raise self.error(409, "is_a_directory", f"{path}: is a folder")
        if os.path.lexists(local) and meta.get("overwrite") not in ("true", "1"):
            raise self.error(409, "exists", f"{path}: already exists (set overwrite in Upload-Metadata)")

    async def _create_final(self, request, state, urls):
        parts = []
        for url in urls:
            part_id = url.rstrip("/").rsplit("/", 1)[-1]
            part = self.load(part_id)
            if not part.get("partial"):
                raise self.error(400, "not_partial", f"{url}: not a partial upload")
            if part["offset"] != part["length"]:
                raise self.error(400, "incomplete_part", f"{url}: partial upload is not complete")
            parts.append(part)
        root, path, local = self.destination(state["meta"])
        self._check_target(path, local, state["meta"])
        state.update({"target": {"root": root, "path": path}, "length": sum(p["length"] for p in parts)})

        def chunks():
            for part in parts:
                with open(self._paths(part["id"])[1], "rb") as f:
                    yield from iter(lambda: f.read(1 << 20), b"")

        # On a failure the parts stay as they were: the client can send the same final request again.
        place(path, local, chunks(), self._mtime(state["meta"]), self.headers())
        for part in parts:
            self._delete(part["id"])
        state.update({"done": True, "final": True, "offset": state["length"]})
        self.save(state)
        return web.Response(status=201, headers=self.headers({"Location": f"{BASE}/{state['id']}",
                                                              "Upload-Offset": str(state["length"])}))

    async def head(self, request):
        self.check_version(request)
        async with self.locked(request.match_info["id"]):
            state = self.load(request.match_info["id"])
        headers = {"Upload-Offset": str(state["offset"]), "Upload-Expires": self.expires_header(state)}
        if state["length"] is None:
            headers["Upload-Defer-Length"] = "1"
        else:
            headers["Upload-Length"] = str(state["length"])
        if state.get("partial"):
            headers["Upload-Concat"] = "partial"
        if state["meta"]:
            headers["Upload-Metadata"] = ",".join(
                f"{k} {base64.b64encode(v.encode()).decode()}" for k, v in state["meta"].items())
        return web.Response(status=200, headers=self.headers(headers))

    async def patch(self, request):
        self.check_version(request)
        if request.content_type != "application/offset+octet-stream":
            raise self.error(415, "unsupported_media_type", "PATCH needs Content-Type: application/offset+octet-stream")
        async with self.locked(request.match_info["id"], writing=True):
            return await self._patch(request)

    async def _patch(self, request):
        state = self.load(request.match_info["id"])
        if state.get("final"):
            raise self.error(403, "final", "a concatenated (final) upload cannot be patched")
        try:
            offset = int(request.headers.get("Upload-Offset", ""))
        except ValueError:
            raise self.error(400, "invalid_offset", "Upload-Offset must be a number")
        if state.get("done") and offset == state["offset"]:
            # Complete already (another client sharing this upload finished it): nothing to append, as tusd answers.
            # An offset behind the end is an ordinary 409; the client's HEAD then reads the full length.
            return web.Response(status=204, headers=self.headers({"Upload-Offset": str(state["offset"]),
                                                                  "Upload-Expires": self.expires_header(state)}))
        if offset != state["offset"]:
            raise self.error(409, "offset_mismatch", f"Upload-Offset {offset} but the server has {state['offset']}")
        if "Upload-Length" in request.headers:
            length = self._length(request.headers["Upload-Length"], offset)
            if state["length"] is not None and length != state["length"]:
                raise self.error(400, "invalid_length", "Upload-Length is already set")
            state["length"] = length
        state = await self._append(request, state, self.digest(request))
        return web.Response(status=204, headers=self.headers({"Upload-Offset": str(state["offset"]),
                                                              "Upload-Expires": self.expires_header(state)}))

    def digest(self, request):
        """This request's body checksum as (algorithm, expected base64), or None: tus's `Upload-Checksum`."""
        checksum = request.headers.get("Upload-Checksum")
        if not checksum:
            return None
        algorithm, _, expected = checksum.partition(" ")
        return algorithm, expected

    def checksum_mismatch(self):
        return self.error(460, "checksum_mismatch", "Upload-Checksum does not match the body")

    async def _append(self, request, state, checksum=None):
        digest = None
        if checksum:
            algorithm, expected = checksum
            if algorithm not in ALGORITHMS:
                raise self.error(400, "unsupported_checksum", f"checksum algorithm '{algorithm}' not supported")
            digest = ALGORITHMS[algorithm]()
        _, part_path = self._paths(state["id"])
        start = state["offset"]
        received = 0
        # The checksum is computed by a thread of its own fed through a queue while the body arrives: one hand-off
        # per piece through an asyncio future costs more than the hashing itself (pieces are ~256 KiB).
        hasher = Hasher(digest) if digest else None
        with open(part_path, "r+b") as f:
            f.seek(start)
            try:
                async for chunk in request.content.iter_chunked(1 << 20):
                    if start + received + len(chunk) > (self.max_size if state["length"] is None else state["length"]):
                        f.truncate(start)
                        raise self.error(413, "too_large", "body goes past Upload-Length")
                    f.write(chunk)
                    received += len(chunk)
                    if hasher:
                        hasher.feed(chunk)
                if hasher:
                    await hasher.result()
            except BaseException:
                if hasher:
                    hasher.abandon()
                if digest:
                    # A checksummed chunk counts only whole and verified: drop what arrived of it.
                    f.truncate(start)
                raise
            finally:
                if not digest:
                    # Without a checksum, bytes that arrived before a broken connection are kept (tus core).
                    f.flush()
                    os.fsync(f.fileno())
            if digest:
                try:
                    good = base64.b64decode(expected, validate=True) == digest.digest()
                except binascii.Error:
                    good = False
                if not good:
                    f.truncate(start)
                    raise self.checksum_mismatch()
                f.flush()
                os.fsync(f.fileno())
        state["offset"] = start + received
        if state["length"] is not None and state["offset"] == state["length"] and not state.get("partial"):
            state = self._finish(state, start)
        else:
            self.save(state)
        return state

    def _mtime(self, meta):
        try:
            return float(meta["mtime"]) if meta.get("mtime") else None
        except ValueError:
            return None

    def _finish(self, state, start):
        """Puts the finished upload under its final name. If that fails, the bytes of the request that completed it
        (from `start` on) are dropped again, so no HEAD ever reports complete an upload the server does not hold:
        the client sees the error, and a retry of that request (once there is room, or the folder is back) finishes."""
        _, part_path = self._paths(state["id"])
        target = state["target"]
        path = target["path"]
        try:
            path, local = self.roots.resolve(target["root"], target["path"])
            mtime = self._mtime(state["meta"])
            os.chmod(part_path, 0o644)
            if mtime is not None:
                os.utime(part_path, (mtime, mtime))
            try:
                os.replace(part_path, local)
            except OSError as error:
                if error.errno != errno.EXDEV:
                    raise
                # The state folder is on another device than the root: copy, through a temp file beside the target.
                with open(part_path, "rb") as f:
                    atomic_write(local, iter(lambda: f.read(1 << 20), b""), mtime)
                os.unlink(part_path)
        except BaseException as error:
            self._rewind(state, start)
            if isinstance(error, OSError):
                raise placement_error(error, path, self.headers()) from error
            raise
        state.update({"done": True, "entry": entry(path, local)})
        self.save(state)
        return state

    def _rewind(self, state, start):
        _, part_path = self._paths(state["id"])
        if os.path.exists(part_path):
            with open(part_path, "r+b") as f:
                f.truncate(start)
                os.fsync(f.fileno())
        state["offset"] = start
        self.save(state)

    async def terminate(self, request):
        self.check_version(request)
        upload_id = request.match_info["id"]
        async with self.locked(upload_id):
            self.load(upload_id)
            self.terminated.add(upload_id)
            self._delete(upload_id)
        self.locks.pop(upload_id, None)
        return web.Response(status=204, headers=self.headers())
