#!/usr/bin/env bash
# Creates .venv-hermes (gitignored) with the pinned hermes-agent and pytest of
# clients/hermes-requirements.txt, for the Hermes memory provider tests (tests/hermes). Idempotent: a
# venv whose requirements file is unchanged is left alone. Exit 77 when Python 3 (3.11-3.13, what
# hermes-agent 0.19 supports) with venv and pip is not available (the ctest tests then skip).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="$root/.venv-hermes"
req="$root/clients/hermes-requirements.txt"
python="${HERMES_PYTHON:-python3}"
if ! command -v "$python" >/dev/null || ! "$python" -c "import venv, ensurepip" 2>/dev/null; then
  echo "setup_hermes: $python with venv and ensurepip is not available" >&2
  exit 77
fi
if ! "$python" -c "import sys; sys.exit(not ((3, 11) <= sys.version_info[:2] < (3, 14)))"; then
  echo "setup_hermes: hermes-agent 0.19 needs Python 3.11-3.13, $python is $("$python" --version 2>&1)" >&2
  exit 77
fi
# One install at a time (ctest -j, make test running the setup while ctest's fixture does too).
exec 9> "$root/.setup_hermes.lock"
flock 9
stamp="$venv/.requirements.sha256"
want="$(sha256sum "$req" | cut -d' ' -f1)"
if [ -x "$venv/bin/hermes" ] && [ -x "$venv/bin/pytest" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
  exit 0
fi
rm -rf "$venv"
"$python" -m venv "$venv"
"$venv/bin/python" -m pip install -q --disable-pip-version-check --no-input -r "$req"
echo "$want" > "$stamp"
echo "setup_hermes: installed $(grep -v '^#' "$req" | tr '\n' ' ')in .venv-hermes"
