import functools
import http.server
import os
import subprocess
import threading

import aiohttp
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
    # A synchronous answer however loaded the machine is (an OCR took over 20 s beside a build and was answered
    # 202); the tests of the job path ask for async_after=0 themselves.
    return create_app({"home": str(root)}, {EMAIL: PASSWORD}, str(tmp_path / "state"), tus_expiry=3600,
                      async_after=600.0)


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


@pytest.fixture
def static_server(tmp_path):
    """A plain HTTP server on 127.0.0.1 serving tmp_path/static (media, a dumb-http git repository)."""
    folder = tmp_path / "static"
    folder.mkdir()
    class Handler(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_GET(self):
            if self.path.startswith("/go?to="):
                self.send_response(302)
                self.send_header("Location", self.path[len("/go?to="):])
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            super().do_GET()

    handler = functools.partial(Handler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield folder, server.server_address[1]
    server.shutdown()


def make_video(path, seconds=2, size="320x240"):
    subprocess.run(["ffmpeg", "-nostdin", "-y", "-loglevel", "error", "-f", "lavfi", "-i",
                    f"testsrc=duration={seconds}:size={size}:rate=25", "-f", "lavfi", "-i",
                    f"sine=frequency=440:duration={seconds}", "-c:v", "mpeg4", "-c:a", "libvorbis", "-shortest",
                    str(path)], check=True)


def make_served_repo(work, bare):
    """A repository with one commit (README: "hello"), cloned bare at `bare` for git's dumb http."""
    subprocess.run(["git", "init", "-q", "-b", "main", str(work)], check=True)
    (work / "README").write_text("hello\n")
    subprocess.run(["git", "-C", str(work), "add", "README"], check=True)
    subprocess.run(["git", "-C", str(work), "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "one"], check=True)
    subprocess.run(["git", "clone", "-q", "--bare", str(work), str(bare)], check=True)
    subprocess.run(["git", "-C", str(bare), "update-server-info"], check=True)


async def signed_in(aiohttp_client, root, state, **options):
    """A client of a server made with `options` (api, plain_404 ...) over `root`, and its signed-in headers."""
    client = await aiohttp_client(create_app({"home": str(root)}, {EMAIL: PASSWORD}, str(state), **options))
    response = await client.post("/api/auth/signin", json={"email": EMAIL, "password": PASSWORD})
    assert response.status == 200
    return client, {"Authorization": "Bearer " + (await response.json())["token"]}


def multipart(*files, **fields):
    """A multipart/form-data body: the fields, then one `file` part per (filename, bytes)."""
    form = aiohttp.FormData(default_to_multipart=True)
    for name, value in fields.items():
        form.add_field(name, value)
    for filename, data in files:
        form.add_field("file", data, filename=filename, content_type="application/octet-stream")
    return form
