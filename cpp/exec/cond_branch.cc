#include "exec/cond_branch.h"

#include <algorithm>
#include <cstring>

#include "exec/eval_eqn.h"
#include "exec/timed.h"

namespace shardlab::exec {

const ir::Program& chosen_branch(const ir::Eqn& e, int32_t index) {
  const ir::Programs& branches = ir::param<ir::Programs>(e.params, "branches", "cond");
  const auto last = static_cast<int32_t>(branches.size()) - 1;
  return *branches[static_cast<size_t>(std::clamp(index, 0, last))];
}

void run_cond(const ir::Eqn& e, const std::vector<const ir::Tensor*>& in, const std::vector<ir::Tensor*>& out,
              const ir::DeviceContext* ctx) {
  int32_t index = 0;
  std::memcpy(&index, in[0]->data, sizeof index);
  const ir::Program& branch = chosen_branch(e, index);
  std::vector<HostArray> env = make_env(branch);
  for (size_t i = 0; i < branch.invars.size(); ++i) {
    HostArray& h = env[branch.invars[i]];
    h.words.resize(static_cast<size_t>(num_elements(h.aval.shape)));
    if (!h.words.empty()) std::memcpy(h.words.data(), in[i + 1]->data, h.words.size() * 4);
  }
  const int d = ctx ? ctx->device : 0;
  for (size_t i = 0; i < branch.eqns.size(); ++i)
    timed(d, static_cast<int32_t>(i), ir::primitive(branch.eqns[i].prim), [&] { eval_eqn(branch.eqns[i], env, ctx); });
  for (size_t j = 0; j < out.size(); ++j) {
    const HostArray v = value_of(branch.outvars[j], env);
    if (!v.words.empty()) std::memcpy(out[j]->data, v.words.data(), v.words.size() * 4);
  }
}

}  // namespace shardlab::exec
