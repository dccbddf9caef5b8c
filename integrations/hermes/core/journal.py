"""A durable local journal of the writes still to be sent to engram, and the one thread that sends them.

Layout: `$HERMES_HOME/engram/journal/<owner>.jsonl`, one file per process, held with an exclusive
`flock` while the process lives. Each line is a JSON object: a record `{"id": ..., "kind": ...}`
(appended and fsync'd before `append` returns) or an acknowledgement `{"ack": id}` (written after
engram stored the record; not fsync'd: a lost ack only means the record is sent again, and every
record carries an idempotency key, so engram stores it once).

A process that starts adopts the files of processes that are gone (their lock is free): their
unacknowledged records are copied into its own file (fsync'd) before the old file is removed, and
sent first. A torn last line (a crash during a write) is ignored.

The sender sends records in order, one at a time. A transient failure (engram down, slow, 5xx)
keeps the record at the head and retries with backoff (and not before the circuit breaker lets a
call through); a permanent one (a 4xx such as 400 or 409: the request itself is refused) drops it
with a warning and a copy in `rejected.jsonl`, so one bad record never blocks the queue.
"""

from __future__ import annotations

import collections
import fcntl
import json
import logging
import os
import threading
import time
import uuid
from pathlib import Path
from typing import Any, Callable, Deque, Dict, List, Optional

from .client import EngramError

logger = logging.getLogger("engram.hermes")

TRUNCATE_BYTES = 1 << 20  # an all-acknowledged file larger than this is emptied


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(str(path), os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _read_pending(fd: int) -> List[Dict[str, Any]]:
    """The records of a journal file that have no acknowledgement, in order."""
    os.lseek(fd, 0, os.SEEK_SET)
    chunks = []
    while True:
        b = os.read(fd, 1 << 16)
        if not b:
            break
        chunks.append(b)
    records: "collections.OrderedDict[str, Dict[str, Any]]" = collections.OrderedDict()
    for line in b"".join(chunks).split(b"\n"):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except ValueError:
            continue  # a torn write
        if not isinstance(obj, dict):
            continue
        if "ack" in obj:
            records.pop(str(obj["ack"]), None)
        elif isinstance(obj.get("id"), str):
            records.setdefault(obj["id"], obj)
    return list(records.values())


class Journal:
    """This process's journal file. Thread-safe."""

    def __init__(self, directory: str | os.PathLike) -> None:
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        name = f"{time.strftime('%Y%m%dT%H%M%S')}-{os.getpid()}-{uuid.uuid4().hex[:8]}.jsonl"
        self.path = self.directory / name
        self._fd = os.open(str(self.path), os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC, 0o600)
        fcntl.flock(self._fd, fcntl.LOCK_EX)
        _fsync_dir(self.directory)
        self._lock = threading.Lock()
        self._pending: Deque[Dict[str, Any]] = collections.deque()
        self._closed = False

    # -- writing ------------------------------------------------------------------------------

    def _write(self, obj: Dict[str, Any], sync: bool) -> None:
        line = (json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")
        view = memoryview(line)
        while view:
            n = os.write(self._fd, view)
            view = view[n:]
        if sync:
            os.fsync(self._fd)

    def append(self, record: Dict[str, Any]) -> None:
        """Durably appends `record` (it must have a string "id"); on return it survives a crash."""
        with self._lock:
            if self._closed:
                raise RuntimeError("the engram journal is closed")
            self._write(record, sync=True)
            self._pending.append(record)

    def adopt_orphans(self) -> int:
        """Takes over the unacknowledged records of journal files whose process is gone (their
        lock is free). Returns how many records were adopted."""
        adopted = 0
        for path in sorted(self.directory.glob("*.jsonl")):
            if path == self.path:
                continue
            try:
                fd = os.open(str(path), os.O_RDWR | os.O_CLOEXEC)
            except OSError:
                continue
            try:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    continue  # its process is alive
                records = _read_pending(fd)
                with self._lock:
                    known = {r["id"] for r in self._pending}
                    fresh = [r for r in records if r["id"] not in known]
                    for r in fresh:
                        self._write(r, sync=False)
                    if fresh:
                        os.fsync(self._fd)
                    # Older records go first.
                    self._pending.extendleft(reversed(fresh))
                adopted += len(fresh)
                path.unlink()
                _fsync_dir(self.directory)
            finally:
                os.close(fd)
        return adopted

    # -- reading ------------------------------------------------------------------------------

    def head(self) -> Optional[Dict[str, Any]]:
        with self._lock:
            return self._pending[0] if self._pending else None

    def pending_count(self) -> int:
        with self._lock:
            return len(self._pending)

    def ack(self, record_id: str) -> None:
        """Marks the head record `record_id` as stored by engram."""
        with self._lock:
            if self._pending and self._pending[0]["id"] == record_id:
                self._pending.popleft()
            else:
                self._pending = collections.deque(r for r in self._pending if r["id"] != record_id)
            if self._closed:
                return
            if not self._pending and os.fstat(self._fd).st_size > TRUNCATE_BYTES:
                os.ftruncate(self._fd, 0)
            else:
                self._write({"ack": record_id}, sync=False)

    def close(self) -> None:
        """Releases the file. An empty file (nothing pending) is removed; otherwise it stays for the
        next process to adopt."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            if not self._pending:
                try:
                    self.path.unlink()
                except OSError:
                    pass
            os.close(self._fd)


Send = Callable[[Dict[str, Any]], None]


class Sender:
    """The one thread that drains a Journal through `send(record)` (which raises EngramError)."""

    def __init__(self, journal: Journal, send: Send, breaker_wait: Callable[[], float],
                 max_backoff_s: float = 30.0) -> None:
        self._journal = journal
        self._send = send
        self._breaker_wait = breaker_wait
        self._max_backoff_s = max_backoff_s
        self._cv = threading.Condition()
        self._stop = False
        self._kicked = False
        self._thread = threading.Thread(target=self._run, name="engram-journal-sender", daemon=True)
        self._thread.start()

    def kick(self) -> None:
        """Wakes the sender: a record was appended, or a retry may go out now."""
        with self._cv:
            self._kicked = True
            self._cv.notify_all()

    def _wait(self, seconds: float) -> None:
        with self._cv:
            if not self._stop and not self._kicked:
                self._cv.wait(seconds)
            self._kicked = False

    def _run(self) -> None:
        backoff = 0.0
        while True:
            with self._cv:
                if self._stop:
                    return
            record = self._journal.head()
            if record is None:
                with self._cv:
                    self._cv.notify_all()  # wakes flush()
                    if not self._stop and not self._kicked:
                        self._cv.wait(5.0)
                    self._kicked = False
                continue
            wait = self._breaker_wait()
            if wait > 0:
                self._wait(min(wait, 5.0))
                continue
            try:
                self._send(record)
            except EngramError as e:
                if e.transient:
                    backoff = min(self._max_backoff_s, max(0.25, backoff * 2))
                    logger.debug("engram: sending %s failed (%s); retry in %.2f s", record.get("id"), e, backoff)
                    self._wait(backoff)
                    continue
                self._reject(record, str(e))
            except Exception as e:  # a bug: never let the thread die with records queued
                logger.warning("engram: sending %s raised %r; dropped", record.get("id"), e)
                self._reject(record, repr(e))
            backoff = 0.0
            self._journal.ack(record["id"])
            with self._cv:
                self._cv.notify_all()

    def _reject(self, record: Dict[str, Any], reason: str) -> None:
        logger.warning("engram refused %s %s: %s (kept in rejected.jsonl)", record.get("kind"), record.get("id"), reason)
        try:
            with open(self._journal.directory / "rejected.jsonl", "a", encoding="utf-8") as f:
                f.write(json.dumps({"reason": reason, "record": record}, ensure_ascii=False) + "\n")
        except OSError:
            pass

    def flush(self, timeout: float) -> bool:
        """Waits at most `timeout` seconds for the journal to be empty; True when it is."""
        deadline = time.monotonic() + timeout
        self.kick()
        with self._cv:
            while self._journal.pending_count() > 0:
                left = deadline - time.monotonic()
                if left <= 0 or self._stop or not self._thread.is_alive():
                    return False
                self._cv.wait(min(left, 0.2))
        return True

    def stop(self, timeout: float = 2.0) -> None:
        """Stops the thread (a send in flight finishes or times out on its own)."""
        with self._cv:
            self._stop = True
            self._cv.notify_all()
        self._thread.join(timeout)

    @property
    def alive(self) -> bool:
        return self._thread.is_alive()
