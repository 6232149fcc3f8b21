"""Downloads into the server: `git-clone` (git) and `download-video` (yt-dlp), as jobs.

A server that fetches URLs for its users is an SSRF hole unless it refuses to reach what only it can
reach: its own loopback, the private network behind it, link-local metadata services. The URL is
checked when asked (scheme http or https, every address the host resolves to public), and the engines
then reach the network only through a guard proxy of this job's own that checks the address of every
connection they open, so a redirect to 127.0.0.1 or a name that re-resolves to a private address
(DNS rebinding) is refused too. Loopback ports can be allowed one by one (`--fetch-allow-port`), for
tests that serve media and repositories locally.
"""
import asyncio
import ipaddress
import os
import re
import shutil
import socket
import sys
import tempfile
from urllib.parse import unquote, urlsplit

from aiohttp import web

from .engine import run
from .errors import APIError, bad_request
from .files import body_json, field
from .paths import entry

TIMEOUT = 6 * 3600
GIT_PHASE = re.compile(r"^(remote: )?([A-Za-z][A-Za-z ]+):\s+(\d+)%")


class Refused(Exception):
    pass


async def checked_address(host, port, allowed_ports):
    """The address to connect to for host:port, if every address it resolves to may be reached."""
    try:
        infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as error:
        raise Refused(f"{host}: cannot resolve ({error.strerror})")
    addresses = []
    for info in infos:
        ip = ipaddress.ip_address(info[4][0].split("%")[0])
        if getattr(ip, "ipv4_mapped", None):
            ip = ip.ipv4_mapped
        if not (ip.is_global or (ip.is_loopback and port in allowed_ports)):
            where = f"{host} is" if host == str(ip) else f"{host} is {ip},"
            raise Refused(f"{where} a loopback, private or reserved address the server does not fetch from")
        addresses.append(info[4][0])
    if not addresses:
        raise Refused(f"{host}: no address")
    return addresses[0]


class GuardProxy:
    """An HTTP proxy (absolute-form requests and CONNECT) on 127.0.0.1 that connects only to allowed addresses."""

    def __init__(self, allowed_ports):
        self.allowed_ports = allowed_ports
        self.refusals = []
        self.server = None

    async def __aenter__(self):
        self.server = await asyncio.start_server(self._handle, "127.0.0.1", 0)
        self.url = f"http://127.0.0.1:{self.server.sockets[0].getsockname()[1]}"
        return self

    async def __aexit__(self, *exc):
        self.server.close()
        await self.server.wait_closed()

    async def _handle(self, reader, writer):
        upstream = None
        try:
            request_line = await reader.readline()
            headers = []
            while True:
                line = await reader.readline()
                if line in (b"\r\n", b"\n", b""):
                    break
                if not line.lower().startswith((b"proxy-", b"connection:", b"keep-alive:")):
                    headers.append(line)
            method, target, version = request_line.decode("latin-1").split()
            if method == "CONNECT":
                host, _, port = target.rpartition(":")
                host, port = host.strip("[]"), int(port)
            else:
                url = urlsplit(target)
                if url.scheme != "http" or not url.hostname:
                    raise Refused(f"{target}: only http and https")
                host, port = url.hostname, url.port or 80
            try:
                address = await checked_address(host, port, self.allowed_ports)
            except Refused as refusal:
                self.refusals.append(str(refusal))
                writer.write(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                return
            up_reader, upstream = await asyncio.open_connection(address, port)
            if method == "CONNECT":
                writer.write(b"HTTP/1.1 200 Connection established\r\n\r\n")
            else:
                path = (url.path or "/") + ("?" + url.query if url.query else "")
                upstream.write(f"{method} {path} {version}\r\n".encode("latin-1") + b"".join(headers)
                               + b"Connection: close\r\n\r\n")
            await asyncio.gather(self._pipe(reader, upstream), self._pipe(up_reader, writer))
        except (OSError, ValueError, asyncio.IncompleteReadError):
            pass
        finally:
            for w in (writer, upstream):
                if w is not None:
                    w.close()

    @staticmethod
    async def _pipe(reader, writer):
        try:
            while True:
                chunk = await reader.read(65536)
                if not chunk:
                    break
                writer.write(chunk)
                await writer.drain()
        finally:
            if writer.can_write_eof():
                try:
                    writer.write_eof()
                except OSError:
                    pass


class Fetch:
    def __init__(self, roots, jobs, allowed_ports=()):
        self.roots = roots
        self.jobs = jobs
        self.allowed_ports = set(allowed_ports)

    def routes(self):
        p = "/api/file-browser/"
        return [web.post(p + "git-clone", self.git_clone), web.post(p + "download-video", self.download_video)]

    async def _request(self, request):
        data = await body_json(request)
        root = field(data, "root", required=False, default="home")
        url = field(data, "url")
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise bad_request("unsupported_url", f"{url}: the server fetches only http and https URLs")
        if parts.username or parts.password:
            raise bad_request("unsupported_url", f"{url}: credentials in URLs are not accepted")
        try:
            await checked_address(parts.hostname, parts.port or (443 if parts.scheme == "https" else 80),
                                  self.allowed_ports)
        except Refused as refusal:
            raise APIError(403, "forbidden_address", str(refusal))
        folder_path, folder_local = self.roots.resolve(root, field(data, "path", required=False, default="/"),
                                                       must_exist=True)
        if not os.path.isdir(folder_local):
            raise bad_request("not_a_directory", f"{folder_path}: not a folder")
        return data, root, url, folder_path, folder_local

    def _failure(self, proxy, error):
        if proxy.refusals:
            return APIError(403, "forbidden_address", proxy.refusals[0])
        return error

    def _environment(self, home):
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home, "LANG": "C.UTF-8",
               "GIT_TERMINAL_PROMPT": "0", "GIT_CONFIG_NOSYSTEM": "1"}
        return env

    async def git_clone(self, request):
        data, root, url, folder_path, folder_local = await self._request(request)
        name = field(data, "name", required=False) or unquote(urlsplit(url).path.rstrip("/").rsplit("/", 1)[-1])
        if name.endswith(".git"):
            name = name[:-4]
        if not name or name in (".", "..") or "/" in name or "\x00" in name or name.startswith("."):
            raise bad_request("invalid_name", f"cannot name a folder after {url}; give a name")
        dest_path, dest_local = self.roots.resolve(root, folder_path.rstrip("/") + "/" + name)
        if os.path.lexists(dest_local):
            raise APIError(409, "exists", f"{dest_path}: already exists")

        async def work(progress):
            progress.update(done=0, total=100, unit="percent", message="connecting")

            def on_line(line):
                match = GIT_PHASE.match(line.strip())
                if match:
                    progress.update(done=int(match.group(3)), message=match.group(2).lower())
            staging = tempfile.mkdtemp(prefix=".officer-upload-", dir=folder_local)
            try:
                async with GuardProxy(self.allowed_ports) as proxy:
                    try:
                        await run("git", "-c", f"http.proxy={proxy.url}", "-c", "protocol.allow=never",
                                  "-c", "protocol.http.allow=always", "-c", "protocol.https.allow=always",
                                  "-c", "core.symlinks=false", "-c", "credential.helper=",
                                  "clone", "--progress", "--no-recurse-submodules", "--", url,
                                  os.path.join(staging, "repo"), timeout=TIMEOUT, on_line=on_line,
                                  progress_stream="stderr", env=self._environment(staging))
                    except APIError as error:
                        raise self._failure(proxy, error)
                if os.path.lexists(dest_local):
                    raise APIError(409, "exists", f"{dest_path}: already exists")
                os.rename(os.path.join(staging, "repo"), dest_local)
            finally:
                shutil.rmtree(staging, ignore_errors=True)
            return {"entry": entry(dest_path, dest_local), "engine": "git"}
        return await self.jobs.respond(request, "git-clone", url, work, status=201, always=True)

    async def download_video(self, request):
        data, root, url, folder_path, folder_local = await self._request(request)
        overwrite = field(data, "overwrite", bool, required=False, default=False)

        async def work(progress):
            progress.update(done=0, total=None, unit="bytes", message="connecting")

            def on_line(line):
                if line.startswith("officer-progress "):
                    values = line.split()[1:]
                    numbers = [int(float(v)) if v not in ("NA", "None") else None for v in values]
                    done, total, estimate = (numbers + [None, None, None])[:3]
                    progress.update(done=done, total=total or estimate, message="downloading")
            staging = tempfile.mkdtemp(prefix=".officer-upload-", dir=folder_local)
            try:
                async with GuardProxy(self.allowed_ports) as proxy:
                    try:
                        await run(sys.executable, "-m", "yt_dlp", "--ignore-config", "--no-cache-dir", "--no-playlist",
                                  "--proxy", proxy.url, "--newline", "--no-part", "--no-exec",
                                  "--progress-template",
                                  "download:officer-progress %(progress.downloaded_bytes)s %(progress.total_bytes)s "
                                  "%(progress.total_bytes_estimate)s",
                                  "-P", staging, "-o", "%(title).200B.%(ext)s", "--", url,
                                  timeout=TIMEOUT, on_line=on_line, env=self._environment(staging), name="yt-dlp")
                    except APIError as error:
                        raise self._failure(proxy, error)
                entries = []
                names = sorted(n for n in os.listdir(staging) if not n.startswith("."))
                if not names:
                    raise APIError(422, "nothing_downloaded", f"{url}: yt-dlp found no media")
                for name in names:
                    target_path, target_local = self.roots.resolve(root, folder_path.rstrip("/") + "/" + name)
                    if os.path.lexists(target_local) and not overwrite:
                        raise APIError(409, "exists", f"{target_path}: already exists")
                for name in names:
                    target_path, target_local = self.roots.resolve(root, folder_path.rstrip("/") + "/" + name)
                    os.chmod(os.path.join(staging, name), 0o644)
                    os.replace(os.path.join(staging, name), target_local)
                    entries.append(entry(target_path, target_local))
            finally:
                shutil.rmtree(staging, ignore_errors=True)
            return {"entries": entries, "engine": "yt-dlp"}
        return await self.jobs.respond(request, "download-video", url, work, status=201, always=True)
