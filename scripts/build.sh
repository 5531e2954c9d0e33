#!/usr/bin/env bash
# Builds everything without testing: the native core, tests and benchmarks
# (build/native), the wasm module plus the wasm test binaries (build/wasm;
# the module is copied to web/lib/wasm/), Python's standard library as
# bytecode for Pyodide (web/python/stdlib_bytecode.zip) and the generated
# type declarations (web/lib/functions.d.ts). Incremental after the first run.
set -euo pipefail
cd "$(dirname "$0")/.."
JOBS=${JOBS:-$(nproc)}
# cmake --build with the progress lines left out; a failed build fails the script (pipefail: grep's
# status counts only when it is cmake's that failed, since the filter printing nothing is no error).
quiet_build() { cmake --build "$@" -- --no-print-directory | { grep -vE '^\[ *[0-9]+%\] (Building|Linking)|^Scanning|^Consolidate' || true; }; }

if [ ! -f build/native/CMakeCache.txt ]; then
  cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
echo "build: native (build/native)"
quiet_build build/native -j "$JOBS"
test -x build/native/tests/cpp/collectives_test

if [ ! -f build/wasm/CMakeCache.txt ]; then
  emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release -DCMAKE_CROSSCOMPILING_EMULATOR="$(command -v node)" >/dev/null
fi
echo "build: wasm (build/wasm -> web/lib/wasm)"
quiet_build build/wasm -j "$JOBS"
test -f web/lib/wasm/shardlab_wasm.wasm
test -f web/lib/wasm/shardlab_wasm_test.wasm  # the same with the test hooks (fault injection), for the tests only

# The module without threads, for pages that are not cross-origin isolated.
if [ ! -f build/wasm-st/CMakeCache.txt ]; then
  emcmake cmake -S . -B build/wasm-st -DCMAKE_BUILD_TYPE=Release -DSHARDLAB_THREADS=OFF >/dev/null
fi
echo "build: wasm without threads (build/wasm-st -> web/lib/wasm)"
quiet_build build/wasm-st -j "$JOBS" --target shardlab_wasm
test -f web/lib/wasm/shardlab_wasm_st.wasm

# Python's standard library as bytecode, for Pyodide (its package ships source).
node scripts/compile_python_stdlib.mjs

# The package's declarations of the functions the API manifest types (web/lib/functions.d.ts).
node scripts/gen_types.mjs

