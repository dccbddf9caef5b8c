"""What the provider instances of one process and one Hermes home share (holographic's pattern: one
handle per data directory, refcounted): the configuration, the circuit breaker, the HTTP client,
the local `engram serve` (when no url is configured), the journal and its sender thread.

The gateway builds a new provider (and calls `initialize` again) on every agent-cache miss, so a
provider only takes a reference here; the last one to shut down flushes the journal (bounded),
stops the sender and, if the runtime started it, the local server.
"""

from __future__ import annotations

import atexit
import logging
import os
import threading
from datetime import datetime, timezone
from typing import Any, Callable, Dict, List, Optional

from .breaker import CircuitBreaker
from .client import EngramClient, EngramError
from .config import Config, config_dir
from .journal import Journal, Sender
from .local_server import LocalServer, find_engram_binary

logger = logging.getLogger("engram.hermes")

SEND_TIMEOUT_S = 10.0
MAX_CONTENT_CHARS = 200_000  # engram takes at most 1,000,000 bytes an event


def utc_now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _clip(text: str) -> str:
    if len(text) <= MAX_CONTENT_CHARS:
        return text
    return text[:MAX_CONTENT_CHARS] + f"\n[... {len(text) - MAX_CONTENT_CHARS} characters not kept by engram]"


class Runtime:
    def __init__(self, hermes_home: str, config: Config) -> None:
        self.hermes_home = hermes_home
        self.config = config
        self.data_dir = config_dir(hermes_home)
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.refs = 0
        self._warners: List[Callable[[str], None]] = []
        self._lock = threading.Lock()
        self.breaker = CircuitBreaker(on_down=self._on_down, on_up=self._on_up)
        self.local: Optional[LocalServer] = None
        if not config.url:
            binary = find_engram_binary(config.engram_bin)
            self.local = LocalServer(binary or (config.engram_bin or "engram"), self.data_dir)
        self.client = EngramClient(self._base_url, config.api_key, self.breaker)
        self.journal = Journal(self.data_dir / "journal")
        adopted = self.journal.adopt_orphans()
        if adopted:
            logger.info("engram: %d unsent record(s) of an earlier process will be sent", adopted)
        self.sender = Sender(self.journal, self.send_record, self.breaker.seconds_until_retry)
        self._closed = False

    # -- where engram is ----------------------------------------------------------------------

    def _base_url(self) -> str:
        if self.config.url:
            return self.config.url
        assert self.local is not None  # no url: __init__ made one
        return self.local.url()

    def warm_up(self) -> None:
        """Starts the local server in the background (a no-op with a configured url)."""
        if self.local is None:
            return

        def run() -> None:
            try:
                self.local.url()
            except EngramError as e:
                self.breaker.record_failure(str(e))

        threading.Thread(target=run, name="engram-warm-up", daemon=True).start()

    @property
    def describe(self) -> str:
        if self.config.url:
            return self.config.url
        return f"a local engram serve on {self.data_dir / 'engram.db'}"

    # -- telling the user ---------------------------------------------------------------------

    def add_warner(self, warn: Optional[Callable[[str], None]]) -> None:
        if warn is not None:
            with self._lock:
                self._warners.append(warn)

    def remove_warner(self, warn: Optional[Callable[[str], None]]) -> None:
        with self._lock:
            if warn in self._warners:
                self._warners.remove(warn)

    def _on_down(self, reason: str) -> None:
        message = (f"engram memory is unavailable ({reason}). Turns go on without recalled memory; "
                   f"they are kept in {self.journal.directory} and sent when engram is back.")
        logger.warning(message)
        with self._lock:
            warn = self._warners[-1] if self._warners else None
        if warn is not None:
            try:
                warn(message)
            except Exception:
                logger.debug("engram: the warning callback failed", exc_info=True)

    def _on_up(self) -> None:
        logger.info("engram memory is reachable again (%s)", self.describe)

    # -- sending journal records --------------------------------------------------------------

    def send_record(self, record: Dict[str, Any]) -> None:
        kind = record.get("kind")
        if kind == "turn":
            self._send_turn(record)
        elif kind == "curated":
            self._send_curated(record)
        else:
            raise EngramError(f"unknown journal record kind {kind!r}", transient=False)

    def _send_turn(self, r: Dict[str, Any]) -> None:
        common: Dict[str, Any] = {"session_id": r["session_id"], "session_source": "hermes",
                                  "metadata": {"source": "hermes", "turn": r.get("turn")}}
        if r.get("parent_session_id"):
            common["parent_session_id"] = r["parent_session_id"]
        events = []
        for role, field, at in (("user", "user", r.get("started_at") or r["at"]), ("assistant", "assistant", r["at"])):
            text = r.get(field) or ""
            if not text.strip():
                continue
            events.append({**common, "role": role, "content": _clip(text), "occurred_at": at,
                           "idempotency_key": f"{r['id']}:{role}"})
        if not events:
            return
        self.client.request("POST", self.client.ns_path(r["namespace"], "/events:batch"), {"events": events},
                            timeout=SEND_TIMEOUT_S)

    def _send_curated(self, r: Dict[str, Any]) -> None:
        body: Dict[str, Any] = {"target": r["target"], "action": r["action"]}
        if r.get("content"):
            body["content"] = r["content"]
        if r.get("old_text"):
            body["old_text"] = r["old_text"]
        if r.get("session_id"):
            body["session_id"] = r["session_id"]
        path = self.client.ns_path(r["namespace"], "/curated")
        try:
            self.client.request("POST", path, body, timeout=SEND_TIMEOUT_S)
        except EngramError as e:
            if e.status != 404 or r["action"] == "add":
                raise
            if r["action"] == "remove":
                return  # engram's store never had it: the mirror agrees already
            # replace of an entry engram's store does not have: keep the new text at least.
            logger.info("engram: curated %s entry %r not found; adding the new text", r["target"], r["old_text"])
            self.client.request("POST", path, {k: v for k, v in body.items() if k != "old_text"} | {"action": "add"},
                                timeout=SEND_TIMEOUT_S)

    # -- lifetime ------------------------------------------------------------------------------

    def close(self, flush_timeout: float) -> None:
        if self._closed:
            return
        self._closed = True
        if self.journal.pending_count():
            # engram known to be down: do not wait for it (the records stay for the next start).
            if not self.sender.flush(0.2 if self.breaker.down else flush_timeout):
                logger.warning("engram: %d record(s) not sent yet; they stay in %s for the next start",
                               self.journal.pending_count(), self.journal.directory)
        self.sender.stop(timeout=1.0)
        self.journal.close()
        if self.local is not None:
            self.local.stop()


_registry: Dict[str, Runtime] = {}
_registry_lock = threading.Lock()


def _key(hermes_home: str) -> str:
    return os.path.realpath(hermes_home)


def acquire(hermes_home: str, config: Config) -> Runtime:
    """The process's runtime of `hermes_home` (made with `config` on first use), with one more reference."""
    with _registry_lock:
        rt = _registry.get(_key(hermes_home))
        if rt is None:
            rt = Runtime(hermes_home, config)
            _registry[_key(hermes_home)] = rt
        rt.refs += 1
        return rt


def release(rt: Runtime, flush_timeout: float) -> None:
    """Drops a reference; the last one closes the runtime (flushing at most `flush_timeout` s)."""
    with _registry_lock:
        rt.refs -= 1
        if rt.refs > 0:
            return
        if _registry.get(_key(rt.hermes_home)) is rt:
            del _registry[_key(rt.hermes_home)]
    rt.close(flush_timeout)


def peek(hermes_home: str) -> Optional[Runtime]:
    with _registry_lock:
        return _registry.get(_key(hermes_home))


@atexit.register
def _close_all() -> None:
    with _registry_lock:
        runtimes = list(_registry.values())
        _registry.clear()
    for rt in runtimes:
        try:
            rt.close(flush_timeout=2.0)
        except Exception:
            pass
