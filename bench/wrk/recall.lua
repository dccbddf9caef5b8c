-- wrk script: POST /v1/namespaces/{ns}/recall with the questions of $ENGRAM_BENCH_QUERIES
-- ("namespace<TAB>question" lines), round-robin from a random start per thread.
local queries = {}
local idx = 0

local function load()
  local f = assert(io.open(os.getenv("ENGRAM_BENCH_QUERIES") or "queries.tsv"))
  for line in f:lines() do
    local ns, q = line:match("([^\t]+)\t(.*)")
    if ns then queries[#queries + 1] = {ns, q} end
  end
  f:close()
end

local function esc(s)
  return (s:gsub("\\", "\\\\"):gsub('"', '\\"'))
end

function init(args)
  load()
  math.randomseed(os.time() + tonumber(tostring({}):sub(8), 16))
  idx = math.random(#queries)
end

function recall_request()
  idx = idx % #queries + 1
  local q = queries[idx]
  return wrk.format("POST", "/v1/namespaces/" .. q[1] .. "/recall", {["Content-Type"] = "application/json"},
                    '{"query":"' .. esc(q[2]) .. '"}')
end

request = recall_request
