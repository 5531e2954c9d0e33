#include "exec/lockstep_shard_map.h"

#include <algorithm>

#include "exec/cond_branch.h"
#include "exec/eval_eqn.h"
#include "exec/timed.h"
#include "exec/while_loop.h"
#include "ir/primitives/control_flow.h"
#include "ir/primitives/shard_map.h"
#include "runtime/device_pool.h"
#include "runtime/collectives/lockstep_collectives.h"
#include "runtime/errors.h"
#include "runtime/sharded_array.h"

namespace shardlab::exec {

namespace {

using Envs = std::vector<std::vector<HostArray>>;  // per device: its values of a program's variables

// Runs `eval()` (which steps all `devices`) as a span of each of them.
template <class Eval>
void all_timed(const std::vector<int>& devices, int32_t index, const ir::PrimitiveDef& def, Eval&& eval) {
  if (!Timeline::armed()) return eval();  // no vector of start times per loop and body unless recording
  std::vector<int64_t> t0;
  for (int d : devices) t0.push_back(span_begin(d));
  eval();
  for (size_t k = 0; k < devices.size(); ++k) span_end(devices[k], span_kind(def), index, def.name, t0[k]);
}

void step_while(const ir::Eqn& e, Envs& envs, const std::vector<int>& devices, Collectives& collectives);
void step_cond(const ir::Eqn& e, Envs& envs, const std::vector<int>& devices, Collectives& collectives);

// Steps `devices` through p's equations, each on its own values envs[d]
// (through `loop` when p is a while's cond or body, for its in-place updates).
// Each device's span of equation i covers its step alone, except a while's:
// the devices step through its iterations together, so each one's span covers all of them.
void step(const ir::Program& p, Envs& envs, const std::vector<int>& devices, Collectives& collectives,
          const LoopPart* loop = nullptr) {
  for (size_t i = 0; i < p.eqns.size(); ++i) {
    const ir::Eqn& eq = p.eqns[i];
    const auto index = static_cast<int32_t>(i);
    const ir::PrimitiveDef& def = ir::primitive(eq.prim);
    if (eq.prim == ir::Prim::kWhile || eq.prim == ir::Prim::kCond) {
      all_timed(devices, index, def, [&] {
        (eq.prim == ir::Prim::kWhile ? step_while : step_cond)(eq, envs, devices, collectives);
      });
      continue;
    }
    for (int d : devices) {
      const ir::DeviceContext ctx{d, &collectives};
      timed(d, index, def, [&] { loop ? loop->eval(i, envs[d], &ctx) : eval_eqn(eq, envs[d], &ctx); });
    }
  }
}

// A while equation, iteration by iteration for all `devices` together.
void step_while(const ir::Eqn& e, Envs& envs, const std::vector<int>& devices, Collectives& collectives) {
  const ir::WhileParts w = ir::while_parts(e.params, e.inputs.size());
  const auto operands = [&](int d, size_t from, size_t n) {
    std::vector<HostArray> values;
    for (size_t k = from; k < from + n; ++k) values.push_back(value_of(e.inputs[k], envs[d]));
    return values;
  };
  const char* collective = ir::first_collective(w.cond);
  if (!collective) collective = ir::first_collective(w.body);
  const LoopPart cond(w.cond, w.cond_nconsts, true), body(w.body, w.body_nconsts, false);
  Envs carry(envs.size()), cond_env(envs.size()), body_env(envs.size());
  for (int d : devices) {
    cond_env[d] = cond.env(operands(d, 0, w.cond_nconsts));
    body_env[d] = body.env(operands(d, w.cond_nconsts, w.body_nconsts));
    carry[d] = operands(d, w.cond_nconsts + w.body_nconsts, w.num_carry);
  }
  for (std::vector<int> looping = devices;;) {
    throw_if_cancelled();
    for (int d : looping) cond.bind(cond_env[d], carry[d]);
    step(w.cond, cond_env, looping, collectives, &cond);
    std::vector<int> next;
    for (int d : looping) {
      if (value_of(w.cond.outvars[0], cond_env[d]).words[0] != 0) next.push_back(d);
      cond.unbind(cond_env[d], carry[d]);
    }
    if (next.empty()) break;
    // Only without check_vma can the predicate differ (its type says it varies otherwise).
    if (collective && next.size() != looping.size())
      fail(ErrorKind::kDevice, "while_loop: device ", next[0], " goes on looping while others stop, but the loop "
           "performs ", collective, ", which every device must meet as many times; make the predicate the same on "
           "every device (e.g. from a psum or pmax)");
    looping = std::move(next);
    for (int d : looping) body.bind(body_env[d], carry[d]);
    step(w.body, body_env, looping, collectives, &body);
    for (int d : looping) carry[d] = body.outputs(body_env[d]);
  }
  for (int d : devices)
    for (size_t j = 0; j < e.outputs.size(); ++j) envs[d][e.outputs[j]].words = std::move(carry[d][j].words);
}

// A cond equation: the devices taking each branch step through it together.
void step_cond(const ir::Eqn& e, Envs& envs, const std::vector<int>& devices, Collectives& collectives) {
  std::vector<std::pair<const ir::Program*, std::vector<int>>> groups;  // per branch taken: its devices
  for (int d : devices) {
    const auto index = static_cast<int32_t>(value_of(e.inputs[0], envs[d]).words[0]);
    const ir::Program* branch = &chosen_branch(e, index);
    auto g = std::find_if(groups.begin(), groups.end(), [&](const auto& x) { return x.first == branch; });
    if (g == groups.end()) g = groups.insert(groups.end(), {branch, {}});
    g->second.push_back(d);
  }
  // Only without check_vma can the index differ (its type says it varies otherwise).
  for (const auto& [branch, group] : groups)
    if (const char* c = ir::first_collective(*branch); c && groups.size() > 1)
      fail(ErrorKind::kDevice, "cond: devices ", group[0], " and ", (groups[0].second == group ? groups[1] : groups[0]).second[0],
           " take different branches, but a branch performs ", c, ", which every device must meet; make the "
           "index the same on every device (e.g. from a psum or pmax)");
  Envs sub(envs.size());
  for (const auto& [branch, group] : groups) {
    for (int d : group) {
      sub[d] = make_env(*branch);
      for (size_t i = 0; i < branch->invars.size(); ++i) sub[d][branch->invars[i]] = value_of(e.inputs[i + 1], envs[d]);
    }
    step(*branch, sub, group, collectives);
    for (int d : group)
      for (size_t j = 0; j < e.outputs.size(); ++j)
        envs[d][e.outputs[j]].words = value_of(branch->outvars[j], sub[d]).words;
  }
}

}  // namespace

std::vector<HostArray> run_shard_map_lockstep(const ir::Eqn& e, const std::vector<HostArray>& operands, int32_t index) {
  const auto& body = *ir::param<ir::ProgramRef>(e.params, "jaxpr", "shard_map");
  const auto& mesh = ir::param<ir::MeshRef>(e.params, "mesh", "shard_map");
  const auto& in_specs = ir::param<ir::Specs>(e.params, "in_specs", "shard_map");
  const auto& out_specs = ir::param<ir::Specs>(e.params, "out_specs", "shard_map");
  const int n = mesh->size();
  LockstepCollectives collectives(mesh);
  std::vector<std::vector<HostArray>> envs(n, make_env(body));
  for (size_t i = 0; i < operands.size(); ++i) {
    const Layout layout = make_layout(*mesh, operands[i].aval.shape, in_specs[i], "shard_map");
    for (int d = 0; d < n; ++d) {
      HostArray& h = envs[d][body.invars[i]];
      h.words.resize(static_cast<size_t>(num_elements(layout.block)));
      read_block(*mesh, layout, d, operands[i].words.data(), h.words.data());
    }
  }
  std::vector<int> devices(static_cast<size_t>(n));
  for (int d = 0; d < n; ++d) devices[static_cast<size_t>(d)] = d;
  all_timed(devices, index, ir::primitive(e.prim), [&] { step(body, envs, devices, collectives); });
  // Each output block goes to its place from the device that owns it
  // (Layout::owner, the lowest-numbered holder, as the threaded executor):
  // its replicas agree when check_vma holds; otherwise JAX also takes one copy.
  std::vector<HostArray> outs;
  const auto out_avals = ir::primitive(e.prim).shape(e.params, [&] {
    std::vector<ir::Aval> in;
    for (const auto& o : operands) in.push_back(o.aval);
    return in;
  }());
  for (size_t j = 0; j < body.outvars.size(); ++j) {
    HostArray g{out_avals[j], std::vector<uint32_t>(static_cast<size_t>(num_elements(out_avals[j].shape)))};
    const Layout layout = make_layout(*mesh, g.aval.shape, out_specs[j], "shard_map");
    for (int d = 0; d < n; ++d) {
      if (layout.owner(*mesh, d) != d) continue;
      const HostArray block = value_of(body.outvars[j], envs[d]);
      write_block(*mesh, layout, d, block.words.data(), g.words.data());
    }
    outs.push_back(std::move(g));
  }
  return outs;
}

}  // namespace shardlab::exec
