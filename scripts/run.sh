#!/usr/bin/env bash
# Installs, builds, and opens the keyhole shell on a database file (default: keyhole.kh in
# the current directory). Arguments are passed to keyhole. It builds only the shell and the
# server it starts (the keyhole and keyhole-serve targets), not the tests and benchmarks.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
KEYHOLE_TARGETS=keyhole bash "$here/scripts/build.sh" >&2
exec "$here/${BUILD_DIR:-build}/shell/keyhole" "$@"
