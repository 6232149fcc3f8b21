"""Server-side archive extraction (`POST /api/file-browser/extract`), as a job.

The server enforces its own safety whatever the client checked: every member must land inside the
destination (no absolute or `..` names, no links or devices), encrypted members are refused, and the
entry count and total size are capped (declared sizes are checked first, bytes written are counted too,
so an archive that lies about its sizes stops at the cap). Members are written into a hidden staging
folder beside the destination that is renamed into place at the end: a failed or cancelled extraction
leaves nothing.
"""
import asyncio
import os
import shutil
import stat
import tarfile
import tempfile
import threading
import time
import zipfile

from aiohttp import web

from .errors import APIError, bad_request
from .files import body_json, field
from .paths import entry

SUFFIXES = (".tar.gz", ".tar.bz2", ".tar.xz", ".tar.zst", ".tgz", ".tbz2", ".txz", ".zip", ".tar")
CHUNK = 1 << 20


def default_destination(path):
    name = path.rsplit("/", 1)[-1].lower()
    for suffix in SUFFIXES:
        if name.endswith(suffix) and len(name) > len(suffix):
            return path[:-len(suffix)]
    return path + ".contents"


class Cancelled(Exception):
    pass


class Archives:
    def __init__(self, roots, jobs, max_entries=100_000, max_bytes=64 << 30):
        self.roots = roots
        self.jobs = jobs
        self.max_entries = max_entries
        self.max_bytes = max_bytes

    def routes(self):
        return [web.post("/api/file-browser/extract", self.extract)]

    async def extract(self, request):
        data = await body_json(request)
        root = field(data, "root", required=False, default="home")
        path, local = self.roots.resolve(root, field(data, "path"), must_exist=True)
        if not os.path.isfile(local):
            raise bad_request("not_a_file", f"{path}: not a file")
        dest_path, dest_local = self.roots.resolve(root, field(data, "to", required=False) or default_destination(path))
        if os.path.lexists(dest_local):
            raise APIError(409, "exists", f"{dest_path}: already exists")
        if not os.path.isdir(os.path.dirname(dest_local)):
            raise APIError(404, "parent_not_found", f"{dest_path}: the parent folder does not exist")
        # Everything that can be refused from the member list is refused now, before a job exists.
        members = self._members(local, path)

        async def work(progress):
            loop = asyncio.get_running_loop()
            cancel = threading.Event()
            total = sum(m[2] for m in members)
            progress.update(done=0, total=total, unit="bytes", message=f"extracting {len(members)} entries")

            def report(done):
                loop.call_soon_threadsafe(progress.update, done)
            staging = tempfile.mkdtemp(prefix=".officer-upload-", dir=os.path.dirname(dest_local))
            try:
                extraction = loop.run_in_executor(None, self._extract, local, path, staging, report, cancel)
                try:
                    count = await asyncio.shield(extraction)
                except asyncio.CancelledError:
                    # The thread must have stopped writing before its staging folder is removed.
                    cancel.set()
                    await asyncio.wait([extraction])
                    raise
                if os.path.lexists(dest_local):
                    raise APIError(409, "exists", f"{dest_path}: already exists")
                os.rename(staging, dest_local)
            finally:
                if os.path.exists(staging):
                    await loop.run_in_executor(None, shutil.rmtree, staging, True)
            return {"entry": entry(dest_path, dest_local), "extracted": count}
        return await self.jobs.respond(request, "extract", path, work, status=201)

    # MARK: checks

    def _members(self, local, label):
        """[(name, kind, size)] after the safety rules and caps; raises APIError for an archive to refuse."""
        members = []
        if zipfile.is_zipfile(local):
            with zipfile.ZipFile(local) as z:
                for info in z.infolist():
                    mode = info.external_attr >> 16
                    if info.flag_bits & 0x1:
                        raise APIError(422, "encrypted", f"{label}: member {info.filename!r} is encrypted")
                    if stat.S_ISLNK(mode):
                        raise bad_request("unsafe_archive", f"{label}: member {info.filename!r} is a link")
                    members.append((info.filename, "dir" if info.is_dir() else "file", info.file_size))
        else:
            try:
                with tarfile.open(local) as t:
                    for m in t:
                        if not (m.isfile() or m.isdir()):
                            raise bad_request("unsafe_archive", f"{label}: member {m.name!r} is a link or device")
                        members.append((m.name, "dir" if m.isdir() else "file", m.size))
            except tarfile.TarError:
                raise APIError(415, "not_an_archive", f"{label}: not a zip or tar archive")
        for name, _, _ in members:
            parts = name.replace("\\", "/").split("/")
            if name.startswith("/") or name.startswith("\\") or ".." in parts or "\x00" in name or (
                    len(name) > 1 and name[1] == ":"):
                raise bad_request("unsafe_archive", f"{label}: member {name!r} would land outside the folder")
        if len(members) > self.max_entries:
            raise APIError(413, "too_many_entries",
                           f"{label}: {len(members)} entries, more than the server extracts ({self.max_entries})")
        total = sum(m[2] for m in members)
        if total > self.max_bytes:
            raise APIError(413, "too_large", f"{label}: {total} bytes unpacked, more than the server extracts ({self.max_bytes})")
        free = shutil.disk_usage(os.path.dirname(local)).free
        if total > free:
            raise APIError(507, "insufficient_storage", f"{label}: needs {total} bytes, the server has {free} free")
        return members

    # MARK: extraction (on a thread)

    def _extract(self, local, label, staging, report, cancel):
        written = [0]
        last = [0.0]

        def copy(source, target, mtime):
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "wb") as out:
                while True:
                    if cancel.is_set():
                        raise Cancelled()
                    chunk = source.read(CHUNK)
                    if not chunk:
                        break
                    written[0] += len(chunk)
                    if written[0] > self.max_bytes:
                        raise APIError(413, "too_large", f"{label}: unpacks to more than {self.max_bytes} bytes")
                    out.write(chunk)
                    if time.monotonic() - last[0] > 0.2:
                        last[0] = time.monotonic()
                        report(written[0])
            os.utime(target, (mtime, mtime))

        def inside(name):
            target = os.path.realpath(os.path.join(staging, name))
            if not target.startswith(os.path.realpath(staging) + os.sep):
                raise bad_request("unsafe_archive", f"{label}: member {name!r} would land outside the folder")
            return target

        count = 0
        try:
            if zipfile.is_zipfile(local):
                with zipfile.ZipFile(local) as z:
                    for info in z.infolist():
                        target = inside(info.filename.rstrip("/") or ".")
                        if info.is_dir():
                            os.makedirs(target, exist_ok=True)
                        else:
                            mtime = time.mktime(info.date_time + (0, 0, -1))
                            with z.open(info) as source:
                                copy(source, target, mtime)
                        count += 1
            else:
                with tarfile.open(local) as t:
                    for m in t:
                        target = inside(m.name.rstrip("/") or ".")
                        if m.isdir():
                            os.makedirs(target, exist_ok=True)
                        else:
                            with t.extractfile(m) as source:
                                copy(source, target, m.mtime)
                        count += 1
        except (zipfile.BadZipFile, tarfile.TarError, EOFError, OSError) as error:
            if isinstance(error, OSError) and error.errno == 28:
                raise APIError(507, "insufficient_storage", f"{label}: the server's disk is full")
            raise APIError(422, "corrupt_archive", f"{label}: {error}")
        report(written[0])
        return count
