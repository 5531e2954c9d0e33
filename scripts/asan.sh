#!/usr/bin/env bash
# The native C++ tests under AddressSanitizer and UndefinedBehaviorSanitizer
# (build/asan). Not part of npm test. Any report fails its test: ASan stops
# at the first error, UBSan is built without recovery.
set -euo pipefail
cd "$(dirname "$0")/.."
JOBS=${JOBS:-$(nproc)}
if [ ! -f build/asan/CMakeCache.txt ]; then
  cmake -S . -B build/asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSHARDLAB_ASAN=ON >/dev/null
fi
cmake --build build/asan -j "$JOBS" -- --no-print-directory | grep -vE '^\[ *[0-9]+%\] (Building|Linking)|^Scanning' || true
ASAN_OPTIONS="detect_leaks=1 detect_stack_use_after_return=1 strict_string_checks=1 check_initialization_order=1 abort_on_error=1" \
UBSAN_OPTIONS="print_stacktrace=1 halt_on_error=1" \
  ctest --test-dir build/asan -j "$JOBS" --output-on-failure
