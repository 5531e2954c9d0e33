#!/usr/bin/env bash
# The libFuzzer targets (tests/fuzz) with AddressSanitizer + UBSan, built with
# clang-14 in build/fuzz: each runs FUZZ_SECONDS (default 30, a minute in all)
# from its seed corpus in tests/fuzz/corpus/<target>; new inputs it finds are
# kept in build/fuzz/corpus/<target>, and a crash is written to
# build/fuzz/crash-* and fails the run. Not part of npm test.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_EACH=${FUZZ_SECONDS:-30}
if [ ! -f build/fuzz/CMakeCache.txt ]; then
  cmake -S . -B build/fuzz -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSHARDLAB_FUZZ=ON >/dev/null
fi
cmake --build build/fuzz -j "$(nproc)" -- --no-print-directory | grep -vE '^\[ *[0-9]+%\] (Building|Linking)|^Scanning' || true
status=0
for target in program_json_fuzz layout_fuzz; do
  mkdir -p "build/fuzz/corpus/$target"
  dict=()
  [ -f "tests/fuzz/$target.dict" ] && dict=(-dict="tests/fuzz/$target.dict")
  log="build/fuzz/$target.log"
  echo "fuzz: $target for ${SECONDS_EACH} s"
  if ! "build/fuzz/tests/fuzz/$target" -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
      -print_final_stats=1 -artifact_prefix=build/fuzz/ "${dict[@]}" \
      "build/fuzz/corpus/$target" "tests/fuzz/corpus/$target" >"$log" 2>&1; then
    status=1
    grep -E "ERROR|SUMMARY|Test unit written" "$log" || tail -20 "$log"
  fi
  # The figures: executions, the corpus it ended with, its coverage.
  grep -E "^stat::number_of_executed_units|^stat::peak_rss_mb|DONE|INITED" "$log" | sed "s/^/  /" || true
done
exit $status
