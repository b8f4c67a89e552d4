"""Local server processes the tests start on 127.0.0.1: a free port, a clean stop."""

from __future__ import annotations

import socket
import subprocess


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def stop(proc: subprocess.Popen, grace_s: float = 10) -> None:
    """Terminate, wait `grace_s`, then kill: a server never outlives its test."""
    proc.terminate()
    try:
        proc.wait(timeout=grace_s)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
