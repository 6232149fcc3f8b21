"""Runs the server's engines (tesseract, ffmpeg, git, yt-dlp ...) as subprocesses: a clear error when one is
missing, fails or runs too long, the process killed when the request or job is cancelled, and progress read
from its output line by line."""
import asyncio
import contextlib
import os
import re
import tempfile

from .errors import APIError

TIMEOUT = 120
LINE_BREAK = re.compile(rb"[\r\n]")


async def run(*argv, stdin=None, timeout=TIMEOUT, on_line=None, progress_stream="stdout", env=None, cwd=None, name=None):
    """Runs argv and returns its stdout. `on_line(text)` gets each line (split at CR or LF: progress bars
    redraw with CR) of `progress_stream` while it runs; `name` is the engine's name in errors (argv[0])."""
    name = name or argv[0]
    try:
        process = await asyncio.create_subprocess_exec(
            *argv, stdin=asyncio.subprocess.PIPE if stdin is not None else asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, env=env, cwd=cwd)
    except FileNotFoundError:
        raise APIError(501, "engine_missing", f"{name} is not installed on the server")
    try:
        if on_line is None:
            out, err = await asyncio.wait_for(process.communicate(stdin), timeout)
        else:
            out, err = await asyncio.wait_for(_follow(process, on_line, progress_stream), timeout)
    except asyncio.TimeoutError:
        process.kill()
        await process.wait()
        raise APIError(504, "engine_timeout", f"{name} took longer than {timeout:.0f}s")
    except BaseException:
        # Cancelled (a job's DELETE, the server stopping): the engine must not run on unowned.
        if process.returncode is None:
            process.kill()
            await process.wait()
        raise
    if process.returncode != 0:
        message = [line for line in err.decode("utf-8", "replace").strip().splitlines() if line.strip()]
        raise APIError(422, "engine_failed", f"{name} failed: {message[-1] if message else 'exit ' + str(process.returncode)}")
    return out


async def _follow(process, on_line, progress_stream):
    watched = process.stdout if progress_stream == "stdout" else process.stderr
    other = process.stderr if progress_stream == "stdout" else process.stdout
    kept = bytearray()
    other_task = asyncio.ensure_future(other.read())
    pending = b""
    while True:
        chunk = await watched.read(65536)
        if not chunk:
            break
        kept += chunk
        pending += chunk
        *lines, pending = LINE_BREAK.split(pending)
        for line in lines:
            if line.strip():
                on_line(line.decode("utf-8", "replace"))
    if pending.strip():
        on_line(pending.decode("utf-8", "replace"))
    rest = await other_task
    await process.wait()
    return (bytes(kept), rest) if progress_stream == "stdout" else (rest, bytes(kept))


@contextlib.asynccontextmanager
async def output_file(final, suffix, before_replace=None):
    """A temp path beside `final` for an engine to write; renamed onto `final` (after `before_replace()`, which
    may refuse by raising) when the block ends without an error, removed otherwise: readers never see half an
    output, and a failed or cancelled engine leaves nothing."""
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(final), prefix=".officer-upload-", suffix=suffix)
    os.close(fd)
    try:
        yield tmp
        os.chmod(tmp, 0o644)
        if before_replace:
            before_replace()
        os.replace(tmp, final)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
