import os
import subprocess

import pytest

from officer_server.app import create_app

EMAIL, PASSWORD = "ann@example.org", "s3cret"


@pytest.fixture
def root(tmp_path):
    folder = tmp_path / "root"
    folder.mkdir()
    return folder


@pytest.fixture
def app(root, tmp_path):
    return create_app({"home": str(root)}, {EMAIL: PASSWORD}, str(tmp_path / "state"), tus_expiry=3600)


@pytest.fixture
async def client(aiohttp_client, app):
    return await aiohttp_client(app)


@pytest.fixture
async def auth(client):
    response = await client.post("/api/auth/signin", json={"email": EMAIL, "password": PASSWORD})
    assert response.status == 200
    token = (await response.json())["token"]
    return {"Authorization": f"Bearer {token}"}


async def error_code(response):
    return (await response.json())["error"]["code"]


def make_text_image(path, text):
    """A black-on-white PNG that tesseract can read."""
    base = str(path) + ".raw.png"
    subprocess.run(["vips", "text", base, text, "--dpi", "300"], check=True)
    subprocess.run(["vips", "embed", base, base + ".e.png", "40", "40", "900", "200"], check=True)
    subprocess.run(["vips", "invert", base + ".e.png", str(path)], check=True)
    os.unlink(base)
    os.unlink(base + ".e.png")
