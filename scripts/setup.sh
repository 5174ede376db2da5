#!/usr/bin/env bash
# One-time (and idempotent) setup on a Debian machine, run as root or with sudo:
# the apt packages the Caller needs, then its own virtual environment in .venv/.
set -euo pipefail
cd "$(dirname "$0")/.."

APT_PACKAGES=(espeak-ng alsa-utils libgl1 libglib2.0-0 python3-venv
              festival festvox-kallpc16k flite)  # Festival, Flite: voices from real speech for the spotter's tests
missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  echo "setup: installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  echo "setup: creating .venv"
  "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install -q --disable-pip-version-check -U pip
.venv/bin/python -m pip install -q --disable-pip-version-check -e ".[test]"
# compile the exact slide search and the reader's loops once now (numba caches them, about a
# minute on a fresh install), not at the first read or explained move
.venv/bin/python -c "from rules import exact_search; from vision import kernels; exact_search.warm_up(); kernels.warm_up()"
echo "setup: ready (.venv/bin/caller)"
