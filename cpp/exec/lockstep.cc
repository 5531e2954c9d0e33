#include "exec/lockstep.h"

#include "exec/eval_eqn.h"
#include "ir/primitives/shard_map.h"
#include "runtime/collectives/lockstep_collectives.h"
#include "runtime/errors.h"
#include "runtime/sharded_array.h"

namespace shardlab::exec {

std::vector<HostArray> run_shard_map_lockstep(const ir::Eqn& e, const std::vector<HostArray>& operands) {
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
  for (const ir::Eqn& eq : body.eqns)
    for (int d = 0; d < n; ++d) {
      const ir::DeviceContext ctx{d, &collectives};
      eval_eqn(eq, envs[d], &ctx);
    }
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
