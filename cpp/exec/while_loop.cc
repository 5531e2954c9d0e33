#include "exec/while_loop.h"

#include <cstring>

#include "exec/eval_eqn.h"
#include "exec/timed.h"
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

// A while's cond or body with its values kept across iterations: its consts
// are set once, and the carries pass through without copies (evaluation
// never writes an input).
class Part {
 public:
  Part(const ir::Program& p, std::vector<HostArray> consts) : p_(p), env_(make_env(p)), nconsts_(consts.size()) {
    for (size_t i = 0; i < nconsts_; ++i) env_[p.invars[i]].words = std::move(consts[i].words);
  }

  // The program's outputs on `carry` (moved in for the run, then back; the
  // outputs are copies: they may repeat an input or each other).
  std::vector<HostArray> run(std::vector<HostArray>& carry, const ir::DeviceContext* ctx) {
    for (size_t j = 0; j < carry.size(); ++j) env_[p_.invars[nconsts_ + j]].words = std::move(carry[j].words);
    const int d = ctx ? ctx->device : 0;
    for (size_t i = 0; i < p_.eqns.size(); ++i)
      timed(d, static_cast<int32_t>(i), ir::primitive(p_.eqns[i].prim), [&] { eval_eqn(p_.eqns[i], env_, ctx); });
    std::vector<HostArray> outs;
    for (const ir::Atom& a : p_.outvars) outs.push_back(value_of(a, env_));
    for (size_t j = 0; j < carry.size(); ++j) carry[j].words = std::move(env_[p_.invars[nconsts_ + j]].words);
    return outs;
  }

 private:
  const ir::Program& p_;
  std::vector<HostArray> env_;
  size_t nconsts_;
};

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
  Part cond(w.cond, std::move(cond_consts)), body(w.body, std::move(body_consts));
  for (;;) {
    throw_if_cancelled();
    if (cond.run(carry, ctx)[0].words[0] == 0) break;
    carry = body.run(carry, ctx);
  }
  for (size_t j = 0; j < out.size(); ++j)
    if (!carry[j].words.empty()) std::memcpy(out[j]->data, carry[j].words.data(), carry[j].words.size() * 4);
}

}  // namespace shardlab::exec
