"""The warm starter: each request forks a server that answers as a cold one does, SIGTERM stops one, a bad
argument ends only its own child, and when the starter's stdin ends every server it forked ends with it."""
import json
import os
import select
import signal
import subprocess
import sys
import urllib.request

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def request(starter, ready, argv):
    """Asks `starter` for a server; the FIFO's read end (opened first, as the Swift side does) and its lines."""
    os.mkfifo(ready)
    descriptor = os.open(ready, os.O_RDONLY | os.O_NONBLOCK)
    starter.stdin.write(json.dumps({"argv": argv, "ready": ready}) + "\n")
    starter.stdin.flush()
    lines, pending = [], b""
    while not (lines and (lines[-1].startswith("listening on ") or lines[-1] == "")):
        assert select.select([descriptor], [], [], 60)[0], lines
        chunk = os.read(descriptor, 4096)
        if not chunk:
            lines.append("")
            break
        pending += chunk
        *done, pending = pending.split(b"\n")
        lines += [line.decode() for line in done]
    return descriptor, [line for line in lines if line]


def ended(descriptor, timeout):
    """Whether the server writing into `descriptor` ended within `timeout` seconds (its FIFO's end)."""
    while select.select([descriptor], [], [], timeout)[0]:
        if not os.read(descriptor, 4096):
            return True
    return False


def test_servers_start_stop_and_end_with_the_starter(tmp_path):
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.txt").write_text("hello")
    starter = subprocess.Popen([sys.executable, "-u", "warm_start.py"], cwd=HERE, stdin=subprocess.PIPE, text=True)
    try:
        argv = ["--root", str(root), "--state", str(tmp_path / "state"), "--port", "0", "--user", "a@b.c:pw"]
        first, lines = request(starter, str(tmp_path / "one"), argv)
        pid = int(lines[0].split()[1])
        url = lines[-1].removeprefix("listening on ")
        body = json.dumps({"email": "a@b.c", "password": "pw"}).encode()
        signin = urllib.request.Request(url + "/api/auth/signin", body, {"Content-Type": "application/json"})
        assert "token" in json.load(urllib.request.urlopen(signin, timeout=30))

        refused, lines = request(starter, str(tmp_path / "bad"), ["--root", str(tmp_path / "missing")])
        assert not any(line.startswith("listening on ") for line in lines)
        assert ended(refused, 30)

        second, lines = request(starter, str(tmp_path / "two"), argv)
        assert lines[-1].startswith("listening on ")
        os.kill(pid, signal.SIGTERM)
        assert ended(first, 30)
        assert not ended(second, 0)
    finally:
        starter.stdin.close()
        starter.wait(timeout=30)
    assert ended(second, 30)  # its starter's end is its own
