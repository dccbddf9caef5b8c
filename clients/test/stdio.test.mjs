// `engram mcp` driven by the official MCP TypeScript SDK (@modelcontextprotocol/sdk, pinned in
// clients/package-lock.json) over stdio, under `node --test`. ENGRAM_BIN names the binary and
// ENGRAM_TEST_DIR a scratch folder (tests/mcp/CMakeLists.txt sets both).
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const ENGRAM = process.env.ENGRAM_BIN;
const WORK = process.env.ENGRAM_TEST_DIR || fs.mkdtempSync(path.join(os.tmpdir(), "engram-mcp-ts-"));
fs.mkdirSync(WORK, { recursive: true });

async function connect(db, namespace = "alice") {
  const client = new Client({ name: "engram-ts-test", version: "1.0.0" });
  await client.connect(new StdioClientTransport({
    command: ENGRAM, args: ["mcp", "--db", db, "--namespace", namespace],
    env: { PATH: process.env.PATH, HOME: process.env.HOME ?? "/tmp", ENGRAM_TEST: "1" }, stderr: "pipe",
  }));
  return client;
}

const textOf = (r) => r.content?.[0]?.text ?? "";
const db = (name) => path.join(WORK, `ts-${name}-${process.pid}.db`);

test("lists the memory tools, each with an outputSchema and annotations", async () => {
  const c = await connect(db("list"));
  const { tools } = await c.listTools();
  assert.ok(tools.some((t) => t.name === "memory_recall"));
  for (const t of tools) {
    assert.match(t.name, /^memory_/);
    assert.equal(t.outputSchema?.type, "object");
    assert.equal(typeof t.annotations?.readOnlyHint, "boolean");
  }
  assert.equal(c.getServerVersion()?.name, "engram-memory");
  await c.close();
});

test("saves and recalls Chinese and English text (structuredContent validated by the SDK)", async () => {
  const c = await connect(db("recall"));
  for (const [text, query, needle] of [["我最喜欢的城市是杭州。", "杭州", "杭州"],
                                       ["I always take the night train to Vienna.", "night train", "Vienna"]]) {
    const saved = await c.callTool({ name: "memory_save", arguments: { text } });
    assert.equal(saved.isError, false, textOf(saved));
    const found = await c.callTool({ name: "memory_recall", arguments: { query } });
    assert.equal(found.isError, false, textOf(found));
    assert.ok(textOf(found).includes(needle), textOf(found));
    assert.equal(found.structuredContent.namespace, "alice");
  }
  await c.close();
});

test("bad arguments are an isError result naming the field and the request", async () => {
  const c = await connect(db("bad"));
  const r = await c.callTool({ name: "memory_recall", arguments: { limit: 5 } });
  assert.equal(r.isError, true);
  assert.match(textOf(r), /field "query"/);
  assert.match(textOf(r), /request \d+/);
  await c.close();
});

test("a namespace the connection may not use is refused", async () => {
  const c = await connect(db("ns"));
  const r = await c.callTool({ name: "memory_save", arguments: { text: "x", namespace: "mallory" } });
  assert.equal(r.isError, true);
  assert.match(textOf(r), /permission_denied/);
  await c.close();
});

test("two clients at once on one file lose no save", async () => {
  const file = db("two");
  const seed = await connect(file, "shared");
  await seed.callTool({ name: "memory_save", arguments: { text: "seed" } });
  await seed.close();
  const [a, b] = await Promise.all([connect(file, "shared"), connect(file, "shared")]);
  const saves = [];
  for (let i = 0; i < 15; i++) {
    for (const [label, c] of [["a", a], ["b", b]]) {
      saves.push(c.callTool({ name: "memory_save", arguments: { text: `parallel note ${label}y${i} about otters` } }));
    }
  }
  const results = await Promise.all(saves);
  assert.deepEqual(results.filter((r) => r.isError).map(textOf), []);
  const r = await a.callTool({ name: "memory_recall", arguments: { query: "otters", limit: 200, budget_tokens: 0 } });
  const texts = r.structuredContent.items.map((i) => i.text).join(" ");
  for (let i = 0; i < 15; i++) for (const l of ["a", "b"]) assert.ok(texts.includes(`${l}y${i} `), `${l}y${i}`);
  await Promise.all([a.close(), b.close()]);
});
