#!/usr/bin/env bash
# Runs one real-client test (tests/mcp/CMakeLists.txt): python | node | conformance.
# Exits 77 (ctest: skipped) when the client is not installed because python3 or npm is missing.
set -uo pipefail
kind="$1" root="$2" engram="$3" work="$4"
rm -rf "$work" && mkdir -p "$work"
case "$kind" in
  python)
    [ -x "$root/.venv-clients/bin/python" ] || { echo "Python SDK not installed (python3 missing?)"; exit 77; }
    exec "$root/.venv-clients/bin/python" "$root/tests/mcp/python_client_test.py" "$engram" "$work" ;;
  node)
    [ -x "$root/clients/node_modules/.bin/node" ] || { echo "TypeScript SDK not installed (npm missing?)"; exit 77; }
    cd "$root/clients" && ENGRAM_BIN="$engram" ENGRAM_TEST_DIR="$work" exec ./node_modules/.bin/node --test test/*.test.mjs ;;
  conformance)
    # The official conformance suite against /mcp of `engram serve --conformance-fixtures`, with
    # the committed baseline of expected failures (tests/mcp/conformance-baseline.yml: one reason
    # a line). It fails on an unexpected failure and on a stale baseline entry.
    [ -x "$root/clients/node_modules/.bin/node" ] || { echo "conformance suite not installed (npm missing?)"; exit 77; }
    "$engram" serve --conformance-fixtures --print-openapi > /dev/null 2>&1 \
      || { echo "engram serve has no --conformance-fixtures (serve not merged yet)"; exit 77; }
    "$engram" --db "$work/conf.db" remember seed -n conformance > /dev/null 2>&1
    "$engram" --db "$work/conf.db" serve --listen 127.0.0.1:0 --port-file "$work/port" --no-worker --quiet \
      --conformance-fixtures 2> "$work/serve.log" &
    serve_pid=$!
    trap 'kill $serve_pid 2> /dev/null; wait $serve_pid 2> /dev/null' EXIT
    for _ in $(seq 100); do [ -s "$work/port" ] && break; sleep 0.1; done
    [ -s "$work/port" ] || { echo "serve did not start:"; cat "$work/serve.log"; exit 1; }
    cd "$work" && PATH="$root/clients/node_modules/.bin:$PATH" conformance server \
      --url "http://127.0.0.1:$(cat "$work/port")/mcp" --expected-failures "$root/tests/mcp/conformance-baseline.yml"
    ;;
  *) echo "unknown client test $kind"; exit 2 ;;
esac
