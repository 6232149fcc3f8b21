"""AI actions over real engines: tesseract (OCR), espeak-ng (TTS), pocketsphinx (transcription),
ffmpeg (audio extraction), and safe archive extraction."""
import asyncio
import hashlib
import os
import shutil
import tarfile
import tempfile
import zipfile

from aiohttp import web

from .errors import APIError, bad_request
from .files import body_json, field, json_response
from .paths import child_path, entry

TIMEOUT = 120


async def run(*argv, stdin=None):
    try:
        process = await asyncio.create_subprocess_exec(
            *argv, stdin=asyncio.subprocess.PIPE if stdin is not None else asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    except FileNotFoundError:
        raise APIError(501, "engine_missing", f"{argv[0]} is not installed on the server")
    try:
        out, err = await asyncio.wait_for(process.communicate(stdin), TIMEOUT)
    except asyncio.TimeoutError:
        process.kill()
        raise APIError(504, "engine_timeout", f"{argv[0]} took longer than {TIMEOUT}s")
    if process.returncode != 0:
        message = err.decode("utf-8", "replace").strip().splitlines()
        raise APIError(422, "engine_failed", f"{argv[0]} failed: {message[-1] if message else 'exit ' + str(process.returncode)}")
    return out


class AIActions:
    def __init__(self, roots):
        self.roots = roots

    def routes(self):
        p = "/api/file-browser/"
        return [web.post(p + "ocr", self.ocr), web.post(p + "tts", self.tts), web.post(p + "transcribe", self.transcribe),
                web.post(p + "extract-audio", self.extract_audio), web.post(p + "extract", self.extract)]

    async def _source(self, request):
        data = await body_json(request)
        root = field(data, "root", required=False, default="home")
        path, local = self.roots.resolve(root, field(data, "path"), must_exist=True)
        if not os.path.isfile(local):
            raise bad_request("not_a_file", f"{path}: not a file")
        return data, root, path, local

    def _output(self, root, source_path, data, suffix):
        output = field(data, "output", required=False)
        out_path = output if output else source_path.rsplit(".", 1)[0] + suffix
        path, local = self.roots.resolve(root, out_path)
        if os.path.isdir(local):
            raise APIError(409, "is_a_directory", f"{path}: is a folder")
        if os.path.exists(local) and not field(data, "overwrite", bool, required=False, default=False):
            raise APIError(409, "exists", f"{path}: already exists (set overwrite)")
        return path, local

    async def ocr(self, request):
        data, root, path, local = await self._source(request)
        language = field(data, "language", required=False, default="eng")
        if not language.replace("+", "").isalpha():
            raise bad_request("invalid_field", "field 'language' must be like 'eng' or 'eng+deu'")
        text = (await run("tesseract", local, "-", "-l", language)).decode("utf-8", "replace")
        return json_response({"path": path, "text": text.strip(), "engine": "tesseract"})

    async def tts(self, request):
        data = await body_json(request)
        root = field(data, "root", required=False, default="home")
        voice = field(data, "voice", required=False, default="en")
        if not all(c.isalnum() or c in "-+_" for c in voice):
            raise bad_request("invalid_field", "field 'voice' has unexpected characters")
        if "text" in data and data["text"] is not None:
            text = field(data, "text")
            if not text.strip():
                raise bad_request("invalid_field", "field 'text' is empty")
            source = "/tts-" + hashlib.sha256(text.encode()).hexdigest()[:12] + ".txt"
        else:
            source, local = self.roots.resolve(root, field(data, "path"), must_exist=True)
            if not os.path.isfile(local):
                raise bad_request("not_a_file", f"{source}: not a file")
            with open(local, "rb") as f:
                raw = f.read(1 << 20)
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise APIError(415, "not_text", f"{source}: not UTF-8 text")
        out_path, out_local = self._output(root, source, data, ".wav")
        with tempfile.NamedTemporaryFile(dir=os.path.dirname(out_local), prefix=".officer-upload-", suffix=".wav",
                                         delete=False) as tmp:
            tmp_path = tmp.name
        try:
            await run("espeak-ng", "-v", voice, "-w", tmp_path, "--stdin", stdin=text.encode("utf-8"))
            os.chmod(tmp_path, 0o644)
            os.replace(tmp_path, out_local)
        finally:
            if os.path.exists(tmp_path):
                os.unlink(tmp_path)
        return json_response({"entry": entry(out_path, out_local), "engine": "espeak-ng"}, status=201)

    async def transcribe(self, request):
        data, root, path, local = await self._source(request)
        with tempfile.TemporaryDirectory() as work:
            wav = os.path.join(work, "audio.raw")
            await run("ffmpeg", "-nostdin", "-loglevel", "error", "-i", local, "-vn", "-ac", "1", "-ar", "16000",
                      "-f", "s16le", wav)
            text = await asyncio.get_running_loop().run_in_executor(None, _pocketsphinx, wav)
        return json_response({"path": path, "text": text, "engine": "pocketsphinx"})

    async def extract_audio(self, request):
        data, root, path, local = await self._source(request)
        fmt = field(data, "format", required=False, default="mp3")
        codecs = {"mp3": ["-c:a", "libmp3lame", "-q:a", "4"], "wav": ["-c:a", "pcm_s16le"], "ogg": ["-c:a", "libvorbis"],
                  "m4a": ["-c:a", "aac"]}
        if fmt not in codecs:
            raise bad_request("invalid_field", f"field 'format' must be one of {', '.join(codecs)}")
        out_path, out_local = self._output(root, path, data, "." + fmt)
        fd, tmp_path = tempfile.mkstemp(dir=os.path.dirname(out_local), prefix=".officer-upload-", suffix="." + fmt)
        os.close(fd)
        try:
            await run("ffmpeg", "-nostdin", "-y", "-loglevel", "error", "-i", local, "-vn", *codecs[fmt], tmp_path)
            os.chmod(tmp_path, 0o644)
            os.replace(tmp_path, out_local)
        finally:
            if os.path.exists(tmp_path):
                os.unlink(tmp_path)
        return json_response({"entry": entry(out_path, out_local), "engine": "ffmpeg"}, status=201)

    async def extract(self, request):
        data, root, path, local = await self._source(request)
        dest = field(data, "to", required=False) or path.rsplit(".", 1)[0]
        dest_path, dest_local = self.roots.resolve(root, dest)
        if os.path.exists(dest_local):
            raise APIError(409, "exists", f"{dest_path}: already exists")
        staging = tempfile.mkdtemp(prefix=".officer-upload-", dir=os.path.dirname(dest_local))
        try:
            count = _safe_extract(local, staging, path)
            os.rename(staging, dest_local)
        finally:
            if os.path.exists(staging):
                shutil.rmtree(staging)
        return json_response({"entry": entry(dest_path, dest_local), "extracted": count}, status=201)


def _pocketsphinx(raw_path):
    from pocketsphinx import Decoder
    decoder = Decoder(samprate=16000, loglevel="FATAL")
    with open(raw_path, "rb") as f:
        decoder.start_utt()
        decoder.process_raw(f.read(), full_utt=True)
        decoder.end_utt()
    hyp = decoder.hyp()
    return hyp.hypstr if hyp else ""


def _safe_extract(archive, target, label):
    """Extracts zip or tar members that stay inside `target`; links and absolute or '..' names are refused."""
    def check(name):
        parts = name.replace("\\", "/").split("/")
        if name.startswith("/") or ".." in parts or "\x00" in name:
            raise bad_request("unsafe_archive", f"{label}: member {name!r} would land outside the folder")

    count = 0
    if zipfile.is_zipfile(archive):
        with zipfile.ZipFile(archive) as z:
            for info in z.infolist():
                check(info.filename)
            z.extractall(target)
            count = len(z.infolist())
    elif tarfile.is_tarfile(archive):
        with tarfile.open(archive) as t:
            members = t.getmembers()
            for m in members:
                check(m.name)
                if not (m.isfile() or m.isdir()):
                    raise bad_request("unsafe_archive", f"{label}: member {m.name!r} is a link or device")
            t.extractall(target, filter="data")
            count = len(members)
    else:
        raise APIError(415, "not_an_archive", f"{label}: not a zip or tar archive")
    return count
