"""A small HTTP client of `engram serve` (docs/api.md, docs/openapi.json), standard library only.

Every call has a timeout and goes through the circuit breaker. Errors are EngramError:
`transient` (network, timeout, 5xx, 401/403/408/429: worth retrying later) or not (another 4xx:
the request itself is wrong, retrying cannot help).
"""

from __future__ import annotations

import json
import socket
import urllib.error
import urllib.request
from typing import Any, Callable, Dict, Optional
from urllib.parse import quote

from .breaker import CircuitBreaker

# 4xx answers that a later retry may cure (credentials being fixed, a busy or rate-limited server).
_RETRYABLE_4XX = {401, 403, 408, 425, 429}


class EngramError(Exception):
    """A failed call. `status` is the HTTP status (0: no answer), `code` engram's problem code."""

    def __init__(self, message: str, *, status: int = 0, code: str = "", transient: bool = True) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.transient = transient


def _problem(body: bytes) -> Dict[str, Any]:
    try:
        data = json.loads(body.decode("utf-8", errors="replace"))
        return data if isinstance(data, dict) else {}
    except ValueError:
        return {}


class EngramClient:
    """Calls engram serve. `base_url` is a callable so a local server can be started on first use
    (it raises EngramError when it cannot be). Thread-safe (no shared mutable state but the breaker)."""

    def __init__(self, base_url: Callable[[], str], api_key: str, breaker: CircuitBreaker) -> None:
        self._base_url = base_url
        self._api_key = api_key
        self.breaker = breaker

    def ns_path(self, namespace: str, suffix: str) -> str:
        return f"/v1/namespaces/{quote(namespace, safe='')}{suffix}"

    def request(self, method: str, path: str, body: Optional[Dict[str, Any]] = None, *,
                timeout: float) -> Dict[str, Any]:
        """The JSON reply of a 2xx; raises EngramError otherwise (at once while the breaker is open)."""
        data = None if body is None else json.dumps(body, ensure_ascii=False).encode("utf-8")
        if not self.breaker.allow():
            raise EngramError(
                f"engram is unreachable; the next try is in {self.breaker.seconds_until_retry():.0f} s",
                code="unavailable")
        try:
            base = self._base_url()
        except EngramError as e:
            self.breaker.record_failure(str(e))
            raise
        try:
            req = urllib.request.Request(base + path, data=data, method=method)
        except ValueError as e:
            self.breaker.record_failure(f"{base}{path}: {e}")
            raise EngramError(f"bad engram URL {base}{path}: {e}", transient=False) from None
        req.add_header("Accept", "application/json")
        if data is not None:
            req.add_header("Content-Type", "application/json")
        if self._api_key:
            req.add_header("Authorization", f"Bearer {self._api_key}")
        try:
            with urllib.request.urlopen(req, timeout=timeout) as resp:
                raw = resp.read()
        except urllib.error.HTTPError as e:
            try:
                raw = e.read() if e.fp is not None else b""
            except Exception:
                raw = b""
            problem = _problem(raw)
            message = problem.get("detail") or problem.get("title") or f"HTTP {e.code}"
            code = problem.get("code", "")
            if e.code >= 500:
                self.breaker.record_failure(f"{method} {path}: HTTP {e.code} {message}")
                raise EngramError(f"engram: {message}", status=e.code, code=code) from None
            self.breaker.record_success()  # a live server answered
            raise EngramError(f"engram: {message}", status=e.code, code=code,
                              transient=e.code in _RETRYABLE_4XX) from None
        except (urllib.error.URLError, socket.timeout, TimeoutError, ConnectionError, OSError) as e:
            reason = getattr(e, "reason", e)
            self.breaker.record_failure(f"{base}: {reason}")
            raise EngramError(f"engram at {base} did not answer: {reason}") from None
        except Exception as e:  # http.client's own errors (a malformed reply, a dropped connection)
            self.breaker.record_failure(f"{base}: {e!r}")
            raise EngramError(f"engram at {base}: {e!r}") from None
        self.breaker.record_success()
        if not raw:
            return {}
        try:
            out = json.loads(raw.decode("utf-8"))
        except ValueError as e:
            raise EngramError(f"engram: the reply is not JSON: {e}", transient=False) from None
        return out if isinstance(out, dict) else {"value": out}
