#!/usr/bin/env bash
# Installs, builds, and opens the keyhole shell on a database file (default: keyhole.kh in
# the current directory). Arguments are passed to keyhole.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
bash "$here/scripts/build.sh" >&2
exec "$here/${BUILD_DIR:-build}/shell/keyhole" "$@"
