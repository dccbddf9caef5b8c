"""The journal's promise: a turn handed to sync_turn reaches engram exactly once, whatever happens to
the process or to engram in between — the sender killed mid-send, the process killed with turns
unsent, acknowledgements lost (so turns are sent twice), a torn last line, a provider restarted in
the same process."""

import json
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from conftest import turns_of, wait_for

CHILD = textwrap.dedent("""
    import sys, time
    from plugins.memory import load_memory_provider
    p = load_memory_provider("engram")
    p.initialize("dur-child", hermes_home=sys.argv[1], platform="cli")
    for i in range(3):
        p.on_turn_start(i + 1, f"question {i} about parcels")
        p.sync_turn(f"question {i} about parcels", f"answer {i} about parcels", session_id="dur-child")
    print("journaled", flush=True)
    time.sleep(600)
""")

WANT = [r for i in range(3) for r in (("user", f"question {i} about parcels"), ("assistant", f"answer {i} about parcels"))]


def journal_dir(home):
    return home / "engram" / "journal"


_children = []


@pytest.fixture(autouse=True)
def _no_child_left():
    """A test that fails before it kills its child does not leave it sleeping."""
    yield
    while _children:
        child = _children.pop()
        if child.poll() is None:
            child.kill()
            child.wait()


def start_child(home, url):
    env = {k: v for k, v in os.environ.items() if not k.startswith("ENGRAM_")}
    env.update(HERMES_HOME=str(home), ENGRAM_URL=url)
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(home)], env=env, stdout=subprocess.PIPE, text=True)
    _children.append(child)
    assert child.stdout.readline().strip() == "journaled"
    return child


def kill(child):
    child.send_signal(signal.SIGKILL)
    child.wait()


def new_provider(home, session="dur-parent"):
    from plugins.memory import load_memory_provider

    p = load_memory_provider("engram")
    p.initialize(session, hermes_home=str(home), platform="cli")
    return p


def rt_of(provider):
    return provider._rt


def restart_and_check(home, engram_server, monkeypatch):
    """A provider of a new process-wide runtime adopts the journal and delivers the child's 3 turns,
    each exactly once."""
    monkeypatch.setenv("ENGRAM_URL", engram_server.url)
    p = new_provider(home)
    assert rt_of(p).sender.flush(10)
    assert turns_of(engram_server.db, "dur-child") == WANT
    p.shutdown()


def test_process_killed_with_turns_unsent(hermes_home, engram_server, monkeypatch):
    # The child journals 3 turns while nothing listens at its url, then is killed -9.
    child = start_child(hermes_home, "http://127.0.0.1:9")
    kill(child)
    assert len(list(journal_dir(hermes_home).glob("*.jsonl"))) == 1
    restart_and_check(hermes_home, engram_server, monkeypatch)
    assert list(journal_dir(hermes_home).glob("*.jsonl")) == []


def test_sender_killed_mid_send(hermes_home, engram_server, monkeypatch):
    # A listener that accepts and never answers: the child's sender is inside its first POST when killed.
    import socket

    hole = socket.socket()
    hole.bind(("127.0.0.1", 0))
    hole.listen(8)
    hole.settimeout(30)
    try:
        child = start_child(hermes_home, f"http://127.0.0.1:{hole.getsockname()[1]}")
        conn, _ = hole.accept()  # the POST is on its way
        kill(child)
        conn.close()
    finally:
        hole.close()
    restart_and_check(hermes_home, engram_server, monkeypatch)


def test_lost_acknowledgements_do_not_duplicate(hermes_home, engram_server, monkeypatch):
    monkeypatch.setenv("ENGRAM_URL", engram_server.url)
    child = start_child(hermes_home, engram_server.url)
    assert wait_for(lambda: turns_of(engram_server.db, "dur-child") == WANT)
    kill(child)
    # Drop every acknowledgement, as if the process died after each POST and before its ack.
    for f in journal_dir(hermes_home).glob("*.jsonl"):
        lines = [line for line in f.read_text().splitlines() if '"ack"' not in line]
        f.write_text("\n".join(lines) + "\n")
    records = [json.loads(line) for f in journal_dir(hermes_home).glob("*.jsonl") for line in f.read_text().splitlines()]
    assert len(records) == 3
    restart_and_check(hermes_home, engram_server, monkeypatch)  # sent again, stored once


def test_torn_last_line_is_ignored(hermes_home, engram_server, monkeypatch):
    child = start_child(hermes_home, "http://127.0.0.1:9")
    kill(child)
    f = next(journal_dir(hermes_home).glob("*.jsonl"))
    with open(f, "a") as out:
        out.write('{"id":"hermes:dur-child:9:torn","kind":"turn","namespace":"hermes","sess')
    restart_and_check(hermes_home, engram_server, monkeypatch)


def test_provider_restarted_in_the_same_process(hermes_home, engram_server, monkeypatch):
    monkeypatch.setenv("ENGRAM_URL", "http://127.0.0.1:9")
    p = new_provider(hermes_home, "dur-same")
    for i in range(2):
        p.on_turn_start(i + 1, f"q{i} about lanterns")
        p.sync_turn(f"q{i} about lanterns", f"a{i} about lanterns", session_id="dur-same")
    t0 = time.monotonic()
    p.shutdown()  # engram down: bounded, the turns stay in the journal
    assert time.monotonic() - t0 < 5
    assert len(list(journal_dir(hermes_home).glob("*.jsonl"))) == 1
    monkeypatch.setenv("ENGRAM_URL", engram_server.url)
    p2 = new_provider(hermes_home, "dur-same-2")
    assert rt_of(p2).sender.flush(10)
    assert turns_of(engram_server.db, "dur-same") == [
        ("user", "q0 about lanterns"), ("assistant", "a0 about lanterns"),
        ("user", "q1 about lanterns"), ("assistant", "a1 about lanterns")]
    p2.shutdown()
    assert list(journal_dir(hermes_home).glob("*.jsonl")) == []


def test_two_providers_share_one_runtime(hermes_home, engram_server, monkeypatch):
    """The gateway builds a provider per agent: they share the journal, sender and client."""
    monkeypatch.setenv("ENGRAM_URL", engram_server.url)
    a = new_provider(hermes_home, "gw-a")
    b = new_provider(hermes_home, "gw-b")
    assert rt_of(a) is rt_of(b)
    a.sync_turn("hello from a about kites", "hi a", session_id="gw-a")
    b.sync_turn("hello from b about kites", "hi b", session_id="gw-b")
    rt = rt_of(a)
    a.shutdown()
    assert rt.sender.alive  # b still holds it
    b.shutdown()
    assert not rt.sender.alive
    assert turns_of(engram_server.db, "gw-a") == [("user", "hello from a about kites"), ("assistant", "hi a")]
    assert turns_of(engram_server.db, "gw-b") == [("user", "hello from b about kites"), ("assistant", "hi b")]


def test_session_switch_sends_lineage_and_session_end_is_idempotent(hermes_home, engram_server, monkeypatch):
    monkeypatch.setenv("ENGRAM_URL", engram_server.url)
    p = new_provider(hermes_home, "lin-1")
    p.sync_turn("first part of the plan about ferries", "ok", session_id="lin-1")
    p.on_session_end([])
    t0 = time.monotonic()
    for _ in range(20):  # every compression calls it again: nothing new, nothing to wait for
        p.on_session_end([])
    assert time.monotonic() - t0 < 1  # 20 flushes would take up to 20 s
    p.on_session_switch("lin-2", parent_session_id="lin-1", reset=False, reason="compression")
    p.sync_turn("second part of the plan about ferries", "ok too", session_id="lin-2")
    p.on_session_switch("lin-3", parent_session_id="lin-2", reset=True, reason="new_session")
    p.sync_turn("a new conversation about ferries", "fine", session_id="lin-3")
    p.on_session_switch("lin-1", parent_session_id="lin-3", reset=False, reason="resume")
    p.sync_turn("back to the plan about ferries", "yes", session_id="lin-1")
    assert rt_of(p).sender.flush(10)
    status, body = engram_server.call("GET", engram_server.ns("/sessions"))
    parents = {s["session_id"]: s["parent_session_id"] for s in body["items"]}
    assert parents == {"lin-1": None, "lin-2": "lin-1", "lin-3": None}
    assert turns_of(engram_server.db, "lin-2") == [("user", "second part of the plan about ferries"),
                                                   ("assistant", "ok too")]
    assert len(turns_of(engram_server.db, "lin-1")) == 4
    p.shutdown()


def core_module(hermes_home, name):
    """A module of the installed plugin's core/ subpackage (imported through Hermes's loader)."""
    from plugins.memory import load_memory_provider

    load_memory_provider("engram")
    return sys.modules[f"_hermes_user_memory.engram.core.{name}"]


def test_circuit_breaker_opens_after_5_failures_for_120_s(hermes_home):
    breaker = core_module(hermes_home, "breaker")
    now = [1000.0]
    downs, ups = [], []
    b = breaker.CircuitBreaker(clock=lambda: now[0], on_down=downs.append, on_up=lambda: ups.append(True))
    for _ in range(4):
        assert b.allow()
        b.record_failure("refused")
    assert b.allow() and not b.is_open
    b.record_failure("refused")
    assert b.is_open and not b.allow()
    assert downs == ["refused"]  # told once per outage
    now[0] += 119
    assert not b.allow()
    now[0] += 2
    assert b.allow() and not b.allow()  # one trial call at a time
    b.record_failure("still refused")
    assert not b.allow()  # open again for 120 s
    now[0] += 121
    assert b.allow()
    b.record_success()
    assert not b.is_open and b.allow() and ups == [True] and downs == ["refused"]


def test_client_errors_do_not_trip_the_breaker(hermes_home):
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
    import threading

    client_mod = core_module(hermes_home, "client")
    breaker_mod = core_module(hermes_home, "breaker")
    statuses = []

    class H(BaseHTTPRequestHandler):
        def log_message(self, *a):
            pass

        def do_POST(self):
            self.rfile.read(int(self.headers["Content-Length"]))
            status = statuses.pop(0)
            body = json.dumps({"status": status, "code": "invalid_argument", "detail": "no"}).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/problem+json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    server = ThreadingHTTPServer(("127.0.0.1", 0), H)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}"
        c = client_mod.EngramClient(lambda: url, "", breaker_mod.CircuitBreaker())
        statuses.extend([400] * 6)
        for _ in range(6):
            try:
                c.request("POST", "/x", {}, timeout=5)
            except client_mod.EngramError as e:
                assert e.status == 400 and e.code == "invalid_argument" and not e.transient
        assert not c.breaker.is_open and statuses == []
        statuses.extend([503] * 5 + [200])
        for _ in range(5):
            try:
                c.request("POST", "/x", {}, timeout=5)
            except client_mod.EngramError as e:
                assert e.status == 503 and e.transient
        assert c.breaker.is_open
        try:
            c.request("POST", "/x", {}, timeout=5)
            raise AssertionError("the open breaker let a call through")
        except client_mod.EngramError as e:
            assert e.code == "unavailable"
        assert statuses == [200]  # the server was not asked
    finally:
        server.shutdown()
        server.server_close()
