#include "exec/lockstep_shard_map.h"

#include "exec/eval_eqn.h"
#include "exec/timed.h"
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

// Steps `devices` through p's equations, each on its own values envs[d].
// Each device's span of equation i covers its step alone, except a while's:
// the devices step through its iterations together, so each one's span covers all of them.
void step(const ir::Program& p, Envs& envs, const std::vector<int>& devices, Collectives& collectives) {
  for (size_t i = 0; i < p.eqns.size(); ++i) {
    const ir::Eqn& eq = p.eqns[i];
    const auto index = static_cast<int32_t>(i);
    const ir::PrimitiveDef& def = ir::primitive(eq.prim);
    if (eq.prim == ir::Prim::kWhile) {
      all_timed(devices, index, def, [&] { step_while(eq, envs, devices, collectives); });
      continue;
    }
    for (int d : devices) {
      const ir::DeviceContext ctx{d, &collectives};
      timed(d, index, def, [&] { eval_eqn(eq, envs[d], &ctx); });
    }
  }
}

// Device d's environment for `p` (a while's cond or body) on `consts` (operands
// of the while, from envs[d]) and its carries.
std::vector<HostArray> sub_env(const ir::Program& p, const std::vector<HostArray>& outer,
                               const std::vector<ir::Atom>& consts, const std::vector<HostArray>& carry) {
  std::vector<HostArray> env = make_env(p);
  for (size_t i = 0; i < p.invars.size(); ++i)
    env[p.invars[i]].words = i < consts.size() ? value_of(consts[i], outer).words : carry[i - consts.size()].words;
  return env;
}

// A while equation, iteration by iteration for all `devices` together.
void step_while(const ir::Eqn& e, Envs& envs, const std::vector<int>& devices, Collectives& collectives) {
  const ir::WhileParts w = ir::while_parts(e.params, e.inputs.size());
  const auto operands = [&](size_t from, size_t n) {
    return std::vector<ir::Atom>(e.inputs.begin() + static_cast<long>(from),
                                 e.inputs.begin() + static_cast<long>(from + n));
  };
  const std::vector<ir::Atom> cond_consts = operands(0, w.cond_nconsts),
                              body_consts = operands(w.cond_nconsts, w.body_nconsts),
                              init = operands(w.cond_nconsts + w.body_nconsts, w.num_carry);
  const char* collective = ir::first_collective(w.cond);
  if (!collective) collective = ir::first_collective(w.body);
  Envs carry(envs.size()), sub(envs.size());
  for (int d : devices)
    for (const ir::Atom& a : init) carry[d].push_back(value_of(a, envs[d]));
  for (std::vector<int> looping = devices;;) {
    throw_if_cancelled();
    for (int d : looping) sub[d] = sub_env(w.cond, envs[d], cond_consts, carry[d]);
    step(w.cond, sub, looping, collectives);
    std::vector<int> next;
    for (int d : looping)
      if (value_of(w.cond.outvars[0], sub[d]).words[0] != 0) next.push_back(d);
    if (next.empty()) break;
    // Only without check_vma can the predicate differ (its type says it varies otherwise).
    if (collective && next.size() != looping.size())
      fail(ErrorKind::kDevice, "while_loop: device ", next[0], " goes on looping while others stop, but the loop "
           "performs ", collective, ", which every device must meet as many times; make the predicate the same on "
           "every device (e.g. from a psum or pmax)");
    looping = std::move(next);
    for (int d : looping) sub[d] = sub_env(w.body, envs[d], body_consts, carry[d]);
    step(w.body, sub, looping, collectives);
    for (int d : looping)
      for (size_t j = 0; j < w.num_carry; ++j) carry[d][j] = value_of(w.body.outvars[j], sub[d]);
  }
  for (int d : devices)
    for (size_t j = 0; j < e.outputs.size(); ++j) envs[d][e.outputs[j]].words = std::move(carry[d][j].words);
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
