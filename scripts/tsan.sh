#!/usr/bin/env bash
# The native C++ tests under ThreadSanitizer (build/tsan). Not part of npm test.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -f build/tsan/CMakeCache.txt ]; then
  cmake -S . -B build/tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSHARDLAB_TSAN=ON >/dev/null
fi
cmake --build build/tsan -j "$(nproc)" -- --no-print-directory | grep -vE '^\[ *[0-9]+%\] (Building|Linking)|^Scanning' || true
TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" ctest --test-dir build/tsan --output-on-failure
