// Fault injection for the tests, linked only into the test build of the
// module (shardlab_wasm_test): production modules cannot fail on purpose.
#pragma once

#include <string>

#include "js/async_runtime.h"

namespace shardlab::js {

/// Submits a job in which every device runs a psum, then device `failing`
/// fails while the others wait in a second psum: mode "throw" throws a C++
/// exception, "trap" executes a wasm trap and "abort" calls std::abort (both
/// kill its worker). The runtime must reject the job and stay usable (or,
/// after a trap or an abort, report itself gone).
void submit_fault(AsyncRuntime& rt, int id, const DeviceMesh& mesh, int failing, const std::string& mode);

}  // namespace shardlab::js
