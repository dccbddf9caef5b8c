#!/usr/bin/env bash
# `make demo`: ingest a small English and Chinese conversation (a preference that changes over three
# sessions), extract claims, and show what recall, claims and session search bring back, with sources.
set -euo pipefail
engram=${1:-build/engram}
root=$(cd "$(dirname "$0")/.." && pwd)
db=$(mktemp -d)/demo.db
run() { echo; echo "\$ engram $*"; "$engram" --db "$db" "$@"; }

echo "engram demo — database: $db"
run ingest "$root/examples/sample_conversation.jsonl"
run ingest "$root/examples/sample_conversation.jsonl"   # a replay stores nothing twice
run process                                              # events → claims
run claims --namespace demo --include-history
run recall "Which theme does Lin use in VS Code?" --namespace demo --limit 4
run recall "浅色模式" --namespace demo --limit 3
run recall "李雷" --namespace demo --limit 3
run recall "Where does Mei live?" --namespace demo --limit 2 --json
run recall "Which theme does Lin use?" --namespace demo --budget 60 --explain
run sessions search "Hangzhou" --namespace demo --current 2024-03-20-eyes --window 1
run sessions --namespace demo
run doctor
