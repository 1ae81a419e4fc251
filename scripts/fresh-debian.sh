#!/usr/bin/env bash
# Checks the README's two commands as a new user meets them: bootstraps a fresh Debian 12
# (bookworm) root file system, clones this repository into it (its HEAD commit: uncommitted
# changes are not part of the check), and runs, as root with a clean environment,
#   bash scripts/run.sh first.kh     (here with `.tables` on standard input, timed)
#   bash scripts/test.sh
# then prints a report: client versions, times, the test summary and any failed tests.
# Not part of the test suite: it takes about 45 minutes on two cores and downloads from Debian's
# mirror and the npm registry.
#
# Usage: scripts/fresh-debian.sh [WORKDIR]     (default /var/tmp/keyhole-fresh-debian)
# WORKDIR is emptied first; the logs stay in it. Needs root (debootstrap, chroot, mount).
#
# What the fresh system is given from this machine, and nothing else: its name resolution
# (/etc/resolv.conf, /etc/hosts) and, when they are set here, apt's Acquire:: settings,
# proxy variables and extra CA certificates (/usr/local/share/ca-certificates), for networks
# that reach the outside through a proxy or a TLS-inspecting gateway. On a machine with a plain
# connection to the internet these are empty and the check is exactly a fresh Debian.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work=${1:-/var/tmp/keyhole-fresh-debian}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
root="$work/root"

if [ "$(id -u)" -ne 0 ]; then
  echo "fresh-debian: run as root (debootstrap, chroot and mount need it)" >&2
  exit 2
fi
if ! command -v debootstrap >/dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
fi
if [ -n "$(git -C "$repo" status --porcelain --untracked-files=no)" ]; then
  echo "fresh-debian: note: uncommitted changes are not checked (the clone is of HEAD)" >&2
fi

unmount_all() {
  for m in dev/pts dev sys proc; do
    mountpoint -q "$root/$m" 2>/dev/null && umount -l "$root/$m" 2>/dev/null
  done
  return 0
}
trap unmount_all EXIT
if [ -d "$root" ]; then unmount_all; fi
rm -rf "$work"
mkdir -p "$work"

log() { echo "fresh-debian: $*" >&2; }
started=$(date +%s)
log "debootstrap bookworm into $root (from $mirror)"
debootstrap --variant=minbase bookworm "$root" "$mirror" >"$work/debootstrap.log" 2>&1 || {
  tail -n 20 "$work/debootstrap.log"
  exit 1
}
# The sources of Debian's own container image: the release, its updates and security.
security=${DEBIAN_SECURITY_MIRROR:-${mirror%/debian}/debian-security}
cat >"$root/etc/apt/sources.list" <<EOF
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb $security bookworm-security main
EOF

# This machine's network, as described above.
cp /etc/resolv.conf "$root/etc/resolv.conf"
cp /etc/hosts "$root/etc/hosts"
for f in /etc/apt/apt.conf.d/*; do
  if grep -q '^Acquire::' "$f" 2>/dev/null; then cp "$f" "$root/etc/apt/apt.conf.d/"; fi
done
extra_ca=""
if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
  mkdir -p "$root/usr/local/share/keyhole-fresh-debian"
  cat /usr/local/share/ca-certificates/*.crt >"$root/usr/local/share/keyhole-fresh-debian/extra-ca.pem"
  extra_ca=/usr/local/share/keyhole-fresh-debian/extra-ca.pem
fi
env_vars=(HOME=/root LANG=C.UTF-8 TERM=dumb
  PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin)
for v in http_proxy https_proxy no_proxy HTTP_PROXY HTTPS_PROXY NO_PROXY; do
  if [ -n "${!v:-}" ]; then env_vars+=("$v=${!v}"); fi
done
# Node.js trusts its own CA list; the extra CAs reach npm through NODE_EXTRA_CA_CERTS.
if [ -n "$extra_ca" ]; then env_vars+=("NODE_EXTRA_CA_CERTS=$extra_ca"); fi

mount -t proc proc "$root/proc"
mount --bind /sys "$root/sys"
mount --bind /dev "$root/dev"
mount --bind /dev/pts "$root/dev/pts"
git clone -q "$repo" "$root/root/keyhole"
commit=$(git -C "$root/root/keyhole" rev-parse --short HEAD)

in_root() { chroot "$root" /usr/bin/env -i "${env_vars[@]}" bash -c "$1"; }
seconds() { echo $(($(date +%s) - $1)); }

log "command 1: bash scripts/run.sh first.kh (log: $work/run.log)"
t=$(date +%s)
run_status=0
in_root 'cd /root/keyhole && echo .tables | bash scripts/run.sh first.kh' >"$work/run.log" 2>&1 ||
  run_status=$?
run_seconds=$(seconds "$t")

log "command 2: bash scripts/test.sh (log: $work/test.log)"
t=$(date +%s)
test_status=0
in_root 'cd /root/keyhole && bash scripts/test.sh' >"$work/test.log" 2>&1 || test_status=$?
test_seconds=$(seconds "$t")

# What each real client said (ctest shows a passing test's output only with -V).
clients=$(in_root 'cd /root/keyhole/build && ctest -R "^clients\." -V 2>&1' |
  sed -n 's/^[0-9]*: \(SKIP.*\|boto3 .*scenario.*\|aws cli.*\|js.*\)$/  \1/p' || true)

versions=$(in_root 'g++ --version | head -n 1; cmake --version | head -n 1
  echo "python3-boto3: $(python3 -c "import boto3, botocore; print(boto3.__version__, \"botocore\", botocore.__version__)")"
  aws --version; echo "node $(node --version), npm $(npm --version)"' 2>&1)

cat <<EOF

fresh Debian 12 check of keyhole $commit ($(date -u +%Y-%m-%d), $(nproc) cores)
$versions
bootstrap and set-up: $((t - started - run_seconds)) s
bash scripts/run.sh first.kh: exit $run_status after $run_seconds s to the first result
$(tail -n 3 "$work/run.log" | sed 's/^/  | /')
bash scripts/test.sh: exit $test_status after $test_seconds s
  $(tail -n 1 "$work/test.log")
EOF
grep -E '^\s+[0-9]+ - .*\((Failed|Timeout|Not Run|SEGFAULT|Subprocess aborted)\)' "$work/test.log" |
  sed 's/^/  failed: /' || true
echo "the real clients:"
echo "$clients"
echo "logs: $work"
[ "$run_status" = 0 ] && [ "$test_status" = 0 ]
