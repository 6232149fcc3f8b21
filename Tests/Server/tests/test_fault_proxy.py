"""The fault proxy's write faults, through scripts/fault-proxy in front of scripts/reference-server, with real
clients (requests, curl, a raw socket for pipelining)."""
import base64
import os
import re
import signal
import socket
import subprocess

import pytest
import requests

from conftest import EMAIL, PASSWORD

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
FB = "/api/file-browser/"
TUS = FB + "tus"
MB = 1 << 20


def start(script, *args):
    process = subprocess.Popen([os.path.join(REPO, "scripts", script), *args], stdout=subprocess.PIPE, text=True)
    line = process.stdout.readline()
    assert line.startswith("listening on http://127.0.0.1:"), line
    return process, int(line.rsplit(":", 1)[1])


@pytest.fixture
def server(tmp_path):
    root = tmp_path / "root"
    root.mkdir()
    process, port = start("reference-server", "--root", str(root), "--state", str(tmp_path / "state"),
                          "--user", f"{EMAIL}:{PASSWORD}")
    token = requests.post(f"http://127.0.0.1:{port}/api/auth/signin", json={"email": EMAIL, "password": PASSWORD}).json()["token"]
    yield {"port": port, "root": root, "auth": {"Authorization": f"Bearer {token}"}, "token": token}
    process.terminate()
    process.wait()


@pytest.fixture
def proxy(server):
    started = []

    def run(*faults):
        process, port = start("fault-proxy", "--listen", "0", "--target", f"127.0.0.1:{server['port']}",
                              "--lifetime", "120", *faults)
        started.append(process)
        return process, f"http://127.0.0.1:{port}"

    yield run
    for process in started:
        process.terminate()
        process.wait()


def tus_headers(auth, **extra):
    return {**auth, "Tus-Resumable": "1.0.0", **extra}


def create_upload(base, auth, name, length):
    metadata = f"filename {base64.b64encode(name.encode()).decode()},path {base64.b64encode(b'/').decode()}"
    created = requests.post(base + TUS, headers=tus_headers(auth, **{"Upload-Length": str(length), "Upload-Metadata": metadata}))
    assert created.status_code == 201
    return base + created.headers["Location"]  # the reference server's Location is a path


def patch(session, url, body, offset, auth, **extra):
    return session.patch(url, data=body, headers=tus_headers(auth, **{
        "Upload-Offset": str(offset), "Content-Type": "application/offset+octet-stream"}), **extra)


def test_fail_writes_every_answers_without_forwarding_on_a_kept_connection(server, proxy):
    _, base = proxy("--fail-writes-every", "2", "--status", "503", "--retry-after", "3")
    session = requests.Session()
    answers = []
    for name in "abcd":
        answers.append(session.post(base + FB + "mkdir", json={"path": "/" + name}, headers=server["auth"]))
        # reads in between are not counted, and go through the same connection
        assert session.get(base + FB + "ls", params={"path": "/"}, headers=server["auth"]).status_code == 200
    assert [a.status_code for a in answers] == [201, 503, 201, 503]
    assert answers[1].headers["Retry-After"] == "3" and answers[1].json()["error"]["code"] == "injected"
    assert sorted(os.listdir(server["root"])) == ["a", "c"]  # the failed ones never reached the server


def test_pipelined_requests_are_answered_in_order(server, proxy):
    _, base = proxy("--fail-writes-every", "2")
    port = int(base.rsplit(":", 1)[1])
    token = server["token"]

    def mkdir(name):
        body = b'{"path": "/%s"}' % name
        return (b"POST /api/file-browser/mkdir HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\n"
                b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n%s" % (token.encode(), len(body), body))

    stat = b"GET /api/file-browser/stat?path=/ HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\n\r\n" % token.encode()
    with socket.create_connection(("127.0.0.1", port)) as s:
        # One write, all at once: mkdir p1 (forwarded), stat, mkdir p2 (failed), mkdir p3 (forwarded), close.
        s.sendall(mkdir(b"p1") + stat + mkdir(b"p2") + mkdir(b"p3") + stat.replace(b"\r\n\r\n", b"\r\nConnection: close\r\n\r\n"))
        received = b""
        while chunk := s.recv(65536):
            received += chunk
    statuses = [int(status) for status in re.findall(rb"HTTP/1\.1 (\d{3}) ", received)]
    assert statuses == [201, 200, 500, 201, 200]
    assert sorted(os.listdir(server["root"])) == ["p1", "p3"]


def test_fail_after_forward_applies_the_write_and_loses_its_answer(server, proxy):
    _, base = proxy("--fail-after-forward-every", "2")
    session = requests.Session()
    first = session.post(base + FB + "mkdir", json={"path": "/one"}, headers=server["auth"])
    second = session.post(base + FB + "mkdir", json={"path": "/two"}, headers=server["auth"])
    assert (first.status_code, second.status_code) == (201, 500)
    assert second.headers["Connection"] == "close"
    assert sorted(os.listdir(server["root"])) == ["one", "two"]  # applied all the same
    # The retry a client makes meets the applied change.
    again = session.post(base + FB + "mkdir", json={"path": "/two"}, headers=server["auth"])
    assert again.status_code == 409


def test_cut_before_answer_is_a_last_patch_the_server_applied(server, proxy):
    _, base = proxy("--cut-before-answer-every", "3")
    auth = server["auth"]
    data = os.urandom(2 * MB)
    url = create_upload(base, auth, "f.bin", len(data))  # write 1: the creation
    session = requests.Session()
    assert patch(session, url, data[:MB], 0, auth).status_code == 204  # write 2
    with pytest.raises(requests.ConnectionError):
        patch(session, url, data[MB:], MB, auth)  # write 3: applied, then the client's connection is reset
    direct = f"http://127.0.0.1:{server['port']}" + url[len(base):]
    head = requests.head(direct, headers=tus_headers(auth))
    assert head.headers["Upload-Offset"] == str(len(data))
    assert (server["root"] / "f.bin").read_bytes() == data


def peak_memory_kib(process):
    with open(f"/proc/{process.pid}/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmHWM:"))


@pytest.mark.parametrize("fault", ["--fail-after-forward-every", "--fail-writes-every"])
def test_a_100_mb_patch_streams_through_with_flat_memory(server, proxy, tmp_path, fault):
    process, base = proxy(fault, "3")
    auth = server["auth"]
    size = 100 * MB
    source = tmp_path / "big.bin"
    with open(source, "wb") as f:
        f.truncate(size)  # sparse: cheap to make, still 100 MB on the wire
    url = create_upload(base, auth, "big.bin", size)  # write 1
    session = requests.Session()
    before = peak_memory_kib(process)
    with open(source, "rb") as f:
        assert patch(session, url, f, 0, auth).status_code == 204  # write 2, Content-Length framed
    with open(source, "rb") as f:
        failed = patch(session, url, f, size, auth)  # write 3: the fault
    assert failed.status_code == 500
    assert peak_memory_kib(process) - before < 20 * 1024
    assert (server["root"] / "big.bin").stat().st_size == size


def test_chunked_bodies_are_framed(server, proxy):
    _, base = proxy("--fail-writes-every", "3")
    auth = server["auth"]
    data = os.urandom(3 * MB + 17)
    url = create_upload(base, auth, "c.bin", len(data))  # write 1

    def pieces(body):
        for i in range(0, len(body), 100_000):
            yield body[i:i + 100_000]

    session = requests.Session()
    first = patch(session, url, pieces(data[:MB]), 0, auth)  # write 2, Transfer-Encoding: chunked
    assert first.status_code == 204 and first.headers["Upload-Offset"] == str(MB)
    assert patch(session, url, pieces(data[MB:]), MB, auth).status_code == 500  # write 3: dropped, body read
    done = patch(session, url, pieces(data[MB:]), MB, auth)  # write 4, same connection
    assert done.status_code == 204 and (server["root"] / "c.bin").read_bytes() == data


def curl_upload(base, token, path, name, expect):
    result = subprocess.run(["curl", "-sS", "-o", "/dev/null", "-w", "%{http_code}", "-H", f"Authorization: Bearer {token}",
                             *([] if expect else ["-H", "Expect:"]), "-F", "path=/", "-F", f"file=@{path};filename={name}",
                             base + FB + "upload"], capture_output=True, text=True, timeout=60)
    return result.stdout, result.returncode


@pytest.mark.parametrize("expect", [True, False])
def test_curl_multipart_upload_through_each_write_fault(server, proxy, tmp_path, expect):
    source = tmp_path / "m.bin"
    source.write_bytes(os.urandom(3 * MB))  # curl sends Expect: 100-continue for a body this large
    token = server["token"]
    _, failing = proxy("--fail-writes-every", "1")
    assert curl_upload(failing, token, source, "failed.bin", expect) == ("500", 0)
    _, losing = proxy("--fail-after-forward-every", "1")
    assert curl_upload(losing, token, source, "applied.bin", expect) == ("500", 0)
    _, cutting = proxy("--cut-before-answer-every", "1")
    status, exit_code = curl_upload(cutting, token, source, "cut.bin", expect)
    assert status in ("000", "100") and exit_code == 56  # no final answer (at most the 100 Continue): a broken connection
    assert sorted(os.listdir(server["root"])) == ["applied.bin", "cut.bin"]
    assert (server["root"] / "applied.bin").read_bytes() == source.read_bytes()


def test_byte_faults_still_apply(server, proxy):
    """The byte mode the older flags use (no HTTP parsing) is unchanged by the write faults."""
    (server["root"] / "r.bin").write_bytes(os.urandom(MB))
    _, base = proxy("--fail-request", "1", "--retry-after", "2")
    first = requests.get(base + FB + "stat", params={"path": "/r.bin"}, headers=server["auth"])
    assert first.status_code == 503 and first.headers["Retry-After"] == "2"
    assert requests.get(base + FB + "stat", params={"path": "/r.bin"}, headers=server["auth"]).status_code == 200
    _, base = proxy("--reset-after", "100000")
    with pytest.raises(requests.exceptions.ChunkedEncodingError):
        requests.get(base + FB + "raw", params={"path": "/r.bin"}, headers=server["auth"]).content
    _, base = proxy("--fail-writes-every", "2", "--reset-after", "100000")  # both: the reset still cuts
    with pytest.raises(requests.exceptions.ChunkedEncodingError):
        requests.get(base + FB + "raw", params={"path": "/r.bin"}, headers=server["auth"]).content


def test_hold_after_holds_until_sigusr1(server, proxy):
    """--hold-after: the bytes up to the mark go, nothing past it before SIGUSR1 (a test's own moment, not a rate),
    then every byte arrives as sent; later requests flow."""
    data = os.urandom(3 * MB)
    (server["root"] / "h.bin").write_bytes(data)
    process, base = proxy("--hold-after", str(MB))
    port = int(base.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port)) as raw:
        raw.sendall(f"GET {FB}raw?path=/h.bin HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {server['token']}\r\n"
                    "Connection: close\r\n\r\n".encode())
        got = b""
        while len(got) < MB:
            got += raw.recv(1 << 16)
        assert len(got) == MB  # the mark exactly: head and body bytes together
        raw.settimeout(0.3)
        with pytest.raises(socket.timeout):
            raw.recv(1 << 16)  # held
        raw.settimeout(None)
        process.send_signal(signal.SIGUSR1)
        while chunk := raw.recv(1 << 20):
            got += chunk
    assert got.split(b"\r\n\r\n", 1)[1] == data
    assert requests.get(base + FB + "raw", params={"path": "/h.bin"}, headers=server["auth"]).content == data
