"""Video transcoding, two ways.

`GET /api/file-browser/transcode?path` (the seed's): the video streamed as ffmpeg makes it, H.264/AAC in
fragmented MP4 (the index up front, then one fragment per keyframe), so a player starts at once and nothing
is stored. Its length is unknown until the end: no Content-Length, no ranges; a transcode that fails midway
cuts the response short, so a client never takes a partial video for a whole one.

`POST /api/file-browser/transcode` (proposed), as a job: a file on the server, MP4 with the index first
(faststart), so the result plays while it downloads. Progress is the position ffmpeg reports against the
duration ffprobe read first."""
import asyncio
import os

from aiohttp import web

from .engine import output_file, run
from .ranges import quote_name
from .errors import APIError, bad_request
from .files import body_json, field
from .paths import entry

FORMATS = {"mp4": ["-c:v", "libx264", "-preset", "veryfast", "-crf", "23", "-pix_fmt", "yuv420p",
                   "-c:a", "aac", "-b:a", "128k", "-movflags", "+faststart", "-f", "mp4"]}
STREAM = ["-c:v", "libx264", "-preset", "veryfast", "-crf", "23", "-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "128k",
          "-movflags", "frag_keyframe+empty_moov+default_base_moof", "-f", "mp4"]
TIMEOUT = 6 * 3600
CHUNK = 256 * 1024


async def _duration(local, path):
    """The video's length in seconds; 415 for a file ffprobe cannot read as one."""
    try:
        probe = await run("ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", local)
        return float(probe.decode().strip())
    except APIError as error:
        if error.code != "engine_failed":
            raise
    except ValueError:
        pass
    raise APIError(415, "not_a_video", f"{path}: ffprobe finds no duration (not a video?)")


async def _height(local):
    """The first video stream's height in pixels; None when ffprobe finds none (the job then says why)."""
    try:
        probe = await run("ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=height",
                          "-of", "csv=p=0", local)
        return int(probe.decode().strip().splitlines()[0])
    except (APIError, ValueError, IndexError):
        return None


def _made_height(asked, source):
    """The height a transcode makes: the one asked, never above the video's own, even (as the scale filter does)."""
    return (min(asked, source) if source else asked) // 2 * 2


class Media:
    def __init__(self, roots, jobs, seed=False):
        self.roots = roots
        self.jobs = jobs
        self.seed = seed

    def routes(self):
        routes = [web.get("/api/file-browser/transcode", self.stream)]
        if not self.seed:
            routes.append(web.post("/api/file-browser/transcode", self.transcode))
        return routes

    async def stream(self, request):
        if "path" not in request.query:
            raise bad_request("missing_field", "missing query parameter 'path'")
        path, local = self.roots.resolve(request.query.get("root", "home"), request.query["path"], must_exist=True)
        if not os.path.isfile(local):
            raise bad_request("not_a_file", f"{path}: not a file")
        # Refused with a status while one can still be sent: not a video, or no ffmpeg.
        await _duration(local, path)
        try:
            process = await asyncio.create_subprocess_exec(
                "ffmpeg", "-nostdin", "-loglevel", "error", "-nostats", "-i", local, "-map", "0:v:0", "-map", "0:a:0?",
                *STREAM, "pipe:1", stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE)
        except FileNotFoundError:
            raise APIError(501, "engine_missing", "ffmpeg is not installed on the server")
        errors = asyncio.ensure_future(process.stderr.read())
        try:
            first = await process.stdout.read(CHUNK)
            if not first:
                await process.wait()
                message = [line for line in (await errors).decode("utf-8", "replace").splitlines() if line.strip()]
                raise APIError(422, "engine_failed",
                               f"ffmpeg failed: {message[-1] if message else 'exit ' + str(process.returncode)}")
            stem = os.path.basename(path).rsplit(".", 1)[0] or "video"
            response = web.StreamResponse(headers={
                "Content-Type": "video/mp4", "Cache-Control": "no-store", "Accept-Ranges": "none",
                "Content-Disposition": "inline; filename*=UTF-8''" + quote_name(stem + ".mp4")})
            response.enable_chunked_encoding()
            await response.prepare(request)
            chunk = first
            while chunk:
                await response.write(chunk)
                chunk = await process.stdout.read(CHUNK)
            if await asyncio.wait_for(process.wait(), TIMEOUT) != 0:
                # The answer has begun: only a cut (no last chunk) can still say the video is not whole.
                request.transport.abort()
                raise ConnectionResetError("transcode failed midway")
            await response.write_eof()
            return response
        finally:
            if process.returncode is None:
                # The client went away (or the server stops): the engine must not run on unowned.
                process.kill()
                await process.wait()
            errors.cancel()

    async def transcode(self, request):
        data = await body_json(request)
        root = field(data, "root", required=False, default="home")
        path, local = self.roots.resolve(root, field(data, "path"), must_exist=True)
        if not os.path.isfile(local):
            raise bad_request("not_a_file", f"{path}: not a file")
        fmt = field(data, "format", required=False, default="mp4")
        if fmt not in FORMATS:
            raise bad_request("invalid_field", f"field 'format' must be one of {', '.join(FORMATS)}")
        height = field(data, "height", int, required=False)
        if height is not None and not 64 <= height <= 4320:
            raise bad_request("invalid_field", "field 'height' must be 64 to 4320")
        output = field(data, "output", required=False)
        if not output:
            # Named by the height made: a 480p video asked at 720 stays 480p, and says so.
            made = _made_height(height, await _height(local)) if height else None
            stem = path.rsplit(".", 1)[0] if "." in path.rsplit("/", 1)[-1] else path
            output = stem + (f".{made}p" if made else "") + "." + fmt
            if output == path:
                output = stem + ".transcoded." + fmt
        out_path, out_local = self.roots.resolve(root, output)
        if os.path.isdir(out_local):
            raise APIError(409, "is_a_directory", f"{out_path}: is a folder")
        overwrite = field(data, "overwrite", bool, required=False, default=False)
        if os.path.exists(out_local) and not overwrite:
            raise APIError(409, "exists", f"{out_path}: already exists")
        if not os.path.isdir(os.path.dirname(out_local)):
            raise APIError(404, "parent_not_found", f"{out_path}: the parent folder does not exist")

        async def work(progress):
            duration = await _duration(local, path)
            progress.update(done=0, total=round(duration, 3), unit="seconds", message="transcoding")

            def on_line(line):
                key, _, value = line.partition("=")
                if key == "out_time_us" and value.strip().isdigit():
                    progress.update(done=min(round(int(value) / 1e6, 3), round(duration, 3)))

            scale = ["-vf", f"scale=-2:'trunc(min({height},ih)/2)*2'"] if height else []
            def still_free():
                if os.path.exists(out_local) and not overwrite:
                    raise APIError(409, "exists", f"{out_path}: already exists")
            async with output_file(out_local, "." + fmt, before_replace=still_free) as tmp_path:
                await run("ffmpeg", "-nostdin", "-y", "-loglevel", "error", "-nostats", "-progress", "pipe:1",
                          "-i", local, "-map", "0:v:0", "-map", "0:a:0?", *scale, *FORMATS[fmt], tmp_path,
                          timeout=TIMEOUT, on_line=on_line)
            progress.update(done=round(duration, 3))
            return {"entry": entry(out_path, out_local), "engine": "ffmpeg"}
        return await self.jobs.respond(request, "transcode", path, work, status=201, always=True)
