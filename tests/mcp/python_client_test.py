#!/usr/bin/env python3
"""`engram mcp` driven by the official MCP Python SDK (PyPI `mcp`, pinned in scripts/setup_clients.sh)
over stdio, in each connect mode the SDK has: legacy (initialize), auto (server/discover, the
2026-07-28 era) and a pinned 2026-07-28; and over streamable HTTP against `engram serve`, directly
and through `engram mcp-tap --listen` (the tap's HTTP face: every call captured with its outcome).

Usage: python_client_test.py ENGRAM_BINARY WORK_DIR
Checks: tools are listed; Chinese and English text is saved and recalled; bad arguments are an
isError result naming the field; a namespace the connection may not use is refused; two clients
at once on one database file lose no save. Prints "N passed, N failed"; exit 0, 1 on a failure, 77
when the SDK is not installed.
"""
import asyncio
import os
import sys
import tempfile

try:
    from mcp import Client, StdioServerParameters
except ImportError:
    print("python_client_test: the mcp package is not installed (scripts/setup_clients.sh)", file=sys.stderr)
    sys.exit(77)

ENGRAM = sys.argv[1]
WORK = sys.argv[2] if len(sys.argv) > 2 else tempfile.mkdtemp(prefix="engram-mcp-py-")
os.makedirs(WORK, exist_ok=True)
ENV = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": os.environ.get("HOME", "/tmp"), "ENGRAM_TEST": "1"}
results = {"passed": 0, "failed": 0}


def check(name, ok, detail=""):
    results["passed" if ok else "failed"] += 1
    print(("ok   " if ok else "FAIL ") + name + ("" if ok else f": {detail}"), flush=True)


def server(db, namespace="alice", extra=()):
    return StdioServerParameters(command=ENGRAM, args=["mcp", "--db", db, "--namespace", namespace, *extra], env=ENV)


def text_of(result):
    return result.content[0].text if result.content else ""


async def scenario(mode):
    db = os.path.join(WORK, f"py-{mode}.db")
    async with Client(server(db), mode=mode) as c:
        tools = await c.list_tools()
        names = [t.name for t in tools.tools]
        check(f"{mode}: tools listed", "memory_recall" in names and "memory_save" in names, names)
        check(f"{mode}: every tool has an outputSchema", all(t.output_schema for t in tools.tools))
        for text, query, needle in [("我最喜欢的城市是杭州，因为西湖很美。", "杭州", "杭州"),
                                    ("My favourite text editor is Helix.", "text editor", "Helix")]:
            saved = await c.call_tool("memory_save", {"text": text})
            check(f"{mode}: save {needle}", not saved.is_error, text_of(saved))
            found = await c.call_tool("memory_recall", {"query": query})
            sc = found.structured_content or {}
            check(f"{mode}: recall {needle}", not found.is_error and needle in text_of(found), text_of(found))
            check(f"{mode}: recall echoes the namespace", sc.get("namespace") == "alice", sc.get("namespace"))
        bad = await c.call_tool("memory_recall", {"limit": "many"})
        check(f"{mode}: bad arguments are isError naming the field",
              bad.is_error and 'field "limit"' in text_of(bad) and "request" in text_of(bad), text_of(bad))
        other = await c.call_tool("memory_save", {"text": "x", "namespace": "bob"})
        check(f"{mode}: a namespace not allowed is refused",
              other.is_error and "permission_denied" in text_of(other), text_of(other))


async def save_many(db, label, n):
    async with Client(server(db, "shared"), mode="legacy") as c:
        errors = []
        for i in range(n):
            r = await c.call_tool("memory_save", {"text": f"parallel note {label}x{i} about walruses"})
            if r.is_error:
                errors.append(text_of(r))
        return errors


async def two_clients():
    db = os.path.join(WORK, "py-two.db")
    async with Client(server(db, "shared"), mode="legacy") as c:  # creates the file first
        await c.call_tool("memory_save", {"text": "seed"})
    errors = await asyncio.gather(save_many(db, "a", 15), save_many(db, "b", 15))
    check("two clients: no save failed", not errors[0] and not errors[1], errors)
    async with Client(server(db, "shared"), mode="legacy") as c:
        r = await c.call_tool("memory_recall", {"query": "walruses", "limit": 200, "budget_tokens": 0})
        texts = " ".join(item.get("text", "") for item in (r.structured_content or {}).get("items", []))
        missing = [f"{l}x{i}" for l in "ab" for i in range(15) if f"{l}x{i} " not in texts]
        check("two clients: every save is recalled", not missing, missing)


def raw_stdout_is_only_json_rpc():
    """Every stdout line is a JSON-RPC message (boot with a new file, errors, a tool error), and
    end of stdin ends the process within a second."""
    import json
    import subprocess
    import time
    db = os.path.join(WORK, "py-raw.db")
    lines = ['{"jsonrpc":"2.0","id":1,"method":"server/discover"}', "not json",
             '{"jsonrpc":"2.0","id":2,"method":"no/such"}',
             '{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}',
             '{"jsonrpc":"2.0","method":"notifications/initialized"}',
             '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"memory_recall","arguments":{}}}',
             '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"memory_save","arguments":{"text":"hi"}}}']
    p = subprocess.Popen([ENGRAM, "mcp", "--db", db, "--namespace", "alice"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV, text=True)
    for line in lines:
        p.stdin.write(line + "\n")
    p.stdin.flush()
    out = [p.stdout.readline() for _ in range(6)]
    start = time.monotonic()
    p.stdin.close()
    rest = p.stdout.read()
    p.wait(5)
    took = time.monotonic() - start
    messages = []
    for line in out + rest.splitlines(keepends=True):
        try:
            m = json.loads(line)
            messages.append(m if m.get("jsonrpc") == "2.0" else None)
        except ValueError:
            messages.append(None)
    check("raw: every stdout line is JSON-RPC", None not in messages and len(messages) == 6, out + [rest])
    ids = [m.get("id") for m in messages if m]
    check("raw: answers in order, errors included", ids == [1, None, 2, 3, 4, 5], ids)
    codes = [m.get("error", {}).get("code") for m in messages if m]
    check("raw: -32700 and -32601", codes[1] == -32700 and codes[2] == -32601, codes)
    check("raw: EOF exits within 1 s", took < 1.0 and p.returncode == 0, f"{took:.2f} s, rc {p.returncode}")


async def ingest_gets_claims():
    """Events sent with memory_ingest are extracted by the background worker: claims follow."""
    db = os.path.join(WORK, "py-ingest.db")
    events = [{"session_id": "s1", "role": "user", "content": c} for c in
              ["I live in Lisbon.", "My sister is called Ana.", "I work as a nurse.", "I love jazz.",
               "My dog is named Bolt."]]
    async with Client(server(db, "alice", ["--worker-poll-ms", "100"]), mode="legacy") as c:
        r = await c.call_tool("memory_ingest", {"events": events})
        check("ingest: stored", not r.is_error and (r.structured_content or {}).get("stored") == 5, text_of(r))
        claims = []
        for _ in range(100):
            found = await c.call_tool("memory_recall", {"query": "Lisbon", "budget_tokens": 0})
            claims = [i for i in (found.structured_content or {}).get("items", []) if i.get("type") == "claim"]
            if claims:
                break
            await asyncio.sleep(0.1)
        check("ingest: the worker extracted claims", bool(claims), "no claim after 10 s")


def start_serve(name):
    """engram serve on a scratch file with one key for namespace alice; returns (process, base url, secret)."""
    import json
    import subprocess
    import time
    db = os.path.join(WORK, f"py-http-{name}.db")
    subprocess.run([ENGRAM, "--db", db, "remember", "seed", "-n", "alice"], env=ENV, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    secret = json.loads(subprocess.run([ENGRAM, "--db", db, "--json", "keys", "create", "--namespace", "alice",
                                        "--access", "write"], env=ENV, check=True, capture_output=True).stdout)["secret"]
    p, port = start_listening(name, [ENGRAM, "--db", db, "serve", "--no-worker", "--quiet"])
    return p, f"http://127.0.0.1:{port}", secret


def start_listening(name, command):
    """`command --listen 127.0.0.1:0 --port-file F` started; returns (process, port) once it listens."""
    import subprocess
    import time
    port_file = os.path.join(WORK, f"py-http-{name}.port")
    if os.path.exists(port_file):
        os.remove(port_file)
    p = subprocess.Popen([*command, "--listen", "127.0.0.1:0", "--port-file", port_file], env=ENV,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(200):
        if os.path.exists(port_file) and open(port_file).read().strip():
            break
        time.sleep(0.05)
    return p, open(port_file).read().strip()


def captured_calls(db):
    """The outcomes of the tool calls `engram mcp-tap` stored in namespace cap of `db`, by tool name."""
    import json
    import subprocess
    out = subprocess.run([ENGRAM, "--db", db, "export", "-n", "cap"], env=ENV, check=True, capture_output=True).stdout
    calls = {}
    for line in out.decode().splitlines():
        e = json.loads(line)
        if e.get("kind") == "event" and e.get("role") == "tool":
            capture = json.loads(e["metadata"])["capture"]
            calls.setdefault(e["tool_name"], []).append(capture["outcome"])
    return {name: sorted(outcomes) for name, outcomes in calls.items()}


async def over_http(mode, via_tap=False):
    """The same checks over streamable HTTP against /mcp/alice of engram serve, with an API key; with
    via_tap, through `engram mcp-tap --listen` in front of it, whose captured calls are checked after."""
    import httpx2
    from mcp.client.streamable_http import streamable_http_client
    name = mode + ("-tap" if via_tap else "")
    label = f"http {mode}" + (" via the tap" if via_tap else "")
    p, base, secret = start_serve(name)
    tap, cap = None, os.path.join(WORK, f"py-http-{name}-cap.db")
    if via_tap:
        for old in [cap, cap + ".tap"]:
            if os.path.exists(old):
                os.remove(old)
        tap, port = start_listening(name + "-proxy", [ENGRAM, "--db", cap, "mcp-tap", "-n", "cap", "--upstream", base])
        base = f"http://127.0.0.1:{port}"
    try:
        http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {secret}"})
        async with Client(streamable_http_client(base + "/mcp/alice", http_client=http), mode=mode) as c:
            names = [t.name for t in (await c.list_tools()).tools]
            check(f"{label}: tools listed", "memory_recall" in names, names)
            for text, query, needle in [("我的猫叫小白。", "猫", "小白"), ("My cat is called Snowy.", "cat", "Snowy")]:
                saved = await c.call_tool("memory_save", {"text": text})
                found = await c.call_tool("memory_recall", {"query": query})
                check(f"{label}: save and recall {needle}",
                      not saved.is_error and needle in text_of(found), text_of(saved) + text_of(found))
            bad = await c.call_tool("memory_recall", {})
            check(f"{label}: bad arguments", bad.is_error and 'field "query"' in text_of(bad), text_of(bad))
            other = await c.call_tool("memory_save", {"text": "x", "namespace": "bob"})
            check(f"{label}: the key may not use bob",
                  other.is_error and "permission_denied" in text_of(other), text_of(other))
    finally:
        for process in [tap, p]:
            if process:
                process.terminate()
                process.wait(10)
    if via_tap:
        calls = captured_calls(cap)
        expected = {"memory_save": ["ok", "ok", "tool_error"], "memory_recall": ["ok", "ok", "tool_error"]}
        check(f"{label}: the tap captured every call with its outcome", calls == expected, calls)


def serve_available():
    import subprocess
    r = subprocess.run([ENGRAM, "serve", "--conformance-fixtures", "--print-openapi"], capture_output=True)
    return r.returncode == 0


async def main():
    if serve_available():
        for mode, via_tap in [("legacy", False), ("auto", False), ("legacy", True), ("auto", True)]:
            try:
                await over_http(mode, via_tap)
            except Exception as e:
                check(f"http {mode}{' via the tap' if via_tap else ''}: session", False, repr(e))
    try:
        await ingest_gets_claims()
    except Exception as e:
        check("ingest: session", False, repr(e))
    try:
        raw_stdout_is_only_json_rpc()
    except Exception as e:
        check("raw: session", False, repr(e))
    for mode in ["legacy", "auto", "2026-07-28"]:
        try:
            await scenario(mode)
        except Exception as e:  # a crash of the session is a failure of this mode, not of the run
            check(f"{mode}: session", False, repr(e))
    try:
        await two_clients()
    except Exception as e:
        check("two clients: session", False, repr(e))
    print(f"{results['passed']} passed, {results['failed']} failed")
    return 1 if results["failed"] else 0


sys.exit(asyncio.run(main()))
