#!/usr/bin/env bash
# HTTP throughput of `engram serve` with wrk (Debian package, installed here if missing) on
# loopback: recall, event writes, a 90/10 mix; then the in-process recall throughput of the same
# database and questions (engram-bench recall-qps). Results go to bench/RESULTS.md by hand.
#   bench/serve_bench.sh [BUILD_DIR] [LOCOMO_JSON]   (env: CONNECTIONS=32 DURATION=20s THREADS=2
#   WARMUP=2s: each script runs that long unmeasured first, so that the measured run sees a
#   steady server, its per-connection memos filled, as a long-running one is; WARMUP=0 skips it)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build}"
data="${2:-$root/../shared/data/locomo/locomo_dev.json}"
conns="${CONNECTIONS:-32}"
duration="${DURATION:-20s}"
wrk_threads="${THREADS:-2}"
warmup="${WARMUP:-2s}"
if ! command -v wrk >/dev/null; then
  sudo_cmd=()
  if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends wrk
fi
work="$(mktemp -d)"
trap 'kill $server 2>/dev/null || true; wait 2>/dev/null; rm -rf "$work"' EXIT
db="$work/bench.db"
env -u ENGRAM_DB "$build/engram" --db "$db" ingest --format locomo "$data" >/dev/null
env -u ENGRAM_DB "$build/engram" --db "$db" process >/dev/null 2>&1 || true
python3 - "$data" > "$work/queries.tsv" <<'PY'
import json, sys
for s in json.load(open(sys.argv[1])):
    for qa in s["qa"]:
        q = " ".join(str(qa.get("question", "")).split())
        if q:
            print(f"{s['sample_id']}\t{q}")
PY
export ENGRAM_BENCH_QUERIES="$work/queries.tsv"
events="$(env -u ENGRAM_DB "$build/engram" --db "$db" --json stats | python3 -c 'import json,sys; print(json.load(sys.stdin)["events"])')"
echo "data: $(wc -l < "$work/queries.tsv") questions, $events events; wrk -t$wrk_threads -c$conns -d$duration after $warmup of warm-up; $(nproc) cores"
env -u ENGRAM_DB "$build/engram" --db "$db" serve --listen 127.0.0.1:0 --port-file "$work/port" --quiet \
  --threads $((conns + 8)) 2>"$work/serve.log" &
server=$!
for _ in $(seq 1 100); do [ -s "$work/port" ] && break; sleep 0.1; done
url="http://127.0.0.1:$(cat "$work/port")"
for script in recall mix write; do
  echo "== $script"
  if [ "$warmup" != "0" ]; then
    wrk -t"$wrk_threads" -c"$conns" -d"$warmup" -s "$root/bench/wrk/$script.lua" "$url" >/dev/null
  fi
  wrk -t"$wrk_threads" -c"$conns" -d"$duration" --latency -s "$root/bench/wrk/$script.lua" "$url" |
    grep -E "Requests/sec|Latency |50%|99%|Non-2xx|Socket errors|requests in"
done
kill -TERM $server; wait $server || true
echo "== in-process (engram-bench recall-qps, 2 threads, same database and questions)"
"$build/engram-bench" recall-qps --db "$db" --queries "$work/queries.tsv" --threads 2 --seconds 20
