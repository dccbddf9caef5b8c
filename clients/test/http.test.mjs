// /mcp of `engram serve` driven by the official MCP TypeScript SDK over streamable HTTP, with an
// API key that grants namespace alice only. ENGRAM_BIN and ENGRAM_TEST_DIR as in stdio.test.mjs.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const ENGRAM = process.env.ENGRAM_BIN;
const WORK = fs.mkdtempSync(path.join(process.env.ENGRAM_TEST_DIR || os.tmpdir(), "http-"));
const DB = path.join(WORK, "http.db");
const env = { PATH: process.env.PATH, HOME: process.env.HOME ?? "/tmp", ENGRAM_TEST: "1" };
let serve, base, secret;

before(async () => {
  execFileSync(ENGRAM, ["--db", DB, "remember", "seed", "-n", "alice"], { env, stdio: "ignore" });
  secret = JSON.parse(execFileSync(ENGRAM, ["--db", DB, "--json", "keys", "create", "--namespace", "alice",
                                            "--access", "write"], { env })).secret;
  const portFile = path.join(WORK, "port");
  serve = spawn(ENGRAM, ["--db", DB, "serve", "--listen", "127.0.0.1:0", "--port-file", portFile, "--no-worker",
                         "--quiet"], { env, stdio: ["ignore", "ignore", "pipe"] });
  for (let i = 0; i < 200 && !(fs.existsSync(portFile) && fs.readFileSync(portFile, "utf8").trim()); i++) {
    await new Promise((r) => setTimeout(r, 50));
  }
  base = `http://127.0.0.1:${fs.readFileSync(portFile, "utf8").trim()}`;
});

after(() => serve?.kill("SIGTERM"));

async function connect(urlPath = "/mcp/alice", key = secret) {
  const c = new Client({ name: "engram-ts-http-test", version: "1.0.0" });
  await c.connect(new StreamableHTTPClientTransport(new URL(base + urlPath),
    { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
  return c;
}
const textOf = (r) => r.content?.[0]?.text ?? "";

test("lists tools, saves and recalls Chinese and English", async () => {
  const c = await connect();
  const { tools } = await c.listTools();
  assert.ok(tools.some((t) => t.name === "memory_save"));
  for (const [text, query, needle] of [["我在杭州工作。", "杭州", "杭州"], ["My bike is a green Brompton.", "bike", "Brompton"]]) {
    const saved = await c.callTool({ name: "memory_save", arguments: { text } });
    assert.equal(saved.isError, false, textOf(saved));
    const found = await c.callTool({ name: "memory_recall", arguments: { query } });
    assert.ok(textOf(found).includes(needle), textOf(found));
    assert.equal(found.structuredContent.namespace, "alice");
  }
  await c.close();
});

test("bad arguments are isError naming the field", async () => {
  const c = await connect();
  const r = await c.callTool({ name: "memory_recall", arguments: {} });
  assert.equal(r.isError, true);
  assert.match(textOf(r), /field "query"/);
  await c.close();
});

test("a namespace the key may not use is refused, by argument and by path", async () => {
  const c = await connect();
  const r = await c.callTool({ name: "memory_save", arguments: { text: "x", namespace: "bob" } });
  assert.equal(r.isError, true);
  assert.match(textOf(r), /permission_denied/);
  await c.close();
  const onPath = await connect("/mcp/bob");
  const p = await onPath.callTool({ name: "memory_recall", arguments: { query: "x" } });
  assert.equal(p.isError, true);
  assert.match(textOf(p), /permission_denied/);
  await onPath.close();
});

test("no key is 401 before MCP", async () => {
  await assert.rejects(connect("/mcp/alice", "wrong-secret"));
});

test("two clients at once lose no save", async () => {
  const [a, b] = await Promise.all([connect(), connect()]);
  const saves = [];
  for (let i = 0; i < 10; i++) {
    for (const [l, c] of [["a", a], ["b", b]]) {
      saves.push(c.callTool({ name: "memory_save", arguments: { text: `http note ${l}z${i} about herons` } }));
    }
  }
  assert.deepEqual((await Promise.all(saves)).filter((r) => r.isError).map(textOf), []);
  const r = await a.callTool({ name: "memory_recall", arguments: { query: "herons", limit: 100, budget_tokens: 0 } });
  const texts = r.structuredContent.items.map((i) => i.text).join(" ");
  for (let i = 0; i < 10; i++) for (const l of ["a", "b"]) assert.ok(texts.includes(`${l}z${i} `), `${l}z${i}`);
  await Promise.all([a.close(), b.close()]);
});
