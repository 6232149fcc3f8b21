"""Starts reference servers warm, for the Swift tests: this process imports the server once, then forks a fresh
server for each request, so a start costs a fork instead of Python's import of aiohttp and the server (about 0.45 s
of CPU; the Swift suite starts over 300 servers, on two cores).

One request a line on stdin, JSON: {"argv": [...the server's arguments...], "ready": "/path/to/fifo"}. For each, a
child opens nothing new: it gets the FIFO (opened here, so a reader that asked is met) as its stdout, writes
`pid N`, then runs `officer_server.app.main(argv)` exactly as `scripts/reference-server` does (its first line
`listening on URL`, SIGTERM to stop). A child is the server it started as: nothing of this process's own state runs
in it (this process never serves, never starts an event loop or a thread).

Owners: the test process owns this one (its stdin): when the test process ends, however it ends, stdin ends here,
this process exits, and every server it forked gets SIGKILL (PR_SET_PDEATHSIG).
"""
import ctypes
import json
import os
import random
import resource
import signal
import sys
import traceback

from officer_server import app

PR_SET_PDEATHSIG = 1
_libc = ctypes.CDLL(None, use_errno=True)


def _serve(request, ready, starter):
    """In the child: become the server `request` asks for; never returns."""
    code = 1
    try:
        _libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() != starter:  # the starter ended before the line above took hold
            os._exit(1)
        # This process reaps its children by ignoring SIGCHLD; the server's own subprocesses need it back.
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        os.dup2(ready, 1)
        # A copy on the highest descriptor: the kernel closes an ended process's descriptors in order, so the FIFO's
        # end, which the tests take for the server's, comes after its listening socket is closed (a server
        # restarted on the same port at once finds it free).
        os.dup2(ready, resource.getrlimit(resource.RLIMIT_NOFILE)[0] - 1, inheritable=False)
        os.close(devnull)
        os.close(ready)
        random.seed()  # not the starter's sequence, shared by every child
        print(f"pid {os.getpid()}", flush=True)
        code = app.main(request["argv"]) or 0
    except SystemExit as exit:  # argparse's refusals, with their message already on stderr
        code = exit.code if isinstance(exit.code, int) else (0 if exit.code is None else 1)
    except BaseException:  # noqa: BLE001 - whatever it is, the child must end here, never in the starter's loop
        traceback.print_exc()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def main():
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # children are reaped as they end
    starter = os.getpid()
    while True:
        line = sys.stdin.readline()
        if not line:
            return 0
        try:
            request = json.loads(line)
            ready = os.open(request["ready"], os.O_WRONLY)
        except (OSError, ValueError, KeyError) as error:
            print(f"warm_start: {error}", file=sys.stderr, flush=True)
            continue
        if os.fork() == 0:
            _serve(request, ready, starter)
        os.close(ready)


if __name__ == "__main__":
    sys.exit(main())
