#!/usr/bin/env bash
# A bounded schemathesis run (clients/schemathesis-requirements.txt) against `engram serve`'s
# /openapi.json on an ephemeral loopback port: no 5xx, no crash, every response as the document
# says (status, content type, schema). Usage: run_schemathesis.sh ENGRAM_BINARY WORK_DIR
# Exit 77 (skip) only when Python with venv/pip is unavailable (scripts/setup_schemathesis.sh).
set -uo pipefail
engram="$1"
work="$2"
root="$(cd "$(dirname "$0")/../.." && pwd)"
"$root/scripts/setup_schemathesis.sh"
rc=$?
if [ $rc -ne 0 ]; then exit $rc; fi
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
env -u ENGRAM_DB "$engram" --db "$work/m.db" remember --namespace demo "I live in Hangzhou." >/dev/null || exit 1
env -u ENGRAM_DB "$engram" --db "$work/m.db" serve --listen 127.0.0.1:0 --port-file "$work/port" --quiet \
  --no-worker 2>"$work/serve.log" &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null' EXIT
for _ in $(seq 1 200); do
  [ -s "$work/port" ] && break
  sleep 0.05
done
port="$(cat "$work/port" 2>/dev/null)"
if [ -z "$port" ]; then
  echo "run_schemathesis: the server did not start:" >&2
  cat "$work/serve.log" >&2
  exit 1
fi
# backup is included: its one 500 (a fuzzed name ending in "/", a folder VACUUM INTO cannot open)
# is a 400 naming "path" since lifecycle::Backup checks that the path names a file.
"$root/.venv-schemathesis/bin/schemathesis" run "http://127.0.0.1:$port/openapi.json" \
  --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance \
  --max-examples "${SCHEMATHESIS_MAX_EXAMPLES:-8}" --max-time "${SCHEMATHESIS_MAX_TIME:-150}" \
  --seed 1 --workers 1 --request-timeout 20 --report-dir "$work/report" --no-color \
  --warnings off
st=$?
if ! kill -0 $server 2>/dev/null; then
  echo "run_schemathesis: the server crashed:" >&2
  tail -20 "$work/serve.log" >&2
  exit 1
fi
exit $st
