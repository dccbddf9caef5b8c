#!/usr/bin/env python3
"""T-1, tool-call capture replay (../shared/reference/experience_memory.md §4, issue 15).

Replays the recorded tool calls of the τ-airline trajectories (../shared/data/taubench, 1,164 tool
results) through `engram mcp-tap` against a stub MCP stdio server that answers each call with its
recorded result, and the same calls to the stub directly. Reports:

  * capture: calls sent, events stored (one per call, each in its trajectory's session, from the
    request's _meta baggage), records delivered / pending / dead in the journal;
  * summaries: every argument summary is the first 200 characters of the arguments' JSON;
  * by reference: results over --inline-bytes are in the journal's payload store and read back equal;
  * added latency: round trip per call (client → server → client), tapped minus direct, p50 / p99;
  * kill -9: the tap killed after half of the calls; how many calls the client had an answer for,
    how many of those are in the journal (by default none is lost: a response reaches the client
    after its record is committed; with --async-commit the tap forwards first and a kill loses the
    last uncommitted group), and that `mcp-tap drain` then delivers each journaled record once.

The tapped run and the kill run are made for the tap's default and, in the same run, for each
--compare flag set (default: `--async-commit`), each against the same direct baseline.

`--transport http` does the same over streamable HTTP: the stub is an HTTP server answering each
POST with JSON, the tap is `engram mcp-tap --listen --upstream` in front of it, and the client
POSTs one call at a time on a kept-alive connection (to the stub directly, or to the tap).

Usage: python3 bench/tools/tap_replay.py --engram build/engram --data ../shared/data/taubench [--json]
           [--compare=--async-commit] [--transport stdio|http]
"""

import argparse
import http.client
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time

STUB = r'''
import json, sys
results = json.load(open(sys.argv[1]))


def answer(msg):
    if msg.get("method") == "initialize":
        out = {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}},
               "serverInfo": {"name": "replay-stub", "version": "1"}}
    elif msg.get("method") == "tools/call":
        text = results[msg["params"]["_meta"]["replay_index"]]
        out = {"content": [{"type": "text", "text": text}], "isError": text.startswith("Error")}
    else:
        out = {}
    return json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": out})


if len(sys.argv) > 2 and sys.argv[2] == "--listen":  # streamable HTTP: JSON answers; the port file is last
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        wbufsize = -1  # headers and body in one write, flushed after each request
        disable_nagle_algorithm = True

        def log_message(self, *args):
            pass

        def do_POST(self):
            msg = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            body = answer(msg).encode() if "id" in msg else b""
            self.send_response(200 if body else 202)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    open(sys.argv[-1], "w").write(str(server.server_port))
    server.serve_forever()
for line in sys.stdin:
    msg = json.loads(line)
    if "id" in msg:
        sys.stdout.write(answer(msg) + "\n")
        sys.stdout.flush()
'''


def recorded_calls(data_dir):
    """(session, tool name, arguments object, result text) of every recorded tool call, in order."""
    trajectories = json.load(open(os.path.join(data_dir, "airline_trajectories_gpt4o.json")))
    calls = []
    for t in trajectories:
        session = f"airline-{t['task_id']}-{t['trial']}"
        pending = {}
        for m in t["traj"]:
            for c in m.get("tool_calls") or []:
                pending[c["id"]] = c["function"]
            if m.get("role") == "tool" and m.get("tool_call_id") in pending:
                f = pending.pop(m["tool_call_id"])
                args = json.loads(f["arguments"]) if f.get("arguments") else {}
                calls.append((session, f["name"], args, str(m.get("content") or "")))
    return calls


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100.0 * (len(values) - 1))))]


class Client:
    """An MCP client over stdio: one request at a time, each answer awaited."""

    def __init__(self, command):
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, bufsize=0)
        self.next_id = 0

    def request(self, method, params):
        self.next_id += 1
        line = json.dumps({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}) + "\n"
        t0 = time.perf_counter()
        self.proc.stdin.write(line.encode())
        answer = self.proc.stdout.readline()
        took = time.perf_counter() - t0
        if not answer:
            raise EOFError("the server closed its output")
        return json.loads(answer), took

    def close(self):
        self.proc.stdin.close()
        return self.proc.wait()


class HttpClient:
    """An MCP client over streamable HTTP (JSON answers): one POST at a time on a kept-alive
    connection to port; `proc` (the tap, when it is one) is stopped with SIGTERM on close."""

    def __init__(self, port, proc=None):
        self.conn = http.client.HTTPConnection("127.0.0.1", port)
        self.proc = proc
        self.next_id = 0

    def request(self, method, params):
        self.next_id += 1
        body = json.dumps({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        t0 = time.perf_counter()
        self.conn.request("POST", "/mcp", body, {"Content-Type": "application/json",
                                                 "Accept": "application/json, text/event-stream"})
        answer = self.conn.getresponse().read()
        return json.loads(answer), time.perf_counter() - t0

    def close(self):
        self.conn.close()
        if self.proc is None:
            return 0
        self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait()


def start_listening(command, port_file):
    """`command --port-file port_file` started; returns (process, port) once the port is written."""
    if os.path.exists(port_file):
        os.remove(port_file)
    proc = subprocess.Popen(command + ["--port-file", port_file], stderr=subprocess.DEVNULL)
    for _ in range(400):
        if os.path.exists(port_file) and open(port_file).read().strip():
            return proc, int(open(port_file).read())
        time.sleep(0.05)
    raise RuntimeError(f"{command[0]} did not start listening")


class Transport:
    """How the client reaches the stub, directly or through a tap: stdio (the tap runs the stub) or
    streamable HTTP (the tap is a reverse proxy in front of the stub's HTTP server)."""

    def __init__(self, kind, stub, work):
        self.kind, self.stub, self.work = kind, stub, work
        if kind == "http":
            self.stub_proc, self.stub_port = start_listening(stub + ["--listen"], os.path.join(work, "stub.port"))

    def direct(self):
        return Client(self.stub) if self.kind == "stdio" else HttpClient(self.stub_port)

    def tapped(self, tap):
        if self.kind == "stdio":
            return Client(tap + ["--"] + self.stub)
        proc, port = start_listening(tap + ["--listen", "127.0.0.1:0", "--upstream",
                                            f"http://127.0.0.1:{self.stub_port}/mcp"],
                                     os.path.join(self.work, "tap.port"))
        return HttpClient(port, proc)

    def close(self):
        if self.kind == "http":
            self.stub_proc.kill()
            self.stub_proc.wait()


def replay(connect, calls, stop_after=None, on_stop=None):
    """Round trips (seconds) of each call over the client `connect()` makes; stops after
    `stop_after` calls and runs `on_stop(client)`."""
    client = connect()
    client.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                  "clientInfo": {"name": "tap-replay", "version": "1"}})
    took = []
    for i, (session, name, args, _) in enumerate(calls):
        if stop_after is not None and i == stop_after:
            on_stop(client)
            return took
        meta = {"replay_index": i, "baggage": f"engram.session_id={session}"}
        _, t = client.request("tools/call", {"name": name, "arguments": args, "_meta": meta})
        took.append(t)
    client.close()
    return took


def engram(binary, *args):
    p = subprocess.run([binary, *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def tool_events(binary, db, ns):
    rc, out, err = engram(binary, "--db", db, "export", "-n", ns)
    assert rc == 0, err
    events = []
    for line in out.splitlines():
        j = json.loads(line)
        if j.get("kind") == "event" and j.get("role") == "tool":
            j["capture"] = json.loads(j["metadata"])["capture"]
            events.append(j)
    return events


def run_mode(binary, work, calls, transport, direct, flags, inline_bytes, name):
    """The tapped replay and the kill -9 run with `flags` added to mcp-tap's."""
    tag = "".join(ch for ch in name if ch.isalnum())
    db = os.path.join(work, f"cap-{tag}.db")
    tap = [binary, "--db", db, "mcp-tap", "-n", "replay", "--inline-bytes", str(inline_bytes), "--flush-ms", "60000"]
    tapped = replay(lambda: transport.tapped(tap + flags), calls)
    events = tool_events(binary, db, "replay")
    _, status, _ = engram(binary, "--db", db, "mcp-tap", "status", "--json")
    status = json.loads(status)

    by_index = {}
    summary_ok = sessions_ok = 0
    for e in events:
        c = e["capture"]
        i = int(c["request_id"]) - 2  # id 1 was initialize
        by_index[i] = e
        # canonical JSON: compact, keys sorted (engram writes the arguments so)
        args_json = json.dumps(calls[i][2], separators=(",", ":"), ensure_ascii=False, sort_keys=True)
        summary = c["args_summary"]
        summary_ok += summary == args_json or (summary.endswith("…") and args_json.startswith(summary[:-1])
                                               and len(summary) == 201)
        sessions_ok += e["session"] == calls[i][0]
    by_ref = [e for e in events if e["capture"].get("result_ref")]
    refs_ok = 0
    for e in by_ref[:50]:
        rc, out, _ = engram(binary, "--db", db, "mcp-tap", "payload", e["capture"]["result_ref"])
        i = int(e["capture"]["request_id"]) - 2
        refs_ok += rc == 0 and json.loads(out)["content"][0]["text"] == calls[i][3]

    # kill -9 after half of the calls
    kill_db = os.path.join(work, f"kill-{tag}.db")
    kill_tap = [binary, "--db", kill_db, "mcp-tap", "-n", "replay"] + flags
    half = len(calls) // 2

    def kill(client):
        client.proc.send_signal(signal.SIGKILL)
        client.proc.wait()

    replay(lambda: transport.tapped(kill_tap), calls, stop_after=half, on_stop=kill)
    _, before, _ = engram(binary, "--db", kill_db, "mcp-tap", "status", "--json")
    before = json.loads(before)
    engram(binary, "--db", kill_db, "mcp-tap", "drain", "-n", "replay")
    kill_events = tool_events(binary, kill_db, "replay")
    distinct = len({e["capture"]["capture_id"] for e in kill_events})

    added = [t - d for t, d in zip(tapped, direct)]
    return {
        "events": len(events),
        "distinct_calls_captured": len(by_index),
        "journal": {k: status[k] for k in ("pending", "delivered", "dead", "payloads", "payload_bytes")},
        "args_summaries_right": summary_ok,
        "sessions_right": sessions_ok,
        "results_by_reference": len(by_ref),
        "references_read_back_equal": f"{refs_ok} of {min(50, len(by_ref))}",
        "round_trip_ms": {
            "direct_p50": percentile(direct, 50) * 1e3, "direct_p99": percentile(direct, 99) * 1e3,
            "tapped_p50": percentile(tapped, 50) * 1e3, "tapped_p99": percentile(tapped, 99) * 1e3,
            "added_p50": percentile(added, 50) * 1e3, "added_p99": percentile(added, 99) * 1e3},
        "kill9": {"answered_before_kill": half, "journaled": before["pending"] + before["delivered"],
                  "delivered_before_kill": before["delivered"], "events_after_drain": len(kill_events),
                  "distinct_events_after_drain": distinct},
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engram", default="build/engram")
    ap.add_argument("--data", default="../shared/data/taubench")
    ap.add_argument("--inline-bytes", type=int, default=1024)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--transport", choices=["stdio", "http"], default="stdio")
    ap.add_argument("--compare", default="--async-commit",
                    help="';'-separated flag sets of mcp-tap to measure beside its default")
    a = ap.parse_args()
    binary = os.path.abspath(a.engram)
    calls = recorded_calls(a.data)
    work = tempfile.mkdtemp(prefix="tap-replay-")
    results_path = os.path.join(work, "results.json")
    json.dump([c[3] for c in calls], open(results_path, "w"))
    stub_path = os.path.join(work, "stub.py")
    open(stub_path, "w").write(STUB)
    stub = [sys.executable, stub_path, results_path]

    transport = Transport(a.transport, stub, work)
    direct = replay(transport.direct, calls)
    report = {"calls": len(calls), "transport": a.transport, "modes": {}}
    for mode in ["default"] + [m for m in a.compare.split(";") if m]:
        flags = [] if mode == "default" else mode.split()
        report["modes"][mode] = run_mode(binary, work, calls, transport, direct, flags, a.inline_bytes, mode)
    transport.close()
    report["load"] = os.getloadavg()
    if a.json:
        print(json.dumps(report))
    else:
        print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
