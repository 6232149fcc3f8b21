import base64
import hashlib
import os

from officer_server.app import create_app
from conftest import EMAIL, PASSWORD

TUS = "/api/file-browser/tus"


def meta(**items):
    return ",".join(f"{k} {base64.b64encode(str(v).encode()).decode()}" for k, v in items.items())


def tus(auth, **extra):
    return {**auth, "Tus-Resumable": "1.0.0", **extra}


async def test_options_advertises_extensions(client):
    response = await client.options(TUS)
    assert response.status == 204
    assert "creation-with-upload" in response.headers["Tus-Extension"]
    assert "sha256" in response.headers["Tus-Checksum-Algorithm"]
    assert int(response.headers["Tus-Max-Size"]) > 0


async def test_create_patch_head_and_finish(client, auth, root):
    data = os.urandom(300_000)
    created = await client.post(TUS, headers=tus(auth, **{"Upload-Length": str(len(data)),
                                                         "Upload-Metadata": meta(filename="f.bin", path="/", mtime=1600000000)}))
    assert created.status == 201
    url = created.headers["Location"]
    head = await client.head(url, headers=tus(auth))
    assert head.headers["Upload-Offset"] == "0"
    first = await client.patch(url, data=data[:100_000], headers=tus(auth, **{
        "Upload-Offset": "0", "Content-Type": "application/offset+octet-stream",
        "Upload-Checksum": "sha1 " + base64.b64encode(hashlib.sha1(data[:100_000]).digest()).decode()}))
    assert first.status == 204 and first.headers["Upload-Offset"] == "100000"
    assert not (root / "f.bin").exists()
    wrong = await client.patch(url, data=b"x", headers=tus(auth, **{
        "Upload-Offset": "5", "Content-Type": "application/offset+octet-stream"}))
    assert wrong.status == 409
    bad_sum = await client.patch(url, data=data[100_000:], headers=tus(auth, **{
        "Upload-Offset": "100000", "Content-Type": "application/offset+octet-stream",
        "Upload-Checksum": "sha256 " + base64.b64encode(b"0" * 32).decode()}))
    assert bad_sum.status == 460
    assert (await client.head(url, headers=tus(auth))).headers["Upload-Offset"] == "100000"
    rest = await client.patch(url, data=data[100_000:], headers=tus(auth, **{
        "Upload-Offset": "100000", "Content-Type": "application/offset+octet-stream",
        "Upload-Checksum": "sha256 " + base64.b64encode(hashlib.sha256(data[100_000:]).digest()).decode()}))
    assert rest.status == 204 and rest.headers["Upload-Offset"] == str(len(data))
    assert (root / "f.bin").read_bytes() == data
    assert int(os.stat(root / "f.bin").st_mtime) == 1600000000


async def test_creation_with_upload_and_version_check(client, auth, root):
    response = await client.post(TUS, data=b"small", headers={**auth, "Upload-Length": "5"})
    assert response.status == 412
    response = await client.post(TUS, data=b"small", headers=tus(auth, **{
        "Upload-Length": "5", "Content-Type": "application/offset+octet-stream",
        "Upload-Metadata": meta(filename="s.txt", path="/")}))
    assert response.status == 201 and response.headers["Upload-Offset"] == "5"
    assert (root / "s.txt").read_bytes() == b"small"
    again = await client.post(TUS, headers=tus(auth, **{"Upload-Length": "5", "Upload-Metadata": meta(filename="s.txt")}))
    assert again.status == 409
    evil = await client.post(TUS, headers=tus(auth, **{"Upload-Length": "5", "Upload-Metadata": meta(filename="../x")}))
    assert evil.status == 400


async def test_a_first_chunk_inside_the_creation_is_checked_and_a_refused_one_leaves_nothing(client, auth, root, tmp_path):
    body = os.urandom(3000)
    good = "sha256 " + base64.b64encode(hashlib.sha256(body[:1000]).digest()).decode()
    headers = {"Upload-Length": "3000", "Content-Type": "application/offset+octet-stream",
               "Upload-Metadata": meta(filename="first.bin", path="/")}
    def uploads():
        return sorted(str(p) for p in (tmp_path / "state").rglob("*") if p.suffix in (".json", ".part"))
    before = uploads()
    refused = await client.post(TUS, data=body[:1000], headers=tus(auth, **headers, **{"Upload-Checksum": good[:-4] + "AAA="}))
    assert refused.status == 460
    assert uploads() == before, "a refused creation leaves no upload behind"
    created = await client.post(TUS, data=body[:1000], headers=tus(auth, **headers, **{"Upload-Checksum": good}))
    assert created.status == 201 and created.headers["Upload-Offset"] == "1000"
    rest = await client.patch(created.headers["Location"], data=body[1000:], headers=tus(auth, **{
        "Upload-Offset": "1000", "Content-Type": "application/offset+octet-stream"}))
    assert rest.status == 204 and (root / "first.bin").read_bytes() == body


async def test_termination(client, auth):
    created = await client.post(TUS, headers=tus(auth, **{"Upload-Length": "10", "Upload-Metadata": meta(filename="t")}))
    url = created.headers["Location"]
    assert (await client.delete(url, headers=tus(auth))).status == 204
    assert (await client.head(url, headers=tus(auth))).status == 404


async def test_expiration(aiohttp_client, root, tmp_path, auth):
    app = create_app({"home": str(root)}, {EMAIL: PASSWORD}, str(tmp_path / "s2"), tus_expiry=-1)
    client = await aiohttp_client(app)
    token = (await (await client.post("/api/auth/signin", json={"email": EMAIL, "password": PASSWORD})).json())["token"]
    headers = {"Authorization": f"Bearer {token}", "Tus-Resumable": "1.0.0"}
    created = await client.post(TUS, headers={**headers, "Upload-Length": "3", "Upload-Metadata": meta(filename="e")})
    response = await client.head(created.headers["Location"], headers=headers)
    assert response.status == 410


async def test_concatenation(client, auth, root):
    urls = []
    for piece in [b"hello ", b"world"]:
        created = await client.post(TUS, data=piece, headers=tus(auth, **{
            "Upload-Length": str(len(piece)), "Upload-Concat": "partial",
            "Content-Type": "application/offset+octet-stream"}))
        urls.append(created.headers["Location"])
    assert not any(root.iterdir())
    final = await client.post(TUS, headers=tus(auth, **{
        "Upload-Concat": "final;" + " ".join(urls), "Upload-Metadata": meta(filename="joined.txt", path="/")}))
    assert final.status == 201
    assert (root / "joined.txt").read_bytes() == b"hello world"


async def test_state_survives_restart(aiohttp_client, root, tmp_path):
    state = str(tmp_path / "persist")
    first = await aiohttp_client(create_app({"home": str(root)}, {EMAIL: PASSWORD}, state, secret="k" * 32))
    token = (await (await first.post("/api/auth/signin", json={"email": EMAIL, "password": PASSWORD})).json())["token"]
    headers = {"Authorization": f"Bearer {token}", "Tus-Resumable": "1.0.0"}
    created = await first.post(TUS, data=b"abc", headers={**headers, "Upload-Length": "6",
                                                          "Content-Type": "application/offset+octet-stream",
                                                          "Upload-Metadata": meta(filename="r.txt")})
    url = created.headers["Location"]
    second = await aiohttp_client(create_app({"home": str(root)}, {EMAIL: PASSWORD}, state, secret="k" * 32))
    assert (await second.head(url, headers=headers)).headers["Upload-Offset"] == "3"
    done = await second.patch(url, data=b"def", headers={**headers, "Upload-Offset": "3",
                                                         "Content-Type": "application/offset+octet-stream"})
    assert done.status == 204 and (root / "r.txt").read_bytes() == b"abcdef"


async def test_a_request_that_comes_back_interrupts_the_one_still_running(client, auth, root):
    """A client whose connection broke comes back with HEAD while its old PATCH still runs on the server:
    the old PATCH is stopped first, so the HEAD reads what it kept (every byte without a checksum, none of an
    unverified checksummed chunk), never an offset that then changes."""
    import asyncio

    for checksummed, kept in ((False, 100_000), (True, 0)):
        created = await client.post(TUS, headers=tus(auth, **{"Upload-Length": "300000",
                                                             "Upload-Metadata": meta(filename=f"l{kept}.bin", path="/")}))
        url = created.headers["Location"]
        sent = asyncio.Event()

        async def body():
            yield b"a" * 100_000
            sent.set()
            await asyncio.sleep(3600)

        headers = {"Upload-Offset": "0", "Content-Type": "application/offset+octet-stream"}
        if checksummed:
            headers["Upload-Checksum"] = "sha256 " + base64.b64encode(hashlib.sha256(b"a" * 300_000).digest()).decode()
        stuck = asyncio.ensure_future(client.patch(url, data=body(), headers=tus(auth, **headers)))
        await sent.wait()
        await asyncio.sleep(0.3)  # the server has read the first bytes and waits for more
        head = await client.head(url, headers=tus(auth))
        assert head.status == 200 and head.headers["Upload-Offset"] == str(kept)
        again = await client.head(url, headers=tus(auth))
        assert again.headers["Upload-Offset"] == str(kept)
        stuck.cancel()
