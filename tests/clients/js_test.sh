#!/usr/bin/env bash
# The AWS SDK for JavaScript v3 against `keyhole serve`: installs the SDK's DynamoDB client and
# document client with npm into a folder kept between runs, then runs js_scenario.mjs with node.
# Needs Node.js and npm (scripts/setup.sh installs Debian's nodejs and npm when node is
# missing). On Node.js 20 or newer it tests the newest SDK pinned here; on Debian bookworm's
# Node.js 18, the last SDK release that supports 18 (3.967.0, engines node >=18).
# KEYHOLE_NPM_CACHE names the folder (default ~/.cache/keyhole-js-clients).
# The first run needs the npm registry (registry.npmjs.org, or npm's configured registry).
# Without it the test fails, saying so; KEYHOLE_SKIP_NPM=1 skips it instead (exit 77, which
# ctest reports as skipped) unless the folder already holds the pinned versions.
# Usage: js_test.sh KEYHOLE
set -u
if [ $# -ne 1 ]; then
  echo "usage: js_test.sh KEYHOLE" >&2
  exit 2
fi
k=$1
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# Exact versions, so that every run tests the same client. Their own dependencies (@smithy/*)
# are resolved by npm when the folder is first filled, and kept with it.

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "FAIL: Node.js (node) and npm are needed for the JavaScript SDK test (scripts/setup.sh" \
    "installs Debian's nodejs and npm)"
  exit 1
fi
node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$node_major" -ge 20 ]; then
  CLIENT_DYNAMODB=3.1169.0 LIB_DYNAMODB=3.1169.0
elif [ "$node_major" -ge 18 ]; then
  CLIENT_DYNAMODB=3.967.0 LIB_DYNAMODB=3.967.0
else
  echo "FAIL: Node.js $(node --version) is too old for the AWS SDK for JavaScript v3 (18 or newer)"
  exit 1
fi

cache=${KEYHOLE_NPM_CACHE:-${HOME:-/tmp}/.cache/keyhole-js-clients}/node$node_major
mkdir -p "$cache" || { echo "FAIL: cannot create $cache"; exit 1; }
installed_version() {  # installed_version PACKAGE: its version under $cache, or nothing
  node -p "require('$cache/node_modules/$1/package.json').version" 2>/dev/null
}
install() {
  if [ "$(installed_version @aws-sdk/client-dynamodb)" = "$CLIENT_DYNAMODB" ] &&
    [ "$(installed_version @aws-sdk/lib-dynamodb)" = "$LIB_DYNAMODB" ]; then
    return 0
  fi
  cat >"$cache/package.json" <<EOF
{
  "name": "keyhole-js-clients",
  "private": true,
  "description": "The JavaScript clients keyhole's tests/clients/js_test.sh runs against keyhole serve",
  "dependencies": {
    "@aws-sdk/client-dynamodb": "$CLIENT_DYNAMODB",
    "@aws-sdk/lib-dynamodb": "$LIB_DYNAMODB"
  }
}
EOF
  if [ "${KEYHOLE_SKIP_NPM:-0}" = 1 ]; then
    echo "SKIP: the JavaScript SDK test needs @aws-sdk/client-dynamodb@$CLIENT_DYNAMODB from the" \
      "npm registry, and KEYHOLE_SKIP_NPM=1 says not to fetch it"
    return 77
  fi
  rm -f "$cache/package-lock.json"
  echo "js: installing @aws-sdk/client-dynamodb@$CLIENT_DYNAMODB @aws-sdk/lib-dynamodb@$LIB_DYNAMODB into $cache"
  if ! (cd "$cache" && npm install --no-audit --no-fund --loglevel=error >"$cache/npm-install.log" 2>&1); then
    echo "FAIL: npm install failed in $cache (this test fetches the AWS SDK for JavaScript from" \
      "the npm registry, $(npm config get registry 2>/dev/null), on its first run; without the" \
      "registry, KEYHOLE_SKIP_NPM=1 skips it):"
    tail -n 30 "$cache/npm-install.log"
    return 1
  fi
}
# One installer at a time when several runs share the folder.
if command -v flock >/dev/null 2>&1; then
  exec 9>"$cache/.lock"
  flock 9
fi
install
status=$?
[ $status = 0 ] || exit $status
if command -v flock >/dev/null 2>&1; then exec 9>&-; fi

# The SDK warns on stderr that its 2027 releases will need Node.js 22: not this test's concern.
export AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED=true
export AWS_CONFIG_FILE=/dev/null AWS_SHARED_CREDENTIALS_FILE=/dev/null
KEYHOLE_JS_MODULES=$cache node "$here/js_scenario.mjs" "$k"
