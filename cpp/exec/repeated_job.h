// A prepared program run many times in one job, for the benchmarks and the
// test build of the module only (production code never includes this): the
// time of thousands of small collectives is then theirs, not the job's start.
#pragma once

#include <functional>

#include "exec/threaded.h"
#include "runtime/collectives/communicator.h"
#include "runtime/errors.h"

namespace shardlab::exec {

/// The per-device function running `job` `reps` times on the devices of
/// `comm` (the job's communicator), meeting between runs only if the job says
/// so; its outputs are the last run's.
inline std::function<void(int)> repeated(const ProgramJob& job, Communicator& comm, int reps) {
  if (reps < 1) fail(ErrorKind::kValue, "repeated: reps=", reps, " must be >= 1");
  return [fn = job.fn, sync = job.rerun_needs_sync, &comm, reps](int d) {
    for (int r = 0; r < reps; ++r) {
      if (r > 0 && sync) comm.sync(d);
      fn(d);
    }
  };
}

}  // namespace shardlab::exec
