"""Chat attachments (`POST /api/upload`, the seed's): files sent before a chat message, which then names them
by the ids this answers (`attachmentIds`), instead of carrying them inline.

They live outside the file roots, in the state folder (`STATE/attachments/ID` and `ID.json`, the record), and
are never listed by the file browser. Each is written to a temp file and renamed into place once whole, so an
upload cut short (or a full disk: 507) leaves no attachment."""
import json
import mimetypes
import os
import secrets
import tempfile
import time

from aiohttp import web

from .errors import APIError, bad_request
from .files import json_response, valid_name


class Attachments:
    def __init__(self, state_dir, owner_of):
        self.folder = os.path.join(state_dir, "attachments")
        os.makedirs(self.folder, exist_ok=True)
        self.owner_of = owner_of

    def routes(self):
        return [web.post("/api/upload", self.upload)]

    async def upload(self, request):
        if not request.content_type.startswith("multipart/"):
            raise APIError(415, "unsupported_media_type", "upload needs multipart/form-data")
        reader = await request.multipart()
        stored = []
        async for part in reader:
            if part.filename is None:
                continue  # no field changes where or how an attachment is kept
            name = valid_name(part.filename)
            mime = part.headers.get("Content-Type")
            if not mime or mime == "application/octet-stream":
                mime = mimetypes.guess_type(name)[0] or "application/octet-stream"
            stored.append(await self._store(part, name, mime, self.owner_of(request)))
        if not stored:
            raise bad_request("missing_field", "no file part in the upload")
        return json_response({"attachments": stored}, status=201)

    async def _store(self, part, name, mime, owner):
        """Writes the part's bytes, then its record: an attachment is there once its record is."""
        ident = secrets.token_hex(16)
        data, record = os.path.join(self.folder, ident), os.path.join(self.folder, ident + ".json")
        fd, tmp = tempfile.mkstemp(prefix=".officer-upload-", dir=self.folder)
        try:
            size = 0
            with os.fdopen(fd, "wb") as f:
                while True:
                    chunk = await part.read_chunk(1 << 20)
                    if not chunk:
                        break
                    f.write(chunk)
                    size += len(chunk)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, data)
            attachment = {"id": ident, "name": name, "size": size, "mime": mime}
            with open(record + ".tmp", "w") as f:
                json.dump({**attachment, "owner": owner, "created": time.time()}, f)
            os.replace(record + ".tmp", record)
            return attachment
        except BaseException:
            for leftover in (tmp, data, record + ".tmp"):
                if os.path.exists(leftover):
                    os.unlink(leftover)
            raise
