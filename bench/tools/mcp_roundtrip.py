#!/usr/bin/env python3
"""MCP tools/call round trip of `engram mcp` over stdio (and, with --url, of an HTTP /mcp), raw
JSON-RPC with no SDK in between, so the figure is engram's: framing, dispatch, the capability and
the engine.

  python3 bench/tools/mcp_roundtrip.py --engram build/engram --db /tmp/rt.db [--calls 2000]
      [--url http://127.0.0.1:8420/mcp/bench]

Seeds the namespace "bench" with --seed memories (memory_save), then times --calls calls of each
of: ping, memory_recall (a query that matches), memory_save. Prints p50/p99/mean in ms per method
as one JSON object a line. Standard library only.
"""
import argparse
import json
import os
import statistics
import subprocess
import time
import urllib.request

WORDS = "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november".split()


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


class Stdio:
    def __init__(self, engram, db):
        self.p = subprocess.Popen([engram, "mcp", "--db", db, "--namespace", "bench", "--no-worker"],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                  text=True, bufsize=1)
        self.id = 0

    def call(self, method, params):
        self.id += 1
        self.p.stdin.write(json.dumps({"jsonrpc": "2.0", "id": self.id, "method": method, "params": params}) + "\n")
        self.p.stdin.flush()
        reply = json.loads(self.p.stdout.readline())
        assert reply.get("id") == self.id and "result" in reply, reply
        return reply["result"]

    def close(self):
        self.p.stdin.close()
        self.p.wait(5)


class Http:
    def __init__(self, url):
        self.url, self.id = url, 0

    def call(self, method, params):
        self.id += 1
        body = json.dumps({"jsonrpc": "2.0", "id": self.id, "method": method, "params": params}).encode()
        req = urllib.request.Request(self.url, body, {"Content-Type": "application/json", "Accept": "application/json"})
        with urllib.request.urlopen(req) as r:
            return json.loads(r.read())["result"]

    def close(self):
        pass


def measure(client, name, method, params_of, calls):
    times = []
    for i in range(calls):
        start = time.perf_counter()
        result = client.call(method, params_of(i))
        times.append((time.perf_counter() - start) * 1000)
        assert not result.get("isError"), result
    return {"transport": type(client).__name__.lower(), "call": name, "calls": calls,
            "p50_ms": round(percentile(times, 50), 3), "p99_ms": round(percentile(times, 99), 3),
            "mean_ms": round(statistics.mean(times), 3)}


def run(client, calls, seed):
    client.call("initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                               "clientInfo": {"name": "bench", "version": "1"}})
    for i in range(seed):
        text = f"note {i}: " + " ".join(WORDS[(i + k) % len(WORDS)] for k in range(8))
        client.call("tools/call", {"name": "memory_save", "arguments": {"text": text}})
    tool = lambda name, args_of: (lambda i: {"name": name, "arguments": args_of(i)})
    rows = [measure(client, "ping", "ping", lambda i: {}, calls),
            measure(client, "memory_recall", "tools/call",
                    tool("memory_recall", lambda i: {"query": f"{WORDS[i % len(WORDS)]} {WORDS[(i + 3) % len(WORDS)]}"}),
                    calls),
            measure(client, "memory_save", "tools/call",
                    tool("memory_save", lambda i: {"text": f"bench save {i} {WORDS[i % len(WORDS)]}"}), calls)]
    client.close()
    for row in rows:
        print(json.dumps(row), flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engram", default="build/engram")
    ap.add_argument("--db", default="/tmp/engram-mcp-roundtrip.db")
    ap.add_argument("--calls", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--url", help="also measure this HTTP /mcp endpoint (namespace bound by its path)")
    ap.add_argument("--http-only", action="store_true", help="skip stdio; seed the HTTP endpoint instead")
    a = ap.parse_args()
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(a.db + suffix):
            os.remove(a.db + suffix)
    if not a.http_only:
        run(Stdio(a.engram, a.db), a.calls, a.seed)
    if a.url:
        run(Http(a.url), a.calls, a.seed if a.http_only else 0)


if __name__ == "__main__":
    main()
