"""Shared fixtures of the Hermes memory provider tests (docs/hermes.md).

Every test runs inside the pinned hermes-agent of .venv-hermes, in a temporary HERMES_HOME into
which `engram hermes install` (the binary under test, $ENGRAM_BIN_UNDER_TEST) wrote the plugin, and
against a real `engram serve` of that binary on a loopback port. The model is a scripted
OpenAI-compatible chat server on loopback (hermes_provider.md §3.3): nothing leaves the machine.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request
from collections import deque
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Callable, Deque, Dict, List, Optional

import pytest

REPO = Path(__file__).resolve().parents[2]
ENGRAM = os.environ.get("ENGRAM_BIN_UNDER_TEST", str(REPO / "build" / "engram"))
NAMESPACE = "hermes"

# Variables that would point Hermes or the provider somewhere else than the test's servers.
_FOREIGN_ENV = ["OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENROUTER_API_KEY", "ANTHROPIC_API_KEY", "NOUS_API_KEY",
                "GOOGLE_API_KEY", "GEMINI_API_KEY", "DEEPSEEK_API_KEY", "XAI_API_KEY", "HERMES_INFERENCE_PROVIDER",
                "ENGRAM_URL", "ENGRAM_API_KEY", "ENGRAM_NAMESPACE", "ENGRAM_BIN", "ENGRAM_DB", "HERMES_MODEL"]


def engram_cli(*args: str, check: bool = True, timeout: float = 60) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ENGRAM_") or k == "ENGRAM_BIN_UNDER_TEST"}
    r = subprocess.run([ENGRAM, *args], capture_output=True, text=True, timeout=timeout, env=env)
    if check and r.returncode != 0:
        raise AssertionError(f"engram {' '.join(args)}: exit {r.returncode}\nstdout: {r.stdout[-2000:]}\n"
                             f"stderr: {r.stderr[-2000:]}")
    return r


# ---- engram serve ------------------------------------------------------------------------------

class EngramServer:
    """`engram serve` of the binary under test on a loopback port, on its own database file."""

    def __init__(self, work: Path) -> None:
        self.work = work
        self.db = work / "engram.db"
        self.proc: Optional[subprocess.Popen] = None
        self.port = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, port: int = 0) -> "EngramServer":
        port_file = self.work / "serve.port"
        if port_file.exists():
            port_file.unlink()
        env = {k: v for k, v in os.environ.items() if not k.startswith("ENGRAM_")}
        log = open(self.work / "serve.log", "ab")
        self.proc = subprocess.Popen(
            [ENGRAM, "--create", "--db", str(self.db), "serve", "--listen", f"127.0.0.1:{port}", "--port-file",
             str(port_file), "--quiet"], stdout=subprocess.DEVNULL, stderr=log, env=env)
        log.close()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"engram serve exited: {(self.work / 'serve.log').read_text()[-2000:]}")
            if port_file.exists() and port_file.read_text().strip().isdigit():
                self.port = int(port_file.read_text().strip())
                return self
            time.sleep(0.02)
        raise RuntimeError("engram serve did not start")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def call(self, method: str, path: str, body: Any = None, timeout: float = 10) -> tuple[int, Dict[str, Any]]:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                raw = r.read()
                return r.status, (json.loads(raw) if raw else {})
        except urllib.error.HTTPError as e:
            raw = e.read()
            try:
                return e.code, json.loads(raw)
            except ValueError:
                return e.code, {"raw": raw.decode(errors="replace")}

    def ns(self, suffix: str, namespace: str = NAMESPACE) -> str:
        return f"/v1/namespaces/{namespace}{suffix}"

    def remember(self, text: str, namespace: str = NAMESPACE) -> None:
        status, body = self.call("POST", self.ns("/memories", namespace), {"text": text})
        assert status in (200, 201), body

    def has_route(self, path: str) -> bool:
        status, doc = self.call("GET", "/openapi.json")
        return status == 200 and path in doc.get("paths", {})


def events_of(db: Path, namespace: str = NAMESPACE, session_id: Optional[str] = None) -> List[Dict[str, Any]]:
    """The events of a namespace (or of one session) as `engram export` writes them (read-only), in
    the order they were stored; "session_id" and a parsed "metadata" added."""
    r = engram_cli("--db", str(db), "export", "--namespace", namespace, check=False)
    if r.returncode == 3 and "does not exist" in r.stderr:
        return []  # nothing was written to the namespace yet
    if r.returncode != 0:
        raise AssertionError(f"engram export: exit {r.returncode}: {r.stderr[-2000:]}")
    out = r.stdout
    events = []
    for line in out.splitlines():
        obj = json.loads(line)
        if obj.get("kind") != "event":
            continue
        obj["session_id"] = obj["session"]
        meta = obj.get("metadata")
        obj["metadata"] = json.loads(meta) if isinstance(meta, str) else (meta or {})
        if session_id is None or obj["session_id"] == session_id:
            events.append(obj)
    return events


def turns_of(db: Path, session_id: str, namespace: str = NAMESPACE) -> List[tuple]:
    """(role, content) of a session's events in the order they were written."""
    return [(e["role"], e["content"]) for e in events_of(db, namespace, session_id)]


@pytest.fixture
def engram_server(tmp_path):
    work = tmp_path / "engram-serve"
    work.mkdir()
    server = EngramServer(work).start()
    yield server
    server.stop()


# ---- the scripted model --------------------------------------------------------------------------

def text_reply(text: str, delay: float = 0.0) -> Dict[str, Any]:
    return {"text": text, "delay": delay}


def tool_reply(name: str, arguments: Dict[str, Any], call_id: str = "call_1", delay: float = 0.0) -> Dict[str, Any]:
    return {"tool": name, "arguments": json.dumps(arguments), "id": call_id, "delay": delay}


class ScriptedModel:
    """An OpenAI-compatible chat server on loopback: POST .../chat/completions answers the next scripted
    reply (SSE when the request streams), recording every request; anything else is 404 (Hermes's
    local-server probes). Requests without tools (a title or summary from an auxiliary client) get
    `aux_reply(request)` — a plain "ok" unless a test sets it — and do not take from the script."""

    def __init__(self) -> None:
        self.script: Deque[Dict[str, Any]] = deque()
        self.requests: List[Dict[str, Any]] = []      # agent requests (with tools), in order
        self.aux_requests: List[Dict[str, Any]] = []  # other chat requests
        self.aux_reply: Callable[[Dict[str, Any]], str] = lambda request: "ok"
        self.lock = threading.Lock()
        model = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.0"

            def log_message(self, *args):  # quiet
                pass

            def do_GET(self):
                self.send_error(404)

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                if not self.path.rstrip("/").endswith("/chat/completions"):
                    self.send_error(404)
                    return
                body = json.loads(raw or b"{}")
                with model.lock:
                    if body.get("tools"):
                        model.requests.append(body)
                        reply = model.script.popleft() if model.script else text_reply("DONE")
                    else:
                        model.aux_requests.append(body)
                        reply = text_reply(model.aux_reply(body))
                if reply.get("delay"):
                    time.sleep(reply["delay"])
                try:
                    if body.get("stream"):
                        self._sse(reply)
                    else:
                        self._json(reply)
                except (BrokenPipeError, ConnectionResetError):
                    pass

            def _message(self, reply):
                if "tool" in reply:
                    return {"role": "assistant", "content": None,
                            "tool_calls": [{"id": reply["id"], "type": "function",
                                            "function": {"name": reply["tool"], "arguments": reply["arguments"]}}]}, "tool_calls"
                return {"role": "assistant", "content": reply["text"]}, "stop"

            def _json(self, reply):
                message, finish = self._message(reply)
                data = json.dumps({"id": "chatcmpl-test", "object": "chat.completion", "created": int(time.time()),
                                   "model": "test-model",
                                   "choices": [{"index": 0, "message": message, "finish_reason": finish}],
                                   "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _sse(self, reply):
                message, finish = self._message(reply)
                base = {"id": "chatcmpl-test", "object": "chat.completion.chunk", "created": int(time.time()),
                        "model": "test-model"}
                if "tool_calls" in message:
                    tc = message["tool_calls"][0]
                    delta = {"role": "assistant", "content": None,
                             "tool_calls": [{"index": 0, "id": tc["id"], "type": "function",
                                             "function": {"name": tc["function"]["name"],
                                                          "arguments": tc["function"]["arguments"]}}]}
                else:
                    delta = {"role": "assistant", "content": message["content"]}
                chunks = [{**base, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]},
                          {**base, "choices": [{"index": 0, "delta": {}, "finish_reason": finish}]},
                          {**base, "choices": [],
                           "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}}]
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Cache-Control", "no-cache")
                self.end_headers()
                for c in chunks:
                    self.wfile.write(b"data: " + json.dumps(c).encode() + b"\n\n")
                    self.wfile.flush()
                self.wfile.write(b"data: [DONE]\n\n")
                self.wfile.flush()

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def model():
    m = ScriptedModel()
    yield m
    m.close()


# ---- a Hermes home with the plugin installed ----------------------------------------------------

def write_hermes_config(home: Path, model_url: str = "", provider: str = "engram") -> None:
    lines = ["model:"]
    if model_url:
        lines += ["  provider: custom", f"  base_url: {model_url}", "  default: test-model",
                  "  api_mode: chat_completions"]
    lines += ["  context_length: 131072", "memory:", f"  provider: {provider}", ""]
    (home / "config.yaml").write_text("\n".join(lines))


@pytest.fixture
def hermes_home(tmp_path, monkeypatch):
    """A Hermes home with the plugin installed by `engram hermes install` and memory.provider engram."""
    home = tmp_path / "hermes-home"
    home.mkdir()
    engram_cli("hermes", "install", "--home", str(home))
    for var in _FOREIGN_ENV:
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("HERMES_HOME", str(home))
    monkeypatch.setenv("TZ", "UTC")
    write_hermes_config(home)
    return home


# ---- a real agent ------------------------------------------------------------------------------

def make_agent(model, session_id, **kw):
    from run_agent import AIAgent

    args = dict(base_url=model.base_url, api_key="no-key-required", provider="custom",
                api_mode="chat_completions", model="test-model", enabled_toolsets=["memory"], skip_memory=False,
                skip_context_files=True, quiet_mode=True, platform="cli", session_id=session_id, max_iterations=4,
                tool_delay=0, save_trajectories=False)
    args.update(kw)
    return AIAgent(**args)


def last_user(request):
    return [m for m in request["messages"] if m["role"] == "user"][-1]["content"]


def text(content):
    if isinstance(content, list):
        return "\n".join(p.get("text", "") for p in content if isinstance(p, dict))
    return content or ""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(predicate, timeout: float = 10.0, interval: float = 0.05):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    return predicate()


class BlackHole:
    """A TCP listener that accepts and never answers (a hung engram)."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.conns = []
        self.port = self.sock.getsockname()[1]
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _accept(self):
        while True:
            try:
                c, _ = self.sock.accept()
            except OSError:
                return
            self.conns.append(c)

    def close(self):
        self.sock.close()
        for c in self.conns:
            c.close()
