#!/usr/bin/env bash
# Builds everything without testing: the native core, tests and benchmarks
# (build/native) and the wasm module plus the wasm test binaries (build/wasm;
# the module is copied to web/lib/wasm/), and Python's standard library as
# bytecode for Pyodide (web/python/stdlib_bytecode.zip). Incremental after
# the first run.
set -euo pipefail
cd "$(dirname "$0")/.."
JOBS=${JOBS:-$(nproc)}

if [ ! -f build/native/CMakeCache.txt ]; then
  cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
echo "build: native (build/native)"
cmake --build build/native -j "$JOBS" -- --no-print-directory | grep -vE '^\[ *[0-9]+%\] (Building|Linking)|^Scanning|^Consolidate' || true
test -x build/native/tests/cpp/collectives_test

if [ ! -f build/wasm/CMakeCache.txt ]; then
  emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release -DCMAKE_CROSSCOMPILING_EMULATOR="$(command -v node)" >/dev/null
fi
echo "build: wasm (build/wasm -> web/lib/wasm)"
cmake --build build/wasm -j "$JOBS" -- --no-print-directory | grep -vE '^\[ *[0-9]+%\] (Building|Linking)|^Scanning|^Consolidate' || true
test -f web/lib/wasm/shardlab_wasm.wasm
test -f web/lib/wasm/shardlab_wasm_test.wasm  # the same with the test hooks (fault injection), for the tests only

# The module without threads, for pages that are not cross-origin isolated.
if [ ! -f build/wasm-st/CMakeCache.txt ]; then
  emcmake cmake -S . -B build/wasm-st -DCMAKE_BUILD_TYPE=Release -DSHARDLAB_THREADS=OFF >/dev/null
fi
echo "build: wasm without threads (build/wasm-st -> web/lib/wasm)"
cmake --build build/wasm-st -j "$JOBS" --target shardlab_wasm -- --no-print-directory | grep -vE '^\[ *[0-9]+%\] (Building|Linking)|^Scanning|^Consolidate' || true
test -f web/lib/wasm/shardlab_wasm_st.wasm

# Python's standard library as bytecode, for Pyodide (its package ships source).
node scripts/compile_python_stdlib.mjs

