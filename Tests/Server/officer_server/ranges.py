"""Serving file bytes with Range, strong ETag, Last-Modified, If-Range and If-None-Match."""
import email.utils
import os

from aiohttp import web

CHUNK = 256 * 1024


def etag_for(st) -> str:
    return '"%x-%x-%x"' % (st.st_size, st.st_mtime_ns, st.st_ino)


def parse_range(header: str, size: int):
    """Returns (start, end_inclusive), None for 'ignore', or 'unsatisfiable'."""
    if not header or not header.startswith("bytes=") or "," in header:
        return None  # absent, foreign unit or multi-range: serve the whole file
    spec = header[6:].strip()
    first, _, last = spec.partition("-")
    try:
        if first == "":
            length = int(last)
            if length <= 0:
                return "unsatisfiable"
            return (max(0, size - length), size - 1) if size > 0 else "unsatisfiable"
        start = int(first)
        end = int(last) if last else size - 1
    except ValueError:
        return None
    if start >= size or end < start:
        return "unsatisfiable"
    return (start, min(end, size - 1))


async def serve_file(request: web.Request, local: str, download_name: str = None) -> web.StreamResponse:
    st = os.stat(local)
    answer = select(request, etag_for(st), st.st_mtime, st.st_size, download_name)
    if isinstance(answer, web.Response):
        return answer
    start, length, response = answer
    await response.prepare(request)
    if request.method == "HEAD":
        return response
    with open(local, "rb") as f:
        f.seek(start)
        remaining = length
        while remaining > 0:
            chunk = f.read(min(CHUNK, remaining))
            if not chunk:
                break
            remaining -= len(chunk)
            await response.write(chunk)
    await response.write_eof()
    return response


def select(request, etag, mtime, size, download_name=None, content_type="application/octet-stream"):
    """Applies the validators and the Range of `request` to a body of `size` bytes: a finished answer
    (412, 304, 416), or (start, length, an unprepared StreamResponse with the headers)."""
    last_modified = email.utils.formatdate(mtime, usegmt=True)
    headers = {"ETag": etag, "Last-Modified": last_modified, "Accept-Ranges": "bytes", "Cache-Control": "no-cache"}
    if download_name:
        headers["Content-Disposition"] = "attachment; filename*=UTF-8''" + quote_name(download_name)
    if_match = request.headers.get("If-Match")
    if if_match and if_match.strip() != "*" and etag not in [t.strip() for t in if_match.split(",")]:
        # A reader that fetches a file in pieces asks each piece of the version it began with.
        return web.Response(status=412, headers=headers)
    inm = request.headers.get("If-None-Match")
    if inm and (inm.strip() == "*" or etag in [t.strip() for t in inm.split(",")]):
        return web.Response(status=304, headers=headers)
    rng = parse_range(request.headers.get("Range"), size)
    if_range = request.headers.get("If-Range")
    if rng is not None and if_range:
        # A weak or stale validator means the client's partial copy is of another version: send it all.
        if if_range.startswith('"') or if_range.startswith("W/"):
            if if_range != etag:
                rng = None
        elif if_range != last_modified:
            rng = None
    if rng == "unsatisfiable":
        headers["Content-Range"] = f"bytes */{size}"
        return web.Response(status=416, headers=headers)
    if rng is None:
        start, end, status = 0, size - 1, 200
    else:
        (start, end), status = rng, 206
        headers["Content-Range"] = f"bytes {start}-{end}/{size}"
    length = max(0, end - start + 1)
    headers["Content-Length"] = str(length)
    headers["Content-Type"] = content_type
    return start, length, web.StreamResponse(status=status, headers=headers)


def quote_name(name: str) -> str:
    from urllib.parse import quote
    return quote(name, safe="")
