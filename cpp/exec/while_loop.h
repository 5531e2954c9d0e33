// Running a while equation (ir/primitives/control_flow.h) on one device's
// values: its cond and body programs evaluated equation by equation, again
// and again. Its trip count is only known as it runs, so it cannot be
// unrolled; collectives inside meet the other devices on each iteration
// (the threaded executor), and every iteration first checks whether the
// host cancelled the job, so a loop that never ends is stopped.
// A loop's values are kept across iterations, never copied per iteration: its
// consts are set once, the carries move in and the results move out, and a
// buffer the body fills row by row (a scan's stacked outputs, lowered) is
// updated in place (donations, exec/eval_eqn.h). So a scan of T steps moves
// O(T) elements, not O(T^2).
#pragma once

#include <vector>

#include "exec/lockstep_program.h"
#include "ir/core/primitive.h"
#include "ir/core/program.h"

namespace shardlab::exec {

/// A while's cond or body as run iteration after iteration on one device's
/// environment (one HostArray per variable): the lockstep executor steps
/// several devices' environments through it together, run_while one.
class LoopPart {
 public:
  /// `p` takes `nconsts` consts then the carries; with `keeps_carry` (a
  /// cond, whose carries the body reads next) evaluation never consumes a carry.
  LoopPart(const ir::Program& p, size_t nconsts, bool keeps_carry);
  /// An environment for p with its consts (moved in once).
  std::vector<HostArray> env(std::vector<HostArray> consts) const;
  /// Moves the carries into `env` for a run.
  void bind(std::vector<HostArray>& env, std::vector<HostArray>& carry) const;
  /// Moves the carries back out of `env` after a run (a cond's).
  void unbind(std::vector<HostArray>& env, std::vector<HostArray>& carry) const;
  /// Evaluates equation i on `env`, writing in place where donations allow.
  void eval(size_t i, std::vector<HostArray>& env, const ir::DeviceContext* ctx) const;
  /// p's outputs after a run: moved out of `env` where nothing else holds them, else copied.
  std::vector<HostArray> outputs(std::vector<HostArray>& env) const;

  const ir::Program& program;

 private:
  size_t nconsts_, kept_;
  std::vector<bool> donate_;
  std::vector<bool> moves_;  // per outvar: moved out of the environment (else copied)
};

/// Evaluates while equation `e` on operands `in` into `out` (its final
/// carries); `ctx` is the device running it (null outside a shard_map body).
void run_while(const ir::Eqn& e, const std::vector<const ir::Tensor*>& in, const std::vector<ir::Tensor*>& out,
               const ir::DeviceContext* ctx);

}  // namespace shardlab::exec
