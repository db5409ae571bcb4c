#!/bin/sh
# Debian packages arena's sandbox and browser tests use; installs only what is missing.
#   python3-venv    the virtual environment, when $PYTHON (the Makefile's) is Debian's python3,
#                   which has no venv without it
#   bubblewrap      bots run in namespaces (docs/sandbox.md)
#   python3-msgpack a Python with msgpack that a sandboxed, unprivileged bot can run
#   chromium(-driver) the real browser of the report tests
#   gcc libc6-dev make, nodejs, rustc cargo
#                   the toolchains of the starter kits (arena new-bot: C, JavaScript, Rust), under
#                   /usr where a sandboxed build or bot sees them (rustup's, under ~/.cargo, it
#                   does not)
set -e
missing=""
"${PYTHON:-python3}" -c "import ensurepip, venv" >/dev/null 2>&1 || missing="$missing python3-venv"
command -v bwrap >/dev/null 2>&1 || missing="$missing bubblewrap"
/usr/bin/python3 -c "import msgpack" >/dev/null 2>&1 || missing="$missing python3-msgpack"
command -v chromium >/dev/null 2>&1 || missing="$missing chromium"
command -v chromedriver >/dev/null 2>&1 || missing="$missing chromium-driver"
[ -x /usr/bin/gcc ] || missing="$missing gcc"
[ -e /usr/include/stdio.h ] || missing="$missing libc6-dev"
[ -x /usr/bin/make ] || missing="$missing make"
[ -x /usr/bin/node ] || missing="$missing nodejs"
[ -x /usr/bin/rustc ] || missing="$missing rustc"
[ -x /usr/bin/cargo ] || missing="$missing cargo"
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
    echo "arena: please install these Debian packages (as root):$missing" >&2
    echo "arena: continuing without them; the tests that need them are skipped, and the test" >&2
    echo "arena: summary lists them under NOT TESTED on this machine" >&2
    exit 0
fi
echo "arena: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq $missing >/dev/null
