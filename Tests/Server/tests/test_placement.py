"""A write the server cannot place under its final name (a full disk, a folder removed meanwhile) is answered as
such (507 no_space, 404 parent_not_found), leaves nothing under that name, and is never reported complete later."""
import base64
import hashlib
import os
import subprocess

import aiohttp
import pytest

from officer_server.app import create_app
from conftest import EMAIL, PASSWORD, error_code
from test_tus import TUS, meta, tus

FB = "/api/file-browser/"
MB = 1 << 20


def mount_tmpfs(folder, options):
    folder.mkdir(exist_ok=True)
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    result = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(folder)], capture_output=True)
    if result.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs: {result.stderr.decode().strip()}")


@pytest.fixture
def small(tmp_path):
    """A 2 MiB tmpfs for the server's root; its tus state stays on the ordinary disk (another device)."""
    folder = tmp_path / "small"
    mount_tmpfs(folder, "size=2m")
    yield folder
    if subprocess.run(["umount", str(folder)]).returncode != 0:
        subprocess.run(["umount", "-l", str(folder)])


@pytest.fixture
async def on_small(aiohttp_client, small, tmp_path):
    client = await aiohttp_client(create_app({"home": str(small)}, {EMAIL: PASSWORD}, str(tmp_path / "state")))
    signed = await (await client.post("/api/auth/signin", json={"email": EMAIL, "password": PASSWORD})).json()
    return client, {"Authorization": f"Bearer {signed['token']}"}


def grow(folder, size):
    subprocess.run(["mount", "-o", f"remount,size={size}", str(folder)], check=True)


def patch_headers(auth, offset, body=None):
    headers = {"Upload-Offset": str(offset), "Content-Type": "application/offset+octet-stream"}
    if body is not None:
        headers["Upload-Checksum"] = "sha256 " + base64.b64encode(hashlib.sha256(body).digest()).decode()
    return tus(auth, **headers)


async def offset_of(client, auth, url):
    head = await client.head(url, headers=tus(auth))
    assert head.status == 200
    return int(head.headers["Upload-Offset"]), int(head.headers["Upload-Length"])


async def test_tus_upload_that_does_not_fit_is_507_and_never_reported_complete(on_small, small):
    client, auth = on_small
    data = os.urandom(3 * MB)
    created = await client.post(TUS, headers=tus(auth, **{"Upload-Length": str(len(data)),
                                                         "Upload-Metadata": meta(filename="big.bin", path="/")}))
    url = created.headers["Location"]
    for start in (0, MB):
        piece = data[start:start + MB]
        assert (await client.patch(url, data=piece, headers=patch_headers(auth, start, piece))).status == 204
    for checksummed in (False, True):
        last = data[2 * MB:]
        response = await client.patch(url, data=last, headers=patch_headers(auth, 2 * MB, last if checksummed else None))
        assert response.status == 507 and await error_code(response) == "no_space"
        assert response.headers["Tus-Resumable"] == "1.0.0"
        # The last request's bytes were dropped again: the client sees an upload to finish, not a finished one.
        assert await offset_of(client, auth, url) == (2 * MB, 3 * MB)
        assert os.listdir(small) == []  # neither the file nor a temp file
    grow(small, "8m")
    response = await client.patch(url, data=data[2 * MB:], headers=patch_headers(auth, 2 * MB))
    assert response.status == 204 and response.headers["Upload-Offset"] == str(3 * MB)
    assert (small / "big.bin").read_bytes() == data


async def test_tus_creation_with_upload_that_does_not_fit_is_507(on_small, small):
    client, auth = on_small
    response = await client.post(TUS, data=os.urandom(3 * MB), headers=tus(auth, **{
        "Upload-Length": str(3 * MB), "Content-Type": "application/offset+octet-stream",
        "Upload-Metadata": meta(filename="inline.bin", path="/")}))
    assert response.status == 507 and await error_code(response) == "no_space"
    assert os.listdir(small) == []


async def test_tus_concatenation_that_does_not_fit_is_507_and_keeps_its_parts(on_small, small):
    client, auth = on_small
    pieces = [os.urandom(1536 * 1024), os.urandom(1536 * 1024)]
    urls = []
    for piece in pieces:
        created = await client.post(TUS, data=piece, headers=tus(auth, **{
            "Upload-Length": str(len(piece)), "Upload-Concat": "partial",
            "Content-Type": "application/offset+octet-stream"}))
        assert created.status == 201
        urls.append(created.headers["Location"])
    final = {"Upload-Concat": "final;" + " ".join(urls), "Upload-Metadata": meta(filename="joined.bin", path="/")}
    response = await client.post(TUS, headers=tus(auth, **final))
    assert response.status == 507 and await error_code(response) == "no_space"
    assert os.listdir(small) == []
    grow(small, "8m")
    response = await client.post(TUS, headers=tus(auth, **final))
    assert response.status == 201
    assert (small / "joined.bin").read_bytes() == b"".join(pieces)


async def test_tus_folder_removed_before_the_last_chunk_is_404_and_resumable(client, auth, root):
    (root / "sub").mkdir()
    data = os.urandom(200_000)
    created = await client.post(TUS, headers=tus(auth, **{"Upload-Length": str(len(data)),
                                                         "Upload-Metadata": meta(filename="f.bin", path="/sub")}))
    url = created.headers["Location"]
    assert (await client.patch(url, data=data[:100_000], headers=patch_headers(auth, 0))).status == 204
    os.rmdir(root / "sub")
    response = await client.patch(url, data=data[100_000:], headers=patch_headers(auth, 100_000))
    assert response.status == 404 and await error_code(response) == "parent_not_found"
    assert await offset_of(client, auth, url) == (100_000, 200_000)
    assert os.listdir(root) == []
    (root / "sub").write_text("now a file")  # the parent path is there but is no folder
    response = await client.patch(url, data=data[100_000:], headers=patch_headers(auth, 100_000))
    assert response.status == 404 and await error_code(response) == "parent_not_found"
    assert await offset_of(client, auth, url) == (100_000, 200_000)
    os.unlink(root / "sub")
    (root / "sub").mkdir()
    response = await client.patch(url, data=data[100_000:], headers=patch_headers(auth, 100_000))
    assert response.status == 204 and (root / "sub" / "f.bin").read_bytes() == data


async def test_a_patch_to_a_complete_upload_answers_as_tusd_does(client, auth, root):
    """A second client sharing the upload finished it: its offset is then behind (409, and HEAD says complete),
    or at the end (204, nothing appended). Only a concatenated final upload refuses every PATCH (403)."""
    data = os.urandom(1000)
    created = await client.post(TUS, headers=tus(auth, **{"Upload-Length": "1000",
                                                         "Upload-Metadata": meta(filename="c.bin", path="/")}))
    url = created.headers["Location"]
    assert (await client.patch(url, data=data, headers=patch_headers(auth, 0))).status == 204
    late = await client.patch(url, data=data[500:], headers=patch_headers(auth, 500))
    assert late.status == 409 and await error_code(late) == "offset_mismatch"
    assert await offset_of(client, auth, url) == (1000, 1000)
    at_end = await client.patch(url, data=b"", headers=patch_headers(auth, 1000))
    assert at_end.status == 204 and at_end.headers["Upload-Offset"] == "1000"
    assert (root / "c.bin").read_bytes() == data
    part = await client.post(TUS, data=b"abc", headers=tus(auth, **{
        "Upload-Length": "3", "Upload-Concat": "partial", "Content-Type": "application/offset+octet-stream"}))
    final = await client.post(TUS, headers=tus(auth, **{"Upload-Concat": "final;" + part.headers["Location"],
                                                       "Upload-Metadata": meta(filename="j.bin", path="/")}))
    refused = await client.patch(final.headers["Location"], data=b"", headers=patch_headers(auth, 3))
    assert refused.status == 403 and await error_code(refused) == "final"


def multipart(name, data, path="/"):
    form = aiohttp.FormData()
    form.add_field("path", path)
    form.add_field("file", data, filename=name, content_type="application/octet-stream")
    return form


async def test_multipart_upload_answers_with_the_stored_entry(client, auth, root):
    data = os.urandom(12345)
    response = await client.post(FB + "upload", data=multipart("m.bin", data), headers=auth)
    assert response.status == 201
    (stored,) = (await response.json())["entries"]
    assert stored["path"] == "/m.bin" and stored["type"] == "file" and stored["size"] == len(data)
    assert (root / "m.bin").read_bytes() == data


async def test_multipart_upload_that_does_not_fit_is_507(on_small, small):
    client, auth = on_small
    response = await client.post(FB + "upload", data=multipart("m.bin", os.urandom(3 * MB)), headers=auth)
    assert response.status == 507 and await error_code(response) == "no_space"
    assert os.listdir(small) == []


async def test_write_and_copy_on_a_full_disk_are_507(on_small, small):
    client, auth = on_small
    response = await client.post(FB + "write", json={"path": "/w.txt", "content": "x" * (3 * MB)}, headers=auth)
    assert response.status == 507 and await error_code(response) == "no_space"
    assert os.listdir(small) == []
    (small / "a.bin").write_bytes(os.urandom(1200 * 1024))
    response = await client.post(FB + "copy", json={"from": "/a.bin", "to": "/b.bin"}, headers=auth)
    assert response.status == 507 and await error_code(response) == "no_space"
    (small / "d").mkdir()
    (small / "d" / "a.bin").write_bytes(os.urandom(600 * 1024))
    response = await client.post(FB + "copy", json={"from": "/d", "to": "/e"}, headers=auth)
    assert response.status == 507 and await error_code(response) == "no_space"
    assert sorted(os.listdir(small)) == ["a.bin", "d"]  # no half copy


async def test_mkdir_without_room_is_507(aiohttp_client, tmp_path):
    tiny = tmp_path / "tiny"
    mount_tmpfs(tiny, "size=1m,nr_inodes=2")  # the root folder and one more
    try:
        client = await aiohttp_client(create_app({"home": str(tiny)}, {EMAIL: PASSWORD}, str(tmp_path / "state")))
        token = (await (await client.post("/api/auth/signin", json={"email": EMAIL, "password": PASSWORD})).json())["token"]
        auth = {"Authorization": f"Bearer {token}"}
        assert (await client.post(FB + "mkdir", json={"path": "/one"}, headers=auth)).status == 201
        response = await client.post(FB + "mkdir", json={"path": "/two"}, headers=auth)
        assert response.status == 507 and await error_code(response) == "no_space"
        assert os.listdir(tiny) == ["one"]
    finally:
        if subprocess.run(["umount", str(tiny)]).returncode != 0:
            subprocess.run(["umount", "-l", str(tiny)])
