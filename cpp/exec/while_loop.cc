#include "exec/while_loop.h"

#include <cstring>

#include "exec/eval_eqn.h"
#include "ir/primitives/control_flow.h"
#include "runtime/device_pool.h"

namespace shardlab::exec {

namespace {

// A tensor's elements as a host array.
HostArray copy_of(const ir::Tensor& t) {
  HostArray h{t.aval, std::vector<uint32_t>(static_cast<size_t>(num_elements(t.aval.shape)))};
  if (!h.words.empty()) std::memcpy(h.words.data(), t.data, h.words.size() * 4);
  return h;
}

// p's outputs on `consts` then `carry`.
std::vector<HostArray> run(const ir::Program& p, const std::vector<HostArray>& consts,
                           const std::vector<HostArray>& carry, const ir::DeviceContext* ctx) {
  std::vector<HostArray> env = make_env(p);
  for (size_t i = 0; i < p.invars.size(); ++i)
    env[p.invars[i]].words = i < consts.size() ? consts[i].words : carry[i - consts.size()].words;
  for (const ir::Eqn& e : p.eqns) eval_eqn(e, env, ctx);
  std::vector<HostArray> outs;
  for (const ir::Atom& a : p.outvars) outs.push_back(value_of(a, env));
  return outs;
}

}  // namespace

void run_while(const ir::Eqn& e, const std::vector<const ir::Tensor*>& in, const std::vector<ir::Tensor*>& out,
               const ir::DeviceContext* ctx) {
  const ir::WhileParts w = ir::while_parts(e.params, in.size());
  std::vector<HostArray> cond_consts, body_consts, carry;
  for (size_t i = 0; i < in.size(); ++i) {
    std::vector<HostArray>& to = i < w.cond_nconsts                    ? cond_consts
                                 : i < w.cond_nconsts + w.body_nconsts ? body_consts
                                                                       : carry;
    to.push_back(copy_of(*in[i]));
  }
  for (;;) {
    throw_if_cancelled();
    if (run(w.cond, cond_consts, carry, ctx)[0].words[0] == 0) break;
    carry = run(w.body, body_consts, carry, ctx);
  }
  for (size_t j = 0; j < out.size(); ++j)
    if (!carry[j].words.empty()) std::memcpy(out[j]->data, carry[j].words.data(), carry[j].words.size() * 4);
}

}  // namespace shardlab::exec
