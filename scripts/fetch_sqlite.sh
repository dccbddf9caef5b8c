#!/usr/bin/env bash
# Fetches the SQLite amalgamation (sqlite3.c, sqlite3.h, sqlite3ext.h) that engram is built with,
# from the npm package better-sqlite3, which carries it in deps/sqlite3/ (with one cosmetic patch of
# theirs, deps/patches/1208.patch: two constants written as their products). The files land in
# $ENGRAM_DEPS_DIR (default: .deps/ in the repository, ignored by git) and are never committed.
#
# Why 3.53.2 and not 3.54.1 (better-sqlite3 13.2.0): both have the fix, and 3.54.1 took 37% more CPU
# for `engram process` on the same 8,000 events (2.38 s vs 1.73 s task-clock; bench/RESULTS.md,
# session 8). better-sqlite3 12.x is also the line that runs on this machine's Node.js 20.
#
# Why not Debian's libsqlite3: Debian 12 ships SQLite 3.40.1, which has the WAL-reset bug
# (https://sqlite.org/wal.html#walresetbug: concurrent checkpoints racing a writer that resets the
# WAL lose committed transactions; every version 3.7.0–3.51.2, fixed in 3.51.3, backported to 3.44.6
# and 3.50.7). engram runs many short-lived processes on one file, the pattern that meets it.
#
# Pinned: the package version, the SQLite version it must carry, and the sha256 of the package
# tarball (npm also checks the registry's integrity hash). Idempotent: does nothing when the files
# are already there and match.
set -euo pipefail

PACKAGE="better-sqlite3@12.11.1"
SQLITE_VERSION="3.53.2"
TARBALL_SHA256="ebf0ed75a7a59dbcb3b24bbd014ef49d9f15bc328e4adcbf516f2a8fadfa2835"

root="$(cd "$(dirname "$0")/.." && pwd)"
deps="${ENGRAM_DEPS_DIR:-$root/.deps}"
dest="$deps/sqlite-$SQLITE_VERSION"

if [ -f "$dest/sqlite3.c" ] && [ -f "$dest/sqlite3.h" ] && \
   grep -q "#define SQLITE_VERSION *\"$SQLITE_VERSION\"" "$dest/sqlite3.h"; then
  exit 0
fi

if ! command -v npm >/dev/null 2>&1; then
  sudo_cmd=()
  if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
  echo "fetch_sqlite: installing npm (Debian) to fetch $PACKAGE" >&2
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends npm ca-certificates
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
echo "fetch_sqlite: fetching SQLite $SQLITE_VERSION from the npm package $PACKAGE" >&2
(cd "$work" && npm pack --silent "$PACKAGE" >/dev/null)
tarball="$(ls "$work"/*.tgz)"
actual="$(sha256sum "$tarball" | cut -d' ' -f1)"
if [ "$actual" != "$TARBALL_SHA256" ]; then
  echo "fetch_sqlite: $PACKAGE has sha256 $actual, expected $TARBALL_SHA256; refusing it" >&2
  exit 1
fi
tar -xzf "$tarball" -C "$work" package/deps/sqlite3
src="$work/package/deps/sqlite3"
if ! grep -q "#define SQLITE_VERSION *\"$SQLITE_VERSION\"" "$src/sqlite3.h"; then
  echo "fetch_sqlite: $PACKAGE does not carry SQLite $SQLITE_VERSION" >&2
  exit 1
fi
mkdir -p "$deps"
rm -rf "$dest.tmp"
mkdir "$dest.tmp"
cp "$src/sqlite3.c" "$src/sqlite3.h" "$src/sqlite3ext.h" "$dest.tmp/"
printf 'SQLite %s amalgamation (public domain), from the npm package %s (sha256 %s)\n' \
  "$SQLITE_VERSION" "$PACKAGE" "$TARBALL_SHA256" > "$dest.tmp/SOURCE"
rm -rf "$dest"
mv "$dest.tmp" "$dest"
echo "fetch_sqlite: SQLite $SQLITE_VERSION in $dest" >&2
