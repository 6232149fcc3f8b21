"""The seed's server (`--api seed`): only the endpoints of the Officer mobile plan, every proposal 404, uploads
that keep no time and replace, synchronous AI actions; and its hostile-but-real variants (`--plain-404`,
`--bare-plugins`)."""
import io
import os
import tarfile
import time
import zipfile

import pytest

from officer_server.app import PLUGINS, create_app

from conftest import EMAIL, PASSWORD, error_code, make_served_repo, make_text_image, make_video, multipart, signed_in

FB = "/api/file-browser/"

# Every endpoint docs/officer-api.md proposes, as a client would first ask it.
PROPOSALS = [("GET", FB + "stat?path=/a.txt"), ("GET", FB + "tree?path=/"), ("GET", FB + "sha256?path=/a.txt"),
             ("POST", FB + "mtime"), ("OPTIONS", FB + "tus"), ("POST", FB + "tus"), ("HEAD", FB + "tus/abc"),
             ("PATCH", FB + "tus/abc"), ("DELETE", FB + "tus/abc"), ("OPTIONS", FB + "tus/abc"),
             ("GET", "/api/jobs"), ("GET", "/api/jobs/abc"), ("DELETE", "/api/jobs/abc"),
             ("GET", FB + "thumbnail?path=/a.txt"), ("GET", FB + "zip?path=/a.txt"), ("POST", FB + "transcode")]


@pytest.fixture
def app(root, tmp_path, static_server):
    # async_after=0: where the full server would answer 202 at once, the seed's still answers when done.
    return create_app({"home": str(root)}, {EMAIL: PASSWORD}, str(tmp_path / "state"), api="seed", async_after=0.0,
                      fetch_allow_ports=[static_server[1]])


# MARK: what the seed's server answers

async def test_plugins_answer_names_the_server_without_our_features(client):
    response = await client.get("/api/server-settings/plugins")
    assert response.status == 200
    assert await response.json() == {"server": {"name": "officer", "version": "1.0.0"}, "plugins": PLUGINS}


async def test_every_proposal_is_404_with_the_contracts_error(client, auth, root):
    (root / "a.txt").write_text("a")
    for headers in (auth, {}):
        for method, url in PROPOSALS:
            response = await client.request(method, url, headers=headers)
            assert response.status == 404, (method, url, headers)
            if method != "HEAD":
                assert response.content_type == "application/json", (method, url)
                assert await error_code(response) == "not_found", (method, url)


async def test_the_full_server_has_every_proposal(aiohttp_client, root, tmp_path):
    """The other side of the 404s above: the same requests reach an endpoint on the default server."""
    (root / "a.txt").write_text("a")
    client, auth = await signed_in(aiohttp_client, root, tmp_path / "state")
    for method, url in PROPOSALS:
        if "abc" not in url:  # an unknown id is a 404 of its own
            response = await client.request(method, url, headers=auth)
            assert response.status != 404, (method, url, await response.text())


async def test_every_seed_file_endpoint_works(client, auth, root):
    response = await client.get("/api/auth/me", headers=auth)
    assert response.status == 200 and (await response.json())["user"]["email"] == EMAIL
    assert (await client.post(FB + "mkdir", json={"path": "/docs"}, headers=auth)).status == 201
    response = await client.post(FB + "write", json={"path": "/docs/a.txt", "content": "hello"}, headers=auth)
    assert response.status == 201 and (root / "docs/a.txt").read_text() == "hello"
    response = await client.get(FB + "read", params={"path": "/docs/a.txt"}, headers=auth)
    assert (await response.json())["content"] == "hello"
    response = await client.get(FB + "raw", params={"path": "/docs/a.txt"}, headers={**auth, "Range": "bytes=1-3"})
    assert response.status == 206 and await response.read() == b"ell"
    assert response.headers["Content-Range"] == "bytes 1-3/5"
    response = await client.post(FB + "upload", data=multipart(("b.bin", b"\0\1\2"), path="/docs"), headers=auth)
    assert response.status == 201 and (root / "docs/b.bin").read_bytes() == b"\0\1\2"
    response = await client.get(FB + "ls", params={"path": "/docs"}, headers=auth)
    assert [e["name"] for e in (await response.json())["entries"]] == ["a.txt", "b.bin"]
    # The proposed paging of `ls` is not the seed's: `limit` is ignored and the whole folder answered.
    response = await client.get(FB + "ls", params={"path": "/docs", "limit": "1"}, headers=auth)
    body = await response.json()
    assert [e["name"] for e in body["entries"]] == ["a.txt", "b.bin"] and "limit" not in body
    response = await client.get(FB + "search", params={"q": "B.BIN"}, headers=auth)
    assert [e["path"] for e in (await response.json())["results"]] == ["/docs/b.bin"]
    response = await client.post(FB + "rename", json={"path": "/docs/b.bin", "newName": "c.bin"}, headers=auth)
    assert response.status == 200 and (root / "docs/c.bin").exists() and not (root / "docs/b.bin").exists()
    response = await client.post(FB + "copy", json={"from": "/docs/a.txt", "to": "/a2.txt"}, headers=auth)
    assert response.status == 201 and (root / "a2.txt").read_text() == "hello"
    response = await client.post(FB + "move", json={"from": "/a2.txt", "to": "/docs/a3.txt"}, headers=auth)
    assert response.status == 200 and (root / "docs/a3.txt").read_text() == "hello" and not (root / "a2.txt").exists()
    response = await client.get(FB + "download", params={"path": "/docs/a.txt"}, headers=auth)
    assert await response.read() == b"hello" and response.headers["Content-Disposition"].startswith("attachment")
    response = await client.post(FB + "download", json={"paths": ["/docs/a.txt", "/docs/c.bin"]}, headers=auth)
    with zipfile.ZipFile(io.BytesIO(await response.read())) as z:
        assert {n: z.read(n) for n in z.namelist()} == {"a.txt": b"hello", "c.bin": b"\0\1\2"}
    response = await client.delete(FB + "rm", params={"path": "/docs/a3.txt"}, headers=auth)
    assert response.status == 200 and not (root / "docs/a3.txt").exists()
    response = await client.delete(FB + "rm", params={"path": "/docs", "recursive": "true"}, headers=auth)
    assert (await response.json())["removed"] == 3 and os.listdir(root) == []
    assert (await client.post("/api/auth/signout", headers=auth)).status == 200
    response = await client.get("/api/auth/me", headers=auth)
    assert response.status == 401 and await error_code(response) == "invalid_token"


async def test_upload_keeps_no_time_and_replaces_what_is_there(client, auth, root):
    (root / "docs").mkdir()
    (root / "docs/a.txt").write_text("old")
    os.utime(root / "docs/a.txt", (1_000_000_000, 1_000_000_000))
    before = time.time()
    response = await client.post(FB + "upload", headers=auth, data=multipart(
        ("a.txt", b"new"), ("b.txt", b"bee"), path="/docs", mtime="1000000000", overwrite="false"))
    assert response.status == 201, await response.text()
    entries = (await response.json())["entries"]
    assert [(e["path"], e["size"]) for e in entries] == [("/docs/a.txt", 3), ("/docs/b.txt", 3)]
    assert (root / "docs/a.txt").read_text() == "new" and (root / "docs/b.txt").read_text() == "bee"
    for e in entries:
        # The server's time is the upload time, answered as stored.
        assert before - 1 <= e["mtime"] <= time.time() + 1
        assert e["mtime"] == round(os.stat(root / e["path"].lstrip("/")).st_mtime, 3)
    # A folder is never replaced by a file.
    (root / "docs/sub").mkdir()
    response = await client.post(FB + "upload", data=multipart(("sub", b"x"), path="/docs"), headers=auth)
    assert response.status == 409 and await error_code(response) == "is_a_directory" and (root / "docs/sub").is_dir()
    # write keeps no time sent either.
    response = await client.post(FB + "write", json={"path": "/w.txt", "content": "w", "mtime": 1_000_000_000},
                                 headers=auth)
    assert response.status == 201 and (root / "w.txt").stat().st_mtime >= before - 1
    assert not [n for n in os.listdir(root / "docs") if n.startswith(".officer-upload-")]


async def test_ai_actions_extract_and_fetches_answer_when_done(client, auth, root, static_server, tmp_path):
    make_text_image(root / "sign.png", "HELLO OFFICER 42")
    response = await client.post(FB + "ocr", json={"path": "/sign.png"}, headers=auth)
    assert response.status == 200 and "HELLO OFFICER 42" in (await response.json())["text"]
    (root / "note.txt").write_text("Hello from the seed server.")
    response = await client.post(FB + "tts", json={"path": "/note.txt"}, headers=auth)
    assert response.status == 201 and (await response.json())["entry"]["path"] == "/note.wav"
    response = await client.post(FB + "transcribe", json={"path": "/note.wav"}, headers=auth)
    assert response.status == 200 and (await response.json())["engine"] == "pocketsphinx"
    make_video(root / "clip.mkv")
    response = await client.post(FB + "extract-audio", json={"path": "/clip.mkv", "format": "wav"}, headers=auth)
    assert response.status == 201 and (root / "clip.wav").stat().st_size > 1000
    with tarfile.open(root / "logs.tar.gz", "w:gz") as t:
        info = tarfile.TarInfo("logs/today.log")
        info.size = 4
        t.addfile(info, io.BytesIO(b"log\n"))
    response = await client.post(FB + "extract", json={"path": "/logs.tar.gz"}, headers=auth)
    assert response.status == 201 and (await response.json())["extracted"] == 1
    assert (root / "logs/logs/today.log").read_bytes() == b"log\n"
    # A failure is the call's own error, not a failed job.
    response = await client.post(FB + "ocr", json={"path": "/note.txt"}, headers=auth)
    assert response.status == 422 and await error_code(response) == "engine_failed"

    folder, port = static_server
    make_served_repo(tmp_path / "work", folder / "project.git")
    response = await client.post(FB + "git-clone", json={"url": f"http://127.0.0.1:{port}/project.git"}, headers=auth)
    assert response.status == 201, await response.text()
    assert (await response.json())["entry"]["path"] == "/project" and (root / "project/README").read_text() == "hello\n"
    make_video(folder / "video.mp4")
    response = await client.post(FB + "download-video", json={"url": f"http://127.0.0.1:{port}/video.mp4", "path": "/"},
                                 headers=auth)
    assert response.status == 201, await response.text()
    [created] = (await response.json())["entries"]
    assert (root / created["name"]).read_bytes() == (folder / "video.mp4").read_bytes()
    assert os.listdir(tmp_path / "state/jobs") == []


# MARK: hostile but real

async def test_plain_404s_for_unknown_endpoints_json_for_missing_files(aiohttp_client, root, tmp_path):
    for api in ("seed", "full"):
        client, auth = await signed_in(aiohttp_client, root, tmp_path / api, api=api, plain_404=True)
        unknown = [("GET", "/api/nope"), ("POST", FB + "nope"), ("GET", "/api/file-browser")]
        if api == "seed":
            unknown += [(m, u) for m, u in PROPOSALS if m != "HEAD"]
        for method, url in unknown:
            response = await client.request(method, url, headers=auth)
            assert response.status == 404 and response.content_type == "text/plain", (api, method, url)
            assert await response.text() == "404 Not Found"
        missing = [("GET", FB + "raw?path=/nope"), ("GET", FB + "ls?path=/nope"), ("GET", FB + "read?path=/nope"),
                   ("GET", FB + "download?path=/nope"), ("DELETE", FB + "rm?path=/nope"),
                   ("GET", FB + "transcode?path=/nope.mkv")]
        if api == "full":
            missing.append(("GET", FB + "stat?path=/nope"))
        for method, url in missing:
            response = await client.request(method, url, headers=auth)
            assert response.status == 404 and response.content_type == "application/json", (api, method, url)
            assert await error_code(response) == "not_found"


async def test_bare_plugins_answer_has_no_server_block(aiohttp_client, root, tmp_path):
    for api in ("seed", "full"):
        client, auth = await signed_in(aiohttp_client, root, tmp_path / api, api=api, bare_plugins=True)
        response = await client.get("/api/server-settings/plugins")
        assert response.status == 200 and await response.json() == {"plugins": PLUGINS}
        assert (await client.get(FB + "ls", params={"path": "/"}, headers=auth)).status == 200
