"""Thumbnails (proposed endpoint): GET /api/file-browser/thumbnail?path=&root=&size=

Images and PDFs (first page) through vipsthumbnail (libvips, shrink-on-load), a video's first frame through
ffmpeg then vipsthumbnail. The answer is a JPEG whose longest edge is at most `size` (16-1024, default 256),
with an ETag made from the file's version and the size, so a client can keep it; 415 for a file that has no
picture. Each thumbnail is made once per version and size and kept in the state folder."""
import asyncio
import hashlib
import os
import tempfile

from aiohttp import web

from .errors import APIError, bad_request
from .ranges import etag_for

VIDEO = {".mp4", ".mkv", ".mov", ".webm", ".avi", ".m4v"}
PICTURE = {".jpg", ".jpeg", ".png", ".webp", ".gif", ".tif", ".tiff", ".heic", ".heif", ".avif", ".pdf"}


class Thumbnails:
    def __init__(self, files, state_dir):
        self.files = files
        self.folder = os.path.join(state_dir, "thumbnails")
        self.making = {}

    def routes(self):
        return [web.get("/api/file-browser/thumbnail", self.thumbnail)]

    async def thumbnail(self, request):
        path, local = self.files._query(request)
        if os.path.isdir(local):
            raise bad_request("is_a_directory", f"{path}: is a folder")
        try:
            size = int(request.query.get("size", "256"))
        except ValueError:
            raise bad_request("invalid_field", "size must be a number of pixels")
        if not 16 <= size <= 1024:
            raise bad_request("invalid_field", "size must be from 16 to 1024")
        ext = os.path.splitext(local)[1].lower()
        if ext not in PICTURE and ext not in VIDEO:
            raise APIError(415, "no_thumbnail", f"{path}: has no picture to show")
        st = os.stat(local)
        etag = '"%s"' % hashlib.sha256(f"{etag_for(st)}|{size}".encode()).hexdigest()[:32]
        headers = {"ETag": etag, "Cache-Control": "private, max-age=3600"}
        inm = request.headers.get("If-None-Match")
        if inm and etag in [t.strip() for t in inm.split(",")]:
            return web.Response(status=304, headers=headers)
        os.makedirs(self.folder, exist_ok=True)
        out = os.path.join(self.folder, etag.strip('"') + ".jpg")
        if not os.path.exists(out):
            # One maker per thumbnail: a second request for the same one waits for the first.
            task = self.making.get(out)
            if task is None:
                task = asyncio.ensure_future(self._make(local, ext, size, out))
                self.making[out] = task
                task.add_done_callback(lambda _: self.making.pop(out, None))
            if not await task:
                raise APIError(415, "no_thumbnail", f"{path}: no picture could be made of it")
        with open(out, "rb") as f:
            body = f.read()
        return web.Response(body=body, content_type="image/jpeg", headers=headers)

    async def _make(self, local, ext, size, out):
        with tempfile.TemporaryDirectory(dir=self.folder) as work:
            source = local
            if ext in VIDEO:
                source = os.path.join(work, "frame.png")
                if not await run("ffmpeg", "-nostdin", "-loglevel", "error", "-i", local, "-frames:v", "1", source):
                    return False
            elif ext == ".pdf":
                source = local + "[page=0]"
            made = os.path.join(work, "thumb.jpg")
            # ">" only shrinks: a picture smaller than the size is never blown up.
            if not await run("vipsthumbnail", source, "--size", f"{size}x{size}>", "-o", made + "[Q=80,strip]"):
                return False
            os.replace(made, out)
            return True


async def run(*argv):
    process = await asyncio.create_subprocess_exec(
        *argv, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL)
    return await process.wait() == 0
