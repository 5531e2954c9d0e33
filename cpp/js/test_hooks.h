// The test hooks, linked only into the test build of the module
// (shardlab_wasm_test): fault injection (production modules cannot fail on
// purpose) and a program run many times in one job (for the benchmarks).
#pragma once

#include <string>

#include "js/async_runtime.h"
#include "js/trace_api.h"

namespace shardlab::js {

/// Submits a job in which every device runs a psum, then device `failing`
/// fails while the others wait in a second psum: mode "throw" throws a C++
/// exception, "trap" executes a wasm trap and "abort" calls std::abort (both
/// kill its worker). The runtime must reject the job and stay usable (or,
/// after a trap or an abort, report itself gone).
void submit_fault(AsyncRuntime& rt, int id, const DeviceMesh& mesh, int failing, const std::string& mode);

/// Submits `program` on `inputs` run `reps` times in one job
/// (exec/repeated_job.h); its outputs are the last run's.
ProgramRun submit_repeated(AsyncRuntime& rt, int id, const DeviceMesh& mesh, const JsProgram& program,
                           const emscripten::val& inputs, int reps);

}  // namespace shardlab::js
