"""The stand-in transfer daemon: tasks by label, run to their end, adopted by a second asker, results in files."""
import base64
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from transfer_daemon import make_app  # noqa: E402


async def test_a_download_and_an_upload_run_and_a_second_asker_adopts_them(aiohttp_client, aiohttp_server, app, root,
                                                                            tmp_path):
    officer = await aiohttp_server(app)
    daemon = await aiohttp_client(make_app())
    base = f"http://127.0.0.1:{officer.port}"
    # A body from a file: the sign-in's JSON.
    credentials = tmp_path / "signin.json"
    credentials.write_text('{"email": "ann@example.org", "password": "s3cret"}')
    signin = await daemon.post("/tasks", json={
        "label": "signin", "method": "POST", "url": base + "/api/auth/signin",
        "headers": [["Content-Type", "application/json"]], "body": str(credentials), "into": None})
    result = await (await daemon.get(f"/tasks/{(await signin.json())['id']}/result")).json()
    assert result["status"] == 200, result
    token = json.loads(base64.b64decode(result["body"]))["token"]

    (root / "big.bin").write_bytes(os.urandom(300_000))
    spec = {"label": "download big #0 0-99999", "method": "GET",
            "url": base + "/api/file-browser/raw?path=/big.bin&root=home",
            "headers": [["Authorization", f"Bearer {token}"], ["Range", "bytes=0-99999"]],
            "body": None, "into": str(tmp_path / "piece0")}
    first = await (await daemon.post("/tasks", json=spec)).json()
    again = await (await daemon.post("/tasks", json=spec)).json()
    assert again == {"id": first["id"], "adopted": True}
    listed = await (await daemon.get("/tasks")).json()
    assert any(t["label"] == spec["label"] for t in listed)
    done = await (await daemon.get(f"/tasks/{first['id']}/result")).json()
    assert done["state"] == "finished" and done["status"] == 206
    assert (tmp_path / "piece0").read_bytes() == (root / "big.bin").read_bytes()[:100_000]
    log = await (await daemon.get("/log")).json()
    assert [e["range"] for e in log if e["label"] == spec["label"]] == ["bytes=0-99999"], "asked once"
    # Forgotten once taken: the same label is a new task.
    await daemon.delete(f"/tasks/{first['id']}")
    third = await (await daemon.post("/tasks", json=spec)).json()
    assert third["adopted"] is False
    # The same label asked with another request (an If-Range of a newer version) is not the held task.
    changed = {**spec, "headers": spec["headers"] + [["If-Range", '"newer"']], "into": str(tmp_path / "piece0b")}
    fourth = await (await daemon.post("/tasks", json=changed)).json()
    assert fourth["adopted"] is False and fourth["id"] != third["id"]
