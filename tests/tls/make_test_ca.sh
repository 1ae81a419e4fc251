#!/usr/bin/env bash
# Makes a test certificate authority and a server certificate it signed, for the tests that
# run keyhole over HTTPS (keyhole serve --tls-cert/--tls-key; clients trust DIR/ca.pem the way
# AWS_CA_BUNDLE or --ca-bundle would): DIR/ca.pem, DIR/server.pem and DIR/server.key, for the
# names localhost and 127.0.0.1. Does nothing when they are there. Needs the openssl program
# (scripts/setup.sh installs it).
# Usage: make_test_ca.sh DIR
set -euo pipefail
dir=$1
if [ -s "$dir/ca.pem" ] && [ -s "$dir/server.pem" ] && [ -s "$dir/server.key" ]; then exit 0; fi
mkdir -p "$dir"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$work/ca.key" -out "$work/ca.pem" \
  -days 3650 -subj "/CN=keyhole test CA" >/dev/null 2>&1
openssl req -newkey rsa:2048 -nodes -keyout "$work/server.key" -out "$work/server.csr" \
  -subj "/CN=localhost" >/dev/null 2>&1
printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\n' >"$work/ext.cnf"
openssl x509 -req -in "$work/server.csr" -CA "$work/ca.pem" -CAkey "$work/ca.key" \
  -CAcreateserial -out "$work/server.pem" -days 3650 -extfile "$work/ext.cnf" >/dev/null 2>&1
cp "$work/ca.pem" "$work/server.pem" "$work/server.key" "$dir/"
