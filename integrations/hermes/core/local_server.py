"""A local `engram serve`, started on first use when no url is configured.

`engram --create --db $HERMES_HOME/engram/engram.db serve --listen 127.0.0.1:0 --port-file ...`:
loopback only, an ephemeral port, no keys (every loopback caller is the owner). One per process
and Hermes home (the Runtime owns it); restarted on the next use if it died; stopped by `stop()`
(the Runtime calls it when the last provider using it shuts down, and at interpreter exit).

A process killed with -9 cannot stop its server: `serve-<owner pid>.pid` names the server, and the
next start stops the servers (of this database) whose owner is gone.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import threading
import time
from pathlib import Path
from typing import Optional

from .client import EngramError

START_TIMEOUT_S = 10.0


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def find_engram_binary(configured: str) -> Optional[str]:
    """The configured binary (config engram_bin or $ENGRAM_BIN, already merged), else `engram` on
    PATH; None when there is none."""
    if configured:
        path = os.path.expanduser(configured)
        return path if os.path.isfile(path) and os.access(path, os.X_OK) else None
    return shutil.which("engram")


class LocalServer:
    def __init__(self, engram_bin: str, data_dir: str | os.PathLike) -> None:
        self._bin = engram_bin
        self._dir = Path(data_dir)
        self._lock = threading.Lock()
        self._proc: Optional[subprocess.Popen] = None
        self._url = ""
        self._last_failure = 0.0

    @property
    def db_path(self) -> Path:
        return self._dir / "engram.db"

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def url(self) -> str:
        """The server's base URL, starting it first if needed (waits up to START_TIMEOUT_S).
        Raises EngramError when it cannot start (retried at most every 5 s)."""
        with self._lock:
            if self._proc is not None and self._proc.poll() is None:
                return self._url
            if time.monotonic() - self._last_failure < 5.0:
                raise EngramError("the local engram serve failed to start a moment ago")
            try:
                return self._start()
            except EngramError:
                self._last_failure = time.monotonic()
                raise

    def _reap_orphans(self) -> None:
        """SIGTERM to the servers of this database that dead processes started."""
        for pid_file in self._dir.glob("serve-*.pid"):
            try:
                owner = int(pid_file.stem.split("-", 1)[1])
                server = int(pid_file.read_text().strip())
            except (ValueError, OSError):
                continue
            if owner == os.getpid() or _alive(owner):
                continue
            try:
                cmdline = Path(f"/proc/{server}/cmdline").read_bytes().split(b"\0")
            except OSError:
                cmdline = []
            if str(self.db_path).encode() in cmdline and b"serve" in cmdline:
                try:
                    os.kill(server, signal.SIGTERM)
                except OSError:
                    pass
            for stale in (pid_file, pid_file.with_suffix(".port")):
                try:
                    stale.unlink()
                except OSError:
                    pass

    def _start(self) -> str:
        self._dir.mkdir(parents=True, exist_ok=True)
        self._reap_orphans()
        port_file = self._dir / f"serve-{os.getpid()}.port"
        try:
            port_file.unlink()
        except FileNotFoundError:
            pass
        log = open(self._dir / "serve.log", "ab")
        env = dict(os.environ)
        env.pop("ENGRAM_DB", None)
        env.pop("ENGRAM_LISTEN", None)
        try:
            self._proc = subprocess.Popen(
                [self._bin, "--create", "--db", str(self.db_path), "serve", "--listen", "127.0.0.1:0",
                 "--port-file", str(port_file), "--quiet"],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log, env=env,
                start_new_session=True, close_fds=True)
        except OSError as e:
            raise EngramError(f"could not start {self._bin} serve: {e}") from None
        finally:
            log.close()
        (self._dir / f"serve-{os.getpid()}.pid").write_text(f"{self._proc.pid}\n")
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self._proc.poll() is not None:
                rc = self._proc.returncode
                self._proc = None
                raise EngramError(f"{self._bin} serve exited with {rc} (see {self._dir / 'serve.log'})")
            try:
                text = port_file.read_text().strip()
            except FileNotFoundError:
                text = ""
            if text.isdigit():
                self._url = f"http://127.0.0.1:{int(text)}"
                return self._url
            time.sleep(0.02)
        self._kill()
        raise EngramError(f"{self._bin} serve did not start within {START_TIMEOUT_S:.0f} s")

    def _kill(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None or proc.poll() is not None:
            return
        try:
            proc.send_signal(signal.SIGTERM)
            proc.wait(5.0)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5.0)
        except OSError:
            pass

    def stop(self) -> None:
        """SIGTERM (engram finishes the requests in flight and exits), SIGKILL after 5 s."""
        with self._lock:
            self._kill()
            for suffix in (".port", ".pid"):
                try:
                    (self._dir / f"serve-{os.getpid()}{suffix}").unlink()
                except OSError:
                    pass
