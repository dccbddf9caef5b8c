#!/usr/bin/env bash
# Installs the Debian packages engram needs to build and test, then fetches the SQLite amalgamation
# (scripts/fetch_sqlite.sh). Idempotent: packages already present
# are left alone (--no-upgrade), and apt-get update runs only when something is missing.
set -euo pipefail

packages=(
  build-essential cmake pkg-config libicu-dev nlohmann-json3-dev libcli11-dev
  libspdlog-dev libfmt-dev libcpp-httplib-dev libssl-dev zlib1g-dev libbrotli-dev
  libxxhash-dev libexpected-dev libgtest-dev libgmock-dev libbenchmark-dev libstemmer-dev libhowardhinnant-date-dev libtomlplusplus-dev
  libre2-dev libgoogle-perftools-dev
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -ne 0 ]; then
  sudo_cmd=()
  if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
  echo "install_deps: installing ${missing[*]}" >&2
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends --no-upgrade "${missing[@]}"
fi

# SQLite is not Debian's (3.40.1 has the WAL-reset bug): the amalgamation of a fixed release.
"$(dirname "$0")/fetch_sqlite.sh"
