"""The file-browser endpoints of docs/officer-api.md."""
import asyncio
import hashlib
import os
import shutil
import tempfile
import zipfile

from aiohttp import web

from .errors import APIError, bad_request, conflict, not_found, placement_error
from .paths import child_path, entry
from .ranges import serve_file

READ_LIMIT = 1 << 20
SEARCH_LIMIT = 1000


def json_response(data, status=200):
    return web.json_response(data, status=status)


async def body_json(request):
    try:
        data = await request.json()
    except Exception:
        raise bad_request("invalid_json", "request body is not valid JSON")
    if not isinstance(data, dict):
        raise bad_request("invalid_json", "request body must be a JSON object")
    return data


def field(data, name, kind=str, required=True, default=None):
    if name not in data or data[name] is None:
        if required:
            raise bad_request("missing_field", f"missing field '{name}'")
        return default
    value = data[name]
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if not isinstance(value, kind) or (kind is not bool and isinstance(value, bool)):
        raise bad_request("invalid_field", f"field '{name}' must be {kind.__name__}")
    return value


def valid_name(name):
    if not name or name in (".", "..") or "/" in name or "\x00" in name:
        raise bad_request("invalid_name", f"invalid file name {name!r}")
    return name


def atomic_write(local, chunks, mtime=None):
    """Writes to a temp file beside `local`, fsyncs, then renames into place: readers never see half a file."""
    directory = os.path.dirname(local)
    fd, tmp = tempfile.mkstemp(prefix=".officer-upload-", dir=directory)
    try:
        with os.fdopen(fd, "wb") as f:
            for chunk in chunks:
                f.write(chunk)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o644)
        if mtime is not None:
            os.utime(tmp, (mtime, mtime))
        os.replace(tmp, local)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def place(path, local, chunks, mtime=None, headers=None):
    """atomic_write for the client's `path`: a failure leaves nothing under the final name (nor a temp file) and
    answers as placement_error says (507 on a full disk, 404 when the parent folder went away meanwhile)."""
    try:
        atomic_write(local, chunks, mtime)
    except OSError as error:
        raise placement_error(error, path, headers) from error


def sha256_file(local):
    digest = hashlib.sha256()
    with open(local, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def hostile_entries(folder):
    """What a malicious or broken server might list in `folder`: names a client must never use as paths."""
    def fake(name, path):
        return {"name": name, "path": path, "type": "file", "size": 5, "mtime": 1700000000.0, "mode": 420, "mime": "text/plain"}
    return [fake("..", folder + "/.."), fake("../escape.txt", folder + "/../escape.txt"), fake("passwd", "/etc/passwd"),
            fake("nul\u0000.txt", folder + "/nul\u0000.txt"), fake("x/y.txt", folder + "/x/y.txt")]


def hidden(name):
    # Upload temp files are never shown: a half-written file must not look like a file.
    return name.startswith(".officer-upload-")


class FileBrowser:
    def __init__(self, roots, hostile_names=False, seed=False):
        self.roots = roots
        self.hostile_names = hostile_names
        # The seed's server (`--api seed`): no stat, tree, sha256 nor mtime, and writes keep no time sent by the
        # client (a stored file's time is when it was stored); its multipart upload takes no `overwrite` and
        # replaces a file of the same name, as a browser's upload to a folder does.
        self.seed = seed

    def routes(self):
        p = "/api/file-browser/"
        routes = [
            web.get(p + "ls", self.ls), web.get(p + "read", self.read), web.get(p + "raw", self.raw),
            web.get(p + "search", self.search),
            web.post(p + "mkdir", self.mkdir), web.post(p + "write", self.write), web.post(p + "upload", self.upload),
            web.post(p + "rename", self.rename), web.post(p + "copy", self.copy), web.post(p + "move", self.move),
            web.delete(p + "rm", self.rm), web.get(p + "download", self.download),
            web.post(p + "download", self.download_many),
        ]
        if not self.seed:
            routes += [web.get(p + "stat", self.stat), web.get(p + "tree", self.tree), web.get(p + "sha256", self.sha256),
                       web.post(p + "mtime", self.set_mtime)]
        return routes

    def _target(self, root, path, must_exist=True):
        return self.roots.resolve(root or "home", path, must_exist=must_exist)

    def _query(self, request, must_exist=True):
        if "path" not in request.query:
            raise bad_request("missing_field", "missing query parameter 'path'")
        return self._target(request.query.get("root", "home"), request.query["path"], must_exist)

    async def ls(self, request):
        root = request.query.get("root", "home")
        path, local = self._target(root, request.query.get("path", "/"))
        if not os.path.isdir(local):
            raise bad_request("not_a_directory", f"{path}: not a folder")
        if not self.seed and "limit" in request.query:
            return self._ls_page(request, root, path, local)
        entries = []
        with os.scandir(local) as it:
            for item in it:
                if not hidden(item.name):
                    entries.append(entry(child_path(path, item.name), item.path))
        entries.sort(key=lambda e: (e["type"] != "directory", e["name"]))
        return json_response({"root": root, "path": path, "entries": entries})

    def _ls_page(self, request, root, path, local):
        """Proposed: one page of a folder in name (byte) order, the `limit` entries after the name `after`; the
        answer says the limit it applied, and `nextCursor` (the page's last name) when more remain. A seed server
        ignores both and answers the whole folder."""
        try:
            limit = int(request.query["limit"])
        except ValueError:
            raise bad_request("invalid_field", "query parameter 'limit' must be a number")
        if not 1 <= limit <= 5000:
            raise bad_request("invalid_field", "query parameter 'limit' must be between 1 and 5000")
        after = os.fsencode(request.query.get("after", ""))
        with os.scandir(local) as it:
            names = sorted((os.fsencode(item.name), item.name, item.path) for item in it if not hidden(item.name))
        following = [name for name in names if name[0] > after]
        page = following[:limit]
        answer = {"root": root, "path": path, "limit": limit,
                  "entries": [entry(child_path(path, name), item) for _, name, item in page]}
        if len(following) > limit:
            answer["nextCursor"] = answer["entries"][-1]["name"]
        return json_response(answer)

    async def stat(self, request):
        path, local = self._query(request)
        return json_response({"entry": entry(path, local)})

    async def read(self, request):
        path, local = self._query(request)
        if os.path.isdir(local):
            raise bad_request("is_a_directory", f"{path}: is a folder")
        size = os.path.getsize(local)
        if size > READ_LIMIT:
            raise APIError(413, "too_large", f"{path}: {size} bytes is more than read serves ({READ_LIMIT}); use raw")
        with open(local, "rb") as f:
            data = f.read()
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise APIError(415, "not_text", f"{path}: not UTF-8 text; use raw")
        return json_response({"root": request.query.get("root", "home"), "path": path, "content": text, "size": size})

    async def raw(self, request):
        path, local = self._query(request)
        if os.path.isdir(local):
            raise bad_request("is_a_directory", f"{path}: is a folder")
        return await serve_file(request, local)

    async def download(self, request):
        path, local = self._query(request)
        if os.path.isdir(local):
            return await self._zip(request, [(path, local)], (os.path.basename(local) or "root") + ".zip")
        return await serve_file(request, local, download_name=os.path.basename(local))

    async def download_many(self, request):
        data = await body_json(request)
        root = field(data, "root", required=False, default="home")
        paths = field(data, "paths", list)
        if not paths:
            raise bad_request("invalid_field", "field 'paths' must not be empty")
        targets = [self._target(root, p) for p in paths]
        return await self._zip(request, targets, "download.zip")

    async def _zip(self, request, targets, name):
        with tempfile.TemporaryFile() as tmp:
            with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as archive:
                for path, local in targets:
                    base = os.path.dirname(local)
                    if os.path.isdir(local):
                        for folder, dirs, files in os.walk(local):
                            dirs.sort()
                            for fname in sorted(files):
                                full = os.path.join(folder, fname)
                                archive.write(full, os.path.relpath(full, base))
                    else:
                        archive.write(local, os.path.basename(local))
            tmp.seek(0)
            payload = tmp.read()
        return web.Response(body=payload, content_type="application/zip",
                            headers={"Content-Disposition": f"attachment; filename=\"{name}\""})

    async def search(self, request):
        root = request.query.get("root", "home")
        query = request.query.get("q", "")
        if not query.strip():
            raise bad_request("missing_field", "missing query parameter 'q'")
        path, local = self._target(root, request.query.get("path", "/"))
        needle = query.lower()
        results, truncated = [], False
        for folder, dirs, files in os.walk(local):
            dirs.sort()
            rel = os.path.relpath(folder, local)
            base = path if rel == "." else child_path(path, rel)
            for name in sorted(dirs) + sorted(files):
                if needle in name.lower() and not hidden(name):
                    if len(results) >= SEARCH_LIMIT:
                        truncated = True
                        break
                    results.append(entry(child_path(base, name), os.path.join(folder, name)))
            if truncated:
                break
        results.sort(key=lambda e: e["path"])
        return json_response({"root": root, "query": query, "results": results, "truncated": truncated})

    async def tree(self, request):
        """Proposed: a recursive listing in depth-first, name-sorted order, paged by the last path returned."""
        root = request.query.get("root", "home")
        path, local = self._target(root, request.query.get("path", "/"))
        if not os.path.isdir(local):
            raise bad_request("not_a_directory", f"{path}: not a folder")
        try:
            limit = int(request.query.get("limit", "1000"))
        except ValueError:
            raise bad_request("invalid_field", "query parameter 'limit' must be a number")
        if not 1 <= limit <= 5000:
            raise bad_request("invalid_field", "query parameter 'limit' must be between 1 and 5000")
        cursor = request.query.get("cursor")
        cursor_parts = tuple(p for p in cursor.split("/") if p) if cursor else None
        entries = []
        more = self._walk(path, local, cursor_parts, entries, limit)
        page = {"root": root, "path": path, "entries": entries}
        if more:
            page["nextCursor"] = entries[-1]["path"]
        return json_response(page)

    def _walk(self, path, local, cursor, out, limit):
        """Appends entries after `cursor` (a tuple of components); returns True when more remain."""
        with os.scandir(local) as it:
            children = sorted((c for c in it if not hidden(c.name)), key=lambda c: c.name.encode())
        if self.hostile_names and path.rsplit("/", 1)[-1] == "hostile" and cursor is None:
            out.extend(hostile_entries(path))
        for child in children:
            cpath = child_path(path, child.name)
            parts = tuple(p for p in cpath.split("/") if p)
            is_dir = child.is_dir(follow_symlinks=False)
            inside = cursor is not None and cursor[:len(parts)] == parts
            if cursor is None or parts > cursor:
                if len(out) >= limit:
                    return True
                out.append(entry(cpath, child.path))
            elif not inside:
                continue  # this whole subtree comes before the cursor
            if is_dir and self._walk(cpath, child.path, cursor if inside else None, out, limit):
                return True
        return False

    async def sha256(self, request):
        path, local = self._query(request)
        if not os.path.isfile(local):
            raise bad_request("not_a_file", f"{path}: not a file")
        st = os.stat(local)
        # Hashed off the event loop: a large file would hold every other request (a download of it, too) meanwhile.
        digest = await asyncio.get_running_loop().run_in_executor(None, sha256_file, local)
        return json_response({"path": path, "sha256": digest, "size": st.st_size,
                              "mtime": round(st.st_mtime_ns / 1e9, 3)})

    async def mkdir(self, request):
        data = await body_json(request)
        root = field(data, "root", required=False, default="home")
        parents = field(data, "parents", bool, required=False, default=False)
        path, local = self._target(root, field(data, "path"), must_exist=False)
        if os.path.lexists(local):
            if parents and os.path.isdir(local):
                return json_response({"entry": entry(path, local)})
            raise conflict("exists", f"{path}: already exists")
        if not parents and not os.path.isdir(os.path.dirname(local)):
            raise APIError(404, "parent_not_found", f"{path}: parent folder does not exist")
        try:
            os.makedirs(local) if parents else os.mkdir(local)
        except NotADirectoryError:
            raise conflict("not_a_directory", f"{path}: a parent is a file")
        except FileExistsError:
            raise conflict("not_a_directory", f"{path}: a parent is a file")
        return json_response({"entry": entry(path, local)}, status=201)

    async def write(self, request):
        data = await body_json(request)
        root = field(data, "root", required=False, default="home")
        content = field(data, "content")
        overwrite = field(data, "overwrite", bool, required=False, default=False)
        mtime = None if self.seed else field(data, "mtime", float, required=False)
        path, local = self._target(root, field(data, "path"), must_exist=False)
        self._check_destination(path, local, overwrite)
        created = not os.path.exists(local)
        place(path, local, [content.encode("utf-8")], mtime)
        return json_response({"entry": entry(path, local)}, status=201 if created else 200)

    def _check_destination(self, path, local, overwrite):
        if not os.path.isdir(os.path.dirname(local)):
            raise APIError(404, "parent_not_found", f"{path}: parent folder does not exist")
        if os.path.isdir(local):
            raise conflict("is_a_directory", f"{path}: is a folder")
        if os.path.lexists(local) and not overwrite:
            raise conflict("exists", f"{path}: already exists (set overwrite)")

    async def upload(self, request):
        if not request.content_type.startswith("multipart/"):
            raise APIError(415, "unsupported_media_type", "upload needs multipart/form-data")
        reader = await request.multipart()
        fields = {"root": "home", "path": "/", "overwrite": "false", "mtime": None}
        created = []
        async for part in reader:
            if part.filename is None:
                if part.name in fields:
                    fields[part.name] = (await part.read()).decode("utf-8")
                continue
            name = valid_name(part.filename)
            folder, folder_local = self._target(fields["root"], fields["path"])
            if not os.path.isdir(folder_local):
                raise bad_request("not_a_directory", f"{folder}: not a folder")
            path, local = self._target(fields["root"], child_path(folder, name), must_exist=False)
            self._check_destination(path, local, self.seed or fields["overwrite"] in ("true", "1"))
            chunks = []
            while True:
                chunk = await part.read_chunk(1 << 20)
                if not chunk:
                    break
                chunks.append(chunk)
            mtime = float(fields["mtime"]) if fields["mtime"] and not self.seed else None
            place(path, local, chunks, mtime)
            created.append(entry(path, local))
        if not created:
            raise bad_request("missing_field", "no file part in the upload")
        return json_response({"entries": created}, status=201)

    async def rename(self, request):
        data = await body_json(request)
        root = field(data, "root", required=False, default="home")
        path, local = self._target(root, field(data, "path"))
        if path == "/":
            raise APIError(403, "forbidden", "the root cannot be renamed")
        new_name = valid_name(field(data, "newName"))
        new_path, new_local = self._target(root, child_path(path.rsplit("/", 1)[0] or "/", new_name), must_exist=False)
        if os.path.lexists(new_local):
            raise conflict("exists", f"{new_path}: already exists")
        os.rename(local, new_local)
        return json_response({"entry": entry(new_path, new_local)})

    def _relocate_args(self, data):
        root = field(data, "root", required=False, default="home")
        overwrite = field(data, "overwrite", bool, required=False, default=False)
        src, src_local = self._target(root, field(data, "from"))
        dst, dst_local = self._target(root, field(data, "to"), must_exist=False)
        if src == "/":
            raise APIError(403, "forbidden", "the root cannot be moved or copied")
        if dst == src or dst.startswith(src.rstrip("/") + "/"):
            raise bad_request("into_itself", f"{dst}: is {src} or inside it")
        if not os.path.isdir(os.path.dirname(dst_local)):
            raise APIError(404, "parent_not_found", f"{dst}: parent folder does not exist")
        if os.path.lexists(dst_local):
            if os.path.isdir(dst_local) or os.path.isdir(src_local):
                raise conflict("exists", f"{dst}: already exists")
            if not overwrite:
                raise conflict("exists", f"{dst}: already exists (set overwrite)")
        return src_local, dst, dst_local

    async def copy(self, request):
        src_local, dst, dst_local = self._relocate_args(await body_json(request))
        if os.path.isdir(src_local):
            failures = []

            def copy_file(source, target):
                try:
                    return shutil.copy2(source, target)
                except OSError as error:
                    failures.append(error)  # copytree keeps only the message; the errno says what to answer
                    raise

            try:
                shutil.copytree(src_local, dst_local, symlinks=True, copy_function=copy_file)
            except BaseException as error:
                # Half a folder copied (a full disk) must not look like a copy.
                shutil.rmtree(dst_local, ignore_errors=True)
                if isinstance(error, shutil.Error) and failures:
                    raise placement_error(failures[0], dst) from error
                raise
        else:
            with open(src_local, "rb") as f:
                place(dst, dst_local, iter(lambda: f.read(1 << 20), b""), os.stat(src_local).st_mtime)
        return json_response({"entry": entry(dst, dst_local)}, status=201)

    async def move(self, request):
        src_local, dst, dst_local = self._relocate_args(await body_json(request))
        os.replace(src_local, dst_local) if not os.path.isdir(src_local) else os.rename(src_local, dst_local)
        return json_response({"entry": entry(dst, dst_local)})

    async def rm(self, request):
        path, local = self._query(request)
        if path == "/":
            raise APIError(403, "forbidden", "the root cannot be removed")
        recursive = request.query.get("recursive", "false") in ("true", "1")
        if os.path.isdir(local) and not os.path.islink(local):
            count = sum(len(d) + len(f) for _, d, f in os.walk(local)) + 1
            if count > 1 and not recursive:
                raise conflict("not_empty", f"{path}: folder not empty (set recursive)")
            shutil.rmtree(local)
        else:
            count = 1
            os.unlink(local)
        return json_response({"removed": count})

    async def set_mtime(self, request):
        data = await body_json(request)
        root = field(data, "root", required=False, default="home")
        mtime = field(data, "mtime", float)
        path, local = self._target(root, field(data, "path"))
        os.utime(local, (mtime, mtime), follow_symlinks=False)
        return json_response({"entry": entry(path, local)})
