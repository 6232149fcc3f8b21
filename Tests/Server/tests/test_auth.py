import time

import jwt

from officer_server.app import create_app
from conftest import EMAIL, PASSWORD, error_code


async def test_plugins_is_public_and_names_the_server(client):
    response = await client.get("/api/server-settings/plugins")
    assert response.status == 200
    body = await response.json()
    assert body["server"]["name"] == "officer"
    assert body["server"]["apiVersion"] == 1
    assert "tus" in body["server"]["features"]


async def test_signin_returns_token_and_user(client):
    response = await client.post("/api/auth/signin", json={"email": EMAIL, "password": PASSWORD})
    body = await response.json()
    assert response.status == 200
    assert body["user"]["email"] == EMAIL
    assert body["expiresAt"] > time.time()


async def test_wrong_password_is_401(client):
    response = await client.post("/api/auth/signin", json={"email": EMAIL, "password": "nope"})
    assert response.status == 401
    assert await error_code(response) == "invalid_credentials"


async def test_signin_needs_fields(client):
    response = await client.post("/api/auth/signin", json={"email": EMAIL})
    assert response.status == 400
    assert await error_code(response) == "missing_field"
    response = await client.post("/api/auth/signin", data=b"not json")
    assert await error_code(response) == "invalid_json"


async def test_me_needs_token(client, auth):
    assert (await client.get("/api/auth/me")).status == 401
    response = await client.get("/api/auth/me", headers=auth)
    assert (await response.json())["user"]["email"] == EMAIL
    bad = await client.get("/api/auth/me", headers={"Authorization": "Bearer garbage"})
    assert bad.status == 401 and await error_code(bad) == "invalid_token"


async def test_expired_token(aiohttp_client, root, tmp_path):
    app = create_app({"home": str(root)}, {EMAIL: PASSWORD}, str(tmp_path / "s"), secret="k" * 32)
    client = await aiohttp_client(app)
    token = jwt.encode({"sub": EMAIL, "exp": int(time.time()) - 10, "jti": "x"}, "k" * 32, algorithm="HS256")
    response = await client.get("/api/auth/me", headers={"Authorization": f"Bearer {token}"})
    assert response.status == 401
    assert await error_code(response) == "token_expired"


async def test_signout_revokes_token(client, auth):
    assert (await client.post("/api/auth/signout", headers=auth)).status == 200
    response = await client.get("/api/auth/me", headers=auth)
    assert response.status == 401


async def test_the_test_clock_expires_tokens_without_waiting(aiohttp_client, root, tmp_path):
    app = create_app({"home": str(root)}, {EMAIL: PASSWORD}, str(tmp_path / "s"), token_ttl=60, test_clock=True)
    client = await aiohttp_client(app)
    signed = await (await client.post("/api/auth/signin", json={"email": EMAIL, "password": PASSWORD})).json()
    auth = {"Authorization": f"Bearer {signed['token']}"}
    assert (await client.get("/api/auth/me", headers=auth)).status == 200
    assert (await client.post("/api/_test/clock", json={"advance": -1})).status == 400
    moved = await client.post("/api/_test/clock", json={"advance": 61})
    assert moved.status == 200 and (await moved.json())["offset"] == 61
    expired = await client.get("/api/auth/me", headers=auth)
    assert expired.status == 401 and await error_code(expired) == "token_expired"
    # A new sign-in is good for a token's life on the moved clock.
    fresh = await (await client.post("/api/auth/signin", json={"email": EMAIL, "password": PASSWORD})).json()
    assert fresh["expiresAt"] > time.time() + 100
    assert (await client.get("/api/auth/me", headers={"Authorization": f"Bearer {fresh['token']}"})).status == 200


async def test_without_the_flag_there_is_no_test_clock(client):
    assert (await client.post("/api/_test/clock", json={"advance": 61})).status in (401, 404)
