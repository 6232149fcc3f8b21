"""Confines every client path to its root: NUL, '..' escapes and symlinks leading out are refused."""
import os
import stat as statmod
import mimetypes

from .errors import APIError, bad_request


class Roots:
    def __init__(self, roots: dict):
        # name -> real absolute folder
        self.roots = {name: os.path.realpath(folder) for name, folder in roots.items()}

    def base(self, root: str) -> str:
        if root not in self.roots:
            raise bad_request("unknown_root", f"unknown root '{root}' (known: {', '.join(sorted(self.roots))})")
        return self.roots[root]

    def normalize(self, path: str) -> str:
        if path is None or path == "":
            return "/"
        if "\x00" in path:
            raise bad_request("invalid_path", "path contains a NUL byte")
        parts = []
        for part in path.split("/"):
            if part in ("", "."):
                continue
            if part == "..":
                if not parts:
                    raise bad_request("path_traversal", f"{path}: climbs above the root")
                parts.pop()
                continue
            parts.append(part)
        return "/" + "/".join(parts)

    def resolve(self, root: str, path: str, must_exist=False) -> tuple:
        """Returns (normalized client path, absolute local path). Refuses anything that leads outside the root."""
        base = self.base(root)
        clean = self.normalize(path)
        local = os.path.join(base, clean.lstrip("/")) if clean != "/" else base
        # The parent must resolve inside the root; the final component may be a symlink we never follow out.
        parent_real = os.path.realpath(os.path.dirname(local)) if clean != "/" else base
        if not (parent_real == base or parent_real.startswith(base + os.sep)):
            raise APIError(403, "outside_root", f"{clean}: leads outside the root")
        if os.path.islink(local):
            target = os.path.realpath(local)
            if not (target == base or target.startswith(base + os.sep)):
                raise APIError(403, "outside_root", f"{clean}: symlink leads outside the root")
        if must_exist and not os.path.lexists(local):
            raise APIError(404, "not_found", f"{clean}: no such file or folder")
        return clean, local


def entry(client_path: str, local: str) -> dict:
    st = os.lstat(local)
    if statmod.S_ISLNK(st.st_mode):
        kind = "symlink"
    elif statmod.S_ISDIR(st.st_mode):
        kind = "directory"
    else:
        kind = "file"
    name = "/" if client_path == "/" else client_path.rsplit("/", 1)[-1]
    result = {
        "name": name,
        "path": client_path,
        "type": kind,
        "size": st.st_size if kind == "file" else 0,
        "mtime": round(st.st_mtime_ns / 1e9, 3),
        "mode": statmod.S_IMODE(st.st_mode),
    }
    if kind == "file":
        result["mime"] = mimetypes.guess_type(name)[0] or "application/octet-stream"
    return result


def child_path(parent: str, name: str) -> str:
    return ("/" if parent == "/" else parent + "/") + name
