"""The IETF resumable-upload form at /api/file-browser/resumable, in interop versions 3, 5 and 6."""
import base64
import hashlib
import os
import urllib.parse

import pytest

RESUMABLE = "/api/file-browser/resumable"


def completion(version, complete):
    if version >= 5:
        return {"Upload-Complete": "?1" if complete else "?0"}
    return {"Upload-Incomplete": "?0" if complete else "?1"}


def said_complete(version, response):
    if version >= 5:
        return response.headers["Upload-Complete"] == "?1"
    return response.headers["Upload-Incomplete"] == "?0"


def headers(auth, version, complete=None, **extra):
    h = {**auth, "Upload-Draft-Interop-Version": str(version), **extra}
    if complete is not None:
        h.update(completion(version, complete))
    return h


def append_type(version):
    return {"Content-Type": "application/partial-upload"} if version >= 6 else {}


def creation_url(**query):
    return RESUMABLE + "?" + urllib.parse.urlencode(query)


@pytest.mark.parametrize("version", [3, 5, 6])
async def test_create_then_append_in_pieces(client, auth, root, version):
    data = os.urandom(300_000)
    options = await client.options(RESUMABLE, headers={"Upload-Draft-Interop-Version": str(version)})
    assert options.status == 200 and options.headers["Upload-Draft-Interop-Version"] == str(version)
    assert ("max-size=" in options.headers.get("Upload-Limit", "")) == (version >= 6)
    # Created empty (no 104 from aiohttp: a client creates first, then appends).
    created = await client.post(creation_url(path="/", filename="f ü %41%25&=+.bin", mtime="1600000000"),
                                headers=headers(auth, version, complete=False))
    assert created.status == 201 and created.headers["Upload-Offset"] == "0"
    assert not said_complete(version, created)
    url = created.headers["Location"]
    first = await client.patch(url, data=data[:100_000], headers=headers(
        auth, version, complete=False, **{"Upload-Offset": "0"}, **append_type(version)))
    assert first.status == 204 and first.headers["Upload-Offset"] == "100000"
    assert not (root / "f ü %41%25&=+.bin").exists()
    head = await client.head(url, headers=headers(auth, version))
    assert head.status == 204 and head.headers["Upload-Offset"] == "100000" and not said_complete(version, head)
    assert head.headers["Cache-Control"] == "no-store"
    behind = await client.patch(url, data=b"x", headers=headers(
        auth, version, complete=False, **{"Upload-Offset": "5"}, **append_type(version)))
    assert behind.status == 409 and behind.headers["Upload-Offset"] == "100000"
    digest = "sha-256=:" + base64.b64encode(hashlib.sha256(data[100_000:]).digest()).decode() + ":"
    last = await client.patch(url, data=data[100_000:], headers=headers(
        auth, version, complete=True, **{"Upload-Offset": "100000", "Content-Digest": digest}, **append_type(version)))
    assert last.status == 200 and said_complete(version, last), await last.text()
    assert (await last.json())["entry"]["name"] == "f ü %41%25&=+.bin"
    assert (root / "f ü %41%25&=+.bin").read_bytes() == data
    assert int(os.stat(root / "f ü %41%25&=+.bin").st_mtime) == 1600000000
    done = await client.head(url, headers=headers(auth, version))
    assert done.headers["Upload-Offset"] == str(len(data)) and said_complete(version, done)
    again = await client.patch(url, data=b"x", headers=headers(
        auth, version, complete=True, **{"Upload-Offset": str(len(data))}, **append_type(version)))
    assert again.status == 400 and said_complete(version, again)


async def test_a_whole_file_in_the_creation_and_the_checks_there(client, auth, root):
    small = b"small file"
    exists = await client.post(creation_url(path="/", filename="s.txt"), data=small,
                               headers=headers(auth, 6, complete=True))
    assert exists.status == 201 and (await exists.json())["entry"]["size"] == len(small)
    assert (root / "s.txt").read_bytes() == small
    taken = await client.post(creation_url(path="/", filename="s.txt"), data=small,
                              headers=headers(auth, 6, complete=True))
    assert taken.status == 409 and (await taken.json())["error"]["code"] == "exists"
    replaced = await client.post(creation_url(path="/", filename="s.txt", overwrite="true"), data=b"new",
                                 headers=headers(auth, 6, complete=True))
    assert replaced.status == 201 and (root / "s.txt").read_bytes() == b"new"
    missing = await client.post(creation_url(path="/nowhere", filename="s.txt"), headers=headers(auth, 6, False))
    assert missing.status == 404
    unknown = await client.post(creation_url(path="/", filename="v.txt"),
                                headers={**auth, "Upload-Draft-Interop-Version": "4", "Upload-Complete": "?0"})
    assert unknown.status == 400
    anonymous = await client.post(creation_url(path="/", filename="a.txt"), headers=headers({}, 6, complete=True))
    assert anonymous.status == 401


async def test_a_damaged_append_is_not_kept_and_version_6_needs_its_media_type(client, auth, root):
    created = await client.post(creation_url(path="/", filename="d.bin"), headers=headers(auth, 6, complete=False))
    url = created.headers["Location"]
    plain = await client.patch(url, data=b"abc", headers=headers(auth, 6, complete=False, **{"Upload-Offset": "0"}))
    assert plain.status == 415
    wrong = "sha-256=:" + base64.b64encode(b"0" * 32).decode() + ":"
    damaged = await client.patch(url, data=b"abc", headers=headers(
        auth, 6, complete=False, **{"Upload-Offset": "0", "Content-Digest": wrong}, **append_type(6)))
    assert damaged.status == 400 and (await damaged.json())["error"]["code"] == "digest_mismatch"
    assert (await client.head(url, headers=headers(auth, 6))).headers["Upload-Offset"] == "0"
    length = await client.patch(url, data=b"abc", headers=headers(
        auth, 6, complete=True, **{"Upload-Offset": "0", "Upload-Length": "5"}, **append_type(6)))
    assert length.status == 400 and (await length.json())["error"]["code"] == "inconsistent_length"
    cancelled = await client.delete(url, headers=headers(auth, 6))
    assert cancelled.status == 204
    assert (await client.head(url, headers=headers(auth, 6))).status == 404
    assert not (root / "d.bin").exists()
