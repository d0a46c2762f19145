#!/usr/bin/env bash
# Sets up Smriti on a fresh machine: system packages, a virtualenv in .venv, the project with its local
# memory server and test tools. Safe to re-run. Works as root or as a user with sudo (or with the system
# packages already installed).
set -euo pipefail
cd "$(dirname "$0")"

# postgresql: tests that stop and start a database (tests/pg_server.py) run a server of their own.
SYSTEM_PACKAGES=(ffmpeg espeak-ng tesseract-ocr tesseract-ocr-eng tesseract-ocr-tel fonts-telu chromium postgresql)

missing=()
for pkg in "${SYSTEM_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ]; then as_root=(); elif sudo -n true 2>/dev/null; then as_root=(sudo -n); else
    echo "setup: please install these system packages first: ${missing[*]}" >&2; exit 1; fi
  echo "setup: installing ${missing[*]}"
  "${as_root[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
fi

PYTHON=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
# torch is pinned to the CPU build in the `local` extra; an unpinned torch would pull a multi-GB CUDA build.
.venv/bin/python -m pip install -q -e '.[local,test]'
echo "setup: done (.venv ready)"
