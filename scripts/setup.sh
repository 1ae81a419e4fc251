#!/usr/bin/env bash
# Installs every Debian package keyhole needs to build and test. Idempotent: when all are
# present it does nothing (no apt-get update, no network).
set -euo pipefail
PACKAGES=(
  g++ cmake ninja-build pkg-config     # toolchain
  liblmdb-dev                          # storage engine
  tao-pegtl-dev                        # grammars
  libfmt-dev                           # formatting
  libedit-dev                          # line editing in the shell
  libmicrohttpd-dev libssl-dev zlib1g-dev   # keyhole serve: HTTP, SigV4 (libcrypto), CRC-32
  libcpp-httplib-dev                   # the HTTP client of the server's tests and benchmark
  libcurl4-openssl-dev                 # keyhole on an endpoint: HTTPS, proxies, CA bundles
  openssl                              # tests: a test CA and certificates for HTTPS
  libgtest-dev libgmock-dev            # unit tests
  libbenchmark-dev                     # bench/
  chromium                             # tests: .draw's page in a headless browser
  clang libclang-rt-dev                # libFuzzer targets
  clang-format                         # house style
  python3                              # tests that read keyhole's output as a program would
  python3-boto3 awscli                 # real clients of keyhole serve in tests/clients: Debian's
                                       # own (boto3 1.26, AWS CLI 2.9 on bookworm), the oldest a
                                       # user has; newer ones first on PATH are tested as well
)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# The AWS SDK for JavaScript v3, which tests/clients/js_test.sh installs with npm (from the npm
# registry, the first time: see the README), runs on Node.js: Debian's unless one is present.
if ! command -v node >/dev/null 2>&1; then missing+=(nodejs); fi
if ! command -v npm >/dev/null 2>&1; then missing+=(npm); fi
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "setup: installing ${missing[*]}" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
