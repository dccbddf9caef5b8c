#!/usr/bin/env bash
# Creates .venv-schemathesis (gitignored) with the pinned schemathesis of
# clients/schemathesis-requirements.txt, for tests/schemathesis/run_schemathesis.sh. Idempotent: a
# venv whose requirements file is unchanged is left alone. Exit 77 when Python 3 with venv and pip
# is not available (the ctest test then skips).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="$root/.venv-schemathesis"
req="$root/clients/schemathesis-requirements.txt"
if ! command -v python3 >/dev/null || ! python3 -c "import venv, ensurepip" 2>/dev/null; then
  echo "setup_schemathesis: python3 with venv and ensurepip is not available" >&2
  exit 77
fi
stamp="$venv/.requirements.sha256"
want="$(sha256sum "$req" | cut -d' ' -f1)"
if [ -x "$venv/bin/schemathesis" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
  exit 0
fi
python3 -m venv "$venv"
"$venv/bin/python" -m pip install -q --disable-pip-version-check -r "$req"
echo "$want" > "$stamp"
