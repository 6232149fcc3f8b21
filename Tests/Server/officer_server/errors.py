"""The contract's error body: {"error": {"code": ..., "message": ...}} with a matching status."""
import errno
import json
import os

from aiohttp import web


class APIError(Exception):
    def __init__(self, status: int, code: str, message: str, headers=None):
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers or {}

    def response(self) -> web.Response:
        body = json.dumps({"error": {"code": self.code, "message": self.message}})
        return web.Response(status=self.status, text=body, content_type="application/json", headers=self.headers)


def bad_request(code, message):
    return APIError(400, code, message)


def not_found(path):
    return APIError(404, "not_found", f"{path}: no such file or folder")


def conflict(code, message):
    return APIError(409, code, message)


# A full disk or an exhausted quota: the server's own lack of space, 507 Insufficient Storage (RFC 4918).
NO_SPACE = (errno.ENOSPC, errno.EDQUOT)


def no_space(path=None, headers=None):
    return APIError(507, "no_space", (f"{path}: " if path else "") + "no space left on the server", headers)


def placement_error(error, path, headers=None):
    """The answer for an OSError raised while a file was being put under its final name `path`: a full disk is
    507, a parent folder that went away meanwhile (or became a file) is 404 parent_not_found, as when it was
    missing from the start; anything else is a 500 that still says which file."""
    if error.errno in NO_SPACE:
        return no_space(path, headers)
    if error.errno in (errno.ENOENT, errno.ENOTDIR):
        return APIError(404, "parent_not_found", f"{path}: parent folder does not exist", headers)
    return APIError(500, "placement_failed", f"{path}: could not be stored ({os.strerror(error.errno or 0)})", headers)
