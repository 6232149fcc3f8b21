"""Resumable uploads in the IETF form (draft-ietf-httpbis-resumable-upload, proposed in docs/officer-api.md) at
/api/file-browser/resumable, in the three interop versions Apple's URLSession speaks (3: iOS 17.0, 5: 18.0, 6: 18.1),
as swift-nio-extras' NIOResumableUpload serves them. aiohttp cannot send a 104 interim response, so a client
creates the upload first and then appends, as the draft allows. State, locking, expiry and placement are tus.py's."""
import base64
import binascii
import contextvars
import os
import re
import time
import uuid

from aiohttp import web

from .errors import APIError
from .tus import Tus

BASE = "/api/file-browser/resumable"
VERSIONS = (3, 5, 6)
# The interop version of the request being answered: every header and error of its answer carries it.
_version = contextvars.ContextVar("interop_version", default=VERSIONS[-1])


def structured_bool(value):
    """`?1` / `?0` (RFC 9651 boolean); None for anything else."""
    return {"?1": True, "?0": False}.get((value or "").strip())


def structured_integer(value):
    value = (value or "").strip()
    return int(value) if re.fullmatch(r"-?[0-9]{1,15}", value) else None


class Resumable(Tus):
    """The IETF form over tus.py's state: an upload is a tus upload whose destination came in the creation URL's
    query (`path` = the destination folder, `filename`, `root`, `mtime`, `overwrite`: tus's metadata keys)."""

    def __init__(self, roots, state_dir, max_size, expiry, versions=VERSIONS):
        super().__init__(roots, state_dir, max_size, expiry)
        # The interop versions served (all three by default; fewer for a server of an older system's draft).
        self.versions = tuple(sorted(versions))
        # Its own folder: an id of one form is never an upload of the other.
        self.dir = os.path.join(state_dir, "resumable")
        os.makedirs(self.dir, exist_ok=True)

    def routes(self):
        return [
            web.options(BASE, self.options), web.post(BASE, self.create),
            web.head(BASE + "/{id}", self.head), web.patch(BASE + "/{id}", self.patch),
            web.delete(BASE + "/{id}", self.terminate),
        ]

    def headers(self, extra=None):
        h = {"Upload-Draft-Interop-Version": str(_version.get()), "Cache-Control": "no-store"}
        h.update(extra or {})
        return h

    def check_version(self, request):
        try:
            version = int(request.headers.get("Upload-Draft-Interop-Version", ""))
        except ValueError:
            version = None
        if version not in self.versions:
            _version.set(self.versions[-1])
            raise self.error(400, "unsupported_version",
                             "Upload-Draft-Interop-Version must be one of " + ", ".join(map(str, self.versions)))
        _version.set(version)

    def completion(self, complete):
        """The header that says whether the upload is complete, as this version spells it."""
        if _version.get() >= 5:
            return {"Upload-Complete": "?1" if complete else "?0"}
        return {"Upload-Incomplete": "?0" if complete else "?1"}

    def requested_completion(self, request):
        if _version.get() >= 5:
            return structured_bool(request.headers.get("Upload-Complete"))
        incomplete = structured_bool(request.headers.get("Upload-Incomplete"))
        return None if incomplete is None else not incomplete

    def digest(self, request):
        """`Content-Digest: sha-256=:BASE64:` of this request's body, as (algorithm, expected) for tus's check."""
        header = request.headers.get("Content-Digest")
        if not header:
            return None
        match = re.search(r"sha-256=:([A-Za-z0-9+/=]*):", header)
        if not match:
            raise self.error(400, "unsupported_digest", "Content-Digest: only sha-256 is checked")
        return "sha256", match.group(1)

    def checksum_mismatch(self):
        return self.error(400, "digest_mismatch", "Content-Digest does not match the body; nothing of it was kept")

    async def options(self, request):
        self.check_version(request)
        extra = {"Upload-Limit": f"max-size={self.max_size}"} if _version.get() >= 6 else {}
        return web.Response(status=200, headers=self.headers(extra))

    async def create(self, request):
        self.check_version(request)
        complete = self.requested_completion(request)
        if complete is None:
            raise self.error(400, "missing_completion", "Upload-Complete (Upload-Incomplete in version 3) required")
        if structured_integer(request.headers.get("Upload-Offset", "0")) != 0:
            raise self.error(400, "invalid_offset", "a new upload starts at offset 0")
        # Decoded once (aiohttp's query already is): a name with "%41" or "%25" in it arrives as written.
        meta = dict(request.query)
        length = self.declared_length(request, 0, complete)
        upload_id = uuid.uuid4().hex
        state = {"id": upload_id, "meta": meta, "expires": time.time() + self.expiry, "partial": False,
                 "offset": 0, "length": length, "form": "ietf"}
        root, path, local = self.destination(meta)
        self._check_target(path, local, meta)
        state["target"] = {"root": root, "path": path}
        open(self._paths(upload_id)[1], "wb").close()
        self.save(state)
        location = {"Location": f"{BASE}/{upload_id}"}
        async with self.locked(upload_id, writing=True):
            return await self.receive(request, state, location)

    def declared_length(self, request, offset, complete):
        """The upload's length when this request says it: `Upload-Length` (version 6), or the end of a completing
        request's body; None while unknown."""
        length = None
        if _version.get() >= 6 and "Upload-Length" in request.headers:
            length = structured_integer(request.headers["Upload-Length"])
            if length is None:
                raise self.error(400, "invalid_length", "Upload-Length must be an integer")
        if complete and request.content_length is not None:
            end = offset + request.content_length
            if length is not None and length != end:
                raise self.error(400, "inconsistent_length", f"Upload-Length {length} but the body ends at {end}")
            length = end
        if length is not None:
            length = self._length(str(length), offset)
        return length

    async def receive(self, request, state, extra):
        """Appends the body (if any) and answers: the upload's entry once complete and placed, else its offset."""
        complete = self.requested_completion(request)
        start = state["offset"]
        if request.content_length or request.body_exists:
            state = await self._append(request, state, self.digest(request))
        if complete and not state.get("done"):
            if state["length"] is None:
                state["length"] = state["offset"]
                self.save(state)
            if state["offset"] == state["length"]:
                state = self._finish(state, start)
        headers = self.headers({**extra, "Upload-Offset": str(state["offset"]), **self.completion(state.get("done"))})
        if state.get("done"):
            return web.json_response({"entry": state["entry"]}, status=201 if "Location" in extra else 200,
                                     headers=headers)
        return web.Response(status=201 if "Location" in extra else 204, headers=headers)

    async def head(self, request):
        self.check_version(request)
        async with self.locked(request.match_info["id"]):
            state = self.load(request.match_info["id"])
        extra = {"Upload-Offset": str(state["offset"]), **self.completion(state.get("done"))}
        if _version.get() >= 6 and state["length"] is not None:
            extra["Upload-Length"] = str(state["length"])
        return web.Response(status=204, headers=self.headers(extra))

    async def patch(self, request):
        self.check_version(request)
        if _version.get() >= 6 and request.content_type != "application/partial-upload":
            raise self.error(415, "unsupported_media_type", "PATCH needs Content-Type: application/partial-upload")
        async with self.locked(request.match_info["id"], writing=True):
            state = self.load(request.match_info["id"])
            offset = structured_integer(request.headers.get("Upload-Offset"))
            if offset is None:
                raise self.error(400, "invalid_offset", "Upload-Offset required")
            complete = self.requested_completion(request)
            if complete is None:
                raise self.error(400, "missing_completion", "Upload-Complete (Upload-Incomplete in version 3) required")
            if state.get("done"):
                # The draft: an upload already complete takes nothing more (its answer says where it ended).
                raise APIError(400, "completed_upload", "the upload is already complete", self.headers(
                    {"Upload-Offset": str(state["offset"]), **self.completion(True)}))
            if offset != state["offset"]:
                raise APIError(409, "offset_mismatch", f"Upload-Offset {offset} but the server has {state['offset']}",
                               self.headers({"Upload-Offset": str(state["offset"]), **self.completion(False)}))
            length = self.declared_length(request, offset, complete)
            if length is not None:
                if state["length"] is not None and length != state["length"]:
                    raise self.error(400, "inconsistent_length", "the upload's length was already given otherwise")
                state["length"] = length
            return await self.receive(request, state, {})
