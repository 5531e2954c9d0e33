#!/usr/bin/env bash
# The libFuzzer targets (tests/fuzz) with AddressSanitizer + UBSan, built with
# clang-14 in build/fuzz: the program-JSON reader, the layouts, and the
# differential fuzzer over generated programs (threaded and lockstep
# executors bitwise, and a float64 reference); each runs FUZZ_SECONDS
# (default 30) from its seed corpus in tests/fuzz/corpus/<target>; new inputs
# it finds are kept in build/fuzz/corpus/<target>, and a crash is written to
# build/fuzz/crash-*, copied into tests/fuzz/corpus/<target>/ (commit it with
# the fix: ctest replays the differential corpus) and fails the run. Then the
# property tests (fast-check, in Vitest) of the protocol, the CLI's channel
# and deserialize, at FUZZ_RUNS runs per property (default 20000). Not part
# of npm test, which runs the properties at 300 runs and replays the corpus.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_EACH=${FUZZ_SECONDS:-30}
if [ ! -f build/fuzz/CMakeCache.txt ]; then
  cmake -S . -B build/fuzz -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSHARDLAB_FUZZ=ON >/dev/null
fi
cmake --build build/fuzz -j "$(nproc)" -- --no-print-directory | grep -vE '^\[ *[0-9]+%\] (Building|Linking)|^Scanning' || true
status=0
for target in program_json_fuzz layout_fuzz program_diff_fuzz; do
  mkdir -p "build/fuzz/corpus/$target"
  dict=()
  [ -f "tests/fuzz/$target.dict" ] && dict=(-dict="tests/fuzz/$target.dict")
  log="build/fuzz/$target.log"
  echo "fuzz: $target for ${SECONDS_EACH} s"
  if ! "build/fuzz/tests/fuzz/$target" -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
      -print_final_stats=1 -artifact_prefix=build/fuzz/ "${dict[@]}" \
      "build/fuzz/corpus/$target" "tests/fuzz/corpus/$target" >"$log" 2>&1; then
    status=1
    grep -E "ERROR|SUMMARY|Test unit written|program_diff_fuzz:" "$log" || tail -20 "$log"
    for crash in build/fuzz/crash-* build/fuzz/timeout-* build/fuzz/oom-*; do
      [ -f "$crash" ] || continue
      cp "$crash" "tests/fuzz/corpus/$target/" && echo "  kept $(basename "$crash") in tests/fuzz/corpus/$target/"
      rm -f "$crash"
    done
  fi
  # The figures: executions, the corpus it ended with, its coverage.
  grep -E "^stat::number_of_executed_units|^stat::peak_rss_mb|DONE|INITED" "$log" | sed "s/^/  /" || true
done
echo "fuzz: the property tests, ${FUZZ_RUNS:-20000} runs each"
FUZZ_RUNS=${FUZZ_RUNS:-20000} npx vitest run tests/js/protocol_properties.test.js || status=1
exit $status
