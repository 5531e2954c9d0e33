#!/usr/bin/env bash
# Installs what the build and the tests need on Debian 12, idempotently:
# apt packages (only those missing), then npm packages (only when node_modules
# is missing or older than package-lock.json). Nothing is downloaded at build time.
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian packages the build, the tests, `npm run fuzz` (clang-14, libclang-rt-14-dev) and the CLI sandbox's isolation (bubblewrap) need. Node.js and npm are checked as
# commands instead: machines often have them from another source (NodeSource's
# nodejs ships npm), and Debian's npm package would conflict with that.
APT_PACKAGES=(cmake g++ make googletest libgtest-dev libbenchmark-dev emscripten libeigen3-dev chromium clang-14 libclang-rt-14-dev bubblewrap)

missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ! command -v node >/dev/null || [ "$(node -p 'process.versions.node.split(".")[0]')" -lt 20 ]; then
  missing+=(nodejs)
fi
command -v npm >/dev/null || missing+=(npm)

if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ]; then
    echo "setup: installing apt packages: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    echo "setup: installing apt packages with sudo: ${missing[*]}"
    sudo apt-get update -qq
    sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "setup: these Debian packages are missing and I am not root:" >&2
    echo "  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
fi

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: installing npm packages (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error
fi
