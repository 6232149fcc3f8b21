import hashlib
import io
import os
import zipfile

import aiohttp

from conftest import error_code

FB = "/api/file-browser/"


async def test_ls_lists_folders_first(client, auth, root):
    (root / "b.txt").write_text("bb")
    (root / "a").mkdir()
    (root / ".officer-upload-123").write_text("half")
    response = await client.get(FB + "ls", params={"path": "/"}, headers=auth)
    body = await response.json()
    assert [e["name"] for e in body["entries"]] == ["a", "b.txt"]
    assert body["entries"][1]["size"] == 2 and body["entries"][1]["type"] == "file"
    assert body["entries"][0]["type"] == "directory"


async def test_ls_pages_by_name_where_asked(client, auth, root):
    # Proposed: `limit` and `after` page a folder in name (byte) order, folders among the files.
    for name in ["c.txt", "a.txt", "B", "b.txt", "e.txt"]:
        (root / name).write_text("x")
    (root / "d").mkdir()
    seen, after, pages = [], None, 0
    while True:
        params = {"path": "/", "limit": "2"} | ({"after": after} if after else {})
        body = await (await client.get(FB + "ls", params=params, headers=auth)).json()
        assert body["limit"] == 2 and len(body["entries"]) <= 2
        seen += [e["name"] for e in body["entries"]]
        pages += 1
        if "nextCursor" not in body:
            break
        assert body["nextCursor"] == body["entries"][-1]["name"]
        after = body["nextCursor"]
    assert seen == ["B", "a.txt", "b.txt", "c.txt", "d", "e.txt"] and pages == 3
    response = await client.get(FB + "ls", params={"path": "/", "limit": "0"}, headers=auth)
    assert response.status == 400 and await error_code(response) == "invalid_field"


async def test_ls_errors(client, auth, root):
    (root / "f").write_text("x")
    assert await error_code(await client.get(FB + "ls", params={"path": "/nope"}, headers=auth)) == "not_found"
    assert await error_code(await client.get(FB + "ls", params={"path": "/f"}, headers=auth)) == "not_a_directory"
    response = await client.get(FB + "ls", params={"path": "/", "root": "elsewhere"}, headers=auth)
    assert response.status == 400 and await error_code(response) == "unknown_root"


async def test_traversal_and_symlinks_out_are_refused(client, auth, root, tmp_path):
    (tmp_path / "secret.txt").write_text("secret")
    os.symlink(tmp_path / "secret.txt", root / "link")
    os.symlink(tmp_path, root / "outdir")
    response = await client.get(FB + "read", params={"path": "/../secret.txt"}, headers=auth)
    assert response.status == 400 and await error_code(response) == "path_traversal"
    response = await client.get(FB + "raw", params={"path": "/link"}, headers=auth)
    assert response.status == 403 and await error_code(response) == "outside_root"
    response = await client.get(FB + "ls", params={"path": "/outdir"}, headers=auth)
    assert response.status == 403
    response = await client.get(FB + "read", params={"path": "/outdir/secret.txt"}, headers=auth)
    assert response.status == 403
    response = await client.get(FB + "stat", params={"path": "/a\x00b"}, headers=auth)
    assert response.status == 400 and await error_code(response) == "invalid_path"


async def test_stat_and_read(client, auth, root):
    (root / "n.md").write_text("# hi\n")
    body = await (await client.get(FB + "stat", params={"path": "/n.md"}, headers=auth)).json()
    assert body["entry"]["size"] == 5 and body["entry"]["path"] == "/n.md"
    body = await (await client.get(FB + "read", params={"path": "n.md"}, headers=auth)).json()
    assert body["content"] == "# hi\n"
    (root / "bin").write_bytes(b"\xff\xfe\x00")
    response = await client.get(FB + "read", params={"path": "/bin"}, headers=auth)
    assert response.status == 415
    (root / "big").write_bytes(b"a" * ((1 << 20) + 1))
    assert (await client.get(FB + "read", params={"path": "/big"}, headers=auth)).status == 413


async def test_raw_ranges_etag_and_if_range(client, auth, root):
    data = bytes(range(256)) * 40
    (root / "data.bin").write_bytes(data)
    full = await client.get(FB + "raw", params={"path": "/data.bin"}, headers=auth)
    assert full.status == 200 and await full.read() == data
    etag, modified = full.headers["ETag"], full.headers["Last-Modified"]
    assert etag.startswith('"') and full.headers["Accept-Ranges"] == "bytes"
    part = await client.get(FB + "raw", params={"path": "/data.bin"}, headers={**auth, "Range": "bytes=100-199"})
    assert part.status == 206 and await part.read() == data[100:200]
    assert part.headers["Content-Range"] == f"bytes 100-199/{len(data)}"
    tail = await client.get(FB + "raw", params={"path": "/data.bin"}, headers={**auth, "Range": "bytes=-10"})
    assert await tail.read() == data[-10:]
    same = await client.get(FB + "raw", params={"path": "/data.bin"},
                            headers={**auth, "Range": "bytes=10-", "If-Range": etag})
    assert same.status == 206 and await same.read() == data[10:]
    by_date = await client.get(FB + "raw", params={"path": "/data.bin"},
                               headers={**auth, "Range": "bytes=10-", "If-Range": modified})
    assert by_date.status == 206
    stale = await client.get(FB + "raw", params={"path": "/data.bin"},
                             headers={**auth, "Range": "bytes=10-", "If-Range": '"other"'})
    assert stale.status == 200 and await stale.read() == data
    beyond = await client.get(FB + "raw", params={"path": "/data.bin"}, headers={**auth, "Range": f"bytes={len(data)}-"})
    assert beyond.status == 416 and beyond.headers["Content-Range"] == f"bytes */{len(data)}"
    cached = await client.get(FB + "raw", params={"path": "/data.bin"}, headers={**auth, "If-None-Match": etag})
    assert cached.status == 304
    head = await client.head(FB + "raw", params={"path": "/data.bin"}, headers=auth)
    assert head.status == 200 and head.headers["Content-Length"] == str(len(data))
    os.utime(root / "data.bin", (1, 1))
    changed = await client.get(FB + "raw", params={"path": "/data.bin"}, headers=auth)
    assert changed.headers["ETag"] != etag


async def test_search(client, auth, root):
    (root / "docs").mkdir()
    (root / "docs" / "Report.pdf").write_bytes(b"%PDF")
    (root / "report-old.txt").write_text("x")
    (root / "other").write_text("x")
    body = await (await client.get(FB + "search", params={"q": "report"}, headers=auth)).json()
    assert [r["path"] for r in body["results"]] == ["/docs/Report.pdf", "/report-old.txt"]
    assert body["truncated"] is False
    assert (await client.get(FB + "search", params={"q": " "}, headers=auth)).status == 400


async def test_mkdir(client, auth, root):
    response = await client.post(FB + "mkdir", json={"path": "/x"}, headers=auth)
    assert response.status == 201 and (root / "x").is_dir()
    assert await error_code(await client.post(FB + "mkdir", json={"path": "/x"}, headers=auth)) == "exists"
    response = await client.post(FB + "mkdir", json={"path": "/a/b/c"}, headers=auth)
    assert response.status == 404 and await error_code(response) == "parent_not_found"
    response = await client.post(FB + "mkdir", json={"path": "/a/b/c", "parents": True}, headers=auth)
    assert response.status == 201 and (root / "a" / "b" / "c").is_dir()
    again = await client.post(FB + "mkdir", json={"path": "/a/b/c", "parents": True}, headers=auth)
    assert again.status == 200
    response = await client.post(FB + "mkdir", json={"path": "/../up"}, headers=auth)
    assert response.status == 400 and not (root.parent / "up").exists()
    response = await client.post(FB + "mkdir", json={"path": 5}, headers=auth)
    assert await error_code(response) == "invalid_field"


async def test_write_and_mtime(client, auth, root):
    response = await client.post(FB + "write", json={"path": "/w.txt", "content": "héllo", "mtime": 1000000000.5},
                                 headers=auth)
    assert response.status == 201
    assert (root / "w.txt").read_text() == "héllo"
    assert abs(os.stat(root / "w.txt").st_mtime - 1000000000.5) < 0.001
    conflict = await client.post(FB + "write", json={"path": "/w.txt", "content": "x"}, headers=auth)
    assert conflict.status == 409 and (root / "w.txt").read_text() == "héllo"
    ok = await client.post(FB + "write", json={"path": "/w.txt", "content": "x", "overwrite": True}, headers=auth)
    assert ok.status == 200 and (root / "w.txt").read_text() == "x"
    response = await client.post(FB + "mtime", json={"path": "/w.txt", "mtime": 1234567890}, headers=auth)
    assert (await response.json())["entry"]["mtime"] == 1234567890.0


async def test_upload_multipart(client, auth, root):
    form = aiohttp.FormData()
    form.add_field("path", "/")
    form.add_field("mtime", "1500000000")
    form.add_field("file", io.BytesIO(b"one"), filename="1.txt")
    form.add_field("file", io.BytesIO(b"two" * 1000), filename="2.bin")
    response = await client.post(FB + "upload", data=form, headers=auth)
    assert response.status == 201
    body = await response.json()
    assert [e["name"] for e in body["entries"]] == ["1.txt", "2.bin"]
    assert (root / "2.bin").read_bytes() == b"two" * 1000
    assert int(os.stat(root / "1.txt").st_mtime) == 1500000000
    # Built by hand: aiohttp's client would percent-encode the slash.
    raw = (b'--B\r\nContent-Disposition: form-data; name="file"; filename="../evil"\r\n\r\nevil\r\n--B--\r\n')
    response = await client.post(FB + "upload", data=raw,
                                 headers={**auth, "Content-Type": "multipart/form-data; boundary=B"})
    assert not (root.parent / "evil").exists()
    # aiohttp may reduce the name to its last component; then it must land inside the root.
    assert response.status == 400 or [e["path"] for e in (await response.json())["entries"]] == ["/evil"]
    form = aiohttp.FormData()
    form.add_field("file", io.BytesIO(b"again"), filename="1.txt")
    assert (await client.post(FB + "upload", data=form, headers=auth)).status == 409
    assert (root / "1.txt").read_bytes() == b"one"


async def test_rename_copy_move(client, auth, root):
    (root / "a.txt").write_text("A")
    (root / "d").mkdir()
    (root / "d" / "in.txt").write_text("in")
    response = await client.post(FB + "rename", json={"path": "/a.txt", "newName": "b.txt"}, headers=auth)
    assert response.status == 200 and (root / "b.txt").exists() and not (root / "a.txt").exists()
    bad = await client.post(FB + "rename", json={"path": "/b.txt", "newName": "../x"}, headers=auth)
    assert bad.status == 400
    response = await client.post(FB + "copy", json={"from": "/d", "to": "/d2"}, headers=auth)
    assert response.status == 201 and (root / "d2" / "in.txt").read_text() == "in"
    response = await client.post(FB + "copy", json={"from": "/b.txt", "to": "/d/in.txt"}, headers=auth)
    assert response.status == 409 and (root / "d" / "in.txt").read_text() == "in"
    response = await client.post(FB + "copy", json={"from": "/b.txt", "to": "/d/in.txt", "overwrite": True},
                                 headers=auth)
    assert response.status == 201 and (root / "d" / "in.txt").read_text() == "A"
    response = await client.post(FB + "move", json={"from": "/d", "to": "/d/sub"}, headers=auth)
    assert response.status == 400 and await error_code(response) == "into_itself"
    response = await client.post(FB + "move", json={"from": "/d2", "to": "/moved"}, headers=auth)
    assert response.status == 200 and (root / "moved" / "in.txt").exists() and not (root / "d2").exists()
    response = await client.post(FB + "move", json={"from": "/nope", "to": "/x"}, headers=auth)
    assert response.status == 404


async def test_rm(client, auth, root):
    (root / "d").mkdir()
    (root / "d" / "f").write_text("x")
    (root / "f").write_text("x")
    response = await client.delete(FB + "rm", params={"path": "/d"}, headers=auth)
    assert response.status == 409 and await error_code(response) == "not_empty"
    response = await client.delete(FB + "rm", params={"path": "/d", "recursive": "true"}, headers=auth)
    assert (await response.json())["removed"] == 2 and not (root / "d").exists()
    response = await client.delete(FB + "rm", params={"path": "/f"}, headers=auth)
    assert response.status == 200 and not (root / "f").exists()
    response = await client.delete(FB + "rm", params={"path": "/", "recursive": "true"}, headers=auth)
    assert response.status == 403 and root.exists()


async def test_download_file_and_zip(client, auth, root):
    (root / "d").mkdir()
    (root / "d" / "x.txt").write_text("xx")
    (root / "y.txt").write_text("yy")
    response = await client.get(FB + "download", params={"path": "/y.txt"}, headers=auth)
    assert "attachment" in response.headers["Content-Disposition"] and await response.read() == b"yy"
    response = await client.get(FB + "download", params={"path": "/d"}, headers=auth)
    names = zipfile.ZipFile(io.BytesIO(await response.read())).namelist()
    assert names == ["d/x.txt"]
    response = await client.post(FB + "download", json={"paths": ["/d", "/y.txt"]}, headers=auth)
    assert sorted(zipfile.ZipFile(io.BytesIO(await response.read())).namelist()) == ["d/x.txt", "y.txt"]


async def test_tree_pages_in_order(client, auth, root):
    for folder in ["a", "a/b", "a-c", "z"]:
        (root / folder).mkdir()
    for name in ["a/1", "a/b/2", "a/b/3", "a-c/4", "z/5", "top"]:
        (root / name).write_text(name)
    seen, cursor = [], None
    while True:
        params = {"path": "/", "limit": "2"}
        if cursor:
            params["cursor"] = cursor
        page = await (await client.get(FB + "tree", params=params, headers=auth)).json()
        seen += [e["path"] for e in page["entries"]]
        cursor = page.get("nextCursor")
        if not cursor:
            break
    assert seen == ["/a", "/a/1", "/a/b", "/a/b/2", "/a/b/3", "/a-c", "/a-c/4", "/top", "/z", "/z/5"]
    assert (await client.get(FB + "tree", params={"path": "/", "limit": "0"}, headers=auth)).status == 400


async def test_sha256(client, auth, root):
    (root / "h").write_bytes(b"hash me")
    body = await (await client.get(FB + "sha256", params={"path": "/h"}, headers=auth)).json()
    assert body["sha256"] == hashlib.sha256(b"hash me").hexdigest() and body["size"] == 7


async def test_raw_if_match_refuses_another_version(client, auth, root):
    (root / "v.bin").write_bytes(b"one" * 100)
    first = await client.get(FB + "raw", params={"path": "/v.bin"}, headers={**auth, "Range": "bytes=0-9"})
    etag = first.headers["ETag"]
    same = await client.get(FB + "raw", params={"path": "/v.bin"}, headers={**auth, "Range": "bytes=10-19", "If-Match": etag})
    assert same.status == 206
    (root / "v.bin").write_bytes(b"two" * 200)
    changed = await client.get(FB + "raw", params={"path": "/v.bin"}, headers={**auth, "Range": "bytes=10-19", "If-Match": etag})
    assert changed.status == 412


async def test_thumbnails_of_images_pdfs_and_videos(client, auth, root):
    import subprocess
    subprocess.run(["vips", "black", str(root / "wide.png"), "800", "400"], check=True)
    subprocess.run(["ffmpeg", "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc=size=640x360:duration=1",
                    "-pix_fmt", "yuv420p", str(root / "clip.mp4")], check=True)
    (root / "notes.txt").write_text("no picture")
    for name, expected in (("wide.png", (128, 64)), ("clip.mp4", (128, 72))):
        response = await client.get(FB + "thumbnail", params={"path": "/" + name, "size": "128"}, headers=auth)
        assert response.status == 200 and response.headers["Content-Type"] == "image/jpeg", name
        body = await response.read()
        assert body[:2] == b"\xff\xd8"
        out = root.parent / ("t-" + name + ".jpg")
        out.write_bytes(body)
        size = subprocess.run(["vipsheader", "-f", "width", str(out)], capture_output=True, text=True).stdout.strip()
        height = subprocess.run(["vipsheader", "-f", "height", str(out)], capture_output=True, text=True).stdout.strip()
        assert (int(size), int(height)) == expected, name
        again = await client.get(FB + "thumbnail", params={"path": "/" + name, "size": "128"},
                                 headers={**auth, "If-None-Match": response.headers["ETag"]})
        assert again.status == 304
    refused = await client.get(FB + "thumbnail", params={"path": "/notes.txt"}, headers=auth)
    assert refused.status == 415 and await error_code(refused) == "no_thumbnail"
    bad = await client.get(FB + "thumbnail", params={"path": "/wide.png", "size": "5000"}, headers=auth)
    assert bad.status == 400
    plugins = await (await client.get("/api/server-settings/plugins")).json()
    assert "thumbnail" in plugins["server"]["features"]
