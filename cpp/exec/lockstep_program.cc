#include "exec/lockstep_program.h"


#include "exec/eval_eqn.h"
#include "exec/lockstep_shard_map.h"
#include "exec/timed.h"
#include "ir/transforms/lower.h"
#include "ir/transforms/partition.h"
#include "runtime/debug_log.h"
#include "runtime/errors.h"

namespace shardlab::exec {

std::vector<HostArray> interpret(const ir::Program& traced, const std::vector<HostArray>& inputs) {
  // Each shard_map names its own mesh here, but a program runs on one, as on the threads.
  ir::program_mesh(traced, "run");
  // What runs is the program partitioned, then lowered (a copy only when something needs either).
  const ir::ProgramRef run = ir::lower(ir::partition(std::shared_ptr<const ir::Program>(&traced, [](const ir::Program*) {})));
  const ir::Program& p = *run;
  if (inputs.size() != p.invars.size())
    fail(ErrorKind::kValue, "interpret: the program takes ", p.invars.size(), " inputs, got ", inputs.size());
  std::vector<HostArray> env = make_env(p);
  for (size_t i = 0; i < inputs.size(); ++i) {
    const ir::Aval& want = p.avals[p.invars[i]];
    if (inputs[i].aval.dtype != want.dtype || inputs[i].aval.shape != want.shape)
      fail(ErrorKind::kShape, "interpret: input ", i, " is ", inputs[i].aval.str(), " but the program expects ",
           want.str());
    env[p.invars[i]].words = inputs[i].words;
  }
  if (Timeline* t = Timeline::armed())
    for (int d = 0; d < kMaxDevices; ++d) t->restart(d);
  for (size_t i = 0; i < p.eqns.size(); ++i) {
    const ir::Eqn& e = p.eqns[i];
    for (int d = -1; d < kMaxDevices; ++d) DebugLog::instance().set_phase(d, static_cast<int64_t>(i));
    if (e.prim != ir::Prim::kShardMap) {
      // The host's work, drawn on device 0's row as the threaded executor's device 0 does it.
      timed(0, static_cast<int32_t>(i), ir::primitive(e.prim), [&] { eval_eqn(e, env, nullptr); });
      continue;
    }
    std::vector<HostArray> operands;
    for (const ir::Atom& a : e.inputs) operands.push_back(value_of(a, env));
    auto outs = run_shard_map_lockstep(e, operands, static_cast<int32_t>(i));
    for (size_t j = 0; j < outs.size(); ++j) env[e.outputs[j]].words = std::move(outs[j].words);
  }
  std::vector<HostArray> results;
  for (const ir::Atom& a : p.outvars) results.push_back(value_of(a, env));
  return results;
}

}  // namespace shardlab::exec
