"""The two seed endpoints both modes serve: `GET transcode` (a streamed transcode for a player) and
`POST /api/upload` (chat attachments)."""
import asyncio
import json
import os
import subprocess

import aiohttp
import pytest

from conftest import EMAIL, error_code, make_video, multipart, signed_in

FB = "/api/file-browser/"


@pytest.mark.parametrize("api", ["seed", "full"])
async def test_get_transcode_streams_a_playable_mp4(aiohttp_client, root, tmp_path, api):
    client, auth = await signed_in(aiohttp_client, root, tmp_path / "state", api=api)
    make_video(root / "clip.mkv", seconds=2)
    response = await client.get(FB + "transcode", params={"path": "/clip.mkv"}, headers=auth)
    assert response.status == 200 and response.content_type == "video/mp4"
    assert "Content-Length" not in response.headers and response.headers["Transfer-Encoding"] == "chunked"
    assert response.headers["Accept-Ranges"] == "none"
    assert response.headers["Content-Disposition"] == "inline; filename*=UTF-8''clip.mp4"
    (tmp_path / "out.mp4").write_bytes(await response.read())
    probe = json.loads(subprocess.run(["ffprobe", "-v", "error", "-show_entries", "stream=codec_name:format=duration",
                                       "-of", "json", str(tmp_path / "out.mp4")], check=True, capture_output=True).stdout)
    assert sorted(s["codec_name"] for s in probe["streams"]) == ["aac", "h264"]
    assert 1.8 <= float(probe["format"]["duration"]) <= 2.3
    assert sorted(os.listdir(root)) == ["clip.mkv"]  # nothing is stored
    (root / "fake.mkv").write_text("not a video")
    (root / "folder").mkdir()
    for params, status, code in [({"path": "/fake.mkv"}, 415, "not_a_video"), ({"path": "/folder"}, 400, "not_a_file"),
                                 ({}, 400, "missing_field"), ({"path": "/gone.mkv"}, 404, "not_found")]:
        response = await client.get(FB + "transcode", params=params, headers=auth)
        assert response.status == status and await error_code(response) == code, params
    response = await client.get(FB + "transcode", params={"path": "/clip.mkv"})
    assert response.status == 401


@pytest.mark.parametrize("api", ["seed", "full"])
async def test_chat_attachments_upload_answers_ids(aiohttp_client, root, tmp_path, api):
    client, auth = await signed_in(aiohttp_client, root, tmp_path / "state", api=api)
    photo = os.urandom(200_000)
    form = aiohttp.FormData()
    form.add_field("file", photo, filename="photo.jpg", content_type="application/octet-stream")
    form.add_field("file", b"notes", filename="notes.txt", content_type="text/plain")
    response = await client.post("/api/upload", data=form, headers=auth)
    assert response.status == 201, await response.text()
    attachments = (await response.json())["attachments"]
    assert [(a["name"], a["size"], a["mime"]) for a in attachments] == [
        ("photo.jpg", 200_000, "image/jpeg"), ("notes.txt", 5, "text/plain")]
    ids = [a["id"] for a in attachments]
    assert len(set(ids)) == 2 and all(len(i) == 32 and int(i, 16) >= 0 for i in ids)
    kept = tmp_path / "state/attachments"
    assert (kept / ids[0]).read_bytes() == photo and (kept / ids[1]).read_bytes() == b"notes"
    assert json.loads((kept / (ids[0] + ".json")).read_text())["owner"] == EMAIL
    assert os.listdir(root) == []  # not a file of the file browser
    response = await client.post("/api/upload", json={"name": "x"}, headers=auth)
    assert response.status == 415 and await error_code(response) == "unsupported_media_type"
    response = await client.post("/api/upload", data=multipart(note="no file"), headers=auth)
    assert response.status == 400 and await error_code(response) == "missing_field"
    response = await client.post("/api/upload", data=multipart(("x.txt", b"x")))
    assert response.status == 401
    assert sorted(os.listdir(kept)) == sorted(ids + [i + ".json" for i in ids])


def engines(name):
    """This test process's own children named `name` (the engines its in-process server started)."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{pid}/comm") as f:
                comm = f.read().strip()
        except OSError:
            continue
        if int(fields[1]) == os.getpid() and comm == name and fields[0] != "Z":
            found.append(int(pid))
    return found


async def test_get_transcode_cut_short_when_ffmpeg_fails_and_stopped_when_the_client_leaves(client, auth, root):
    make_video(root / "long.mkv", seconds=60, size="1280x720")
    response = await client.get(FB + "transcode", params={"path": "/long.mkv"}, headers=auth)
    assert response.status == 200 and await response.content.read(1024)
    [ffmpeg] = engines("ffmpeg")
    os.kill(ffmpeg, 9)
    with pytest.raises(aiohttp.ClientPayloadError):
        await response.read()  # never a clean end: the video is not whole
    response = await client.get(FB + "transcode", params={"path": "/long.mkv"}, headers=auth)
    assert response.status == 200 and await response.content.read(1024)
    assert len(engines("ffmpeg")) == 1
    response.close()
    for _ in range(100):
        if not engines("ffmpeg"):
            break
        await asyncio.sleep(0.05)
    assert engines("ffmpeg") == []
