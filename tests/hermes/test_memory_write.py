"""on_memory_write mirrors add, replace and remove of Hermes's built-in memory tool to engram's
curated store (POST /v1/namespaces/{ns}/curated).

Two halves: against a stand-in that records the requests (the wire contract, always run), and
against the real engram serve — directly and through a real AIAgent turn whose scripted model calls
the built-in `memory` tool. The real half is skipped while the binary under test has no curated
route (the route is being built on main)."""

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from conftest import text_reply, tool_reply, wait_for
from test_agent import make_agent

CURATED_ROUTE = "/v1/namespaces/{namespace}/curated"


class CuratedStandIn:
    """Records POST bodies; answers from `replies` (status, problem code) in order, then 200."""

    def __init__(self, replies=()):
        self.bodies = []
        self.replies = list(replies)
        outer = self

        class H(BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                outer.bodies.append((self.path, body))
                status, code = outer.replies.pop(0) if outer.replies else (200, "")
                if status == 200:
                    data = json.dumps({"namespace": "hermes", "target": body.get("target"), "applied": True}).encode()
                    ctype = "application/json"
                else:
                    data = json.dumps({"status": status, "code": code, "detail": "refused"}).encode()
                    ctype = "application/problem+json"
                self.send_response(status)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), H)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def provider_for(home, session="mw-1"):
    from plugins.memory import load_memory_provider

    p = load_memory_provider("engram")
    p.initialize(session, hermes_home=str(home), platform="cli")
    return p


def test_wire_contract(hermes_home, monkeypatch):
    # replace of an entry engram does not have (404) becomes an add; a 409 (over budget) is dropped
    # with a copy in rejected.jsonl and does not block what follows.
    stand_in = CuratedStandIn(replies=[(200, ""), (404, "not_found"), (200, ""), (409, "failed_precondition")])
    monkeypatch.setenv("ENGRAM_URL", stand_in.url)
    try:
        p = provider_for(hermes_home)
        p.on_memory_write("add", "memory", "Project uses pnpm, not npm.", metadata={"session_id": "mw-1"})
        p.on_memory_write("replace", "user", "User prefers tabs.",
                          metadata={"old_text": "User prefers spaces", "session_id": "mw-1"})
        p.on_memory_write("add", "memory", "x" * 5000)
        p.on_memory_write("remove", "memory", "", metadata={"old_text": "Project uses pnpm"})
        p.on_memory_write("read", "memory", "ignored")  # not a write
        assert p._rt.sender.flush(10)
        assert [path for path, _ in stand_in.bodies] == ["/v1/namespaces/hermes/curated"] * 5
        bodies = [b for _, b in stand_in.bodies]
        assert bodies[0] == {"target": "memory", "action": "add", "content": "Project uses pnpm, not npm.",
                             "session_id": "mw-1"}
        assert bodies[1] == {"target": "user", "action": "replace", "content": "User prefers tabs.",
                             "old_text": "User prefers spaces", "session_id": "mw-1"}
        assert bodies[2] == {"target": "user", "action": "add", "content": "User prefers tabs.", "session_id": "mw-1"}
        assert bodies[3]["action"] == "add" and len(bodies[3]["content"]) == 5000
        assert bodies[4] == {"target": "memory", "action": "remove", "old_text": "Project uses pnpm",
                             "session_id": "mw-1"}
        rejected = (hermes_home / "engram" / "journal" / "rejected.jsonl").read_text().splitlines()
        assert len(rejected) == 1 and json.loads(rejected[0])["record"]["content"] == "x" * 5000
        p.shutdown()
    finally:
        stand_in.close()


@pytest.fixture
def curated(hermes_home, engram_server, monkeypatch):
    if not engram_server.has_route(CURATED_ROUTE):
        pytest.skip("this engram build has no curated REST route yet (being merged on main)")
    monkeypatch.setenv("ENGRAM_URL", engram_server.url)
    return engram_server


def entries(server, target):
    status, body = server.call("GET", server.ns("/curated"))
    assert status == 200, body
    return body[target]["entries"]


def test_mirror_add_replace_remove(curated, hermes_home):
    p = provider_for(hermes_home)
    p.on_memory_write("add", "memory", "The build uses CMake presets.", metadata={"session_id": "mw-1"})
    p.on_memory_write("add", "user", "User writes Chinese and English.", metadata={"session_id": "mw-1"})
    p.on_memory_write("add", "user", "User works in UTC+8.", metadata={"session_id": "mw-1"})
    assert p._rt.sender.flush(10)
    assert "The build uses CMake presets." in entries(curated, "memory")
    assert entries(curated, "user") == ["User writes Chinese and English.", "User works in UTC+8."]
    p.on_memory_write("replace", "memory", "The build uses plain CMake, no presets.",
                      metadata={"old_text": "CMake presets"})
    assert p._rt.sender.flush(10)
    assert entries(curated, "memory") == ["The build uses plain CMake, no presets."]
    # (not the last entry: engram refuses a write that would empty a store)
    p.on_memory_write("remove", "user", "", metadata={"old_text": "Chinese and English"})
    assert p._rt.sender.flush(10)
    assert entries(curated, "user") == ["User works in UTC+8."]
    assert not (hermes_home / "engram" / "journal" / "rejected.jsonl").exists()
    p.shutdown()


def test_builtin_memory_tool_in_a_real_turn_is_mirrored(curated, hermes_home, model):
    model.script.extend([
        tool_reply("memory", {"action": "add", "target": "user", "content": "User prefers short answers."},
                   call_id="m1"),
        tool_reply("memory", {"action": "replace", "target": "user", "old_text": "short answers",
                              "content": "User prefers short answers with examples."}, call_id="m2"),
        text_reply("Noted."),
    ])
    agent = make_agent(model, "mw-agent")
    res = agent.run_conversation("Please remember that I like short answers with examples.",
                                 conversation_history=[], task_id="mw")
    assert res["final_response"] == "Noted."
    # Hermes's own store has it...
    assert "User prefers short answers with examples." in (curated.work.parent / "hermes-home" / "memories" /
                                                          "USER.md").read_text()
    agent.shutdown_memory_provider(res["messages"])  # flushes the journal
    # ...and so has engram's.
    assert wait_for(lambda: entries(curated, "user") == ["User prefers short answers with examples."])
