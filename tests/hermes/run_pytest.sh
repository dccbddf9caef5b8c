#!/usr/bin/env bash
# Runs one pytest file of tests/hermes in .venv-hermes against the engram binary under test.
# Usage: run_pytest.sh ROOT ENGRAM_BINARY WORK_DIR TEST_FILE [pytest arguments...]
# Exit 77 (ctest: skipped) when .venv-hermes is missing (scripts/setup_hermes.sh skipped: no Python
# 3.11-3.13 with venv).
set -uo pipefail
root="$(cd "$1" && pwd)" engram="$(realpath "$2")" work="$3" file="$4"
shift 4
python="$root/.venv-hermes/bin/python"
[ -x "$python" ] || { echo "hermes-agent is not installed (scripts/setup_hermes.sh)"; exit 77; }
rm -rf "$work" && mkdir -p "$work"
# Nothing of the caller's Hermes or engram setup leaks in; no .pyc files in the repository.
unset HERMES_HOME ENGRAM_URL ENGRAM_API_KEY ENGRAM_NAMESPACE ENGRAM_BIN ENGRAM_DB OPENAI_API_KEY OPENAI_BASE_URL
export ENGRAM_BIN_UNDER_TEST="$engram" PYTHONDONTWRITEBYTECODE=1 HOME="$work/home"
mkdir -p "$HOME"
cd "$root/tests/hermes" || exit 1
exec "$python" -m pytest -q -rs -p no:cacheprovider --basetemp="$work/tmp" "$file" "$@"
