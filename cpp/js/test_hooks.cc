#include "js/test_hooks.h"

#include <cstdlib>

#include "exec/repeated_job.h"
#include "js/js_errors.h"
#include "runtime/errors.h"

namespace shardlab::js {

void submit_fault(AsyncRuntime& rt, int id, const DeviceMesh& mesh, int failing, const std::string& mode) {
  with_js_errors([&] {
    if (mode != "throw" && mode != "trap" && mode != "abort")
      fail(ErrorKind::kValue, "fault: mode '", mode, "' is not one of 'throw', 'trap', 'abort'");
    auto comm = mesh.comm;  // the job holds the communicator alive
    const AxisGroup g = mesh.mesh->axis_group(mesh.mesh->axis_names(), "fault");
    rt.submit(
        id, mesh.mesh->size(),
        [comm, g, failing, mode](int d) {
          float x = 1.0f;
          comm->all_reduce(d, g, ReduceOp::kSum, DType::kFloat32, &x, &x, 1);
          if (d == failing) {
            if (mode == "trap") __builtin_trap();
            if (mode == "abort") std::abort();
            fail(ErrorKind::kValue, "injected failure on device ", d);
          }
          comm->all_reduce(d, g, ReduceOp::kSum, DType::kFloat32, &x, &x, 1);
        },
        comm.get());
  });
}

ProgramRun submit_repeated(AsyncRuntime& rt, int id, const DeviceMesh& mesh, const JsProgram& program,
                           const emscripten::val& inputs, int reps) {
  return with_js_errors([&] {
    exec::ProgramJob job = rt.prepare_program(mesh, program.executable, inputs);
    job.fn = exec::repeated(job, *mesh.comm, reps);
    return rt.submit_job(id, mesh, std::move(job));
  });
}

}  // namespace shardlab::js
