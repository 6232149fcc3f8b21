"""One zip of several files and folders (`GET /api/file-browser/zip?path=..&path=..`), streamed and resumable.

The zip is laid out from the listing alone, before a byte of content is read: members stored (no
compression: photos and videos do not shrink, and a stored member's size is known), in the order the paths
were given, each folder's entries sorted by name, times and modes from the files, zip64 fields always. So
the same files give the same bytes, the length is known up front, any byte range can be served at once, and
the strong ETag is a hash of the listing (names, sizes, modification times, inodes): a client resumes with
If-Range like any file, and a changed file changes the ETag. CRC-32s go in data descriptors after each
member, computed while streaming it; a range that begins past a member (or the central directory) reads
that member's CRC from a cache keyed by inode, size and mtime, computing it from the file when missing.
Symbolic links and the server's own temporary files are left out.
"""
import asyncio
import hashlib
import os
import stat
import struct
import time
import zlib

from aiohttp import web

from .errors import APIError, bad_request
from .ranges import select

CHUNK = 256 * 1024
UT_EXTRA = 9
LOCAL_FIXED = 30
CENTRAL_FIXED = 46
ZIP64_LOCAL = 20
ZIP64_CENTRAL = 28
DESCRIPTOR = 24
END = 56 + 20 + 22
FORMAT = b"officer-zip-1"


class Member:
    __slots__ = ("name", "local", "size", "mtime", "mtime_ns", "mode", "ino", "is_dir", "offset", "data_offset")

    def __init__(self, name, local, st):
        self.name = name.encode("utf-8")
        self.local = local
        self.is_dir = stat.S_ISDIR(st.st_mode)
        self.size = 0 if self.is_dir else st.st_size
        self.mtime = int(st.st_mtime)
        self.mtime_ns = st.st_mtime_ns
        self.mode = st.st_mode
        self.ino = st.st_ino

    @property
    def key(self):
        return (self.ino, self.size, self.mtime_ns)


def _dos_time(mtime):
    t = time.gmtime(max(mtime, 315532800))
    return (t.tm_hour << 11) | (t.tm_min << 5) | (t.tm_sec // 2), ((t.tm_year - 1980) << 9) | (t.tm_mon << 5) | t.tm_mday


class ZipLayout:
    """Where every byte of the zip comes from."""

    def __init__(self, members):
        self.members = members
        offset = 0
        for m in members:
            m.offset = offset
            offset += LOCAL_FIXED + len(m.name) + UT_EXTRA + (0 if m.is_dir else ZIP64_LOCAL)
            m.data_offset = offset
            offset += 0 if m.is_dir else m.size + DESCRIPTOR
        self.central_offset = offset
        self.central_size = sum(CENTRAL_FIXED + len(m.name) + ZIP64_CENTRAL + UT_EXTRA for m in members)
        self.size = offset + self.central_size + END
        digest = hashlib.sha256(FORMAT)
        for m in members:
            digest.update(b"%s\0%d\0%d\0%d\0%d\n" % (m.name, m.size, m.mtime_ns, m.mode, m.ino))
        self.etag = '"zip-%s"' % digest.hexdigest()[:32]
        self.mtime = max((m.mtime for m in members), default=0)

    def local_header(self, m):
        t, d = _dos_time(m.mtime)
        ut = struct.pack("<HHBI", 0x5455, 5, 1, m.mtime & 0xFFFFFFFF)
        if m.is_dir:
            return struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0x0800, 0, t, d, 0, 0, 0, len(m.name), UT_EXTRA) + m.name + ut
        zip64 = struct.pack("<HHQQ", 1, 16, 0, 0)
        return (struct.pack("<IHHHHHIIIHH", 0x04034B50, 45, 0x0808, 0, t, d, 0, 0xFFFFFFFF, 0xFFFFFFFF, len(m.name),
                            ZIP64_LOCAL + UT_EXTRA) + m.name + zip64 + ut)

    @staticmethod
    def descriptor(m, crc):
        return struct.pack("<IIQQ", 0x08074B50, crc, m.size, m.size)

    def central_header(self, m, crc):
        t, d = _dos_time(m.mtime)
        attributes = (m.mode & 0xFFFF) << 16 | (0x10 if m.is_dir else 0)
        zip64 = struct.pack("<HHQQQ", 1, 24, m.size, m.size, m.offset)
        ut = struct.pack("<HHBI", 0x5455, 5, 1, m.mtime & 0xFFFFFFFF)
        return (struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, (3 << 8) | 45, 20 if m.is_dir else 45,
                            0x0800 if m.is_dir else 0x0808, 0, t, d, crc, 0xFFFFFFFF, 0xFFFFFFFF, len(m.name),
                            ZIP64_CENTRAL + UT_EXTRA, 0, 0, 0, attributes, 0xFFFFFFFF) + m.name + zip64 + ut)

    def end(self):
        count = len(self.members)
        zip64_end = self.central_offset + self.central_size
        return (struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, 45, 45, 0, 0, count, count, self.central_size,
                            self.central_offset)
                + struct.pack("<IIQI", 0x07064B50, 0, zip64_end, 1)
                + struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 0xFFFF, 0xFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0))


class Zips:
    def __init__(self, roots):
        self.roots = roots
        self.crcs = {}

    def routes(self):
        return [web.get("/api/file-browser/zip", self.zip)]

    def _members(self, root, paths):
        members, names = [], set()
        for path in paths:
            clean, local = self.roots.resolve(root, path, must_exist=True)
            st = os.lstat(local)
            if stat.S_ISLNK(st.st_mode):
                raise bad_request("unsupported_type", f"{clean}: a symbolic link")
            top = os.path.basename(local.rstrip("/")) if clean != "/" else ""
            if top in names:
                raise bad_request("duplicate_name", f"{clean}: a second '{top}' at the top of the zip")
            names.add(top)
            if not stat.S_ISDIR(st.st_mode):
                members.append(Member(top, local, st))
                continue
            if top:
                members.append(Member(top + "/", local, st))
            self._walk(local, top, members)
        if not members:
            raise bad_request("empty", "nothing to put in the zip")
        return members

    def _walk(self, folder, prefix, members):
        try:
            names = sorted(os.listdir(folder), key=lambda n: n.encode("utf-8", "surrogateescape"))
        except PermissionError:
            raise APIError(403, "permission_denied", f"{prefix or '/'}: permission denied")
        for name in names:
            if name.startswith(".officer-upload-"):
                continue
            local = os.path.join(folder, name)
            st = os.lstat(local)
            inner = f"{prefix}/{name}" if prefix else name
            if stat.S_ISDIR(st.st_mode):
                members.append(Member(inner + "/", local, st))
                self._walk(local, inner, members)
            elif stat.S_ISREG(st.st_mode):
                members.append(Member(inner, local, st))

    async def zip(self, request):
        root = request.query.get("root", "home")
        paths = request.query.getall("path", [])
        if not paths:
            raise bad_request("missing_field", "give one or more 'path' parameters")
        loop = asyncio.get_running_loop()
        layout = ZipLayout(await loop.run_in_executor(None, self._members, root, paths))
        name = request.query.get("name") or (
            (os.path.basename(paths[0].rstrip("/")) or "root") + ".zip" if len(paths) == 1 else "download.zip")
        answer = select(request, layout.etag, layout.mtime, layout.size, name, content_type="application/zip")
        if isinstance(answer, web.Response):
            return answer
        start, length, response = answer
        await response.prepare(request)
        if request.method != "HEAD" and length > 0:
            await self._write(response, layout, start, start + length)
        await response.write_eof()
        return response

    async def _crc(self, m):
        crc = self.crcs.get(m.key)
        if crc is None:
            crc = await asyncio.get_running_loop().run_in_executor(None, _file_crc, m)
            self.crcs[m.key] = crc
        return crc

    async def _write(self, response, layout, start, stop):
        """Writes bytes [start, stop) of the zip."""
        async def emit(piece_start, piece):
            lo, hi = max(start, piece_start), min(stop, piece_start + len(piece))
            if lo < hi:
                await response.write(piece[lo - piece_start:hi - piece_start])

        for m in layout.members:
            member_end = m.data_offset + (0 if m.is_dir else m.size + DESCRIPTOR)
            if member_end <= start:
                continue
            if m.offset >= stop:
                return
            await emit(m.offset, layout.local_header(m))
            if m.is_dir:
                continue
            lo, hi = max(start, m.data_offset), min(stop, m.data_offset + m.size)
            whole = lo == m.data_offset and hi == m.data_offset + m.size
            if lo < hi:
                await self._send_file(response, m, lo - m.data_offset, hi - lo, whole)
            if m.data_offset + m.size + DESCRIPTOR > start and m.data_offset + m.size < stop:
                await emit(m.data_offset + m.size, layout.descriptor(m, await self._crc(m)))
        offset = layout.central_offset
        for m in layout.members:
            header_size = CENTRAL_FIXED + len(m.name) + ZIP64_CENTRAL + UT_EXTRA
            if offset + header_size > start and offset < stop:
                await emit(offset, layout.central_header(m, 0 if m.is_dir else await self._crc(m)))
            offset += header_size
            if offset >= stop:
                return
        await emit(offset, layout.end())

    async def _send_file(self, response, m, skip, length, whole):
        crc = 0
        with open(m.local, "rb") as f:
            st = os.fstat(f.fileno())
            if (st.st_ino, st.st_size, st.st_mtime_ns) != m.key:
                # The zip's layout no longer matches the file: cut the answer short rather than send a
                # corrupt zip; the client's retry sees a new ETag.
                raise ConnectionResetError(f"{m.local} changed while zipping")
            f.seek(skip)
            remaining = length
            while remaining > 0:
                chunk = f.read(min(CHUNK, remaining))
                if not chunk:
                    raise ConnectionResetError(f"{m.local} shrank while zipping")
                if whole:
                    crc = zlib.crc32(chunk, crc)
                remaining -= len(chunk)
                await response.write(chunk)
        if whole:
            self.crcs[m.key] = crc


def _file_crc(m):
    crc = 0
    with open(m.local, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            crc = zlib.crc32(chunk, crc)
    return crc
