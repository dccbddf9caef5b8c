#!/usr/bin/env bash
# Installs the official MCP clients that test `engram mcp` (and /mcp of `engram serve`), pinned:
#   .venv-clients/            Python venv with the MCP Python SDK (PyPI `mcp`, MCP_PY_VERSION)
#   clients/node_modules/     from clients/package-lock.json: the TypeScript SDK
#                             (@modelcontextprotocol/sdk), the conformance suite
#                             (@modelcontextprotocol/conformance) and Node 22 (npm `node`; the suite
#                             needs fs.globSync, which Debian's Node 20 lacks)
# Idempotent and quick when already installed (it checks the pinned versions); run by ctest as the
# fixture `mcp_clients` (tests/mcp/CMakeLists.txt), so `make test` on a clean clone installs them.
# Without python3 or npm it says so and installs the rest; the tests of that client then skip (77).
set -euo pipefail

MCP_PY_VERSION="2.3.0"

root="$(cd "$(dirname "$0")/.." && pwd)"
venv="$root/.venv-clients"
clients="$root/clients"

command -v python3 > /dev/null || echo "setup_clients: python3 not found: the Python SDK tests skip" >&2
command -v npm > /dev/null || echo "setup_clients: npm not found: the TypeScript SDK and conformance tests skip" >&2

# One install at a time (ctest -j, two worktrees of one clone do not share these folders).
exec 9> "$root/.setup_clients.lock"
flock 9

if command -v python3 > /dev/null; then
  if "$venv/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('mcp') != '$MCP_PY_VERSION')" \
       2> /dev/null; then
    echo "setup_clients: mcp $MCP_PY_VERSION already in .venv-clients"
  else
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check --no-input "mcp==$MCP_PY_VERSION"
    echo "setup_clients: installed mcp $MCP_PY_VERSION in .venv-clients"
  fi
fi

if command -v npm > /dev/null; then
  stamp="$clients/node_modules/.engram-lock-sha256"
  want="$(sha256sum "$clients/package-lock.json" | cut -d' ' -f1)"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -x "$clients/node_modules/.bin/node" ]; then
    echo "setup_clients: clients/node_modules matches package-lock.json"
  else
    (cd "$clients" && npm ci --no-audit --no-fund --loglevel=error)
    echo "$want" > "$stamp"
    echo "setup_clients: installed clients/ ($("$clients/node_modules/.bin/node" --version))"
  fi
fi

exit 0
