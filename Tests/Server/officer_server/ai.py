"""AI actions over real engines: tesseract (OCR), espeak-ng (TTS), pocketsphinx (transcription),
ffmpeg (audio extraction). Each answers when done, or with 202 and a job when it runs longer than the
server's `async_after` (see jobs.py)."""
import asyncio
import hashlib
import os
import tempfile

from aiohttp import web

from .engine import output_file, run
from .errors import APIError, bad_request
from .files import body_json, field, json_response
from .paths import entry



class AIActions:
    def __init__(self, roots, jobs):
        self.roots = roots
        self.jobs = jobs

    def routes(self):
        p = "/api/file-browser/"
        return [web.post(p + "ocr", self.ocr), web.post(p + "tts", self.tts), web.post(p + "transcribe", self.transcribe),
                web.post(p + "extract-audio", self.extract_audio)]

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

        async def work(progress):
            text = (await run("tesseract", local, "-", "-l", language)).decode("utf-8", "replace")
            return {"path": path, "text": text.strip(), "engine": "tesseract"}
        return await self.jobs.respond(request, "ocr", path, work)

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

        async def work(progress):
            async with output_file(out_local, ".wav") as tmp_path:
                await run("espeak-ng", "-v", voice, "-w", tmp_path, "--stdin", stdin=text.encode("utf-8"))
            return {"entry": entry(out_path, out_local), "engine": "espeak-ng"}
        return await self.jobs.respond(request, "tts", source, work, status=201)

    async def transcribe(self, request):
        data, root, path, local = await self._source(request)

        async def work(progress):
            with tempfile.TemporaryDirectory() as folder:
                wav = os.path.join(folder, "audio.raw")
                progress.update(message="decoding audio")
                await run("ffmpeg", "-nostdin", "-loglevel", "error", "-i", local, "-vn", "-ac", "1", "-ar", "16000",
                          "-f", "s16le", wav)
                progress.update(done=50, total=100, message="recognising speech")
                text = await asyncio.get_running_loop().run_in_executor(None, _pocketsphinx, wav)
            return {"path": path, "text": text, "engine": "pocketsphinx"}
        return await self.jobs.respond(request, "transcribe", path, work)

    async def extract_audio(self, request):
        data, root, path, local = await self._source(request)
        fmt = field(data, "format", required=False, default="mp3")
        codecs = {"mp3": ["-c:a", "libmp3lame", "-q:a", "4"], "wav": ["-c:a", "pcm_s16le"], "ogg": ["-c:a", "libvorbis"],
                  "m4a": ["-c:a", "aac"]}
        if fmt not in codecs:
            raise bad_request("invalid_field", f"field 'format' must be one of {', '.join(codecs)}")
        out_path, out_local = self._output(root, path, data, "." + fmt)

        async def work(progress):
            async with output_file(out_local, "." + fmt) as tmp_path:
                await run("ffmpeg", "-nostdin", "-y", "-loglevel", "error", "-i", local, "-vn", *codecs[fmt], tmp_path)
            return {"entry": entry(out_path, out_local), "engine": "ffmpeg"}
        return await self.jobs.respond(request, "extract-audio", path, work, status=201)


def _pocketsphinx(raw_path):
    from pocketsphinx import Decoder
    decoder = Decoder(samprate=16000, loglevel="FATAL")
    with open(raw_path, "rb") as f:
        decoder.start_utt()
        decoder.process_raw(f.read(), full_utt=True)
        decoder.end_utt()
    hyp = decoder.hyp()
    return hyp.hypstr if hyp else ""
