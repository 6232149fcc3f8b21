import io
import subprocess
import tarfile
import wave
import zipfile

from conftest import error_code, make_text_image

FB = "/api/file-browser/"


async def test_ocr_reads_text(client, auth, root):
    make_text_image(root / "sign.png", "HELLO OFFICER 42")
    response = await client.post(FB + "ocr", json={"path": "/sign.png"}, headers=auth)
    assert response.status == 200
    assert "HELLO OFFICER 42" in (await response.json())["text"]


async def test_ocr_on_non_image_fails_cleanly(client, auth, root):
    (root / "x.txt").write_text("not an image")
    response = await client.post(FB + "ocr", json={"path": "/x.txt"}, headers=auth)
    assert response.status == 422 and await error_code(response) == "engine_failed"


async def test_tts_from_file_and_text(client, auth, root):
    (root / "note.txt").write_text("Hello from the reference server.")
    response = await client.post(FB + "tts", json={"path": "/note.txt"}, headers=auth)
    assert response.status == 201
    entry = (await response.json())["entry"]
    assert entry["path"] == "/note.wav"
    with wave.open(str(root / "note.wav")) as w:
        assert w.getnframes() / w.getframerate() > 0.5
    response = await client.post(FB + "tts", json={"text": "short", "output": "/spoken.wav"}, headers=auth)
    assert response.status == 201 and (root / "spoken.wav").stat().st_size > 1000
    again = await client.post(FB + "tts", json={"text": "short", "output": "/spoken.wav"}, headers=auth)
    assert again.status == 409


async def test_transcribe_and_extract_audio(client, auth, root):
    subprocess.run(["espeak-ng", "-s", "120", "-w", str(root / "speech.wav"), "hello world"], check=True)
    subprocess.run(["ffmpeg", "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "color=c=black:s=64x64:d=1",
                    "-i", str(root / "speech.wav"), "-shortest", "-c:v", "libx264", "-c:a", "aac",
                    str(root / "clip.mp4")], check=True)
    response = await client.post(FB + "transcribe", json={"path": "/speech.wav"}, headers=auth)
    body = await response.json()
    assert response.status == 200 and body["engine"] == "pocketsphinx" and body["text"].strip()
    response = await client.post(FB + "extract-audio", json={"path": "/clip.mp4", "format": "wav"}, headers=auth)
    assert response.status == 201
    with wave.open(str(root / "clip.wav")) as w:
        assert w.getnframes() > 0
    response = await client.post(FB + "extract-audio", json={"path": "/clip.mp4", "format": "exe"}, headers=auth)
    assert response.status == 400


async def test_extract_archives_safely(client, auth, root):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as z:
        z.writestr("a/b.txt", "b")
    (root / "ok.zip").write_bytes(buffer.getvalue())
    response = await client.post(FB + "extract", json={"path": "/ok.zip"}, headers=auth)
    assert response.status == 201 and (root / "ok" / "a" / "b.txt").read_text() == "b"
    evil = io.BytesIO()
    with tarfile.open(fileobj=evil, mode="w") as t:
        info = tarfile.TarInfo("../escape.txt")
        info.size = 1
        t.addfile(info, io.BytesIO(b"x"))
    (root / "evil.tar").write_bytes(evil.getvalue())
    response = await client.post(FB + "extract", json={"path": "/evil.tar"}, headers=auth)
    assert response.status == 400 and await error_code(response) == "unsafe_archive"
    assert not (root.parent / "escape.txt").exists() and not (root / "evil").exists()
