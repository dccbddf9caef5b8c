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
    cd "$root/clients" && ENGRAM_BIN="$engram" ENGRAM_TEST_DIR="$work" exec ./node_modules/.bin/node --test test/ ;;
  *) echo "unknown client test $kind"; exit 2 ;;
esac
