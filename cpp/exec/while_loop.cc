#include "exec/while_loop.h"

#include <cstring>

#include "exec/eval_eqn.h"
#include "exec/timed.h"
#include "ir/primitives/control_flow.h"
#include "runtime/device_pool.h"

namespace shardlab::exec {

namespace {

// Per outvar of p: whether its value can move out of the environment, which
// holds only when it is a variable that no kept input is and that no earlier
// outvar names (a second use is copied).
std::vector<bool> movable_outputs(const ir::Program& p, size_t kept) {
  std::vector<bool> held(p.avals.size(), false);
  for (size_t k = 0; k < kept; ++k) held[p.invars[k]] = true;
  std::vector<bool> moves;
  for (const ir::Atom& a : p.outvars) {
    moves.push_back(!a.is_literal() && !held[a.var]);
    if (!a.is_literal()) held[a.var] = true;
  }
  return moves;
}

// A tensor's elements as a host array.
HostArray copy_of(const ir::Tensor& t) {
  HostArray h{t.aval, std::vector<uint32_t>(static_cast<size_t>(num_elements(t.aval.shape)))};
  if (!h.words.empty()) std::memcpy(h.words.data(), t.data, h.words.size() * 4);
  return h;
}

}  // namespace

LoopPart::LoopPart(const ir::Program& p, size_t nconsts, bool keeps_carry)
    : program(p), nconsts_(nconsts), kept_(keeps_carry ? p.invars.size() : nconsts),
      donate_(donations(p, kept_)),
      moves_(movable_outputs(p, kept_)) {}

std::vector<HostArray> LoopPart::env(std::vector<HostArray> consts) const {
  std::vector<HostArray> env = make_env(program);
  for (size_t i = 0; i < nconsts_; ++i) env[program.invars[i]].words = std::move(consts[i].words);
  return env;
}

void LoopPart::bind(std::vector<HostArray>& env, std::vector<HostArray>& carry) const {
  for (size_t j = 0; j < carry.size(); ++j) env[program.invars[nconsts_ + j]].words = std::move(carry[j].words);
}

void LoopPart::unbind(std::vector<HostArray>& env, std::vector<HostArray>& carry) const {
  for (size_t j = 0; j < carry.size(); ++j) carry[j].words = std::move(env[program.invars[nconsts_ + j]].words);
}

void LoopPart::eval(size_t i, std::vector<HostArray>& env, const ir::DeviceContext* ctx) const {
  eval_eqn(program.eqns[i], env, ctx, donate_[i]);
}

std::vector<HostArray> LoopPart::outputs(std::vector<HostArray>& env) const {
  std::vector<HostArray> outs;
  for (size_t o = 0; o < program.outvars.size(); ++o) {
    const ir::Atom& a = program.outvars[o];
    outs.push_back(moves_[o] ? HostArray{env[a.var].aval, std::move(env[a.var].words)} : value_of(a, env));
  }
  return outs;
}

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
  const LoopPart cond(w.cond, w.cond_nconsts, true), body(w.body, w.body_nconsts, false);
  std::vector<HostArray> cond_env = cond.env(std::move(cond_consts)), body_env = body.env(std::move(body_consts));
  const int d = ctx ? ctx->device : 0;
  const auto run = [&](const LoopPart& part, std::vector<HostArray>& env) {
    for (size_t i = 0; i < part.program.eqns.size(); ++i)
      timed(d, static_cast<int32_t>(i), ir::primitive(part.program.eqns[i].prim), [&] { part.eval(i, env, ctx); });
  };
  for (;;) {
    throw_if_cancelled();
    cond.bind(cond_env, carry);
    run(cond, cond_env);
    const bool go = value_of(w.cond.outvars[0], cond_env).words[0] != 0;
    cond.unbind(cond_env, carry);
    if (!go) break;
    body.bind(body_env, carry);
    run(body, body_env);
    carry = body.outputs(body_env);
  }
  for (size_t j = 0; j < out.size(); ++j)
    if (!carry[j].words.empty()) std::memcpy(out[j]->data, carry[j].words.data(), carry[j].words.size() * 4);
}

}  // namespace shardlab::exec
