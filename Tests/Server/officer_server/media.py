"""Video transcoding (`POST /api/file-browser/transcode`), as a job: ffmpeg to H.264/AAC in MP4 with the
index first (faststart), so the result plays while it downloads. Progress is the position ffmpeg reports
against the duration ffprobe read first."""
import os

from aiohttp import web

from .engine import output_file, run
from .errors import APIError, bad_request
from .files import body_json, field
from .paths import entry

FORMATS = {"mp4": ["-c:v", "libx264", "-preset", "veryfast", "-crf", "23", "-pix_fmt", "yuv420p",
                   "-c:a", "aac", "-b:a", "128k", "-movflags", "+faststart", "-f", "mp4"]}
TIMEOUT = 6 * 3600


class Media:
    def __init__(self, roots, jobs):
        self.roots = roots
        self.jobs = jobs

    def routes(self):
        return [web.post("/api/file-browser/transcode", self.transcode)]

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
            stem = path.rsplit(".", 1)[0] if "." in path.rsplit("/", 1)[-1] else path
            output = stem + (f".{height}p" if height else "") + "." + fmt
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
            probe = await run("ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", local)
            try:
                duration = float(probe.decode().strip())
            except ValueError:
                raise APIError(415, "not_a_video", f"{path}: ffprobe finds no duration (not a video?)")
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
