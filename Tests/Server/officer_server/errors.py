"""The contract's error body: {"error": {"code": ..., "message": ...}} with a matching status."""
import json

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
