"""JWT sign-in for the users given on the command line; every route but the public ones needs a bearer token."""
import time
import uuid

import jwt
from aiohttp import web

from .errors import APIError

PUBLIC = {("GET", "/api/server-settings/plugins"), ("POST", "/api/auth/signin")}


class Auth:
    def __init__(self, users: dict, secret: str, ttl: int):
        self.users = users  # email -> password
        self.secret = secret
        self.ttl = ttl
        self.revoked = set()
        # Seconds the server's clock runs ahead of the real one: `--test-clock` lets a test move it forward
        # (`POST /api/_test/clock`) instead of waiting out a token's life in real time.
        self.offset = 0.0

    def now(self) -> float:
        return time.time() + self.offset

    def user(self, email: str) -> dict:
        return {"id": "u-" + email.split("@")[0], "email": email, "name": email.split("@")[0], "role": "owner"}

    def sign_in(self, email: str, password: str) -> dict:
        if email not in self.users or self.users[email] != password:
            raise APIError(401, "invalid_credentials", "wrong email or password")
        expires = self.now() + self.ttl
        token = jwt.encode({"sub": email, "exp": int(expires), "jti": uuid.uuid4().hex}, self.secret, algorithm="HS256")
        return {"token": token, "expiresAt": int(expires), "user": self.user(email)}

    def verify(self, request: web.Request) -> dict:
        header = request.headers.get("Authorization", "")
        if not header.startswith("Bearer "):
            raise APIError(401, "unauthorized", "missing bearer token", {"WWW-Authenticate": "Bearer"})
        try:
            # The expiry is checked against this server's clock, which a test may have moved forward.
            claims = jwt.decode(header[7:], self.secret, algorithms=["HS256"], options={"verify_exp": False})
        except jwt.PyJWTError:
            raise APIError(401, "invalid_token", "invalid token", {"WWW-Authenticate": "Bearer"})
        if not isinstance(claims.get("exp"), int) or claims["exp"] <= self.now():
            raise APIError(401, "token_expired", "token expired", {"WWW-Authenticate": "Bearer"})
        if claims.get("jti") in self.revoked or claims.get("sub") not in self.users:
            raise APIError(401, "invalid_token", "token revoked", {"WWW-Authenticate": "Bearer"})
        return claims

    def revoke(self, claims: dict):
        self.revoked.add(claims.get("jti"))
