#!/usr/bin/env bash
# Installs, builds, and opens the keyhole shell on a database file (default: keyhole.kh in
# the current directory). Arguments are passed to keyhole. It builds only the shell and the
# server it starts (the keyhole and keyhole-serve targets; keyhole-remote too when the
# arguments ask for an endpoint or a copy), not the tests and benchmarks.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
targets=keyhole
# On an endpoint (or for a copy) the shell runs as keyhole-remote: built only then.
for a in "$@"; do
  case "$a" in --endpoint | --region | --profile | copy) targets="keyhole keyhole-remote" ;; esac
done
if [ -z "${1:-}" ] && [ -n "${AWS_ENDPOINT_URL_DYNAMODB:-}${AWS_ENDPOINT_URL:-}" ]; then
  targets="keyhole keyhole-remote"
fi
KEYHOLE_TARGETS=$targets bash "$here/scripts/build.sh" >&2
exec "$here/${BUILD_DIR:-build}/shell/keyhole" "$@"
