"""Jobs and the long server operations: extract, transcode, zip of many, git-clone, download-video, tus with a
deferred length."""
import asyncio
import base64
import hashlib
import io
import json
import os
import subprocess
import tarfile
import zipfile

import pytest

from officer_server.app import create_app
from officer_server.jobs import Jobs

from conftest import EMAIL, PASSWORD, error_code, make_served_repo, make_video

FB = "/api/file-browser/"


@pytest.fixture
def app(root, tmp_path, static_server):
    return create_app({"home": str(root)}, {EMAIL: PASSWORD}, str(tmp_path / "state"), tus_expiry=3600,
                      async_after=0.0, fetch_allow_ports=[static_server[1]])


async def follow(client, auth, response, timeout=60):
    """The finished job behind a 202 answer, long-polling."""
    assert response.status == 202, await response.text()
    job = (await response.json())["job"]
    assert response.headers["Location"] == "/api/jobs/" + job["id"]
    deadline = asyncio.get_running_loop().time() + timeout
    while job["state"] not in ("done", "failed", "cancelled"):
        assert asyncio.get_running_loop().time() < deadline, job
        answer = await client.get(f"/api/jobs/{job['id']}?wait=5&revision={job['revision']}", headers=auth)
        assert answer.status == 200
        job = (await answer.json())["job"]
    return job


async def test_extract_is_a_job_with_progress_and_result(client, auth, root):
    with zipfile.ZipFile(root / "photos.zip", "w") as z:
        z.writestr("a/one.txt", "one")
        z.writestr("two.bin", os.urandom(300_000))
    with tarfile.open(root / "logs.tar.gz", "w:gz") as t:
        data = b"log line\n" * 1000
        info = tarfile.TarInfo("logs/today.log")
        info.size = len(data)
        t.addfile(info, io.BytesIO(data))
    job = await follow(client, auth, await client.post(FB + "extract", json={"path": "/photos.zip"}, headers=auth))
    assert job["state"] == "done" and job["kind"] == "extract" and job["target"] == "/photos.zip"
    assert job["result"]["entry"]["path"] == "/photos" and job["result"]["extracted"] == 2
    assert job["progress"]["unit"] == "bytes" and job["progress"]["done"] == job["progress"]["total"] == 300_003
    assert (root / "photos/a/one.txt").read_text() == "one"
    job = await follow(client, auth, await client.post(FB + "extract", json={"path": "/logs.tar.gz", "to": "/l"},
                                                       headers=auth))
    assert job["state"] == "done" and (root / "l/logs/today.log").read_bytes() == data
    # Again: the destination exists, refused before any job.
    response = await client.post(FB + "extract", json={"path": "/photos.zip"}, headers=auth)
    assert response.status == 409 and await error_code(response) == "exists"
    listed = await (await client.get("/api/jobs", headers=auth)).json()
    assert [j["kind"] for j in listed["jobs"]] == ["extract", "extract"]
    assert not [n for n in os.listdir(root) if n.startswith(".officer-upload-")]


async def test_extract_refuses_unsafe_and_oversized_archives(root, tmp_path, aiohttp_client):
    app = create_app({"home": str(root)}, {EMAIL: PASSWORD}, str(tmp_path / "state"), async_after=0.0,
                     extract_max_entries=10, extract_max_bytes=1000)
    client = await aiohttp_client(app)
    token = (await (await client.post("/api/auth/signin", json={"email": EMAIL, "password": PASSWORD})).json())["token"]
    auth = {"Authorization": f"Bearer {token}"}
    with zipfile.ZipFile(root / "evil.zip", "w") as z:
        z.writestr("ok.txt", "fine")
        z.writestr("../../escape.txt", "bad")
    with tarfile.open(root / "link.tar", "w") as t:
        info = tarfile.TarInfo("etc")
        info.type, info.linkname = tarfile.SYMTYPE, "/etc"
        t.addfile(info)
    with zipfile.ZipFile(root / "many.zip", "w") as z:
        for i in range(11):
            z.writestr(f"f{i}", "x")
    with zipfile.ZipFile(root / "bomb.zip", "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("zeros", b"\0" * 5000)
    for name, status, code in [("evil.zip", 400, "unsafe_archive"), ("link.tar", 400, "unsafe_archive"),
                               ("many.zip", 413, "too_many_entries"), ("bomb.zip", 413, "too_large")]:
        response = await client.post(FB + "extract", json={"path": "/" + name}, headers=auth)
        assert response.status == status and await error_code(response) == code, name
    assert sorted(os.listdir(root)) == ["bomb.zip", "evil.zip", "link.tar", "many.zip"]
    assert not (tmp_path / "escape.txt").exists()


async def test_transcode_to_faststart_h264_aac(client, auth, root):
    make_video(root / "clip.mkv")
    job = await follow(client, auth, await client.post(FB + "transcode", json={"path": "/clip.mkv", "height": 120},
                                                       headers=auth))
    assert job["state"] == "done", job
    assert job["result"]["entry"]["path"] == "/clip.120p.mp4"
    assert job["progress"]["unit"] == "seconds" and job["progress"]["done"] == job["progress"]["total"]
    probe = json.loads(subprocess.run(["ffprobe", "-v", "error", "-show_streams", "-of", "json", str(root / "clip.120p.mp4")],
                                      check=True, capture_output=True).stdout)
    codecs = sorted(s["codec_name"] for s in probe["streams"])
    assert codecs == ["aac", "h264"]
    assert [s["height"] for s in probe["streams"] if s["codec_type"] == "video"] == [120]
    head = (root / "clip.120p.mp4").read_bytes()
    assert head.index(b"moov") < head.index(b"mdat"), "faststart puts the index first"
    response = await client.post(FB + "transcode", json={"path": "/clip.mkv", "height": 120}, headers=auth)
    assert response.status == 409
    # Never scaled up, and named by the height made: the 240p video asked at 720 is clip.240p.mp4.
    job = await follow(client, auth, await client.post(FB + "transcode", json={"path": "/clip.mkv", "height": 720},
                                                       headers=auth))
    assert job["state"] == "done" and job["result"]["entry"]["path"] == "/clip.240p.mp4", job


async def test_a_cancelled_job_stops_its_engine_and_leaves_nothing(client, auth, root):
    make_video(root / "long.mkv", seconds=120, size="1280x720")
    response = await client.post(FB + "transcode", json={"path": "/long.mkv"}, headers=auth)
    job = (await response.json())["job"]
    while job["state"] != "running" or not job["progress"]["done"]:
        job = (await (await client.get(f"/api/jobs/{job['id']}?wait=5&revision={job['revision']}", headers=auth)).json())["job"]
    cancelled = await client.delete(f"/api/jobs/{job['id']}", headers=auth)
    assert cancelled.status == 200 and (await cancelled.json())["job"]["state"] == "cancelled"
    assert sorted(os.listdir(root)) == ["long.mkv"]
    # This test's own file: another run on the machine may be transcoding a long.mkv of its own.
    assert subprocess.run(["pgrep", "-f", str(root / "long.mkv")], capture_output=True).stdout == b""


async def test_failed_jobs_and_other_users(client, auth, root):
    (root / "fake.mkv").write_bytes(b"not a video at all")
    job = await follow(client, auth, await client.post(FB + "transcode", json={"path": "/fake.mkv"}, headers=auth))
    assert job["state"] == "failed" and job["error"]["code"] in ("engine_failed", "not_a_video")
    assert "fake.mkv" in job["error"]["message"] or "ffprobe" in job["error"]["message"]
    response = await client.get("/api/jobs/nonexistent", headers=auth)
    assert response.status == 404


def test_jobs_survive_a_restart_and_running_ones_fail_clearly(tmp_path):
    state = tmp_path / "state"
    folder = state / "jobs"
    folder.mkdir(parents=True)
    for job_id, job_state in [("aaa", "running"), ("bbb", "done")]:
        (folder / f"{job_id}.json").write_text(json.dumps({
            "id": job_id, "owner": EMAIL, "kind": "transcode", "target": "/v.mkv", "state": job_state,
            "created": 1e10, "updated": 1e10, "revision": 3, "progress": {"done": 1, "total": 2, "unit": "seconds"}}))
    jobs = Jobs(str(state), lambda request: EMAIL)
    assert jobs.jobs["aaa"]["state"] == "failed" and jobs.jobs["aaa"]["error"]["code"] == "server_restarted"
    assert jobs.jobs["bbb"]["state"] == "done"
    assert json.loads((folder / "aaa.json").read_text())["state"] == "failed"


async def test_zip_of_many_is_deterministic_ranged_and_unzips_to_the_same_bytes(client, auth, root, tmp_path):
    (root / "a.txt").write_bytes(b"alpha\n")
    (root / "Photos/2026").mkdir(parents=True)
    (root / "Photos/2026/big.bin").write_bytes(os.urandom(2_000_000))
    (root / "Photos/empty").mkdir()
    (root / "b.bin").write_bytes(os.urandom(1000))
    query = "/api/file-browser/zip?path=/a.txt&path=/Photos&path=/b.bin"
    first = await client.get(query, headers=auth)
    assert first.status == 200 and first.headers["Content-Type"] == "application/zip"
    body = await first.read()
    assert int(first.headers["Content-Length"]) == len(body)
    etag = first.headers["ETag"]
    again = await (await client.get(query, headers=auth)).read()
    assert again == body, "the same files give the same bytes"
    archive = zipfile.ZipFile(io.BytesIO(body))
    assert archive.testzip() is None
    assert archive.namelist() == ["a.txt", "Photos/", "Photos/2026/", "Photos/2026/big.bin", "Photos/empty/", "b.bin"]
    assert archive.read("Photos/2026/big.bin") == (root / "Photos/2026/big.bin").read_bytes()
    out = tmp_path / "unzipped"
    out.mkdir()
    subprocess.run(["bsdtar", "-xf", "-", "-C", str(out)], input=body, check=True)
    assert (out / "b.bin").read_bytes() == (root / "b.bin").read_bytes()
    assert os.stat(out / "a.txt").st_mtime == int(os.stat(root / "a.txt").st_mtime)
    # Ranges in the middle of a member, across a descriptor, and the central directory from a fresh server
    # state (CRCs not cached) give the same bytes as the whole.
    for zips in [r for r in client.app.router.routes() if getattr(r.handler, "__self__", None).__class__.__name__ == "Zips"]:
        zips.handler.__self__.crcs.clear()
    for start, end in [(100, 1_000_000), (1_999_000, 2_001_500), (len(body) - 700, len(body) - 1), (0, 0)]:
        part = await client.get(query, headers={**auth, "Range": f"bytes={start}-{end}", "If-Range": etag})
        assert part.status == 206 and await part.read() == body[start:end + 1], (start, end)
    # A changed file changes the ETag, so a resumed download starts over.
    (root / "a.txt").write_bytes(b"ALPHA\n")
    changed = await client.get(query, headers={**auth, "Range": "bytes=10-20", "If-Range": etag})
    assert changed.status == 200 and changed.headers["ETag"] != etag
    response = await client.get("/api/file-browser/zip?path=/a.txt&path=/Photos/../a.txt", headers=auth)
    assert response.status == 400 and await error_code(response) == "duplicate_name"


async def test_tus_upload_with_a_deferred_length(client, auth, root):
    tus = {**auth, "Tus-Resumable": "1.0.0"}
    meta = "filename " + base64.b64encode(b"today.md").decode() + ",path " + base64.b64encode(b"/").decode()
    created = await client.post(FB + "tus", headers={**tus, "Upload-Defer-Length": "1", "Upload-Metadata": meta})
    assert created.status == 201
    location = created.headers["Location"]
    head = await client.head(location, headers=tus)
    assert head.headers["Upload-Defer-Length"] == "1" and "Upload-Length" not in head.headers
    body = os.urandom(5000)
    patch = {**tus, "Content-Type": "application/offset+octet-stream"}
    answer = await client.patch(location, data=body[:3000], headers={**patch, "Upload-Offset": "0"})
    assert answer.status == 204 and not (root / "today.md").exists()
    digest = base64.b64encode(hashlib.sha256(body[3000:]).digest()).decode()
    answer = await client.patch(location, data=body[3000:], headers={
        **patch, "Upload-Offset": "3000", "Upload-Length": "5000", "Upload-Checksum": "sha256 " + digest})
    assert answer.status == 204 and answer.headers["Upload-Offset"] == "5000"
    assert (root / "today.md").read_bytes() == body


async def test_git_clone_over_http_and_its_guard(client, auth, root, static_server, tmp_path):
    folder, port = static_server
    make_served_repo(tmp_path / "work", folder / "project.git")
    (root / "Code").mkdir()
    url = f"http://127.0.0.1:{port}/project.git"
    job = await follow(client, auth, await client.post(FB + "git-clone", json={"url": url, "path": "/Code"}, headers=auth))
    assert job["state"] == "done", job
    assert job["result"]["entry"]["path"] == "/Code/project"
    assert (root / "Code/project/README").read_text() == "hello\n"
    for bad, code in [("file:///etc/passwd", "unsupported_url"), ("ext::sh -c id", "unsupported_url"),
                      (f"http://127.0.0.1:{port + 1 if port < 65535 else port - 1}/x.git", "forbidden_address"),
                      ("http://169.254.169.254/latest/meta-data", "forbidden_address"),
                      ("http://10.0.0.1/repo.git", "forbidden_address")]:
        response = await client.post(FB + "git-clone", json={"url": bad, "path": "/Code", "name": "x"}, headers=auth)
        assert response.status in (400, 403) and await error_code(response) == code, bad


async def test_download_video_and_redirects_to_private_addresses(client, auth, root, static_server, tmp_path):
    folder, port = static_server
    make_video(folder / "clip.mp4")
    (root / "Downloads").mkdir()
    job = await follow(client, auth, await client.post(FB + "download-video", json={
        "url": f"http://127.0.0.1:{port}/clip.mp4", "path": "/Downloads"}, headers=auth))
    assert job["state"] == "done", job
    [created] = job["result"]["entries"]
    assert (root / created["path"].lstrip("/")).read_bytes() == (folder / "clip.mp4").read_bytes()
    # A redirect from the allowed server to another loopback port (the Officer server itself) is refused
    # by the guard proxy, whatever the engine does with redirects.
    officer_port = client.server.port
    response = await client.post(FB + "download-video", json={
        "url": f"http://127.0.0.1:{port}/go?to=http://127.0.0.1:{officer_port}/api/auth/me", "path": "/Downloads"},
        headers=auth)
    job = await follow(client, auth, response)
    assert job["state"] == "failed" and job["error"]["code"] == "forbidden_address", job
    assert f"127.0.0.1" in job["error"]["message"]
    assert sorted(os.listdir(root / "Downloads")) == [created["name"]]
